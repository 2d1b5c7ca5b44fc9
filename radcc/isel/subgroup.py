"""Selection of the MIR subgroup intrinsics (votes, ballots, broadcasts, shuffles,
quad operations, reductions and scans) and the subgroup mask system values.

After ACO's isel (ACO's README.md "Instruction Selection"; facts of
aco_instruction_selection.cpp's subgroup intrinsics, written anew for GFX10+):

- votes and ballots are SALU on lane masks ANDed with EXEC (``s_and``,
  ``s_and_not1``; SCC gives the uniform boolean); ``elect`` is
  ``s_ctz_i32`` of EXEC and a shift; ballot bit counts use ``s_bcnt1`` and
  ``v_mbcnt_lo/hi_u32_b32``; ``allEqual`` compares with
  ``v_readfirstlane_b32``;
- broadcasts: ``v_readfirstlane_b32`` / ``v_readlane_b32`` (uniform index);
  shuffles with a divergent index: ``ds_bpermute_b32`` (wave32), or the
  ``p_bpermute`` pseudo in wave64 (``ds_bpermute_b32`` only permutes within
  32-lane halves; `radcc.passes.lower_reductions`); constant xor masks use
  DPP ``quad_perm`` / ``row_xmask``, ``v_permlanex16_b32`` and
  ``v_permlane64_b32``; quad operations DPP ``quad_perm``;
- reductions and scans: ``p_reduce`` / ``p_inclusive_scan`` /
  ``p_exclusive_scan`` with fields ``op`` (ACO's ReduceOp, e.g. ``fadd32``)
  and ``cluster_size``, operands ``src, lvN: undef, lvN: undef`` (linear
  scratch VGPRs `reduce_assign.setup_reduce_temp` fills), definitions ``dst``
  (an SGPR for a whole-wave reduce), the EXEC save, an SGPR temporary when
  needed, scc (and vcc for 64-bit integer add/min/max). A whole-wave reduce of
  a uniform value is computed on the SALU (min/max/and/or: the value; add:
  value * active lanes; xor: value * parity); its scans count the active
  lanes below (``v_mbcnt`` of EXEC). Booleans reduce as lane masks
  (and/or/xor of the whole wave) or as 0/1 integers.
- masks (``load_subgroup_{eq,ge,gt,le,lt}_mask``): shifts of the lane id
  (``v_mbcnt``), 64-bit in wave64; words 2 and 3 (and 1 in wave32) are 0.

Entry points: `SUBGROUP_INTRINSICS` (the MIR ops handled here) and
`select_subgroup(ctx, ins)`; see docs/isel.md "Subgroup operations".
"""

from __future__ import annotations

from collections.abc import Callable

from radcc.frontend.mir import Instr, Value
from radcc.frontend.mir_ops import SUBGROUP_OPS
from radcc.ir.program import Operand
from radcc.ir.regclass import EXEC, SCC, VCC, PhysReg, RegClass, RegType, Temp, s1, s2, v1, v2
from radcc.passes.lower_reductions import needs_sitmp, needs_vcc, reduce_op_info

from .context import Comp, Const, IselContext, unsupported

MASK_VALUES = frozenset({"load_subgroup_eq_mask", "load_subgroup_ge_mask",
                         "load_subgroup_gt_mask", "load_subgroup_le_mask",
                         "load_subgroup_lt_mask"})
SUBGROUP_INTRINSICS = frozenset(SUBGROUP_OPS) | MASK_VALUES

_QUAD_SWAP = {"quad_swap_horizontal": 1, "quad_swap_vertical": 2, "quad_swap_diagonal": 3}
_SCAN_OPCODE = {"reduce": "p_reduce", "inclusive_scan": "p_inclusive_scan",
                "exclusive_scan": "p_exclusive_scan"}
_FEQ = {32: "v_cmp_eq_f32", 64: "v_cmp_eq_f64"}
_IEQ = {32: "v_cmp_eq_u32", 64: "v_cmp_eq_u64"}


def select_subgroup(ctx: IselContext, ins: Instr) -> None:
    op = ins.op
    d = ins.dest
    assert d is not None
    if op in MASK_VALUES:
        ctx.set(d, _sg_mask(ctx, op[len("load_subgroup_"):-len("_mask")]))
        return
    for s in ins.srcs:
        if s.bit_size not in (1, 32, 64):
            raise unsupported(ins, "8/16-bit subgroup operations are not selected yet")
    if d.bit_size not in (1, 32, 64):
        raise unsupported(ins, "8/16-bit subgroup operations are not selected yet")
    handler = _HANDLERS.get(op)
    if handler is None:
        if op in _QUAD_SWAP:
            ctx.set(d, _sg_lanes(ctx, ins, "xor", Const(32, _QUAD_SWAP[op])))
            return
        if op in _SCAN_OPCODE:
            ctx.set(d, _sg_reduce(ctx, ins))
            return
        raise unsupported(ins)
    ctx.set(d, handler(ctx, ins))


