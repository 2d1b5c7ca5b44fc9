"""The f32 fast path (v_add/sub/subrev/mul/fma/fmac_f32 through NumPy when EXEC is all
ones) against the general path (the VALU semantics library, here reached by running
the same instruction with one lane off): identical bits on every other lane, in both
f32 denormal modes, on values chosen to hit the fast path and its fallbacks (NaN,
infinities, zeros, denormals and values near them, rounding ties of fma); plus the
IEEE results NumPy computes in float64/exact arithmetic for plain normal values."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from radcc.emu.state import EXEC_LO
from radcc.emu.vop import bind_valu
from tests.emu.test_valu_fast_path import inst, wave_state

SPECIAL = np.array([0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000,
                    0x7FC00000, 0x7F800001, 0x00000001, 0x807FFFFF, 0x00800000, 0x01000000,
                    0x01800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x33800000, 0x4B800001, 0x1F800000,
                    0x20000000, 0x3F800001], dtype=np.uint32)
TEXTS = ["v_add_f32_e32 v7, v3, v4", "v_sub_f32_e32 v7, v3, v4", "v_subrev_f32_e32 v7, s5, v4",
         "v_mul_f32_e32 v7, v3, v4", "v_mul_f32_e64 v7, v3, 0.5", "v_fma_f32 v7, v3, v4, v5",
         "v_fmac_f32_e32 v7, v3, v4", "v_add_f32_e64 v7, v3, 1.0"]


def _values(rng: np.random.Generator, n: int, kind: str) -> np.ndarray:
    if kind == "normal":  # exponents well inside the normal range
        e = rng.integers(60, 190, n, dtype=np.uint32)
        return (rng.integers(0, 2, n, dtype=np.uint32) << 31) | (e << 23) \
            | rng.integers(0, 1 << 23, n, dtype=np.uint32)
    if kind == "tiny":  # normal values, a few lanes denormal or near it (no NaN)
        v = _values(rng, n, "normal")
        k = rng.integers(0, n, 3)
        v[k] = rng.choice(SPECIAL[[0, 1, 8, 9, 10, 11, 12]], 3)
        return v
    if kind == "special":
        return SPECIAL[rng.integers(0, len(SPECIAL), n)]
    return rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)  # any bits


def _pair(text: str, wave: int, seed: int, kind: str, mode: int):
    rng = np.random.default_rng(seed)
    ws = []
    for _ in range(2):
        w = wave_state(wave, seed)
        w.mode = mode
        ws.append(w)
    for reg in (3, 4, 5, 7):
        vals = _values(rng, wave, kind)
        for w in ws:
            w.v[reg] = vals
    if kind == "ties":  # fma: (1 + x/2**12)(1 + y/2**12) is a float32 rounding midpoint
        # when x*y is odd; v5 = +-2**-60 moves the exact sum off it by less than a float64
        # ulp, so a float64 sum rounds onto the midpoint (double-rounding bait)
        one = np.uint32(0x3F800000)
        v3 = one + (rng.integers(1, 1 << 12, wave, dtype=np.uint32) << np.uint32(11))
        v4 = one + (rng.integers(1, 1 << 12, wave, dtype=np.uint32) << np.uint32(11))
        v5 = np.uint32(0x21800000) | (rng.integers(0, 2, wave, dtype=np.uint32) << np.uint32(31))
        for w in ws:
            w.v[3], w.v[4], w.v[5], w.v[7] = v3, v4, v5, v5
    fast, gen = ws
    i = inst(text, wave)
    with np.errstate(all="ignore"):
        bind_valu(i)(fast, i)
        gen.s[EXEC_LO] ^= 1
        bind_valu(i)(gen, i)
    return fast, gen


@pytest.mark.parametrize("mode", [0x000, 0x030, 0x0F0])  # f32 denormals flushed / kept
@pytest.mark.parametrize("kind", ["normal", "tiny", "special", "bits", "ties"])
@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("wave", [32, 64])
def test_fast_f32_matches_the_library(text: str, kind: str, mode: int, wave: int) -> None:
    for seed in range(4):
        fast, gen = _pair(text, wave, seed, kind, mode)
        np.testing.assert_array_equal(fast.v[7, 1:], gen.v[7, 1:], err_msg=text)


@pytest.mark.parametrize("wave", [32, 64])
def test_fast_fma_rounds_ties_once(wave: int) -> None:
    """v3 * v4 is exact in float64 and v5 is about half a float32 ulp of it: the float64
    sum can land on a float32 rounding midpoint; the result must be the correctly rounded
    float32 of the exact a*b+c (Fraction arithmetic), not a double rounding."""
    for seed in range(6):
        fast, _ = _pair("v_fma_f32 v7, v3, v4, v5", wave, seed, "ties", 0x0F0)
        a, b, c = (fast.v[r].view(np.float32) for r in (3, 4, 5))
        got = fast.v[7].view(np.float32)
        for k in range(wave):
            assert float(got[k]) == _exact(a[k], b[k], c[k]), (seed, k)


def _exact(a: np.float32, b: np.float32, c: np.float32 | None) -> float:
    """Correctly rounded float32 of a*b+c (or a+b) from exact rationals."""
    x = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)) if c is not None \
        else Fraction(float(a)) + Fraction(float(b))
    lo = np.float32(float(x))  # within one float32 ulp; fix by comparing neighbours
    cands = [np.nextafter(lo, np.float32(-np.inf)), lo, np.nextafter(lo, np.float32(np.inf))]
    best = min(cands, key=lambda f: (abs(Fraction(float(f)) - x),
                                     int(np.float32(f).view(np.uint32)) & 1))
    return float(best)


@pytest.mark.parametrize("wave", [32, 64])
def test_fast_f32_fma_and_add_are_correctly_rounded(wave: int) -> None:
    rng = np.random.default_rng(7)
    w = wave_state(wave, 7)
    for reg in (3, 4, 5):
        w.v[reg] = _values(rng, wave, "normal")
    w.v[7] = w.v[5]
    snap = w.v.copy()
    for text, fma in (("v_fma_f32 v8, v3, v4, v5", True), ("v_add_f32_e32 v8, v3, v4", False)):
        i = inst(text, wave)
        with np.errstate(all="ignore"):
            bind_valu(i)(w, i)
        a, b, c = (snap[r].view(np.float32) for r in (3, 4, 5))
        got = w.v[8].view(np.float32)
        for k in range(wave):
            want = _exact(a[k], b[k], c[k]) if fma else _exact(a[k], b[k], None)
            if np.isfinite(want) and abs(want) > 2.0 ** -120:
                assert float(got[k]) == want, (text, k)
