"""Cases: loops, divergent control flow, switch, returns, function calls, local arrays.

References run the same algorithm per invocation in Python (uint32 wrap-around
made explicit). Every loop stays far below lavapipe's 65,535 iterations per
invocation.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from tests.e2e.glsl.refs import WG, N, py, to_signed, wrap
from tests.e2e.glsl_harness import Buf, Case, Expect, Run, floats, ints, zeros

G = (N // WG, 1, 1)
L = (WG, 1, 1)
M = (1 << 32) - 1
R = dict[tuple[int, int], Any]


def _uniform_select_ref(r: Run) -> R:
    ncols, k = r.pushed("<II")
    a = py(r.i((0, 0)))
    out: list[int] = []
    for i, v in enumerate(a):
        tid = i % WG
        n = ncols // 256
        if n * 256 + 2 * tid < ncols:
            n += 1
        m = ncols + 7 if v < k else k * 3
        s = sum(a[(j * 64 + tid) % 256] for j in range(n))
        out += [n, m, s]
    return {(0, 1): wrap(out, np.uint32)}


def _for_ref(r: Run) -> R:
    (rounds,) = r.pushed("<I")
    out: list[int] = []
    for v in py(r.i((0, 0))):
        n, m = v % 17, (v >> 8) % 9
        acc = sum(j * 31 + k * v for j in range(n) for k in range(m + 1))
        c = 0
        for j in range(8):
            c = (c * 3 + ((v >> (j * 4)) & 15)) & M
        d = v
        j = n
        while j > 0:
            d ^= ((d << 3) & M) | j
            j -= 2
        f0, f1 = 0, 1
        for _ in range(n + 5):
            f0, f1 = f1, (f0 + f1) & M
        u = sum((v >> j) & 1 for j in range(rounds))
        out += [acc, c, d, f0, u]
    return {(0, 1): wrap(out, np.uint32)}


def _while_ref(r: Run) -> R:
    out: list[int] = []
    for v in py(r.i((0, 0))):
        x, steps = v | 1, 0
        while x != 1 and steps < 300:
            x = (3 * x + 1) & M if x & 1 else x >> 1
            steps += 1
        y, digits = v, 0
        while True:
            digits += y % 10
            y //= 10
            if y == 0:
                break
        z, n = v, 0
        while z >= 1000:
            z = z // 3 + (z & 7)
            n += 1
        w = 7
        while w < (v & 63):
            w += 7
        out += [steps, digits, z, n, w]
    return {(0, 1): wrap(out, np.uint32)}


def _break_ref(r: Run) -> R:
    out: list[int] = []
    for v in py(r.i((0, 0))):
        s = 0
        for j in range(40):
            if (j + v) % 3 == 0:
                continue
            if j * j > v % 900:
                break
            s += j
        t, done = 0, False
        for j in range(10):
            if done:
                break
            for k in range(10):
                if k > ((v >> (j + 2)) & 7):
                    break
                t += j * 10 + k
                if t > (v & 1023):
                    done = True
                    break
        u = 0
        for j in range(1, 21):
            if (v >> j) & 1:
                u += j
        out += [s, t, u]
    return {(0, 1): wrap(out, np.uint32)}


def _return_ref(r: Run) -> R:
    def first(v: int, bit: int) -> int:
        return next((j for j in range(32) if (v >> j) & 1 == bit), 99)

    def classify(v: int) -> int:
        if v < 100:
            return 1
        if v & 1 == 0:
            return 2 if v % 3 == 0 else 3
        return 4 if v % 7 == 0 else 5

    old = r.i((0, 1)).view(np.uint32).reshape(N, 4).astype(np.int64)
    out = old.copy()
    for i, v in enumerate(py(r.i((0, 0)))):
        out[i, 0], out[i, 1] = first(v, 1), first(v, 0)
        if v & 3 == 0:
            continue
        out[i, 2] = classify(v >> (v & 15))
        if v % 5 == 0:
            continue
        out[i, 3] = 7
    return {(0, 1): out.astype(np.uint32).ravel()}


def _switch_ref(r: Run) -> R:
    out: list[int] = []
    for v in py(r.i((0, 0))):
        sel = v >> 28
        rr = 0
        if sel == 0:
            rr = 11
        elif sel == 1:
            rr = 10
        elif sel in (-3, -2):
            rr = -100
        elif sel == 5:
            rr = 5
        elif sel == 6:
            rr = to_signed(v * 2, 32)
        else:
            rr = 1005
        s = 0
        for j in range(12):
            c = (v + j) & 3
            if c == 0:
                s += j
            elif c == 1:
                continue
            elif c == 2:
                s += -1 if j % 3 == 0 else 100
            else:
                s = to_signed(s * 2, 32)
            s += 1
        u = v & 0xFF
        w = {0: 11, 3: 33, 7: 77}.get(u >> 5, u)
        out += [rr, s, w]
    return {(0, 1): wrap(out, np.int32)}


def _nested_ref(r: Run) -> R:
    out: list[int] = []
    for i, v in enumerate(py(r.i((0, 0)))):
        rr = 0
        if (i // WG) & 1 == 0:
            if v & 1:
                for j in range(v & 7):
                    if j & 1:
                        rr += j * 3
                    elif j > 2:
                        rr ^= v >> j
                    else:
                        rr += 1
            else:
                rr = v >> 4
                if rr > 1000:
                    rr -= 1000
        else:
            x = v
            while x > 16:
                if x & 3 == 0:
                    x >>= 2
                    rr += 2
                elif x & 3 == 1:
                    x -= 1
                    rr += 1
                else:
                    x = x // 2 - 1
                    if x % 5 == 0:
                        break
                    rr += 5
            rr += x << 16
        q = 0
        for j in range(4):
            if ((v >> (j * 4)) & 15) > 7:
                q += (1 << j) if (v >> (j * 4 + 16)) & 1 else (16 << j)
        out += [rr, q]
    return {(0, 1): wrap(out, np.uint32)}


def _functions_ref(r: Run) -> R:
    def mix3(x: int) -> int:
        y = (x * 2654435761) & M
        return ((y & 0xFFFF) << 16) | (y >> 16)

    out: list[int] = []
    for v in py(r.i((0, 0))):
        lo, hi = v & 0xFFFF, v >> 16
        mn, mx = min(lo, hi), max(lo, hi)
        acc = mn + mx
        s = v + (v >> 8) + mn + mx
        if v & 1:
            rr = v
            for d in range(v % 5):
                rr = mix3(rr) ^ d
        else:
            rr = mix3(v)
        plo = lo + 1 if lo > hi else lo
        out += [acc, s, rr, (hi << 16) | plo, mx - mn]
    return {(0, 1): wrap(out, np.uint32)}


def _local_ref(r: Run) -> R:
    a = py(r.i((0, 0)))
    tab = [3, 1, 4, 1, 5, 9, 2, 6]
    out: list[int] = []
    for i, v in enumerate(a):
        base = (i // 16) * 16
        arr = [a[base + ((j + i) & 15)] for j in range(16)]
        arr[v & 15] = (arr[v & 15] + 1000) & M
        picked = arr[(v >> 4) & 15]
        arr.sort()
        grid = [[(y * 4 + x + v) & M for x in range(4)] for y in range(4)]
        gy, gx = v & 3, (v >> 2) & 3
        grid[gx][gy] = 0
        vs = [[1.0, 2.0, 3.0, 4.0], [float(v & 255)] * 4, [2.0, 4.0, 6.0, 8.0]]
        vs[v % 3][(v >> 3) & 3] = -1.0
        vsum = [sum(c) for c in zip(*vs, strict=True)]
        f = vsum[0] + vsum[1] * 10 + vsum[2] * 100 + vsum[3] * 1000 + 4000
        out += [*arr, picked, grid[gy][gx] + grid[gx][gy] * 2 + grid[3][3], int(f),
                tab[v & 7] + tab[(v >> 3) & 7] * 10, 0, 0, 0, 0]
    return {(0, 1): wrap(out, np.uint32)}


def _local_struct_ref(r: Run) -> R:
    a = r.i((0, 0)).reshape(N, 4).astype(np.int64).tolist()
    out: list[int] = []
    for x in a:
        es = [{"key": (x[j & 3] + j) & M, "v": [j, x[3] >> j], "hist": [0, j * j, x[0] & 255]}
              for j in range(6)]
        s, d = x[1] % 6, x[2] % 6
        es[d] = {"key": es[s]["key"], "v": list(es[s]["v"]), "hist": list(es[s]["hist"])}
        es[x[3] % 6]["hist"][x[0] % 3] += 500
        es[s]["v"][1] ^= 0xFF
        total = sum(e["key"] * (e["v"][0] + e["v"][1]) + e["hist"][j % 3]
                    for j, e in enumerate(es))
        out += [total, es[d]["key"] + es[d]["v"][1],
                es[(s + 1) % 6]["hist"][2] + es[x[3] % 6]["hist"][x[0] % 3]]
    return {(0, 1): wrap(out, np.uint32)}


def _unroll_ref(r: Run) -> R:
    rounds = 6  # the case's specialization constant 0
    vs = py(r.i((0, 0)))
    out: list[int] = []
    for g in range(len(vs) // WG):
        total = sum(v & 0xFFFF for v in vs[g * WG:(g + 1) * WG]) & M
        for v in vs[g * WG:(g + 1) * WG]:
            nest = 0
            for y in range(3):
                for x in range(4):
                    nest = (nest * 7 + ((v >> (y * 4 + x)) & 1) * (x + 1) + y) & M
            hit, k = 0, 0
            while k < 8 and (v >> (k * 3)) & 7 != 5:
                hit = (hit + k * (v & 255)) & M
                k += 1
            dw = 1
            for j in range(0, 10, 2):
                dw = (dw * 3 + ((v >> j) & 3)) & M
            sp = v
            for rr in range(rounds):
                sp = ((sp ^ ((sp << 5) & M)) + rr) & M
            out += [nest, k, hit, dw, sp, total]
    return {(0, 1): wrap(out, np.uint32)}


def _small_mixed(rng: np.random.Generator) -> np.ndarray:
    v = rng.integers(0, 1 << 32, N, dtype=np.uint64)
    small = rng.integers(0, 5000, N)
    return np.where(rng.integers(0, 2, N) == 0, v, small).astype(np.uint32)


def _zacc_ref(r: Run) -> R:
    a = r.i((0, 0)).view(np.float32).reshape(256, 4).astype(np.float64)
    cnt = r.i((0, 1)).view(np.uint32)
    out = np.zeros((N, 4, 4), np.float64)
    for i in range(N):
        x = a[(i + np.arange(int(cnt[i]))) & 255]
        if len(x):
            out[i, 0] = x.sum(0)
            out[i, 1] = (x * x).sum(0)
            out[i, 2] = np.maximum(x.max(0), 0.0)
            out[i, 3] = (x > 0).sum(0)
    return {(0, 2): Expect(out.reshape(N * 4, 4).astype(np.float32), atol=1e-3, rtol=1e-5)}


def _gen_udiv_a(rng: np.random.Generator) -> np.ndarray:
    v = rng.integers(-(1 << 31) + 1, 1 << 31, 64, dtype=np.int64)
    v[:6] = [0, 1, -1, 7, -7, (1 << 31) - 1]
    return v.astype(np.int32)


def _gen_udiv_b(rng: np.random.Generator) -> np.ndarray:
    v = rng.integers(1, 1 << 16, 64, dtype=np.int64) * rng.choice([-1, 1], 64)
    v[:6] = [3, -3, 2, -1, 1, -(1 << 30)]
    v[6:12] = rng.integers(1 << 20, 1 << 31, 6) * rng.choice([-1, 1], 6)
    return v.astype(np.int32)


def _tdiv(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    q = np.abs(x) // np.abs(y)
    return np.where((x < 0) != (y < 0), -q, q)


def _uidiv_ref(r: Run) -> R:
    a = r.i((0, 0)).view(np.int32).astype(np.int64)
    b = r.i((0, 1)).view(np.int32).astype(np.int64)
    i = np.arange(N)
    g = (i // WG * 8)[:, None] + np.arange(8)[None, :]
    x, y = a[g], b[g]
    out = np.stack([_tdiv(x, y), _tdiv(x, (i - 300)[:, None] + 0 * x),
                    (x & 0x7FFFFFFF) % (y & 0x7FFFFFFF)], 2)
    return {(0, 2): out.reshape(-1).astype(np.int32)}


CASES: list[Case] = [
    Case("uniform_idiv", G, L,
         {(0, 0): Buf(_gen_udiv_a), (0, 1): Buf(_gen_udiv_b), (0, 2): zeros(N * 96)},
         _uidiv_ref, seed=126, category="control flow"),
    Case("zero_accumulators", G, L,
         {(0, 0): floats(np.float32, 1024, -4, 4, 1 / 8), (0, 1): ints(np.uint32, N, 0, 9),
          (0, 2): zeros(N * 64)},
         _zacc_ref, seed=125, category="control flow"),
    Case("cf_unroll", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 24)},
         _unroll_ref, spec={0: 6}, seed=99, category="control flow"),
    Case("cf_for_loops", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 20)},
         _for_ref, push=struct.pack("<I", 23), seed=90, category="control flow"),
    Case("cf_uniform_select", G, L,
         {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 12)},
         _uniform_select_ref, push=struct.pack("<II", 256 * 5 + 77, 1 << 31), seed=89,
         category="control flow"),
    Case("cf_while_do", G, L, {(0, 0): ints(np.uint32, N, 0, 1 << 24), (0, 1): zeros(N * 20)},
         _while_ref, seed=91, category="control flow"),
    Case("cf_break_continue", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 12)},
         _break_ref, seed=92, category="control flow"),
    Case("cf_return", G, L,
         {(0, 0): ints(np.uint32, N, 0, 1 << 20), (0, 1): ints(np.uint32, N * 4)},
         _return_ref, seed=93, category="control flow"),
    Case("cf_switch", G, L, {(0, 0): ints(np.int32, N), (0, 1): zeros(N * 12)},
         _switch_ref, seed=94, category="control flow",
         notes="the selector is v >> 28 (not v % 8: signed % of negatives is undefined)"),
    Case("cf_nested_divergent", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 8)},
         _nested_ref, seed=95, category="control flow"),
    Case("functions", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 20)},
         _functions_ref, seed=96, category="functions and local arrays"),
    Case("local_arrays", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 96)},
         _local_ref, seed=97, category="functions and local arrays"),
    Case("local_array_struct", G, L,
         {(0, 0): ints(np.uint32, (N, 4), 0, 1 << 20), (0, 1): zeros(N * 12)},
         _local_struct_ref, seed=98, category="functions and local arrays"),
]
