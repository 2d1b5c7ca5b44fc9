"""VOPD scheduling: pair independent VALU instructions into dual-issue VOPD
(ACO's README.md "VOPD Scheduling"; ISA guide 7.6 "Dual Issue VALU", 15.3.7 and
16.11 for the X/Y opcode tables).

`schedule_vopd(program)` runs after lower_to_hw, on targets with the
``vopd`` feature and in wave32 only (it does nothing otherwise: GFX10 has no
VOPD, and VOPD is skipped in wave64). Inside each region of reorderable
instructions (`sched_regions.classify`/`regions`) it walks the instructions
in order; for an instruction A that has a dual form it looks at the next
`WINDOW` instructions for a B that

- has a dual form too, and A/B fit the X and Y opcode tables (the table's
  ``VOPD``/``VOPDY`` entries named ``v_dual_<op>``: a VOP1/VOP2 instruction,
  or its VOP3 form without modifiers whose src1 is a VGPR and, for
  v_cndmask, whose select is VCC); every operand one full dword;
- honours the ISA guide's hard rules: destinations one even and one odd;
  SRC0X/SRC0Y in different VGPR banks (register number mod 4), VSRC1X/VSRC1Y
  likewise; if both halves use the SRC2 port (fmac/dot2acc read their
  destination, fmamk its vsrc1) one SRC2 VGPR even and the other odd; at
  most one literal value (fmaak/fmamk K or a src0 literal, shared); at most
  two scalar values (distinct SGPRs, the literal, the VCC v_cndmask reads);
  no DPP; dot2acc with a constant source is not paired (its VOPD inline
  constants mean something else, ISA 7.5.1);
- is independent of A: B reads nothing A writes and they write different
  registers (A reading what B writes is fine: both halves read their
  sources before either writes, ISA 7.6);
- can move next to A: B can be hoisted to A (no register conflict with the
  instructions in between) or A sunk to B; nothing fixed lies in between.

The pair becomes one instruction at that place: opcode the X op
(``v_dual_*``, format ``VOPD``), ``fields['opy']`` the Y op,
``fields['simm32']`` the literal K of fmaak/fmamk, operands X's (src0,
vsrc1, the accumulator of fmac/dot2acc) then Y's, then a fixed ``vcc``
operand if a half is v_cndmask (so that hazard and wait passes see the
read); definitions X's then Y's destination (docs/ir.md "Formats").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from radcc.ir.fields import make_fields
from radcc.ir.opinfo import op_info
from radcc.ir.program import Instruction, Operand, Program
from radcc.ir.regclass import NULL, VCC, VGPR_BASE, PhysReg, s1
from radcc.ir.validate import is_inline_constant
from radcc.isa.table import OpInfo, get_table
from radcc.passes.access import Access, AccessCache
from radcc.passes.sched_regions import classify, regions
from radcc.target import Feature, GfxLevel

__all__ = ["WINDOW", "Half", "dual_half", "can_pair", "make_vopd", "split_vopd", "pair_of",
           "pair_greedily",
           "vopd_allowed", "schedule_vopd"]

WINDOW = 16
_DUAL_PREFIX = "v_dual_"


@cache
def _duals(gfx: GfxLevel) -> dict[str, tuple[OpInfo | None, OpInfo | None]]:
    """Base VALU name (``v_add_f32``) -> (X entry, Y entry) from the table."""
    out: dict[str, list[OpInfo | None]] = {}
    for e in get_table(gfx).entries:
        if e.enc in ("VOPD", "VOPDY") and e.canon.startswith(_DUAL_PREFIX):
            base = "v_" + e.canon[len(_DUAL_PREFIX):]
            slot = out.setdefault(base, [None, None])
            slot[0 if e.enc == "VOPD" else 1] = e
    return {k: (v[0], v[1]) for k, v in out.items()}


@dataclass(slots=True)
class Half:
    """One VALU instruction in the shape of a VOPD half (made by `dual_half`)."""

    instr: Instruction
    xinfo: OpInfo | None  # the VOPD (X) entry, if the op may be X
    yinfo: OpInfo | None  # the VOPDY entry, if the op may be Y
    dst: int  # VGPR number
    src0: Operand
    vsrc1: Operand | None
    acc: Operand | None  # fmac/dot2acc: the old destination value
    k: int | None  # fmaak/fmamk literal
    cndmask: bool
    fmamk: bool  # vsrc1 uses the SRC2 port
    # what `can_pair` compares: the VGPR numbers read through the SRC0/SRC1/SRC2
    # ports (-1: none), the literal value (K, or a src0 constant that is no inline
    # constant of src0's type), the scalar values read (SGPR numbers; "vcc" for
    # v_cndmask's implicit VCC, which llvm-mc counts apart from an explicit vcc_lo)
    ports: tuple[int, int, int] = (-1, -1, -1)
    lit: int | None = None
    scal: frozenset[object] = frozenset()

    @property
    def name(self) -> str:
        info = self.xinfo or self.yinfo
        assert info is not None
        return info.name


def _is_vgpr(o: Operand) -> bool:
    return o.const is None and not o.is_undef and o.phys is not None and o.phys.is_vgpr


def _no_modifiers(instr: Instruction, allowed: frozenset[str]) -> bool:
    for k, v in instr.fields.items():
        if k in allowed:
            continue
        if isinstance(v, list | tuple):
            if any(v):
                return False
        elif v:
            return False
    return True


_K_FIELDS = frozenset({"k"})
_NONE: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class _DualPlan:
    """The facts `dual_half` uses of one opcode's dual form, from the table once."""

    xinfo: OpInfo | None
    yinfo: OpInfo | None
    vsrc1: bool  # the dual form has a vsrc1 slot
    n_names: int  # its source slots (not the K literal)
    acc: bool  # fmac/dot2acc: the old destination follows the slots
    cnd: bool  # v_cndmask: an implicit VCC operand last
    n_expect: int  # operands the instruction has (K as a field)
    imm_pos: int  # the K literal's position among the sources, -1 without one
    fmamk: bool  # with K: vsrc1 after it (uses the SRC2 port)
    v2_src0: bool  # src0 is a packed (v2) operand: dot2acc
    src0_type: str  # src0's value type: which constants are inline


