"""Conversion forms isel selects as ACO does, on GLSL compiled by glslang and run in
radcc.emu; expectations from NumPy (and the ISA guide's meaning of each opcode:
V_CVT_F32_UBYTE{0..3} converts byte N of the source, unsigned, to f32)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
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


F16_TO_I16 = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer H { float16_t h[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t z = h[i];
    o[2 * i] = int(int16_t(z));
    o[2 * i + 1] = int(uint16_t(abs(z) * float16_t(2.0)));
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_f16_to_16bit_integers_is_one_conversion(wave: int) -> None:
    """int16_t/uint16_t of an f16: v_cvt_i16_f16 / v_cvt_u16_f16 (truncating), no trip
    through f32; abs(z) is the |z| modifier of v_mul_f16."""
    spv = glsl_to_spirv(F16_TO_I16)
    asm = compile_spirv(spv, wave_size=wave).asm
    assert "v_cvt_i16_f16" in asm and "v_cvt_u16_f16" in asm, asm
    assert "v_cvt_f32_f16" not in asm and "0x7fff" not in asm, asm
    h = np.random.default_rng(6).uniform(-16000, 16000, 64).astype(np.float16)
    h[:4] = [-0.75, 0.75, -16383.0, 1.5]
    out = run_compute(spv, buffers={(0, 0): h, (0, 1): 64 * 8}, wave_size=wave)
    got = np.frombuffer(out[(0, 1)], np.int32).reshape(64, 2)
    hd = h.astype(np.float64)
    assert (got[:, 0] == np.trunc(hd)).all()
    assert (got[:, 1] == np.trunc(np.abs(hd) * 2)).all()


BOOL_MUL = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { ivec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i];
    o[i] = ivec4(lessThanEqual(x, x.yzwx)) * x.wzyx;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_bool_to_int_times_x_is_a_select(wave: int) -> None:
    """int(c) * x is c ? x : 0: one v_cndmask_b32 per component, no multiply."""
    spv = glsl_to_spirv(BOOL_MUL)
    asm = compile_spirv(spv, wave_size=wave).asm
    assert "v_mul_lo_u32" not in asm and asm.count("cndmask_b32") == 4, asm  # VOPD too
    a = np.random.default_rng(8).integers(-50, 50, (64, 4)).astype(np.int32)
    out = run_compute(spv, buffers={(0, 0): a, (0, 1): 64 * 16}, wave_size=wave)
    got = np.frombuffer(out[(0, 1)], np.int32).reshape(64, 4)
    want = (a <= a[:, [1, 2, 3, 0]]).astype(np.int32) * a[:, [3, 2, 1, 0]]
    assert (got == want).all()
