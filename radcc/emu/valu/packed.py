"""Packed math and mixed-precision ops (ISA guide §7.5, §16.10, §16.12):
v_pk_* (each half runs the scalar 16-bit op with its own OPSEL/OPSEL_HI
half selection and NEG_LO/NEG_HI), v_pk_fmac_f16, v_fma_mix_f32 /
v_fma_mixlo_f16 / v_fma_mixhi_f16 (OPSEL_HI:OPSEL pick f32 or an f16 half;
NEG_HI acts as ABS), v_dot2*/dot4*/dot8* (NEG[1:0] = signedness for the
IU forms; CLAMP saturates integers).
"""

from __future__ import annotations

import numpy as np

from radcc.emu.valu.arith_float import fma_core
from radcc.emu.valu.core import (
    M16,
    M32,
    REGISTRY,
    U64,
    Ctx,
    ValuMods,
    ValuResult,
    add_op,
    res32,
    s32,
)
from radcc.emu.valu.fops import fbits, fresult, post
from radcc.emu.valu.fp import (
    F16,
    F32,
    abs_neg,
    bits_to_f64,
    f_to_bits,
    flush,
    is_nan,
    round_f64_to,
    two_sum,
)


def _half_srcs(ctx: Ctx, srcs: list[np.ndarray], h: int) -> tuple[Ctx, list[np.ndarray]]:
    """Sources and a scalar-op context for result half h (0 lo, 1 hi)."""
    m = ctx.mods
    sel = m.opsel if h == 0 else m.opsel_hi
    neg = m.neg if h == 0 else m.neg_hi
    hs = [(s >> U64(16 * ((sel >> i) & 1))) & M16 for i, s in enumerate(srcs)]
    sub = Ctx(ctx.name, ValuMods(neg=tuple(neg), clamp=m.clamp), ctx.wave, ctx.exec_mask,
              ctx.fmode, ctx.lane_masks)
    return sub, hs


