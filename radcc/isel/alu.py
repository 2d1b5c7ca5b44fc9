"""ALU instruction selection: integer, float, boolean, conversions, vectors.

32-bit operations use the SALU for uniform values where it has the operation
(`SALU32`), else the VALU (`VALU32`, VOP2 when the operands allow, VOP3
otherwise) followed by ``p_as_uniform`` for a uniform result. 64-bit integer
add/sub use carry chains (``s_add_u32``/``s_addc_u32``, ``v_add_co_u32``/
``v_add_co_ci_u32``), shifts ``s_lshl_b64``/``v_lshlrev_b64``, multiplies the
32-bit pieces; f64 arithmetic is native VALU. Comparisons give SCC (then an
``s1`` 0/1) for uniform integers and lane masks (VOP3 ``v_cmp_*``) otherwise.
"""

from __future__ import annotations

import math
from typing import Any

from radcc.frontend.mir import Instr, Value, const_of
from radcc.frontend.mir_ops import ALU_OPS, COMMUTATIVE, CONVERSION, DOT_4X8
from radcc.ir.program import Operand
from radcc.ir.regclass import Temp, s1, s2, v1, v2
from radcc.ir.shader_config import FP_DENORM_FLUSH

from .context import Comp, Const, IselContext, unsupported

# uniform 32-bit: SALU opcode (sources in MIR order)
SALU32 = {
    "iadd": "s_add_u32", "isub": "s_sub_u32", "imul": "s_mul_i32", "iand": "s_and_b32",
    "ior": "s_or_b32", "ixor": "s_xor_b32", "ishl": "s_lshl_b32", "ishr": "s_ashr_i32",
    "ushr": "s_lshr_b32", "imin": "s_min_i32", "imax": "s_max_i32", "umin": "s_min_u32",
    "umax": "s_max_u32", "imul_high": "s_mul_hi_i32", "umul_high": "s_mul_hi_u32",
}
SALU32_UNARY = {"inot": "s_not_b32", "bitfield_reverse": "s_brev_b32",
                "bit_count": "s_bcnt1_i32_b32", "iabs": "s_abs_i32"}
SALU64 = {"iand": "s_and_b64", "ior": "s_or_b64", "ixor": "s_xor_b64"}
SALU64_SHIFT = {"ishl": "s_lshl_b64", "ishr": "s_ashr_i64", "ushr": "s_lshr_b64"}
VALU64_SHIFT = {"ishl": "v_lshlrev_b64", "ishr": "v_ashrrev_i64", "ushr": "v_lshrrev_b64"}
# VALU 32-bit binary: (opcode, reversed opcode or None); "swap" = operands reversed
VALU32 = {
    "iadd": ("v_add_nc_u32", None), "isub": ("v_sub_nc_u32", "v_subrev_nc_u32"),
    "imul": ("v_mul_lo_u32", None), "iand": ("v_and_b32", None), "ior": ("v_or_b32", None),
    "ixor": ("v_xor_b32", None), "imin": ("v_min_i32", None), "imax": ("v_max_i32", None),
    "umin": ("v_min_u32", None), "umax": ("v_max_u32", None),
    "imul_high": ("v_mul_hi_i32", None), "umul_high": ("v_mul_hi_u32", None),
    "fadd": ("v_add_f32", None), "fsub": ("v_sub_f32", "v_subrev_f32"),
    "fmul": ("v_mul_f32", None), "fmin": ("v_min_f32", None), "fmax": ("v_max_f32", None),
    "fldexp": ("v_ldexp_f32", None),
}
VALU32_SHIFT = {"ishl": "v_lshlrev_b32", "ishr": "v_ashrrev_i32", "ushr": "v_lshrrev_b32"}
VALU64 = {"fadd": "v_add_f64", "fmul": "v_mul_f64", "fmin": "v_min_f64", "fmax": "v_max_f64",
          "fldexp": "v_ldexp_f64"}
VALU_UNARY = {
    "inot": "v_not_b32", "bitfield_reverse": "v_bfrev_b32", "ffloor": "v_floor_f32",
    "fceil": "v_ceil_f32", "ftrunc": "v_trunc_f32", "fround_even": "v_rndne_f32",
    "ffract": "v_fract_f32", "fsqrt": "v_sqrt_f32", "frsq": "v_rsq_f32", "frcp": "v_rcp_f32",
    "fexp2": "v_exp_f32", "flog2": "v_log_f32", "ffrexp_sig": "v_frexp_mant_f32",
    "ffrexp_exp": "v_frexp_exp_i32_f32", "find_lsb": "v_ctz_i32_b32",
    "fsin_amd": "v_sin_f32", "fcos_amd": "v_cos_f32",
}
VALU_UNARY64 = {"ffloor": "v_floor_f64", "fceil": "v_ceil_f64", "ftrunc": "v_trunc_f64",
                "fround_even": "v_rndne_f64", "ffract": "v_fract_f64", "fsqrt": "v_sqrt_f64",
                "frsq": "v_rsq_f64", "frcp": "v_rcp_f64", "ffrexp_sig": "v_frexp_mant_f64",
                "ffrexp_exp": "v_frexp_exp_i32_f64"}
# machine-level ops of the isel lowering (docs/mir.md "What isel receives"; `_machine_op`)
MACHINE_OPS = frozenset({
    "pack_64_2x32_split", "unpack_64_2x32_split_x", "unpack_64_2x32_split_y", "ubfe", "ibfe",
    "bfm", "bfi", "pack_half_2x16_split", "unpack_half_2x16_split_x",
    "unpack_half_2x16_split_y", "pack_snorm_2x16_split", "pack_unorm_2x16_split",
    "cvt_pk_u8_f32"})
# comparisons: (VALU stem, SALU 32-bit opcode or None)
CMP = {
    "ieq": ("eq_{u}", "s_cmp_eq_u32"), "ine": ("ne_{u}", "s_cmp_lg_u32"),
    "ilt": ("lt_{i}", "s_cmp_lt_i32"), "ige": ("ge_{i}", "s_cmp_ge_i32"),
    "ult": ("lt_{u}", "s_cmp_lt_u32"), "uge": ("ge_{u}", "s_cmp_ge_u32"),
    "feq": ("eq_{f}", None), "fneu": ("neq_{f}", None), "flt": ("lt_{f}", None),
    "fge": ("ge_{f}", None), "fequ": ("nlg_{f}", None), "fneo": ("lg_{f}", None),
    "fltu": ("nge_{f}", None), "fgeu": ("nlt_{f}", None),
}
CMP64_SALU = {"ieq": "s_cmp_eq_u64", "ine": "s_cmp_lg_u64"}
F32_ONE, F64_ONE = 0x3F800000, 0x3FF0000000000000
INV_2PI = 0x3E22F983  # 1 / (2 pi) as f32 (an inline constant on GFX8+)