# -- helpers ------------------------------------------------------------------------
def _sgx_exec(ctx: IselContext) -> Operand:
    return Operand.fixed(PhysReg.of(EXEC), ctx.lm)


def _sgx_lm_name(ctx: IselContext, stem: str) -> str:
    return f"{stem}_b64" if ctx.wave == 64 else f"{stem}_b32"


def _sgx_bool_from_scc(ctx: IselContext, d: Value, scc: Temp, if_set: bool = True) -> Comp:
    t, f = (1, 0) if if_set else (0, 1)
    if d.divergent:
        ones = ctx.lm_all()
        a, b = (ones, ctx.lm_zero()) if if_set else (ctx.lm_zero(), ones)
        return ctx.new_lane_mask(ctx.b.sop2(_sgx_lm_name(ctx, "s_cselect"), ctx.lm, a, b,
                                            ctx.scc_op(scc), scc=False).temp)
    return ctx.b.sop2("s_cselect_b32", s1, Operand.c32(t), Operand.c32(f),
                      ctx.scc_op(scc), scc=False).temp


def _sgx_and_exec(ctx: IselContext, mask: Temp) -> tuple[Temp, Temp]:
    """(mask & exec, scc = result != 0)."""
    r = ctx.b.sop2(_sgx_lm_name(ctx, "s_and"), ctx.lm, mask, _sgx_exec(ctx))
    return r.temp, r[1]


def _sgx_lane_id(ctx: IselContext) -> Temp:
    t = ctx.valu("v_mbcnt_lo_u32_b32", v1, Const(32, 0xFFFFFFFF), Const(32, 0))
    if ctx.wave == 64:
        t = ctx.valu("v_mbcnt_hi_u32_b32", v1, Const(32, 0xFFFFFFFF), t)
    return t


def _sgx_dwords(ctx: IselContext, x: Comp, bits: int) -> list[Comp]:
    if bits == 64:
        return list(ctx.halves(x))
    return [x]


def _sgx_join_dwords(ctx: IselContext, parts: list[Temp], bits: int) -> Temp:
    if bits == 64:
        rc = s2 if all(p.rc.is_sgpr for p in parts) else v2
        if rc is v2:
            parts = [ctx.vgpr(p) for p in parts]
        return ctx.b.create_vector(rc, *parts).temp
    return parts[0]


def _sgx_bool_to_vgpr(ctx: IselContext, x: Comp) -> Temp:
    """A boolean as 0/1 in a VGPR."""
    mask = ctx.lanemask(x)
    return ctx.b.vop3("v_cndmask_b32", v1, Operand.c32(0), Operand.c32(1), mask).temp


def _sgx_vgpr_to_bool(ctx: IselContext, d: Value, x: Temp) -> Comp:
    if x.rc.is_sgpr:
        scc = ctx.salu("s_cmp_lg_u32", None, x, Const(32, 0))
        return _sgx_bool_from_scc(ctx, d, scc)
    m = ctx.new_lane_mask(ctx.valu("v_cmp_ne_u32", ctx.lm, Const(32, 0), x))
    return m if d.divergent else ctx.ubool(m)


def _sgx_out(ctx: IselContext, d: Value, x: Comp) -> Comp:
    """`x` in the class the MIR destination wants (non-boolean)."""
    if isinstance(x, Const):
        return x
    rc = ctx.rc(d)
    if rc.is_vgpr and x.rc.is_sgpr:
        return ctx.vgpr(x, d.bit_size)
    return x


def _sgx_uniform(ctx: IselContext, x: Comp) -> bool:
    return isinstance(x, Const) or (x.rc.is_sgpr and not ctx.is_lane_mask(x))


# -- votes, elect -------------------------------------------------------------------
def _sg_elect(ctx: IselContext, ins: Instr) -> list[Comp]:
    first = ctx.b.sop1(_sgx_lm_name(ctx, "s_ctz_i32"), s1, _sgx_exec(ctx), scc=False).temp
    one = Operand.c64(1) if ctx.wave == 64 else Operand.c32(1)
    m = ctx.new_lane_mask(ctx.b.sop2(_sgx_lm_name(ctx, "s_lshl"), ctx.lm, one, first).temp)
    assert ins.dest is not None
    return [m if ins.dest.divergent else ctx.ubool(m)]


