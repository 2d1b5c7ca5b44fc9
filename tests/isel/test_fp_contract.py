"""a * b + c is fused into one fma (SPIR-V allows the contraction; ACO fuses) unless
the result is GLSL ``precise`` (SPIR-V NoContraction: MIR ``exact``, machine IR
``is_precise``). Expectations from NumPy: the fused result is the exact a*b+c
rounded once (inputs in [1, 2): the f64 sum is exact), the precise one rounds the
product first."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from tests.frontend.mir.conftest import glsl_to_spirv

SRC = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec2 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    precise float p = v.x * v.y + v.z;
    o[i] = vec2(p, v.y * v.z + v.w);
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_mul_add_fused_unless_precise(wave: int) -> None:
    spv = glsl_to_spirv(SRC)
    asm = compile_spirv(spv, wave_size=wave).asm
    ops = [w for ln in asm.splitlines() if ln.startswith("\tv_")
           for w in ln.replace("::", " ").split() if w.startswith("v_")]  # VOPD: both halves
    fused = [x for x in ops if x.startswith(("v_fma_f32", "v_fmac_f32", "v_dual_fmac_f32"))]
    assert len(fused) == 1, asm
    assert any("add_f32" in x for x in ops) and any("mul_f32" in x for x in ops), asm
    v = np.random.default_rng(7).uniform(1, 2, (64, 4)).astype(np.float32)
    out = run_compute(spv, buffers={(0, 0): v, (0, 1): 64 * 8}, wave_size=wave)
    got = np.frombuffer(out[(0, 1)], np.float32).reshape(64, 2)
    d = v.astype(np.float64)
    precise = (v[:, 0] * v[:, 1]).astype(np.float32) + v[:, 2]
    fma = (d[:, 1] * d[:, 2] + d[:, 3]).astype(np.float32)
    assert (got[:, 0] == precise).all() and (got[:, 1] == fma).all()
    assert (precise != (d[:, 0] * d[:, 1] + d[:, 2]).astype(np.float32)).any()  # tells apart
