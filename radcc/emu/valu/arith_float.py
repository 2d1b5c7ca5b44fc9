"""Float arithmetic of f16/f32/f64 (ISA guide §16.7, §16.8, §16.12; §7.2.4).

add/sub/subrev/mul/fma (+fmac/fmamk/fmaak, accumulator = old VDST appended as
the last source), DX9-zero multiplies, min/max (IEEE-mode NaN rules, -0 < +0),
min3/max3/med3/minmax/maxmin, ldexp, fract, trunc/ceil/floor/rndne,
frexp_mant/frexp_exp, mullit, cube*, mov/cndmask.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from radcc.emu.valu.core import M16, M32, U64, Ctx, ValuResult, add_op, res16, s16, s32
from radcc.emu.valu.float_mode import RDN
from radcc.emu.valu.fops import fbits, fdone, fresult, fsrc, need_lo, post
from radcc.emu.valu.fp import (
    F16,
    F32,
    F64,
    FMTS,
    Fmt,
    abs_neg,
    bits_to_f,
    bits_to_f64,
    directed_overflow,
    f_to_bits,
    fix_nans,
    fma_f64,
    is_nan,
    is_qnan,
    is_snan,
    quiet,
    sign_bit,
    two_sum,
)


def _acc(ctx: Ctx, srcs: list[np.ndarray], fmt: Fmt) -> list[np.ndarray]:
    """srcs with the accumulator (old VDST, last) moved to slot 2; f16 reads
    the half that is written (OPSEL[3])."""
    if len(srcs) < 3:
        raise ValueError(f"{ctx.name} needs the old VDST value as an extra last source")
    acc = srcs[-1]
    if fmt is F16:
        acc = (acc >> U64(16 * ctx.sel(3))) & M16
        if ctx.sel(2):
            acc = acc << U64(16)
    return [srcs[0], srcs[1], acc]


# --- add / sub / mul / fma ---------------------------------------------------


def _addsub(fmt: Fmt, kind: str):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        ab, a = fsrc(ctx, srcs, 0, fmt)
        bb, b = fsrc(ctx, srcs, 1, fmt)
        if kind == "sub":
            b = -b
        elif kind == "subrev":
            a = -a
        with np.errstate(all="ignore"):
            hi = a + b
        lo = two_sum(a, b, hi) if need_lo(ctx, fmt) else None
        r = fresult(ctx, fmt, hi, lo, [ab, bb])
        if fmt is F64 and lo is not None:
            ovf = np.isfinite(a) & np.isfinite(b) & ~np.isfinite(hi)
            r.d = post(ctx, directed_overflow(r.d, ovf, fmt, ctx.fmode.round64), fmt)
        if ctx.fmode.round_for(fmt.bits) == RDN:
            r.d = _rd_zero(r.d, hi, lo, a, b, fmt)
        return r
    return fn


def _rd_zero(d: np.ndarray, hi: np.ndarray, lo: np.ndarray | None, a: np.ndarray,
             b: np.ndarray, fmt: Fmt) -> np.ndarray:
    """IEEE 754 §6.3: an exact zero sum is -0 when rounding toward -inf
    (unless both addends are +0)."""
    exact0 = (hi == 0) & ((lo == 0) if lo is not None else True)
    both_pos0 = (a == 0) & (b == 0) & ~np.signbit(a) & ~np.signbit(b)
    return np.where(exact0 & ~both_pos0, (d & ~fmt.sign) | fmt.sign, d)


def _mul(fmt: Fmt, dx9: bool = False):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        ab, a = fsrc(ctx, srcs, 0, fmt)
        bb, b = fsrc(ctx, srcs, 1, fmt)
        with np.errstate(all="ignore"):
            hi = a * b
        if fmt is F64 and need_lo(ctx, fmt):
            r = fma_core(ctx, fmt, a, b, np.zeros_like(a), [ab, bb])  # exact product
            z = (a == 0) | (b == 0)
            r.d = np.where(z, post(ctx, f_to_bits(hi, fmt), fmt), r.d)
        else:
            r = fresult(ctx, fmt, hi, None, [ab, bb])
        if dx9:
            z = (a == 0) | (b == 0)
            r.d = np.where(z, post(ctx, np.zeros_like(ab), fmt), r.d)
        return r
    return fn


def fma_core(ctx: Ctx, fmt: Fmt, a: np.ndarray, b: np.ndarray, c: np.ndarray,
             inputs: list[np.ndarray], rmode: int | None = None) -> ValuResult:
    """Fused a*b+c of float64-held values of `fmt` with one rounding."""
    if rmode is None:
        rmode = ctx.fmode.round_for(fmt.bits)
    if fmt is F64:
        bits = fma_f64(a, b, c, rmode)
        bits = fix_nans(bits, fmt, inputs)
        return fdone(ctx, post(ctx, bits, fmt), fmt)
    with np.errstate(all="ignore"):
        p = a * b  # exact: 24+24 bits fit in float64
        hi = p + c
    lo = two_sum(p, c, hi)
    r = fresult(ctx, fmt, hi, lo, inputs, rmode=rmode)
    if rmode == RDN:
        r.d = _rd_zero(r.d, hi, lo, p, c, fmt)
    return r


def _fma(fmt: Fmt, dx9: bool = False, acc: bool = False):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        if acc:
            srcs = _acc(ctx, srcs, fmt)
        ab, a = fsrc(ctx, srcs, 0, fmt)
        bb, b = fsrc(ctx, srcs, 1, fmt)
        cb, c = fsrc(ctx, srcs, 2, fmt)
        r = fma_core(ctx, fmt, a, b, c, [ab, bb, cb])
        if dx9:
            z = (a == 0) | (b == 0)
            r.d = np.where(z, post(ctx, cb, fmt), r.d)
        return r
    return fn


def _fmak(fmt: Fmt):
    """fmamk/fmaak: the table's operand order is already (mul, mul, add)."""
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        s = [x & fmt.mask for x in srcs]  # K is in the low bits; no OPSEL/modifiers
        ab, a = fsrc(ctx, s, 0, fmt, mods=False, half=0)
        bb, b = fsrc(ctx, s, 1, fmt, mods=False, half=0)
        cb, c = fsrc(ctx, s, 2, fmt, mods=False, half=0)
        return fma_core(ctx, fmt, a, b, c, [ab, bb, cb])
    return fn


