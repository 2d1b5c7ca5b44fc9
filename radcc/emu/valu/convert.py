"""Conversions (ISA guide §16.8, §16.12).

float -> int: truncate (floor/nearest variants as named), NaN -> 0, out of
range saturates. int -> float and float narrowing round in the destination's
MODE round mode (v_cvt_pk_rtz_f16_f32: always toward zero). f16 results use
the double/half MODE fields (round, denormals, FP16_OVFL). NaNs convert to a
quiet NaN of the same sign keeping the payload's top bits. *_norm_* scale by
32767/65535 after clamping to [-1, 1]/[0, 1] and round to nearest even;
v_cvt_pk_u8_f32 rounds to nearest even and saturates to [0, 255].
"""

from __future__ import annotations

import numpy as np

from radcc.emu.valu.core import (
    M16,
    M32,
    U64,
    Ctx,
    ValuResult,
    add_op,
    res16,
    res32,
    s16,
    s32,
    u16,
    u32,
)
from radcc.emu.valu.float_mode import RNE, RTZ
from radcc.emu.valu.fops import fdone, fresult, fsrc, post
from radcc.emu.valu.fp import F16, F32, F64, Fmt, f_to_bits, fix_nans, is_nan, round_f64_to


def convert_nan(bits: np.ndarray, fin: Fmt, fout: Fmt) -> np.ndarray:
    """A NaN of `fin` as a quiet NaN of `fout` (sign and payload top bits kept)."""
    sign = np.where((bits & fin.sign) != 0, fout.sign, U64(0))
    pay = bits & fin.mant_mask
    if fout.mant >= fin.mant:
        pay = pay << U64(fout.mant - fin.mant)
    else:
        pay = pay >> U64(fin.mant - fout.mant)
    return sign | fout.exp_mask | fout.quiet | pay


def _f2f(fin: Fmt, fout: Fmt, rmode: int | None = None):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        ab, a = fsrc(ctx, srcs, 0, fin)
        r = fresult(ctx, fout, a, None, [], rmode=rmode)
        r.d = np.where(is_nan(ab, fin), post(ctx, convert_nan(ab, fin, fout), fout), r.d)
        if fout is F16:
            r.d = r.d & M16
        return r
    return fn


add_op("v_cvt_f16_f32", _f2f(F32, F16))
add_op("v_cvt_f32_f16", _f2f(F16, F32))
add_op("v_cvt_f32_f64", _f2f(F64, F32))
add_op("v_cvt_f64_f32", _f2f(F32, F64))


def _i2f(fout: Fmt, bits: int, signed: bool, byte: int | None = None):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        if bits == 16:
            x = u16(ctx, srcs, 0)
            v = s16(x) if signed else x.astype(np.int64)
        elif byte is not None:
            v = ((srcs[0] >> U64(8 * byte)) & U64(0xFF)).astype(np.int64)
        else:
            v = s32(srcs[0]) if signed else u32(srcs, 0).astype(np.int64)
        return fresult(ctx, fout, v.astype(np.float64), None, [])
    return fn


add_op("v_cvt_f32_i32", _i2f(F32, 32, True))
add_op("v_cvt_f32_u32", _i2f(F32, 32, False))
add_op("v_cvt_f64_i32", _i2f(F64, 32, True))
add_op("v_cvt_f64_u32", _i2f(F64, 32, False))
add_op("v_cvt_f16_i16", _i2f(F16, 16, True))
add_op("v_cvt_f16_u16", _i2f(F16, 16, False))
for _b in range(4):
    add_op(f"v_cvt_f32_ubyte{_b}", _i2f(F32, 32, False, _b))


def f2i(a: np.ndarray, lo: int, hi: int, how=np.trunc) -> np.ndarray:
    """float64 -> int64: rounding `how`, NaN -> 0, saturate to [lo, hi]."""
    with np.errstate(all="ignore"):
        r = how(a)
        r = np.where(np.isnan(r), 0.0, np.clip(r, lo, hi))
    return r.astype(np.int64)


def _f2i(fin: Fmt, lo: int, hi: int, bits: int, how=np.trunc):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        _, a = fsrc(ctx, srcs, 0, fin)
        v = f2i(a, lo, hi, how)
        return res16(ctx, v) if bits == 16 else res32(v)
    return fn


add_op("v_cvt_i32_f32", _f2i(F32, -(1 << 31), (1 << 31) - 1, 32))
add_op("v_cvt_u32_f32", _f2i(F32, 0, (1 << 32) - 1, 32))
add_op("v_cvt_i32_f64", _f2i(F64, -(1 << 31), (1 << 31) - 1, 32))
add_op("v_cvt_u32_f64", _f2i(F64, 0, (1 << 32) - 1, 32))
add_op("v_cvt_i16_f16", _f2i(F16, -(1 << 15), (1 << 15) - 1, 16))
add_op("v_cvt_u16_f16", _f2i(F16, 0, 0xFFFF, 16))
add_op("v_cvt_floor_i32_f32", _f2i(F32, -(1 << 31), (1 << 31) - 1, 32, np.floor))