@cache
def _dual_plans(gfx: GfxLevel) -> dict[str, _DualPlan]:
    out: dict[str, _DualPlan] = {}
    for op, (xinfo, yinfo) in _duals(gfx).items():
        info = xinfo or yinfo
        assert info is not None
        names = [s.name for s in info.operands if not s.is_def and s.kind != "imm"]
        acc = bool(info.extra.get("acc"))
        cnd = "vcc" in info.implicit_reads
        srcs = [s for s in info.operands if not s.is_def]
        kinds = [s.kind for s in info.operands]
        has_imm = "imm" in kinds
        src0 = info.operand("src0")
        out[op] = _DualPlan(
            xinfo, yinfo, "vsrc1" in names, len(names), acc, cnd,
            len(names) + (1 if acc else 0) + (1 if cnd else 0),
            [s.kind for s in srcs].index("imm") if has_imm else -1,
            has_imm and "vsrc1" in names
            and [s.name for s in info.operands].index("vsrc1") > kinds.index("imm"),
            src0 is not None and (src0.type or "").startswith("v2"),
            src0.type if src0 else "")
    return out


_VOP_FORMATS = frozenset({"VOP1", "VOP2", "VOP3"})
_NO_SCALARS: frozenset[object] = frozenset()
_VCC_SCALAR: frozenset[object] = frozenset({"vcc"})


