"""8/16-bit private arrays in scratch: ``scratch_load_u8/u16`` and
``scratch_store_b8/b16`` with saddr ``off`` (radcc/isel/mem16.py; the saddr operand is
radcc/isel/memory.py's `no_saddr`, one definition for every scratch access). GLSL
compiled by glslang, run in radcc.emu (wave32/64) against NumPy's evaluation of the same
arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from tests.frontend.mir.conftest import glsl_to_spirv

SRC = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(std430, set = 0, binding = 0) buffer O { uint o[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint16_t tab[96];
    uint8_t tb[160];
    for (uint j = 0u; j < 96u; j++) tab[j] = uint16_t(i * j * 977u + 3u);
    for (uint j = 0u; j < 160u; j++) tb[j] = uint8_t(i * 5u + j * 7u);
    uint k = o[i];
    o[i] = uint(tab[k % 96u]) | (uint(tb[(k * 3u + 5u) % 160u]) << 16);
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_small_private_arrays_in_scratch(wave: int) -> None:
    spv = glsl_to_spirv(SRC)
    asm = compile_spirv(spv, wave_size=wave).asm
    for op in ("scratch_store_b16", "scratch_store_b8", "scratch_load_u16",
               "scratch_load_u8"):
        assert op in asm, (op, asm)
    n = 128
    k = (np.arange(n, dtype=np.uint64) * 2654435761 + 12345) % 100_000
    out = run_compute(spv, buffers={(0, 0): k.astype(np.uint32).tobytes()}, groups=(2, 1, 1),
                      wave_size=wave)
    got = np.frombuffer(out[(0, 0)], np.uint32)
    i = np.arange(n, dtype=np.uint64)
    tab = (i * (k % 96) * 977 + 3) & 0xFFFF
    tb = (i * 5 + ((k * 3 + 5) % 160) * 7) & 0xFF
    np.testing.assert_array_equal(got, (tab | (tb << 16)).astype(np.uint32))