def _cvt_nearest(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    """f32_to_i32(floor(S0.f + 0.5F)): the add rounds in f32 (nearest even)."""
    _, a = fsrc(ctx, srcs, 0, F32)
    with np.errstate(all="ignore"):
        t = (a + 0.5).astype(np.float32).astype(np.float64)
    return res32(f2i(t, -(1 << 31), (1 << 31) - 1, np.floor))


add_op("v_cvt_nearest_i32_f32", _cvt_nearest)


def _cvt_off_f32_i4(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    n = (srcs[0] & U64(15)).astype(np.int64)
    n = np.where(n >= 8, n - 16, n)
    return fdone(ctx, post(ctx, f_to_bits((n / 16.0).astype(np.float32), F32), F32), F32)


add_op("v_cvt_off_f32_i4", _cvt_off_f32_i4)


def _i2i(signed: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        x = u16(ctx, srcs, 0)
        return res32(s16(x) if signed else x)
    return fn


add_op("v_cvt_i32_i16", _i2i(True))
add_op("v_cvt_u32_u16", _i2i(False))


def norm(a: np.ndarray, signed: bool) -> np.ndarray:
    """f*_to_snorm / f*_to_unorm as int64."""
    with np.errstate(all="ignore"):
        if signed:
            v = np.rint(np.clip(a, -1.0, 1.0) * 32767.0)
        else:
            v = np.rint(np.clip(a, 0.0, 1.0) * 65535.0)
        v = np.where(np.isnan(v), 0.0, v)
    return v.astype(np.int64)


def _norm16(signed: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        _, a = fsrc(ctx, srcs, 0, F16)
        return res16(ctx, norm(a, signed))
    return fn


add_op("v_cvt_norm_i16_f16", _norm16(True))
add_op("v_cvt_norm_u16_f16", _norm16(False))


def _pack(lo: np.ndarray, hi: np.ndarray) -> ValuResult:
    return res32(((hi.astype(np.int64) & 0xFFFF) << 16) | (lo.astype(np.int64) & 0xFFFF))


def _pk_norm(fin: Fmt, signed: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        _, a = fsrc(ctx, srcs, 0, fin)
        _, b = fsrc(ctx, srcs, 1, fin)
        return _pack(norm(a, signed), norm(b, signed))
    return fn


add_op("v_cvt_pk_norm_i16_f32", _pk_norm(F32, True))
add_op("v_cvt_pk_norm_u16_f32", _pk_norm(F32, False))
add_op("v_cvt_pk_norm_i16_f16", _pk_norm(F16, True))
add_op("v_cvt_pk_norm_u16_f16", _pk_norm(F16, False))


def _pk_f2i(signed: bool):
    lo, hi = (-(1 << 15), (1 << 15) - 1) if signed else (0, 0xFFFF)

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        _, a = fsrc(ctx, srcs, 0, F32)
        _, b = fsrc(ctx, srcs, 1, F32)
        return _pack(f2i(a, lo, hi), f2i(b, lo, hi))
    return fn


add_op("v_cvt_pk_i16_f32", _pk_f2i(True))
add_op("v_cvt_pk_u16_f32", _pk_f2i(False))


def _pk_i2i(signed: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        if signed:
            a, b = np.clip(s32(srcs[0]), -32768, 32767), np.clip(s32(srcs[1]), -32768, 32767)
        else:
            a, b = np.minimum(u32(srcs, 0), U64(0xFFFF)), np.minimum(u32(srcs, 1), U64(0xFFFF))
        return _pack(a, b)
    return fn


add_op("v_cvt_pk_i16_i32", _pk_i2i(True))
add_op("v_cvt_pk_u16_u32", _pk_i2i(False))


def _cvt_pk_u8_f32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    """Byte S1[1:0] of S2 replaced by f32_to_u8(S0)."""
    _, a = fsrc(ctx, srcs, 0, F32)
    v = f2i(a, 0, 255, np.rint).astype(np.uint64)
    sh = (srcs[1] & U64(3)) * U64(8)
    d = (u32(srcs, 2) & ~(U64(0xFF) << sh)) | (v << sh)
    return res32(d & M32)


add_op("v_cvt_pk_u8_f32", _cvt_pk_u8_f32)


def _f32_to_f16_bits(ctx: Ctx, ab: np.ndarray, a: np.ndarray, rmode: int) -> np.ndarray:
    bits = round_f64_to(a, None, F16, rmode)
    bits = fix_nans(bits, F16, [])
    bits = np.where(is_nan(ab, F32), convert_nan(ab, F32, F16), bits)
    return post(ctx, bits, F16, hi=a) & M16


def _cvt_pk_rtz(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    ab, a = fsrc(ctx, srcs, 0, F32)
    bb, b = fsrc(ctx, srcs, 1, F32)
    lo = _f32_to_f16_bits(ctx, ab, a, RTZ)
    hi = _f32_to_f16_bits(ctx, bb, b, RTZ)
    return res32(lo | (hi << U64(16)))


add_op("v_cvt_pk_rtz_f16_f32", _cvt_pk_rtz)


def _pack_b32_f16(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    from radcc.emu.valu.fops import fbits
    a = fbits(ctx, srcs, 0, F16, ftz=False)
    b = fbits(ctx, srcs, 1, F16, ftz=False)
    return res32(a | (b << U64(16)))


add_op("v_pack_b32_f16", _pack_b32_f16)


def _sat_pk_u8_i16(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    x = srcs[0] & M32
    lo = np.clip(s16(x), 0, 255)
    hi = np.clip(s16(x >> U64(16)), 0, 255)
    return res16(ctx, lo | (hi << 8))


add_op("v_sat_pk_u8_i16", _sat_pk_u8_i16)
__all__ = ["RNE", "convert_nan", "f2i", "norm"]
