"""Division helpers (ISA guide §16.12): v_div_scale_f32/f64 (VOP3SD, the
VCC output is `sdst`), v_div_fmas_f32/f64 (VCC from lane_masks['vcc']),
v_div_fixup_f16/f32/f64, and v_trig_preop_f64 (2/pi segments, 1201 bits).
"""

from __future__ import annotations

import numpy as np

from radcc.emu.valu.arith_float import fma_core
from radcc.emu.valu.core import U64, Ctx, ValuResult, add_op, s32
from radcc.emu.valu.fops import fdone, fresult, fsrc, post
from radcc.emu.valu.fp import (
    F16,
    F32,
    F64,
    Fmt,
    exponent,
    f_to_bits,
    is_denorm,
    is_nan,
    quiet,
    sign_bit,
)


def _is_denorm_val(v: np.ndarray, fmt: Fmt) -> np.ndarray:
    tiny = np.ldexp(1.0, 1 - fmt.bias)
    with np.errstate(all="ignore"):
        return (v != 0) & (np.abs(v) < tiny)


def _div_scale(fmt: Fmt):
    """V_DIV_SCALE_F32/F64 pseudocode: S0 = value to scale, S1 = denominator,
    S2 = numerator."""
    big, thresh, tiny_exp = (64, 96, 23) if fmt is F32 else (128, 768, 53)

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        b0, s0 = fsrc(ctx, srcs, 0, fmt)
        b1, s1 = fsrc(ctx, srcs, 1, fmt)
        b2, s2 = fsrc(ctx, srcs, 2, fmt)
        e1, e2 = exponent(b1, fmt), exponent(b2, fmt)
        with np.errstate(all="ignore"):
            up = np.ldexp(s0, big)
            down = np.ldexp(s0, -big)
            rcp_den = _is_denorm_val(1.0 / s1, F64 if fmt is F64 else F32)
            if fmt is F32:
                q = (s2.astype(np.float32) / s1.astype(np.float32)).astype(np.float64)
            else:
                q = s2 / s1
            q_den = _is_denorm_val(q, fmt)
        d = s0.copy()
        vcc = np.zeros(s0.shape, bool)
        # evaluate the if/elif chain from the last branch to the first
        c7 = e2 <= tiny_exp
        d = np.where(c7, up, d)
        c6 = q_den
        vcc = np.where(c6, True, vcc)
        d = np.where(c6, np.where(s0 == s2, up, s0), d)
        c5 = rcp_den
        vcc = np.where(c5, False, vcc)
        d = np.where(c5, down, d)
        c4 = rcp_den & q_den
        vcc = np.where(c4, True, vcc)
        d = np.where(c4, np.where(s0 == s1, up, s0), d)
        c3 = is_denorm(b1, fmt)
        vcc = np.where(c3, False, vcc)
        d = np.where(c3, up, d)
        c2 = (e2 - e1) >= thresh
        vcc = np.where(c2, True, vcc)
        d = np.where(c2, np.where(s0 == s1, up, s0), d)
        c1 = (s2 == 0) | (s1 == 0)
        vcc = np.where(c1, False, vcc)
        d = np.where(c1, np.nan, d)
        nan_in = is_nan(b0, fmt) | is_nan(b1, fmt) | is_nan(b2, fmt)
        vcc = np.where(nan_in, False, vcc)
        r = fresult(ctx, fmt, d, None, [b0, b1, b2])
        r.sdst = vcc
        return r
    return fn


def _div_fmas(fmt: Fmt):
    """V_DIV_FMAS: fma, scaled when VCC is set. The guide writes 2**32 (f32) /
    2**64 (f64); that cannot undo v_div_scale's 2**64 / 2**128 scaling, so
    (as hardware-checked emulators do) the scale is 2**+-64 (f32) /
    2**+-128 (f64): up when S2 (the quotient estimate) has exponent > bias,
    else down. Rounded once, after scaling."""
    scale, bias = (64, 127) if fmt is F32 else (128, 1023)

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        vcc = ctx.lane_mask("vcc")
        ab, a = fsrc(ctx, srcs, 0, fmt, ftz=False)
        bb, b = fsrc(ctx, srcs, 1, fmt, ftz=False)
        cb, c = fsrc(ctx, srcs, 2, fmt, ftz=False)
        r = fma_core(ctx, fmt, a, b, c, [ab, bb, cb])
        if vcc.any():
            k = np.where(exponent(cb, fmt) > bias, scale, -scale)
            with np.errstate(all="ignore"):
                r2 = fma_core(ctx, fmt, np.ldexp(a, k), b, np.ldexp(c, k), [ab, bb, cb])
            r.d = np.where(vcc, r2.d, r.d)
        return r
    return fn


