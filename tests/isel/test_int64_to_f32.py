"""int64_t/uint64_t -> float: the normalised high word with a sticky bit, one
v_cvt_f32_{i,u}32 and v_ldexp_f32 (LLVM AMDGPU's LowerINT_TO_FP32; V_CLZ_I32_U32 /
V_CLS_I32 of the ISA guide), correctly rounded. GLSL compiled by glslang, run in
radcc.emu (wave32/64) on divergent and uniform operands; expectations from exact
Python-integer round-to-nearest-even (not NumPy's int -> f64 -> f32 double rounding)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from tests.frontend.mir.conftest import glsl_to_spirv

SRC = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer L { int64_t l[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t q = l[i];
    int64_t u = l[i & 7u];
    int64_t w = l[gl_WorkGroupID.x];  // uniform
    o[4u * i + 0u] = float(q);
    o[4u * i + 1u] = float(uint64_t(q));
    o[4u * i + 2u] = float(w) + float(uint64_t(w));
    o[4u * i + 3u] = float(u);
}
"""


def f32_rne(v: int) -> float:
    # e.g. 2^24 + 1 -> 2^24 (tie, even), 2^24 + 3 -> 2^24 + 4
    """The f32 nearest to the integer v (ties to even), exactly."""
    if v == 0:
        return 0.0
    a = abs(v)
    shift = max(a.bit_length() - 24, 0)
    q, r = divmod(a, 1 << shift)
    if shift and (r > (1 << (shift - 1)) or (r == (1 << (shift - 1)) and q & 1)):
        q += 1
    return float(np.float32((q << shift) * (1 if v > 0 else -1)))


def _values() -> np.ndarray:
    rng = np.random.default_rng(64)
    vals = [0, 1, -1, 2**63 - 1, -(2**63), 2**31, 2**31 - 1, -(2**31), 2**32 - 1, 2**32,
            -(2**32), (0x80000080 << 32) | 1, 0x80000080 << 32, (0x7FFFFF80 << 32) | 1,
            0x7FFFFF80 << 32, 0xFFFFFF80, 0xFFFFFF80 | (1 << 32), 0x1000001 << 20,
            (0x1000001 << 20) | 1, -(0x1000001 << 20), -((0x1000001 << 20) | 1),
            -(0x1000003 << 30), 0x1000003 << 8, 0x8000008000000001 - 2**64,
            0xFFFFFFFF80000000 - 2**64, 0x00000000FFFFFF7F, 3 << 61, -(3 << 61)]
    out = list(vals)
    while len(out) < 64:
        bits = int(rng.integers(1, 64))
        x = int(rng.integers(0, 1 << 62)) >> (62 - bits) if bits < 62 else int(
            rng.integers(0, 1 << 62))
        out.append(x if rng.integers(0, 2) else -x)
    return np.array([v & (2**64 - 1) for v in out], np.uint64)


@pytest.mark.parametrize("wave", [32, 64])
def test_int64_to_float_is_correctly_rounded(wave: int) -> None:
    spv = glsl_to_spirv(SRC)
    asm = compile_spirv(spv, wave_size=wave).asm
    for opc in ("v_cls_i32", "v_clz_i32_u32", "v_lshlrev_b64", "v_ldexp_f32",
                "v_cvt_f32_i32", "v_cvt_f32_u32"):
        assert opc in asm, (opc, asm)
    assert "v_cvt_f64" not in asm and "v_add_f64" not in asm, asm
    vals = _values()
    out = run_compute(spv, buffers={(0, 0): vals, (0, 1): 64 * 16}, wave_size=wave)
    got = np.frombuffer(out[(0, 1)], np.float32).reshape(64, 4)
    sv = [int(v) - 2**64 if v >> 63 else int(v) for v in vals.tolist()]
    uv = [int(v) for v in vals.tolist()]
    want_s = np.array([f32_rne(v) for v in sv], np.float32)
    want_u = np.array([f32_rne(v) for v in uv], np.float32)
    np.testing.assert_array_equal(got[:, 0], want_s)
    np.testing.assert_array_equal(got[:, 1], want_u)
    w = np.float32(f32_rne(sv[0])) + np.float32(f32_rne(uv[0]))
    np.testing.assert_array_equal(got[:, 2], np.full(64, w, np.float32))
    np.testing.assert_array_equal(got[:, 3], want_s[np.arange(64) & 7])
