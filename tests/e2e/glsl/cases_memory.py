"""Cases: buffers and layouts, push constants, shared memory with barriers, atomics.

Atomics whose outcome depends on the order of the invocations (returned slots,
exchange chains, compare-and-swap winners) are checked for what every order
gives: slots form a permutation, the exchanged values chain from the initial
one, exactly one compare-and-swap wins per location. The reference asserts that
on the outputs and then expects exactly what it verified.
"""

from __future__ import annotations

import struct
from collections import Counter
from typing import Any

import numpy as np

from tests.e2e.glsl.refs import WG, N, py, to_signed, wrap
from tests.e2e.glsl_harness import Buf, Case, Expect, Run, data, floats, ints, zeros

G = (N // WG, 1, 1)
L = (WG, 1, 1)
f32 = np.float32
R = dict[tuple[int, int], Any]
M32 = (1 << 32) - 1
M64 = (1 << 64) - 1


def _fields(dt: np.dtype, value: np.ndarray, prefix: str = "", base: int = 0,
            stride: int = 0) -> list[Expect]:
    """One Expect per (nested) scalar field of a structured array: padding is not compared."""
    stride = stride or dt.itemsize
    out: list[Expect] = []
    assert dt.fields is not None
    for name, (fdt, off) in dt.fields.items():
        v = value[name]
        sub = fdt.subdtype
        if fdt.fields is not None:
            out += _fields(fdt, v, f"{prefix}{name}.", base + off, stride)
        elif sub is not None and sub[0].fields is not None:
            inner, shape = sub
            for j in range(int(np.prod(shape))):
                out += _fields(inner, v.reshape(len(v), -1)[:, j], f"{prefix}{name}[{j}].",
                               base + off + j * inner.itemsize, stride)
        else:
            out.append(Expect(np.ascontiguousarray(v), offset=base + off, stride=stride,
                              what=prefix + name))
    return out


def _multiset(got: np.ndarray, expected: list[int] | np.ndarray, what: str) -> None:
    assert Counter(np.asarray(got).tolist()) == Counter(np.asarray(expected).tolist()), (
        f"{what}: not the expected multiset")


# -- std430 structs -----------------------------------------------------------------

DT_S = np.dtype({"names": ["p", "w", "q", "flags", "d"],
                 "formats": [(f32, 3), f32, (np.int32, 2), np.uint32, np.float64],
                 "offsets": [0, 12, 16, 24, 32], "itemsize": 48})
DT_T = np.dtype({"names": ["a", "b", "c"], "formats": [(f32, 3), (f32, 2), np.uint32],
                 "offsets": [0, 16, 24], "itemsize": 32})


def _gen_s(rng: np.random.Generator) -> np.ndarray:
    s = np.zeros(N, DT_S)
    s["p"] = rng.uniform(-10, 10, (N, 3))
    s["w"] = rng.uniform(-2, 2, N)
    s["q"] = rng.integers(-1000, 1000, (N, 2))
    s["flags"] = rng.integers(0, 1 << 32, N, dtype=np.uint64)
    s["d"] = rng.uniform(-1e6, 1e6, N)
    return s


def _gen_t(rng: np.random.Generator) -> np.ndarray:
    t = np.zeros(N, DT_T)
    t["a"] = rng.integers(0, 100, (N, 3))
    t["b"] = rng.uniform(-5, 5, (N, 2))
    t["c"] = rng.integers(0, 1000, N)
    return t


def _struct_ref(r: Run) -> R:
    s = r.i((0, 0)).copy()
    t = r.i((0, 2)).copy()
    i = np.arange(N)
    w = s["w"].astype(np.float64)
    s["p"] = s["p"] * w[:, None] + np.concatenate([s["q"], np.ones((N, 1))], 1)
    s["q"] = s["q"][:, ::-1] * 2
    s["flags"] ^= i.astype(np.uint32)
    s["d"] = s["d"] * 2 + w
    t["a"][i, i % 3] += 1
    t["b"] = t["b"][:, ::-1]
    t["c"] = t["a"][:, 0].astype(np.uint32) + t["c"]
    es = _fields(DT_S, s)
    es[0] = Expect(es[0].value, offset=0, stride=48, atol=1e-5, rtol=1e-6, what="p (fma)")
    return {(0, 1): es, (0, 2): _fields(DT_T, t)}


# -- std140 uniform block ---------------------------------------------------------


def _gen_ubo(rng: np.random.Generator) -> np.ndarray:
    b = bytearray(256)
    for j in range(8):
        struct.pack_into("<f", b, 16 * j, float(rng.integers(-20, 20)) / 4)
    struct.pack_into("<3fi", b, 128, *(rng.integers(-8, 8, 3) / 2), int(rng.integers(-50, 50)))
    struct.pack_into("<16f", b, 144, *(rng.integers(-16, 16, 16) / 4))
    for j in range(3):
        struct.pack_into("<2i", b, 208 + 16 * j, *rng.integers(-100, 100, 2).tolist())
    return np.frombuffer(bytes(b), np.uint8)


def _ubo_ref(r: Run) -> R:
    b = r.i((0, 0)).tobytes()
    f = [struct.unpack_from("<f", b, 16 * j)[0] for j in range(8)]
    v = struct.unpack_from("<3f", b, 128)
    k = struct.unpack_from("<i", b, 140)[0]
    m = np.array(struct.unpack_from("<16f", b, 144)).reshape(4, 4)  # [column][row]
    iv = [struct.unpack_from("<2i", b, 208 + 16 * j) for j in range(3)]
    o = [f[i % 8] * v[i % 3] + k + m[i % 4][(i // 4) % 4] + iv[i % 3][1] for i in range(N)]
    mv = m.T @ np.array(f[:4])
    p = [mv + np.array([iv[i % 3][0], iv[i % 3][1], v[0], v[1]]) for i in range(4)]
    return {(0, 1): Expect(np.array(o, f32), atol=1e-5),
            (0, 2): Expect(np.array(p, f32), atol=1e-5)}


# -- runtime arrays -----------------------------------------------------------------

# Buffer sizes are multiples of 16 bytes: radcc.oracle.lavapipe rounds buffer sizes up to
# 16 bytes and binds VK_WHOLE_SIZE, so .length() would count the padding otherwise.
M_RT = 201  # 8 + 201 * 8 = 1616 bytes; not a multiple of the workgroup size
N_OUT = 258  # 8 + 258 * 4 = 1040 bytes; the last two are not written


def _gen_rt(rng: np.random.Generator) -> np.ndarray:
    head = np.array([int(rng.integers(1, 9)), 0], np.uint32).tobytes()
    body = rng.uniform(-10, 10, (M_RT, 2)).astype(f32).tobytes()
    return np.frombuffer(head + body, np.uint8)


def _rt_ref(r: Run) -> R:
    b = r.i((0, 0)).tobytes()
    header = struct.unpack_from("<I", b, 0)[0]
    d = np.frombuffer(b, f32, offset=8).reshape(M_RT, 2).astype(np.float64)
    i = np.arange(N)
    rr = np.where(i < M_RT, d[np.minimum(i, M_RT - 1), 0] * header
                  + d[np.clip(M_RT - 1 - i, 0, M_RT - 1), 1], i - M_RT)
    return {(0, 1): [np.array([M_RT, N_OUT], np.uint32),
                     Expect(np.concatenate([rr, [0, 0]]).astype(f32), offset=8, rtol=1e-6,
                            atol=1e-6)]}


# -- scalar layout ------------------------------------------------------------------

DT_P = np.dtype({"names": ["pos", "m", "uv", "id"],
                 "formats": [(f32, 3), f32, (f32, 2), np.uint32],
                 "offsets": [0, 12, 16, 24], "itemsize": 28})


def _gen_p(rng: np.random.Generator) -> np.ndarray:
    p = np.zeros(N, DT_P)
    p["pos"] = rng.uniform(-10, 10, (N, 3))
    p["m"] = rng.uniform(-10, 10, N)
    p["uv"] = rng.uniform(-1, 1, (N, 2))
    p["id"] = rng.integers(0, 1000, N)
    return p


def _scalar_ref(r: Run) -> R:
    v = r.i((0, 0)).reshape(N, 3).astype(np.float64)
    p = r.i((0, 1)).copy()
    o = (v * 2 + p["pos"]).astype(f32)
    p["pos"] = p["pos"][:, [2, 0, 1]]
    p["m"] = p["m"] + p["id"].astype(f32)
    p["uv"] = v[(np.arange(N) + 1) & 255, :2]
    p["id"] = np.arange(N) * 3
    return {(0, 2): Expect(o, rtol=1e-6, atol=1e-6), (0, 3): _fields(DT_P, p)}


# -- uniform indexing, sets, matrices -----------------------------------------------


def _gen_table(rng: np.random.Generator) -> np.ndarray:
    head = np.array([9, 0, 0, 0], np.uint32).tobytes()
    tab = (rng.integers(-64, 64, (64, 4)) / 8).astype(f32).tobytes()
    return np.frombuffer(head + tab, np.uint8)


def _ubo_idx_ref(r: Run) -> R:
    tab = np.frombuffer(r.i((0, 0)).tobytes(), f32, offset=16).reshape(64, 4).astype(np.float64)
    idx = r.i((0, 1)).astype(np.int64)
    i = np.arange(N)
    acc = tab[idx & 63] + tab[(i * 7) & 63] * 0.5 + tab[:9].sum(0)
    acc[:, 0] += tab[5, 3]
    return {(0, 2): Expect(acc.astype(f32), atol=1e-6)}


def _sets_ref(r: Run) -> R:
    mul, add = struct.unpack_from("<II", r.i((0, 0)).tobytes())
    a = py(r.i((1, 3)))
    b = py(r.i((0, 5)))
    return {(2, 1): wrap([a[i] * mul + b[i] for i in range(N)], np.uint32),
            (2, 0): wrap([b[255 - i] + add for i in range(N)], np.uint32)}


def _mat_layout_ref(r: Run) -> R:
    rm = r.i((0, 0)).reshape(N, 4, 4).astype(np.float64)   # [row][column]
    cm = r.i((0, 1)).reshape(N, 4, 4).astype(np.float64)   # [column][row]
    r23 = r.i((0, 2)).reshape(N, 3, 2).astype(np.float64)  # [row][column]
    x = r.i((0, 3)).reshape(N, 4).astype(np.float64)
    o0 = np.einsum("nrc,nc->nr", rm, x)
    o1 = np.einsum("ncr,nc->nr", cm, x)
    o2 = np.concatenate([np.einsum("nrc,nc->nr", r23, x[:, :2]),
                         (rm[:, 2, 1] + cm[:, 1, 2])[:, None]], 1)
    return {(0, 4): Expect(np.stack([o0, o1, o2], 1).astype(f32), atol=1e-5, rtol=1e-6)}


# -- push constants -----------------------------------------------------------------


def _push(rng: np.random.Generator) -> bytes:
    offs = rng.integers(-100, 100, 4).tolist()
    bias = (rng.integers(-8, 8, 4) / 4).tolist()
    return struct.pack("<If4i8x4f2I", 200, 0.5, *offs, *bias, 0x35, 0x1000)


def _push_ref(r: Run) -> R:
    n, scale, *rest = r.pushed("<If4i8x4f2I")
    offs, bias, mask = rest[:4], rest[4:8], rest[8:]
    a = r.i((0, 0)).astype(np.float64)
    old = r.i((0, 1)).astype(np.float64)
    i = np.arange(N)
    o = np.where(i < n, a * scale + np.array(bias)[i & 3] + np.array(offs)[(i >> 2) & 3], old)
    return {(0, 1): Expect(o.astype(f32), atol=1e-5),
            (0, 2): ((i & mask[0]) | mask[1]).astype(np.uint32)}


def _push16(rng: np.random.Generator) -> bytes:
    return struct.pack("<BbHehI", int(rng.integers(0, 256)), int(rng.integers(-128, 128)),
                       int(rng.integers(0, 65536)), float(rng.integers(-64, 64)) / 8,
                       int(rng.integers(-32768, 32768)), int(rng.integers(0, 1 << 20)))


def _push16_ref(r: Run) -> R:
    a, b, c, h, d, k = r.pushed("<BbHehI")
    i = np.arange(N)
    return {(0, 0): wrap((a * i + b + c - d + k).tolist(), np.int32),
            (0, 1): Expect((h * i + b).astype(f32), rtol=1e-6)}


# -- nested structs -----------------------------------------------------------------

DT_IN = np.dtype({"names": ["a", "b"], "formats": [np.uint32, (f32, 2)], "offsets": [0, 4],
                  "itemsize": 12})
DT_OUT = np.dtype({"names": ["in_", "tag"], "formats": [(DT_IN, 3), (np.uint32, 2)],
                   "offsets": [0, 40], "itemsize": 48})


def _gen_nested(rng: np.random.Generator) -> np.ndarray:
    o = np.zeros(N, DT_OUT)
    o["in_"]["a"] = rng.integers(0, 1 << 32, (N, 3), dtype=np.uint64)
    o["in_"]["b"] = rng.uniform(-100, 100, (N, 3, 2))
    o["tag"] = rng.integers(0, 1 << 32, (N, 2), dtype=np.uint64)
    return o


def _nested_ref(r: Run) -> R:
    src = r.i((0, 0))
    x = src.copy()
    i = np.arange(N)
    j, k = i % 3, (i + 1) % 3
    tj = x["in_"][i, j].copy()
    x["in_"][i, j] = x["in_"][i, k]
    x["in_"][i, k] = tj
    bits = x["in_"]["b"][:, 2, 1].copy().view(np.uint32)
    tag = x["tag"][:, ::-1].astype(np.uint64) + np.stack([x["in_"]["a"][:, 0], bits], 1)
    x["tag"] = (tag & M32).astype(np.uint32)
    return {(0, 1): _fields(DT_OUT, x), (0, 2): _fields(DT_OUT, src[::-1].copy())}


# -- shared memory ------------------------------------------------------------------


def _reduce_ref(r: Run) -> R:
    a = r.i((0, 0)).reshape(-1, 128).astype(np.float64)
    b = r.i((0, 1)).reshape(-1, 128)
    return {(0, 2): a.sum(1).astype(f32),
            (0, 3): np.stack([b.max(1), b.view(np.int32).min(1).view(np.uint32)], 1)}


def _scan_ref(r: Run) -> R:
    a = r.i((0, 0)).reshape(-1, 64).astype(np.uint64)
    inc = np.cumsum(a, 1)
    exc = inc - a
    return {(0, 1): inc.astype(np.uint32).ravel(), (0, 2): exc.astype(np.uint32).ravel()}


def _transpose_ref(r: Run) -> R:
    a = r.i((0, 0)).reshape(32, 32)
    u = np.zeros((32, 32), np.uint32)
    for gy in range(4):
        for gx in range(4):
            for ly in range(8):
                for lx in range(8):
                    u[gy * 8 + ly, gx * 8 + lx] = (gy * 8 + lx) * 32 + gx * 8 + ly
    return {(0, 1): np.ascontiguousarray(a.T).ravel(), (0, 2): u.ravel()}


def _hist_ref(r: Run) -> R:
    a = r.i((0, 0)).reshape(-1, 64).astype(np.int64)
    wg = np.zeros((a.shape[0], 32), np.uint32)
    for g in range(a.shape[0]):
        wg[g] += np.bincount(a[g], minlength=32).astype(np.uint32)
        wg[g] += 2 * np.bincount((a[g] * 7 + 3) & 31, minlength=32).astype(np.uint32)
    return {(0, 1): wg.sum(0).astype(np.uint32), (0, 2): wg.ravel()}


def _shared_types_ref(r: Run) -> R:
    a = py(r.i((0, 0)))
    o: list[int] = []
    f: list[float] = []
    for i in range(N):
        g, li = divmod(i, 64)
        rr, n = 63 - li, (li + 1) & 63
        vr, vn = a[g * 64 + rr], a[g * 64 + n]
        o += [(vr & 0xFF) | ((vn >> 8) & 0xFFFF) << 8, vr * -3 + vn * -3,
              (vr ^ 0xFFFF) | ((n * 3) & 0xFF) << 32, (vr & 255) + n * 1000]
        f += [vr * 0.5 + (vn & 1023) * 0.25, n + 0.25 + 0.5]
    return {(0, 1): wrap(o, np.uint64), (0, 2): np.array(f, np.float64)}


def _stencil_ref(r: Run) -> R:
    a = r.i((0, 0)).astype(np.float64)
    pad = np.concatenate([[0.0], a, [0.0]])
    s = pad[:-2] + 2 * pad[1:-1] + pad[2:]
    sg = s.reshape(-1, 64)
    p = (sg[:, ::-1] - sg).ravel()
    return {(0, 1): s.astype(f32), (0, 2): p.astype(f32)}


# -- atomics ------------------------------------------------------------------------

COUNTERS_INIT = [0, M32, 0, M32, 0, 0, 0x7FFFFFFF, 0x80000000, 0, 12345]


def _atomic_buffer_ref(r: Run) -> R:
    a = py(r.i((0, 1)))
    ret = r.o((0, 2), np.uint32).reshape(N, 4)
    cnt = r.o((0, 0), np.uint32)
    _multiset(ret[:, 0], range(N), "atomicAdd slots")
    _multiset([*ret[:, 1].tolist(), int(cnt[9])], [12345, *a], "atomicExchange chain")
    cas = r.o((0, 3), np.uint32)
    for j in range(64):
        got = ret[[j, j + 64, j + 128, j + 192], 2].tolist()
        assert got.count(0) == 1, f"atomicCompSwap slot {j}: {got.count(0)} winners"
        win = [j + 64 * q for q in range(4) if got[q] == 0][0] + 1
        assert sorted(got) == [0, win, win, win] and cas[j] == win, f"atomicCompSwap slot {j}"
    and_, or_, xor = M32, 0, 0
    for v in a:
        and_ &= v | 0x0F0F0F0F
        or_ |= v & 0x00FF0000
        xor ^= v
    s = [to_signed(v, 32) for v in a]
    counters = [N, min(a), max(a), and_, or_, xor, min(s), max(s), sum(v >> 8 for v in s),
                int(cnt[9])]
    return {(0, 0): wrap(counters, np.uint32), (0, 2): ret.copy(), (0, 3): cas.copy()}


def _atomic_shared_ref(r: Run) -> R:
    a = py(r.i((0, 0)))
    ret = r.o((0, 2), np.uint32).reshape(N, 2)
    w: list[int] = []
    for g in range(N // 64):
        vs = a[g * 64:(g + 1) * 64]
        rg = ret[g * 64:(g + 1) * 64]
        _multiset(rg[:, 0], range(0, 128, 2), f"group {g} atomicAdd slots")
        winners = []
        for j in range(16):
            got = rg[[j, j + 16, j + 32, j + 48], 1].tolist()
            assert got.count(0) == 1, f"group {g} cas {j}: {got.count(0)} winners"
            win = [j + 16 * q for q in range(4) if got[q] == 0][0] + 1
            assert sorted(got) == [0, win, win, win], f"group {g} cas {j}"
            winners.append(win)
        and_, or_, xor = M32, 0, 0
        for v in vs:
            and_ &= v | 0xF0F0F0F0
            or_ |= v & 0x0000FF00
            xor ^= v
        s = [to_signed(v, 32) for v in vs]
        w += [128, min(vs), max(vs), and_, or_, xor, min(s), max(s), winners[0], winners[15]]
    return {(0, 1): wrap(w, np.uint32), (0, 2): ret.copy()}


C64_INIT = [0, M64, 0, M64, 0, 0, (1 << 63) - 1, 1 << 63, 0]


def _atomic64_ref(r: Run) -> R:
    a = py(r.i((0, 1)))
    ret = r.o((0, 3), np.uint64)
    c = r.o((0, 0), np.uint64)
    winner = int(c[8])
    assert winner - (1 << 32) in range(N), "atomicCompSwap: no winner value"
    assert ret.tolist().count(0) == 1 and int(ret[winner - (1 << 32)]) == 0
    assert all(int(v) in (0, winner) for v in ret), "atomicCompSwap returned values"
    and_, or_, xor = M64, 0, 0
    for v in a:
        and_ &= v | 0x0F0F0F0F0F0F0F0F
        or_ |= v & 0x00FF000000FF0000
        xor ^= v
    s = [to_signed(v, 64) for v in a]
    counters = [sum(a), min(a), max(a), and_, or_, xor, min(s), max(s), winner]
    w: list[int] = []
    for g in range(N // 64):
        vs = a[g * 64:(g + 1) * 64]
        x = 0
        for v in vs:
            x ^= v
        w += [sum(v >> 8 for v in vs), x, max(to_signed(v, 64) for v in vs)]
    return {(0, 0): wrap(counters, np.uint64), (0, 2): wrap(w, np.uint64), (0, 3): ret.copy()}


def _atomic_float_ref(r: Run) -> R:
    a = r.i((0, 1)).astype(np.float64)
    ret = r.o((0, 3), f32)
    c = r.o((0, 0), f32)
    _multiset([*ret.tolist(), float(c[3])], [0.5, *r.i((0, 1)).tolist()], "atomicExchange chain")
    g = a.reshape(-1, 64)
    w = np.stack([g.sum(1) * 2, g.min(1), g.max(1), np.zeros(len(g))], 1)
    return {(0, 0): np.array([a.sum(), a.min(), a.max(), c[3]], f32),
            (0, 2): w.astype(f32), (0, 3): ret.copy()}


def _compact_ref(r: Run) -> R:
    a = r.i((0, 0))
    keep = a[a % 3 == 0]
    items = r.o((0, 1), np.uint32, offset=4)
    _multiset(items[:len(keep)], keep, "compacted items")
    exp = items.copy()
    exp[len(keep):] = 0
    return {(0, 1): [np.array([len(keep)], np.uint32), Expect(exp, offset=4)]}


def _mm_ref(r: Run) -> R:
    a = r.i((0, 0)).astype(np.int64)
    w = 2 * a.reshape(-1, 64)[:, ::-1].ravel()
    return {(0, 1): wrap([a.sum(), w.max()], np.uint32), (0, 2): wrap(w + a, np.uint32)}


def _const_tables_ref(r: Run) -> R:
    """tests/e2e/glsl/const_tables.comp: the tables' formulas, per invocation."""
    def g0(k: int) -> int:
        return (k * 0x9E3779B1 ^ 0x5BD1E995) & M32

    def g1(k: int) -> int:
        return (k * k * 0x01000193 + 0x7F4A7C15) & M32

    small = [(k * k * 37 + 11) & 0xFFFF for k in range(40)]
    out: list[int] = []
    for i, v in enumerate(py(r.i((0, 0)))):
        j = (v * 7) & 255
        f = np.float32((v & 63) - 20) * np.float32(0.375) * np.float32(2.0)
        out += [g0(j) ^ g1(v >> 24), g1(j), int(np.array(f, f32).view(np.uint32)),
                (small[((i // WG) * 3 + 5) % 40] + small[v % 40]) & M32]
    return {(0, 1): wrap(out, np.uint32)}


def _cvec_push(rng: np.random.Generator) -> bytes:
    return struct.pack("<I2fI", 150, 2.5, -1.0, 0xC0FFEE)


def _cvec_ref(r: Run) -> R:
    n, _a, _b, m = r.pushed("<I2fI")
    a = r.i((0, 0)).astype(f32)
    i = np.arange(N)
    z = np.where((a < 0)[:, None], np.zeros((N, 4), f32),
                 np.stack([a, np.ones(N, f32), a, np.zeros(N, f32)], 1))
    return {(0, 1): z.astype(f32),
            (0, 2): np.tile(np.array([-1, -1, 64, 0], np.int32), (N, 1)),
            (0, 3): np.tile(np.array([0, 5, 65, 0], np.uint32), (N, 1)),
            (0, 4): np.where(i < n, m, 7).astype(np.uint32)}


CASES: list[Case] = [
    Case("layout_std430_struct", G, L,
         {(0, 0): Buf(_gen_s), (0, 1): zeros(N * 48), (0, 2): Buf(_gen_t)},
         _struct_ref, seed=60, category="buffers and layouts"),
    Case("layout_std140_ubo", G, L,
         {(0, 0): Buf(_gen_ubo), (0, 1): zeros(N * 4), (0, 2): zeros(64)},
         _ubo_ref, seed=61, category="buffers and layouts"),
    Case("layout_runtime_length", G, L,
         {(0, 0): Buf(_gen_rt), (0, 1): zeros(8 + N_OUT * 4)},
         _rt_ref, seed=62, category="buffers and layouts"),
    Case("layout_scalar", G, L,
         {(0, 0): floats(f32, (N, 3), -10, 10), (0, 1): Buf(_gen_p), (0, 2): zeros(N * 12),
          (0, 3): zeros(N * 28)},
         _scalar_ref, seed=63, category="buffers and layouts", target_env="vulkan1.2",
         val_flags=("--scalar-block-layout",)),
    Case("ubo_dynamic_index", G, L,
         {(0, 0): Buf(_gen_table), (0, 1): ints(np.uint32, N), (0, 2): zeros(N * 16)},
         _ubo_idx_ref, seed=64, category="buffers and layouts"),
    Case("multiple_sets", G, L,
         {(0, 0): data(np.array([2654435761, 77, 0, 0], np.uint32)), (1, 3): ints(np.uint32, N),
          (0, 5): ints(np.uint32, N), (2, 1): zeros(N * 4), (2, 0): zeros(N * 4)},
         _sets_ref, seed=65, category="buffers and layouts"),
    Case("layout_matrix", G, L,
         {(0, 0): floats(f32, (N, 16), -2, 2), (0, 1): floats(f32, (N, 16), -2, 2),
          (0, 2): floats(f32, (N, 6), -2, 2), (0, 3): floats(f32, (N, 4), -2, 2),
          (0, 4): zeros(N * 48)},
         _mat_layout_ref, seed=66, category="buffers and layouts"),
    Case("push_constants", G, L,
         {(0, 0): floats(f32, N, -10, 10, 1 / 16), (0, 1): floats(f32, N, -1, 1),
          (0, 2): zeros(N * 4)},
         _push_ref, push=_push, seed=67, category="push constants"),
    Case("const_vectors", G, L,
         {(0, 0): floats(f32, N, -10, 10), (0, 1): zeros(N * 16), (0, 2): zeros(N * 16),
          (0, 3): zeros(N * 16), (0, 4): zeros(N * 4)},
         _cvec_ref, push=_cvec_push, seed=124, category="push constants"),
    Case("push_constants_16bit", G, L,
         {(0, 0): zeros(N * 4), (0, 1): zeros(N * 4)},
         _push16_ref, push=_push16, seed=68, category="push constants"),
    Case("layout_nested", G, L,
         {(0, 0): Buf(_gen_nested), (0, 1): zeros(N * 48), (0, 2): zeros(N * 48)},
         _nested_ref, seed=69, category="buffers and layouts"),
    Case("shared_reduce", (4, 1, 1), (128, 1, 1),
         {(0, 0): floats(f32, 512, -100, 100, 1.0), (0, 1): ints(np.uint32, 512),
          (0, 2): zeros(16), (0, 3): zeros(32)},
         _reduce_ref, seed=70, category="shared memory"),
    Case("shared_scan", G, L,
         {(0, 0): ints(np.uint32, N, 0, 1000), (0, 1): zeros(N * 4), (0, 2): zeros(N * 4)},
         _scan_ref, seed=71, category="shared memory"),
    Case("shared_transpose", (4, 4, 1), (8, 8, 1),
         {(0, 0): floats(f32, 1024), (0, 1): zeros(4096), (0, 2): zeros(4096)},
         _transpose_ref, seed=72, category="shared memory"),
    Case("shared_histogram", G, L,
         {(0, 0): ints(np.uint32, N, 0, 31), (0, 1): zeros(128), (0, 2): zeros(N // 64 * 128)},
         _hist_ref, seed=73, category="shared memory"),
    Case("shared_types", G, L,
         {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 32), (0, 2): zeros(N * 16)},
         _shared_types_ref, seed=74, category="shared memory"),
    Case("shared_stencil", G, L,
         {(0, 0): floats(f32, N, -50, 50, 1.0), (0, 1): zeros(N * 4), (0, 2): zeros(N * 4)},
         _stencil_ref, seed=75, category="shared memory"),
    Case("atomic_buffer", G, L,
         {(0, 0): data(np.array(COUNTERS_INIT, np.uint32)), (0, 1): ints(np.uint32, N),
          (0, 2): zeros(N * 16), (0, 3): zeros(256)},
         _atomic_buffer_ref, seed=76, category="atomics"),
    Case("atomic_shared", G, L,
         {(0, 0): ints(np.uint32, N), (0, 1): zeros(N // 64 * 40), (0, 2): zeros(N * 8)},
         _atomic_shared_ref, seed=77, category="atomics"),
    Case("atomic_int64", G, L,
         {(0, 0): data(np.array(C64_INIT, np.uint64)), (0, 1): ints(np.uint64, N),
          (0, 2): zeros(N // 64 * 24), (0, 3): zeros(N * 8)},
         _atomic64_ref, seed=78, category="atomics"),
    Case("atomic_float", G, L,
         {(0, 0): data(np.array([0, 1e30, -1e30, 0.5], f32)),
          (0, 1): floats(f32, N, -1000, 1000, 1.0), (0, 2): zeros(N // 64 * 16),
          (0, 3): zeros(N * 4)},
         _atomic_float_ref, seed=79, category="atomics",
         notes="float atomics: add/exchange/min/max (lavapipe: VK_EXT_shader_atomic_float(2)); "
               "integer-valued floats so sums are exact in any order"),
    Case("atomic_compact", G, L,
         {(0, 0): ints(np.uint32, N, 0, 1 << 20), (0, 1): zeros(4 + N * 4)},
         _compact_ref, seed=80, category="atomics"),
    Case("memory_model", G, L,
         {(0, 0): ints(np.uint32, N, 0, 1 << 20), (0, 1): zeros(8), (0, 2): zeros(N * 4)},
         _mm_ref, seed=81, category="atomics", target_env="vulkan1.3"),
    Case("const_tables", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 16)},
         _const_tables_ref, seed=82, category="buffers and layouts",
         notes="const arrays indexed at run time: read from the code object's constant data"),
]
