"""Invalid SPIR-V that glslang emits for valid GLSL and the drivers compile (issue 9:
llama.cpp's ``rope_*_f16`` and ``get_rows_iq1_m*`` shaders): radcc compiles both with a
located warning naming the rule, and runs them right in the strict emulator.

- ``float16_t(x)`` of a ``float16_t`` with only GL_EXT_shader_16bit_storage: glslang
  (Debian's 12, 13.1.1) emits an ``OpFConvert`` to the operand's own type, which the
  SPIR-V spec forbids and spirv-val rejects (the oracle below checks that the module
  really is invalid). radcc warns and translates it as a copy; with spirv-val installed
  it validates a copy of the module in which the conversion is an ``OpCopyObject``, so
  every other rule is still checked by the real validator.
- A local copy of a buffer's 16-bit array given the buffer's array type, whose
  ``ArrayStride`` breaks VUID-StandaloneSpirv-None-10684 (SPIRV-Tools 2025 enforces it,
  Debian's 2023.1 does not): radcc warns and ignores the stride. The module is glslang's
  output with the decoration glslang 13.1.1 puts on such a type added by ``spirv-as``.

Expectations: NumPy (a copy of the input's bits; the scale arithmetic in uint32)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from radcc.oracle import spirv_tools
from tests.frontend.mir.conftest import glsl_to_spirv

CONVERT = """#version 450
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float16_t a[]; };
layout(binding = 1) writeonly buffer D { float16_t d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    d[i] = float16_t(a[i]);
}
"""

LOCAL_COPY = """#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 64) in;
struct Q { uint16_t scales[4]; uint bits; };
layout(binding = 0) readonly buffer A { Q q[]; };
layout(binding = 1) writeonly buffer D { uint d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    const uint16_t[4] s = q[i].scales;
    d[i] = uint(s[i & 3u]) * 3u + uint(s[(i >> 2) & 3u]) + q[i].bits;
}
"""

N = 128


def test_same_type_fconvert_is_invalid_for_spirv_val() -> None:
    r = spirv_tools.validate(glsl_to_spirv(CONVERT, "vulkan1.2"), "vulkan1.2")
    assert not r.ok and "FConvert" in r.text, r.text


@pytest.mark.parametrize("wave", [32, 64])
def test_same_type_fconvert_compiles_as_a_copy(wave: int) -> None:
    spirv = glsl_to_spirv(CONVERT, "vulkan1.2")
    res = compile_spirv(spirv, wave_size=wave, spirv_val=True)
    msgs = [w.message for w in res.warnings]
    assert any("converts to its operand's own type" in m for m in msgs), msgs
    a = np.random.default_rng(wave).normal(0, 1000, N).astype(np.float16)
    a[:6] = [np.inf, -np.inf, np.nan, -0.0, 6e-8, 65504]
    out = run_compute(spirv, groups=(N // 64, 1, 1), wave_size=wave,
                      buffers={(0, 0): a.tobytes(), (0, 1): bytes(2 * N)})
    np.testing.assert_array_equal(np.frombuffer(out[(0, 1)], np.uint16), a.view(np.uint16))


def _function_array_type(text: str) -> str:
    """The id of the array type of the module's Function variable that has one."""
    defs = {ln.split()[0]: ln.split()[2:] for ln in text.splitlines() if " = Op" in ln}
    for ops in defs.values():
        if ops[:1] == ["OpVariable"] and ops[2] == "Function":
            pointee = defs[ops[1]][2]  # OpTypePointer Function <pointee>
            if defs[pointee][0] == "OpTypeArray":
                return pointee
    raise AssertionError("glslang made no Function array")


def _with_local_array_stride() -> bytes:
    text = spirv_tools.disassemble(glsl_to_spirv(LOCAL_COPY, "vulkan1.2")).text
    array_type = _function_array_type(text)
    text = text.replace("OpDecorate", f"OpDecorate {array_type} ArrayStride 2\nOpDecorate", 1)
    return spirv_tools.assemble(text, "vulkan1.2")


@pytest.mark.parametrize("wave", [32, 64])
def test_array_stride_on_a_function_array_is_ignored(wave: int) -> None:
    spirv = _with_local_array_stride()
    res = compile_spirv(spirv, wave_size=wave, spirv_val=True)
    msgs = [w.message for w in res.warnings]
    assert any("VUID-StandaloneSpirv-None-10684" in m for m in msgs), msgs
    rng = np.random.default_rng(wave)
    rec = np.zeros(N, np.dtype([("s", "<u2", 4), ("b", "<u4")]))
    rec["s"] = rng.integers(0, 65536, (N, 4))
    rec["b"] = rng.integers(0, 2**20, N)
    out = run_compute(spirv, groups=(N // 64, 1, 1), wave_size=wave,
                      buffers={(0, 0): rec.tobytes(), (0, 1): bytes(4 * N)})
    i = np.arange(N)
    s = rec["s"].astype(np.uint32)
    want = s[i, i & 3] * 3 + s[i, (i >> 2) & 3] + rec["b"]
    np.testing.assert_array_equal(np.frombuffer(out[(0, 1)], np.uint32), want)


def test_array_stride_on_a_pointer_to_function_stays_an_error() -> None:
    text = spirv_tools.disassemble(glsl_to_spirv(LOCAL_COPY, "vulkan1.2")).text
    ptr = next(ln.split()[0] for ln in text.splitlines() if "OpTypePointer Function" in ln)
    bad = spirv_tools.assemble(
        text.replace("OpDecorate", f"OpDecorate {ptr} ArrayStride 4\nOpDecorate", 1),
        "vulkan1.2")
    from radcc.frontend.spirv import SpirvError
    with pytest.raises(SpirvError, match="10684"):
        compile_spirv(bad)
