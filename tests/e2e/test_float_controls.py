"""SPV_KHR_float_controls' execution modes honoured as ACO honours them (issue 9):
the kernel descriptor's FLOAT_DENORM_MODE_* / FLOAT_ROUND_MODE_* fields (ACO's
``float_mode``, aco_instruction_selection.cpp ``setup_fp_mode``) and, with 32-bit
denormals kept, the f32 transcendentals (which flush denormal inputs whatever MODE
says) scaled around as ACO's ``emit_rcp``/``emit_rsq``/``emit_sqrt``/``emit_log2``.
Each shader runs in the strict emulator, wave32 and wave64, against NumPy. The modes
come from GL_EXT_spirv_intrinsics (glslang 12 has no GLSL spelling of its own)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from tests.frontend.mir.conftest import glsl_to_spirv

N = 64

F32_BODY = """
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    c[7u * i] = x * y;
    c[7u * i + 1u] = x + y;
    c[7u * i + 2u] = sqrt(abs(x));
    c[7u * i + 3u] = inversesqrt(abs(x));
    c[7u * i + 4u] = 1.0 / x;
    c[7u * i + 5u] = log2(abs(x));
    c[7u * i + 6u] = fma(x, y, y * 1e-6);
}
"""
HEAD = "#version 450\n#extension GL_EXT_spirv_intrinsics : require\n"
# DenormPreserve 32 (execution mode 4459, capability 4464)
PRESERVE32 = HEAD + "spirv_execution_mode(capabilities = [4464], 4459, 32);\n" + F32_BODY
DEFAULT32 = "#version 450\n" + F32_BODY


def _f32_inputs(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    tiny = np.float32(2.0 ** -126)  # the smallest normal: below it, denormals
    a = (rng.uniform(-1, 1, N) * tiny).astype(np.float32)  # denormals of both signs
    a[:4] = [1.0, 2.0 ** -100, 3.0, -2.0 ** -149]
    b = rng.uniform(0.25, 2, N).astype(np.float32)
    return a, b


def _run_f32(src: str, wave: int) -> tuple[np.ndarray, str, np.ndarray, np.ndarray]:
    spirv = glsl_to_spirv(src, "vulkan1.2")
    a, b = _f32_inputs(wave)
    out = run_compute(spirv, wave_size=wave, buffers={
        (0, 0): a.tobytes(), (0, 1): b.tobytes(), (0, 2): bytes(4 * 7 * N)})
    c = np.frombuffer(out[(0, 2)], np.float32).reshape(N, 7)
    return c, compile_spirv(spirv, wave_size=wave).asm, a, b


@pytest.mark.parametrize("wave", [32, 64])
def test_denorm_preserve_32_keeps_denormals(wave: int) -> None:
    c, asm, a, b = _run_f32(PRESERVE32, wave)
    assert ".amdhsa_float_denorm_mode_32 3" in asm, asm
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    # correctly rounded: the product, the sum and the fma exactly as NumPy's float32
    np.testing.assert_array_equal(c[:, 0], a * b)
    np.testing.assert_array_equal(c[:, 1], a + b)
    np.testing.assert_array_equal(c[:, 6], np.float32(a64 * b64 + b * np.float32(1e-6)))
    assert np.count_nonzero(c[4:, 0]) > N // 2  # denormal products, not flushed to zero
    # the transcendentals: 1 ULP (the ISA guide's accuracy), denormal inputs included
    with np.errstate(divide="ignore", over="ignore"):
        want = {k: w.astype(np.float32) for k, w in
                {2: np.sqrt(np.abs(a64)), 3: 1 / np.sqrt(np.abs(a64)), 4: 1 / a64}.items()}
        log = np.log2(np.abs(a64)).astype(np.float32)
    for k, w in want.items():
        np.testing.assert_allclose(c[:, k], w, rtol=2.0 ** -22, err_msg=f"column {k}")
    np.testing.assert_allclose(c[:, 5], log, rtol=2.0 ** -22, atol=2.0 ** -20)
    assert np.isfinite(c[1:, 3]).all() and np.isfinite(c[1:, 5]).all()


@pytest.mark.parametrize("wave", [32, 64])
def test_default_flushes_f32_denormals_as_aco(wave: int) -> None:
    """Without a mode ACO (and radcc) flush 32-bit denormals: MODE.FP_DENORM[5:4] = 0."""
    c, asm, a, b = _run_f32(DEFAULT32, wave)
    assert "float_denorm_mode" not in asm  # the descriptor's defaults: 32-bit flushed
    flushed = np.where(np.abs(a) < np.float32(2.0 ** -126), np.float32(0), a)
    np.testing.assert_array_equal(np.abs(c[4:, 0]), np.abs(flushed[4:] * b[4:]))
    assert not np.count_nonzero(c[4:, 0])
    assert np.isinf(c[4:, 3]).all()  # rsq of a flushed input: of zero


RTZ32 = HEAD + """spirv_execution_mode(capabilities = [4468], 4463, 32);
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[2u * i] = a[i] * b[i];
    c[2u * i + 1u] = a[i] + b[i];
}
"""


def _rtz32(x: np.ndarray) -> np.ndarray:
    """float64 values (exact results) rounded toward zero to float32."""
    r = x.astype(np.float32)
    over = np.abs(r.astype(np.float64)) > np.abs(x)
    r[over] = np.nextafter(r[over], np.float32(0))
    return r


@pytest.mark.parametrize("wave", [32, 64])
def test_rounding_mode_rtz_32(wave: int) -> None:
    spirv = glsl_to_spirv(RTZ32, "vulkan1.2")
    rng = np.random.default_rng(7 + wave)
    a = rng.uniform(-4, 4, N).astype(np.float32)
    b = rng.uniform(-4, 4, N).astype(np.float32)
    out = run_compute(spirv, wave_size=wave, buffers={
        (0, 0): a.tobytes(), (0, 1): b.tobytes(), (0, 2): bytes(8 * N)})
    c = np.frombuffer(out[(0, 2)], np.float32).reshape(N, 2)
    assert ".amdhsa_float_round_mode_32 3" in compile_spirv(spirv, wave_size=wave).asm
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    want = np.stack([_rtz32(a64 * b64), _rtz32(a64 + b64)], 1)  # both exact in float64
    np.testing.assert_array_equal(c, want)
    assert (c[:, 0] != (a * b)).any()  # some products round differently from RNE


FTZ16 = HEAD + """#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
spirv_execution_mode(capabilities = [4465], 4460, 16);
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) writeonly buffer C { float16_t c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[2u * i] = a[i] * b[i];
    c[2u * i + 1u] = a[i] + b[i];
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_denorm_flush_to_zero_16(wave: int) -> None:
    spirv = glsl_to_spirv(FTZ16, "vulkan1.2")
    rng = np.random.default_rng(11 + wave)
    tiny16 = 2.0 ** -14  # the smallest normal float16
    a = (rng.uniform(-2, 2, N) * tiny16).astype(np.float16)  # normals and denormals
    b = rng.uniform(0.125, 1, N).astype(np.float16)
    out = run_compute(spirv, wave_size=wave, buffers={
        (0, 0): a.tobytes(), (0, 1): b.tobytes(), (0, 2): bytes(4 * N)})
    c = np.frombuffer(out[(0, 2)], np.float16).reshape(N, 2)
    assert ".amdhsa_float_denorm_mode_16_64 0" in compile_spirv(spirv, wave_size=wave).asm

    def ftz(x: np.ndarray) -> np.ndarray:
        return np.where(np.abs(x) < np.float16(tiny16), np.float16(0), x).astype(np.float16)

    fa = ftz(a)
    want = np.stack([ftz(fa * b), ftz(fa + b)], 1)
    np.testing.assert_array_equal(np.abs(c), np.abs(want))  # the sign of a flushed zero is free
    np.testing.assert_array_equal(np.signbit(c) & (c != 0), np.signbit(want) & (want != 0))
    assert (np.abs(a) < np.float16(tiny16)).sum() > N // 4
