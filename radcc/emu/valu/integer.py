"""Integer arithmetic (ISA guide §16.7, §16.12): adds with/without carry,
multiplies (24-bit, hi/lo, mad_u64_u32/mad_i64_i32 with carry-out), 16-bit
ops (OPSEL halves), min/max/min3/max3/med3/minmax/maxmin, shifts (32/16/64),
three-operand adds, SAD family (v_sad_u32 uses the unsigned distance, per
ACO's README-ISA.md errata), lerp_u8.

CLAMP on integer arithmetic saturates to the result type's range (§7.1 CLMP).
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
    res64,
    s16,
    s32,
    u16,
    u32,
)

MAXU32 = 0xFFFFFFFF
I32 = (-(1 << 31), (1 << 31) - 1)
I16 = (-(1 << 15), (1 << 15) - 1)


def _i64(x: np.ndarray) -> np.ndarray:
    return (x & M32).astype(np.int64)


def _clampu32(ctx: Ctx, v: np.ndarray) -> np.ndarray:
    """v: exact int64 result; saturate to u32 if CLAMP else wrap."""
    if ctx.mods.clamp:
        v = np.clip(v, 0, MAXU32)
    return v


def _clampi(ctx: Ctx, v: np.ndarray, rng: tuple[int, int]) -> np.ndarray:
    if ctx.mods.clamp:
        v = np.clip(v, *rng)
    return v


# --- 32-bit adds --------------------------------------------------------------


def _addu(kind: str):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        a, b = _i64(srcs[0]), _i64(srcs[1])
        v = {"add": a + b, "sub": a - b, "subrev": b - a}[kind]
        return res32(_clampu32(ctx, v))
    return fn


def _addi(kind: str):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        a, b = s32(srcs[0]), s32(srcs[1])
        v = a + b if kind == "add" else a - b
        return res32(_clampi(ctx, v, I32))
    return fn


def _addco(kind: str, ci: bool):
    """V_{ADD,SUB,SUBREV}_CO[_CI]_U32: carry/borrow-out in sdst."""
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        a, b = _i64(srcs[0]), _i64(srcs[1])
        c = (srcs[2] & U64(1)).astype(np.int64) if ci else 0
        if kind == "add":
            v = a + b + c
            co = v > MAXU32
        elif kind == "sub":
            v = a - b - c
            co = v < 0
        else:
            v = b - a - c
            co = v < 0
        r = res32(_clampu32(ctx, v))
        r.sdst = np.asarray(co, bool)
        return r
    return fn


for _k in ("add", "sub", "subrev"):
    add_op(f"v_{_k}_nc_u32", _addu(_k))
    add_op(f"v_{_k}_co_u32", _addco(_k, False))
    add_op(f"v_{_k}_co_ci_u32", _addco(_k, True))
add_op("v_add_nc_i32", _addi("add"))
add_op("v_sub_nc_i32", _addi("sub"))


# --- multiplies --------------------------------------------------------------


def _u24(x: np.ndarray) -> np.ndarray:
    return (x & U64(0xFFFFFF)).astype(np.int64)


def _i24(x: np.ndarray) -> np.ndarray:
    v = (x & U64(0xFFFFFF)).astype(np.int64)
    return np.where(v >= 1 << 23, v - (1 << 24), v)


def _mul_u24(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(_clampu32(ctx, _u24(srcs[0]) * _u24(srcs[1])))


def _mul_i24(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(_clampi(ctx, _i24(srcs[0]) * _i24(srcs[1]), I32))


def _mul_hi_u24(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32((_u24(srcs[0]) * _u24(srcs[1])) >> 32)


def _mul_hi_i24(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32((_i24(srcs[0]) * _i24(srcs[1])) >> 32)


def _mad_u24(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(_clampu32(ctx, _u24(srcs[0]) * _u24(srcs[1]) + _i64(srcs[2])))


def _mad_i24(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(_clampi(ctx, _i24(srcs[0]) * _i24(srcs[1]) + s32(srcs[2]), I32))


def _mul_lo_u32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(u32(srcs, 0) * u32(srcs, 1))


def _mul_hi_u32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32((u32(srcs, 0) * u32(srcs, 1)) >> U64(32))


def _mul_hi_i32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32((s32(srcs[0]) * s32(srcs[1])) >> 32)


def _mad_u64_u32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    """{vcc, D.u64} = S0.u32 * S1.u32 + S2.u64 (65-bit)."""
    p = u32(srcs, 0) * u32(srcs, 1)
    s = p + srcs[2]
    carry = s < p
    if ctx.mods.clamp:
        s = np.where(carry, U64(0xFFFFFFFFFFFFFFFF), s)
    r = res64(s)
    r.sdst = carry
    return r


def _mad_i64_i32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    """{vcc, D.i64} = 65'I(S0.i32 * S1.i32 + S2.i64): vcc is bit 64 of the
    65-bit result, i.e. the sign of the exact sum."""
    p = s32(srcs[0]) * s32(srcs[1])
    c = srcs[2].view(np.int64)
    d = (p.view(np.uint64) + srcs[2]).view(np.int64)
    ovf = ((p < 0) == (c < 0)) & ((d < 0) != (p < 0))
    neg = np.where(ovf, p < 0, d < 0)
    if ctx.mods.clamp:
        d = np.where(ovf, np.where(p < 0, np.iinfo(np.int64).min, np.iinfo(np.int64).max), d)
    r = res64(d)
    r.sdst = neg
    return r


add_op("v_mul_u32_u24", _mul_u24)
add_op("v_mul_i32_i24", _mul_i24)
add_op("v_mul_hi_u32_u24", _mul_hi_u24)
add_op("v_mul_hi_i32_i24", _mul_hi_i24)
add_op("v_mad_u32_u24", _mad_u24)
add_op("v_mad_i32_i24", _mad_i24)
add_op("v_mul_lo_u32", _mul_lo_u32)
add_op("v_mul_lo_i32", _mul_lo_u32)  # GFX10.1: the same low 32 bits
add_op("v_mul_hi_u32", _mul_hi_u32)
add_op("v_mul_hi_i32", _mul_hi_i32)
add_op("v_mad_u64_u32", _mad_u64_u32)
add_op("v_mad_i64_i32", _mad_i64_i32)


# --- 16-bit arithmetic ---------------------------------------------------------


def _a16(kind: str, signed: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        if signed:
            a, b = s16(u16(ctx, srcs, 0)), s16(u16(ctx, srcs, 1))
        else:
            a, b = u16(ctx, srcs, 0).astype(np.int64), u16(ctx, srcs, 1).astype(np.int64)
        if kind == "add":
            v = a + b
        elif kind == "sub":
            v = a - b
        elif kind == "mul":
            v = a * b
        else:  # mad
            c = s16(u16(ctx, srcs, 2)) if signed else u16(ctx, srcs, 2).astype(np.int64)
            v = a * b + c
        v = _clampi(ctx, v, I16 if signed else (0, 0xFFFF))
        return res16(ctx, v)
    return fn


def _mad32_16(signed: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        if signed:
            v = s16(u16(ctx, srcs, 0)) * s16(u16(ctx, srcs, 1)) + s32(srcs[2])
            return res32(_clampi(ctx, v, I32))
        v = (u16(ctx, srcs, 0) * u16(ctx, srcs, 1)).astype(np.int64) + _i64(srcs[2])
        return res32(_clampu32(ctx, v))
    return fn


add_op("v_add_nc_u16", _a16("add", False))
add_op("v_sub_nc_u16", _a16("sub", False))
add_op("v_add_nc_i16", _a16("add", True))
add_op("v_sub_nc_i16", _a16("sub", True))
add_op("v_mul_lo_u16", _a16("mul", False))
add_op("v_mad_u16", _a16("mad", False))
add_op("v_mad_i16", _a16("mad", True))
add_op("v_mad_u32_u16", _mad32_16(False))
add_op("v_mad_i32_i16", _mad32_16(True))


# --- min / max / med3 -----------------------------------------------------------


def _ival(ctx: Ctx, srcs: list[np.ndarray], i: int, bits: int, signed: bool) -> np.ndarray:
    if bits == 16:
        x = u16(ctx, srcs, i)
        return s16(x) if signed else x.astype(np.int64)
    return s32(srcs[i]) if signed else _i64(srcs[i])


def _imm(kind: str, bits: int, signed: bool):
    n = {"min": 2, "max": 2}.get(kind, 3)

    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        v = [_ival(ctx, srcs, i, bits, signed) for i in range(n)]
        if kind == "min":
            r = np.minimum(v[0], v[1])
        elif kind == "max":
            r = np.maximum(v[0], v[1])
        elif kind == "min3":
            r = np.minimum(np.minimum(v[0], v[1]), v[2])
        elif kind == "max3":
            r = np.maximum(np.maximum(v[0], v[1]), v[2])
        elif kind == "minmax":
            r = np.maximum(np.minimum(v[0], v[1]), v[2])
        elif kind == "maxmin":
            r = np.minimum(np.maximum(v[0], v[1]), v[2])
        else:  # med3
            r = np.maximum(np.minimum(v[0], v[1]), np.minimum(np.maximum(v[0], v[1]), v[2]))
        return res16(ctx, r) if bits == 16 else res32(r)
    return fn


for _k in ("min", "max", "min3", "max3", "med3"):
    for _bits in (16, 32):
        for _s, _t in ((True, "i"), (False, "u")):
            add_op(f"v_{_k}_{_t}{_bits}", _imm(_k, _bits, _s))
for _k in ("minmax", "maxmin"):
    add_op(f"v_{_k}_i32", _imm(_k, 32, True))
    add_op(f"v_{_k}_u32", _imm(_k, 32, False))


# --- shifts ---------------------------------------------------------------------


def _lshlrev_b32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(u32(srcs, 1) << (srcs[0] & U64(31)))


def _lshrrev_b32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(u32(srcs, 1) >> (srcs[0] & U64(31)))


def _ashrrev_i32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(s32(srcs[1]) >> (srcs[0] & U64(31)).astype(np.int64))


def _lshlrev_b64(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res64(srcs[1] << (srcs[0] & U64(63)))


def _lshrrev_b64(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res64(srcs[1] >> (srcs[0] & U64(63)))


def _ashrrev_i64(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res64(srcs[1].view(np.int64) >> (srcs[0] & U64(63)).astype(np.int64))


def _lshlrev_b16(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res16(ctx, u16(ctx, srcs, 1) << (u16(ctx, srcs, 0) & U64(15)))


def _lshrrev_b16(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res16(ctx, u16(ctx, srcs, 1) >> (u16(ctx, srcs, 0) & U64(15)))


def _ashrrev_i16(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res16(ctx, s16(u16(ctx, srcs, 1)) >> (u16(ctx, srcs, 0) & U64(15)).astype(np.int64))


add_op("v_lshlrev_b32", _lshlrev_b32)
add_op("v_lshrrev_b32", _lshrrev_b32)
add_op("v_ashrrev_i32", _ashrrev_i32)
add_op("v_lshlrev_b64", _lshlrev_b64)
add_op("v_lshrrev_b64", _lshrrev_b64)
add_op("v_ashrrev_i64", _ashrrev_i64)
add_op("v_lshlrev_b16", _lshlrev_b16)
add_op("v_lshrrev_b16", _lshrrev_b16)
add_op("v_ashrrev_i16", _ashrrev_i16)


# --- three-operand adds ----------------------------------------------------------


def _add3(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(u32(srcs, 0) + u32(srcs, 1) + u32(srcs, 2))


def _xad(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32((u32(srcs, 0) ^ u32(srcs, 1)) + u32(srcs, 2))


def _lshl_add(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(((u32(srcs, 0) << (srcs[1] & U64(31))) & M32) + u32(srcs, 2))


def _add_lshl(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(((u32(srcs, 0) + u32(srcs, 1)) & M32) << (srcs[2] & U64(31)))


add_op("v_add3_u32", _add3)
add_op("v_xad_u32", _xad)
add_op("v_lshl_add_u32", _lshl_add)
add_op("v_add_lshl_u32", _add_lshl)


# --- SAD family, lerp -------------------------------------------------------------


def _byte(x: np.ndarray, i: int) -> np.ndarray:
    return ((x >> U64(8 * i)) & U64(0xFF)).astype(np.int64)


def sad_u8(a: np.ndarray, b: np.ndarray, masked: bool = False) -> np.ndarray:
    """Sum over bytes of |a_i - b_i| (unsigned); masked: skip b_i == 0."""
    t = np.zeros(a.shape, np.int64)
    for i in range(4):
        ai, bi = _byte(a, i), _byte(b, i)
        d = np.abs(ai - bi)
        t += np.where(bi == 0, 0, d) if masked else d
    return t


def _sad(kind: str):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        a, b, c = u32(srcs, 0), u32(srcs, 1), _i64(srcs[2])
        if kind == "u8":
            v = sad_u8(a, b) + c
        elif kind == "hi_u8":
            v = (sad_u8(a, b) << 16) + c
        elif kind == "msad_u8":
            v = sad_u8(a, b, masked=True) + c
        elif kind == "u16":
            v = c.copy()
            for h in (0, 16):
                ah = ((a >> U64(h)) & M16).astype(np.int64)
                bh = ((b >> U64(h)) & M16).astype(np.int64)
                v += np.abs(ah - bh)
        else:  # u32: unsigned distance (errata)
            v = np.where(a > b, a - b, b - a).astype(np.int64) + c
        return res32(_clampu32(ctx, v))
    return fn


for _k in ("u8", "hi_u8", "u16", "u32"):
    add_op(f"v_sad_{_k}", _sad(_k))
add_op("v_msad_u8", _sad("msad_u8"))


def _qsad(masked: bool, wide: bool):
    """V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8 / V_MQSAD_U32_U8: four byte-SADs
    of S0 windows (S0[31+8j:8j]) against S1, accumulated into the fields of S2
    (16-bit fields, or four dwords: S2 given as shape (4, wave))."""
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        s0, s1, s2 = srcs[0], u32(srcs, 1), srcs[2]
        fields = []
        for j in range(4):
            win = (s0 >> U64(8 * j)) & M32
            sad = sad_u8(win, s1, masked)
            if wide:
                acc = (s2[j] & M32).astype(np.int64)
                v = _clampu32(ctx, sad + acc) & MAXU32
            else:
                acc = ((s2 >> U64(16 * j)) & M16).astype(np.int64)
                v = sad + acc
                v = np.clip(v, 0, 0xFFFF) if ctx.mods.clamp else v & 0xFFFF
            fields.append(v.astype(np.uint64))
        if wide:
            return ValuResult(np.stack(fields), d_bits=128)
        d = fields[0] | (fields[1] << U64(16)) | (fields[2] << U64(32)) | (fields[3] << U64(48))
        return ValuResult(d, d_bits=64)
    return fn


add_op("v_qsad_pk_u16_u8", _qsad(False, False))
add_op("v_mqsad_pk_u16_u8", _qsad(True, False))
add_op("v_mqsad_u32_u8", _qsad(True, True))


def _lerp_u8(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    a, b, c = u32(srcs, 0), u32(srcs, 1), u32(srcs, 2)
    d = np.zeros(a.shape, np.int64)
    for i in range(4):
        d |= ((_byte(a, i) + _byte(b, i) + (_byte(c, i) & 1)) >> 1) << (8 * i)
    return res32(d)


add_op("v_lerp_u8", _lerp_u8)