for _f in (F16, F32, F64):
    _n = _f.name
    add_op(f"v_add_{_n}", _addsub(_f, "add"))
    add_op(f"v_mul_{_n}", _mul(_f))
    add_op(f"v_fma_{_n}", _fma(_f))
    if _f is not F64:
        add_op(f"v_sub_{_n}", _addsub(_f, "sub"))
        add_op(f"v_subrev_{_n}", _addsub(_f, "subrev"))
        add_op(f"v_fmac_{_n}", _fma(_f, acc=True))
        add_op(f"v_fmamk_{_n}", _fmak(_f))
        add_op(f"v_fmaak_{_n}", _fmak(_f))
def _mad(dx9: bool = False, acc: bool = False, k: bool = False):
    """GFX10.1's v_mad_f32 / v_mac_f32 / v_madmk_f32 / v_madak_f32 (and the _legacy
    DX9-zero forms): not fused, D = S0 * S1 rounded, plus S2 rounded (RDNA1 guide,
    V_MAD_F32: "same result as ADD after MUL_IEEE"), with f32 denormals flushed
    whatever MODE says (LLVM selects them only for llvm.amdgcn.fmad.ftz or with f32
    denormals off). The multiply takes the source modifiers of S0, S1; the add those
    of S2, clamp and OMOD."""
    mul, add = _mul(F32, dx9=dx9), _addsub(F32, "add")

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        if acc:
            srcs = _acc(ctx, srcs, F32)
        m = ctx.mods
        if k:  # K is in the low bits; no OPSEL/modifiers
            srcs = [x & F32.mask for x in srcs]
            m = type(m)()
        ftz = replace(ctx.fmode, in32=False, out32=False)
        c1 = Ctx(ctx.name, replace(m, clamp=False, omod=0, abs=(*m.abs[:2], False),
                                   neg=(*m.neg[:2], False), opsel=0), ctx.wave,
                 ctx.exec_mask, ftz, ctx.lane_masks)
        c2 = Ctx(ctx.name, replace(m, abs=(False, m.abs[2], False),
                                   neg=(False, m.neg[2], False), opsel=0), ctx.wave,
                 ctx.exec_mask, ftz, ctx.lane_masks)
        p = mul(c1, srcs[:2])
        return add(c2, [p.d, srcs[2]])
    return fn


