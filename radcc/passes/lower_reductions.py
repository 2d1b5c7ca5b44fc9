"""Lower wave reductions, scans and the wave64 cross-half permute (after RA).

Facts from ACO's aco_lower_to_hw_instr.cpp (``emit_reduction``,
``emit_dpp_op``; ACO's README.md "Lower to HW instructions"), written anew for
GFX10+ (GFX11 first). `lower_reduction(program, block, instr)` returns the
hardware instructions replacing one of:

``p_reduce`` / ``p_inclusive_scan`` / ``p_exclusive_scan``
    fields ``op`` (ACO's ReduceOp: ``iadd32 imul32 fadd32 fmul32 imin32 umin32
    fmin32 imax32 umax32 fmax32 iand32 ior32 ixor32``, the ``64`` forms, and
    ``fadd16 fmul16`` on the low half of a dword) and ``cluster_size`` (1..wave, a power of two; scans
    are whole-wave). Operands: ``src`` (v1/v2), ``tmp`` (linear VGPR of the
    value's size), ``vtmp`` (linear VGPR of the value's size, or undef when
    `needs_vtmp` is false). Definitions: ``dst`` (VGPR, or an SGPR for a
    whole-wave reduce: the result of the last lane), ``exec_save`` (lane
    mask), ``sitmp`` (SGPRs of the value's size, when `needs_sitmp`), an
    ``s1`` fixed to scc, and for 64-bit integer add/min/max a lane mask fixed
    to vcc. `reduce_assign.setup_reduce_temp` gives ``tmp``/``vtmp`` their
    linear VGPRs before register allocation.

    The sequence: ``s_or_saveexec -1`` (all lanes run, the caller's EXEC is
    saved), ``tmp = v_cndmask(identity, src, exec_save)`` (the identity in
    the lanes that were inactive), then DPP steps in ``tmp``:
    reduce ``quad_perm:[1,0,3,2]``, ``quad_perm:[2,3,0,1]``,
    ``row_half_mirror``, ``row_mirror`` (each lane holds its cluster's value
    up to 16), ``v_permlanex16_b32`` (the other row of the 32-lane half;
    GFX10+ has no row_bcast) and for 64 lanes ``v_readlane`` of lane 0 (the
    lower half) combined into the upper half; scans ``row_shr:1,2,4,8`` (a
    lane whose source is outside the row is not written: it keeps its own
    value, as if combined with the identity), then the row total through
    ``v_permlanex16_b32 ... -1, -1 op_sel:[1,0]`` (fetch inactive) with EXEC
    set to rows 1 and 3, and for wave64 ``v_readlane`` of lane 31 into the
    upper half. The exclusive scan first shifts by one lane
    (``row_shr:1 bound_ctrl:1``, the row boundaries patched with
    ``v_permlanex16`` / ``v_readlane``+``v_writelane``, lane 0 set to the
    identity) and runs the inclusive scan on the shifted value. EXEC is
    restored before ``dst`` is written, so lanes outside EXEC keep their
    contents. Ops without a VOP2 DPP form (``v_mul_lo_u32``, f64, 64-bit
    integer add/mul/min/max) move the DPP source into ``vtmp`` first (filled
    with the identity where a DPP step writes sparsely); the 64-bit multiply
    is two ``v_mul_lo_u32`` cross terms and ``v_mad_u64_u32``, with ``vtmp``
    as scratch.

``p_bpermute`` (wave64 ``ds_bpermute_b32`` across the two 32-lane halves)
    Operands ``addr`` (lane index * 4), ``data`` (v1), ``same_half`` (lane
    mask: the source lane is in this lane's half), two linear VGPRs;
    definitions ``dst`` (v1), ``exec_save`` (s2), scc. With all lanes
    enabled: ``v_permlane64_b32`` swaps the halves of ``data`` into one
    linear VGPR (GFX10/10.3, which lack it: 64 ``v_readlane_b32`` /
    ``v_writelane_b32`` pairs through the low SGPR of ``exec_save`` before
    EXEC is saved), ``ds_bpermute_b32`` permutes both within their halves, then
    with EXEC restored ``v_cndmask_b32`` picks per lane. ``addr``, ``data``
    and ``same_half`` are late-kill operands (read after ``dst`` and
    ``exec_save`` are written).
"""

from __future__ import annotations

from dataclasses import dataclass

