"""Cases: subgroup operations, builtins and specialization constants.

Subgroup shaders record, per invocation, (gl_SubgroupSize,
gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups) in binding 0. The
reference checks those ids (glsl_harness.subgroups: power-of-two size, equal to
the executor's when known (lavapipe 8, radcc the wave size), distinct ids) and
computes each subgroup's expected values from its members, so the same case
holds for any subgroup size. Undefined lanes (shuffle sources outside the
subgroup, ballot searches of an empty ballot) are masked.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import reduce
from typing import Any

import numpy as np

from tests.e2e.glsl.refs import py, to_signed, wrap
from tests.e2e.glsl_harness import Buf, Case, Expect, Run, floats, ints, subgroups, zeros

R = dict[tuple[int, int], Any]
M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
NS = 128  # invocations of the subgroup cases: 2 workgroups of 64
G2 = (2, 1, 1)
L64 = (64, 1, 1)


def _sgs(r: Run) -> list[np.ndarray]:
    ids = r.o((0, 0), np.uint32, count=r.invocations * 4)
    return subgroups(ids, r.wg_size, r.subgroup_size)


def _size(r: Run) -> int:
    return int(r.o((0, 0), np.uint32, count=1)[0])


def _ids_buf() -> Buf:
    return zeros(NS * 16)


def _per_subgroup(r: Run, fn: Callable[[list[int], int], list[list[int]]], width: int,
                  dtype: Any) -> np.ndarray:
    """fn(member invocation indices in id order, subgroup size) -> rows per member."""
    out = np.zeros((r.invocations, width), object)
    n = _size(r)
    for grp in _sgs(r):
        rows = fn([int(g) for g in grp], n)
        for g, row in zip(grp, rows, strict=True):
            out[g] = row
    return wrap(out.ravel().tolist(), dtype)


def _and(vals: list[int]) -> int:
    return reduce(lambda x, y: x & y, vals, M32)


def _or(vals: list[int]) -> int:
    return reduce(lambda x, y: x | y, vals, 0)


def _xor(vals: list[int]) -> int:
    return reduce(lambda x, y: x ^ y, vals, 0)


def _prod(vals: list[int], mask: int = M32) -> int:
    return reduce(lambda x, y: (x * y) & mask, vals, 1)


def _ballot_words(ids: list[int]) -> list[int]:
    b = sum(1 << j for j in ids)
    return [(b >> (32 * w)) & M32 for w in range(4)]


# -- basic, vote, ballot ------------------------------------------------------------


def _basic_ref(r: Run) -> R:
    a = py(r.i((0, 1)))

    def fn(m: list[int], n: int) -> list[list[int]]:
        odd = [j for j, g in enumerate(m) if a[g] & 1]
        return [[int(j == 0), (int(j == odd[0]) if a[g] & 1 else 2),
                 a[m[(j + 1) % n]] * 3, 0] for j, g in enumerate(m)]

    return {(0, 2): _per_subgroup(r, fn, 4, np.uint32)}


def _vote_in(rng: np.random.Generator) -> np.ndarray:
    v = np.repeat(rng.integers(0, 256, NS // 16), 16)
    for run in range(NS // 16):
        if rng.random() < 0.4:
            v[run * 16 + rng.integers(0, 16)] = rng.integers(0, 256)
    v[:64] &= 0xFE  # a workgroup of even values: the divergent branch is empty there
    return v.astype(np.uint32)


def _vote_ref(r: Run) -> R:
    a = py(r.i((0, 1)))

    def fn(m: list[int], n: int) -> list[list[int]]:
        vs = [a[g] for g in m]
        base = (int(all(v < 200 for v in vs)) | int(any(v > 250 for v in vs)) << 1
                | int(len(set(vs)) == 1) << 2 | int(len({v >> 4 for v in vs}) == 1) << 3
                | int(len({v & 0xF0 for v in vs}) == 1) << 4)
        odd = [v for v in vs if v & 1]
        rows = []
        for v in vs:
            x = base
            if v & 1:
                x |= 32 | int(any(o > 200 for o in odd)) << 6 | int(len(set(odd)) == 1) << 7
            rows.append([x])
        return rows

    return {(0, 2): _per_subgroup(r, fn, 1, np.uint32)}


def _ballot_ref(r: Run) -> R:
    a = py(r.i((0, 1)))
    inv = [0x55555555, 0x0F0F0F0F, 1, 0x80000000]
    inv_bits = sum(w << (32 * k) for k, w in enumerate(inv))
    ballots = np.zeros((r.invocations, 4), np.uint32)
    mask = np.ones((r.invocations, 8), bool)

    def fn(m: list[int], n: int) -> list[list[int]]:
        on = [j for j, g in enumerate(m) if a[g] & 3]
        bits = sum(1 << j for j in on)
        firsts = [j for j, g in enumerate(m) if a[g] & 4]
        rows = []
        for j, g in enumerate(m):
            ballots[g] = _ballot_words(on)
            if not on:
                mask[g, 5] = False
            lsb = min(on) if on else 0
            msb = max(on) if on else 0
            rows.append([(inv_bits >> j) & 1, (bits >> ((j + 1) % n)) & 1, len(on),
                         sum(1 for x in on if x <= j), sum(1 for x in on if x < j),
                         lsb | msb << 16, a[m[3]],
                         a[m[firsts[0]]] * 2 if a[g] & 4 else M32])
        return rows

    o = _per_subgroup(r, fn, 8, np.uint32).reshape(-1, 8)
    return {(0, 2): ballots, (0, 3): Expect(o, mask=mask)}


# -- arithmetic ---------------------------------------------------------------------


def _reduce_ref(r: Run) -> R:
    a = py(r.i((0, 1)))
    f = r.i((0, 2)).astype(np.float64)
    p = np.zeros((r.invocations, 4))

    def fn(m: list[int], n: int) -> list[list[int]]:
        vs = [a[g] for g in m]
        ss = [to_signed(to_signed(v, 32) - 1000000, 32) for v in vs]
        xs = [f[g] for g in m]
        sign = -1.0 if sum(x < 0 for x in xs) % 2 else 1.0
        for g in m:
            p[g] = [sum(xs), min(xs), max(xs), sign * max(-x for x in xs)]
        row = [sum(vs), _prod([v | 1 for v in vs]), min(vs), max(vs),
               _and([v | 0x01010101 for v in vs]), _or([v & 0x10101010 for v in vs]),
               _xor(vs), sum(ss), min(ss), max(ss), (sum(vs) & M32) ^ len(vs),
               _prod([(s & 3) - 1 for s in ss])]
        return [row] * len(m)

    o = _per_subgroup(r, fn, 12, np.uint32)
    return {(0, 3): o, (0, 4): p.astype(np.float32).ravel()}


def _scan(vals: list[Any], op: Callable[[Any, Any], Any], ident: Any,
          inclusive: bool) -> list[Any]:
    out, acc = [], ident
    for v in vals:
        if inclusive:
            acc = op(acc, v)
            out.append(acc)
        else:
            out.append(acc)
            acc = op(acc, v)
    return out


def _scan_ref(r: Run) -> R:
    a = py(r.i((0, 1)))
    p = np.zeros((r.invocations, 3))
    add = lambda x, y: (x + y) & M32  # noqa: E731
    mul = lambda x, y: (x * y) & M32  # noqa: E731

    def fn(m: list[int], n: int) -> list[list[int]]:
        vs = [a[g] for g in m]
        ss = [(v & 0xFFFF) - 30000 for v in vs]
        xs = [float((v & 255) - 128) for v in vs]
        cols = [
            _scan(vs, add, 0, True), _scan(vs, add, 0, False),
            _scan([v | 1 for v in vs], mul, 1, True), _scan([v | 1 for v in vs], mul, 1, False),
            _scan(vs, min, M32, True), _scan(vs, min, M32, False),
            _scan(vs, max, 0, True), _scan(vs, max, 0, False),
            _scan([v | 0x11111111 for v in vs], lambda x, y: x & y, M32, True),
            _scan([v & 0x0F0F0000 for v in vs], lambda x, y: x | y, 0, False),
            _scan(vs, lambda x, y: x ^ y, 0, True),
            _scan(ss, lambda x, y: x + y, 0, True),
            _scan(ss, min, 0x7FFFFFFF, False),
            _scan(ss, max, -(1 << 31), True)]
        fc = [_scan(xs, lambda x, y: x + y, 0.0, True), _scan(xs, lambda x, y: x + y, 0.0, False),
              _scan(xs, min, float("inf"), True)]
        for j, g in enumerate(m):
            p[g] = [c[j] for c in fc]
        return [[c[j] for c in cols] for j in range(len(m))]

    return {(0, 2): _per_subgroup(r, fn, 14, np.uint32), (0, 3): p.astype(np.float32).ravel()}


# -- shuffles -------------------------------------------------------------------------


def _f32_bits(x: float) -> int:
    return int(np.array([x], np.float32).view(np.uint32)[0])


def _shuffle_ref(r: Run) -> R:
    a = py(r.i((0, 1)))

    def fn(m: list[int], n: int) -> list[list[int]]:
        v = [a[g] for g in m]
        return [[v[(j * 5 + 3) & (n - 1)], v[n - 1 - j], _f32_bits(v[(j + 2) % n] & 0xFFFF),
                 v[j ^ 1], v[j ^ (n - 1)], v[j ^ 2] ^ ((j ^ 2) << 24)] for j in range(len(m))]

    return {(0, 2): _per_subgroup(r, fn, 6, np.uint32)}


def _shuffle_rel_ref(r: Run) -> R:
    a = py(r.i((0, 1)))
    (d,) = r.pushed("<I")
    mask = np.ones((r.invocations, 4), bool)

    def fn(m: list[int], n: int) -> list[list[int]]:
        v = [a[g] for g in m]
        rows = []
        for j, g in enumerate(m):
            mask[g] = [j >= 1, j + 1 < n, j >= d, j + d < n]
            rows.append([v[j - 1] if j >= 1 else 0, v[j + 1] if j + 1 < n else 0,
                         v[j - d] * 3 if j >= d else 0,
                         _f32_bits(v[j + d] & 0xFFFF) if j + d < n else 0])
        return rows

    o = _per_subgroup(r, fn, 4, np.uint32).reshape(-1, 4)
    return {(0, 2): Expect(o, mask=mask)}


def _clustered_ref(whole: bool) -> Callable[[Run], R]:
    """Clustered reductions; `whole`: lavapipe's defect (cluster size ignored)."""

    def ref(r: Run) -> R:
        a = py(r.i((0, 1)))

        def fn(m: list[int], n: int) -> list[list[int]]:
            v = [a[g] for g in m]

            def cl(j: int, size: int) -> list[int]:
                size = n if whole else size
                b = j - j % size
                return v[b:b + size]

            return [[sum(cl(j, 1)), sum(cl(j, 2)), sum(cl(j, 4)), sum(cl(j, 8)),
                     _prod([x | 1 for x in cl(j, 2)]), min(cl(j, 4)), max(cl(j, 2)),
                     _and([x | 0x33333333 for x in cl(j, 4)]),
                     _or([x & 0x0F0F0F0F for x in cl(j, 8)]), _xor(cl(j, 4))]
                    for j in range(len(m))]

        return {(0, 2): _per_subgroup(r, fn, 10, np.uint32)}

    return ref


