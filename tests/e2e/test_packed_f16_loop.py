"""Loop-carried packed f16 accumulators (issue 9: ncnn's fp16 convolution and
deconvolution loops, ``sum += a * b`` on f16vec4): ``vectorize_alu16.pair_loop_phis``
makes each pair of per-component phis one 16x2 phi, so the adds are ``v_pk_add_f16``
(or ``v_pk_fma_f16``) on an accumulator dword, as ACO does after nir_opt_vectorize on
phis. Covered: a divergent accumulator fed by a packed product, an ``fma`` one, one
starting from a non-splat constant (packed once before the loop), a uniform one
(SGPR dwords, ``p_linear_phi``), and the accumulators read after the loop in swapped
order (the high half as a scalar).

Checked in the strict emulator, wave32 and wave64, against NumPy float16 computing
the same sequence of operations. Tolerance 0 (bit-exact): every shader operation is
one correctly rounded f16 operation; NumPy computes add and mul in float32 (exact for
two float16 operands: 24 >= 2*11+2 significand bits) and rounds once to float16, and
``fma`` in float64 (exact for these magnitudes: inputs in [-2, 2] with at most 11
significant bits, sums below 2^7) rounded once. The listing has no per-half f16 add or
fma left in the loop."""

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
layout(set = 0, binding = 0) readonly buffer A { f16vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { f16vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { f16vec4 o[]; };
layout(push_constant) uniform P { int n; } p;
void main() {
    uint g = gl_GlobalInvocationID.x;
    f16vec4 sum = f16vec4(0.0hf);
    f16vec4 acc = f16vec4(1.0hf, -2.0hf, 0.5hf, 3.0hf);
    f16vec4 u = f16vec4(0.25hf);
    for (int i = 0; i < p.n; i++) {
        f16vec4 x = a[g * uint(p.n) + uint(i)];
        f16vec4 k = b[i];
        sum += x * k;
        acc = fma(x, x.yxwz, acc);
        u += k * k;
    }
    o[3u * g] = sum;
    o[3u * g + 1u] = acc.wzyx;
    o[3u * g + 2u] = u;
}
"""

N, STEPS = 64, 5


def _reference(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    a = a.reshape(N, STEPS, 4)
    b = b.reshape(-1, 4)
    f16, f32 = np.float16, np.float32
    s = np.zeros((N, 4), f16)
    acc = np.tile(np.array([1, -2, 0.5, 3], f16), (N, 1))
    u = np.full(4, 0.25, f16)
    for i in range(STEPS):
        x, k = a[:, i], b[i]
        s = (s.astype(f32) + (x.astype(f32) * k.astype(f32)).astype(f16).astype(f32)).astype(f16)
        acc = (x.astype(np.float64) * x[:, [1, 0, 3, 2]] + acc.astype(np.float64)).astype(f16)
        u = (u.astype(f32) + (k.astype(f32) * k.astype(f32)).astype(f16).astype(f32)).astype(f16)
    return s, acc[:, [3, 2, 1, 0]], np.tile(u, (N, 1))


@pytest.mark.parametrize("wave", [32, 64])
def test_packed_loop_accumulators(wave: int) -> None:
    spirv = glsl_to_spirv(SRC)
    asm = compile_spirv(spirv, wave_size=wave).asm
    ops = [ln.split()[0] for ln in asm.splitlines() if ln.strip().startswith(("v_", "s_"))]
    assert not [o for o in ops if o.split("_e")[0] in ("v_add_f16", "v_fma_f16", "v_mul_f16")
                ], asm
    assert "v_pk_add_f16" in ops and "v_pk_fma_f16" in ops, asm
    rng = np.random.default_rng(wave)
    a = (rng.integers(-64, 65, N * STEPS * 4) / 32).astype(np.float16)
    b = (rng.integers(-64, 65, STEPS * 4) / 32).astype(np.float16)
    out = run_compute(spirv, groups=(1, 1, 1), wave_size=wave, buffers={
        (0, 0): a.tobytes(), (0, 1): b.tobytes(), (0, 2): bytes(N * 24)},
        push_constants=np.array([STEPS], np.int32).tobytes())
    o = np.frombuffer(out[(0, 2)], np.float16).reshape(N, 3, 4)
    for slot, want in enumerate(_reference(a, b)):
        np.testing.assert_array_equal(o[:, slot].view(np.uint16), want.view(np.uint16),
                                      err_msg=f"slot {slot}")