def dual_half(program: Program, instr: Instruction) -> Half | None:
    """`instr` as a VOPD half, or None when it has no dual form that fits."""
    fmt = instr.format
    if fmt not in _VOP_FORMATS:
        return None
    plan = _dual_plans(program.gfx_level).get(instr.opcode)
    if plan is None:
        return None
    defs = instr.definitions
    if len(defs) != 1:
        return None
    d = defs[0]
    dphys, drc = d.phys, d.rc
    # one full VGPR dword
    if dphys is None or dphys.reg < VGPR_BASE or drc is None or drc.bytes != 4 \
            or dphys.reg_b & 3:
        return None
    n_expect = plan.n_expect
    ops = instr.operands
    k = None
    if plan.imm_pos >= 0:
        kv = instr.fields.get("k")
        if kv is None and fmt == "VOP2" and len(ops) == n_expect + 1:
            # the text form: K is an operand in its table position
            pos = plan.imm_pos
            if ops[pos].const is None:
                return None
            kv = ops[pos].const
            ops = ops[:pos] + ops[pos + 1:]
        if kv is None:
            return None
        k = int(kv) & 0xFFFFFFFF  # type: ignore[call-overload]
    if len(ops) != n_expect:
        return None
    if not _no_modifiers(instr, _K_FIELDS if fmt == "VOP2" else _NONE):
        return None
    dst = dphys.reg - VGPR_BASE
    src0 = ops[0]
    if src0.is_undef:
        return None
    c0, p0 = src0.const, src0.phys
    port0 = -1
    scal = _VCC_SCALAR if plan.cnd else _NO_SCALARS
    if c0 is not None:
        if src0.const_bytes != 4:
            return None
    else:
        rc0 = src0.rc
        if p0 is None or rc0 is None or rc0.bytes != 4 or p0.reg_b & 3:
            return None
        r0 = p0.reg
        if r0 >= VGPR_BASE:
            port0 = r0 - VGPR_BASE
        elif r0 != NULL:
            scal = frozenset((r0, "vcc")) if plan.cnd else frozenset((r0,))
    vsrc1 = None
    port1 = port2 = -1
    fmamk = k is not None and plan.fmamk
    if plan.vsrc1:
        vsrc1 = ops[1]
        p1, rc1 = vsrc1.phys, vsrc1.rc
        if vsrc1.const is not None or vsrc1.is_undef or p1 is None or p1.reg < VGPR_BASE \
                or rc1 is None or rc1.bytes != 4 or p1.reg_b & 3:
            return None
        if fmamk:
            port2 = p1.reg - VGPR_BASE
        else:
            port1 = p1.reg - VGPR_BASE
    nxt = plan.n_names
    acc = None
    if plan.acc:
        acc = ops[nxt]
        nxt += 1
        if not _is_vgpr(acc) or acc.phys != dphys:
            return None
        if c0 is not None and plan.v2_src0:
            return None  # dot2acc: VOPD inline constants differ (ISA 7.5.1)
        port2 = dst
    if plan.cnd:
        sel = ops[nxt]
        if sel.const is not None or sel.phys is None or sel.phys.reg != VCC:
            return None
    lit = k
    if lit is None and c0 is not None and not is_inline_constant(c0, 4, plan.src0_type):
        lit = c0 & 0xFFFFFFFF
    return Half(instr, plan.xinfo, plan.yinfo, dst, src0, vsrc1, acc, k, plan.cnd, fmamk,
                (port0, port1, port2), lit, scal)


# the register-bank bits each source port compares (SRC0, SRC1, SRC2; ISA 7.6)
_BANK_MASK = (3, 3, 1)


