"""lower_local_arrays with a constant index outside the array (llama.cpp's coopmat flash
attention at its spec-constant defaults: ``float Lf[rows_per_thread]`` with 1 row, code
for rows 1-3 kept): the index is clamped as a dynamic one, nothing is left in memory,
and the reachable path computes what the shader says (strict emulator vs NumPy)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from radcc.driver.run import run_compute
from radcc.passes.options import DebugOptions

from ..mir.conftest import glsl_to_spirv

SRC = """
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int R = 1;
layout(set = 0, binding = 0) buffer B { float x[]; };
layout(push_constant) uniform P { uint rows; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  float acc[R];
  acc[0] = x[i];
  for (uint r = 1; r < 4; r++)
    if (r < p.rows) acc[r] = acc[r] * 2.0;  // rows 1-3: outside acc when R is 1
  float s = acc[0];
  if (p.rows > 2) s += acc[R + 1];  // a spec-constant index: 2
  x[i] = s + 1.0;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_constant_index_outside_the_array(wave: int) -> None:
    spv = glsl_to_spirv(SRC)
    x = np.arange(64, dtype=np.float32)
    out = run_compute(spv, buffers={(0, 0): x.tobytes()}, push_constants=struct.pack("<I", 1),
                      wave_size=wave,
                      debug_options=DebugOptions.parse("validateir,validatera"))
    np.testing.assert_array_equal(np.frombuffer(out[(0, 0)], np.float32), x + 1)