_SIZES = frozenset({1, 32, 64})  # the value sizes `select_alu` selects (alu16: 8, 16)


def select_alu(ctx: IselContext, ins: Instr) -> None:
    d = ins.dest
    assert d is not None
    op = ins.op
    if op in ("mov", "bitcast") or op.startswith("vec"):
        ctx.set(d, _moves(ctx, ins))
        return
    sizes = [s.bit_size for s in ins.srcs]
    if d.bit_size not in _SIZES or not _SIZES.issuperset(sizes):
        raise unsupported(ins, "8/16-bit arithmetic is not selected yet")
    info = ALU_OPS[op]
    if not info.per_component:
        raise unsupported(ins)
    wide = d.bit_size == 64 or 64 in sizes
    out: list[Comp] = []
    for i in range(d.num_components):
        srcs = [ctx.comp(s, i) for s in ins.srcs]
        out.append(_alu_comp(ctx, ins, d, srcs, wide))
    ctx.set(d, out)


# -- moves, vectors, bitcasts -------------------------------------------------
def _moves(ctx: IselContext, ins: Instr) -> list[Comp]:
    d = ins.dest
    assert d is not None
    if ins.op == "mov":
        src = ctx.get(ins.srcs[0])
        comps = ins.attrs.get("comps", list(range(d.num_components)))
        return [src[c] if len(src) > 1 else src[0] for c in comps]
    if ins.op.startswith("vec"):
        return [ctx.comp(s, 0) for s in ins.srcs]
    # bitcast: reinterpret the dwords
    sv = ins.srcs[0]
    dwords: list[Comp] = []
    for c in ctx.get(sv):
        if sv.bit_size == 64:
            dwords += list(ctx.halves(c))
        elif sv.bit_size == 32:
            dwords.append(c)
        else:
            raise unsupported(ins, f"bitcast of {sv.bit_size}-bit values")
    if d.bit_size == 32:
        return dwords
    if d.bit_size != 64:
        raise unsupported(ins, f"bitcast to {d.bit_size}-bit values")
    out: list[Comp] = []
    for k in range(0, len(dwords), 2):
        lo, hi = dwords[k], dwords[k + 1]
        if isinstance(lo, Const) and isinstance(hi, Const):
            out.append(Const(64, lo.value | hi.value << 32))
        else:
            want = ctx.rc(d)
            lo_t, hi_t = ctx.to_class(lo, s1 if want.is_sgpr else v1), \
                ctx.to_class(hi, s1 if want.is_sgpr else v1)
            out.append(ctx.b.create_vector(want, lo_t, hi_t).temp)
    return out


# -- one component ------------------------------------------------------------
def _alu_comp(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp], wide: bool) -> Comp:
    """One component of `ins`; `wide`: the result or a source is 64-bit."""
    op = ins.op
    uniform = not d.divergent
    if d.bit_size == 1 and op in CMP:
        return _compare(ctx, ins, srcs)
    if d.bit_size == 1 or op == "bcsel":
        return _bool_or_select(ctx, ins, d, srcs)
    if op in MACHINE_OPS:
        return _machine_op(ctx, ins, d, srcs)
    if op in DOT_4X8:
        return _dot_4x8(ctx, ins, d, srcs)
    m = CONVERSION.match(op)
    if m:
        return _convert(ctx, ins, d, srcs[0])
    if wide:
        t = _alu64(ctx, ins, d, srcs)
    else:
        t = _alu32(ctx, ins, uniform, srcs)
    return ctx.uniform_result(t, uniform) if isinstance(t, Temp) else t


def _alu32(ctx: IselContext, ins: Instr, uniform: bool, srcs: list[Comp]) -> Temp:
    op = ins.op
    if uniform and op in SALU32:
        return ctx.salu(SALU32[op], s1, *srcs)
    if uniform and op in SALU32_UNARY:
        return ctx.salu(SALU32_UNARY[op], s1, srcs[0])
    if uniform and op == "ineg":
        return ctx.salu("s_sub_i32", s1, Const(32, 0), srcs[0])
    if uniform and op in ("fneg", "fabs"):
        if op == "fneg":
            return ctx.salu("s_xor_b32", s1, srcs[0], Const(32, 0x80000000))
        return ctx.salu("s_and_b32", s1, srcs[0], Const(32, 0x7FFFFFFF))
    if op == "imul" and not uniform:
        for k in range(2):  # b2i32(c) / bcsel(c, 1, 0) times x is c ? x : 0 (as ACO)
            p = ins.srcs[k].parent
            if p is not None and p.srcs and p.srcs[0].divergent and (
                    p.op == "b2i32" or p.op == "bcsel" and _const1(p.srcs[1]) == 1
                    and _const1(p.srcs[2]) == 0):
                mask = ctx.lanemask(ctx.comp(p.srcs[0], 0))
                return ctx.valu("v_cndmask_b32", v1, Const(32, 0), srcs[1 - k], mask)
    if op in VALU32:
        opc, rev = VALU32[op]
        return ctx.valu(opc, v1, srcs[0], srcs[1], commutative=op in COMMUTATIVE, rev=rev)
    if op in VALU32_SHIFT:
        return ctx.valu(VALU32_SHIFT[op], v1, srcs[1], srcs[0])
    if op in VALU_UNARY:
        return trans32(ctx, VALU_UNARY[op], srcs[0])
    return _valu32_special(ctx, ins, srcs)


# The f32 forms of these flush denormal inputs whatever MODE says (ISA guide,
# V_RCP_F32 / V_RSQ_F32 / V_SQRT_F32 / V_LOG_F32: "denormals are flushed"). Where the
# shader keeps 32-bit denormals (DenormPreserve 32) a denormal input is scaled by 2^24
# first and the result corrected, as ACO's emit_rcp/emit_rsq/emit_sqrt/emit_log2
# (aco_instruction_selection.cpp): the opcode, how the result is corrected, by what.
_SCALE_2_24 = 0x4B800000
_DENORM_FIXUP = {"v_rcp_f32": ("v_mul_f32", _SCALE_2_24),  # rcp(x 2^24) = rcp(x) 2^-24
                 "v_rsq_f32": ("v_mul_f32", 0x45800000),  # rsq(x 2^24) = rsq(x) 2^-12
                 "v_sqrt_f32": ("v_mul_f32", 0x39800000),  # sqrt(x 2^24) = sqrt(x) 2^12
                 "v_log_f32": ("v_sub_f32", 0x41C00000)}  # log2(x 2^24) = log2(x) + 24