def _sg_vote_any(ctx: IselContext, ins: Instr) -> list[Comp]:
    return [_sgx_vote(ctx, ins, ctx.comp(ins.srcs[0], 0), any_=True)]


def _sg_vote_all(ctx: IselContext, ins: Instr) -> list[Comp]:
    return [_sgx_vote(ctx, ins, ctx.comp(ins.srcs[0], 0), any_=False)]


def _sgx_vote(ctx: IselContext, ins: Instr, x: Comp, any_: bool) -> Comp:
    d = ins.dest
    assert d is not None
    if _sgx_uniform(ctx, x):  # the same in every lane: the value itself
        return ctx.lanemask(x) if d.divergent else x
    if any_:
        _, scc = _sgx_and_exec(ctx, x)
        return _sgx_bool_from_scc(ctx, d, scc)
    r = ctx.b.sop2(ctx.lm_op("andn2"), ctx.lm, _sgx_exec(ctx), x)
    return _sgx_bool_from_scc(ctx, d, r[1], if_set=False)


def _sg_vote_ieq(ctx: IselContext, ins: Instr) -> list[Comp]:
    return [_sgx_vote_eq(ctx, ins, _IEQ)]


def _sg_vote_feq(ctx: IselContext, ins: Instr) -> list[Comp]:
    return [_sgx_vote_eq(ctx, ins, _FEQ)]


def _sgx_vote_eq(ctx: IselContext, ins: Instr, cmp: dict[int, str]) -> Comp:
    d = ins.dest
    assert d is not None
    src = ins.srcs[0]
    acc: Temp | None = None  # lanes equal to the first active lane (all components)
    oks: list[Temp] = []  # per boolean component: 1 if all active lanes agree
    for c in ctx.get(src):
        if _sgx_uniform(ctx, c):
            continue
        if src.bit_size == 1:  # a lane mask: all active lanes set, or none
            some = _sgx_scc01(ctx, _sgx_and_exec(ctx, c)[1])
            not_all = _sgx_scc01(ctx, ctx.b.sop2(ctx.lm_op("andn2"), ctx.lm,
                                                 _sgx_exec(ctx), c)[1])
            mixed = ctx.b.sop2("s_and_b32", s1, some, not_all).temp
            oks.append(ctx.b.sop2("s_xor_b32", s1, mixed, Operand.c32(1)).temp)
            continue
        first = ctx.b.pseudo("p_as_uniform", [s2 if src.bit_size == 64 else s1], [c]).temp
        cmpm = ctx.valu(cmp[src.bit_size], ctx.lm, first, c,
                        wide=(src.bit_size == 64,) * 2)
        acc = cmpm if acc is None else ctx.b.sop2(ctx.lm_op("and"), ctx.lm, acc,
                                                  cmpm).temp
    if acc is not None:
        r = ctx.b.sop2(ctx.lm_op("andn2"), ctx.lm, _sgx_exec(ctx), acc)
        oks.append(ctx.b.sop2("s_cselect_b32", s1, Operand.c32(0), Operand.c32(1),
                              ctx.scc_op(r[1]), scc=False).temp)
    if not oks:
        return ctx.lanemask(Const(1, 1)) if d.divergent else Const(1, 1)
    ok = oks[0]
    for o in oks[1:]:
        ok = ctx.b.sop2("s_and_b32", s1, ok, o).temp
    return ctx.lanemask(ok) if d.divergent else ok


def _sgx_scc01(ctx: IselContext, scc: Temp) -> Temp:
    return ctx.b.sop2("s_cselect_b32", s1, Operand.c32(1), Operand.c32(0),
                      ctx.scc_op(scc), scc=False).temp


