"""Cases: register pressure beyond the register file (spilling, docs/spill.md).

`spill_vgpr` keeps 320 per-invocation values live at once (VGPRs to scratch),
`spill_sgpr` 128 uniform values (SGPRs to lanes of a linear VGPR) beside 24
per-invocation ones, `spill_scratch_array` 288 values spilled after a local
array that lives in scratch (slots placed after it in the private segment),
`spill_scratch_far` the same after a 4224-byte array (slots beyond the 4 KiB the
scratch immediate offset reaches: an SGPR base). The references run the shaders' arithmetic per invocation in
Python with explicit uint32 wrap-around; tests/passes/test_spill_glsl.py checks
that radcc really spills them.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from tests.e2e.glsl.refs import WG, N, py, wrap
from tests.e2e.glsl_harness import Case, Run, ints, zeros

G = (N // WG, 1, 1)
L = (WG, 1, 1)
M = (1 << 32) - 1
R = dict[tuple[int, int], Any]


def _h(w: int, n: int) -> int:
    """H(n) of both shaders: (w ^ n*0x01000193) * (n*0x9E3779B1 | 1) + (w >> (n & 15))."""
    return ((w ^ (n * 0x01000193 & M)) * ((n * 0x9E3779B1 & M) | 1) + (w >> (n & 15))) & M


def _spill_vgpr_ref(r: Run) -> R:
    (rounds,) = r.pushed("<I")
    out: list[int] = []
    for v in py(r.i((0, 0))):
        x = [_h(v, n) for n in range(320)]
        acc = v
        if v & 1:
            for n in reversed(range(320)):
                acc = (((acc + x[n]) * 33) ^ (acc >> 7)) & M
        else:
            for n in range(320):
                acc = ((acc ^ x[n]) * 0x01000193 + (acc >> 13)) & M
        first = acc
        for n in range(64):
            acc = (acc * 7 + x[n * 5]) & M
        t = 0
        for q in range(rounds):
            t = (t * 3 + q) & M
            for n in range(64):
                t = (t + (x[n * 5] ^ ((t << 1) & M))) & M
        out += [first, acc, t]
    return {(0, 1): wrap(out, np.uint32)}


def _spill_sgpr_ref(r: Run) -> R:
    seed, rounds = r.pushed("<II")
    vals = py(r.i((0, 0)))
    out: list[int] = []
    for i, v in enumerate(vals):
        w = ((i // WG) * 0x10001 ^ seed) & M
        s = [_h(w, n) for n in range(128)]
        y = [(v * (n * 2 + 3) + n) & M for n in range(24)]
        acc = seed
        for n in reversed(range(128)):
            acc = (((acc + s[n]) * 33) ^ (acc >> 7)) & M
        t = acc
        for q in range(rounds):
            t = (t + q) & M
            for n in range(32):
                t = ((t ^ s[n * 4]) + (t << 3)) & M
        per = v
        for n in range(24):
            per = ((per ^ y[n]) * 0x01000193) & M
        out += [acc, t, (per + s[5] + s[127]) & M]
    return {(0, 1): wrap(out, np.uint32)}


def _spill_scratch_array_ref(r: Run) -> R:
    out: list[int] = []
    for v in py(r.i((0, 0))):
        tab = [(v * j + (j ^ 0x5A)) & M for j in range(64)]
        x = [_h(v, n) for n in range(288)]
        acc = tab[v & 63]
        for n in reversed(range(288)):
            acc = (((acc + x[n]) * 33) ^ (acc >> 7)) & M
        out += [acc, acc ^ tab[acc & 63]]
    return {(0, 1): wrap(out, np.uint32)}


def _spill_scratch_far_ref(r: Run) -> R:
    out: list[int] = []
    for v in py(r.i((0, 0))):
        tab = [(v * j + (j ^ 0x5A)) & M for j in range(1056)]
        x = [_h(v, n) for n in range(288)]
        acc = tab[v % 1056]
        for n in reversed(range(288)):
            acc = (((acc + x[n]) * 33) ^ (acc >> 7)) & M
        out += [acc, acc ^ tab[acc % 1056]]
    return {(0, 1): wrap(out, np.uint32)}


CASES: list[Case] = [
    Case("spill_vgpr", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 12)},
         _spill_vgpr_ref, push=struct.pack("<I", 3), seed=120, category="register pressure"),
    Case("spill_sgpr", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 12)},
         _spill_sgpr_ref, push=struct.pack("<II", 0x5EED1234, 4), seed=121,
         category="register pressure"),
    Case("spill_scratch_array", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 8)},
         _spill_scratch_array_ref, seed=122, category="register pressure"),
    Case("spill_scratch_far", G, L, {(0, 0): ints(np.uint32, N), (0, 1): zeros(N * 8)},
         _spill_scratch_far_ref, seed=123, category="register pressure"),
]