def _div_fixup(fmt: Fmt):
    """S0 = quotient, S1 = denominator, S2 = numerator."""
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        b0, _ = fsrc(ctx, srcs, 0, fmt)
        b1, s1 = fsrc(ctx, srcs, 1, fmt)
        b2, s2 = fsrc(ctx, srcs, 2, fmt)
        sgn = sign_bit(b1, fmt) ^ sign_bit(b2, fmt)
        sbit = np.where(sgn, fmt.sign, U64(0))
        inf = fmt.exp_mask
        e1, e2 = exponent(b1, fmt), exponent(b2, fmt)
        with np.errstate(all="ignore"):
            a1, a2 = np.abs(s1), np.abs(s2)
            r = sbit | (b0 & ~fmt.sign & fmt.mask)
            r = np.where(is_nan(b0, fmt), sbit | inf, r)  # NaN quotient: +-inf
            if fmt is not F16:
                emax = (1 << fmt.expb) - 1
                under = (e2 - e1) < (-150 if fmt is F32 else -1075)
                r = np.where(e1 == emax, sbit | inf, r)  # OVERFLOW -> inf
                r = np.where(under, sbit, r)  # UNDERFLOW -> 0
            r = np.where((a1 == np.inf) | (s2 == 0), sbit, r)
            r = np.where((s1 == 0) | (a2 == np.inf), sbit | inf, r)
            r = np.where((a1 == np.inf) & (a2 == np.inf), fmt.default_nan, r)
            r = np.where((s1 == 0) & (s2 == 0), fmt.default_nan, r)
            r = np.where(is_nan(b1, fmt), quiet(b1, fmt), r)
            r = np.where(is_nan(b2, fmt), quiet(b2, fmt), r)
        return fdone(ctx, post(ctx, r, fmt), fmt)
    return fn


for _f in (F32, F64):
    add_op(f"v_div_scale_{_f.name}", _div_scale(_f))
    add_op(f"v_div_fmas_{_f.name}", _div_fmas(_f))
for _f in (F16, F32, F64):
    add_op(f"v_div_fixup_{_f.name}", _div_fixup(_f))


# --- v_trig_preop_f64 ----------------------------------------------------------


def _two_over_pi_bits(nbits: int) -> int:
    """floor(2/pi * 2**nbits) by Machin's formula in integers (guard bits)."""
    g = nbits + 64
    one = 1 << g

    def arctan_inv(x: int) -> int:
        total, term, n, sign = 0, one // x, 1, 1
        x2 = x * x
        while term:
            total += sign * (term // n)
            term //= x2
            n += 2
            sign = -sign
        return total

    pi = 4 * (4 * arctan_inv(5) - arctan_inv(239))
    return ((2 << g) << nbits) // pi >> 0


TWO_OVER_PI_1201 = _two_over_pi_bits(1201)  # the fraction bits b_1200..b_0


def _trig_preop(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    """V_TRIG_PREOP_F64: 53-bit segment S1[4:0] of 2/pi, round toward zero."""
    b0, _ = fsrc(ctx, srcs, 0, F64)
    e = exponent(b0, F64)
    seg = (srcs[1] & U64(31)).astype(np.int64)
    shift = seg * 53 + np.where(e > 1077, e - 1077, 0)
    scale = -53 - shift + np.where(e >= 1968, 128, 0)
    out = np.zeros(b0.shape, np.float64)
    for sh, sc in set(zip(shift.tolist(), scale.tolist(), strict=True)):
        pos = 1201 - 53 - sh
        if pos >= 0:
            m = (TWO_OVER_PI_1201 >> pos) & ((1 << 53) - 1)
        else:
            m = (TWO_OVER_PI_1201 << -pos) & ((1 << 53) - 1)
        with np.errstate(all="ignore"):
            v = np.ldexp(float(m), int(sc)) if sc > -1200 else 0.0
        out = np.where((shift == sh) & (scale == sc), v, out)
    bits = f_to_bits(out, F64)
    return fdone(ctx, post(ctx, bits, F64), F64)


add_op("v_trig_preop_f64", _trig_preop)
__all__ = ["TWO_OVER_PI_1201", "s32"]