def _quad_ref(r: Run) -> R:
    a = py(r.i((0, 1)))

    def fn(m: list[int], n: int) -> list[list[int]]:
        v = [a[g] for g in m]
        return [[v[j & ~3], v[(j & ~3) + 1], v[(j & ~3) + 2], v[(j & ~3) + 3], v[j ^ 1],
                 v[j ^ 2], v[j ^ 3], _f32_bits((v[j ^ 1] & 0xFFFF) * 0.5)]
                for j in range(len(m))]

    return {(0, 2): _per_subgroup(r, fn, 8, np.uint32)}


# -- divergence -----------------------------------------------------------------------


def _divergent_ref(r: Run) -> R:
    a = py(r.i((0, 1)))

    def fn(m: list[int], n: int) -> list[list[int]]:
        v = [a[g] for g in m]
        ja = [j for j in range(len(m)) if v[j] % 3 == 0]
        jb = [j for j in range(len(m)) if v[j] % 3 != 0]
        jc = [j for j in jb if v[j] & 1]
        rows = []
        for j in range(len(m)):
            if j in ja:
                rows.append([sum(v[k] for k in ja), sum(1 for k in ja if k <= j), len(ja),
                             int(j == ja[0])])
            else:
                w = 0
                if j in jc:
                    w = _or([v[k] for k in jc]) ^ min(v[k] for k in jc)
                rows.append([max(v[k] for k in jb), sum(v[k] & 255 for k in jb if k < j),
                             v[jb[0]], w])
        return rows

    return {(0, 2): _per_subgroup(r, fn, 4, np.uint32)}