_CLASS_DENORMAL = 1 << 4 | 1 << 7  # v_cmp_class_f32: negative and positive denormals


def trans32(ctx: IselContext, opc: str, x: Comp) -> Temp:
    """`opc` (a 32-bit unary VALU opcode) of `x`, denormal inputs kept where the
    shader's float mode keeps 32-bit denormals (`_DENORM_FIXUP`)."""
    plain = ctx.valu(opc, v1, x)
    fix = _DENORM_FIXUP.get(opc)
    if fix is None or ctx.p.config.fp_mode.denorm32 == FP_DENORM_FLUSH:
        return plain
    denormal = ctx.valu("v_cmp_class_f32", ctx.lm, x, Const(32, _CLASS_DENORMAL))
    scaled = ctx.valu(opc, v1, ctx.valu("v_mul_f32", v1, Const(32, _SCALE_2_24), x))
    undo, k = fix
    fixed = ctx.valu(undo, v1, scaled, Const(32, k), commutative=undo == "v_mul_f32",
                     rev="v_subrev_f32" if undo == "v_sub_f32" else None)
    return ctx.valu("v_cndmask_b32", v1, plain, fixed, denormal)


def _valu32_special(ctx: IselContext, ins: Instr, srcs: list[Comp]) -> Temp:
    op = ins.op
    x = srcs[0]
    if op == "ineg":
        return ctx.valu("v_sub_nc_u32", v1, Const(32, 0), x)
    if op == "fneg":
        return ctx.valu("v_xor_b32", v1, Const(32, 0x80000000), x)
    if op == "fabs":
        return ctx.valu("v_and_b32", v1, Const(32, 0x7FFFFFFF), x)
    if op == "iabs":
        n = ctx.valu("v_sub_nc_u32", v1, Const(32, 0), x)
        return ctx.valu("v_max_i32", v1, x, n, commutative=True)
    if op == "isign":
        return ctx.valu("v_med3_i32", v1, x, Const(32, 0xFFFFFFFF), Const(32, 1))
    if op == "bit_count":
        return ctx.valu("v_bcnt_u32_b32", v1, x, Const(32, 0))
    if op == "ffma":
        return ctx.valu("v_fma_f32", v1, *srcs)
    if op == "fdiv":
        return fdiv32(ctx, srcs[0], srcs[1])
    if op == "fsat":
        return ctx.valu("v_med3_f32", v1, x, Const(32, 0), Const(32, F32_ONE))
    if op in ("fsin", "fcos"):
        t = ctx.valu("v_mul_f32", v1, Const(32, INV_2PI), x)
        return ctx.valu("v_sin_f32" if op == "fsin" else "v_cos_f32", v1, t)
    if op == "fpow":
        lg = trans32(ctx, "v_log_f32", x)
        return ctx.valu("v_exp_f32", v1, ctx.valu("v_mul_f32", v1, srcs[1], lg,
                                                  commutative=True))
    if op == "flrp":
        # a + t * (b - a)
        diff = ctx.valu("v_sub_f32", v1, srcs[1], x)
        return ctx.valu("v_fma_f32", v1, srcs[2], diff, x)
    if op == "fmod":
        q = fdiv32(ctx, x, srcs[1])
        f = ctx.valu("v_floor_f32", v1, q)
        nf = ctx.valu("v_xor_b32", v1, Const(32, 0x80000000), f)
        return ctx.valu("v_fma_f32", v1, nf, srcs[1], x)
    if op == "fstep":  # step(edge, x) = x < edge ? 0 : 1
        c = ctx.valu("v_cmp_lt_f32", ctx.lm, srcs[1], srcs[0])
        return ctx.valu("v_cndmask_b32", v1, Const(32, F32_ONE), Const(32, 0), c)
    if op == "fsign":
        pos = ctx.valu("v_cmp_lt_f32", ctx.lm, Const(32, 0), x)
        neg = ctx.valu("v_cmp_gt_f32", ctx.lm, Const(32, 0), x)
        t = ctx.valu("v_cndmask_b32", v1, x, Const(32, F32_ONE), pos)
        return ctx.valu("v_cndmask_b32", v1, t, Const(32, 0xBF800000), neg)
    if op == "ftan":
        t = ctx.valu("v_mul_f32", v1, Const(32, INV_2PI), x)
        s = ctx.valu("v_sin_f32", v1, t)
        c = ctx.valu("v_cos_f32", v1, t)
        return ctx.valu("v_mul_f32", v1, s, trans32(ctx, "v_rcp_f32", c))
    if op in ("ufind_msb", "ifind_msb"):
        cnt = ctx.valu("v_clz_i32_u32" if op == "ufind_msb" else "v_cls_i32", v1, x)
        r = ctx.valu("v_sub_nc_u32", v1, Const(32, 31), cnt)
        bad = ctx.valu("v_cmp_eq_u32", ctx.lm, Const(32, 0xFFFFFFFF), cnt)
        return ctx.valu("v_cndmask_b32", v1, r, Const(32, 0xFFFFFFFF), bad)
    if op in ("ubitfield_extract", "ibitfield_extract"):
        opc = "v_bfe_u32" if op[0] == "u" else "v_bfe_i32"
        r = ctx.valu(opc, v1, *srcs)
        return _full_width_fix(ctx, srcs[2], r, x)
    if op == "bitfield_insert":
        base, insert, off, count = srcs
        mask = ctx.valu("v_bfm_b32", v1, count, off)
        sh = ctx.valu("v_lshlrev_b32", v1, off, insert)
        r = ctx.valu("v_bfi_b32", v1, mask, sh, base)
        return _full_width_fix(ctx, count, r, insert)
    if op in ("uadd_carry", "usub_borrow"):
        opc = "v_cmp_gt_u32" if op == "uadd_carry" else "v_cmp_lt_u32"
        if op == "uadd_carry":
            s = ctx.valu("v_add_nc_u32", v1, srcs[0], srcs[1], commutative=True)
            c = ctx.valu("v_cmp_lt_u32", ctx.lm, s, srcs[0])
        else:
            c = ctx.valu(opc, ctx.lm, srcs[0], srcs[1])
        return ctx.valu("v_cndmask_b32", v1, Const(32, 0), Const(32, 1), c)
    if op in ("udiv", "umod", "idiv", "irem", "imod"):
        return _idiv32(ctx, op, srcs[0], srcs[1])
    raise unsupported(ins)


