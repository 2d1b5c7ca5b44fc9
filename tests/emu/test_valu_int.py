"""VALU integer and bit ops vs Python-int references of the ISA pseudocode
(ISA guide §16.7, §16.8, §16.12) and ACO's README-ISA.md errata."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from radcc.emu.valu import ValuMods

try:
    from .test_valu_ref import d, run
except ImportError:  # tests/emu not a package
    from test_valu_ref import d, run

M32 = 0xFFFFFFFF
EXTREMES = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFF, 0x10000,
            0x00FFFFFF, 0x00800000, 0x12345678]
u32s = st.integers(0, M32)


def sx(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def lanes(rng: np.random.Generator, n: int = 64) -> list[int]:
    return [int(x) for x in rng.integers(0, 1 << 32, n, dtype=np.uint64)] + EXTREMES


REF2 = {
    "v_add_nc_u32": lambda a, b: (a + b) & M32,
    "v_sub_nc_u32": lambda a, b: (a - b) & M32,
    "v_subrev_nc_u32": lambda a, b: (b - a) & M32,
    "v_add_nc_i32": lambda a, b: (a + b) & M32,
    "v_sub_nc_i32": lambda a, b: (a - b) & M32,
    "v_mul_lo_u32": lambda a, b: (a * b) & M32,
    "v_mul_hi_u32": lambda a, b: (a * b) >> 32,
    "v_mul_hi_i32": lambda a, b: ((sx(a, 32) * sx(b, 32)) >> 32) & M32,
    "v_mul_u32_u24": lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) & M32,
    "v_mul_hi_u32_u24": lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32,
    "v_mul_i32_i24": lambda a, b: (sx(a, 24) * sx(b, 24)) & M32,
    "v_mul_hi_i32_i24": lambda a, b: ((sx(a, 24) * sx(b, 24)) >> 32) & M32,
    "v_min_i32": lambda a, b: min(sx(a, 32), sx(b, 32)) & M32,
    "v_max_i32": lambda a, b: max(sx(a, 32), sx(b, 32)) & M32,
    "v_min_u32": min,
    "v_max_u32": max,
    "v_lshlrev_b32": lambda a, b: (b << (a & 31)) & M32,
    "v_lshrrev_b32": lambda a, b: b >> (a & 31),
    "v_ashrrev_i32": lambda a, b: (sx(b, 32) >> (a & 31)) & M32,
    "v_and_b32": lambda a, b: a & b,
    "v_or_b32": lambda a, b: a | b,
    "v_xor_b32": lambda a, b: a ^ b,
    "v_xnor_b32": lambda a, b: ~(a ^ b) & M32,
    "v_bfm_b32": lambda a, b: (((1 << (a & 31)) - 1) << (b & 31)) & M32,
    "v_bcnt_u32_b32": lambda a, b: (bin(a).count("1") + b) & M32,  # errata: + S1
}


def _sad8(a: int, b: int, masked: bool = False) -> int:
    t = 0
    for i in range(4):
        x, y = a >> 8 * i & 255, b >> 8 * i & 255
        if masked and y == 0:
            continue
        t += x - y if x > y else y - x
    return t


def _perm(s0: int, s1: int, sel: int) -> int:
    data = s0 << 32 | s1
    out = 0
    for k in range(4):
        s = sel >> 8 * k & 255
        if s >= 13:
            b = 0xFF
        elif s == 12:
            b = 0
        elif s >= 8:
            src = {8: 1, 9: 3, 10: 5, 11: 7}[s]
            b = 0xFF if data >> (8 * src + 7) & 1 else 0
        else:
            b = data >> 8 * s & 255
        out |= b << 8 * k
    return out


def _bfe_i32(a: int, b: int, c: int) -> int:
    off, w = b & 31, c & 31
    t = (sx(a, 32) >> off) & ((1 << w) - 1)
    return (sx(t, w) if w else 0) & M32


REF3 = {
    "v_add3_u32": lambda a, b, c: (a + b + c) & M32,
    "v_xad_u32": lambda a, b, c: ((a ^ b) + c) & M32,
    "v_lshl_add_u32": lambda a, b, c: ((a << (b & 31)) + c) & M32,
    "v_add_lshl_u32": lambda a, b, c: (((a + b) & M32) << (c & 31)) & M32,
    "v_lshl_or_b32": lambda a, b, c: ((a << (b & 31)) | c) & M32,
    "v_and_or_b32": lambda a, b, c: (a & b) | c,
    "v_or3_b32": lambda a, b, c: a | b | c,
    "v_xor3_b32": lambda a, b, c: a ^ b ^ c,
    "v_bfi_b32": lambda a, b, c: (a & b) | (~a & c & M32),
    "v_bfe_u32": lambda a, b, c: (a >> (b & 31)) & ((1 << (c & 31)) - 1),
    "v_bfe_i32": _bfe_i32,
    "v_alignbit_b32": lambda a, b, c: ((a << 32 | b) >> (c & 31)) & M32,
    "v_alignbyte_b32": lambda a, b, c: ((a << 32 | b) >> (8 * (c & 3))) & M32,  # errata
    "v_mad_u32_u24": lambda a, b, c: ((a & 0xFFFFFF) * (b & 0xFFFFFF) + c) & M32,
    "v_mad_i32_i24": lambda a, b, c: (sx(a, 24) * sx(b, 24) + sx(c, 32)) & M32,
    "v_min3_i32": lambda a, b, c: min(sx(a, 32), sx(b, 32), sx(c, 32)) & M32,
    "v_max3_u32": lambda a, b, c: max(a, b, c),
    "v_med3_i32": lambda a, b, c: sorted([sx(a, 32), sx(b, 32), sx(c, 32)])[1] & M32,
    "v_med3_u32": lambda a, b, c: sorted([a, b, c])[1],
    "v_minmax_i32": lambda a, b, c: max(min(sx(a, 32), sx(b, 32)), sx(c, 32)) & M32,
    "v_maxmin_u32": lambda a, b, c: min(max(a, b), c),
    "v_sad_u8": lambda a, b, c: (_sad8(a, b) + c) & M32,
    "v_sad_hi_u8": lambda a, b, c: ((_sad8(a, b) << 16) + c) & M32,
    "v_msad_u8": lambda a, b, c: (_sad8(a, b, True) + c) & M32,
    "v_sad_u16": lambda a, b, c: (abs((a & 0xFFFF) - (b & 0xFFFF)) + abs((a >> 16) - (b >> 16))
                                  + c) & M32,
    "v_sad_u32": lambda a, b, c: ((a - b if a > b else b - a) + c) & M32,  # errata: unsigned
    "v_perm_b32": _perm,
    "v_lerp_u8": lambda a, b, c: sum((((a >> 8 * i & 255) + (b >> 8 * i & 255)
                                       + (c >> 8 * i & 1)) >> 1) << 8 * i for i in range(4)),
}


@pytest.mark.parametrize("name", sorted(REF2))
def test_two_operand_ops(name: str) -> None:
    rng = np.random.default_rng(len(name))
    a, b = lanes(rng), lanes(rng)
    a, b = a + [x for x in EXTREMES for _ in EXTREMES], b + EXTREMES * len(EXTREMES)
    assert d(name, a, b) == [REF2[name](x, y) for x, y in zip(a, b, strict=True)]


@pytest.mark.parametrize("name", sorted(REF3))
def test_three_operand_ops(name: str) -> None:
    rng = np.random.default_rng(len(name) + 100)
    a, b, c = lanes(rng), lanes(rng), lanes(rng)
    if name == "v_perm_b32":
        c += [0x0C0B0A09, 0x08FF0D0C, 0x07060504, 0x03020100]
        a += [0x80FF7F01] * 4
        b += [0x01807F80] * 4
    got = d(name, a, b, c)
    assert got == [REF3[name](x, y, z) for x, y, z in zip(a, b, c, strict=True)]


def test_errata_cases() -> None:
    # v_sad_u32(-5, 0, 0) is 4294967291 (unsigned distance), not 5
    assert d("v_sad_u32", 0xFFFFFFFB, 0, 0) == [4294967291]
    # v_bcnt_u32_b32 adds S1
    assert d("v_bcnt_u32_b32", 0xF0F0, 7) == [15]
    # v_alignbyte_b32 uses only S2[1:0]: 4 and 0 shift alike
    assert d("v_alignbyte_b32", 0x11223344, 0x55667788, [4, 0, 5, 1]) == [
        0x55667788, 0x55667788, 0x44556677, 0x44556677]


def test_guide_functional_examples() -> None:
    assert d("v_clz_i32_u32", [0, 0x800000FF, 0x100000FF, 0x0000FFFF, 1]) == [
        M32, 0, 3, 16, 31]
    assert d("v_ctz_i32_b32", [0, 0xFF000001, 0xFF000008, 0xFFFF0000, 0x80000000]) == [
        M32, 0, 3, 16, 31]
    assert d("v_cls_i32", [0, 0x40000000, 0x80000000, 0x0FFFFFFF, 0xFFFF0000, 0xFFFFFFFE,
                           M32]) == [M32, 1, 1, 4, 16, 31, M32]


@given(u32s)
def test_bfrev_and_not(x: int) -> None:
    assert d("v_bfrev_b32", x) == [int(f"{x:032b}"[::-1], 2)]
    assert d("v_not_b32", x) == [~x & M32]


@given(u32s, u32s, st.integers(0, 1))
def test_carry_ops(a: int, b: int, ci: int) -> None:
    r = run("v_add_co_ci_u32", a, b, ci)
    assert int(r.d[0]) == (a + b + ci) & M32 and bool(r.sdst[0]) == (a + b + ci > M32)
    r = run("v_sub_co_ci_u32", a, b, ci)
    assert int(r.d[0]) == (a - b - ci) & M32 and bool(r.sdst[0]) == (b + ci > a)
    r = run("v_subrev_co_ci_u32", a, b, ci)
    assert int(r.d[0]) == (b - a - ci) & M32 and bool(r.sdst[0]) == (a + ci > b)
    r = run("v_add_co_u32", a, b)
    assert int(r.d[0]) == (a + b) & M32 and bool(r.sdst[0]) == (a + b > M32)
    r = run("v_sub_co_u32", a, b)
    assert bool(r.sdst[0]) == (b > a)
    r = run("v_subrev_co_u32", a, b)
    assert bool(r.sdst[0]) == (a > b)


@given(u32s, u32s, st.integers(0, (1 << 64) - 1))
def test_mad_64(a: int, b: int, c: int) -> None:
    full = a * b + c
    r = run("v_mad_u64_u32", a, b, c)
    assert int(r.d[0]) == full & ((1 << 64) - 1) and bool(r.sdst[0]) == bool(full >> 64)
    full = sx(a, 32) * sx(b, 32) + sx(c, 64)
    r = run("v_mad_i64_i32", a, b, c)
    assert int(r.d[0]) == full & ((1 << 64) - 1)
    assert bool(r.sdst[0]) == bool((full & ((1 << 65) - 1)) >> 64)  # bit 64 of the 65-bit sum


def test_integer_clamp_saturates() -> None:
    c = ValuMods(clamp=True)
    assert d("v_add_nc_u32", M32, 5, mods=c) == [M32]
    assert d("v_sub_nc_u32", 3, 5, mods=c) == [0]
    assert d("v_add_nc_i32", 0x7FFFFFFF, 1, mods=c) == [0x7FFFFFFF]
    assert d("v_sub_nc_i32", 0x80000000, 1, mods=c) == [0x80000000]
    assert d("v_add_co_u32", M32, 1, mods=c) == [M32]
    assert d("v_add_nc_u16", 0xFFFF, 2, mods=c) == [0xFFFF]
    assert d("v_add_nc_i16", 0x7FFF, 2, mods=c) == [0x7FFF]
    assert d("v_sub_nc_i16", 0x8000, 2, mods=c) == [0x8000]
    assert d("v_mad_u16", 0x100, 0x100, 5, mods=c) == [0xFFFF]
    assert d("v_mad_u64_u32", M32, M32, (1 << 64) - 1, mods=c) == [(1 << 64) - 1]
    assert d("v_sad_u32", 0, M32, 5, mods=c) == [M32]
    # without clamp: wrap
    assert d("v_add_nc_u32", M32, 5) == [4]


def _half(x: int, hi: int) -> int:
    return x >> (16 * hi) & 0xFFFF


@given(u32s, u32s, u32s, st.integers(0, 15))
@settings(max_examples=60)
def test_16bit_ops_op_sel(a: int, b: int, c: int, opsel: int) -> None:
    m = ValuMods(opsel=opsel)
    x, y, z = _half(a, opsel & 1), _half(b, opsel >> 1 & 1), _half(c, opsel >> 2 & 1)
    refs = {
        "v_add_nc_u16": (x + y) & 0xFFFF,
        "v_sub_nc_u16": (x - y) & 0xFFFF,
        "v_add_nc_i16": (x + y) & 0xFFFF,
        "v_mul_lo_u16": (x * y) & 0xFFFF,
        "v_max_i16": max(sx(x, 16), sx(y, 16)) & 0xFFFF,
        "v_min_u16": min(x, y),
        "v_lshlrev_b16": (y << (x & 15)) & 0xFFFF,
        "v_lshrrev_b16": y >> (x & 15),
        "v_ashrrev_i16": (sx(y, 16) >> (x & 15)) & 0xFFFF,
        "v_and_b16": x & y,
        "v_xor_b16": x ^ y,
    }
    for name, exp in refs.items():
        r = run(name, a, b, mods=m)
        assert (int(r.d[0]), r.d_bits, r.d_shift) == (exp, 16, 16 * (opsel >> 3)), name
    r = run("v_mad_i16", a, b, c, mods=m)
    assert int(r.d[0]) == (sx(x, 16) * sx(y, 16) + sx(z, 16)) & 0xFFFF
    r = run("v_med3_u16", a, b, c, mods=m)
    assert int(r.d[0]) == sorted([x, y, z])[1]
    assert d("v_mad_u32_u16", a, b, c, mods=ValuMods(opsel=opsel & 3)) == [
        (x * y + c) & M32]
    assert d("v_mad_i32_i16", a, b, c, mods=ValuMods(opsel=opsel & 3)) == [
        (sx(x, 16) * sx(y, 16) + sx(c, 32)) & M32]
    assert d("v_not_b16", a, mods=m) == [~x & 0xFFFF]


@given(st.integers(0, 63), st.integers(0, (1 << 64) - 1))
def test_64bit_shifts(s: int, v: int) -> None:
    assert d("v_lshlrev_b64", s, v) == [(v << s) & ((1 << 64) - 1)]
    assert d("v_lshrrev_b64", s | 0x40, v) == [v >> s]  # only S0[5:0]
    assert d("v_ashrrev_i64", s, v) == [(sx(v, 64) >> s) & ((1 << 64) - 1)]


def test_mbcnt_counts_lower_lanes() -> None:
    for wave in (32, 64):
        lo = run("v_mbcnt_lo_u32_b32", [M32] * wave, [0] * wave).d
        hi = run("v_mbcnt_hi_u32_b32", [M32] * wave, lo).d
        assert [int(x) for x in hi] == list(range(wave))  # the guide's lane-id idiom
    mask = 0b1011_0110
    got = d("v_mbcnt_lo_u32_b32", [mask] * 8, [100] * 8)
    assert got == [100 + bin(mask & ((1 << i) - 1)).count("1") for i in range(8)]


def test_qsad_mqsad() -> None:
    s0, s1 = 0x0102030405060708, 0x05000307
    acc = 0x0001000200030004
    exp = 0
    for j in range(4):
        win = (s0 >> 8 * j) & M32
        exp |= ((_sad8(win, s1) + (acc >> 16 * j & 0xFFFF)) & 0xFFFF) << 16 * j
    assert d("v_qsad_pk_u16_u8", s0, s1, acc) == [exp]
    exp = 0
    for j in range(4):
        win = (s0 >> 8 * j) & M32
        exp |= ((_sad8(win, s1, True) + (acc >> 16 * j & 0xFFFF)) & 0xFFFF) << 16 * j
    assert d("v_mqsad_pk_u16_u8", s0, s1, acc) == [exp]
    acc4 = np.array([[10], [20], [30], [40]], dtype=np.uint64)
    r = run("v_mqsad_u32_u8", s0, s1, acc4)
    assert r.d_bits == 128
    assert [int(r.d[j][0]) for j in range(4)] == [
        _sad8((s0 >> 8 * j) & M32, s1, True) + 10 * (j + 1) for j in range(4)]