# -- ballots ------------------------------------------------------------------------
def _sg_ballot(ctx: IselContext, ins: Instr) -> list[Comp]:
    d = ins.dest
    assert d is not None
    x = ctx.comp(ins.srcs[0], 0)
    if isinstance(x, Const) and not x.value:
        words: list[Comp] = [Const(32, 0)] * (ctx.wave // 32)
    else:
        m, _ = _sgx_and_exec(ctx, ctx.lanemask(x))
        words = [m] if ctx.wave == 32 else list(ctx.b.split_vector(m, s1, s1).temps)
    words += [Const(32, 0)] * (4 - len(words))
    return [_sgx_out(ctx, d, w) for w in words][:d.num_components]


def _sgx_ballot_mask(ctx: IselContext, v: Value) -> Temp:
    """The first wave-size bits of a ballot value as a uniform lane-mask-sized SGPR."""
    words = [ctx.sgpr(ctx.comp(v, k)) for k in range(ctx.wave // 32)]
    if ctx.wave == 64:
        return ctx.b.create_vector(s2, *words).temp
    return ctx.b.copy(s1, words[0]).temp


def _sg_inverse_ballot(ctx: IselContext, ins: Instr) -> list[Comp]:
    d = ins.dest
    assert d is not None
    m = ctx.new_lane_mask(_sgx_ballot_mask(ctx, ins.srcs[0]))
    return [m if d.divergent else ctx.ubool(m)]


def _sg_ballot_bitfield_extract(ctx: IselContext, ins: Instr) -> list[Comp]:
    d = ins.dest
    assert d is not None
    v, idx = ins.srcs
    i = ctx.comp(idx, 0)
    words = ctx.get(v)
    if isinstance(i, Const):
        w = words[min((i.value >> 5) & 3, len(words) - 1)]
        if isinstance(w, Const):
            bit = (w.value >> (i.value & 31)) & 1
            return [ctx.lanemask(Const(1, bit)) if d.divergent else Const(1, bit)]
        if w.rc.is_sgpr:
            scc = ctx.salu("s_bitcmp1_b32", None, w, Const(32, i.value & 31))
            return [_sgx_bool_from_scc(ctx, d, scc)]
    iv = ctx.vgpr(i)
    sel = ctx.valu("v_lshrrev_b32", v1, Const(32, 5), iv)
    acc: Comp = Const(32, 0)
    for k, w in enumerate(words[:4]):
        if isinstance(w, Const) and not w.value:
            continue
        sh = ctx.valu("v_lshrrev_b32", v1, iv, w)
        hit = ctx.valu("v_cmp_eq_u32", ctx.lm, Const(32, k), sel)
        acc = ctx.b.vop3("v_cndmask_b32", v1, ctx.operand(acc), sh, hit).temp
    if isinstance(acc, Const):
        return [ctx.lanemask(Const(1, 0)) if d.divergent else Const(1, 0)]
    bit = ctx.valu("v_and_b32", v1, Const(32, 1), acc)
    return [_sgx_vgpr_to_bool(ctx, d, bit)]


def _sg_ballot_bit_count_reduce(ctx: IselContext, ins: Instr) -> list[Comp]:
    d = ins.dest
    assert d is not None
    words = [ctx.comp(ins.srcs[0], k) for k in range(ctx.wave // 32)]
    if all(_sgx_uniform(ctx, w) for w in words):
        cnt: Comp = Const(32, 0)
        for w in words:
            c = ctx.salu("s_bcnt1_i32_b32", s1, w)
            cnt = c if isinstance(cnt, Const) else ctx.salu("s_add_u32", s1, cnt, c)
        return [_sgx_out(ctx, d, cnt)]
    acc: Comp = Const(32, 0)
    for w in words:
        acc = ctx.valu("v_bcnt_u32_b32", v1, w, acc)
    return [_sgx_out(ctx, d, acc)]


def _sgx_mbcnt(ctx: IselContext, words: list[Comp], acc: Comp) -> Temp:
    t = ctx.valu("v_mbcnt_lo_u32_b32", v1, words[0], acc)
    if ctx.wave == 64:
        t = ctx.valu("v_mbcnt_hi_u32_b32", v1, words[1], t)
    return t


def _sg_ballot_bit_count_exclusive(ctx: IselContext, ins: Instr) -> list[Comp]:
    words = [ctx.comp(ins.srcs[0], k) for k in range(ctx.wave // 32)]
    return [_sgx_mbcnt(ctx, words, Const(32, 0))]


def _sg_ballot_bit_count_inclusive(ctx: IselContext, ins: Instr) -> list[Comp]:
    words = [ctx.comp(ins.srcs[0], k) for k in range(ctx.wave // 32)]
    if all(_sgx_uniform(ctx, w) for w in words):
        own = ctx.b.vop3("v_cndmask_b32", v1, Operand.c32(0), Operand.c32(1),
                         _sgx_ballot_mask(ctx, ins.srcs[0])).temp
    else:
        lane = _sgx_lane_id(ctx)
        sh = [ctx.valu("v_lshrrev_b32", v1, lane, w) for w in words]
        word = sh[0] if ctx.wave == 32 else ctx.b.vop3(
            "v_cndmask_b32", v1, sh[0], sh[1],
            ctx.valu("v_cmp_le_u32", ctx.lm, Const(32, 32), lane)).temp
        own = ctx.valu("v_and_b32", v1, Const(32, 1), word)
    return [_sgx_mbcnt(ctx, words, own)]


def _sg_ballot_find_lsb(ctx: IselContext, ins: Instr) -> list[Comp]:
    return [_sgx_find(ctx, ins, msb=False)]


def _sg_ballot_find_msb(ctx: IselContext, ins: Instr) -> list[Comp]:
    return [_sgx_find(ctx, ins, msb=True)]


def _sgx_find(ctx: IselContext, ins: Instr, msb: bool) -> Comp:
    d = ins.dest
    assert d is not None
    words = [ctx.comp(ins.srcs[0], k) for k in range(ctx.wave // 32)]
    if all(_sgx_uniform(ctx, w) for w in words):
        m = _sgx_ballot_mask(ctx, ins.srcs[0])
        if msb:
            n = ctx.salu("s_clz_i32_u64" if ctx.wave == 64 else "s_clz_i32_u32", s1, m)
            r = ctx.salu("s_sub_u32", s1, Const(32, ctx.wave - 1), n)
        else:
            r = ctx.salu(_sgx_lm_name(ctx, "s_ctz_i32"), s1, m)
        return _sgx_out(ctx, d, r)
    if msb:
        n = [ctx.valu("v_clz_i32_u32", v1, w) for w in words]
        r = [ctx.valu("v_sub_nc_u32", v1, Const(32, 31 + 32 * k), x)
             for k, x in enumerate(n)]
        if ctx.wave == 64:
            hi_set = ctx.valu("v_cmp_ne_u32", ctx.lm, Const(32, 0), words[1])
            return ctx.b.vop3("v_cndmask_b32", v1, r[0], r[1], hi_set).temp
        return r[0]
    z = [ctx.valu("v_ctz_i32_b32", v1, w) for w in words]
    if ctx.wave == 64:
        hi = ctx.valu("v_or_b32", v1, Const(32, 32), z[1])
        return ctx.valu("v_min_u32", v1, z[0], hi)
    return z[0]


# -- broadcasts and shuffles -------------------------------------------------------
def _sg_read_first_invocation(ctx: IselContext, ins: Instr) -> list[Comp]:
    d = ins.dest
    assert d is not None
    src = ins.srcs[0]
    out: list[Comp] = []
    for c in ctx.get(src):
        if _sgx_uniform(ctx, c):
            if src.bit_size == 1:
                out.append(ctx.lanemask(c) if d.divergent else c)
            else:
                out.append(_sgx_out(ctx, d, c))
            continue
        if src.bit_size == 1:
            r = ctx.b.pseudo("p_as_uniform", [s1], [_sgx_bool_to_vgpr(ctx, c)]).temp
            out.append(_sgx_vgpr_to_bool(ctx, d, r))
            continue
        r = ctx.b.pseudo("p_as_uniform", [s2 if src.bit_size == 64 else s1], [c]).temp
        out.append(_sgx_out(ctx, d, r))
    return out


def _sg_read_invocation(ctx: IselContext, ins: Instr) -> list[Comp]:
    return _sg_lanes(ctx, ins, "index", ctx.comp(ins.srcs[1], 0))


def _sg_shuffle(ctx: IselContext, ins: Instr) -> list[Comp]:
    return _sg_lanes(ctx, ins, "index", ctx.comp(ins.srcs[1], 0))


def _sg_shuffle_xor(ctx: IselContext, ins: Instr) -> list[Comp]:
    return _sg_lanes(ctx, ins, "xor", ctx.comp(ins.srcs[1], 0))


def _sg_shuffle_up(ctx: IselContext, ins: Instr) -> list[Comp]:
    return _sg_lanes(ctx, ins, "up", ctx.comp(ins.srcs[1], 0))


def _sg_shuffle_down(ctx: IselContext, ins: Instr) -> list[Comp]:
    return _sg_lanes(ctx, ins, "down", ctx.comp(ins.srcs[1], 0))


def _sg_quad_broadcast(ctx: IselContext, ins: Instr) -> list[Comp]:
    return _sg_lanes(ctx, ins, "quad", ctx.comp(ins.srcs[1], 0))


def _sg_lanes(ctx: IselContext, ins: Instr, how: str, arg: Comp) -> list[Comp]:
    """Each lane reads srcs[0] of another lane (`how`: index xor up down quad)."""
    d = ins.dest
    assert d is not None
    src = ins.srcs[0]
    out: list[Comp] = []
    for c in ctx.get(src):
        if _sgx_uniform(ctx, c):
            out.append((ctx.lanemask(c) if d.divergent else c) if src.bit_size == 1
                       else _sgx_out(ctx, d, c))
            continue
        x = _sgx_bool_to_vgpr(ctx, c) if src.bit_size == 1 else c
        parts = [ctx.vgpr(p) for p in _sgx_dwords(ctx, x, src.bit_size if src.bit_size != 1
                                                  else 32)]
        moved = [_sgx_move_lanes(ctx, p, how, arg) for p in parts]
        r = _sgx_join_dwords(ctx, moved, src.bit_size if src.bit_size != 1 else 32)
        if src.bit_size == 1:
            out.append(_sgx_vgpr_to_bool(ctx, d, r))
        elif d.divergent:
            out.append(ctx.vgpr(r, src.bit_size))
        else:
            out.append(ctx.sgpr(r, src.bit_size))
    return out


def _sgx_move_lanes(ctx: IselContext, x: Temp, how: str, arg: Comp) -> Temp:
    """One dword moved between lanes; an SGPR result when the source lane is uniform."""
    if how == "index" and _sgx_uniform(ctx, arg):
        return ctx.b.vop3("v_readlane_b32", s1, x, ctx.operand(arg)).temp
    if isinstance(arg, Const):
        m = arg.value & (ctx.wave - 1)
        # one lane move only: a second one (v_permlane64 and a DPP/permlanex16 step)
        # would read the first one's result in lanes EXEC left unwritten
        if how == "xor" and not (m & 32 and m & 31):
            return _sgx_xor_lanes(ctx, x, m)
        if how == "quad":
            k = arg.value & 3
            return _sgx_dpp_mov(ctx, x, {"quad_perm": [k, k, k, k]})
    lane = _sgx_lane_id(ctx)
    if how == "index":
        idx: Comp = arg
    elif how == "xor":
        idx = ctx.valu("v_xor_b32", v1, lane, arg)
    elif how == "up":
        idx = ctx.valu("v_sub_nc_u32", v1, lane, arg)
    elif how == "down":
        idx = ctx.valu("v_add_nc_u32", v1, lane, arg)
    else:  # quad with a uniform index
        base = ctx.valu("v_and_b32", v1, Const(32, ~3 & 0xFFFFFFFF), lane)
        idx = ctx.valu("v_add_nc_u32", v1, base, arg)
    return _sgx_bpermute(ctx, x, idx, lane)


def _sgx_dpp_mov(ctx: IselContext, x: Temp, ctrl: dict[str, object]) -> Temp:
    return ctx.b.inst("v_mov_b32", [v1], [x], "VOP1", **ctrl, row_mask=0xF,
                      bank_mask=0xF).temp


def _sgx_xor_lanes(ctx: IselContext, x: Temp, mask: int) -> Temp:
    if mask & 32:
        x = ctx.b.inst("v_permlane64_b32", [v1], [x], "VOP1").temp
        mask &= 31
    if not mask:
        return x
    if mask < 4:
        return _sgx_dpp_mov(ctx, x, {"quad_perm": [k ^ mask for k in range(4)]})
    if mask < 16:
        return _sgx_dpp_mov(ctx, x, {"row_xmask": mask})
    sel = [k ^ (mask & 15) for k in range(16)]
    lo = sum(s << (4 * k) for k, s in enumerate(sel[:8]))
    hi = sum(s << (4 * k) for k, s in enumerate(sel[8:]))
    return ctx.b.vop3("v_permlanex16_b32", v1, x, ctx.sgpr(Const(32, lo)),
                      ctx.sgpr(Const(32, hi))).temp


def _sgx_bpermute(ctx: IselContext, x: Temp, idx: Comp, lane: Temp) -> Temp:
    addr = ctx.valu("v_lshlrev_b32", v1, Const(32, 2), ctx.vgpr(idx))
    if ctx.wave == 32:
        return ctx.b.inst("ds_bpermute_b32", [v1], [addr, x]).temp
    other = ctx.valu("v_xor_b32", v1, ctx.vgpr(idx), lane)
    half = ctx.valu("v_and_b32", v1, Const(32, 32), other)
    same = ctx.valu("v_cmp_eq_u32", ctx.lm, Const(32, 0), half)
    lv = v1.as_linear()
    r = ctx.b.pseudo("p_bpermute", [v1, s2, (s1, PhysReg.of(SCC))],
                     [addr, x, same, Operand(rc=lv, undef=True),
                      Operand(rc=lv, undef=True)])
    for o in r.instr.operands[:3]:
        o.is_late_kill = True
    return r.temp


# -- reductions and scans -----------------------------------------------------------
def reduce_f16(ctx: IselContext, ins: Instr, comps: list[Temp]) -> list[Comp]:
    """An f16 ``fadd``/``fmul`` reduction or scan of `comps` (VGPRs holding the f16 in
    their low halves): ACO's fadd16/fmul16, the DPP steps in ``v_add_f16``/``v_mul_f16``
    (`radcc.passes.lower_reductions`); the result's low half is the f16."""
    d = ins.dest
    assert d is not None
    cluster = min(int(ins.attrs.get("cluster_size") or 0) or ctx.wave, ctx.wave)
    op = str(ins.attrs["reduction_op"])
    out: list[Comp] = []
    for x in comps:
        r = _sgx_reduce_vgpr(ctx, ins, ins.op, op, cluster, 16, x)
        out.append(ctx.vgpr(r) if d.divergent else r)
    return out


def _sg_reduce(ctx: IselContext, ins: Instr) -> list[Comp]:
    d = ins.dest
    assert d is not None
    kind = ins.op
    op = str(ins.attrs["reduction_op"])
    cluster = int(ins.attrs.get("cluster_size") or 0) or ctx.wave
    cluster = min(cluster, ctx.wave)
    src = ins.srcs[0]
    out: list[Comp] = []
    for c in ctx.get(src):
        if src.bit_size == 1:
            out.append(_sgx_reduce_bool(ctx, d, kind, op, cluster, c))
            continue
        r = _sgx_reduce_uniform(ctx, kind, op, cluster, src.bit_size, c)
        if r is None:
            r = _sgx_reduce_vgpr(ctx, ins, kind, op, cluster, src.bit_size, ctx.vgpr(
                c, src.bit_size))
        out.append(ctx.vgpr(r, src.bit_size) if d.divergent and not isinstance(r, Const)
                   else r)
    return out


def _sgx_reduce_uniform(ctx: IselContext, kind: str, op: str, cluster: int, bits: int,
                        x: Comp) -> Comp | None:
    if cluster != ctx.wave or not _sgx_uniform(ctx, x) or bits != 32:
        return None
    if kind != "reduce":
        return _sgx_scan_uniform(ctx, kind, op, x)
    if op in ("imin", "umin", "imax", "umax", "fmin", "fmax", "iand", "ior"):
        return x
    if op in ("iadd", "ixor"):
        n = ctx.salu(_sgx_lm_name(ctx, "s_bcnt1_i32"), s1, _sgx_exec(ctx))
        if op == "ixor":
            n = ctx.salu("s_and_b32", s1, n, Const(32, 1))
        return ctx.salu("s_mul_i32", s1, x, n)
    return None


def _sgx_scan_uniform(ctx: IselContext, kind: str, op: str, x: Comp) -> Comp | None:
    """A scan of a value the same in every lane (ACO's uniform scans): counts of the
    active lanes below (``v_mbcnt`` of EXEC) instead of DPP."""
    if op not in ("iadd", "ixor", "imin", "umin", "imax", "umax", "iand", "ior"):
        return None
    exec_lo = Operand.fixed(PhysReg.of(EXEC), s1)
    below = ctx.valu("v_mbcnt_lo_u32_b32", v1, exec_lo, Const(32, 0))
    if ctx.wave == 64:
        below = ctx.valu("v_mbcnt_hi_u32_b32", v1, Operand.fixed(PhysReg.of(EXEC + 1), s1),
                         below)
    n = below if kind == "exclusive_scan" else ctx.valu(
        "v_add_nc_u32", v1, Const(32, 1), below)
    if op == "iadd":
        return ctx.valu("v_mul_lo_u32", v1, n, x)
    if op == "ixor":
        odd = ctx.valu("v_and_b32", v1, Const(32, 1), n)
        return ctx.valu("v_mul_lo_u32", v1, odd, x)
    if kind == "inclusive_scan":
        return x
    ident = reduce_op_info(op + "32").identity
    first = ctx.valu("v_cmp_eq_u32", ctx.lm, Const(32, 0), below)
    return ctx.b.vop3("v_cndmask_b32", v1, ctx.operand(x) if isinstance(x, Const)
                      else Operand(ctx.vgpr(x)), Operand.c32(ident), first).temp


def _sgx_reduce_vgpr(ctx: IselContext, ins: Instr, kind: str, op: str, cluster: int, bits: int,
                     x: Temp) -> Temp:
    name = f"{op}{bits}"
    try:
        info = reduce_op_info(name)
    except KeyError:
        raise unsupported(ins, f"reduction op {name}") from None
    opcode = _SCAN_OPCODE[kind]
    n = info.dwords
    full = opcode == "p_reduce" and cluster == ctx.wave
    dst_rc = RegClass(RegType.SGPR if full else RegType.VGPR, 4 * n)
    defs: list = [dst_rc, ctx.lm]
    if needs_sitmp(opcode, cluster, ctx.wave):
        defs.append(RegClass(RegType.SGPR, 4 * n))
    defs.append((s1, PhysReg.of(SCC)))
    if needs_vcc(info):
        defs.append((ctx.lm, PhysReg.of(VCC)))
    lv = RegClass(RegType.VGPR, 4 * n, linear=True)
    return ctx.b.pseudo(opcode, defs, [x, Operand(rc=lv, undef=True),
                                       Operand(rc=lv, undef=True)],
                        op=name, cluster_size=cluster).temp


def _sgx_reduce_bool(ctx: IselContext, d: Value, kind: str, op: str, cluster: int, x: Comp) -> Comp:
    if kind == "reduce" and cluster == ctx.wave and op in ("iand", "ior", "ixor"):
        if op == "ixor":
            m, _ = _sgx_and_exec(ctx, ctx.lanemask(x))
            n = ctx.salu(_sgx_lm_name(ctx, "s_bcnt1_i32"), s1, m)
            scc = ctx.salu("s_bitcmp1_b32", None, n, Const(32, 0))
            return _sgx_bool_from_scc(ctx, d, scc)
        return _sgx_vote(ctx, _FakeIns(d), x, any_=op == "ior")
    if op not in ("iand", "ior", "ixor", "imin", "imax", "umin", "umax"):
        raise unsupported(None, f"boolean reduction {op}")
    iop = {"imin": "iand", "umin": "iand", "imax": "ior", "umax": "ior"}.get(op, op)
    v = _sgx_bool_to_vgpr(ctx, x)
    r = _sgx_reduce_vgpr(ctx, _FakeIns(d), kind, iop, cluster, 32, v)
    return _sgx_vgpr_to_bool(ctx, d, ctx.vgpr(r))


# -- masks --------------------------------------------------------------------------
def _sg_mask(ctx: IselContext, kind: str) -> list[Comp]:
    lane = _sgx_lane_id(ctx)
    base = {"eq": 1, "ge": -1, "gt": -2, "lt": -1, "le": -2}[kind]
    invert = kind in ("lt", "le")  # lt = ~ge, le = ~gt
    if ctx.wave == 32:
        m = ctx.valu("v_lshlrev_b32", v1, lane, Const(32, base & 0xFFFFFFFF))
        if invert:
            m = ctx.valu("v_not_b32", v1, m)
        return [m, Const(32, 0), Const(32, 0), Const(32, 0)]
    m64 = ctx.valu("v_lshlrev_b64", v2, lane, Const(64, base & 0xFFFFFFFFFFFFFFFF),
                   wide=(False, True))
    lo, hi = ctx.b.split_vector(m64, v1, v1).temps
    if invert:
        lo, hi = ctx.valu("v_not_b32", v1, lo), ctx.valu("v_not_b32", v1, hi)
    return [lo, hi, Const(32, 0), Const(32, 0)]


# the intrinsics selected by one function each (`select_subgroup`)
_HANDLERS: dict[str, Callable[[IselContext, Instr], list[Comp]]] = {
    "elect": _sg_elect,
    "vote_any": _sg_vote_any,
    "vote_all": _sg_vote_all,
    "vote_ieq": _sg_vote_ieq,
    "vote_feq": _sg_vote_feq,
    "ballot": _sg_ballot,
    "inverse_ballot": _sg_inverse_ballot,
    "ballot_bitfield_extract": _sg_ballot_bitfield_extract,
    "ballot_bit_count_reduce": _sg_ballot_bit_count_reduce,
    "ballot_bit_count_exclusive": _sg_ballot_bit_count_exclusive,
    "ballot_bit_count_inclusive": _sg_ballot_bit_count_inclusive,
    "ballot_find_lsb": _sg_ballot_find_lsb,
    "ballot_find_msb": _sg_ballot_find_msb,
    "read_first_invocation": _sg_read_first_invocation,
    "read_invocation": _sg_read_invocation,
    "shuffle": _sg_shuffle,
    "shuffle_xor": _sg_shuffle_xor,
    "shuffle_up": _sg_shuffle_up,
    "shuffle_down": _sg_shuffle_down,
    "quad_broadcast": _sg_quad_broadcast,
    "reduce": _sg_reduce,
}


class _FakeIns:
    """The parts of an `Instr` the helpers read (for synthesized sub-operations)."""

    def __init__(self, dest: Value) -> None:
        self.dest = dest
        self.op = "reduce"
