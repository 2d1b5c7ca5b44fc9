"""The mid-level IR (MIR): NIR-like SSA with structured control flow.

A ``MirShader`` holds one ``MirFunction`` (every call is inlined by the
SPIR-V translation). A function body is a *control-flow list*: ``Block``,
``If`` and ``Loop`` nodes that, as in NIR, always start and end with a block
and never hold two adjacent blocks.

* ``Value``: an SSA definition with ``bit_size`` (1 for booleans, 8/16/32/64)
  and ``num_components`` (1-4; 1 after vector lowering). Each value has one
  defining ``Instr`` (``value.parent``).
* ``Instr``: ``op`` (an ALU opcode of ``mir_ops.ALU_OPS``, an intrinsic of
  ``mir_ops.INTRINSICS``, or one of ``load_const``, ``undef``, ``phi``,
  ``break``, ``continue``), ``dest`` (a ``Value`` or None), ``srcs`` (values)
  and ``attrs`` (NIR's "constant indices": ``value`` of a constant as raw bits per
  component, ``comps`` of a swizzling ``mov``, ``binding`` of a buffer access,
  ``atomic_op``, ``reduction_op``, ``cluster_size``, ``var``/``index`` of a
  deref, barrier scopes ...). A ``phi`` has ``preds``: the predecessor block of
  each source, in the same order. ``break``/``continue`` are the last
  instruction of a block and jump out of / to the next iteration of the
  innermost loop.
* ``If(cond, then_list, else_list)``: ``cond`` is a 1-bit scalar; phis of the
  values merged by the if are at the start of the block after it.
* ``Loop(body, cont)``: ``body`` runs each iteration; ``cont`` (the SPIR-V
  continue construct, empty when there is none) runs after the end of ``body``
  and after each ``continue``, then control returns to the start of ``body``.
  Loop-carried phis are at the start of the body's first block (predecessors:
  the block before the loop and the back edges); phis after the loop take the
  blocks that break.

Local (Function storage) variables are ``LocalVar``s accessed through deref
instructions (``deref_var``, ``deref_array``, ``deref_struct``) and
``load_deref``/``store_deref`` until ``opt.vars_to_ssa`` promotes them.
Aggregates never appear as values: the translation splits them into their
scalar/vector leaves.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from radcc.abi.stage import COMPUTE_CS, Stage
from radcc.ir.shader_config import FpMode
from radcc.target import MirOptions

from .mir_ops import ALU_OPS

# ---------------------------------------------------------------- types of locals


@dataclass(frozen=True)
class ValType:
    """A scalar or vector: ``base`` is "int", "uint", "float" or "bool"."""

    base: str
    bit_size: int
    num_components: int = 1

    def __str__(self) -> str:
        b = {"int": "i", "uint": "u", "float": "f", "bool": "b"}[self.base]
        s = f"{b}{self.bit_size}"
        return s if self.num_components == 1 else f"{s}vec{self.num_components}"


@dataclass(frozen=True)
class ArrayType:
    element: MType
    length: int

    def __str__(self) -> str:
        return f"{self.element}[{self.length}]"


@dataclass(frozen=True)
class StructType:
    members: tuple[MType, ...]

    def __str__(self) -> str:
        return "struct{" + ", ".join(str(m) for m in self.members) + "}"


MType = ValType | ArrayType | StructType


def leaf_count(t: MType) -> int:
    """How many scalar/vector leaves an aggregate holds (the interpreter's slots)."""
    if isinstance(t, ValType):
        return 1
    if isinstance(t, ArrayType):
        return t.length * leaf_count(t.element)
    return sum(leaf_count(m) for m in t.members)


def member_leaf_offset(t: StructType, index: int) -> int:
    return sum(leaf_count(m) for m in t.members[:index])


@dataclass(eq=False)
class LocalVar:
    index: int
    name: str
    type: MType

    def __repr__(self) -> str:
        return f"LocalVar({self.index}, {self.name!r}, {self.type})"


# ---------------------------------------------------------------- values and instructions


class Value:
    __slots__ = ("index", "bit_size", "num_components", "parent", "divergent")

    def __init__(self, index: int, bit_size: int, num_components: int) -> None:
        assert bit_size in (1, 8, 16, 32, 64), bit_size
        assert 1 <= num_components <= 16, num_components
        self.index = index
        self.bit_size = bit_size
        self.num_components = num_components
        self.parent: Instr | None = None
        self.divergent = True

    def __repr__(self) -> str:
        return f"%{self.index}"


class Instr:
    __slots__ = ("op", "dest", "srcs", "attrs", "preds", "block", "line")

    def __init__(
        self,
        op: str,
        dest: Value | None,
        srcs: list[Value] | None = None,
        attrs: dict[str, Any] | None = None,
    ) -> None:
        self.op = op
        self.dest = dest
        self.srcs: list[Value] = list(srcs or [])
        self.attrs: dict[str, Any] = dict(attrs or {})
        self.preds: list[Block] = []  # phis only
        self.block: Block | None = None
        self.line = 0  # source line (SPIR-V debug info, radcc.frontend.spirv.debug_lines)
        if dest is not None:
            dest.parent = self

    @property
    def is_jump(self) -> bool:
        return self.op in ("break", "continue")

    def __repr__(self) -> str:
        return format_instr(self)


class Block:
    __slots__ = ("index", "instrs")

    def __init__(self, index: int) -> None:
        self.index = index
        self.instrs: list[Instr] = []

    def append(self, ins: Instr) -> Instr:
        ins.block = self
        self.instrs.append(ins)
        return ins

    def insert(self, pos: int, ins: Instr) -> Instr:
        ins.block = self
        self.instrs.insert(pos, ins)
        return ins

    @property
    def jump(self) -> Instr | None:
        instrs = self.instrs
        if instrs and instrs[-1].op in ("break", "continue"):  # (Instr.is_jump)
            return instrs[-1]
        return None

    @property
    def phis(self) -> list[Instr]:
        out = []
        for i in self.instrs:
            if i.op != "phi":
                break
            out.append(i)
        return out

    def __repr__(self) -> str:
        return f"b{self.index}"


@dataclass(eq=False)
class If:
    cond: Value
    then_list: list[CFNode]
    else_list: list[CFNode]


@dataclass(eq=False)
class Loop:
    body: list[CFNode]
    cont: list[CFNode] = field(default_factory=list)


CFNode = Block | If | Loop


# ---------------------------------------------------------------- shader


@dataclass
class Binding:
    """A descriptor binding the shader uses: a storage or uniform buffer block."""

    set: int
    binding: int
    kind: str  # "storage" or "uniform"
    readonly: bool = False
    min_size: int = 0  # bytes of the block's fixed part (runtime array: its offset)


@dataclass
class ImageBinding:
    """A descriptor binding the shader uses: an image (docs/abi.md, "Images")."""

    set: int
    binding: int
    dim: str  # SPIR-V Dim, "Array" appended if arrayed: "2D", "2DArray" ...
    format: str  # SPIR-V image format of a storage image ("Unknown": none declared)
    sampled_type: str  # "float", "int" or "uint": the texel components in the shader
    storage: bool = True  # a storage image (else a sampled image)
    readonly: bool = False  # NonWritable
    writeonly: bool = False  # NonReadable

    @property
    def texel_buffer(self) -> bool:
        """A uniform or storage texel buffer (its descriptor is a V#, docs/abi.md)."""
        return self.dim == "Buffer"


@dataclass(frozen=True)
class StageVar:
    """A graphics stage's interface variable at a Location: a vertex shader's input or
    output (docs/mir.md "Vertex shaders"), `components` components of `type`
    ("float", "int" or "uint") of `bits` bits (32 or 16; a 16-bit one takes a 32-bit
    component of its location); an input is fetched `per_instance` (else per vertex)."""

    location: int
    components: int
    type: str
    bits: int = 32
    per_instance: bool = False


@dataclass(frozen=True)
class FloatControls:
    """The entry point's SPV_KHR_float_controls execution modes, each the float bit
    sizes it names: DenormPreserve, DenormFlushToZero, RoundingModeRTE, RoundingModeRTZ
    (SignedZeroInfNanPreserve is `MirShader.float_preserve`). Empty: the
    implementation's choice (radcc: ACO's, `FpMode`)."""
    denorm_preserve: frozenset[int] = frozenset()
    denorm_flush: frozenset[int] = frozenset()
    rte: frozenset[int] = frozenset()
    rtz: frozenset[int] = frozenset()

    def fp_mode(self) -> FpMode:
        """The MODE register's float fields these controls give (ACO's choice,
        `FpMode.from_controls`)."""
        return FpMode.from_controls(self.denorm_preserve, self.denorm_flush, self.rtz)

    def flushed(self) -> frozenset[int]:
        """The float bit sizes whose denormals the kernel will flush (`FpMode.flushed`)."""
        return self.fp_mode().flushed()


@dataclass(eq=False)
class MirFunction:
    name: str
    body: list[CFNode]
    locals: list[LocalVar] = field(default_factory=list)


class DerivativeGroup(Enum):
    """How a compute shader's invocations form the quads its derivatives and implicit-LOD
    sampling difference over (SPV_KHR_compute_shader_derivatives' execution modes): none
    (no derivatives), QUADS (DerivativeGroupQuadsKHR: each quad a 2x2 block of local ids
    (2m+{0,1}, 2n+{0,1}); isel's `sysval` lays the ids out so that the block is 4
    consecutive lanes) or LINEAR (DerivativeGroupLinearKHR: local invocation indices
    4m+{0,1,2,3}, the hardware's lanes as they are)."""

    NONE = "none"
    QUADS = "quads"
    LINEAR = "linear"


@dataclass(eq=False)
class MirShader:
    entry: str
    workgroup_size: tuple[int, int, int]
    function: MirFunction
    bindings: dict[tuple[int, int], Binding] = field(default_factory=dict)
    images: dict[tuple[int, int], ImageBinding] = field(default_factory=dict)
    # sampler bindings: "separate" (OpTypeSampler) or "combined" (with the image there)
    samplers: dict[tuple[int, int], str] = field(default_factory=dict)
    # arrays of descriptors: the element count of each image/sampler binding that is an
    # array (docs/abi.md "Arrays of descriptors"; a combined image sampler's count is its
    # image's and its sampler's)
    descriptor_counts: dict[tuple[int, int], int] = field(default_factory=dict)
    push_constant_size: int = 0
    shared_size: int = 0
    scratch_size: int = 0  # bytes of private memory per invocation (opt.lower_local_arrays)
    stage: Stage = COMPUTE_CS  # the execution model's stage (vertex: ``vertex_ngg``)
    # a compute shader's derivative groups (derivatives and implicit LOD allowed unless NONE)
    derivative_group: DerivativeGroup = DerivativeGroup.NONE
    inputs: list[StageVar] = field(default_factory=list)  # vertex inputs (Location order)
    outputs: list[StageVar] = field(default_factory=list)  # varyings (Location order)
    # read-only bytes the code object carries, read by load_constant (opt.lower_local_arrays)
    constant_data: bytes = b""
    spec: dict[int, int | float | bool] = field(default_factory=dict)
    # float bit sizes whose signed zeros, infinities and NaNs must be kept (the entry
    # point's SignedZeroInfNanPreserve modes): opt.algebraic's inexact rules skip them
    float_preserve: frozenset[int] = frozenset()
    # the other float controls (denormals, rounding): isel's `FpMode`, the MODE register
    float_controls: FloatControls = FloatControls()
    # what the target's isel needs (NIR's shader->options): set by `opt.lower_for_isel`
    options: MirOptions | None = None
    next_value: int = 0
    # every value and block `new_value` and `new_block` made, for `release` (a value's
    # ``parent`` links it to its instruction, a block's instructions link back to it:
    # reference cycles, also once a pass has dropped the instruction or the block)
    made_values: list[Value] = field(default_factory=list)
    made_blocks: list[Block] = field(default_factory=list)
    next_block: int = 0
    # while set, the control-flow structure is fixed and `blocks()` reads its block list
    # (`FixedStructure`; `opt.optimize` sets it around its passes, which change
    # instructions only)
    fixed: FixedStructure | None = None

    def new_value(self, bit_size: int, num_components: int = 1) -> Value:
        v = Value(self.next_value, bit_size, num_components)
        self.next_value += 1
        self.made_values.append(v)
        return v

    def new_block(self) -> Block:
        b = Block(self.next_block)
        self.next_block += 1
        self.made_blocks.append(b)
        return b

    def new_local(self, name: str, t: MType) -> LocalVar:
        v = LocalVar(len(self.function.locals), name, t)
        self.function.locals.append(v)
        return v

    # ----- walking -----
    def blocks(self) -> Iterator[Block]:
        """Every block in program (textual) order."""
        fixed = self.fixed
        if fixed is not None:
            return iter(fixed.blocks)
        return iter_blocks(self.function.body)

    def structure(self) -> tuple[list[Block], list[If]]:
        """`blocks()` and `ifs()` as lists, read in one walk before the caller changes
        anything (for a walk that changes instructions and If conditions only, not the
        control-flow lists)."""
        fixed = self.fixed
        if fixed is not None:
            return fixed.blocks, fixed.ifs
        return cf_structure(self.function.body)

    def ifs(self) -> list[If]:
        """Every If node, pre-order."""
        fixed = self.fixed
        if fixed is not None:
            return fixed.ifs
        return cf_structure(self.function.body)[1]

    def instrs(self) -> Iterator[Instr]:
        """Every instruction in program order, read before the caller changes anything
        (one walk, no generator: for a caller that changes no block's instruction list)."""
        out: list[Instr] = []
        for b in self.structure()[0]:
            out += b.instrs
        return iter(out)


class FixedStructure:
    """A shader's blocks and If nodes while its control-flow structure does not change
    (`MirShader.fixed`): no CF list (a function body, an If's sides, a Loop's body or
    continue construct) is changed or replaced and no block gains or loses its jump
    (``break``/``continue``); instructions, sources and If conditions may change. What
    depends on the structure alone is computed once for as long as it is set: the
    blocks, the Ifs and (on the first request, `mir_cfg.dominator_children`) the
    dominator tree's children."""

    __slots__ = ("blocks", "ifs", "dom_children")

    def __init__(self, body: list[CFNode]) -> None:
        self.blocks, self.ifs = cf_structure(body)
        self.dom_children: dict[Block, list[Block]] | None = None


def iter_blocks(cf: list[CFNode]) -> Iterator[Block]:
    """Every block of `cf`, in program order (an If's then_list before its else_list, a
    Loop's body before its cont; each list read when the walk reaches it, as a
    recursive walk would). One generator with a stack of list iterators: a block is
    yielded once, not through a generator per nesting level."""
    stack: list[Iterator[CFNode] | _Rest] = [iter(cf)]
    while stack:
        top = stack[-1]
        if isinstance(top, _Rest):
            stack[-1] = iter(top.node.else_list if isinstance(top.node, If) else top.node.cont)
            continue
        for n in top:
            if isinstance(n, Block):
                yield n
            elif isinstance(n, If):
                stack.append(_Rest(n))
                stack.append(iter(n.then_list))
                break
            else:
                stack.append(_Rest(n))
                stack.append(iter(n.body))
                break
        else:
            stack.pop()


def cf_structure(cf: list[CFNode]) -> tuple[list[Block], list[If]]:
    """Every block of `cf` in program order (as `iter_blocks`) and every If node in
    pre-order (as `iter_nodes`), read in one walk as `cf` is now (no generator)."""
    blocks: list[Block] = []
    ifs: list[If] = []
    stack: list[CFNode] = cf[::-1]
    while stack:
        n = stack.pop()
        if isinstance(n, Block):
            blocks.append(n)
        elif isinstance(n, If):
            ifs.append(n)
            stack += n.else_list[::-1]
            stack += n.then_list[::-1]
        else:
            stack += n.cont[::-1]
            stack += n.body[::-1]
    return blocks, ifs


def iter_phis(blocks: Iterable[Block]) -> Iterator[Instr]:
    """Every phi of `blocks`, block by block: the leading instructions of each (phis lead
    their block, `mir_validate`), read as the walk reaches them (a caller may change a
    phi's sources and predecessors, not the blocks' instruction lists)."""
    for b in blocks:
        for ins in b.instrs:
            if ins.op != "phi":
                break
            yield ins


def iter_nodes(cf: list[CFNode]) -> Iterator[CFNode]:
    """Every node, pre-order (as `iter_blocks`, one generator with a stack)."""
    stack: list[Iterator[CFNode] | _Rest] = [iter(cf)]
    while stack:
        top = stack[-1]
        if isinstance(top, _Rest):
            stack[-1] = iter(top.node.else_list if isinstance(top.node, If) else top.node.cont)
            continue
        for n in top:
            yield n
            if isinstance(n, If):
                stack.append(_Rest(n))
                stack.append(iter(n.then_list))
                break
            if isinstance(n, Loop):
                stack.append(_Rest(n))
                stack.append(iter(n.body))
                break
        else:
            stack.pop()


class _Rest:
    """In `iter_blocks`' stack: the second list of `node` (an If's else_list, a Loop's
    cont), read when its first list is done."""

    __slots__ = ("node",)

    def __init__(self, node: If | Loop) -> None:
        self.node = node


def release(shader: MirShader) -> None:
    """Clear the back links of `shader`'s instructions (a value's ``parent``, an
    instruction's ``block`` and ``preds``), the reference cycles of the IR, so that the
    shader's objects are freed by reference counting once it is dropped rather than by
    Python's cyclic garbage collector (which would first trace them all). For a shader
    nothing reads any more: the driver calls it once instruction selection is done.
    Every block and value the shader made (`MirShader.made_blocks`, ``made_values``)
    is cleared: the blocks and instructions passes dropped are in such cycles too (most
    of a compile's garbage)."""
    for b in shader.made_blocks:
        for ins in b.instrs:
            ins.block = None
            ins.preds = []
    for v in shader.made_values:
        v.parent = None
    shader.made_blocks = []
    shader.made_values = []


def users(shader: MirShader) -> dict[int, list[Instr]]:
    """Value index -> the instructions that read it, in program order; an If's condition
    counts as a use by a stand-in ``if`` instruction (so a pass that rewrites a value
    only when it knows every reader leaves a branch condition alone)."""
    uses: dict[int, list[Instr]] = {}
    for ins in shader.instrs():
        for s in ins.srcs:
            uses.setdefault(s.index, []).append(ins)
    for n in shader.ifs():
        uses.setdefault(n.cond.index, []).append(Instr("if", None))
    return uses


def replace_uses(shader: MirShader, old: Value, new: Value) -> None:
    """Rewrite every source ``old`` to ``new`` (including if conditions)."""
    for ins in shader.instrs():
        if old in ins.srcs:
            ins.srcs = [new if s is old else s for s in ins.srcs]
    for n in shader.ifs():
        if n.cond is old:
            n.cond = new


def rewrite_uses(shader: MirShader, mapping: dict[Value, Value]) -> None:
    """Rewrite sources through ``mapping`` (followed transitively)."""
    if not mapping:
        return

    def look(v: Value) -> Value:
        seen = 0
        while v in mapping and seen < 1000:
            v = mapping[v]
            seen += 1
        return v

    keys = mapping.keys()
    blocks, ifs = shader.structure()
    for b in blocks:
        for ins in b.instrs:
            srcs = ins.srcs
            if not keys.isdisjoint(srcs):  # (most instructions keep their list)
                ins.srcs = [look(s) if s in mapping else s for s in srcs]
    for n in ifs:
        if n.cond in mapping:
            n.cond = look(n.cond)


# ---------------------------------------------------------------- constants

_MASKS = {1: 1, 8: 0xFF, 16: 0xFFFF, 32: 0xFFFFFFFF, 64: 0xFFFFFFFFFFFFFFFF}


def mask(bit_size: int) -> int:
    return _MASKS[bit_size]


def const_bits(ins: Instr) -> tuple[int, ...]:
    assert ins.op == "load_const"
    return tuple(ins.attrs["value"])


def const_of(v: Value) -> tuple[int, ...] | None:
    """Raw bits of each component if ``v`` is a load_const, else None."""
    p = v.parent
    if p is not None and p.op == "load_const":
        return tuple(p.attrs["value"])
    return None


# The text form of one instruction (`Instr.__repr__`; `mir_print` prints whole shaders).

_XYZW = "xyzw"


def _swz(comps: tuple[int, ...]) -> str:
    if all(c < 4 for c in comps):
        return "".join(_XYZW[c] for c in comps)
    return "[" + ",".join(str(c) for c in comps) + "]"


def _const_text(bits: int, raw: int) -> str:
    if bits == 1:
        return "true" if raw else "false"
    w = max(2, bits // 4)
    s = f"0x{raw:0{w}x}"
    signed = raw - (1 << bits) if raw >> (bits - 1) else raw
    extra = str(signed)
    if bits in (16, 32, 64) and abs(signed) > 0xFFFF:
        fmt = {16: "<e", 32: "<f", 64: "<d"}[bits]
        ifmt = {16: "<H", 32: "<I", 64: "<Q"}[bits]
        f = struct.unpack(fmt, struct.pack(ifmt, raw))[0]
        extra += f" /* {f!r} */"
    return f"{s} = {extra}"


def _attr(k: str, v: Any) -> str:
    if k == "binding" and isinstance(v, tuple):
        return f"binding={v[0]}:{v[1]}"
    if k == "var":
        return f"var=v{v.index}"
    if isinstance(v, tuple | list):
        return f"{k}=" + ",".join(str(x) for x in v)
    return f"{k}={v}"


def _def_text(v: Value | None, divergence: bool) -> str:
    if v is None:
        return " " * (14 if divergence else 10)
    size = f"{v.bit_size}" + (f"x{v.num_components}" if v.num_components > 1 else "")
    d = ("div " if v.divergent else "con ") if divergence else ""
    return f"{d}{size:<6}{'%' + str(v.index):>4} = "


def format_instr(ins: Instr, divergence: bool = False) -> str:
    head = _def_text(ins.dest, divergence)
    op = ins.op
    if op in ("break", "continue"):
        return op
    if op == "load_const":
        assert ins.dest is not None
        vals = ", ".join(_const_text(ins.dest.bit_size, x) for x in ins.attrs["value"])
        return f"{head}load_const ({vals})"
    if op == "phi":
        srcs = ", ".join(f"b{p.index}: {s}" for p, s in zip(ins.preds, ins.srcs, strict=True))
        return f"{head}phi {srcs}"
    if op == "mov" and "comps" in ins.attrs:
        return f"{head}mov {ins.srcs[0]}.{_swz(tuple(ins.attrs['comps']))}"
    name = op if op in ALU_OPS or op == "undef" else "@" + op
    parts = [name]
    if ins.srcs:
        parts.append(", ".join(str(s) for s in ins.srcs))
    text = head + " ".join(parts)
    attrs = {k: v for k, v in ins.attrs.items() if k != "comps"}
    if attrs:
        text += " (" + ", ".join(_attr(k, v) for k, v in sorted(attrs.items())) + ")"
    return text
