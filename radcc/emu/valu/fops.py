"""Float operand fetch and result write-back shared by all float ops.

Input side (§7.2.2.1, §7.2.4): pick the 16-bit half (OPSEL), apply ABS then
NEG, flush input denormals unless MODE allows them.
Output side (§7.2.3.1, §7.2.4): round in the MODE round mode, NaN results
become the first NaN input quieted (else the default NaN), OMOD (only when
IEEE=0 and output denormals are off), CLAMP to [0, 1] (NaN -> 0 when
DX10_CLAMP, -0 -> +0), FP16_OVFL, output denormal flush.
"""

from __future__ import annotations

import numpy as np

from radcc.emu.valu.core import M16, U64, Ctx, ValuResult
from radcc.emu.valu.fp import (
    F16,
    F64,
    Fmt,
    abs_neg,
    bits_to_f,
    bits_to_f64,
    f_to_bits,
    fix_nans,
    flush,
    is_inf,
    is_zero,
    round_f64_to,
)


def fbits(ctx: Ctx, srcs: list[np.ndarray], i: int, fmt: Fmt, *, mods: bool = True,
          ftz: bool | None = None, half: int | None = None) -> np.ndarray:
    """Bits of float source i after OPSEL, ABS/NEG and input denormal flushing.

    ftz: None = per MODE, True = always flush, False = never flush.
    half: for f16, force the half (0/1) instead of OPSEL[i].
    """
    b = srcs[i]
    if fmt is F16:
        h = ctx.sel(i) if half is None else half
        b = (b >> U64(16 * h)) & M16
    else:
        b = b & fmt.mask
    if mods:
        m = ctx.mods
        b = abs_neg(b, fmt, m.abs[i], m.neg[i])
    if ftz is None:
        ftz = not ctx.fmode.in_denorm(fmt.bits)
    if ftz:
        b = flush(b, fmt)
    return b


def fsrc(ctx: Ctx, srcs: list[np.ndarray], i: int, fmt: Fmt, **kw: object
         ) -> tuple[np.ndarray, np.ndarray]:
    """(bits, float64 values) of float source i."""
    b = fbits(ctx, srcs, i, fmt, **kw)  # type: ignore[arg-type]
    return b, bits_to_f64(b, fmt)


def post(ctx: Ctx, bits: np.ndarray, fmt: Fmt, *, hi: np.ndarray | None = None,
         omod: bool = True, clamp: bool = True, ftz: bool | None = None) -> np.ndarray:
    """OMOD, CLAMP, FP16_OVFL and output denormal flush on result bits."""
    fm = ctx.fmode
    m = ctx.mods
    out_dn = fm.out_denorm(fmt.bits)
    if fmt is F16 and fm.fp16_ovfl and hi is not None:
        with np.errstate(all="ignore"):
            ovf = is_inf(bits, fmt) & np.isfinite(hi)
        if ovf.any():
            bits = np.where(ovf, (bits & fmt.sign) | fmt.max_bits, bits)
    if omod and m.omod and not fm.ieee and not out_dn:
        v = bits_to_f(bits, fmt)
        fac = {1: 2.0, 2: 4.0, 3: 0.5}[m.omod]
        with np.errstate(all="ignore"):
            v = (v.astype(np.float64) * fac).astype(fmt.ftype) if fmt is not F64 else v * fac
        bits = f_to_bits(v, fmt)
        bits = flush(bits, fmt)
        bits = np.where(is_zero(bits, fmt), U64(0), bits)
    if clamp and m.clamp:
        bits = fclamp(ctx, bits, fmt)
    if ftz is None:
        ftz = not out_dn
    if ftz:
        bits = flush(bits, fmt)
    return bits


def fclamp(ctx: Ctx, bits: np.ndarray, fmt: Fmt) -> np.ndarray:
    """Clamp to [0.0, 1.0]; -0 -> +0; NaN -> 0 if DX10_CLAMP else unchanged."""
    v = bits_to_f(bits, fmt)
    one = f_to_bits(np.asarray(1.0, fmt.ftype), fmt)
    with np.errstate(all="ignore"):
        nan = np.isnan(v)
        out = np.where(v <= 0, U64(0), np.where(v >= 1, one, bits))
    if ctx.fmode.dx10_clamp:
        return np.where(nan, U64(0), out)
    return np.where(nan, bits, out)


def fresult(ctx: Ctx, fmt: Fmt, hi: np.ndarray, lo: np.ndarray | None,
            inputs: list[np.ndarray], *, rmode: int | None = None, omod: bool = True,
            clamp: bool = True, ftz: bool | None = None) -> ValuResult:
    """Round hi+lo to `fmt`, fix NaNs, apply output modifiers; a ValuResult."""
    if rmode is None:
        rmode = ctx.fmode.round_for(fmt.bits)
    bits = round_f64_to(hi, lo, fmt, rmode)
    bits = fix_nans(bits, fmt, inputs)
    bits = post(ctx, bits, fmt, hi=hi, omod=omod, clamp=clamp, ftz=ftz)
    return fdone(ctx, bits, fmt)


def fdone(ctx: Ctx, bits: np.ndarray, fmt: Fmt) -> ValuResult:
    """Package float result bits (16-bit results go to the OPSEL[3] half)."""
    if fmt is F16:
        return ValuResult(bits & M16, d_bits=16, d_shift=16 * ctx.sel(3))
    return ValuResult(bits, d_bits=64 if fmt is F64 else 32)


def need_lo(ctx: Ctx, fmt: Fmt) -> bool:
    """Whether the residual matters (directed rounding)."""
    return ctx.fmode.round_for(fmt.bits) != 0