from radcc.ir.program import Block, Definition, Instruction, Operand, Program
from radcc.ir.regclass import EXEC, SCC, VCC, VGPR_BASE, PhysReg, RegClass, RegType, s1, s2
from radcc.isa.table import get_table
from radcc.passes.hw_copy import LoweringError

__all__ = ["REDUCTION_OPCODES", "ReduceOpInfo", "identity_dwords", "lower_reduction",
           "needs_sitmp", "needs_vcc", "needs_vtmp", "reduce_op_info"]

REDUCTION_OPCODES = frozenset({"p_reduce", "p_inclusive_scan", "p_exclusive_scan",
                               "p_bpermute"})


@dataclass(frozen=True, slots=True)
class ReduceOpInfo:
    name: str  # ACO's ReduceOp name, e.g. "iadd32"
    bits: int  # 16 (low half of a dword), 32 or 64
    opcode: str  # the VALU instruction (64-bit integer ops: see `_emit_op`)
    dpp: bool  # a VOP2 with a DPP16 form (dword by dword)
    identity: int  # the identity value's bits

    @property
    def dwords(self) -> int:
        """The VGPRs a value takes (a 16-bit value: the low half of one)."""
        return max(1, self.bits // 32)


_INF32, _INF64 = 0x7F800000, 0x7FF0000000000000
_OPS32 = {
    "iadd": ("v_add_nc_u32", True, 0), "imul": ("v_mul_lo_u32", False, 1),
    "fadd": ("v_add_f32", True, 0x80000000), "fmul": ("v_mul_f32", True, 0x3F800000),
    "imin": ("v_min_i32", True, 0x7FFFFFFF), "umin": ("v_min_u32", True, 0xFFFFFFFF),
    "fmin": ("v_min_f32", True, _INF32), "imax": ("v_max_i32", True, 0x80000000),
    "umax": ("v_max_u32", True, 0), "fmax": ("v_max_f32", True, _INF32 | 1 << 31),
    "iand": ("v_and_b32", True, 0xFFFFFFFF), "ior": ("v_or_b32", True, 0),
    "ixor": ("v_xor_b32", True, 0),
}
# 16-bit float ops in the low half of a dword (ACO's fadd16/fmul16: v_add_f16 and
# v_mul_f16 have DPP16 forms; the high half of the dword is ignored)
_OPS16 = {
    "fadd": ("v_add_f16", True, 0x8000), "fmul": ("v_mul_f16", True, 0x3C00),
}
_OPS64 = {
    "iadd": ("v_add_co_u32", False, 0), "imul": ("v_mad_u64_u32", False, 1),
    "fadd": ("v_add_f64", False, 1 << 63), "fmul": ("v_mul_f64", False, 0x3FF0000000000000),
    "imin": ("v_cmp_lt_i64", False, 0x7FFFFFFFFFFFFFFF),
    "umin": ("v_cmp_lt_u64", False, 0xFFFFFFFFFFFFFFFF),
    "fmin": ("v_min_f64", False, _INF64), "imax": ("v_cmp_gt_i64", False, 1 << 63),
    "umax": ("v_cmp_gt_u64", False, 0), "fmax": ("v_max_f64", False, _INF64 | 1 << 63),
    "iand": ("v_and_b32", True, 0xFFFFFFFFFFFFFFFF), "ior": ("v_or_b32", True, 0),
    "ixor": ("v_xor_b32", True, 0),
}


def reduce_op_info(name: str) -> ReduceOpInfo:
    """The facts of a ReduceOp name (``iadd32`` ...); KeyError if unsupported."""
    base, bits = name[:-2], int(name[-2:])
    table = _OPS32 if bits == 32 else _OPS64 if bits == 64 else _OPS16 if bits == 16 else {}
    if base not in table:
        raise KeyError(f"reduction op '{name}' is not supported")
    opcode, dpp, ident = table[base]
    return ReduceOpInfo(name, bits, opcode, dpp, ident)


def identity_dwords(info: ReduceOpInfo) -> list[int]:
    return [(info.identity >> (32 * k)) & 0xFFFFFFFF for k in range(info.dwords)]


def needs_vtmp(opcode: str, info: ReduceOpInfo, cluster_size: int) -> bool:
    """Whether the lowering uses the second linear VGPR (ACO's need_vtmp on GFX10+)."""
    return opcode != "p_reduce" or not info.dpp or cluster_size >= 32


def needs_sitmp(opcode: str, cluster_size: int, wave_size: int) -> bool:
    """Whether the lowering reads a lane into SGPRs (wave64 halves, exclusive scans)."""
    if opcode == "p_reduce":
        return cluster_size == 64
    return wave_size == 64 or opcode == "p_exclusive_scan"


def needs_vcc(info: ReduceOpInfo) -> bool:
    return info.bits == 64 and info.opcode.startswith(("v_add_co", "v_cmp", "v_mad_u64"))


# -- instruction helpers --------------------------------------------------------------------


def _rc(reg: int, dwords: int = 1) -> RegClass:
    t = RegType.VGPR if reg >= VGPR_BASE else RegType.SGPR
    return RegClass(t, 4 * dwords)


def _o(reg: int, dwords: int = 1) -> Operand:
    return Operand.fixed(PhysReg.of(reg), _rc(reg, dwords))


def _d(reg: int, dwords: int = 1) -> Definition:
    return Definition.fixed(PhysReg.of(reg), _rc(reg, dwords))


def _c(value: int) -> Operand:
    return Operand.c32(value)


def _i(opcode: str, fmt: str, defs: list[Definition], ops: list[Operand],
       **fields: object) -> Instruction:
    return Instruction(opcode, fmt, ops, defs, dict(fields))


_DPP_MASKS = {"row_mask": 0xF, "bank_mask": 0xF}


def _dpp(ctrl: dict[str, object], bound_ctrl: bool = False) -> dict[str, object]:
    f = dict(ctrl) | _DPP_MASKS
    if bound_ctrl:
        f["bound_ctrl"] = 1
    return f


QUAD_10_32 = {"quad_perm": [1, 0, 3, 2]}
QUAD_23_01 = {"quad_perm": [2, 3, 0, 1]}
HALF_MIRROR = {"row_half_mirror": True}
MIRROR = {"row_mirror": True}


def _row_shr(n: int) -> dict[str, object]:
    return {"row_shr": n}


class _Emitter:
    """Builds the sequence of one instruction into `out`."""

    def __init__(self, program: Program, info: ReduceOpInfo | None) -> None:
        self.p = program
        self.info = info
        self.out: list[Instruction] = []
        self.wave64 = program.wave_size == 64
        self.lm_dwords = 2 if self.wave64 else 1
        self.n = info.dwords if info else 1
        self.vtmp = -1  # the linear VGPR ops may clobber (64-bit multiply)

    # -- EXEC ---------------------------------------------------------------------------
    def exec_def(self) -> Definition:
        return Definition.fixed(PhysReg.of(EXEC), s2 if self.wave64 else s1)

    def exec_op(self) -> Operand:
        return Operand.fixed(PhysReg.of(EXEC), s2 if self.wave64 else s1)

    def saveexec_all(self, save: int) -> None:
        op = "s_or_saveexec_b64" if self.wave64 else "s_or_saveexec_b32"
        src = Operand.c64(-1) if self.wave64 else _c(0xFFFFFFFF)
        self.out.append(_i(op, "SOP1", [_d(save, self.lm_dwords),
                                        Definition.fixed(PhysReg.of(SCC), s1),
                                        self.exec_def()], [src, self.exec_op()]))

    def set_exec(self, value: int) -> None:
        value &= 0xFFFFFFFFFFFFFFFF if self.wave64 else 0xFFFFFFFF
        if self.wave64 and value not in (0, 0xFFFFFFFFFFFFFFFF):
            # no 64-bit literal: each half of EXEC
            for k in range(2):
                self.out.append(_i("s_mov_b32", "SOP1",
                                   [Definition.fixed(PhysReg.of(EXEC + k), s1)],
                                   [_c(value >> (32 * k))]))
        elif self.wave64:
            self.out.append(_i("s_mov_b64", "SOP1", [self.exec_def()], [Operand.c64(value)]))
        else:
            self.out.append(_i("s_mov_b32", "SOP1", [self.exec_def()], [_c(value)]))

    def restore_exec(self, save: int) -> None:
        op = "s_mov_b64" if self.wave64 else "s_mov_b32"
        self.out.append(_i(op, "SOP1", [self.exec_def()], [_o(save, self.lm_dwords)]))

    # -- VALU -----------------------------------------------------------------------------
    def mov(self, dst: int, src: Operand, **dpp: object) -> None:
        self.out.append(_i("v_mov_b32", "VOP1", [_d(dst)], [src], **dpp))

    def readlane(self, sdst: int, vsrc: int, lane: int) -> None:
        self.out.append(_i("v_readlane_b32", "VOP3", [_d(sdst)], [_o(vsrc), _c(lane)]))

    def writelane(self, vdst: int, val: Operand, lane: int) -> None:
        self.out.append(_i("v_writelane_b32", "VOP3", [_d(vdst)], [val, _c(lane), _o(vdst)]))

    def permlanex16(self, dst: int, src: int, sel: int, fetch_inactive: bool) -> None:
        f: dict[str, object] = {"op_sel": [1, 0]} if fetch_inactive else {}
        self.out.append(_i("v_permlanex16_b32", "VOP3", [_d(dst)],
                           [_o(src), _c(sel), _c(sel), _o(dst)], **f))

    def op(self, dst: int, a: int | Operand, b: int, vcc_ok: bool = True) -> None:
        """dst = op(a, b): `a` a register (VGPR/SGPR) or an operand, `b` a VGPR."""
        info = self.info
        assert info is not None
        n = self.n

        def part(k: int) -> Operand:
            if isinstance(a, Operand):
                return a
            return _o(a + k)

        if info.dpp:
            for k in range(n):
                fmt = "VOP2" if not isinstance(a, Operand) or a.const is None else "VOP3"
                self.out.append(_i(info.opcode, fmt, [_d(dst + k)], [part(k), _o(b + k)]))
            return
        if n == 1:
            self.out.append(_i(info.opcode, "VOP3", [_d(dst)], [part(0), _o(b)]))
            return
        a64 = a if isinstance(a, Operand) else _o(a, 2)
        if info.opcode in ("v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64"):
            self.out.append(_i(info.opcode, "VOP3", [_d(dst, 2)], [a64, _o(b, 2)]))
            return
        vcc = PhysReg.of(VCC)
        lm = s2 if self.wave64 else s1
        if info.opcode == "v_mad_u64_u32":
            self.mul64(dst, a, b)
            return
        if info.opcode == "v_add_co_u32":
            self.out.append(_i("v_add_co_u32", "VOP3SD", [_d(dst), Definition.fixed(vcc, lm)],
                               [_o(a), _o(b)]))
            self.out.append(_i("v_add_co_ci_u32", "VOP3SD",
                               [_d(dst + 1), Definition.fixed(vcc, lm)],
                               [_o(a + 1), _o(b + 1), Operand.fixed(vcc, lm)]))
            return
        # 64-bit integer min/max: compare, then select each dword
        self.out.append(_i(info.opcode, "VOP3", [Definition.fixed(vcc, lm)], [a64, _o(b, 2)]))
        for k in range(2):
            self.out.append(_i("v_cndmask_b32", "VOP3", [_d(dst + k)],
                               [_o(b + k), part(k), Operand.fixed(vcc, lm)]))

    def mul64(self, dst: int, a: int | Operand, b: int) -> None:
        """dst = a * b mod 2^64 with `vtmp` as scratch: `a` is vtmp or SGPRs (or `b` is
        vtmp and `a` == dst: the operands are swapped)."""
        assert not isinstance(a, Operand)
        if a == dst:
            a, b = b, a
        s = self.vtmp
        assert s >= 0 and b != s and dst != s and (a == s or a < VGPR_BASE)
        lm = s2 if self.wave64 else s1
        self.out.append(_i("v_mul_lo_u32", "VOP3", [_d(s + 1)], [_o(a + 1), _o(b)]))
        self.out.append(_i("v_mul_lo_u32", "VOP3", [_d(dst + 1)], [_o(a), _o(b + 1)]))
        self.out.append(_i("v_add_nc_u32", "VOP2", [_d(s + 1)], [_o(dst + 1), _o(s + 1)]))
        self.out.append(_i("v_mad_u64_u32", "VOP3SD",
                           [_d(dst, 2), Definition.fixed(PhysReg.of(VCC), lm)],
                           [_o(a), _o(b), Operand.c64(0)]))
        self.out.append(_i("v_add_nc_u32", "VOP2", [_d(dst + 1)], [_o(s + 1), _o(dst + 1)]))

    def dpp_op(self, dst: int, src: int, vtmp: int, ctrl: dict[str, object],
               sparse: bool) -> None:
        """dst = op(dpp(src), dst) with `ctrl`; lanes with an invalid DPP source keep dst."""
        info = self.info
        assert info is not None
        if info.dpp:
            for k in range(self.n):
                self.out.append(_i(info.opcode, "VOP2", [_d(dst + k)],
                                   [_o(src + k), _o(dst + k)], **_dpp(ctrl)))
            return
        ident = identity_dwords(info)
        for k in range(self.n):
            if sparse:
                self.mov(vtmp + k, _c(ident[k]))
            self.mov(vtmp + k, _o(src + k), **_dpp(ctrl))
        self.op(dst, vtmp, dst)


def _reg(x: Operand | Definition, what: str, instr: Instruction) -> int:
    if x.phys is None:
        raise LoweringError(f"lower_to_hw: {instr.opcode}: {what} has no register "
                            "(run register allocation)")
    return x.phys.reg


def lower_reduction(program: Program, block: Block, instr: Instruction) -> list[Instruction]:
    """The hardware sequence of a reduction, scan or ``p_bpermute`` (module docstring)."""
    del block
    if instr.opcode == "p_bpermute":
        return _lower_bpermute(program, instr)
    name = str(instr.fields.get("op", ""))
    try:
        info = reduce_op_info(name)
    except (KeyError, ValueError):
        raise LoweringError(f"lower_to_hw: {instr.opcode}: unsupported op '{name}'") from None
    wave = program.wave_size
    cluster = int(instr.fields.get("cluster_size", wave) or wave)  # type: ignore[call-overload]
    cluster = min(cluster, wave)
    kind = instr.opcode
    if kind != "p_reduce":
        cluster = wave
    if cluster & (cluster - 1):
        raise LoweringError(f"lower_to_hw: {kind}: cluster size {cluster} is not a power of 2")
    e = _Emitter(program, info)
    n = e.n
    src = _reg(instr.operands[0], "src", instr)
    tmp = _reg(instr.operands[1], "tmp", instr)
    vt = instr.operands[2] if len(instr.operands) > 2 else None
    vtmp = vt.phys.reg if vt is not None and vt.phys is not None else -1
    defs = instr.definitions
    dst_def = defs[0]
    dst = _reg(dst_def, "dst", instr)
    save = _reg(defs[1], "exec_save", instr)
    sitmp = -1
    for d in defs[2:]:
        if d.phys is not None and d.phys.reg not in (SCC, VCC) and not d.phys.is_vgpr:
            sitmp = d.phys.reg
    e.vtmp = vtmp
    if needs_vtmp(kind, info, cluster) and vtmp < 0:
        raise LoweringError(f"lower_to_hw: {kind} {name}: no vtmp (run setup_reduce_temp)")
    if needs_sitmp(kind, cluster, wave) and sitmp < 0:
        raise LoweringError(f"lower_to_hw: {kind} {name}: no SGPR temporary definition")
    ident = identity_dwords(info)

    e.saveexec_all(save)
    for k in range(n):
        e.out.append(_i("v_cndmask_b32", "VOP3", [_d(tmp + k)],
                        [_c(ident[k]), _o(src + k), _o(save, e.lm_dwords)]))
    last_op = False
    if kind == "p_reduce":
        last_op = _reduce_steps(e, tmp, vtmp, sitmp, cluster)
    else:
        if kind == "p_exclusive_scan":
            _shift_right_one(e, tmp, vtmp, sitmp, ident)
            tmp, vtmp = vtmp, tmp
            e.vtmp = vtmp
        _inclusive_steps(e, tmp, vtmp, sitmp)

    sgpr_dst = not dst_def.phys.is_vgpr  # type: ignore[union-attr]
    if last_op and not sgpr_dst:
        e.restore_exec(save)
        e.op(dst, vtmp, tmp)
        return e.out
    if last_op:
        e.op(tmp, vtmp, tmp)
    if not sgpr_dst and kind == "p_reduce" and cluster == 64:
        # a VGPR result of a whole-wave64 reduce: the last lane holds it
        for k in range(n):
            e.readlane(sitmp + k, tmp + k, 63)
        e.restore_exec(save)
        for k in range(n):
            e.mov(dst + k, _o(sitmp + k))
        return e.out
    e.restore_exec(save)
    if sgpr_dst:
        for k in range(n):
            e.readlane(dst + k, tmp + k, wave - 1)
    elif dst != tmp:
        for k in range(n):
            e.mov(dst + k, _o(tmp + k))
    return e.out


def _reduce_steps(e: _Emitter, tmp: int, vtmp: int, sitmp: int, cluster: int) -> bool:
    """Cluster reduction in `tmp`; True if the last op(tmp, vtmp) is still to be done."""
    for size, ctrl in ((2, QUAD_10_32), (4, QUAD_23_01), (8, HALF_MIRROR), (16, MIRROR)):
        if cluster < size:
            return False
        e.dpp_op(tmp, tmp, vtmp, ctrl, sparse=False)
    if cluster < 32:
        return False
    for k in range(e.n):
        e.permlanex16(vtmp + k, tmp + k, 0, fetch_inactive=False)
    if cluster == 32:
        return True
    e.op(tmp, tmp, vtmp)
    for k in range(e.n):
        e.readlane(sitmp + k, tmp + k, 0)
    e.op(tmp, sitmp, tmp)
    return False


def _inclusive_steps(e: _Emitter, tmp: int, vtmp: int, sitmp: int) -> None:
    for n in (1, 2, 4, 8):
        e.dpp_op(tmp, tmp, vtmp, _row_shr(n), sparse=True)
    # rows 1 and 3 add the last lane of the row before
    e.set_exec(0xFFFF0000FFFF0000 if e.wave64 else 0xFFFF0000)
    for k in range(e.n):
        e.permlanex16(vtmp + k, tmp + k, -1, fetch_inactive=True)
    e.op(tmp, vtmp, tmp)
    if e.wave64:
        e.set_exec(0xFFFFFFFF00000000)
        for k in range(e.n):
            e.readlane(sitmp + k, tmp + k, 31)
        e.op(tmp, sitmp, tmp)


def _shift_right_one(e: _Emitter, tmp: int, vtmp: int, sitmp: int, ident: list[int]) -> None:
    """vtmp = tmp shifted up by one lane across the wave, lane 0 = the identity."""
    for k in range(e.n):
        e.mov(vtmp + k, _o(tmp + k), **_dpp(_row_shr(1), bound_ctrl=True))
    e.set_exec(0x0001000000010000 if e.wave64 else 0x00010000)
    for k in range(e.n):
        e.permlanex16(vtmp + k, tmp + k, -1, fetch_inactive=True)
    e.set_exec(-1)
    if e.wave64:
        for k in range(e.n):
            e.readlane(sitmp + k, tmp + k, 31)
            e.writelane(vtmp + k, _o(sitmp + k), 32)
    for k in range(e.n):
        if ident[k]:
            e.writelane(vtmp + k, _c(ident[k]), 0)


def has_permlane64(program: Program) -> bool:
    """Does the target have ``v_permlane64_b32`` (GFX11+), the one-instruction swap of a
    wave64's halves?"""
    return get_table(program.gfx_level).has("v_permlane64_b32")


def _lower_bpermute(program: Program, instr: Instruction) -> list[Instruction]:
    if program.wave_size != 64:
        raise LoweringError("lower_to_hw: p_bpermute is for wave64")
    e = _Emitter(program, None)
    addr, data, same, l1, l2 = (_reg(o, f"operand {k}", instr)
                                for k, o in enumerate(instr.operands[:5]))
    dst = _reg(instr.definitions[0], "dst", instr)
    save = _reg(instr.definitions[1], "exec_save", instr)
    if has_permlane64(program):
        e.saveexec_all(save)
        e.out.append(_i("v_permlane64_b32", "VOP1", [_d(l1)], [_o(data)]))
    else:
        # GFX10/10.3: no VALU crosses the halves; swap them lane by lane through the low
        # SGPR of exec_save (it holds nothing yet; v_readlane/v_writelane ignore EXEC)
        for lane in range(64):
            e.readlane(save, data, lane)
            e.writelane(l1, _o(save), lane ^ 32)
        e.saveexec_all(save)
    e.out.append(_i("ds_bpermute_b32", "DS", [_d(l1)], [_o(addr), _o(l1)]))
    e.out.append(_i("ds_bpermute_b32", "DS", [_d(l2)], [_o(addr), _o(data)]))
    e.restore_exec(save)
    e.out.append(_i("v_cndmask_b32", "VOP3", [_d(dst)], [_o(l1), _o(l2), _o(same, 2)]))
    return e.out

