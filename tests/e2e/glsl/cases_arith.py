"""Cases: arithmetic of each type and width (arith_{i,u}{8,16,32,64}, arith_f{16,32,64})."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tests.e2e.glsl.refs import WG, N, bits_of, py, tdiv, ulps, wrap
from tests.e2e.glsl_harness import Buf, Case, Expect, Run, floats, zeros

K_INT = 21
K_FLT = 16


def _int_inputs(dtype: Any, which: int) -> Buf:
    """Full-range values, with small ones mixed in so that division and shifts matter.

    Signed: never MIN (abs(MIN) wraps; avoided rather than relied on).
    """
    info = np.iinfo(dtype)
    bits = bits_of(dtype)

    def gen(rng: np.random.Generator) -> np.ndarray:
        if bits == 64:
            big = rng.integers(0, 1 << 64, N, dtype=np.uint64).view(dtype).copy()
        else:
            big = rng.integers(info.min, info.max, N, dtype=np.int64, endpoint=True).astype(dtype)
        lo = max(int(info.min), -40)
        small = rng.integers(lo, 41, N).astype(dtype)
        pick = rng.integers(0, 3, N)
        v = np.where(pick == 0, big, small) if which else np.where(pick == 2, small, big)
        if info.min < 0:
            v = np.where(v == info.min, info.min + 1, v)
        v[:4] = np.array([0, 1, 7, 3], dtype=dtype)  # a few fixed edge values
        return v.astype(dtype)

    return Buf(gen)


def _int_ref(dtype: Any) -> Callable[[Run], dict[tuple[int, int], np.ndarray]]:
    bits = bits_of(dtype)
    signed = np.iinfo(dtype).min < 0
    mn = -(1 << (bits - 1))

    def norm(v: int) -> int:
        v &= (1 << bits) - 1
        return v - (1 << bits) if signed and v >> (bits - 1) else v

    def ref(r: Run) -> dict[tuple[int, int], np.ndarray]:
        rows: list[int] = []
        for x, y in zip(py(r.i((0, 0))), py(r.i((0, 1))), strict=True):
            s = y & (bits - 1)
            if signed:
                div = 0 if y == 0 or (x == mn and y == -1) else tdiv(x, y)
                rem = x % y if x >= 0 and y > 0 else 0
                cl, ab, c2 = min(max(x, -20), 20), abs(x), x * -3
                sg = (x > 0) - (x < 0)
            else:
                div = 0 if y == 0 else x // y
                rem = 0 if y == 0 else x % y
                cl, ab, c2 = min(max(x, 10), 100), x * 3 + 7, x * 5
                sg = (x >> 1) + (x & 1)
            cmp = ((x < y) | (x <= y) << 1 | (x == y) << 2 | (x != y) << 3 | (x > y) << 4
                   | (x >= y) << 5)
            t = norm(norm(norm(x + y) * 3) - x) ^ 0x55
            rows += [x + y, x - y, x * y, div, rem, -x, min(x, y), max(x, y), x << s, x >> s,
                     x & y, x | y, x ^ y, ~x, cmp, cl, ab, tdiv(x, 7), c2, t, sg]
        return {(0, 2): wrap(rows, dtype)}

    return ref


def _int_case(dtype: Any, seed: int) -> Case:
    bits = bits_of(dtype)
    name = f"arith_{'i' if np.iinfo(dtype).min < 0 else 'u'}{bits}"
    return Case(
        name, (N // WG, 1, 1), (WG, 1, 1),
        {(0, 0): _int_inputs(dtype, 0), (0, 1): _int_inputs(dtype, 1),
         (0, 2): zeros(N * K_INT * bits // 8)},
        _int_ref(dtype), seed=seed, category="arithmetic",
        notes="signed %: non-negative operands only (lavapipe: -10 % 7 = -3)")


def _flt_ref(dtype: Any, rtol: float) -> Callable[[Run], dict[tuple[int, int], Expect]]:
    def ref(r: Run) -> dict[tuple[int, int], Expect]:
        x = r.i((0, 0)).astype(np.float64)
        y = r.i((0, 1)).astype(np.float64)
        z = r.i((0, 2)).astype(np.float64)
        cmp = ((x < y) * 1 | (x <= y) * 2 | (x == y) * 4 | (x != y) * 8 | (x > y) * 16
               | (x >= y) * 32)
        d = dtype

        def rd(v: np.ndarray) -> np.ndarray:
            return v.astype(d).astype(np.float64)

        t = rd(rd(rd(rd(x + z) * 2) - y))
        cols = [x + y, x - y, x * y, x / y, -x, np.minimum(x, y), np.maximum(x, y), cmp,
                np.clip(x, -2.5, 3.25), np.abs(x), np.sign(x), x * y + z, x * 0.5 - 1.0,
                1.0 / y, t, np.where(x == y, z, np.where(x < z, x, y))]
        exp = np.stack(cols, axis=1).astype(d)
        # x*y+z may be contracted into an fma (lavapipe does it; AMD has v_fma): the
        # unfused and fused results differ by the rounding of x*y, so it gets an
        # absolute tolerance of one ulp of |x*y|.
        atol = np.zeros_like(exp, dtype=np.float64)
        atol[:, 11] = np.abs(x * y) * float(np.finfo(d).eps)
        m_exact = np.ones(exp.shape, bool)
        m_exact[:, 11] = False
        m_fma = ~m_exact
        return {(0, 3): [
            Expect(exp, mask=m_exact, rtol=rtol, atol=float(np.finfo(d).tiny)),
            Expect(exp, mask=m_fma, atol=float(atol.max()) + float(np.finfo(d).eps) * 64,
                   rtol=rtol, what="x*y+z"),
        ]}

    return ref


def _flt_case(dtype: Any, seed: int) -> Case:
    bits = bits_of(dtype)
    step = 1 / 64 if bits == 16 else None
    hi = 30.0 if bits == 16 else 100.0

    def nonzero(b: Buf) -> Buf:
        def gen(rng: np.random.Generator) -> np.ndarray:
            v = b.make(rng)
            v[np.abs(v.astype(np.float64)) < 0.25] = 0.5
            v[:8] = v[8:16]  # some x == y lanes
            return v
        return Buf(gen)

    a = nonzero(floats(dtype, N, -hi, hi, step))
    # rtol: division and reciprocal may be approximate on AMD (GLSL allows 2.5 ulp)
    rtol = ulps(dtype, 3)
    return Case(
        f"arith_f{bits}", (N // WG, 1, 1), (WG, 1, 1),
        {(0, 0): a, (0, 1): nonzero(floats(dtype, N, -hi, hi, step)),
         (0, 2): floats(dtype, N, -hi, hi, step), (0, 3): zeros(N * K_FLT * bits // 8)},
        _flt_ref(dtype, rtol), seed=seed, category="arithmetic",
        notes="no denormals; a*b+c may be contracted into fma (lavapipe does)")


CASES: list[Case] = [
    *(_int_case(t, 10 + i) for i, t in enumerate(
        (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64))),
    *(_flt_case(t, 20 + i) for i, t in enumerate((np.float16, np.float32, np.float64))),
]
