"""Uniform 8/16-bit push constants at constant offsets: one s_load_b32 of the dword
holding each (the push block is padded to whole dwords) shifted down by its byte
position, no global_load_u8/u16 + v_readfirstlane_b32. GLSL compiled by glslang,
run in radcc.emu (wave32/64) against NumPy's reading of the same bytes."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from tests.frontend.mir.conftest import glsl_to_spirv

SRC = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(push_constant) uniform PC {
    uint8_t a; int8_t b; uint16_t c;     // bytes 0, 1, 2
    int8_t e; uint8_t g; int16_t d;      // bytes 4, 5, 6
    float16_t h; uint8_t last;           // bytes 8, 10 (block of 11 bytes)
} pc;
layout(std430, set = 0, binding = 0) writeonly buffer O { int o[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[8u * i + 0u] = int(pc.a) + int(i);
    o[8u * i + 1u] = int(pc.b);
    o[8u * i + 2u] = int(pc.c);
    o[8u * i + 3u] = int(pc.e);
    o[8u * i + 4u] = int(pc.g) * int(i);
    o[8u * i + 5u] = int(pc.d);
    o[8u * i + 6u] = int(float(pc.h) * 4.0);
    o[8u * i + 7u] = int(pc.last);
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_uniform_small_push_constants_are_smem(wave: int) -> None:
    spv = glsl_to_spirv(SRC)
    asm = compile_spirv(spv, wave_size=wave).asm
    assert "global_load_u8" not in asm and "global_load_u16" not in asm, asm
    assert "v_readfirstlane_b32" not in asm, asm
    assert "s_load_b32" in asm and "s_lshr_b32" in asm, asm
    # bytes 0..10 as the block's members, byte 11 the padding
    push = struct.pack("<BbHbBheBx", 0xF3, -7, 0xBEEF, -128, 200, -12345, 2.75, 0xA5)
    assert len(push) == 12
    out = run_compute(spv, buffers={(0, 0): 64 * 8 * 4}, push_constants=push, wave_size=wave)
    got = np.frombuffer(out[(0, 0)], np.int32).reshape(64, 8)
    i = np.arange(64)
    want = np.stack([0xF3 + i, np.full(64, -7), np.full(64, 0xBEEF), np.full(64, -128),
                     200 * i, np.full(64, -12345), np.full(64, 11), np.full(64, 0xA5)], 1)
    np.testing.assert_array_equal(got, want)