def can_pair(x: Half, y: Half) -> bool:
    """Whether X=`x`, Y=`y` satisfies the opcode tables and the hard rules
    of ISA 7.6 (the caller checks independence)."""
    if x.xinfo is None or y.yinfo is None:
        return False
    if (x.dst ^ y.dst) & 1 == 0:
        return False
    xa, xb, xc = x.ports
    ya, yb, yc = y.ports
    ma, mb, mc = _BANK_MASK
    if (xa >= 0 and ya >= 0 and (xa ^ ya) & ma == 0) or \
            (xb >= 0 and yb >= 0 and (xb ^ yb) & mb == 0) or \
            (xc >= 0 and yc >= 0 and (xc ^ yc) & mc == 0):
        return False
    xl, yl = x.lit, y.lit
    if xl is not None and yl is not None and xl != yl:
        return False
    n_lits = 0 if xl is None and yl is None else 1
    xs, ys = x.scal, y.scal
    n_scalars = len(xs | ys) if xs and ys else len(xs) + len(ys)
    return n_scalars + n_lits <= 2


def make_vopd(x: Half, y: Half) -> Instruction:
    """The VOPD instruction of a pair (layout: module docstring)."""
    assert x.xinfo is not None and y.yinfo is not None
    ops: list[Operand] = []
    for h in (x, y):
        ops.append(h.src0)
        if h.vsrc1 is not None:
            ops.append(h.vsrc1)
        if h.acc is not None:
            ops.append(h.acc)
    if x.cndmask or y.cndmask:
        ops.append(Operand.fixed(PhysReg.of(VCC), s1))
    fields: dict[str, object] = {"opy": y.yinfo.name}
    k = x.k if x.k is not None else y.k
    if k is not None:
        fields["simm32"] = k
    defs = [x.instr.definitions[0], y.instr.definitions[0]]
    return Instruction(x.xinfo.name, "VOPD", ops, defs, make_fields("VOPD", fields))


def split_vopd(program: Program, vopd: Instruction) -> tuple[Instruction, Instruction]:
    """The two VALU instructions a VOPD instruction of `make_vopd`'s layout does
    (inverse of `make_vopd`; each as VOP2, v_mov_b32 as VOP1, K in
    ``fields['k']``): X first. Raises ValueError on another layout."""
    table = get_table(program.gfx_level)
    names = (vopd.opcode, str(vopd.fields.get("opy", "")))
    ops = list(vopd.operands)
    if len(vopd.definitions) != 2:
        raise ValueError(f"{vopd.opcode}: a VOPD instruction defines two registers")
    cnd = any("vcc" in e.implicit_reads for n in names for e in table.by_canon.get(n, ()))
    vcc = ops.pop() if cnd else None
    out = []
    pos = 0
    for half, name in enumerate(names):
        base = "v_" + name[len(_DUAL_PREFIX):]
        pair = _duals(program.gfx_level).get(base)
        info = pair[half] if pair is not None else None
        if info is None or not name.startswith(_DUAL_PREFIX):
            raise ValueError(f"{vopd.opcode}: no {'XY'[half]} opcode {name!r}")
        n = sum(1 for s in info.operands if not s.is_def and s.kind != "imm")
        n += 1 if info.extra.get("acc") else 0
        hops = ops[pos:pos + n]
        pos += n
        if "vcc" in info.implicit_reads:
            assert vcc is not None
            hops.append(vcc)
        fields: dict[str, object] = {}
        if any(s.kind == "imm" for s in info.operands):
            fields["k"] = vopd.fields["simm32"]
        fmt = "VOP2" if op_info(table, base, "VOP2") is not None else "VOP1"
        out.append(Instruction(base, fmt, hops, [vopd.definitions[half]], make_fields(fmt, fields)))
    if pos != len(ops):
        raise ValueError(f"{vopd.opcode}: {len(ops)} operands, the halves read {pos}")
    return out[0], out[1]


def vopd_allowed(program: Program) -> bool:
    """Whether VOPD may be formed: wave32 on a ``vopd`` target."""
    return program.wave_size == 32 and program.target.has(Feature.VOPD)


PairFn = Callable[[Half, Half], Instruction | None]


def pair_greedily(program: Program, instrs: list[Instruction], accs: list[Access],
                  halves: list[Half | None] | None = None,
                  pair: PairFn | None = None) -> list[Instruction]:
    """A region with pairs formed as `schedule_vopd` forms them. `halves`:
    `dual_half` of each instruction if known; `pair`: `pair_of` or a memo of it."""
    return _schedule_region(program, instrs, accs, halves, pair)