def _loop_ref(r: Run) -> R:
    a = py(r.i((0, 1)))

    def fn(m: list[int], n: int) -> list[list[int]]:
        v = [a[g] for g in m]
        trips = [x % 13 for x in v]
        rows = []
        for j in range(len(m)):
            acc = cnt = 0
            for it in range(trips[j]):
                active = [k for k in range(len(m)) if trips[k] > it]
                acc += sum(it + (v[k] >> 8) for k in active)
                cnt += len(active)
            rows.append([acc, cnt])
        return rows

    return {(0, 2): _per_subgroup(r, fn, 2, np.uint32)}


def _types_ref(r: Run) -> R:
    a = py(r.i((0, 1)))
    d = np.zeros((r.invocations, 3))

    def fn(m: list[int], n: int) -> list[list[int]]:
        v = [a[g] for g in m]
        w = [x * 0x100000001 for x in v]
        sw = [to_signed(x - 0x4000000000000000, 64) for x in w]
        b = [x & 0xFF for x in v]
        h = [to_signed(x >> 8, 16) for x in v]
        f = [x & 63 for x in v]
        xs = [((x & 0xFFF) - 2048) * 0.5 for x in v]
        incl = _scan([x >> 3 for x in w], lambda p, q: (p + q) & M64, 0, True)
        for g in m:
            d[g] = [sum(xs), max(xs), min(xs) + min(-x for x in xs)]
        return [[sum(w), min(sw), incl[j], w[j ^ 1], max(b), sum(b) & 0xFF, min(h),
                 to_signed(sum(h), 16), max(f) * 4, v[1]] for j in range(len(m))]

    return {(0, 2): _per_subgroup(r, fn, 10, np.uint64), (0, 3): d.ravel()}