add_op("v_mad_f32", _mad())
add_op("v_mac_f32", _mad(acc=True))
add_op("v_madmk_f32", _mad(k=True))
add_op("v_madak_f32", _mad(k=True))
add_op("v_mad_legacy_f32", _mad(dx9=True))
add_op("v_mac_legacy_f32", _mad(dx9=True, acc=True))
add_op("v_mul_dx9_zero_f32", _mul(F32, dx9=True))
add_op("v_fma_dx9_zero_f32", _fma(F32, dx9=True))
add_op("v_fmac_dx9_zero_f32", _fma(F32, dx9=True, acc=True))


# --- min / max ----------------------------------------------------------------


def minmax_bits(a: np.ndarray, b: np.ndarray, fmt: Fmt, ieee: bool, is_max: bool) -> np.ndarray:
    """v_min_*/v_max_* on bits (§16.7 V_MIN_F32 pseudocode)."""
    va = bits_to_f(a, fmt)
    vb = bits_to_f(b, fmt)
    sa = sign_bit(a, fmt)
    sb = sign_bit(b, fmt)
    with np.errstate(all="ignore"):
        zz = (va == 0) & (vb == 0)
        if is_max:
            pick_a = (va > vb) | (zz & ~sa & sb)
        else:
            pick_a = (va < vb) | (zz & sa & ~sb)
    r = np.where(pick_a, a, b)
    if ieee:
        r = np.where(is_qnan(a, fmt), b, r)
        r = np.where(is_qnan(b, fmt), a, r)
        r = np.where(is_snan(b, fmt), quiet(b, fmt), r)
        r = np.where(is_snan(a, fmt), quiet(a, fmt), r)
    else:
        r = np.where(is_nan(a, fmt), b, r)
        r = np.where(is_nan(b, fmt), a, r)
    return r


def _mm(ctx: Ctx, a: np.ndarray, b: np.ndarray, fmt: Fmt, is_max: bool) -> np.ndarray:
    return minmax_bits(a, b, fmt, ctx.fmode.ieee, is_max)