# -- machine-level ops of the isel lowering -------------------------------------------
def _machine_op(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
    """`MACHINE_OPS`: hardware semantics (offsets and counts modulo 32)."""
    op = ins.op
    uniform = not d.divergent
    if op == "pack_64_2x32_split":
        lo, hi = srcs
        if isinstance(lo, Const) and isinstance(hi, Const):
            return Const(64, (lo.value & 0xFFFFFFFF) | (hi.value & 0xFFFFFFFF) << 32)
        if uniform:
            return ctx.b.create_vector(s2, ctx.sgpr(lo), ctx.sgpr(hi)).temp
        return ctx.b.create_vector(v2, ctx.vgpr(lo), ctx.vgpr(hi)).temp
    if op.startswith("unpack_64_2x32_split"):
        half = ctx.halves(srcs[0])[op[-1] == "y"]
        return ctx.uniform_result(half, uniform) if isinstance(half, Temp) else half
    t: Temp
    if op in ("ubfe", "ibfe"):
        x, off, cnt = srcs
        if uniform and isinstance(off, Const) and isinstance(cnt, Const):
            packed = (off.value & 31) | (cnt.value & 31) << 16
            return ctx.salu("s_bfe_u32" if op == "ubfe" else "s_bfe_i32", s1, x,
                            Const(32, packed))
        t = ctx.valu("v_bfe_u32" if op == "ubfe" else "v_bfe_i32", v1, x, off, cnt)
    elif op == "bfm":
        if uniform:
            return ctx.salu("s_bfm_b32", s1, srcs[0], srcs[1])
        t = ctx.valu("v_bfm_b32", v1, srcs[0], srcs[1])
    elif op == "bfi":
        mask, ins_, base = srcs
        if uniform:
            a = ctx.salu("s_and_b32", s1, mask, ins_)
            bb = ctx.salu("s_and_not1_b32", s1, base, mask)
            return ctx.salu("s_or_b32", s1, a, bb)
        t = ctx.valu("v_bfi_b32", v1, mask, ins_, base)
    elif op == "cvt_pk_u8_f32":
        t = ctx.valu("v_cvt_pk_u8_f32", v1, *srcs)
    elif op in ("pack_snorm_2x16_split", "pack_unorm_2x16_split"):
        opc = "v_cvt_pk_norm_i16_f32" if op[5] == "s" else "v_cvt_pk_norm_u16_f32"
        t = ctx.valu(opc, v1, srcs[0], srcs[1])
    elif op == "pack_half_2x16_split":
        lo = ctx.valu("v_cvt_f16_f32", v1, srcs[0])
        hi = ctx.valu("v_cvt_f16_f32", v1, srcs[1])
        t = ctx.valu("v_pack_b32_f16", v1, lo, hi)
    else:  # unpack_half_2x16_split_x/y
        x = srcs[0]
        if op.endswith("_y"):
            x = ctx.valu("v_lshrrev_b32", v1, Const(32, 16), x)
        t = ctx.valu("v_cvt_f32_f16", v1, x)
    return ctx.uniform_result(t, uniform)


def _dot_4x8(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
    """`DOT_4X8` (lower_math expands those the target lacks): GFX10.3's v_dot4_i32_i8 /
    v_dot4_u32_u8, GFX11's v_dot4_i32_iu8 with NEG_LO[0:1] as each operand's signedness
    (ACO's visit_alu_instr for nir_op_sdot_4x8_iadd ...: VOP3P, no clamp)."""
    sa, sb = DOT_4X8[ins.op]
    fields: dict[str, Any] = {}
    if not sa:
        opc = "v_dot4_u32_u8"
    elif sb and ctx.b.table.has("v_dot4_i32_i8"):
        opc = "v_dot4_i32_i8"
    else:
        opc, fields = "v_dot4_i32_iu8", {"neg_lo": [1, int(sb), 0]}
    if not ctx.b.table.has(opc):
        t = ctx.p.target
        raise unsupported(ins, f"{opc} does not exist on {t.name} ({t.gfx_level.name})")
    r = ctx.valu(opc, v1, *srcs, **fields)
    return ctx.uniform_result(r, not d.divergent)


def _full_width_fix(ctx: IselContext, cnt: Comp, r: Temp, full: Comp) -> Temp:
    """v_bfe/v_bfm take the count modulo 32; NIR's count of 32 means everything."""
    if isinstance(cnt, Const) and cnt.value < 32:
        return r
    c = ctx.valu("v_cmp_lt_u32", ctx.lm, Const(32, 31), cnt)
    return ctx.valu("v_cndmask_b32", v1, r, full, c)


def fdiv32(ctx: IselContext, a: Comp, b: Comp) -> Temp:
    """a / b with the scaled reciprocal sequence (v_div_scale/fmas/fixup, IEEE-exact
    as LLVM's fdiv expansion)."""
    lm = ctx.lm
    den, _ = ctx.valu_multi("v_div_scale_f32", [v1, lm], b, b, a)
    num, vcc = ctx.valu_multi("v_div_scale_f32", [v1, lm], a, b, a)
    rcp = ctx.valu("v_rcp_f32", v1, den)
    nden = ctx.valu("v_xor_b32", v1, Const(32, 0x80000000), den)
    e = ctx.valu("v_fma_f32", v1, nden, rcp, Const(32, F32_ONE))
    rcp = ctx.valu("v_fma_f32", v1, e, rcp, rcp)
    q = ctx.valu("v_mul_f32", v1, num, rcp)
    r = ctx.valu("v_fma_f32", v1, nden, q, num)
    q = ctx.valu("v_fma_f32", v1, r, rcp, q)
    r = ctx.valu("v_fma_f32", v1, nden, q, num)
    vcc_t = ctx.b.copy((ctx.lm, _vcc()), vcc).temp
    fm = ctx.b.vop3("v_div_fmas_f32", v1, r, rcp, q, (vcc_t, _vcc())).temp
    return ctx.valu("v_div_fixup_f32", v1, fm, b, a)


def _udiv32(ctx: IselContext, n: Comp, dd: Comp) -> tuple[Temp, Temp]:
    """Unsigned quotient and remainder (LLVM's AMDGPU expansion)."""
    f = ctx.valu("v_cvt_f32_u32", v1, dd)
    r = ctx.valu("v_rcp_iflag_f32", v1, f)
    r = ctx.valu("v_mul_f32", v1, Const(32, 0x4F7FFFFE), r)
    z = ctx.valu("v_cvt_u32_f32", v1, r)
    negd = ctx.valu("v_sub_nc_u32", v1, Const(32, 0), dd)
    t = ctx.valu("v_mul_lo_u32", v1, negd, z)
    z = ctx.valu("v_add_nc_u32", v1, z, ctx.valu("v_mul_hi_u32", v1, z, t))
    q = ctx.valu("v_mul_hi_u32", v1, n, z)
    rem = ctx.valu("v_sub_nc_u32", v1, n, ctx.valu("v_mul_lo_u32", v1, q, dd))
    for _ in range(2):
        c = ctx.valu("v_cmp_ge_u32", ctx.lm, rem, dd)
        q = ctx.valu("v_cndmask_b32", v1, q, ctx.valu("v_add_nc_u32", v1, Const(32, 1), q),
                     c)
        rem = ctx.valu("v_cndmask_b32", v1, rem, ctx.valu("v_sub_nc_u32", v1, rem, dd), c)
    return q, rem


def _idiv32(ctx: IselContext, op: str, n: Comp, dd: Comp) -> Temp:
    if op in ("udiv", "umod"):
        q, r = _udiv32(ctx, n, dd)
        return q if op == "udiv" else r
    sn = ctx.valu("v_ashrrev_i32", v1, Const(32, 31), n)
    sd = ctx.valu("v_ashrrev_i32", v1, Const(32, 31), dd)
    an = ctx.valu("v_xor_b32", v1, ctx.valu("v_add_nc_u32", v1, n, sn), sn)
    ad = ctx.valu("v_xor_b32", v1, ctx.valu("v_add_nc_u32", v1, dd, sd), sd)
    q, r = _udiv32(ctx, an, ad)
    if op == "idiv":
        s = ctx.valu("v_xor_b32", v1, sn, sd)
        return ctx.valu("v_sub_nc_u32", v1, ctx.valu("v_xor_b32", v1, q, s), s)
    r = ctx.valu("v_sub_nc_u32", v1, ctx.valu("v_xor_b32", v1, r, sn), sn)
    if op == "irem":
        return r
    # imod: the sign of the divisor
    nz = ctx.valu("v_cmp_ne_u32", ctx.lm, Const(32, 0), r)
    diff = ctx.valu("v_xor_b32", v1, r, dd)
    neg = ctx.valu("v_cmp_gt_i32", ctx.lm, Const(32, 0), diff)
    both = ctx.b.sop2(ctx.lm_op("and"), ctx.lm, nz, neg).temp
    return ctx.valu("v_cndmask_b32", v1, r, ctx.valu("v_add_nc_u32", v1, r, dd), both)


# -- 64-bit ----------------------------------------------------------------------
def _alu64(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
    op = ins.op
    uniform = not d.divergent
    if op in ("iadd", "isub"):
        return _addsub64(ctx, op == "iadd", uniform, srcs[0], srcs[1])
    if uniform and op in SALU64:
        return ctx.salu(SALU64[op], s2, srcs[0], srcs[1])
    if uniform and op in SALU64_SHIFT:
        return ctx.salu(SALU64_SHIFT[op], s2, srcs[0], srcs[1])
    if op in VALU64_SHIFT:
        return ctx.valu(VALU64_SHIFT[op], v2, srcs[1], srcs[0], wide=(False, True))
    if op in ("iand", "ior", "ixor", "inot"):
        los, his = zip(*(ctx.halves(s) for s in srcs), strict=True)
        if op == "inot":
            lo, hi = ctx.valu("v_not_b32", v1, los[0]), ctx.valu("v_not_b32", v1, his[0])
        else:
            opc = VALU32[op][0]
            lo = ctx.valu(opc, v1, *los, commutative=True)
            hi = ctx.valu(opc, v1, *his, commutative=True)
        return ctx.join(lo, hi)
    if op == "ineg":
        return _addsub64(ctx, False, uniform, Const(64, 0), srcs[0])
    if op == "imul":
        return _mul64(ctx, uniform, srcs[0], srcs[1])
    if op in ("imin", "imax", "umin", "umax"):
        rel = {"imin": "lt_i64", "imax": "gt_i64", "umin": "lt_u64", "umax": "gt_u64"}[op]
        c = ctx.valu(f"v_cmp_{rel}", ctx.lm, srcs[0], srcs[1], wide=(True, True))
        return _select64(ctx, c, srcs[0], srcs[1])
    if op in VALU64:
        wide = (True, op != "fldexp")
        return ctx.valu(VALU64[op], v2, srcs[0], srcs[1], wide=wide)
    if op == "fsub":
        return ctx.valu("v_add_f64", v2, srcs[0], srcs[1], wide=(True, True),
                        neg=[False, True])
    if op == "ffma":
        return ctx.valu("v_fma_f64", v2, *srcs, wide=(True, True, True))
    if op in VALU_UNARY64:
        rc = v1 if op == "ffrexp_exp" else v2
        return ctx.valu(VALU_UNARY64[op], rc, srcs[0], wide=(True,))
    if op in ("fneg", "fabs"):
        src_lo, src_hi = ctx.halves(srcs[0])
        if uniform:
            hi = ctx.salu("s_xor_b32" if op == "fneg" else "s_and_b32", s1, src_hi,
                          Const(32, 0x80000000 if op == "fneg" else 0x7FFFFFFF))
            return ctx.b.create_vector(s2, ctx.sgpr(src_lo), hi).temp
        hi = ctx.valu("v_xor_b32" if op == "fneg" else "v_and_b32", v1,
                      Const(32, 0x80000000 if op == "fneg" else 0x7FFFFFFF), src_hi)
        return ctx.join(ctx.vgpr(src_lo), hi)
    if op == "fdiv":
        return _fdiv64(ctx, srcs[0], srcs[1])
    if op == "fsat":
        return ctx.valu("v_max_f64", v2, srcs[0], Const(64, 0), wide=(True, True),
                        clamp=True)
    raise unsupported(ins)


def _addsub64(ctx: IselContext, add: bool, uniform: bool, a: Comp, bb: Comp) -> Temp:
    alo, ahi = ctx.halves(a)
    blo, bhi = ctx.halves(bb)
    if uniform:
        lo_i = ctx.b.sop2("s_add_u32" if add else "s_sub_u32", s1, ctx.operand(alo),
                          ctx.operand(blo))
        carry = lo_i.instr.definitions[-1].temp
        hi = ctx.b.sop2("s_addc_u32" if add else "s_subb_u32", s1, ctx.operand(ahi),
                        ctx.operand(bhi), ctx.scc_op(carry)).temp  # type: ignore
        return ctx.b.create_vector(s2, lo_i.temp, hi).temp
    lo, c = ctx.valu_multi("v_add_co_u32" if add else "v_sub_co_u32", [v1, ctx.lm],
                           alo, blo)
    hi, _ = ctx.valu_multi("v_add_co_ci_u32" if add else "v_sub_co_ci_u32",
                           [v1, ctx.lm], ahi, bhi, Operand(c))
    return ctx.b.create_vector(v2, lo, hi).temp


def _mul64(ctx: IselContext, uniform: bool, a: Comp, bb: Comp) -> Temp:
    alo, ahi = ctx.halves(a)
    blo, bhi = ctx.halves(bb)
    if uniform:
        lo = ctx.salu("s_mul_i32", s1, alo, blo)
        h = ctx.salu("s_mul_hi_u32", s1, alo, blo)
        h = ctx.salu("s_add_u32", s1, h, ctx.salu("s_mul_i32", s1, alo, bhi))
        h = ctx.salu("s_add_u32", s1, h, ctx.salu("s_mul_i32", s1, ahi, blo))
        return ctx.b.create_vector(s2, lo, h).temp
    lo = ctx.valu("v_mul_lo_u32", v1, alo, blo)
    h = ctx.valu("v_mul_hi_u32", v1, alo, blo)
    h = ctx.valu("v_add_nc_u32", v1, h, ctx.valu("v_mul_lo_u32", v1, alo, bhi))
    h = ctx.valu("v_add_nc_u32", v1, h, ctx.valu("v_mul_lo_u32", v1, ahi, blo))
    return ctx.b.create_vector(v2, lo, h).temp


def _select64(ctx: IselContext, c: Temp, a: Comp, bb: Comp) -> Temp:
    """c ? a : b per lane (c a lane mask)."""
    alo, ahi = ctx.halves(a)
    blo, bhi = ctx.halves(bb)
    lo = ctx.valu("v_cndmask_b32", v1, blo, alo, c)
    hi = ctx.valu("v_cndmask_b32", v1, bhi, ahi, c)
    return ctx.b.create_vector(v2, lo, hi).temp


def _fdiv64(ctx: IselContext, a: Comp, bb: Comp) -> Temp:
    lm = ctx.lm
    w3 = (True, True, True)
    den, _ = ctx.valu_multi("v_div_scale_f64", [v2, lm], bb, bb, a, wide=w3)
    num, vcc = ctx.valu_multi("v_div_scale_f64", [v2, lm], a, bb, a, wide=w3)
    rcp = ctx.valu("v_rcp_f64", v2, den, wide=(True,))
    e = ctx.valu("v_fma_f64", v2, den, rcp, Const(64, F64_ONE), wide=w3,
                 neg=[True, False, False])
    rcp = ctx.valu("v_fma_f64", v2, rcp, e, rcp, wide=w3)
    e = ctx.valu("v_fma_f64", v2, den, rcp, Const(64, F64_ONE), wide=w3,
                 neg=[True, False, False])
    rcp = ctx.valu("v_fma_f64", v2, rcp, e, rcp, wide=w3)
    q = ctx.valu("v_mul_f64", v2, num, rcp, wide=(True, True))
    r = ctx.valu("v_fma_f64", v2, den, q, num, wide=w3, neg=[True, False, False])
    vcc_t = ctx.b.copy((ctx.lm, _vcc()), vcc).temp
    fm = ctx.b.vop3("v_div_fmas_f64", v2, r, rcp, q, (vcc_t, _vcc())).temp
    return ctx.valu("v_div_fixup_f64", v2, fm, bb, a, wide=w3)


# -- comparisons, booleans, selects ------------------------------------------------
def _compare(ctx: IselContext, ins: Instr, srcs: list[Comp]) -> Comp:
    d = ins.dest
    assert d is not None
    op = ins.op
    bits = ins.srcs[0].bit_size
    if bits == 1:
        return _bool_or_select(ctx, ins, d, srcs)
    stem, salu = CMP[op]
    if not d.divergent:
        if bits == 32 and salu is not None:
            scc = ctx.salu(salu, None, srcs[0], srcs[1])
            return scc_to_bool(ctx, scc)
        if bits == 64 and op in CMP64_SALU:
            scc = ctx.salu(CMP64_SALU[op], None, srcs[0], srcs[1])
            return scc_to_bool(ctx, scc)
    sfx = {"u": f"u{bits}", "i": f"i{bits}", "f": f"f{bits}"}
    opc = "v_cmp_" + stem.format(**sfx)
    w = bits == 64
    t = ctx.new_lane_mask(ctx.valu(opc, ctx.lm, srcs[0], srcs[1], wide=(w, w)))
    return ctx.ubool(t) if not d.divergent else t


def scc_to_bool(ctx: IselContext, scc: Temp) -> Temp:
    return ctx.b.sop2("s_cselect_b32", s1, Operand.c32(1), Operand.c32(0),
                      ctx.scc_op(scc), scc=False).temp


def _bool_or_select(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
    op = ins.op
    if op == "bcsel":
        return bcsel(ctx, ins, d, srcs)
    if op == "fisinf":
        bits = ins.srcs[0].bit_size
        t = ctx.new_lane_mask(ctx.valu(f"v_cmp_class_f{bits}", ctx.lm, srcs[0],
                                       Const(32, 0x204), wide=(bits == 64, False)))
        return t if d.divergent else ctx.ubool(t)
    logic = {"iand": "and", "ior": "or", "ixor": "xor", "ine": "xor", "inot": "not",
             "ieq": "xnor"}
    if op not in logic:
        raise unsupported(ins, "on booleans")
    kind = logic[op]
    if d.divergent:
        ms = [ctx.lanemask(s) for s in srcs]
        if kind == "not":
            return ctx.new_lane_mask(ctx.b.sop1(ctx.lm_op("not"), ctx.lm, ms[0]).temp)
        if kind == "xnor":
            x = ctx.b.sop2(ctx.lm_op("xor"), ctx.lm, ms[0], ms[1]).temp
            return ctx.new_lane_mask(ctx.b.sop1(ctx.lm_op("not"), ctx.lm, x).temp)
        return ctx.new_lane_mask(ctx.b.sop2(ctx.lm_op(kind), ctx.lm, *ms).temp)
    us = [ctx.ubool(s) for s in srcs]
    if kind == "not":
        return ctx.salu("s_xor_b32", s1, us[0], Const(32, 1))
    if kind == "xnor":
        x = ctx.salu("s_xor_b32", s1, us[0], us[1])
        return ctx.salu("s_xor_b32", s1, x, Const(32, 1))
    return ctx.salu(f"s_{kind}_b32", s1, us[0], us[1])


def bcsel(ctx: IselContext, ins: Instr, d: Value, srcs: list[Comp]) -> Comp:
    c, a, bb = srcs
    cond_div = ins.srcs[0].divergent
    if d.bit_size == 1:
        if d.divergent:
            mc, ma, mb = (ctx.lanemask(x) for x in (c, a, bb))
            t1 = ctx.b.sop2(ctx.lm_op("and"), ctx.lm, mc, ma).temp
            t2 = ctx.b.sop2(ctx.lm_op("andn2"), ctx.lm, mb, mc).temp
            return ctx.new_lane_mask(ctx.b.sop2(ctx.lm_op("or"), ctx.lm, t1, t2).temp)
        scc = ctx.to_scc(c)
        return ctx.b.sop2("s_cselect_b32", s1, ctx.operand(ctx.ubool(a)),
                          ctx.operand(ctx.ubool(bb)), ctx.scc_op(scc), scc=False).temp
    bits = d.bit_size
    if not d.divergent and not cond_div:
        scc = ctx.to_scc(c)
        op = "s_cselect_b64" if bits == 64 else "s_cselect_b32"
        ops = [ctx.operand(a), ctx.operand(bb)]
        for i, o in enumerate(ops):
            if o.const is not None and o.const_bytes == 8 and not _inline64(o.const):
                ops[i] = Operand(ctx.sgpr(Const(64, o.const)))
        if ops[0].const is not None and ops[1].const is not None and \
                ops[0].const != ops[1].const and not _inline32(ops[0].const) and \
                not _inline32(ops[1].const):
            ops[1] = Operand(ctx.sgpr(Const(32, ops[1].const)))
        return ctx.b.sop2(op, s2 if bits == 64 else s1, ops[0], ops[1],
                          ctx.scc_op(scc), scc=False).temp
    m = ctx.lanemask(c)
    if bits == 64:
        t = _select64(ctx, m, a, bb)
    else:
        t = ctx.valu("v_cndmask_b32", v1, bb, a, m)
    return ctx.uniform_result(t, not d.divergent)


# -- conversions ---------------------------------------------------------------------
def _convert(ctx: IselContext, ins: Instr, d: Value, x: Comp) -> Comp:
    m = CONVERSION.match(ins.op)
    assert m is not None
    frm, to, dbits = m.group(1), m.group(2), int(m.group(3))
    sbits = ins.srcs[0].bit_size
    uniform = not d.divergent
    if frm == "b":
        if uniform:
            u = ctx.ubool(x)
            if to == "f":
                one = F32_ONE if dbits == 32 else F64_ONE
                scc = ctx.to_scc(u)
                if dbits == 64:
                    hi = ctx.b.sop2("s_cselect_b32", s1, Operand.c32(one >> 32),
                                    Operand.c32(0), ctx.scc_op(scc), scc=False).temp
                    return ctx.b.create_vector(s2, ctx.sgpr(Const(32, 0)), hi).temp
                return ctx.b.sop2("s_cselect_b32", s1, Operand.c32(one), Operand.c32(0),
                                  ctx.scc_op(scc), scc=False).temp
            if dbits == 64:
                return ctx.b.create_vector(s2, ctx.sgpr(u), ctx.sgpr(Const(32, 0))).temp
            return ctx.sgpr(u) if isinstance(u, Const) else u
        mk = ctx.lanemask(x)
        if to == "f" and dbits == 64:
            hi = ctx.valu("v_cndmask_b32", v1, Const(32, 0), Const(32, F64_ONE >> 32), mk)
            return ctx.join(ctx.vgpr(Const(32, 0)), hi)
        one = F32_ONE if to == "f" else 1
        t = ctx.valu("v_cndmask_b32", v1, Const(32, 0), Const(32, one), mk)
        if dbits == 64:
            return ctx.join(t, ctx.vgpr(Const(32, 0)))
        return t
    if sbits not in (32, 64) or dbits not in (32, 64):
        raise unsupported(ins, "8/16-bit conversions are not selected yet")
    if frm in "iu" and to in "iu":
        if sbits == dbits:
            return x
        if dbits == 32:
            return ctx.halves(x)[0] if isinstance(x, Const) else _lo(ctx, x, uniform)
        if isinstance(x, Const):
            v = x.value
            if frm == "i" and v & 0x80000000:
                v |= 0xFFFFFFFF00000000
            return Const(64, v)
        if frm == "u":
            sign: Comp = Const(32, 0)
        elif uniform:
            sign = ctx.salu("s_ashr_i32", s1, x, Const(32, 31))
        else:
            sign = ctx.valu("v_ashrrev_i32", v1, Const(32, 31), x)
        if uniform:
            return ctx.b.create_vector(s2, ctx.sgpr(x), ctx.sgpr(sign)).temp
        return ctx.join(ctx.vgpr(x), ctx.vgpr(sign))
    if frm == "f" and to == "f":
        if sbits == dbits:
            return x
        opc = "v_cvt_f64_f32" if dbits == 64 else "v_cvt_f32_f64"
        t = ctx.valu(opc, v2 if dbits == 64 else v1, x, wide=(sbits == 64,))
        return ctx.uniform_result(t, uniform)
    if frm in "iu" and to == "f":
        if sbits == 64:
            t = _i64_to_float(ctx, frm == "i", x, dbits)
        elif frm == "u" and dbits == 32 and (byte := _byte_of(ctx, ins.srcs[0])):
            t = ctx.valu(f"v_cvt_f32_ubyte{byte[1]}", v1, byte[0])
        else:
            opc = f"v_cvt_f{dbits}_{'i' if frm == 'i' else 'u'}32"
            t = ctx.valu(opc, v2 if dbits == 64 else v1, x)
        return ctx.uniform_result(t, uniform)
    if frm == "f" and to in "iu":
        if dbits == 64:
            t = _float_to_i64(ctx, to == "i", x, sbits)
        else:
            opc = f"v_cvt_{'i' if to == 'i' else 'u'}32_f{sbits}"
            t = ctx.valu(opc, v1, x, wide=(sbits == 64,))
        return ctx.uniform_result(t, uniform)
    raise unsupported(ins)


def _byte_of(ctx: IselContext, v: Value) -> tuple[Comp, int] | None:
    """(x, k) when the 32-bit ``v`` is byte k of x zero-extended: ``ubfe(x, 8k, 8)``,
    ``iand(x, 0xff)`` (k = 0), ``ushr(x, 24)`` (k = 3) -- ``u2f32`` of it is
    ``v_cvt_f32_ubyte{k}`` (ACO's selection of u2f32(extract_u8))."""
    p = v.parent
    if p is None or p.op not in ("ubfe", "iand", "ushr") or p.dest is None or \
            p.dest.bit_size != 32:
        return None
    consts = [_const1(s) for s in p.srcs]
    k: int | None = None
    src = p.srcs[0]
    if p.op == "ubfe" and consts[1] is not None and consts[2] == 8 and \
            consts[1] in (0, 8, 16, 24):
        k = consts[1] // 8
    elif p.op == "iand" and 0xFF in consts:
        k, src = 0, p.srcs[1 - consts.index(0xFF)]
    elif p.op == "ushr" and consts[1] == 24:
        k = 3
    if k is None or src.bit_size != 32 or const_of(src) is not None:
        return None
    x = ctx.comp(src, 0)
    return None if isinstance(x, Const) else (x, k)


def _lo(ctx: IselContext, x: Temp, uniform: bool) -> Temp:
    lo, _ = ctx.halves(x)
    assert isinstance(lo, Temp)
    return lo


def _i64_to_float(ctx: IselContext, signed: bool, x: Comp, dbits: int) -> Temp:
    """f64: (hi as f64) * 2^32 + lo (one rounding). f32: `_i64_to_f32`."""
    if dbits == 32:
        return _i64_to_f32(ctx, signed, x)
    lo, hi = ctx.halves(x)
    fh = ctx.valu("v_cvt_f64_i32" if signed else "v_cvt_f64_u32", v2, hi)
    fh = ctx.valu("v_ldexp_f64", v2, fh, Const(32, 32), wide=(True, False))
    fl = ctx.valu("v_cvt_f64_u32", v2, lo)
    r = ctx.valu("v_add_f64", v2, fh, fl, wide=(True, True))
    if dbits == 32:
        return ctx.valu("v_cvt_f32_f64", v1, r, wide=(True,))
    return r


def _i64_to_f32(ctx: IselContext, signed: bool, x: Comp) -> Temp:
    """64-bit integer to f32, correctly rounded (LLVM AMDGPU's LowerINT_TO_FP32):
    shift left by sh so that the high word holds the top significant bits
    (unsigned: sh = min(clz(hi), 32); signed: sh = min(cls(hi) - 1, 32 + opposite)
    with opposite = -1 when lo's top bit differs from hi's, keeping the sign bit),
    OR a sticky bit for a non-zero low word into bit 0 (every rounding point of
    the >= 31 significant bits is an even integer, so it rounds as the exact value),
    convert the word, scale by 2^(32 - sh) with ldexp. V_CLZ_I32_U32/V_CLS_I32 give
    -1 for an all-zero/all-sign word: the unsigned min makes it 32 (or 31)."""
    lo, hi = ctx.halves(x)
    if signed:
        opp = ctx.valu("v_ashrrev_i32", v1, Const(32, 31),
                       ctx.valu("v_xor_b32", v1, lo, hi, commutative=True))
        limit = ctx.valu("v_add_nc_u32", v1, Const(32, 32), opp, commutative=True)
        cls = ctx.valu("v_cls_i32", v1, hi)
        sh = ctx.valu("v_min_u32", v1,
                      ctx.valu("v_add_nc_u32", v1, Const(32, 0xFFFFFFFF), cls,
                               commutative=True), limit, commutative=True)
    else:
        sh = ctx.valu("v_min_u32", v1, ctx.valu("v_clz_i32_u32", v1, hi), Const(32, 32),
                      commutative=True)
    n = ctx.valu("v_lshlrev_b64", v2, sh, x, wide=(False, True))
    nlo, nhi = ctx.halves(n)
    sticky = ctx.valu("v_min_u32", v1, Const(32, 1), nlo, commutative=True)
    word = ctx.valu("v_or_b32", v1, nhi, sticky, commutative=True)
    f = ctx.valu("v_cvt_f32_i32" if signed else "v_cvt_f32_u32", v1, word)
    e = ctx.valu("v_sub_nc_u32", v1, Const(32, 32), sh, rev="v_subrev_nc_u32")
    return ctx.valu("v_ldexp_f32", v1, f, e)


def _float_to_i64(ctx: IselContext, signed: bool, x: Comp, sbits: int) -> Temp:
    """Truncate; hi = floor(t * 2^-32), lo = t - hi * 2^32 (LLVM's expansion)."""
    t = ctx.valu("v_cvt_f64_f32", v2, x) if sbits == 32 else ctx.vgpr(x, 64)
    t = ctx.valu("v_trunc_f64", v2, t, wide=(True,))
    if signed:
        sign = ctx.valu("v_cmp_gt_f64", ctx.lm, Const(64, 0), t, wide=(True, True))
        t = ctx.valu("v_max_f64", v2, t, t, wide=(True, True), abs=[True, True])
    k = ctx.valu("v_ldexp_f64", v2, t, Const(32, (-32) & 0xFFFFFFFF), wide=(True, False))
    hi_f = ctx.valu("v_floor_f64", v2, k, wide=(True,))
    low = ctx.valu("v_fma_f64", v2, hi_f, Const(64, 0xC1F0000000000000), t,
                   wide=(True, True, True))
    hi = ctx.valu("v_cvt_u32_f64", v1, hi_f, wide=(True,))
    lo = ctx.valu("v_cvt_u32_f64", v1, low, wide=(True,))
    r = ctx.b.create_vector(v2, lo, hi).temp
    if signed:
        neg = _addsub64(ctx, False, False, Const(64, 0), r)
        r = _select64(ctx, sign, neg, r)
    return r


def _vcc():  # type: ignore[no-untyped-def]
    from radcc.ir.regclass import VCC, PhysReg

    return PhysReg.of(VCC)


def _inline32(v: int) -> bool:
    from radcc.ir.validate import is_inline_constant

    return is_inline_constant(v, 4)


def _inline64(v: int) -> bool:
    from radcc.ir.validate import is_inline_constant

    return is_inline_constant(v, 8)


_ = (math, s2, v2)


def _const1(v: Value) -> int | None:
    """The value of a one-component MIR constant, else None."""
    c = const_of(v)
    return c[0] if c is not None and len(c) == 1 else None