# -- builtins -------------------------------------------------------------------------


def _builtins_ref(r: Run) -> R:
    gx, gy, gz = r.case.groups
    lx, ly, lz = r.case.local_size
    nx, ny, nz = gx * lx, gy * ly, gz * lz
    rows = []
    for z in range(nz):
        for y in range(ny):
            for x in range(nx):
                li = (x % lx, y % ly, z % lz)
                wg = (x // lx, y // ly, z // lz)
                rows.append([x, y, z, *li, (li[2] * ly + li[1]) * lx + li[0], *wg, gx, gy, gz,
                             lx * 100 + ly * 10 + lz, x, 0xABCD])
    return {(0, 0): np.array(rows, np.uint32).ravel()}


def _sg_builtins_ref(r: Run) -> R:
    sgs = _sgs(r)
    n = _size(r)
    ids = r.o((0, 0), np.uint32, count=r.invocations * 4).reshape(-1, 4)
    full = (1 << n) - 1
    out = np.zeros((r.invocations, 5, 4), np.uint32)
    for grp in sgs:
        for g in grp:
            j = int(ids[g, 1])
            masks = [1 << j, full & ~((1 << j) - 1), full & ~((1 << (j + 1)) - 1),
                     (1 << (j + 1)) - 1, (1 << j) - 1]
            out[g] = [[(mk >> (32 * w)) & M32 for w in range(4)] for mk in masks]
    # the ids themselves: subgroups() checked them; gl_SubgroupID covers 0..count-1
    assert {int(v) for v in ids[:, 2]} == set(range(-(-r.wg_size // n)))
    return {(0, 1): out.ravel()}


# -- specialization constants ---------------------------------------------------------


def _spec_ref(vals: dict[int, Any]) -> Callable[[Run], R]:
    def ref(r: Run) -> R:
        a_, b_, c_, d_, e_, f_ = (vals[k] for k in range(6))
        size = b_ + 2
        a = py(r.i((0, 0)))
        o: list[int] = []
        p: list[float] = []
        for i, v in enumerate(a):
            o += [a_, b_, a_ * 2 + b_, v + (v % size) * b_, size, int(a_ > 5),
                  (a_ if d_ else -a_) + ((b_ << 4) | 1), int((v & 255) * c_) if d_ else -1]
            p += [v * e_ + c_, float(f_ + i)]
        return {(0, 1): wrap(o, np.int32), (0, 2): np.array(p, np.float64)}

    return ref


SPEC_DEFAULTS = {0: 7, 1: 3, 2: 1.5, 3: True, 4: 0.25, 5: 1000000000000}
SPEC_GIVEN = {0: -5, 1: 4, 2: 2.25, 3: False, 4: 0.125, 5: -7}


def _wgsize_ref(r: Run) -> R:
    lx, ly = r.spec[0], r.spec[1]
    wg = lx * ly
    a = r.i((0, 0)).astype(np.uint64)
    l_ = np.arange(r.invocations) % wg
    o = np.stack([np.full_like(l_, lx), np.full_like(l_, ly), l_ % lx, l_ // lx], 1)
    return {(0, 1): o.astype(np.uint32).ravel(),
            (0, 2): (a.reshape(-1, wg).sum(1) & M32).astype(np.uint32)}


def _sg_case(name: str, ref: Callable[[Run], R], extra: dict[tuple[int, int], Buf],
             seed: int, **kw: Any) -> Case:
    return Case(name, G2, L64, {(0, 0): _ids_buf(), **extra}, ref, seed=seed,
                category="subgroups", **kw)


CASES: list[Case] = [
    Case("spec_constants", (4, 1, 1), (64, 1, 1),
         {(0, 0): ints(np.uint32, 256, 0, 1 << 20), (0, 1): zeros(256 * 32),
          (0, 2): zeros(256 * 16)},
         _spec_ref(SPEC_GIVEN), spec=SPEC_GIVEN, seed=100, category="specialization constants"),
    Case("spec_constants_defaults", (4, 1, 1), (64, 1, 1),
         {(0, 0): ints(np.uint32, 256, 0, 1 << 20), (0, 1): zeros(256 * 32),
          (0, 2): zeros(256 * 16)},
         _spec_ref(SPEC_DEFAULTS), shader="spec_constants", seed=101,
         category="specialization constants"),
    Case("spec_workgroup_size", (4, 1, 1), (32, 2, 1),
         {(0, 0): ints(np.uint32, 256), (0, 1): zeros(256 * 16), (0, 2): zeros(16)},
         _wgsize_ref, spec={0: 32, 1: 2}, seed=102, category="specialization constants"),
    Case("spec_workgroup_size_id", (4, 1, 1), (16, 3, 1),
         {(0, 0): ints(np.uint32, 192), (0, 1): zeros(192 * 16), (0, 2): zeros(16)},
         _wgsize_ref, shader="spec_workgroup_size", spec={0: 16, 1: 3}, seed=103,
         target_env="vulkan1.3", category="specialization constants",
         notes="SPIR-V 1.6: glslang emits OpExecutionModeId LocalSizeId"),
    Case("builtins_ids", (3, 2, 2), (4, 2, 3), {(0, 0): zeros(3 * 2 * 2 * 24 * 64)},
         _builtins_ref, seed=104, category="builtins"),
    Case("builtins_subgroup", (2, 1, 1), (40, 1, 1),
         {(0, 0): zeros(80 * 16), (0, 1): zeros(80 * 80)},
         _sg_builtins_ref, seed=105, category="builtins"),
    _sg_case("sg_basic", _basic_ref, {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 16)}, 110),
    _sg_case("sg_vote", _vote_ref, {(0, 1): Buf(_vote_in), (0, 2): zeros(NS * 4)}, 111),
    _sg_case("sg_ballot", _ballot_ref,
             {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 16), (0, 3): zeros(NS * 32)}, 112),
    _sg_case("sg_reduce", _reduce_ref,
             {(0, 1): ints(np.uint32, NS), (0, 2): floats(np.float32, NS, -1000, 1000, 1.0),
              (0, 3): zeros(NS * 48), (0, 4): zeros(NS * 16)}, 113),
    _sg_case("sg_scan", _scan_ref,
             {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 56), (0, 3): zeros(NS * 12)}, 114),
    _sg_case("sg_shuffle", _shuffle_ref,
             {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 24)}, 115),
    _sg_case("sg_shuffle_relative", _shuffle_rel_ref,
             {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 16)}, 116,
             push=struct.pack("<I", 3)),
    _sg_case("sg_clustered", _clustered_ref(False),
             {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 40)}, 117,
             lavapipe_ref=_clustered_ref(True),
             notes="lavapipe has no clustered operations (not advertised): it returns "
                   "whole-subgroup results; lavapipe is checked against that model"),
    _sg_case("sg_quad", _quad_ref, {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 32)}, 118),
    _sg_case("sg_divergent", _divergent_ref,
             {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 16)}, 119),
    _sg_case("sg_loop", _loop_ref,
             {(0, 1): ints(np.uint32, NS, 0, 1 << 20), (0, 2): zeros(NS * 8)}, 120),
    _sg_case("sg_types", _types_ref,
             {(0, 1): ints(np.uint32, NS), (0, 2): zeros(NS * 80), (0, 3): zeros(NS * 24)}, 121),
]
