"""Bitwise ops (ISA guide §16.7, §16.8, §16.12): logic (32/16-bit, 3-input),
bitfield extract/insert/mask, bit reverse/count (v_bcnt_u32_b32 adds S1, per
ACO's README-ISA.md errata), mbcnt, clz/ctz/cls, alignbit, alignbyte (only S2[1:0],
per the errata), perm.
"""

from __future__ import annotations

import numpy as np

from radcc.emu.valu.core import M32, U64, Ctx, ValuResult, add_op, res16, res32, u16, u32


def bit_length(x: np.ndarray) -> np.ndarray:
    """Bit length of uint values below 2**53 (frexp is exact there)."""
    return np.frexp(x.astype(np.float64))[1].astype(np.int64)


def _logic(fn2, bits: int, n: int = 2):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        if bits == 16:
            v = [u16(ctx, srcs, i) for i in range(n)]
            return res16(ctx, fn2(*v))
        return res32(fn2(*[u32(srcs, i) for i in range(n)]))
    return fn


add_op("v_and_b32", _logic(lambda a, b: a & b, 32))
add_op("v_or_b32", _logic(lambda a, b: a | b, 32))
add_op("v_xor_b32", _logic(lambda a, b: a ^ b, 32))
add_op("v_xnor_b32", _logic(lambda a, b: ~(a ^ b), 32))
add_op("v_not_b32", _logic(lambda a: ~a, 32, 1))
add_op("v_and_b16", _logic(lambda a, b: a & b, 16))
add_op("v_or_b16", _logic(lambda a, b: a | b, 16))
add_op("v_xor_b16", _logic(lambda a, b: a ^ b, 16))
add_op("v_not_b16", _logic(lambda a: ~a, 16, 1))
add_op("v_and_or_b32", _logic(lambda a, b, c: (a & b) | c, 32, 3))
add_op("v_or3_b32", _logic(lambda a, b, c: a | b | c, 32, 3))
add_op("v_xor3_b32", _logic(lambda a, b, c: a ^ b ^ c, 32, 3))
add_op("v_bfi_b32", _logic(lambda a, b, c: (a & b) | (~a & c), 32, 3))


def _lshl_or(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(((u32(srcs, 0) << (srcs[1] & U64(31))) & M32) | u32(srcs, 2))


def _bfe_u32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    off, w = srcs[1] & U64(31), srcs[2] & U64(31)
    return res32((u32(srcs, 0) >> off) & ((U64(1) << w) - U64(1)))


def _bfe_i32(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    off = (srcs[1] & U64(31)).astype(np.int64)
    w = (srcs[2] & U64(31)).astype(np.int64)
    x = (srcs[0] & M32).astype(np.uint32).view(np.int32).astype(np.int64) >> off
    t = x & ((np.int64(1) << w) - 1)
    sh = 64 - w
    v = np.where(w == 0, 0, (t << sh) >> sh)
    return res32(v)


def _bfm(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    w, off = srcs[0] & U64(31), srcs[1] & U64(31)
    return res32(((U64(1) << w) - U64(1)) << off)


def _bfrev(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    x = u32(srcs, 0).astype(np.uint32)
    b = np.unpackbits(x.view(np.uint8).reshape(-1, 4), axis=1, bitorder="little")
    r = np.packbits(b[:, ::-1], axis=1, bitorder="little").reshape(-1).view(np.uint32)
    return res32(r.astype(U64))


def _bcnt(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    return res32(np.bitwise_count(u32(srcs, 0)).astype(U64) + u32(srcs, 1))


def _mbcnt(hi: bool):
    def fn(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
        lane = np.arange(ctx.wave, dtype=np.int64)
        if hi:
            n = np.clip(lane - 32, 0, 32)
        else:
            n = np.clip(lane, 0, 32)
        mask = ((np.int64(1) << n) - 1).astype(U64)
        cnt = np.bitwise_count(u32(srcs, 0) & mask).astype(U64)
        return res32(cnt + u32(srcs, 1))
    return fn


def _clz(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    x = u32(srcs, 0)
    return res32(np.where(x == 0, -1, 32 - bit_length(x)))


def _ctz(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    x = u32(srcs, 0)
    low = x & (~x + U64(1))
    return res32(np.where(x == 0, -1, bit_length(low) - 1))


def _cls(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    x = u32(srcs, 0)
    y = np.where(x >> U64(31) != 0, ~x & M32, x)
    return res32(np.where(y == 0, -1, 32 - bit_length(y)))


def _alignbit(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    v = (u32(srcs, 0) << U64(32)) | u32(srcs, 1)
    return res32(v >> (srcs[2] & U64(31)))


def _alignbyte(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    v = (u32(srcs, 0) << U64(32)) | u32(srcs, 1)
    return res32(v >> ((srcs[2] & U64(3)) * U64(8)))


def _perm(ctx: Ctx, srcs: list[np.ndarray]) -> ValuResult:
    """V_PERM_B32: bytes of {S0, S1} selected by the bytes of S2."""
    data = (u32(srcs, 0) << U64(32)) | u32(srcs, 1)
    sel_all = u32(srcs, 2)
    d = np.zeros(data.shape, U64)
    for k in range(4):
        sel = (sel_all >> U64(8 * k)) & U64(0xFF)
        idx = np.minimum(sel, U64(7))
        byte = (data >> (idx * U64(8))) & U64(0xFF)
        sgn = {8: 1, 9: 3, 10: 5, 11: 7}
        for s, bi in sgn.items():
            ext = np.where((data >> U64(8 * bi + 7)) & U64(1) != 0, U64(0xFF), U64(0))
            byte = np.where(sel == s, ext, byte)
        byte = np.where(sel == 12, U64(0), byte)
        byte = np.where(sel >= 13, U64(0xFF), byte)
        d |= byte << U64(8 * k)
    return res32(d)


add_op("v_lshl_or_b32", _lshl_or)
add_op("v_bfe_u32", _bfe_u32)
add_op("v_bfe_i32", _bfe_i32)
add_op("v_bfm_b32", _bfm)
add_op("v_bfrev_b32", _bfrev)
add_op("v_bcnt_u32_b32", _bcnt)
add_op("v_mbcnt_lo_u32_b32", _mbcnt(False))
add_op("v_mbcnt_hi_u32_b32", _mbcnt(True))
add_op("v_clz_i32_u32", _clz)
add_op("v_ctz_i32_b32", _ctz)
add_op("v_cls_i32", _cls)
add_op("v_alignbit_b32", _alignbit)
add_op("v_alignbyte_b32", _alignbyte)
add_op("v_perm_b32", _perm)
