"""Cases: the GLSL.std.450 extended instructions (std450_*), several per shader.

Tolerances follow GLSL 4.60's precision table loosely (AMD's transcendental
units are about 1 ulp; lavapipe uses LLVM's libm-like expansions): exact where
the result is exact (rounding, min/max, frexp/ldexp, unpacking), a few ulp for
sqrt/inversesqrt/division, 1e-5..1e-3 for transcendentals.

Not reachable from GLSL compute shaders (so not here): InterpolateAt*
(fragment only), NMin/NMax/NClamp (no GLSL spelling), IMix (does not exist).
Modf and FrexpStruct are what glslang emits for modf()/frexp().
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.e2e.glsl.refs import WG, N, wrap
from tests.e2e.glsl_harness import Buf, Case, Expect, Run, floats, ints, zeros

G = (N // WG, 1, 1)
L = (WG, 1, 1)
f32 = np.float32


def _f(v: Any) -> np.ndarray:
    return np.asarray(v, np.float64).astype(f32)


# -- round ------------------------------------------------------------------------


def _round_ref(r: Run) -> dict[tuple[int, int], Any]:
    x = r.i((0, 0)).astype(np.float64)
    t = r.i((0, 1)).astype(np.float64)
    n = r.i((0, 2)).astype(np.int64)
    v = (np.floor(np.stack([x, t, -x, -t], 1)) + np.ceil(np.stack([t, x, -t, -x], 1)))
    cols = [np.round(x), np.round(x), np.round(t), np.trunc(x), np.floor(x), np.ceil(x),
            x - np.floor(x), np.abs(x), np.sign(x), x - 3 * np.floor(x / 3), np.trunc(t),
            np.floor(t), np.ceil(t), t - np.floor(t), np.zeros_like(x),
            v[:, 0] + 2 * v[:, 1] + 4 * v[:, 2] + 8 * v[:, 3]]
    o = _f(np.stack(cols, 1))
    mask = np.ones(o.shape, bool)
    mask[:, 9] = False
    s = np.sign(np.stack([n, -n], 1)) * np.abs(np.stack([n, np.full_like(n, 3)], 1))
    p = np.stack([np.abs(n), np.sign(n), s[:, 0], s[:, 1]], 1).astype(np.int32)
    return {(0, 3): [Expect(o, mask=mask), Expect(o, mask=~mask, atol=1e-5, what="mod")],
            (0, 4): p}


def _no_tie(rng: np.random.Generator) -> np.ndarray:
    return (rng.integers(-50 * 64, 50 * 64, N) / 64 + 1 / 256).astype(f32)


def _ties(rng: np.random.Generator) -> np.ndarray:
    return (rng.integers(-20, 20, N) + 0.5).astype(f32)


# -- exp --------------------------------------------------------------------------


def _exp_ref(r: Run) -> dict[tuple[int, int], Any]:
    x = r.i((0, 0)).astype(np.float64)
    y = r.i((0, 1)).astype(np.float64)
    v = np.stack([x, _f(x + 1), _f(x * 2), np.full_like(x, 0.5)], 1)
    e = np.exp2(y)[:, None] * np.sqrt(v) + np.log2(v)
    cols = [np.power(x, y), np.exp(y), np.log(x), np.exp2(y), np.log2(x), np.sqrt(x),
            1 / np.sqrt(x), *e.T, np.zeros_like(x)]
    o = _f(np.stack(cols, 1))
    m = np.ones(o.shape, bool)
    m[:, 11] = False
    return {(0, 2): [Expect(o, mask=m, rtol=2e-5, atol=2e-6),
                     Expect(o, mask=~m, atol=5e-4, what="pow(2,y)-exp(y ln 2)")]}


# -- trig -------------------------------------------------------------------------


def _trig_ref(r: Run) -> dict[tuple[int, int], Any]:
    x = r.i((0, 0)).astype(np.float64)
    s = r.i((0, 1)).astype(np.float64)
    p = r.i((0, 2)).astype(np.float64)
    px, py_ = p[:, 0], p[:, 1]
    xh = _f(x * 0.5).astype(np.float64)
    xq = _f(x * 0.25).astype(np.float64)
    v = np.sin(np.stack([x, xh, -x], 1)) + np.cos(np.stack([-x, xq, x], 1))
    cols = [np.sin(x), np.cos(x), np.tan(_f(x * 0.4)), np.arcsin(s), np.arccos(s),
            np.arctan(_f(py_ / px)), np.arctan2(py_, px), np.radians(_f(x * 57)),
            np.degrees(x), *v.T]
    o = _f(np.stack(cols, 1))
    m = np.zeros(o.shape, bool)
    m[:, 7:9] = True
    return {(0, 3): [Expect(o, mask=~m, atol=1e-3, rtol=1e-3),
                     Expect(o, mask=m, rtol=4e-6, what="radians/degrees")]}


def _hyp_ref(r: Run) -> dict[tuple[int, int], Any]:
    x = r.i((0, 0)).astype(np.float64)
    t = r.i((0, 1)).astype(np.float64)
    cols = [np.sinh(x), np.cosh(x), np.tanh(x), np.arcsinh(x), np.arccosh(_f(np.abs(x) + 1)),
            np.arctanh(t), np.tanh(x) + np.sinh(t), np.tanh(t) + np.sinh(-t)]
    return {(0, 2): Expect(_f(np.stack(cols, 1)), atol=1e-4, rtol=1e-4)}


# -- min/max/mix ------------------------------------------------------------------


def _minmax_ref(r: Run) -> dict[tuple[int, int], Any]:
    f = r.i((0, 0)).reshape(N, 4).astype(np.float64)
    u = r.i((0, 1)).reshape(N, 4).astype(np.int64)
    s = r.i((0, 2)).reshape(N, 4).astype(np.int64)
    x, y, z, w = f.T
    a = _f(z * 0.1 + 0.5).astype(np.float64)
    tt = np.clip((z + 3) / 7, 0, 1)
    t2 = np.clip(y / 6 + 1 / 6, 0, 1)
    m = np.clip(f, -1, 2) + (f >= 0.5)
    sel = np.array([x > 0, np.ones(N, bool), np.zeros(N, bool), y > w]).T
    mixed = np.where(sel, f[:, ::-1], f)
    cols = [np.minimum(x, y), np.maximum(x, y), np.clip(x, y, _f(y + 2)), x * (1 - a) + y * a,
            (x >= y) * 1.0, tt * tt * (3 - 2 * tt), x * y + z, np.where(z > w, y, x),
            m.sum(1), mixed[:, 0], t2 * t2 * (3 - 2 * t2),
            np.maximum(np.minimum(x, w), np.minimum(y, z))]
    o = _f(np.stack(cols, 1))
    ux, uy, uz, uw = u.T
    lo = ux >> 1
    mm = (np.minimum(u[:, :2], u[:, 2:]) ^ np.maximum(u[:, 1::-1], u[:, :1:-1])).sum(1)
    p = np.stack([np.minimum(ux, uy), np.maximum(ux, uy), np.clip(uz, 1000, 3000000000),
                  np.clip(uw, lo, lo + 12345), np.where(uz < uw, uy, ux), mm], 1)
    sx, sy, sz, sw = s.T
    slo = sx >> 1
    nn = (np.minimum(s[:, :2], s[:, 2:]) ^ np.maximum(s[:, 1::-1], s[:, :1:-1])).sum(1)
    q = np.stack([np.minimum(sx, sy), np.maximum(sx, sy), np.clip(sz, -1000, 1000),
                  np.clip(sw, slo, slo + 777), np.where(sz < sw, sy, sx), nn], 1)
    return {(0, 3): Expect(o, atol=1e-5, rtol=1e-6), (0, 4): wrap(p.ravel(), np.uint32),
            (0, 5): wrap(q.ravel(), np.int32)}


# -- frexp/modf/ldexp -------------------------------------------------------------


def _frexp_ref(r: Run) -> dict[tuple[int, int], Any]:
    x = r.i((0, 0)).astype(np.float64)
    n = r.i((0, 1)).astype(np.int64)
    fr, ip = np.modf(x)
    mant, ex = np.frexp(x.astype(f32))
    x3 = _f(x * 3).astype(np.float64)
    fr2, ip2 = np.modf(np.stack([x3, -x], 1))
    m2, e2 = np.frexp(_f(x * 1000))
    o = np.stack([fr, ip, mant, np.ldexp(x, n),
                  fr2[:, 0] + fr2[:, 1] + ip2[:, 0] * 2 + ip2[:, 1] * 4, m2], 1)
    p = np.stack([ex, e2, np.zeros(N, np.int64)], 1).astype(np.int32)
    m = np.ones(o.shape, bool)
    m[:, 4] = False
    return {(0, 2): [Expect(_f(o), mask=m), Expect(_f(o), mask=~m, atol=1e-4, rtol=2e-6, what="sum")],
            (0, 3): p}


def _frexp_in(rng: np.random.Generator) -> np.ndarray:
    v = rng.uniform(-100, 100, N) * np.exp2(rng.integers(-10, 10, N))
    v[np.abs(v) < 1e-3] = 0.75
    v[:4] = [0.5, -1.0, 3.0, 1024.0]
    return v.astype(f32)


# -- pack/unpack ------------------------------------------------------------------


def _pack_ref(r: Run) -> dict[tuple[int, int], Any]:
    v = r.i((0, 0)).reshape(N, 4).astype(np.float64)
    h = r.i((0, 1)).reshape(N, 2)
    w = r.i((0, 2)).reshape(N, 2).astype(np.uint64)
    d = r.i((0, 3))

    def pack(vals: np.ndarray, lo: float, scale: float, bits: int) -> tuple[np.ndarray, np.ndarray]:
        c = np.clip(vals, lo, 1.0) * scale
        tie = np.abs(c - np.floor(c) - 0.5) < 1e-2
        q = np.round(c).astype(np.int64) & ((1 << bits) - 1)
        word = np.zeros(N, np.uint64)
        for j in range(vals.shape[1]):
            word |= q[:, j].astype(np.uint64) << np.uint64(bits * j)
        return word, ~tie.any(1)

    s48, m1 = pack(v, -1, 127, 8)
    u48, m2 = pack(v, 0, 255, 8)
    s216, m3 = pack(v[:, :2], -1, 32767, 16)
    u216, m4 = pack(v[:, 2:], 0, 65535, 16)
    hb = h.astype(np.float16).view(np.uint16).astype(np.uint64)
    half = hb[:, 0] | hb[:, 1] << np.uint64(16)
    db = d.view(np.uint64)
    lo16 = (w[:, 0] & 0xFFFF).astype(np.uint16)
    hi16 = (w[:, 0] >> 16).astype(np.uint16)
    rt = lo16.astype(np.uint64) | hi16.astype(np.uint64) << np.uint64(16)
    nan_h = ((lo16 & 0x7C00) == 0x7C00) & ((lo16 & 0x3FF) != 0)
    nan_h |= ((hi16 & 0x7C00) == 0x7C00) & ((hi16 & 0x3FF) != 0)
    p = np.stack([s48, u48, s216, u216, half, db & 0xFFFFFFFF, db >> np.uint64(32), rt], 1)
    pm = np.stack([m1, m2, m3, m4, *[np.ones(N, bool)] * 3, ~nan_h], 1)

    def bytes_of(word: np.ndarray, bits: int, n: int, signed: bool) -> np.ndarray:
        out = np.stack([(word >> np.uint64(bits * j)) & np.uint64((1 << bits) - 1)
                        for j in range(n)], 1).astype(np.int64)
        if signed:
            out = np.where(out >= 1 << (bits - 1), out - (1 << bits), out)
        return out

    s8 = np.maximum(bytes_of(w[:, 0], 8, 4, True) / 127, -1)
    u8 = bytes_of(w[:, 1], 8, 4, False) / 255
    s16 = np.maximum(bytes_of(w[:, 0], 16, 2, True) / 32767, -1)
    u16 = bytes_of(w[:, 1], 16, 2, False) / 65535
    hm = (w[:, 1] & 0x7BFF7BFF).astype(np.uint32).view(np.uint16).reshape(N, 2)
    hh = hm.view(np.float16).astype(np.float64)
    o = np.concatenate([s8, u8, s16, u16, hh], 1)
    q = (w[:, 0] | w[:, 1] << np.uint64(32)).view(np.float64)
    return {(0, 4): Expect(p.astype(np.uint32), mask=pm),
            (0, 5): Expect(_f(o), rtol=2e-7, atol=1e-9), (0, 6): q}


def _exact_halves(rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-1000, 1000, (N, 2)).astype(np.float16).astype(f32)


# -- geometric --------------------------------------------------------------------


def _geo_ref(r: Run) -> dict[tuple[int, int], Any]:
    a = r.i((0, 0)).reshape(N, 4).astype(np.float64)
    b = r.i((0, 1)).reshape(N, 4).astype(np.float64)
    x, y, eta = a[:, :3], b[:, :3], a[:, 3]

    def dot(p: np.ndarray, q: np.ndarray) -> np.ndarray:
        return (p * q).sum(1)

    n = y / np.linalg.norm(y, axis=1)[:, None]
    nref = n[:, [1, 2, 0]]
    dd = dot(nref, y)
    f = np.where((dd < 0)[:, None], x, -x)
    refl = x - 2 * dot(n, x)[:, None] * n
    ix = x / np.linalg.norm(x, axis=1)[:, None]
    ni = dot(n, ix)
    k = 1 - eta * eta * (1 - ni * ni)
    t = np.where((k < 0)[:, None], 0.0,
                 eta[:, None] * ix - (eta * ni + np.sqrt(np.maximum(k, 0)))[:, None] * n)
    cols = [np.linalg.norm(x, axis=1), np.linalg.norm(x - y, axis=1), dot(x, y),
            *np.cross(x, y).T, *n.T, *f.T, *refl.T, *t.T,
            np.hypot(x[:, 0], y[:, 1]) + np.abs(x[:, 2]), dot(x, y) + eta]
    o = _f(np.stack(cols, 1))
    m = np.ones(o.shape, bool)
    m[np.abs(dd) < 1e-4, 9:12] = False
    m[np.abs(k) < 1e-3, 15:18] = False
    return {(0, 2): Expect(o, mask=m, atol=2e-5, rtol=1e-5)}


def _vec_away_from_0(lo: float, hi: float, w_lo: float, w_hi: float) -> Buf:
    def gen(rng: np.random.Generator) -> np.ndarray:
        v = rng.uniform(lo, hi, (N, 4))
        small = np.linalg.norm(v[:, :3], axis=1) < 0.3
        v[small, :3] += 1.0
        v[:, 3] = rng.uniform(w_lo, w_hi, N)
        return v.astype(f32)

    return Buf(gen)


# -- matrices ---------------------------------------------------------------------


def _mat_ref(r: Run) -> dict[tuple[int, int], Any]:
    a = r.i((0, 0)).reshape(N, 4, 4).astype(np.float64)  # [n, column, row]
    x = r.i((0, 1)).reshape(N, 4).astype(np.float64)
    mm = a.transpose(0, 2, 1)  # mathematical [n, row, column]

    def stored(m: np.ndarray) -> np.ndarray:  # o[c * rows + r] = m[c][r]
        return m.transpose(0, 2, 1).reshape(N, -1)

    inv = stored(np.linalg.inv(mm))
    inv3 = stored(np.linalg.inv(mm[:, :3, :3]))
    inv2 = stored(np.linalg.inv(mm[:, :2, :2]))
    det = np.stack([np.linalg.det(mm), np.linalg.det(mm[:, :3, :3]),
                    np.linalg.det(mm[:, :2, :2])], 1)
    mv = np.einsum("nrc,nc->nr", mm, x)
    vm = np.einsum("nr,nrc->nc", x, mm)
    pm = mm @ mm.transpose(0, 2, 1)  # m * transpose(m)
    c = np.arange(4)
    pmd = pm[:, c, c] + a[:, (c + 1) & 3, c]  # tm[c][(c+1)&3] = m[(c+1)&3][c]
    opd = x[:, 3 - c] * x[:, 3 - c]
    cmd = a[:, c, c] * x[:, c] * x[:, 3 - c]
    cols3 = a[:, :2, :3]  # r23's columns
    p22 = np.einsum("ncr,ndr->ncd", cols3, cols3).reshape(N, 4)
    o = np.concatenate([inv, inv3, inv2, det, mv, vm, pmd, opd, cmd, p22,
                        np.zeros((N, 8))], 1)
    return {(0, 2): Expect(_f(o), atol=1e-5, rtol=1e-4)}


def _dominant(rng: np.random.Generator) -> np.ndarray:
    m = rng.uniform(-1, 1, (N, 4, 4)) + 4 * np.eye(4)
    return m.astype(f32)


CASES: list[Case] = [
    Case("std450_round", G, L,
         {(0, 0): Buf(_no_tie), (0, 1): Buf(_ties), (0, 2): ints(np.int32, N, -1000, 1000),
          (0, 3): zeros(N * 64), (0, 4): zeros(N * 16)},
         _round_ref, seed=30, category="glsl.std.450",
         notes="round() of exact .5 is implementation-defined: ties only through roundEven"),
    Case("std450_exp", G, L,
         {(0, 0): floats(f32, N, 0.01, 20), (0, 1): floats(f32, N, -4, 4),
          (0, 2): zeros(N * 48)},
         _exp_ref, seed=31, category="glsl.std.450"),
    Case("std450_trig", G, L,
         {(0, 0): floats(f32, N, -3.14159, 3.14159), (0, 1): floats(f32, N, -1, 1),
          (0, 2): floats(f32, (N, 2), -5, 5), (0, 3): zeros(N * 48)},
         _trig_ref, seed=32, category="glsl.std.450"),
    Case("std450_hyperbolic", G, L,
         {(0, 0): floats(f32, N, -4, 4), (0, 1): floats(f32, N, -0.9, 0.9),
          (0, 2): zeros(N * 32)},
         _hyp_ref, seed=33, category="glsl.std.450"),
    Case("std450_minmax", G, L,
         {(0, 0): floats(f32, (N, 4), -5, 5), (0, 1): ints(np.uint32, (N, 4)),
          (0, 2): ints(np.int32, (N, 4)), (0, 3): zeros(N * 48), (0, 4): zeros(N * 24),
          (0, 5): zeros(N * 24)},
         _minmax_ref, seed=34, category="glsl.std.450",
         notes="fma()/mix() compared with tolerances (fused or not)"),
    Case("std450_frexp", G, L,
         {(0, 0): Buf(_frexp_in), (0, 1): ints(np.int32, N, -20, 20), (0, 2): zeros(N * 24),
          (0, 3): zeros(N * 12)},
         _frexp_ref, seed=35, category="glsl.std.450"),
    Case("std450_pack", G, L,
         {(0, 0): floats(f32, (N, 4), -1.2, 1.2), (0, 1): Buf(_exact_halves),
          (0, 2): ints(np.uint32, (N, 2)), (0, 3): floats(np.float64, N, -1e6, 1e6),
          (0, 4): zeros(N * 32), (0, 5): zeros(N * 56), (0, 6): zeros(N * 8)},
         _pack_ref, seed=36, category="glsl.std.450",
         notes="packHalf2x16 only of exact halves (lavapipe: nearest even, AMD: toward 0); "
               "snorm/unorm packing masked near .5 ties"),
    Case("std450_geometric", G, L,
         {(0, 0): _vec_away_from_0(-3, 3, 0.5, 1.5), (0, 1): _vec_away_from_0(-3, 3, 0, 1),
          (0, 2): zeros(N * 80)},
         _geo_ref, seed=37, category="glsl.std.450"),
    Case("std450_matrix", G, L,
         {(0, 0): Buf(_dominant), (0, 1): floats(f32, (N, 4), -2, 2), (0, 2): zeros(N * 256)},
         _mat_ref, seed=38, category="glsl.std.450"),
]
