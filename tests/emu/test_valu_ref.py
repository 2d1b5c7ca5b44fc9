"""Independent reference helpers for the VALU tests (no test functions here).

Exact values are Python Fractions; rounding to f16/f32/f64 picks among the
representable neighbours by exact comparison (not the library's technique).
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np

from radcc.emu.valu import DEFAULT_MODE, ValuMods, execute_valu

FT = {16: np.float16, 32: np.float32, 64: np.float64}
UT = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def f2b(x: float, bits: int) -> int:
    return int(np.array(x, FT[bits]).view(UT[bits]))


def b2f(b: int, bits: int) -> float:
    return float(np.array(b, UT[bits]).view(FT[bits]))


def f32b(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def is_nan_b(b: int, bits: int) -> bool:
    return bool(np.isnan(b2f(b, bits)))


def neighbours(b: int, bits: int) -> list[int]:
    """Bits of b and its two finite-or-inf neighbours on the number line."""
    f = np.array(b, UT[bits]).view(FT[bits])
    t = FT[bits]
    out = [b]
    for d in (t(np.inf), t(-np.inf)):
        n = np.nextafter(f, d)
        out.append(int(n.view(UT[bits])))
    return out


def ref_round(x: Fraction, bits: int, mode: int = 0) -> int:
    """Bits of the exact value x rounded to binary`bits` in round mode
    (0 RNE, 1 +inf, 2 -inf, 3 toward zero); finite results only."""
    try:
        approx = float(x)
    except OverflowError:
        approx = float("inf") if x > 0 else float("-inf")
    with np.errstate(all="ignore"):
        start = f2b(np.array(approx, FT[bits]).item(), bits)
        cands: set[int] = set()
        for b in neighbours(start, bits):
            cands.update(neighbours(b, bits))
    # infinities count as 2**(emax+1): IEEE rounds as if the exponent were unbounded
    big = Fraction(2) ** (int(np.finfo(FT[bits]).maxexp))
    vals = []
    for b in cands:
        v = b2f(b, bits)
        if v == 0 and (math.copysign(1.0, v) < 0) != (x < 0):
            continue  # the zero of x's sign
        if np.isfinite(v):
            vals.append((Fraction(v), b))
        elif not np.isnan(v):
            vals.append((big if v > 0 else -big, b))
    if abs(x) >= big:
        fmax = float(np.finfo(FT[bits]).max)
        to_inf = mode == 0 or (mode == 1 and x > 0) or (mode == 2 and x < 0)
        mag = np.inf if to_inf else fmax
        return f2b(mag if x > 0 else -mag, bits)
    vals.sort()
    below = [vb for vb in vals if vb[0] <= x]
    above = [vb for vb in vals if vb[0] >= x]
    lo, hi = below[-1], above[0]
    if lo[0] == x:
        b = lo[1]
        if x == 0 and approx == 0:
            pass
        return b
    if mode == 1:
        return hi[1]
    if mode == 2:
        return lo[1]
    if mode == 3:
        return lo[1] if x > 0 else hi[1]
    dl, dh = x - lo[0], hi[0] - x
    if dl < dh:
        return lo[1]
    if dh < dl:
        return hi[1]
    return lo[1] if lo[1] % 2 == 0 else hi[1]


def run(
    name: str,
    *srcs,
    mods: ValuMods | None = None,
    mode: int = DEFAULT_MODE,
    lane_masks: dict[str, int] | None = None,
    exec_mask=None,
):
    """execute_valu on scalars or lists (one lane per element)."""
    arrs = []
    n = 1
    for s in srcs:
        a = np.atleast_1d(np.array(s, dtype=np.uint64)) if not isinstance(s, np.ndarray) else s
        arrs.append(a.astype(np.uint64))
        n = max(n, a.shape[-1])
    arrs = [np.broadcast_to(a, a.shape[:-1] + (n,)).copy() if a.shape[-1] != n else a for a in arrs]
    em = np.ones(n, bool) if exec_mask is None else exec_mask
    return execute_valu(
        name, arrs, mods or ValuMods(), wave=n, exec_mask=em, mode=mode, lane_masks=lane_masks
    )


def d(name: str, *srcs, **kw) -> list[int]:
    return [int(x) for x in run(name, *srcs, **kw).d]


def special_bits(bits: int) -> list[int]:
    """Zeros, infinities, NaNs (quiet and signaling), denormals, extremes, ones."""
    if bits == 32:
        return [
            0,
            0x80000000,
            0x7F800000,
            0xFF800000,
            0x7FC00000,
            0xFFC00000,
            0x7FA00000,
            0x00000001,
            0x807FFFFF,
            0x00400000,
            0x7F7FFFFF,
            0xFF7FFFFF,
            0x00800000,
            0x3F800000,
            0xBF800000,
            0x3F000000,
            0x40490FDB,
        ]
    if bits == 16:
        return [
            0,
            0x8000,
            0x7C00,
            0xFC00,
            0x7E00,
            0xFE00,
            0x7D00,
            0x0001,
            0x83FF,
            0x7BFF,
            0xFBFF,
            0x0400,
            0x3C00,
            0xBC00,
            0x3800,
            0x4248,
        ]
    return [
        0,
        1 << 63,
        0x7FF0000000000000,
        0xFFF0000000000000,
        0x7FF8000000000000,
        0x7FF4000000000000,
        1,
        0x800FFFFFFFFFFFFF,
        0x7FEFFFFFFFFFFFFF,
        0x0010000000000000,
        0x3FF0000000000000,
        0xBFF0000000000000,
        0x400921FB54442D18,
    ]


def random_float_bits(rng: np.random.Generator, bits: int, n: int) -> list[int]:
    """Random finite floats over a useful exponent range plus specials."""
    t = FT[bits]
    mags = rng.uniform(-8, 8, n) if bits == 16 else rng.uniform(-30, 30, n)
    v = (rng.standard_normal(n) * np.exp2(mags)).astype(t)
    out = [int(x) for x in v.view(UT[bits])]
    return out + special_bits(bits)
