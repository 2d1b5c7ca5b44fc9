"""Cases: bit operations, conversions, booleans, vectors, extended integer math, and the
double/half forms of GLSL.std.450."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.e2e.glsl.refs import (
    WG,
    N,
    find_lsb,
    find_smsb,
    find_umsb,
    popcount,
    py,
    reverse_bits,
    to_signed,
    wrap,
)
from tests.e2e.glsl_harness import Buf, Case, Expect, Run, floats, ints, zeros

G = (N // WG, 1, 1)
L = (WG, 1, 1)
f16, f32, f64 = np.float16, np.float32, np.float64
M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
R = dict[tuple[int, int], Any]


def round_int(v: int, bits: int) -> int:
    """`v` rounded to `bits` significant bits, to nearest even (int -> float conversion)."""
    a = abs(v)
    n = a.bit_length()
    if n <= bits:
        return v
    shift = n - bits
    q, r = divmod(a, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return (q << shift) * (1 if v >= 0 else -1)


# -- double / half GLSL.std.450 ----------------------------------------------------


def _no_tie(scale: int, lo: int, hi: int, dtype: Any) -> Buf:
    def gen(rng: np.random.Generator) -> np.ndarray:
        return (rng.integers(lo * scale, hi * scale, N) / scale + 1 / (4 * scale)).astype(dtype)

    return Buf(gen)


def _f64_ref(r: Run) -> R:
    x = r.i((0, 0))
    y = r.i((0, 1))
    e = r.i((0, 2)).astype(np.int64)
    tt = np.clip((x + 10) / 20, 0, 1)
    ip = np.trunc(x)
    mant, ex = np.frexp(y)
    det3 = np.linalg.det(np.stack([np.stack([x, np.ones(N), np.full(N, 2.0)], 1),
                                   np.stack([y, np.full(N, 5.0), np.ones(N)], 1),
                                   np.stack([np.full(N, 0.5), -np.ones(N), np.full(N, 4.0)], 1)],
                                  1))
    det2 = 3 * (y + 4) - x
    cols = [np.floor(x), np.ceil(x), np.trunc(x), np.round(x), np.round(x + 0.5 - 1 / 256),
            x - np.floor(x), np.abs(x), np.sign(x), np.minimum(x, y), np.maximum(x, y),
            np.clip(x, -2.5, 3.5), x * 0.75 + y * 0.25, (x >= y) * 1.0, tt * tt * (3 - 2 * tt),
            np.sqrt(y), 1 / np.sqrt(y), x * y + x, x - ip, ip, mant, np.ldexp(x, e),
            x - 3 * np.floor(x / 3), det3, 3 / det2, -x / det2, -1 / det2, (y + 4) / det2, x / y]
    o = np.stack(cols, 1)
    exact = np.zeros(o.shape, bool)
    exact[:, [*range(11), 12, 17, 18, 19, 20]] = True
    approx = ~exact
    approx[np.abs(det2) < 1, 23:27] = False
    p = np.stack([ex, np.trunc(x * 100).astype(np.int64)], 1).astype(np.int32)
    return {(0, 3): [Expect(o, mask=exact), Expect(o, mask=approx, rtol=1e-14, atol=1e-12)],
            (0, 4): p}


def _f64_ref_lavapipe(r: Run) -> R:
    """`_f64_ref` with lavapipe's f64 roundEven defect allowed for.

    On some hosts (seen with Mesa 22.3.6's llvmpipe, LLVM 15, on an AVX2 CPU) lavapipe's
    double `roundEven` rounds negative ties up (-11.5 -> -11), on others it rounds them to
    even as GLSL.std.450 says. Column 4 is a tie in every row; where lavapipe gave the
    round-half-up value it is accepted, any other value must still be the even one.
    radcc is always checked against `_f64_ref`.
    """
    res = dict(_f64_ref(r))
    exact, approx = res[(0, 3)]
    o = exact.value.copy()
    v = r.i((0, 0)) + 0.5 - 1 / 256
    got = r.o((0, 3), np.float64).reshape(o.shape)[:, 4]
    half_up = np.floor(v + 0.5)
    o[:, 4] = np.where(got == half_up, half_up, o[:, 4])
    res[(0, 3)] = [Expect(o, mask=exact.mask), approx]
    return res


def _f16_ref(r: Run) -> R:
    x = r.i((0, 0)).astype(f64)
    y = r.i((0, 1)).astype(f64)

    def h(v: Any) -> np.ndarray:
        return np.asarray(v, f64).astype(f16)

    va = h(np.abs(x)).astype(f64) + np.floor(y)
    vb = h(np.abs(y)).astype(f64) + np.floor(x)
    cols = [np.floor(x), np.ceil(x), np.trunc(x), x - np.floor(x), np.abs(x), np.sign(x),
            np.minimum(x, y), np.maximum(x, y), np.clip(x, -1.5, 2.25), (x >= y) * 1.0,
            x * 0.75 + y * 0.25, np.sqrt(y), 1 / np.sqrt(y), np.exp2(x), np.log2(y), np.sin(x),
            np.cos(x), x * y + 1, np.round(x), h(va).astype(f64) - h(vb).astype(f64)]
    o = h(np.stack(cols, 1))
    exact = np.zeros(o.shape, bool)
    exact[:, [*range(10), 18]] = True
    return {(0, 2): [Expect(o, mask=exact),
                     Expect(o, mask=~exact, rtol=2e-3, atol=2e-3)]}


# -- bit operations -----------------------------------------------------------------


def _bits32_ref(r: Run) -> R:
    rows: list[int] = []
    offbits = r.i((0, 2)).reshape(N, 2)
    for x, y, (off, bits) in zip(py(r.i((0, 0))), py(r.i((0, 1))), offbits.tolist(),
                                 strict=True):
        mask = (1 << bits) - 1
        eu = (x >> off) & mask
        es = eu - (1 << bits) if bits and eu >> (bits - 1) else eu
        ins = (x & ~(mask << off)) | ((y & mask) << off)
        sx = to_signed(x, 32)
        s = y & 31
        v = x ^ (y >> 1) ^ ((x ^ y) >> 7) ^ ((~x & M32) >> 31)
        ss = (sx >> 3) + (to_signed(-sx, 32) >> 30)
        rr = (((x >> 4) & 0xFF) | ((y & 0xF) << 28)) + (((y >> 4) & 0xFF) | ((y & 0xF) << 28))
        rows += [eu, es, ins, reverse_bits(x), popcount(x), find_lsb(x), find_umsb(x),
                 find_smsb(x), reverse_bits(x), ((x << s) | (x >> ((32 - s) & 31))),
                 v, ss, popcount(x) - 100, -1 - 10 + find_umsb(y >> 1) * 100, rr,
                 (x & ~y) | ((x | y) ^ 0xDEADBEEF)]
    return {(0, 3): wrap(rows, np.uint32)}


def _offbits(rng: np.random.Generator) -> np.ndarray:
    off = rng.integers(0, 32, N)
    bits = rng.integers(0, 33 - off)
    return np.stack([off, bits], 1).astype(np.uint32)


def _bits64_ref(r: Run) -> R:
    rows: list[int] = []
    for x, y in zip(py(r.i((0, 0))), py(r.i((0, 1))), strict=True):
        s = y & 63
        sx = to_signed(x, 64)
        lo, hi = x & M32, x >> 32
        lo2 = (to_signed(lo, 32) >> 4) & M32
        rows += [x & y, x | y, x ^ y, ~x, x << s, x >> s, sx >> s,
                 (x << s) | (x >> ((64 - s) & 63)), hi | lo << 32, lo2 | hi << 32,
                 (x << 32) | (y >> 32), (sx >> 63) ^ (x >> 63)]
    return {(0, 2): wrap(rows, np.uint64)}


def _bits_small_ref(r: Run) -> R:
    xs = r.i((0, 0)).reshape(N, 4)
    ys = r.i((0, 1)).reshape(N, 2)
    o: list[int] = []
    p: list[int] = []
    q: list[int] = []
    for (x0, x1, x2, x3), (y0, y1) in zip(xs.tolist(), ys.tolist(), strict=True):
        o += [x0 & x1, x0 | x2, x1 ^ x3, ~x2, x0 << (x3 & 7), x0 >> (x3 & 7),
              to_signed(x1, 8) >> (x2 & 7), (x2 << 3) | (x2 >> 5)]
        p += [y0 & y1, y0 ^ ~y1, y0 << (y1 & 15), to_signed(y1, 16) >> (y0 & 15),
              x2 | x3 << 8, (y0 >> 8) | (y1 & 0xFF)]
        px = x0 | x1 << 8 | x2 << 16 | x3 << 24
        py_ = y0 | y1 << 16
        w = [(py_ >> (8 * j)) & 0xFF for j in range(4)]
        q += [px, y1 | y0 << 16, w[0] + w[1] * 3 + w[2] * 5 + w[3] * 7 + (px >> 16) * 11]
    return {(0, 2): wrap(o, np.uint8), (0, 3): wrap(p, np.uint16), (0, 4): wrap(q, np.uint32)}


# -- conversions --------------------------------------------------------------------


def _cvt_fi_ref(r: Run) -> R:
    x = r.i((0, 0))
    y = r.i((0, 1))
    m = py(r.i((0, 2)))
    q = py(r.i((0, 3)))
    z = r.i((0, 4))
    ax = np.abs(x)
    oi = np.stack([
        np.trunc(x), np.trunc(ax * f32(2)), np.trunc(y), np.trunc(np.abs(y)),
        np.trunc(y * 1e-9), np.trunc(np.abs(y) * 1e-10), np.trunc(z),
        np.trunc(np.abs(z) * f16(2)), np.trunc(z * f16(1 / 256)), np.trunc(ax * f32(1e-7)),
        np.trunc(x * f32(1e9)), np.trunc(ax).astype(f64) * 3], 1)
    oi_int = np.array([int(v) for v in oi.ravel()], np.int64)
    of = []
    for mi, qi in zip(m, q, strict=True):
        mu = mi & M32
        qu = qi & M64
        of += [round_int(mi, 24), round_int(mu, 24), mi, mu, round_int(qi, 53),
               round_int(qu, 53), round_int(qi, 24), round_int(qu, 24),
               round_int(to_signed(mi, 16), 11), (mi & 0xFFFF) >> 5, to_signed(mi, 8), mi & 0xFF]
    return {(0, 5): oi_int, (0, 6): np.array([float(v) for v in of], f64)}


def _cvt_w_ref(r: Run) -> R:
    x = py(r.i((0, 0)))
    y = py(r.i((0, 1)))
    z = py(r.i((0, 2)))
    v = r.i((0, 3))
    w = r.i((0, 4))
    o: list[int] = []
    p: list[int] = []
    for a, b, c in zip(x, y, z, strict=True):
        o += [a, a & 0xFF, b, b & 0xFFFF, to_signed(c, 8), c & 0xFFFF, to_signed(c, 32),
              c & M32, a, a & 0xFFFF, to_signed(b, 8), b & M32, (a * 3) & 0xFF,
              to_signed(b + 40000, 16)]
        p += [b, c >> 8, a + 200, -a]
    qh = np.stack([v, v * 0.5], 1).astype(f16)
    rr = np.stack([w.astype(f32), v, (v.astype(f64) + w).astype(f32)], 1)
    return {(0, 5): wrap(o, np.int64), (0, 6): wrap(p, np.uint8), (0, 7): qh, (0, 8): rr}


def _exact_halves(lo: float, hi: float, dtype: Any, min_abs: float = 1.0) -> Buf:
    def gen(rng: np.random.Generator) -> np.ndarray:
        v = rng.uniform(lo, hi, N).astype(f16).astype(f64)
        v[np.abs(v) < min_abs] = 1.5
        return v.astype(dtype)

    return Buf(gen)


def _exact_floats(rng: np.random.Generator) -> np.ndarray:
    return (rng.uniform(-1e4, 1e4, N) * np.exp2(rng.integers(-20, 20, N))).astype(f32).astype(f64)


def _normal_float_bits(rng: np.random.Generator) -> np.ndarray:
    u = rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)
    exp = (u >> 23) & 0xFF
    bad = (exp == 0) | (exp == 0xFF)
    return np.where(bad, u ^ np.uint32(0x40000000), u).astype(np.uint32)


def _bitcast_ref(r: Run) -> R:
    u = r.i((0, 0))
    x = r.i((0, 1))
    y = r.i((0, 2))
    xb = x.view(np.uint32).astype(np.uint64)
    hx = x.astype(f16).view(np.uint16)
    hneg = (-x).astype(f16).view(np.uint16)
    hv = (u & np.uint32(0x7BFF7BFF))
    swapped = ((hv >> 16) | (hv << 16)).astype(np.uint32)
    low = (u & np.uint32(0x3BFF)).astype(np.uint16)
    lowf = low.view(f16).astype(f64)
    o = np.stack([xb, (x * f32(2)).view(np.uint32), hx.view(np.int16).astype(np.int64),
                  hneg, swapped, np.trunc(lowf * 4)], 1)
    p = np.stack([u.view(f32), (u ^ np.uint32(0x80000000)).view(f32), lowf.astype(f32)], 1)
    sh = (u.astype(np.uint64) << np.uint64(30))
    normal = (sh >> np.uint64(52)) & np.uint64(0x7FF) != 0
    dbl = sh + (np.uint64(1) << np.uint64(52))
    q = np.stack([y.view(np.uint64), (-y).view(np.uint64), dbl], 1)
    qm = np.ones(q.shape, bool)
    qm[:, 2] = normal
    return {(0, 3): wrap(o.ravel(), np.uint32), (0, 4): p,
            (0, 5): Expect(q, mask=qm)}


def _bool_in(rng: np.random.Generator) -> np.ndarray:
    v = rng.integers(-8, 9, (N, 4))
    v[:, 3] = rng.integers(-200, 200, N)
    return v.astype(np.int32)


def _bool_ref(r: Run) -> R:
    v = r.i((0, 0)).reshape(N, 4).astype(np.int64)
    fl = r.i((0, 1)) != 0
    x, y, z, w = v.T
    p0, p1, p2 = x < y, z == 0, w > 100
    lt = v < v[:, [1, 2, 3, 0]]
    eq = (v & 3) == 1
    ge = v >= 0
    b = lambda c: c.astype(np.int64)  # noqa: E731
    sel = np.where(lt, [10, 20, 30, 40], [1, 2, 3, 4]).sum(1)
    bi = b(lt) + b(eq) * 2
    sc1 = p0 & p1
    calls = b(p0) + b(~sc1)
    sc = sc1 | fl
    o = np.stack([
        b(p0) + 2 * b(p1) + 4 * b(p2) + 8 * b(fl),
        b(p0 & p2) | b(p0 | p1) << 1 | b(p0 ^ fl) << 2 | b(~p2) << 3,
        b(lt.any(1)) | b(lt.all(1)) << 1 | b(eq.any(1)) << 2 | b(ge.all(1)) << 3
        | b((~ge).any(1)) << 4 | b((v != 7).all(1)) << 5,
        sel, b(fl) * -5 + b(p0), bi[:, 0] | bi[:, 1] << 2 | bi[:, 2] << 4 | bi[:, 3] << 6,
        b(sc), calls, b(fl == p0) + b(fl != p1) * 2,
        b(x != 0) + b(y != 0) * 2 + b((z & 1) != 0) * 4,
        np.where(p1, 77, np.where(p2, w, 5)), np.ones(N, np.int64)], 1)
    p = np.stack([p0 * 1.5 + fl, p2 - 0.25], 1).astype(f32)
    return {(0, 2): wrap(o.ravel(), np.uint32), (0, 3): p}


def _vec_ref(r: Run) -> R:
    x = r.i((0, 0)).reshape(N, 4).astype(np.int64)
    u = r.i((0, 1)).reshape(N, 4).astype(np.int64)
    f = r.i((0, 2)).reshape(N, 4).astype(f64)
    rows_o: list[list[int]] = []
    rows_p: list[list[int]] = []
    for xi, ui in zip(x.tolist(), u.tolist(), strict=True):
        wzyx = xi[::-1]
        o0 = [a + b * 3 - 7 for a, b in zip(xi, wzyx, strict=True)]
        from tests.e2e.glsl.refs import tdiv
        o1 = [tdiv(a, d) + abs(a) % m for a, d, m in zip(xi, (3, -5, 7, 1), (1, 2, 4, 8),
                                                          strict=True)]
        t = list(xi)
        t[1], t[3] = xi[0] * 2, xi[2] * 2
        t[ui[0] & 3] = 99
        t[2] += 1
        t[0] += 2
        yzwx = xi[1:] + xi[:1]
        le = [int(a <= b) for a, b in zip(xi, yzwx, strict=True)]
        base = [xi[0], xi[1], to_signed(ui[2], 32), to_signed(ui[3], 32)]
        o3 = [b * c + xi[ui[1] & 3] for b, c in zip(base, le, strict=True)]
        rows_o += [o0, o1, t, o3]
        p0 = [a * 5 + (a >> 3) - (b & M32) for a, b in zip(ui, xi, strict=True)]
        p1 = [a // d + a % 7 for a, d in zip(ui, (3, 10, 1000, 65537), strict=True)]
        p2 = [(ui[0] & ui[2]), (ui[1] & ui[3]), ui[1] | 1, ui[2] | 1]
        rows_p += [p0, p1, [v ^ 0xFF00FF00 for v in p2]]
    q0 = f * 2 + f[:, [1, 2, 3, 0]] * f - [1, 2, 3, 4]
    g = f.copy()
    g[:, 2:] = -f[:, :2]
    g[np.arange(N), u[:, 2] & 3] = (f * f[:, ::-1]).sum(1)
    q2 = np.concatenate([f[:, :2] * 0.5, x[:, 2:].astype(f64)], 1) / [2, 4, 8, 16]
    q = np.stack([q0, g, q2], 1).astype(f32)
    return {(0, 3): wrap([v for row in rows_o for v in row], np.int32),
            (0, 4): wrap([v for row in rows_p for v in row], np.uint32),
            (0, 5): Expect(q, rtol=1e-6, atol=1e-5)}


def _ext_ref(r: Run) -> R:
    a = r.i((0, 0)).reshape(N, 2)
    rows: list[int] = []
    for x, y in a.tolist():
        p = x * y
        sp = to_signed(x, 32) * to_signed(y, 32)
        q = y * M32
        rows += [p >> 32, p, sp >> 32, sp, x + y, (x + y) >> 32, x - y, int(x < y),
                 (p >> 32) ^ (q >> 32), (p & M32) + (q & M32), 2 * x + y + 1,
                 ((2 * x) >> 32) * 2 + ((y + 1) >> 32)]
    return {(0, 1): wrap(rows, np.uint32)}


def _storage_ref(r: Run) -> R:
    x = py(r.i((0, 0)))
    y = py(r.i((0, 1)))
    z = py(r.i((0, 2)))
    w = py(r.i((0, 3)))
    h = r.i((0, 4)).astype(f64)
    o: list[int] = []
    p: list[int] = []
    rr: list[int] = []
    for i in range(N):
        o += [x[i] * z[i] + 3, ((y[i] + w[i]) & M32) >> 1]
        p += [y[i] * 3 - x[i], w[i] >> 4]
        rr += [x[i] + y[i] + z[i] + w[i], int(np.trunc(h[i] * 4)), x[i ^ 1] - y[(i + 5) & 255]]
    return {(0, 5): wrap(o, np.uint16), (0, 6): wrap(p, np.int8),
            (0, 7): (h * 0.5).astype(f16), (0, 8): wrap(rr, np.int32)}


CASES: list[Case] = [
    Case("std450_f64", G, L,
         {(0, 0): _no_tie(64, -50, 50, f64), (0, 1): floats(f64, N, 0.01, 1000),
          (0, 2): ints(np.int32, N, -20, 20), (0, 3): zeros(N * 28 * 8), (0, 4): zeros(N * 8)},
         _f64_ref, seed=40, category="glsl.std.450", lavapipe_ref=_f64_ref_lavapipe,
         notes="lavapipe's f64 roundEven rounds negative ties up on some hosts: "
               "lavapipe is checked against either rounding there"),
    Case("std450_f16", G, L,
         {(0, 0): _no_tie(32, -4, 4, f16), (0, 1): _exact_halves(0.25, 16, f16, 0.25),
          (0, 2): zeros(N * 40)},
         _f16_ref, seed=41, category="glsl.std.450"),
    Case("bitops_32", G, L,
         {(0, 0): ints(np.uint32, N), (0, 1): ints(np.uint32, N), (0, 2): Buf(_offbits),
          (0, 3): zeros(N * 64)},
         _bits32_ref, seed=42, category="bits and conversions"),
    Case("bitops_64", G, L,
         {(0, 0): ints(np.uint64, N), (0, 1): ints(np.uint64, N), (0, 2): zeros(N * 96)},
         _bits64_ref, seed=43, category="bits and conversions"),
    Case("bitops_small", G, L,
         {(0, 0): ints(np.uint8, (N, 4)), (0, 1): ints(np.uint16, (N, 2)),
          (0, 2): zeros(N * 8), (0, 3): zeros(N * 12), (0, 4): zeros(N * 12)},
         _bits_small_ref, seed=44, category="bits and conversions"),
    Case("convert_float_int", G, L,
         {(0, 0): floats(f32, N, -2e9, 2e9), (0, 1): floats(f64, N, -2e18, 2e18),
          (0, 2): ints(np.int32, N), (0, 3): ints(np.int64, N),
          (0, 4): floats(f16, N, -30000, 30000), (0, 5): zeros(N * 96), (0, 6): zeros(N * 96)},
         _cvt_fi_ref, seed=45, category="bits and conversions",
         notes="float -> int only in range; int -> float correctly rounded (exact compare)"),
    Case("convert_widths", G, L,
         {(0, 0): ints(np.int8, N), (0, 1): ints(np.int16, N), (0, 2): ints(np.int64, N),
          (0, 3): _exact_halves(-1000, 1000, f32), (0, 4): Buf(_exact_floats),
          (0, 5): zeros(N * 14 * 8), (0, 6): zeros(N * 4), (0, 7): zeros(N * 4),
          (0, 8): zeros(N * 12)},
         _cvt_w_ref, seed=46, category="bits and conversions",
         notes="narrowing float conversions only of exact values (no rounding-mode compare)"),
    Case("convert_bitcast", G, L,
         {(0, 0): Buf(_normal_float_bits), (0, 1): _exact_halves(-100, 100, f32),
          (0, 2): floats(f64, N, -1e300, 1e300), (0, 3): zeros(N * 24), (0, 4): zeros(N * 12),
          (0, 5): zeros(N * 24)},
         _bitcast_ref, seed=47, category="bits and conversions",
         notes="no NaN or denormal bit patterns through float registers"),
    Case("convert_bool", G, L,
         {(0, 0): Buf(_bool_in), (0, 1): ints(np.uint32, N, 0, 3), (0, 2): zeros(N * 48),
          (0, 3): zeros(N * 8)},
         _bool_ref, seed=48, category="arithmetic"),
    Case("arith_vectors", G, L,
         {(0, 0): ints(np.int32, (N, 4), -1000000, 1000000), (0, 1): ints(np.uint32, (N, 4)),
          (0, 2): floats(f32, (N, 4), -10, 10), (0, 3): zeros(N * 64), (0, 4): zeros(N * 48),
          (0, 5): zeros(N * 48)},
         _vec_ref, seed=49, category="arithmetic",
         notes="signed % only of abs(); float results allow fma contraction"),
    Case("int_extended", G, L,
         {(0, 0): ints(np.uint32, (N, 2)), (0, 1): zeros(N * 48)},
         _ext_ref, seed=50, category="arithmetic"),
    Case("arith_storage_only", G, L,
         {(0, 0): ints(np.uint8, N), (0, 1): ints(np.int8, N), (0, 2): ints(np.uint16, N),
          (0, 3): ints(np.int16, N), (0, 4): _exact_halves(-100, 100, f16),
          (0, 5): zeros(N * 4), (0, 6): zeros(N * 2), (0, 7): zeros(N * 2),
          (0, 8): zeros(N * 12)},
         _storage_ref, seed=51, category="arithmetic"),
]
