"""Conversion forms isel selects as ACO does, on GLSL compiled by glslang and run in
radcc.emu; expectations from NumPy (and the ISA guide's meaning of each opcode:
V_CVT_F32_UBYTE{0..3} converts byte N of the source, unsigned, to f32)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.compile import compile_spirv
from radcc.compute import run_compute
from tests.frontend.mir.conftest import glsl_to_spirv

UBYTES = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    o[i] = vec4(float(x & 0xffu), float(bitfieldExtract(x, 8, 8)),
                float(bitfieldExtract(x, 16, 8)), float(x >> 24));
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_u2f32_of_a_byte_is_cvt_f32_ubyte(wave: int) -> None:
    spv = glsl_to_spirv(UBYTES)
    asm = compile_spirv(spv, wave_size=wave).asm
    for k in range(4):
        assert f"v_cvt_f32_ubyte{k}" in asm, asm
    assert "v_bfe_u32" not in asm and "v_cvt_f32_u32" not in asm, asm
    a = np.random.default_rng(5).integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    out = run_compute(spv, buffers={(0, 0): a, (0, 1): 64 * 16}, wave_size=wave)
    got = np.frombuffer(out[(0, 1)], np.float32).reshape(64, 4)
    want = np.stack([(a >> np.uint32(8 * k)) & np.uint32(0xFF) for k in range(4)], 1)
    assert (got == want.astype(np.float32)).all()
