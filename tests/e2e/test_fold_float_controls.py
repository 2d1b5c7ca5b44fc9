"""Constant folding honours the kernel's float controls (issue 9): a value radcc folds
(here a product in a loop that unrolls to constants; glslang folds no loops) is what
the instructions would compute at run time. f32 denormals are flushed by default (ACO's
mode, `FpMode`) and kept with DenormPreserve 32; each case runs in the strict emulator,
wave32 and wave64, against a NumPy model of the same steps in float32 with and without
flushing, and the folded result must differ from the other model (so the test sees the
mode). `mir_eval.fold` is checked directly for f16 (kept by default)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from radcc.frontend.mir import FloatControls
from radcc.frontend.mir_eval import fold
from tests.frontend.mir.conftest import glsl_to_spirv

BODY = """
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer C { float c[]; };
void main() {
    float x = 1e-30;
    float y = -3e-31;
    for (int i = 0; i < 3; i++) { x *= 1e-3; y *= 1e-3; }
    // x, y: 1e-39 and -3e-40 (denormals) unless flushed; scaled back into range
    c[2u * gl_GlobalInvocationID.x] = x * 1e30;
    c[2u * gl_GlobalInvocationID.x + 1u] = (x + y) * 1e30;
}
"""
HEAD = "#version 450\n#extension GL_EXT_spirv_intrinsics : require\n"
PRESERVE32 = HEAD + "spirv_execution_mode(capabilities = [4464], 4459, 32);\n" + BODY
DEFAULT32 = "#version 450\n" + BODY


def _flush(v: np.float32) -> np.float32:
    return np.float32(np.copysign(0.0, v)) if 0 < abs(v) < 2.0 ** -126 else v


def _model(flush: bool) -> tuple[np.float32, np.float32]:
    """The loop's steps in float32 (round to nearest even), denormals flushed after each
    operation (and on the way in) when `flush`."""
    f = _flush if flush else (lambda v: v)
    x, y = np.float32(1e-30), np.float32(-3e-31)
    for _ in range(3):
        x = f(np.float32(f(x) * np.float32(1e-3)))
        y = f(np.float32(f(y) * np.float32(1e-3)))
    big = np.float32(1e30)
    return f(np.float32(f(x) * big)), f(np.float32(f(np.float32(f(x) + f(y))) * big))


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("preserve", [False, True])
def test_folded_denormals_as_run(preserve: bool, wave: int) -> None:
    src = PRESERVE32 if preserve else DEFAULT32
    spirv = glsl_to_spirv(src, "vulkan1.2")
    out = run_compute(spirv, wave_size=wave, buffers={(0, 0): bytes(4 * 2 * 64)})
    c = np.frombuffer(out[(0, 0)], np.float32).reshape(64, 2)
    want = _model(flush=not preserve)
    other = _model(flush=preserve)
    assert want != other  # the inputs reach the denormal range
    np.testing.assert_array_equal(c, np.tile(np.array(want, np.float32), (64, 1)))
    # folded: no multiply is left in the code (the model matched a folded value)
    asm = compile_spirv(spirv, wave_size=wave).asm
    assert "v_mul_f32" not in asm and "v_fma" not in asm


def _bits(v: float, dt: type) -> int:
    return int(np.array(v, dt).view({np.float16: np.uint16, np.float32: np.uint32}[dt]))


def test_fold_flush_sizes() -> None:
    fc = FloatControls()
    assert fc.flushed() == {32}
    assert FloatControls(denorm_preserve=frozenset({32})).flushed() == set()
    assert FloatControls(denorm_flush=frozenset({16})).flushed() == {16, 32, 64}
    tiny16 = _bits(2.0 ** -20, np.float16)  # an f16 denormal
    one16 = _bits(1.0, np.float16)
    # f16 kept by default: 2^-20 * 1.0 stays the denormal
    assert fold("fmul", 16, 1, [(tiny16,), (one16,)], [16, 16], {}, fc.flushed()) \
        == (tiny16,)
    assert fold("fmul", 16, 1, [(tiny16,), (one16,)], [16, 16], {},
                frozenset({16})) == (0,)
    neg = _bits(-(2.0 ** -140), np.float32)
    one = _bits(1.0, np.float32)
    assert fold("fmul", 32, 1, [(neg,), (one,)], [32, 32], {}, frozenset({32})) \
        == (0x80000000,)  # the zero of its sign
    assert fold("fmul", 32, 1, [(neg,), (one,)], [32, 32], {}) == (neg,)
    # a move or a select of a denormal is no float operation: unchanged
    assert fold("mov", 32, 1, [(neg,)], [32], {}, frozenset({32})) == (neg,)