def pair_of(a: Half, b: Half) -> Instruction | None:
    """The VOPD of two independent halves, either as X: `a`, Y: `b` or swapped
    (None when neither fits ISA 7.6)."""
    return _pair(a, b)


def _pair(a: Half, b: Half) -> Instruction | None:
    if can_pair(a, b):
        return make_vopd(a, b)
    if can_pair(b, a):
        return make_vopd(b, a)
    return None


def _schedule_region(program: Program, instrs: list[Instruction], accs: list[Access],
                     halves: list[Half | None] | None = None,
                     pair: PairFn | None = None) -> list[Instruction]:
    n = len(instrs)
    if halves is None:
        halves = [dual_half(program, i) for i in instrs]
    make = pair or _pair
    out: list[Instruction | None] = list(instrs)
    # the registers read and written by what sits at each position now (a formed
    # pair's at its position; None once its instruction moved into a pair)
    rds: list[frozenset[int] | None] = [a.reads for a in accs]
    wrs: list[frozenset[int] | None] = [a.writes for a in accs]
    used = [False] * n
    for i in range(n):
        ha = halves[i]
        if ha is None or used[i]:
            continue
        a_reads, a_writes = rds[i], wrs[i]
        assert a_reads is not None and a_writes is not None
        # the registers read / written by what sits between i and j (a conflict
        # with any of them is a conflict with their union)
        m_reads: set[int] = set()
        m_writes: set[int] = set()
        for j in range(i + 1, min(n, i + 1 + WINDOW)):
            b_reads, b_writes = rds[j], wrs[j]
            if b_reads is None or b_writes is None:
                continue
            hb = halves[j]
            # B (later) may issue together with A: it does not read or write what A
            # writes (and their destinations are one even, one odd: `can_pair`'s
            # first rule either way round)
            if hb is not None and not used[j] and (ha.dst ^ hb.dst) & 1 \
                    and a_writes.isdisjoint(b_reads) and a_writes.isdisjoint(b_writes):
                if (m_writes.isdisjoint(b_reads) and m_reads.isdisjoint(b_writes)
                        and m_writes.isdisjoint(b_writes)):
                    where = i  # hoist B to A
                elif (m_reads.isdisjoint(a_writes) and m_writes.isdisjoint(a_reads)
                        and m_writes.isdisjoint(a_writes)):
                    where = j  # sink A to B
                else:
                    where = -1
                vopd = make(ha, hb) if where >= 0 else None
                if vopd is not None:
                    used[i] = used[j] = True
                    out[i] = out[j] = None
                    rds[i] = rds[j] = wrs[i] = wrs[j] = None
                    out[where] = vopd
                    rds[where] = a_reads | b_reads
                    wrs[where] = a_writes | b_writes
                    break
            m_reads |= b_reads
            m_writes |= b_writes
    return [x for x in out if x is not None]


def schedule_vopd(program: Program) -> None:
    """Form VOPD pairs in every block (module docstring)."""
    if not vopd_allowed(program):
        return
    access = AccessCache(program)
    for block in program.blocks:
        instrs = block.instructions
        if len(instrs) < 2:
            continue
        halves = [dual_half(program, i) for i in instrs]
        if len(halves) - halves.count(None) < 2:
            continue  # no pair can form: the block stays as it is
        accs = [access(i) for i in instrs]
        kinds = [classify(i, a) for i, a in zip(instrs, accs, strict=True)]
        new: list[Instruction] = []
        pos = 0
        for lo, hi in regions(kinds):
            new.extend(instrs[pos:lo])
            new.extend(_schedule_region(program, instrs[lo:hi], accs[lo:hi], halves[lo:hi]))
            pos = hi
        new.extend(instrs[pos:])
        block.instructions = new
