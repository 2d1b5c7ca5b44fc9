"""Loads of 8/16-bit vectors in whole dwords (issue 9: ncnn's fp16 and int8 storage):
a dword-aligned global load of 32..128 bits is one ``global_load_b32/b64/b128`` (or
``s_load`` when uniform) whose components isel shifts out of the dwords, as ACO's one
``buffer_load_b64`` for a 16-bit vec4 (ncnn absval_fp16: four ``global_load_u16``
before). Checked in the strict emulator, wave32 and wave64, against NumPy; the
listing has no sub-dword load left."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from tests.frontend.mir.conftest import glsl_to_spirv

SRC = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer H { f16vec4 h[]; };
layout(set = 0, binding = 1) readonly buffer S { i16vec2 s[]; };
layout(set = 0, binding = 2) readonly buffer B { i8vec4 b[]; };
layout(set = 0, binding = 3) readonly buffer U { u8vec4 u[]; };
layout(set = 0, binding = 4) writeonly buffer O { vec4 o[]; };
layout(set = 0, binding = 5) writeonly buffer I { ivec4 oi[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    o[2u * i] = vec4(h[i]);
    o[2u * i + 1u] = vec4(h[64u + g]);  // uniform: a scalar load of the dwords
    ivec2 x = ivec2(s[i]);
    oi[3u * i] = ivec4(x, ivec2(s[64u + g]));
    oi[3u * i + 1u] = ivec4(b[i]);
    oi[3u * i + 2u] = ivec4(u[i]) + ivec4(b[64u + g]);
}
"""

N = 64


@pytest.mark.parametrize("wave", [32, 64])
def test_sub_dword_vector_loads(wave: int) -> None:
    spirv = glsl_to_spirv(SRC)
    asm = compile_spirv(spirv, wave_size=wave).asm
    assert "load_u16" not in asm and "load_i16" not in asm and "load_u8" not in asm \
        and "load_i8" not in asm, asm
    assert "global_load_b64" in asm and "s_lshr_b32" in asm, asm
    rng = np.random.default_rng(wave)
    h = rng.normal(0, 100, (N + 1) * 4).astype(np.float16)
    s = rng.integers(-32768, 32768, (N + 1) * 2).astype(np.int16)
    b = rng.integers(-128, 128, (N + 1) * 4).astype(np.int8)
    u = rng.integers(0, 256, N * 4).astype(np.uint8)
    out = run_compute(spirv, groups=(1, 1, 1), wave_size=wave, buffers={
        (0, 0): h.tobytes(), (0, 1): s.tobytes(), (0, 2): b.tobytes(), (0, 3): u.tobytes(),
        (0, 4): bytes(N * 32), (0, 5): bytes(N * 48)})
    o = np.frombuffer(out[(0, 4)], np.float32).reshape(N, 2, 4)
    hv = h.astype(np.float32).reshape(N + 1, 4)
    np.testing.assert_array_equal(o[:, 0], hv[:N])
    np.testing.assert_array_equal(o[:, 1], np.broadcast_to(hv[N], (N, 4)))
    oi = np.frombuffer(out[(0, 5)], np.int32).reshape(N, 3, 4)
    sv = s.astype(np.int32).reshape(N + 1, 2)
    np.testing.assert_array_equal(oi[:, 0, :2], sv[:N])
    np.testing.assert_array_equal(oi[:, 0, 2:], np.broadcast_to(sv[N], (N, 2)))
    bv = b.astype(np.int32).reshape(N + 1, 4)
    np.testing.assert_array_equal(oi[:, 1], bv[:N])
    np.testing.assert_array_equal(oi[:, 2], u.astype(np.int32).reshape(N, 4) + bv[N])
