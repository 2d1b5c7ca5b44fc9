"""Divergent 16-bit integer min/max/clamp/abs/sign/shifts in ACO's native 16-bit
VALU forms (v_min_i16, v_max_u16, v_med3_i16, v_sub_nc_u16 + v_max_i16,
v_ashrrev_i16, v_lshrrev_b16, v_lshlrev_b16: they read the low halves, so no
sign/zero extension first), and 16-bit division in f32 (v_rcp_f32). GLSL compiled
by glslang, run in radcc.emu (wave32/64); expectations from NumPy int16/uint16
arithmetic (GLSL: shifts by s in [0, 15], division truncating)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from tests.frontend.mir.conftest import glsl_to_spirv

SRC = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int16_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int16_t x = a[i], y = b[i];
    uint16_t ux = uint16_t(x), uy = uint16_t(y);
    int16_t s = y & int16_t(15);
    uint k = 12u * i;
    o[k + 0] = min(x, y);
    o[k + 1] = max(x, y);
    o[k + 2] = int16_t(min(ux, uy));
    o[k + 3] = int16_t(max(ux, uy));
    o[k + 4] = clamp(x, int16_t(-20), int16_t(20));
    o[k + 5] = abs(x);
    o[k + 6] = sign(x);
    o[k + 7] = x >> s;
    o[k + 8] = int16_t(ux >> uint16_t(s));
    o[k + 9] = x << s;
    o[k + 10] = (y == int16_t(0)) ? int16_t(0) : int16_t(ux / uy);
    o[k + 11] = int16_t(clamp(ux, uint16_t(16), uint16_t(1000)));
}
"""


def _want(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    ux, uy = x.view(np.uint16), y.view(np.uint16)
    s = (y & 15).astype(np.int64)
    xi = x.astype(np.int64)
    with np.errstate(all="ignore"):
        div = np.where(uy == 0, 0, ux.astype(np.int64) // np.maximum(uy, 1))
    cols = [np.minimum(x, y), np.maximum(x, y), np.minimum(ux, uy), np.maximum(ux, uy),
            np.clip(x, -20, 20), np.abs(xi), np.sign(xi), xi >> s,
            ux.astype(np.int64) >> s, xi << s, div, np.clip(ux, 16, 1000)]
    return np.stack([np.asarray(c).astype(np.int64) & 0xFFFF for c in cols], 1)


@pytest.mark.parametrize("wave", [32, 64])
def test_int16_native_forms(wave: int) -> None:
    spv = glsl_to_spirv(SRC)
    asm = compile_spirv(spv, wave_size=wave).asm
    for opc in ("v_min_i16", "v_max_i16", "v_min_u16", "v_max_u16", "v_med3_i16",
                "v_med3_u16", "v_ashrrev_i16", "v_lshrrev_b16", "v_lshlrev_b16",
                "v_sub_nc_u16", "v_rcp_f32"):
        assert opc in asm, (opc, asm)
    for opc in ("v_bfe_i32", "v_min_i32", "v_max_i32", "v_med3_i32", "v_mul_hi_u32"):
        assert opc not in asm, (opc, asm)
    assert asm.count("v_med3_i16") == 2, asm  # clamp and sign
    rng = np.random.default_rng(16)
    x = rng.integers(-32768, 32768, 64).astype(np.int16)
    y = rng.integers(-32768, 32768, 64).astype(np.int16)
    x[:8] = [-32768, 32767, 0, -1, 1, -20, 21, -21]
    y[:8] = [-1, 1, 0, 15, -32768, 7, 0, 32767]
    out = run_compute(spv, buffers={(0, 0): x, (0, 1): y, (0, 2): 64 * 12 * 2},
                      wave_size=wave)
    got = np.frombuffer(out[(0, 2)], np.uint16).reshape(64, 12).astype(np.int64)
    np.testing.assert_array_equal(got, _want(x, y))