def _pk(scalar: str, float_op: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        f = REGISTRY[scalar]
        out = []
        for h in (0, 1):
            sub, hs = _half_srcs(ctx, srcs, h)
            if not float_op:
                sub = Ctx(sub.name, ValuMods(clamp=ctx.mods.clamp), sub.wave, sub.exec_mask,
                          sub.fmode, sub.lane_masks)
            out.append(f(sub, hs).d & M16)
        return ValuResult(out[0] | (out[1] << U64(16)))
    return fn


for _pk_name, _scalar, _fl in (
    ("v_pk_fma_f16", "v_fma_f16", True),
    ("v_pk_add_f16", "v_add_f16", True),
    ("v_pk_mul_f16", "v_mul_f16", True),
    ("v_pk_min_f16", "v_min_f16", True),
    ("v_pk_max_f16", "v_max_f16", True),
    ("v_pk_add_u16", "v_add_nc_u16", False),
    ("v_pk_add_i16", "v_add_nc_i16", False),
    ("v_pk_sub_u16", "v_sub_nc_u16", False),
    ("v_pk_sub_i16", "v_sub_nc_i16", False),
    ("v_pk_mul_lo_u16", "v_mul_lo_u16", False),
    ("v_pk_mad_u16", "v_mad_u16", False),
    ("v_pk_mad_i16", "v_mad_i16", False),
    ("v_pk_max_u16", "v_max_u16", False),
    ("v_pk_max_i16", "v_max_i16", False),
    ("v_pk_min_u16", "v_min_u16", False),
    ("v_pk_min_i16", "v_min_i16", False),
    ("v_pk_lshlrev_b16", "v_lshlrev_b16", False),
    ("v_pk_lshrrev_b16", "v_lshrrev_b16", False),
    ("v_pk_ashrrev_i16", "v_ashrrev_i16", False),
):
    add_op(_pk_name, _pk(_scalar, _fl))


def _pk_fmac_f16(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    """VOP2 V_PK_FMAC_F16: D.hi/lo = fma(S0, S1, D) per half; old VDST appended."""
    if len(srcs) < 3:
        raise ValueError("v_pk_fmac_f16 needs the old VDST value as an extra last source")
    plain = Ctx(ctx.name, ValuMods(), ctx.wave, ctx.exec_mask, ctx.fmode, ctx.lane_masks)
    return _pk("v_fma_f16", True)(plain, [srcs[0], srcs[1], srcs[-1]])


add_op("v_pk_fmac_f16", _pk_fmac_f16)


# --- fma_mix --------------------------------------------------------------------


def _mix_operand(ctx: Ctx, srcs: list[np.ndarray], i: int) -> tuple[np.ndarray, np.ndarray]:
    """(f64 value, bits as f32) of mix source i."""
    m = ctx.mods
    ab, ng = m.neg_hi[i], m.neg[i]
    if (m.opsel_hi >> i) & 1:
        b = (srcs[i] >> U64(16 * ((m.opsel >> i) & 1))) & M16
        b = abs_neg(b, F16, ab, ng)
        if not ctx.fmode.in_denorm(16):
            b = flush(b, F16)
        v = bits_to_f64(b, F16)
        nb = f_to_bits(v.astype(np.float32), F32)
        nb = np.where(is_nan(b, F16), (np.where(b & F16.sign, F32.sign, U64(0)) | F32.exp_mask
                                       | F32.quiet | ((b & F16.mant_mask) << U64(13))), nb)
        return v, nb
    b = abs_neg(srcs[i] & M32, F32, ab, ng)
    if not ctx.fmode.in_denorm(32):
        b = flush(b, F32)
    return bits_to_f64(b, F32), b


def _mix(out16: bool, hi: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        vals = [_mix_operand(ctx, srcs, i) for i in range(3)]
        a, b, c = (v for v, _ in vals)
        inputs = [nb for _, nb in vals]
        r = fma_core(ctx, F32, a, b, c, inputs)
        if not out16:
            return r
        with np.errstate(all="ignore"):
            p = a * b
            s = p + c
        lo = two_sum(p, c, s)
        bits = round_f64_to(s, lo, F16, ctx.fmode.round64)
        f32nan = is_nan(r.d, F32)
        nanb = (np.where(r.d & F32.sign, F16.sign, U64(0)) | F16.exp_mask | F16.quiet
                | ((r.d & F32.mant_mask) >> U64(13)))
        bits = np.where(f32nan, nanb, bits)
        bits = post(ctx, bits, F16, hi=s)
        return ValuResult(bits & M16, d_bits=16, d_shift=16 if hi else 0)
    return fn


add_op("v_fma_mix_f32", _mix(False, False))
add_op("v_fma_mixlo_f16", _mix(True, False))
add_op("v_fma_mixhi_f16", _mix(True, True))


# --- dot products ------------------------------------------------------------------


def bf16_to_f64(b: np.ndarray) -> np.ndarray:
    return bits_to_f64((b & M16) << U64(16), F32)


def f64_to_bf16_bits(v: np.ndarray) -> np.ndarray:
    """Round to bfloat16 (nearest even, via f32)."""
    b = f_to_bits(v.astype(np.float32), F32)
    nan = is_nan(b, F32)
    r = (b + U64(0x7FFF) + ((b >> U64(16)) & U64(1))) >> U64(16)
    return np.where(nan, (b >> U64(16)) | U64(0x40), r) & M16


def _dot2_f32(bf16: bool, acc: bool):
    """tmp = a.lo*b.lo; tmp += a.hi*b.hi; tmp += c (each += rounds in f32)."""
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        m = ctx.mods
        if acc:
            if len(srcs) < 3:
                raise ValueError(f"{ctx.name} needs the old VDST value as an extra last source")
            srcs = [srcs[0], srcs[1], srcs[-1]]
            m = ValuMods()
        prods = []
        for h in (0, 1):
            sel = m.opsel if h == 0 else m.opsel_hi
            neg = m.neg if h == 0 else m.neg_hi
            vals = []
            for i in (0, 1):
                b = (srcs[i] >> U64(16 * ((sel >> i) & 1))) & M16
                b = abs_neg(b, F16, False, neg[i])
                if bf16:
                    vals.append(bf16_to_f64(b))
                else:
                    if not ctx.fmode.in_denorm(16):
                        b = flush(b, F16)
                    vals.append(bits_to_f64(b, F16))
            with np.errstate(all="ignore"):
                prods.append(vals[0] * vals[1])
        cb = abs_neg(srcs[2] & M32, F32, False, m.neg[2])
        c = bits_to_f64(cb, F32)
        with np.errstate(all="ignore"):
            t = (prods[0] + prods[1]).astype(np.float32).astype(np.float64)
            hi = t + c
        lo = two_sum(t, c, hi)
        sub = Ctx(ctx.name, ValuMods(clamp=m.clamp), ctx.wave, ctx.exec_mask, ctx.fmode,
                  ctx.lane_masks)
        return fresult(sub, F32, hi, lo, [cb])
    return fn


add_op("v_dot2_f32_f16", _dot2_f32(False, False))
add_op("v_dot2_f32_bf16", _dot2_f32(True, False))
add_op("v_dot2acc_f32_f16", _dot2_f32(False, True))


def _dot2_16(bf16: bool):
    """VOP3 V_DOT2_F16_F16 / V_DOT2_BF16_BF16: OPSEL[2] picks S2's half,
    OPSEL[3] D's half; computed exactly and rounded once (nearest even)."""
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        m = ctx.mods
        vals = []
        for i in (0, 1):
            hv = []
            for h in (0, 1):
                b = abs_neg((srcs[i] >> U64(16 * h)) & M16, F16, m.abs[i], m.neg[i])
                if bf16:
                    hv.append(bf16_to_f64(flush(b, F16) if False else b))
                else:
                    hv.append(bits_to_f64(b, F16))
            vals.append(hv)
        c = abs_neg((srcs[2] >> U64(16 * ctx.sel(2))) & M16, F16, m.abs[2], m.neg[2])
        cv = bf16_to_f64(c) if bf16 else bits_to_f64(c, F16)
        with np.errstate(all="ignore"):
            p0 = vals[0][0] * vals[1][0]
            p1 = vals[0][1] * vals[1][1]
            s1 = p0 + p1
            e1 = two_sum(p0, p1, s1)
            s2 = s1 + cv
            e2 = two_sum(s1, cv, s2)
            lo = e1 + e2
            hi = s2 + lo
            lo = two_sum(s2, lo, hi)
        if bf16:
            if True:  # all denormals disabled for BF16 dot
                tiny = 2.0**-126
                hi = np.where(np.abs(hi) < tiny, np.copysign(0.0, hi), hi)
            bits = f64_to_bf16_bits(hi)
        else:
            bits = round_f64_to(hi, lo, F16, 0)
            nan_in = [x for x in (srcs[0] & M16, srcs[0] >> U64(16), srcs[1] & M16,
                                  srcs[1] >> U64(16) & M16, c)]
            from radcc.emu.valu.fp import fix_nans
            bits = fix_nans(bits, F16, nan_in)
        return ValuResult(bits & M16, d_bits=16, d_shift=16 * ctx.sel(3))
    return fn


add_op("v_dot2_f16_f16", _dot2_16(False))
add_op("v_dot2_bf16_bf16", _dot2_16(True))


def _dot_int(nbits: int, any_sign: bool, signed: bool = False):
    """The integer dot products: `32 // nbits` products of `nbits`-bit fields plus the
    32-bit S2 (the last source), wrapping, saturated by CLAMP. GFX11's IU forms
    (`any_sign`) take each operand's signedness from NEG[0]/NEG[1]; GFX10.3's fixed
    forms are all `signed` (v_dot*_i32_*) or all unsigned. v_dot4c_i32_i8 (GFX10.3's
    VOP2 form, in ACC_OPS) accumulates into VDST, the caller's extra last source."""
    n = 32 // nbits
    mask = (1 << nbits) - 1

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        sa = (any_sign and ctx.mods.neg[0]) or signed
        sb = (any_sign and ctx.mods.neg[1]) or signed
        total = np.zeros(srcs[0].shape, np.int64)
        for k in range(n):
            a = ((srcs[0] >> U64(nbits * k)) & U64(mask)).astype(np.int64)
            b = ((srcs[1] >> U64(nbits * k)) & U64(mask)).astype(np.int64)
            if sa:
                a = np.where(a >= 1 << (nbits - 1), a - (1 << nbits), a)
            if sb:
                b = np.where(b >= 1 << (nbits - 1), b - (1 << nbits), b)
            total += a * b
        if any_sign or signed:
            total += s32(srcs[-1])
            if ctx.mods.clamp:
                total = np.clip(total, -(1 << 31), (1 << 31) - 1)
        else:
            total += (srcs[-1] & M32).astype(np.int64)
            if ctx.mods.clamp:
                total = np.clip(total, 0, (1 << 32) - 1)
        return res32(total)
    return fn


add_op("v_dot4_i32_iu8", _dot_int(8, True))
add_op("v_dot4_u32_u8", _dot_int(8, False))
add_op("v_dot8_i32_iu4", _dot_int(4, True))
add_op("v_dot8_u32_u4", _dot_int(4, False))
# GFX10.3 (LLVM's FeatureDot1Insts/Dot2Insts/Dot7Insts of gfx1030: int_amdgcn_sdot2/udot2/
# sdot4/sdot8; clang-19 selects each for gfx1030)
add_op("v_dot2_i32_i16", _dot_int(16, False, signed=True))
add_op("v_dot2_u32_u16", _dot_int(16, False))
add_op("v_dot4_i32_i8", _dot_int(8, False, signed=True))
add_op("v_dot4c_i32_i8", _dot_int(8, False, signed=True))
add_op("v_dot8_i32_i4", _dot_int(4, False, signed=True))
__all__ = ["bf16_to_f64", "f64_to_bf16_bits", "fbits"]
