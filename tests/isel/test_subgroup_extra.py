"""tests/isel/glsl/sg_extra.comp compiled by radcc and run in strict radcc.emu (wave32 and
wave64) against a NumPy reading lane by lane: the subgroup is the wave (32 or 64
consecutive invocations), the active lanes those with ``a[i] & 3 != 0``; a result read
from an inactive lane (undefined) is not compared.
"""

from __future__ import annotations

from functools import reduce
from pathlib import Path

import numpy as np
import pytest

from radcc.oracle import spirv_tools

SHADER = Path(__file__).parent / "glsl" / "sg_extra.comp"
N = 128
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def _spirv() -> bytes:
    r = spirv_tools.compile_glsl(SHADER, "vulkan1.3")
    assert r.ok, r.text
    return r.data


def _reference(a: list[int], wave: int) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    o = np.zeros((N, 24), np.uint64)
    om = np.zeros((N, 24), bool)
    q = np.zeros((N, 6), np.uint64)
    qm = np.zeros((N, 6), bool)
    d = np.zeros((N, 2), np.float64)
    dm = np.zeros((N, 2), bool)
    for base in range(0, N, wave):
        act = [j for j in range(wave) if a[base + j] & 3]
        if not act:
            continue
        v = {j: a[base + j] for j in act}
        p = {j: bool(v[j] & 4) for j in act}
        ball = sum(1 << j for j in act if p[j])
        w = {j: (v[j] * 0x100000001 + j) & M64 for j in act}
        x = {j: float((v[j] & 0xFFF) - 2048) * 0.5 for j in act}
        n = wave

        def cl(j: int, c: int, act: list[int] = act) -> list[int]:
            return [t for t in act if t // c == j // c]

        for j in act:
            row, ok = o[base + j], om[base + j]

            def put(k: int, val: int, valid: bool = True, row: np.ndarray = row,
                    ok: np.ndarray = ok) -> None:
                row[k] = val & M32
                ok[k] = valid

            put(0, sum(v[t] for t in cl(j, 16)))
            put(1, max(v[t] for t in cl(j, 32)))
            put(2, min(v[t] >> 3 for t in cl(j, 16)))
            put(3, 7 * len(act))
            put(4, 5 if len(act) % 2 else 0)
            put(5, 20)
            src = (v[j] >> 8) & (n - 1)
            put(6, v.get(src, 0), src in v)
            for k, m in ((7, 4), (8, 16 & (n - 1)), (9, 37 & (n - 1))):
                put(k, v.get(j ^ m, 0), (j ^ m) in v)
            ps = [p[t] for t in act]
            put(10, int(len(set(ps)) == 1) | int(all(ps)) << 1 | int(any(ps)) << 2
                | int(len({v[t] & 1 for t in act}) == 1) << 3
                | int(len({(p[t], bool(v[t] & 8)) for t in act}) == 1) << 4
                | int(len({v[t] & 16 for t in act}) == 1) << 5)
            put(11, (ball >> ((v[j] >> 4) & (n - 1))) & 1)
            put(12, (ball.bit_length() - 1) | ((ball & -ball).bit_length() - 1) << 8, ball != 0)
            below = ball & ((1 << j) - 1)
            put(13, (bin(below).count("1") + ((ball >> j) & 1)) | bin(ball).count("1") << 8
                | bin(below).count("1") << 16)
            before = [p[t] for t in act if t < j]
            put(14, int(any(before) or p[j]) | int(all(before)) << 1
                | (sum(ps) & 1) << 2 | int(any(ps)) << 3 | int(all(ps)) << 4)
            put(15, int(p[act[0]]) | int(p.get(j ^ 1, False)) << 1, (j ^ 1) in p)
            put(16, reduce(lambda s, t: s * (v[t] | 1) & M32, [t for t in act if t < j], 1))
            put(17, max(v[t] >> 5 for t in act if t <= j))
            put(18, v.get(5, 0), 5 in v)
            put(19, sum(p[t] for t in cl(j, 8)) & 1)
            qs = (j & ~3) + 2
            put(20, v.get(qs, 0), qs in v)
            put(21, sum(v[t] for t in cl(j, 4)))
            rank = act.index(j)
            put(22, 7 * (rank + 1) | 3 * rank << 16)
            put(23, (9 if rank else 0) | 5 * ((rank + 1) & 1) << 8
                | (6 if rank else 0xFF) << 16 | 2 << 24)
            q[base + j, 0] = sum(w.values()) & M64
            s64 = [w[t] - (1 << 64) if w[t] >> 63 else w[t] for t in act]
            q[base + j, 1] = min(s64) & M64
            q[base + j, 2] = w.get(src, 0)
            q[base + j, 3] = (sum(w[t] for t in act if t < j) & M64) ^ max(
                w[t] for t in act if t <= j)
            q[base + j, 4] = reduce(lambda s, t: s * (w[t] | 1) & M64, act, 1)
            q[base + j, 5] = reduce(lambda s, t: s * w[t] & M64, [t for t in act if t <= j], 1) \
                ^ reduce(lambda s, t: s * w[t] & M64, cl(j, 4), 1)
            qm[base + j] = [True, True, src in w, True, True, True]
            d[base + j, 0] = sum(x[t] for t in act if t <= j)
            d[base + j, 1] = min(x[t] for t in cl(j, 8))
            dm[base + j] = True
    return ({"o": o.astype(np.uint32), "q": q, "d": d}, {"o": om, "q": qm, "d": dm})


@pytest.mark.parametrize("wave", [32, 64])
def test_sg_extra(wave: int) -> None:
    from radcc.driver.run import run_compute

    rng = np.random.default_rng(7 + wave)
    a = rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)
    a[:8] |= 3  # lane 5 and the first quad active in each first subgroup
    out = run_compute(_spirv(), groups=(2, 1, 1),
                      buffers={(0, 0): a, (0, 1): N * 24 * 4, (0, 2): N * 6 * 8,
                               (0, 3): N * 2 * 8}, wave_size=wave)
    got = {"o": np.frombuffer(out[(0, 1)], np.uint32).reshape(N, 24),
           "q": np.frombuffer(out[(0, 2)], np.uint64).reshape(N, 6),
           "d": np.frombuffer(out[(0, 3)], np.float64).reshape(N, 2)}
    want, mask = _reference([int(x) for x in a], wave)
    for name in ("o", "q", "d"):
        bad = np.argwhere(mask[name] & (got[name] != want[name]))
        assert bad.size == 0, (
            f"{name}: {len(bad)} differ, first (invocation, word) {bad[:6].tolist()}: got "
            f"{[got[name][tuple(b)] for b in bad[:6]]}, want "
            f"{[want[name][tuple(b)] for b in bad[:6]]}")
