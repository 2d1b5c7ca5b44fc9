"""lower_system_values: with a workgroup size of 1 in y and z, the y/z components of
gl_GlobalInvocationID are the workgroup id's (uniform: the guard on them is a scalar
compare, as in ACO's code) and those of gl_LocalInvocationID are 0; results match
NumPy in the strict emulator on a 3-D dispatch, wave32 and wave64."""

from __future__ import annotations

import numpy as np
import pytest

import radcc

SRC = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) writeonly buffer B { uint b[]; };
layout(push_constant) uniform P { uint h; uint d; } p;
void main() {
  uint gx = gl_GlobalInvocationID.x, gy = gl_GlobalInvocationID.y;
  uint gz = gl_GlobalInvocationID.z;
  if (gy >= p.h || gz >= p.d) return;
  b[(gz * 4u + gy) * 64u + gx] = gz * 10000u + gy * 1000u + gl_LocalInvocationID.y * 100u
                                 + gl_LocalInvocationID.z * 10u + gx;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_uniform_y_and_z(wave: int) -> None:
    k = radcc.compile(SRC, stage="comp", wave_size=wave)
    body = [x for x in k.asm.splitlines() if x.strip() and not x.strip().startswith(";")]
    assert any(x.strip().startswith("s_cmp_") for x in body), k.asm
    assert not any(x.strip().startswith(("v_cmp_ge_u32", "v_cmp_lt_u32", "v_cmpx"))
                   for x in body), k.asm
    out = radcc.run(k, groups=(1, 4, 2), buffers={0: np.full(4 * 2 * 64, 7, np.uint32)},
                    push_constants=[3, 2])
    want = np.full(4 * 2 * 64, 7, np.uint32)
    for gz in range(2):
        for gy in range(3):
            for gx in range(64):
                want[(gz * 4 + gy) * 64 + gx] = gz * 10000 + gy * 1000 + gx
    np.testing.assert_array_equal(out[(0, 0)], want)