def _minmax2(fmt: Fmt, is_max: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        a = fbits(ctx, srcs, 0, fmt)
        b = fbits(ctx, srcs, 1, fmt)
        return fdone(ctx, post(ctx, _mm(ctx, a, b, fmt, is_max), fmt, ftz=False), fmt)
    return fn


def _minmax3(fmt: Fmt, first_max: bool, second_max: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        a, b, c = (fbits(ctx, srcs, i, fmt) for i in range(3))
        r = _mm(ctx, _mm(ctx, a, b, fmt, first_max), c, fmt, second_max)
        return fdone(ctx, post(ctx, r, fmt, ftz=False), fmt)
    return fn


def med3_bits(ctx: Ctx, a: np.ndarray, b: np.ndarray, c: np.ndarray, fmt: Fmt) -> np.ndarray:
    """V_MED3_F32 pseudocode."""
    mx = _mm(ctx, _mm(ctx, a, b, fmt, True), c, fmt, True)
    mn = _mm(ctx, _mm(ctx, a, b, fmt, False), c, fmt, False)
    vmx = bits_to_f(mx, fmt)
    with np.errstate(all="ignore"):
        r = np.where(vmx == bits_to_f(a, fmt), _mm(ctx, b, c, fmt, True),
                     np.where(vmx == bits_to_f(b, fmt), _mm(ctx, a, c, fmt, True),
                              _mm(ctx, a, b, fmt, True)))
    anynan = is_nan(a, fmt) | is_nan(b, fmt) | is_nan(c, fmt)
    return np.where(anynan, mn, r)


def _med3(fmt: Fmt):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        a, b, c = (fbits(ctx, srcs, i, fmt) for i in range(3))
        return fdone(ctx, post(ctx, med3_bits(ctx, a, b, c, fmt), fmt, ftz=False), fmt)
    return fn


for _f in (F16, F32, F64):
    _n = _f.name
    add_op(f"v_min_{_n}", _minmax2(_f, False))
    add_op(f"v_max_{_n}", _minmax2(_f, True))
    if _f is not F64:
        add_op(f"v_min3_{_n}", _minmax3(_f, False, False))
        add_op(f"v_max3_{_n}", _minmax3(_f, True, True))
        add_op(f"v_minmax_{_n}", _minmax3(_f, False, True))
        add_op(f"v_maxmin_{_n}", _minmax3(_f, True, False))
        add_op(f"v_med3_{_n}", _med3(_f))


# --- ldexp, rounding to integers, fract, frexp ---------------------------------


def _ldexp(fmt: Fmt):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        ab, a = fsrc(ctx, srcs, 0, fmt)
        if fmt is F16:
            n = s16(srcs[1] >> U64(16 * ctx.sel(1)))
        else:
            n = s32(srcs[1])
        n = np.clip(n, -2200, 2200)
        with np.errstate(all="ignore"):
            if fmt is F64:
                hi = np.ldexp(a, n)
            else:
                hi = np.ldexp(a, np.clip(n, -400, 400))  # exact in float64
        return fresult(ctx, fmt, hi, None, [ab])
    return fn


def _rnd(fmt: Fmt, how: str):
    f = {"trunc": np.trunc, "ceil": np.ceil, "floor": np.floor, "rndne": np.rint}[how]

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        ab, a = fsrc(ctx, srcs, 0, fmt)
        with np.errstate(all="ignore"):
            hi = f(a)
        return fresult(ctx, fmt, hi, None, [ab])
    return fn


def _fract(fmt: Fmt):
    below_one = {F16: 0x3BFF, F32: 0x3F7FFFFF, F64: 0x3FEFFFFFFFFFFFFF}[fmt]

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        ab, a = fsrc(ctx, srcs, 0, fmt)
        with np.errstate(all="ignore"):
            hi = a - np.floor(a)  # exact
        lo = None
        if fmt is F64:
            lo = two_sum(a, -np.floor(a), hi)
        bits = fresult(ctx, fmt, hi, lo, [ab], omod=False, clamp=False).d
        if fmt is F16:
            bits = bits & M16
        v = bits_to_f64(bits, fmt)
        with np.errstate(all="ignore"):
            bits = np.where(v > bits_to_f64(U64(below_one), fmt), U64(below_one), bits)
        return fdone(ctx, post(ctx, bits, fmt), fmt)
    return fn


def _frexp_mant(fmt: Fmt):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        ab, a = fsrc(ctx, srcs, 0, fmt)
        with np.errstate(all="ignore"):
            m, _ = np.frexp(a)
            bits = f_to_bits(m.astype(fmt.ftype), fmt)
        special = ~np.isfinite(a)
        bits = np.where(special, ab, bits)
        return fdone(ctx, post(ctx, bits, fmt), fmt)
    return fn


def _frexp_exp(fmt: Fmt):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        _, a = fsrc(ctx, srcs, 0, fmt)
        with np.errstate(all="ignore"):
            _, e = np.frexp(a)
        e = np.where(np.isfinite(a), e, 0).astype(np.int64)
        if fmt is F16:
            return res16(ctx, e)
        return ValuResult(e.view(np.uint64) & M32)
    return fn


for _f in (F16, F32, F64):
    _n = _f.name
    add_op(f"v_ldexp_{_n}", _ldexp(_f))
    for _h in ("trunc", "ceil", "floor", "rndne"):
        add_op(f"v_{_h}_{_n}", _rnd(_f, _h))
    add_op(f"v_fract_{_n}", _fract(_f))
    add_op(f"v_frexp_mant_{_n}", _frexp_mant(_f))
add_op("v_frexp_exp_i16_f16", _frexp_exp(F16))
add_op("v_frexp_exp_i32_f32", _frexp_exp(F32))
add_op("v_frexp_exp_i32_f64", _frexp_exp(F64))


# --- mullit, cube ---------------------------------------------------------------


def _mullit(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    """V_MULLIT_F32: DX9 lighting multiply (0 * x = 0)."""
    ab, a = fsrc(ctx, srcs, 0, F32)
    bb, b = fsrc(ctx, srcs, 1, F32)
    cb, c = fsrc(ctx, srcs, 2, F32)
    maxf = float(np.finfo(np.float32).max)
    with np.errstate(all="ignore"):
        hi = np.where((a == 0) | (b == 0), 0.0, a * b)
        bad = (b == -maxf) | (b == -np.inf) | np.isnan(b) | (c <= 0) | np.isnan(c)
        hi = np.where(bad, -maxf, hi)
    return fresult(ctx, F32, hi, None, [ab, bb, cb])


def _cube(which: str):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        xb, x = fsrc(ctx, srcs, 0, F32)
        yb, y = fsrc(ctx, srcs, 1, F32)
        zb, z = fsrc(ctx, srcs, 2, F32)
        with np.errstate(all="ignore"):
            ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
            zmaj = (az >= ax) & (az >= ay)
            ymaj = ~zmaj & (ay >= ax)
            if which == "id":
                r = np.where(zmaj, np.where(z < 0, 5.0, 4.0),
                             np.where(ymaj, np.where(y < 0, 3.0, 2.0), np.where(x < 0, 1.0, 0.0)))
            elif which == "sc":
                r = np.where(zmaj, np.where(z < 0, -x, x), np.where(ymaj, x, np.where(x < 0, z, -z)))
            elif which == "tc":
                r = np.where(zmaj, -y, np.where(ymaj, np.where(y < 0, -z, z), -y))
            else:
                r = np.where(zmaj, z, np.where(ymaj, y, x)) * 2.0
        return fresult(ctx, F32, r, None, [xb, yb, zb])
    return fn


add_op("v_mullit_f32", _mullit)
for _w in ("id", "sc", "tc", "ma"):
    add_op(f"v_cube{_w}_f32", _cube(_w))


# --- moves and selects (bit moves with float modifiers, no flushing) ----------


def _mov(bits: int):
    fmt = FMTS[bits]

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        b = fbits(ctx, srcs, 0, fmt, ftz=False)
        return fdone(ctx, b, fmt)
    return fn


def _cndmask(bits: int):
    fmt = FMTS[bits]

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        a = fbits(ctx, srcs, 0, fmt, ftz=False)
        b = fbits(ctx, srcs, 1, fmt, ftz=False)
        sel = (srcs[2] & U64(1)) != 0
        return fdone(ctx, np.where(sel, b, a), fmt)
    return fn


add_op("v_mov_b32", _mov(32))
add_op("v_mov_b16", _mov(16))
add_op("v_cndmask_b32", _cndmask(32))
add_op("v_cndmask_b16", _cndmask(16))

__all__ = ["abs_neg", "fma_core", "minmax_bits", "med3_bits"]
