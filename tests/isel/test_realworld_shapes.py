"""Shapes from real-world compute shaders (issue 9: llama.cpp's Vulkan matmul and
mat-vec kernels) that isel got wrong, reduced to shaders of our own; each compiles
with the IR and register-allocation validators on and runs right in the strict
emulator (reference: the same loops in Python)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from radcc.driver.run import run_compute
from radcc.passes.manager import DebugOptions
from tests.frontend.mir.conftest import glsl_to_spirv

CHECKED = DebugOptions.parse("validateir,validatera")

# An inner loop whose header is a uniform if with a jump on both sides (what
# spirv-opt makes of `[[unroll]] for (k = 0; k < 1; k++)` in mul_mat_vec): the
# endif after it is logically unreachable and must still be closed with
# p_logical_end (was: "p_logical_start without p_logical_end" after isel).
BOTH_JUMP = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint n; uint m; } p;
void main() {
    uint t = gl_LocalInvocationID.x;
    uint s = 0u;
    for (uint i = 0u; i < p.n; i++) {
        uint k = 0u;
        while (true) {
            if (k < p.m) { s += a[(i + k + t) % 64u] * (k + 1u); k++; continue; }
            else { break; }
        }
        if (t % 3u == 0u) {
            uint j = 0u;
            while (true) {
                if (j < i) { s ^= j << 3; j++; continue; } else { break; }
            }
        }
    }
    o[t] = s;
}
"""


def _both_jump_ref(a: list[int], n: int, m: int) -> list[int]:
    out = []
    for t in range(64):
        s = 0
        for i in range(n):
            for k in range(m):
                s = (s + a[(i + k + t) % 64] * (k + 1)) & 0xFFFFFFFF
            if t % 3 == 0:
                for j in range(i):
                    s ^= (j << 3) & 0xFFFFFFFF
        out.append(s)
    return out


@pytest.mark.parametrize("wave", [32, 64])
def test_uniform_if_jumping_on_both_sides_in_a_loop(wave: int) -> None:
    spv = glsl_to_spirv(BOTH_JUMP)
    a = np.random.default_rng(9).integers(0, 1 << 20, 64, dtype=np.uint32)
    n, m = 5, 3
    out = run_compute(spv, buffers={(0, 0): a, (0, 1): 64 * 4},
                      push_constants=struct.pack("<II", n, m), wave_size=wave,
                      debug_options=CHECKED)
    got = np.frombuffer(out[(0, 1)], np.uint32)
    assert got.tolist() == _both_jump_ref([int(x) for x in a], n, m)
