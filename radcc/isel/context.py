"""The state of instruction selection and its value helpers.

Register classes (ACO's second step, ACO's README.md "Instruction Selection"), from the
divergence analysis (`radcc.frontend.divergence`):

- a uniform value lives in SGPRs (``s1``, ``s2`` for 64 bits), computed on the
  SALU when it has the operation, else on the VALU and moved with
  ``p_as_uniform`` (``v_readfirstlane_b32`` per dword);
- a divergent value lives in VGPRs (``v1``, ``v2``);
- a uniform boolean is an ``s1`` holding 0 or 1, a divergent one a lane mask
  (``program.lane_mask``: s1 in wave32, s2 in wave64).

A MIR value maps to one entry per component (`Comp`): a `Temp`, or a constant
``Const(bits, value)`` that is materialized where an instruction needs a
register. Booleans and integers of 8/16 bits are not selected yet (a clear
`UnsupportedError` names the MIR op).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from radcc.abi import amdhsa
from radcc.abi.args import ArgKind, ShaderArgs
from radcc.abi.color import ColorFormat
from radcc.abi.kernarg import KernargLayout, Role, descriptor_stride, shader_layout
from radcc.abi.stage import VERTEX_NGG
from radcc.frontend.mir import Block as MBlock
from radcc.frontend.mir import CFNode, If, ImageBinding, Instr, Loop, MirShader, Value
from radcc.ir.builder import Builder
from radcc.ir.opinfo import E64_FORMATS
from radcc.ir.program import Block, Operand, Program
from radcc.ir.regclass import SCC, PhysReg, RegClass, Temp, s1, s2, v1, v2
from radcc.ir.validate import is_inline_constant
from radcc.passes.lane_mask import lm_opcode
from radcc.target import Target

if TYPE_CHECKING:
    from radcc.abi.graphics import PsInput


def descriptor_arrays(shader: MirShader) -> dict[tuple[Role, tuple[int, int]], tuple[int, int]]:
    """The (count, stride) of every buffer, image and sampler binding that is an array of
    descriptors (docs/abi.md "Arrays of descriptors")."""
    out: dict[tuple[Role, tuple[int, int]], tuple[int, int]] = {}
    for key, n in shader.descriptor_counts.items():
        if key in shader.bindings:
            out[(Role.BUFFER_ADDRESS, key)] = (n, descriptor_stride(buffer=True))
            continue
        combined = shader.samplers.get(key) == "combined"
        img = shader.images.get(key)
        if img is not None:
            out[(Role.IMAGE, key)] = (n, descriptor_stride(
                texel_buffer=img.texel_buffer, storage=img.storage, combined=combined))
        if key in shader.samplers:
            out[(Role.SAMPLER, key)] = (n, descriptor_stride(combined=combined,
                                                             sampler=True))
    return out


def image_access(img: ImageBinding) -> str:
    """The ``.access`` of an image argument (AMDGPUUsage): sampled images and NonWritable
    storage images are read only, NonReadable ones write only."""
    if img.readonly or not img.storage:
        return "read_only"
    return "write_only" if img.writeonly else "read_write"


class IselError(Exception):
    """Instruction selection cannot translate the shader."""


class UnsupportedError(IselError):
    """A MIR construct radcc does not select yet."""


@dataclass(frozen=True, slots=True)
class Const:
    bits: int  # 1, 32 or 64
    value: int


Comp = Temp | Const
Snap = dict[Value, list[Comp]]  # a MIR block's outgoing phi operands (`cf.py`)

SMALL = (8, 16)  # bit sizes selected by the 16-bit modules (alu16, mem16, subgroup16)
# VALU opcodes whose last source is a lane mask (SGPRs or VCC, never a VGPR)
LANE_MASK_LAST = frozenset(("v_cndmask_b32", "v_add_co_ci_u32", "v_sub_co_ci_u32",
                            "v_subrev_co_ci_u32"))


def unsupported(ins: Instr | None, what: str = "") -> UnsupportedError:
    name = ins.op if ins is not None else "?"
    bits = ""
    if ins is not None and ins.dest is not None:
        bits = f" ({ins.dest.bit_size}-bit)"
    return UnsupportedError(f"instruction selection: unsupported MIR op '{name}'{bits}"
                            + (f": {what}" if what else ""))


class FragmentState:
    """What the selection of one fragment shader keeps: its argument temps, the
    parameter index of each input location, the exported values, the export formats."""

    def __init__(self, args: dict[ArgKind, Temp], inputs: tuple[PsInput, ...],
                 color_formats: tuple[ColorFormat, ...]) -> None:
        self.args = args
        self.inputs = inputs
        self.attr = {p.location: i for i, p in enumerate(self.inputs)}
        self.outputs: dict[tuple[int, int], Comp] = {}  # (location, component) -> value
        self.output_base: dict[int, str] = {}
        self.color_formats = color_formats

    def format_of(self, location: int) -> ColorFormat:
        if location < len(self.color_formats):
            return self.color_formats[location]
        return self.color_formats[-1] if self.color_formats else ColorFormat.RGBA8


@dataclass
class LoopInfo:
    """A loop being selected (`cf.select_loop`)."""

    mir: Loop
    header: Block
    exit: Block
    preheader: Block
    header_mblock: MBlock
    exit_mblock: MBlock | None
    inside: set[MBlock]
    continues: list[tuple[Block, Snap]] = field(default_factory=list)
    breaks: list[tuple[Block, Snap]] = field(default_factory=list)
    has_divergent_continue: bool = False
    has_divergent_break: bool = False
    escaping: list[Value] = field(default_factory=list)  # phis at the exit besides the MIR's


# each MIR value -> the MIR blocks that read it (`IselContext.value_uses`)
ValueUses = dict[Value, set[MBlock]]


@dataclass
class CfState:
    """The control-flow state of the selection (`cf.py`; ACO's ``isel_context::cf_info``)."""

    edges: list[tuple[Block, Block, bool, bool]] = field(default_factory=list)
    depth: int = 0
    uniform_if_depth: int = 0  # ACO's program->next_uniform_if_depth
    divergent_if_depth: int = 0  # ACO's program->next_divergent_if_logical_depth
    loops: list[LoopInfo] = field(default_factory=list)
    divergent_if: bool = False
    has_branch: bool = False
    has_divergent_branch: bool = False
    pe_break: bool = False
    pe_continue: bool = False
    # set by an if whose both sides jump: the rest of the statement list is dead
    unreachable: bool = False
    mblock: MBlock | None = None
    next_of: dict[int, MBlock] = field(default_factory=dict)  # id(If/Loop) -> block after it
    prev_of: dict[int, MBlock] = field(default_factory=dict)
    uses: ValueUses | None = None  # `IselContext.value_uses`
    linear_phis: list[tuple[Block, object, dict[int, Comp | None]]] = field(
        default_factory=list)


@dataclass
class VertexOutputs:
    """What a vertex shader's ``store_output``s recorded (in program order)."""

    position: list[Comp] | None = None
    point_size: Comp | None = None
    clip: dict[int, Comp] = field(default_factory=dict)
    cull: dict[int, Comp] = field(default_factory=dict)
    params: dict[int, list[Comp]] = field(default_factory=dict)  # location -> components
    exported: bool = False

    def param_order(self) -> list[int]:
        return sorted(self.params)

    def pos_exports(self) -> int:
        n = 1 + (self.point_size is not None)
        return n + -(-self.clip_cull_count() // 4)

    def clip_cull_count(self) -> int:
        nclip = max(self.clip, default=-1) + 1
        ncull = max(self.cull, default=-1) + 1
        return nclip + ncull



class IselContext:
    """The state of one selection, shared by every selection module (ACO's
    ``isel_context``): the program being built and its builder, the current block,
    the MIR value map, the lane-mask class and wave size, the shader's ABI values
    (kernarg pointer, workgroup and local ids, binding base addresses, set up by
    `select.py`) and the control-flow state; and the value helpers every module
    uses (register classes, materialization, VALU/SALU with operand legalization,
    booleans)."""

    cur: Block
    # the ABI values, defined by the entry block (`select.select_program`)
    kernarg: Temp
    wg_ids: list[Temp]
    local_ids: list[Temp]  # packed in one VGPR (GFX11) or one per dimension (GFX10)
    buffer_base: dict[tuple[int, int], Temp]
    image_desc: dict[tuple[int, int], Temp]  # each image binding's T# (8 SGPRs)
    sampler_desc: dict[tuple[int, int], Temp]  # each sampler binding's S# (4 SGPRs)
    # an array of descriptors: the address of its first element (image or sampler)
    image_array: dict[tuple[int, int], Temp]
    buffer_array: dict[tuple[int, int], Temp]  # an array of buffer descriptors (V#s)
    sampler_array: dict[tuple[int, int], Temp]
    fragment: FragmentState | None = None  # a fragment shader's state (`fragment.py`)
    color_formats: tuple[ColorFormat, ...] = ()  # a fragment shader's attachments

    def __init__(self, shader: MirShader, target: Target, wave_size: int, name: str) -> None:
        self.shader = shader
        self.p = Program(target, wave_size=wave_size, name=name)
        self.p.stage = shader.stage
        fc = shader.float_controls  # the MODE the shader runs in (and what isel emits for it)
        self.p.config.fp_mode = fc.fp_mode()
        self.lm: RegClass = self.p.lane_mask
        self.wave = self.p.wave_size
        self.vmap: dict[Value, list[Comp]] = {}
        self.b = Builder(self.p)
        # per opcode: the encodings the table has for it, and its first VOP3-like one
        self._encs: dict[str, frozenset[str]] = {}
        self._e64: dict[str, str] = {}
        self.cf = CfState()
        self.lane_masks: set[int] = set()
        # (block index, uniform boolean's temp id) -> its lane mask made in that block
        self.lanemask_made: dict[tuple[int, int], Temp] = {}
        self.workgroup_size = shader.workgroup_size
        self.derivative_group = shader.derivative_group  # (isel.sysval's local ids)
        # the registers at entry (the AMDHSA compute instance: kernarg pointer, all three
        # workgroup ids, the local id dimensions the workgroup size has) and the kernarg
        # segment (docs/abi.md)
        ws = shader.workgroup_size
        self.kernargs: KernargLayout = shader_layout(
            shader.bindings, shader.push_constant_size,
            {k: image_access(i) for k, i in shader.images.items()}, shader.samplers,
            descriptor_arrays(shader))
        self.args: ShaderArgs
        if shader.stage is VERTEX_NGG:  # RADV's NGG layout (radcc.abi.graphics)
            from radcc.abi.graphics import vertex_args  # (a compute compile does not load it)

            self.args = vertex_args(target, self.kernargs)
        else:
            self.args = amdhsa.kernel_args(
                target, workgroup_ids=(True, True, True),
                local_id_dims=3 if ws[2] > 1 else 2 if ws[1] > 1 else 1, kernargs=self.kernargs)
        self.arg_temps: dict[ArgKind, Temp] = {}  # p_startpgm's temps (index 0 of each kind)
        # a vertex shader's outputs (isel/vertex.py)
        self.vs_outputs: VertexOutputs | None = None

    def push_offset(self) -> int:
        """The kernarg offset of the push-constant block (0 if it has none)."""
        e = self.kernargs.push_constants
        return 0 if e is None else e.offset

    # -- register classes ---------------------------------------------------
    def rc(self, v: Value) -> RegClass:
        if v.bit_size in SMALL:
            return v1 if v.divergent else s1
        if v.bit_size == 1:
            return self.lm if v.divergent else s1
        if v.bit_size == 64:
            return v2 if v.divergent else s2
        if v.bit_size == 32:
            return v1 if v.divergent else s1
        raise UnsupportedError(f"instruction selection: {v.bit_size}-bit values are not "
                               f"supported yet (%{v.index} = {v.parent!r})")

    def get(self, v: Value) -> list[Comp]:
        got = self.vmap.get(v)
        if got is None:
            raise IselError(f"instruction selection: %{v.index} used before its definition")
        return got

    def comp(self, v: Value, i: int) -> Comp:
        c = self.vmap.get(v)
        if c is None:
            c = self.get(v)  # the error
        return c[i] if len(c) > 1 else c[0]

    def set(self, v: Value, comps: list[Comp]) -> None:
        self.vmap[v] = comps

    # -- operands ---------------------------------------------------------------
    @staticmethod
    def operand(x: Comp) -> Operand:
        if isinstance(x, Const):
            return Operand.c64(x.value) if x.bits == 64 else Operand.c32(x.value)
        return Operand(x)

    def sgpr(self, x: Comp, bits: int = 32) -> Temp:
        """`x` in SGPRs (constants are moved, VGPRs read from the first lane)."""
        if isinstance(x, Const):
            if bits == 64 or x.bits == 64:
                lo = self.b.sop1("s_mov_b32", s1, Operand.c32(x.value & 0xFFFFFFFF)).temp
                hi = self.b.sop1("s_mov_b32", s1, Operand.c32(x.value >> 32)).temp
                return self.b.create_vector(s2, lo, hi).temp
            return self.b.sop1("s_mov_b32", s1, Operand.c32(x.value)).temp
        if x.rc.is_sgpr:
            return x
        return self.b.pseudo("p_as_uniform", [s2 if x.rc.size == 2 else s1], [x]).temp

    def vgpr(self, x: Comp, bits: int = 32) -> Temp:
        """`x` in VGPRs."""
        if isinstance(x, Const):
            if bits == 64 or x.bits == 64:
                lo = self.b.vop1("v_mov_b32", v1, Operand.c32(x.value & 0xFFFFFFFF)).temp
                hi = self.b.vop1("v_mov_b32", v1, Operand.c32(x.value >> 32)).temp
                return self.b.create_vector(v2, lo, hi).temp
            return self.b.vop1("v_mov_b32", v1, Operand.c32(x.value)).temp
        if x.rc.is_vgpr:
            return x
        return self.b.copy(v2 if x.rc.size == 2 else v1, x).temp

    def to_class(self, x: Comp, rc: RegClass) -> Temp:
        """`x` in a register of class `rc` (the class of a non-boolean value)."""
        bits = 64 if rc.size == 2 else 32
        return self.vgpr(x, bits) if rc.is_vgpr else self.sgpr(x, bits)

    def uniform_result(self, t: Temp, want_sgpr: bool) -> Temp:
        if want_sgpr and t.rc.is_vgpr:
            return self.b.pseudo("p_as_uniform", [s2 if t.rc.size == 2 else s1], [t]).temp
        return t

    # -- splitting 64-bit values ------------------------------------------------
    def halves(self, x: Comp) -> tuple[Comp, Comp]:
        if isinstance(x, Const):
            return Const(32, x.value & 0xFFFFFFFF), Const(32, (x.value >> 32) & 0xFFFFFFFF)
        rc = s1 if x.rc.is_sgpr else v1
        r = self.b.split_vector(x, rc, rc)
        return r[0], r[1]

    def join(self, lo: Temp, hi: Temp) -> Temp:
        rc = s2 if lo.rc.is_sgpr and hi.rc.is_sgpr else v2
        if rc is v2:
            lo, hi = self.vgpr(lo), self.vgpr(hi)
        return self.b.create_vector(rc, lo, hi).temp

    # -- VALU / SALU with operand legalization -----------------------------------
    def _vop3_legal(self, op: str, ops: list[Operand], wide: list[bool]) -> list[Operand]:
        """At most two constant-bus reads (distinct SGPRs + a literal) and one
        literal (GFX10+ VOP3); 64-bit literals go to VGPRs. A lane-mask source
        (``v_cndmask_b32``'s selector, a carry in) must stay in SGPRs: it takes
        its constant-bus slot first, and the other sources yield to it."""
        out: list[Operand] = []
        sgprs: set[int] = set()
        literal: int | None = None
        mask = len(ops) - 1 if op in LANE_MASK_LAST and len(ops) == 3 else None
        mask_temp = ops[mask].temp if mask is not None else None
        if mask_temp is not None and mask_temp.rc.is_sgpr:
            sgprs.add(mask_temp.id)
        for i, (o, w) in enumerate(zip(ops, wide, strict=True)):
            if i == mask:
                out.append(o)
            elif o.const is not None:
                if is_inline_constant(o.const, o.const_bytes):
                    out.append(o)
                    continue
                if w or (literal is not None and literal != o.const) or \
                        len(sgprs) + (literal is None) > 2:
                    out.append(Operand(self.vgpr(Const(64 if w else 32, o.const))))
                    continue
                literal = o.const
                out.append(o)
            elif o.temp is not None and o.temp.rc.is_sgpr:
                if o.temp.id in sgprs:
                    out.append(o)
                elif len(sgprs) + (literal is not None) >= 2:
                    out.append(Operand(self.vgpr(o.temp)))
                else:
                    sgprs.add(o.temp.id)
                    out.append(o)
            else:
                out.append(o)
        return out

    def has_fmt(self, op: str, fmts: tuple[str, ...]) -> bool:
        encs = self._encs.get(op)
        if encs is None:
            encs = self._encs[op] = frozenset(e.enc for e in self.b.table.by_canon.get(op, ()))
        return not encs.isdisjoint(fmts)

    def e64_format(self, op: str) -> str:
        """The encoding of `op`'s first VOP3-like table entry (`E64_FORMATS`)."""
        fmt = self._e64.get(op)
        if fmt is None:
            fmt = self._e64[op] = next(e.enc for e in self.b.table.by_canon[op]
                                       if e.enc in E64_FORMATS)
        return fmt

    def valu(self, op: str, rc: RegClass, *srcs: Comp | Operand, commutative: bool = False,
             rev: str | None = None, wide: tuple[bool, ...] | None = None,
             extra_defs: tuple = (), **fields: object) -> Temp:
        """A VALU instruction; VOP1/VOP2 when the operands allow, else VOP3."""
        ops = [s if isinstance(s, Operand) else self.operand(s) for s in srcs]
        wd = list(wide) if wide is not None else [False] * len(ops)
        for i, o in enumerate(ops):
            if o.const is not None and o.const_bytes == 8:
                wd[i] = True
        if not fields and not extra_defs and len(ops) == 2 and \
                self.has_fmt(op, ("VOP2",)) and not any(wd):
            a, bb = ops
            if not _is_vgpr(bb) and _is_vgpr(a) and (commutative or rev):
                if rev:
                    op = rev
                a, bb = bb, a
            if _is_vgpr(bb) and (a.const is None or not any(wd)):
                return self.b.inst(op, [rc], [a, bb], "VOP2").temp
        if not fields and not extra_defs and len(ops) == 1 and self.has_fmt(op, ("VOP1",)):
            return self.b.inst(op, [rc], ops, "VOP1").temp
        ops = self._vop3_legal(op, ops, wd)
        fmt = self.e64_format(op)
        return self.b.inst(op, [rc, *extra_defs], ops, fmt, **fields).temp

    def valu_multi(self, op: str, defs: list, *srcs: Comp | Operand,
                   wide: tuple[bool, ...] | None = None, **fields: object) -> list[Temp]:
        """A VOP3/VOP3SD instruction with several definitions (carry outs)."""
        ops = [s if isinstance(s, Operand) else self.operand(s) for s in srcs]
        wd = list(wide) if wide is not None else [False] * len(ops)
        ops = self._vop3_legal(op, ops, wd)
        fmt = self.e64_format(op)
        return self.b.inst(op, defs, ops, fmt, **fields).temps

    def salu(self, op: str, rc: RegClass | None, *srcs: Comp | Operand,
             scc: bool = True) -> Temp:
        """A SOP1/SOP2/SOPC instruction (one literal at most, no 64-bit literal).
        Returns the definition (or the SCC definition of a SOPC)."""
        ops = [s if isinstance(s, Operand) else self.operand(s) for s in srcs]
        literal: int | None = None
        for i, o in enumerate(ops):
            if o.const is None or is_inline_constant(o.const, o.const_bytes):
                continue
            if o.const_bytes == 8 or (literal is not None and literal != o.const):
                ops[i] = Operand(self.sgpr(Const(o.const_bytes * 8, o.const)))
            else:
                literal = o.const
        if rc is None:
            return self.b.sopc(op, ops[0], ops[1]).instr.definitions[-1].temp  # type: ignore
        if len(ops) == 1:
            return self.b.sop1(op, rc, ops[0], scc=scc).temp
        return self.b.sop2(op, rc, ops[0], ops[1], *ops[2:], scc=scc).temp

    def scc_op(self, t: Temp) -> Operand:
        return Operand(t, phys=PhysReg.of(SCC))

    # -- booleans -----------------------------------------------------------------
    def lm_op(self, name: str) -> str:
        return lm_opcode(self.p, name)

    def lanemask(self, x: Comp) -> Temp:
        """A boolean as a lane mask."""
        if isinstance(x, Const):
            return self.new_lane_mask(self.b.sop1(
                self.lm_op("mov"), self.lm, self.lm_all() if x.value else self.lm_zero(),
                scc=False).temp)
        if self.is_lane_mask(x):
            return x
        # one lane mask per uniform boolean and block (appending): ACO's bool_to_vector_condition
        # reads the boolean as an SCC operand, so its value numbering merges the repeats
        blk = self.b.block
        key = (blk.index, x.id) if blk is not None and self.b.index is None else None
        if key is not None and key in self.lanemask_made:
            return self.lanemask_made[key]
        scc = self.salu("s_cmp_lg_u32", None, x, Const(32, 0))
        op = "s_cselect_b64" if self.wave == 64 else "s_cselect_b32"
        m = self.new_lane_mask(self.b.sop2(op, self.lm, self.lm_all(),
                                           self.lm_zero(), self.scc_op(scc), scc=False).temp)
        if key is not None:
            self.lanemask_made[key] = m
        return m

    def lm_all(self) -> Operand:
        """Every lane (a 64-bit -1 in wave64: a 32-bit literal would zero-extend)."""
        return Operand.c64((1 << 64) - 1) if self.wave == 64 else Operand.c32(0xFFFFFFFF)

    def lm_zero(self) -> Operand:
        """No lane (a 64-bit constant in wave64)."""
        return Operand.c64(0) if self.wave == 64 else Operand.c32(0)

    def is_lane_mask(self, t: Temp) -> bool:
        return t.id in self.lane_masks

    def ubool(self, x: Comp) -> Comp:
        """A boolean as a uniform s1 0/1 (from a lane mask: any active lane set)."""
        if isinstance(x, Const) or not self.is_lane_mask(x):
            return x
        op = "s_cmp_lg_u64" if self.wave == 64 else "s_cmp_lg_u32"
        scc = self.salu(op, None, x, Operand.c64(0) if self.wave == 64 else Operand.c32(0))
        return self.b.sop2("s_cselect_b32", s1, Operand.c32(1), Operand.c32(0),
                           self.scc_op(scc), scc=False).temp

    def to_scc(self, x: Comp) -> Temp:
        """A uniform boolean in SCC (for a branch or s_cselect)."""
        if isinstance(x, Const):
            x = self.sgpr(Const(32, x.value))
        if self.is_lane_mask(x):
            op = "s_cmp_lg_u64" if self.wave == 64 else "s_cmp_lg_u32"
            return self.salu(op, None, x, Operand.c64(0) if self.wave == 64 else Operand.c32(0))
        return self.salu("s_cmp_lg_u32", None, x, Const(32, 0))

    def new_lane_mask(self, t: Temp) -> Temp:
        self.lane_masks.add(t.id)
        return t

    def value_uses(self) -> ValueUses:
        """Each MIR value read somewhere -> the MIR blocks that read it (a phi's source:
        the predecessor it comes from; an if's condition: the block before the if).
        Collected from the whole function on the first call: ifs, loops, the skips of
        code on an empty EXEC and image atomics ask (a shader without them never
        collects it)."""
        uses = self.cf.uses
        if uses is None:
            uses = self.cf.uses = {}
            _collect_uses(uses, self.shader.function.body)
        return uses


def _collect_uses(uses: ValueUses, nodes: list[CFNode]) -> None:
    """`IselContext.value_uses` of the blocks under `nodes` added to `uses`."""
    for i, n in enumerate(nodes):
        if isinstance(n, MBlock):
            for ins in n.instrs:
                readers = ins.preds if ins.op == "phi" else [n] * len(ins.srcs)
                for blk, s in zip(readers, ins.srcs, strict=True):
                    seen = uses.get(s)
                    if seen is None:
                        uses[s] = {blk}
                    else:
                        seen.add(blk)
        elif isinstance(n, If):
            prv = nodes[i - 1]
            assert isinstance(prv, MBlock)
            seen = uses.get(n.cond)
            if seen is None:
                uses[n.cond] = {prv}
            else:
                seen.add(prv)
            _collect_uses(uses, n.then_list)
            _collect_uses(uses, n.else_list)
        else:
            _collect_uses(uses, n.body)
            _collect_uses(uses, n.cont)


def _is_vgpr(o: Operand) -> bool:
    return o.temp is not None and o.temp.rc.is_vgpr
