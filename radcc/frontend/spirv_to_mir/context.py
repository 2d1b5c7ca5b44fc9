"""The translation context (Mesa's ``vtn_builder``, src/compiler/spirv/vtn_private.h):
the module, the shader being built and its builders, the value maps (module
constants, globals, the current function's values), the instruction being
translated (for located errors) and the small type queries every family uses.
Also the pointer kinds (`LocalPtr`, `MemPtr`, `BuiltinPtr`), the constructs that
own MIR loops and `fold_value`.

The context's `translate` is the opcode table (`dispatch.translate`, given by the
driver): the modules below the table (constants for ``OpSpecConstantOp``,
control flow for block bodies) translate instructions through it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..mir import (
    CFNode,
    Instr,
    LocalVar,
    MirFunction,
    MirShader,
    StageVar,
    Value,
)
from ..mir_builder import MirBuilder
from ..mir_ops import ALU_OPS
from ..spirv import SpirvError
from ..spirv.binary import Instruction
from ..spirv.module import SpirvModule
from ..spirv.types import (
    Function,
    TypeBool,
    TypeCooperativeMatrix,
    TypeFloat,
    TypeInt,
    TypeVector,
)

SpecValue = int | float | bool


@dataclass
class LocalPtr:
    deref: Value
    tid: int  # pointee type id
    comp: Value | int | None = None  # a component of a vector variable


@dataclass
class MemPtr:
    space: str  # "ssbo", "ubo", "push", "shared", "global" (buffer device address)
    binding: tuple[int, int] | None
    dyn: Value | None
    const: int
    tid: int
    explicit: bool
    matrix_stride: int = 0
    row_major: bool = False
    readonly: bool = False
    comp_stride: int = 0  # a vector whose components are this far apart (a row-major column)
    base: Value | None = None  # "global": the 64-bit address the offsets are from
    # an element of an array of buffer descriptors: its binding and index (OpArrayLength
    # reads the element's size from its descriptor)
    desc: tuple[tuple[int, int], Value] | None = None


@dataclass
class BuiltinPtr:
    name: str
    comp: int | Value | None = None


TV = Any  # Value | list[TV] | LocalPtr | MemPtr | BuiltinPtr


class KnownValue:
    """A whole local variable's value known at translation (`TranslationContext.known`):
    `value`, last stored to it (or loaded from it) in the control-flow list `cf`, the
    builder's `depth`-th list (`MirBuilder.lists`), `loop_depth` SPIR-V loops deep
    (-1: the variable's only store, which every later load it dominates reads, in loops
    entered after it too). It holds while `cf` is still the builder's `depth`-th list:
    the block it was recorded in dominates the cursor, and no store to the variable has
    been translated since (a store records anew), nor a loop entered whose later stores
    may reach the cursor through the back edge (the loop depth is the recorded one)."""

    __slots__ = ("value", "cf", "depth", "loop_depth")

    def __init__(self, value: Value, cf: list[CFNode], depth: int, loop_depth: int) -> None:
        self.value = value
        self.cf = cf
        self.depth = depth
        self.loop_depth = loop_depth


SCOPES = {0: "CrossDevice", 1: "Device", 2: "Workgroup", 3: "Subgroup", 4: "Invocation",
          5: "QueueFamily", 6: "ShaderCallKHR"}


@dataclass(eq=False)
class Construct:
    """A SPIR-V construct that owns a MIR loop: a loop, a switch, or a function body."""

    kind: str  # "loop", "switch", "func"
    merge: int | None = None
    cont: int | None = None
    in_cont: bool = False
    flags: dict[tuple[str, int], LocalVar] = field(default_factory=dict)
    pending: list[tuple[LocalVar, tuple[str, Construct]]] = field(default_factory=list)


@dataclass(eq=False)
class FuncCtx:
    fn: Function
    vals: dict[int, TV]
    constructs: list[Construct]
    ret_var: LocalVar | None = None
    ret_tid: int = 0
    phi_vars: dict[int, LocalVar] = field(default_factory=dict)
    block_index: dict[int, int] = field(default_factory=dict)
    phi_blocks: frozenset[int] = frozenset()  # the labels of the blocks with OpPhis
    # its Function variables stored once and otherwise only loaded (`cfg.single_store_vars`)
    single_store: frozenset[int] = frozenset()


def err(msg: str, ins: Instruction | None) -> SpirvError:
    if ins is None:
        return SpirvError(msg, 0, "")
    return SpirvError(msg, ins.offset, ins.opname)


# a value's fold by (value index, depth), within one `fold_value`: a value the
# expression reaches again (``c2 = c1 + c1; c3 = c2 + c2 ...``, specialization constants
# built on each other) is folded once, not once per path to it (2^n paths)
_FoldMemo = dict[tuple[int, int], tuple[int, ...] | None]


def fold_value(v: Value, depth: int = 0, memo: _FoldMemo | None = None
               ) -> tuple[int, ...] | None:
    """Raw bits of ``v`` if it is computed from constants by ALU ops only, at most 64
    ops deep (`depth` and `memo`: the recursion's)."""
    p = v.parent
    if p is None or depth > 64:
        return None
    if p.op == "load_const":
        return tuple(p.attrs["value"])
    if p.op not in ALU_OPS:
        return None
    if memo is None:
        memo = {}
    key = (v.index, depth)
    if key in memo:
        return memo[key]
    memo[key] = None  # (until its sources have folded)
    srcs = []
    for s in p.srcs:
        k = fold_value(s, depth + 1, memo)
        if k is None:
            return None
        srcs.append(k)
    from ..mir_fold import fold  # NumPy: only a fold plain Python does not compute loads it

    r = memo[key] = fold(p.op, v.bit_size, v.num_components, srcs,
                         [s.bit_size for s in p.srcs], p.attrs)
    return r


def leaf_types(m: SpirvModule) -> dict[int, tuple[str, int, int]]:
    """Each bool, integer, float and vector type id of ``m``: its scalar base ("bool",
    "int", "uint", "float"), bit size and component count."""
    out: dict[int, tuple[str, int, int]] = {}
    types = m.types
    for tid, t in types.items():
        n = 1
        if isinstance(t, TypeVector):
            n = t.count
            t = types[t.component]
        if isinstance(t, TypeBool):
            out[tid] = ("bool", 1, n)
        elif isinstance(t, TypeInt):
            out[tid] = ("int" if t.signed else "uint", t.width, n)
        elif isinstance(t, TypeFloat):
            out[tid] = ("float", t.width, n)
    return out


class TranslationContext:
    """The state of one translation (Mesa's ``vtn_builder``) and the type queries
    every family uses."""

    def __init__(self, m: SpirvModule, entry: str | None, spec: dict[int, SpecValue],
                 translate: Callable[[TranslationContext, Instruction], None],
                 wave_size: int | None = None,
                 instance_inputs: frozenset[int] = frozenset()) -> None:
        self.m = m
        # a vertex shader's inputs fetched per instance (the pipeline's input rates)
        self.instance_inputs = instance_inputs
        self.spec = spec
        # the subgroup size when the target's is known: cooperative matrices depend on it
        self.wave_size = wave_size
        # each scalar and vector type's (base, bit size, components) by type id, read by
        # the type queries (`scalar`, `shape`, `comps`, `bits`, `is_leaf`): a vector's
        # component is a scalar (`spirv.reader`)
        self.leaves = leaf_types(m)
        # whether the module declares bfloat16 (SPV_KHR_bfloat16: `bfloat16.py`)
        self.has_bf16 = any(isinstance(t, TypeFloat) and t.bfloat16 for t in m.types.values())
        # whether it declares cooperative matrices (element-wise arithmetic on them:
        # `coopmat.py`)
        self.has_cmat = any(isinstance(t, TypeCooperativeMatrix) for t in m.types.values())
        # the ids decorated NoContraction (GLSL precise: never fused into an fma)
        self.no_contraction = {i for i, ds in m.id_decorations.items() for d in ds
                               if d.name == "NoContraction"}
        try:
            self.ep = m.entry_point(entry)
        except KeyError:
            names = [e.name for e in m.entry_points]
            raise err(f"no entry point {entry!r} (the module has {names})", None) from None
        fn = MirFunction(self.ep.name, [])
        self.shader = MirShader(self.ep.name, (1, 1, 1), fn, spec=dict(spec))
        self.const_block = self.shader.new_block()
        self.cb = MirBuilder(self.shader, [self.const_block])
        self.b = MirBuilder(self.shader)
        self.consts: dict[int, TV] = {}
        self.globals: dict[int, TV] = {}
        self.shared_offset = 0
        self.flag_vars: list[LocalVar] = []
        # a vertex shader's interface variables (stage_io.py): (id, storage class,
        # pointee type) from declare_globals, then their locals
        self.stage_vars: list[tuple[int, str, int]] = []
        self.stage_inputs: list[tuple[StageVar, LocalPtr]] = []
        self.stage_outputs: list[tuple[int, LocalPtr]] = []
        self.call_depth = 0
        self.region_depth = 0  # structured constructs open (cfg.region), MAX_CF_NESTING
        self.ins: Instruction | None = None
        self.fctx: FuncCtx | None = None
        self.in_spec_op = False
        self.spec_result: dict[int, TV] = {}
        # the opcode table (`dispatch.translate`): ``ctx.translate(ctx, ins)`` translates
        # one instruction, the MIR it emits with the source line in effect
        self.translate = translate
        self.line = 0  # the source line in effect (OpLine, DebugLine)
        self.fs_outputs: list[Any] = []  # a fragment shader's outputs (`fragment_io`)
        # each whole local variable's value as far as translation knows it
        # (`variables.known_value`: a load of it where the value holds reads it without
        # a ``load_deref``, as vars_to_ssa would rename it); `single_store`: the local
        # variables of SPIR-V Function variables stored once and used by nothing but
        # that store and whole loads (`cfg.single_store_vars`); `loop_depth`: how many
        # SPIR-V loops (`cfg.emit_loop`) the translation is inside
        self.known: dict[LocalVar, KnownValue] = {}
        self.single_store: set[LocalVar] = set()
        # the variables read by a ``load_deref``; the stores of the `single_store`
        # variables none has read (`driver.drop_lone_stores` removes those left at the end)
        self.loaded: set[LocalVar] = set()
        self.lone_stores: dict[LocalVar, Instr] = {}
        self.loop_depth = 0

    def ty(self, tid: int) -> Any:
        return self.m.types[tid]

    def scalar(self, tid: int) -> tuple[str, int]:
        leaf = self.leaves.get(tid)
        if leaf is None:
            raise err(f"type %{tid} is not a scalar or vector", self.ins)
        return leaf[0], leaf[1]

    def shape(self, tid: int) -> tuple[int, int]:
        """A scalar or vector type's bit size and component count."""
        leaf = self.leaves.get(tid)
        if leaf is None:
            raise err(f"type %{tid} is not a scalar or vector", self.ins)
        return leaf[1], leaf[2]

    def comps(self, tid: int) -> int:
        leaf = self.leaves.get(tid)
        return leaf[2] if leaf is not None else 1

    def bits(self, tid: int) -> int:
        return self.scalar(tid)[1]

    def is_leaf(self, tid: int) -> bool:
        return tid in self.leaves

    def set(self, ins: Instruction, value: TV) -> None:
        assert ins.result_id is not None
        if self.fctx is None or self.in_spec_op:
            self.spec_result[ins.result_id] = value
        else:
            self.fctx.vals[ins.result_id] = value
