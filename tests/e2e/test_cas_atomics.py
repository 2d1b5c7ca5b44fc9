"""Buffer float atomic adds the chip has no instruction for (GFX10/GFX10.3: f32 and f64;
GFX11: f64) are compare-and-swap loops (`radcc.frontend.opt.lower_atomics`): run in the
strict emulator, wave32 and wave64, against lavapipe (the final f32 sums; it aborts on f64
atomic adds) and NumPy (the final sums, and each
invocation's old value: the values returned at one address, in increasing order, chain
from the initial value to the final sum by the invocations' own addends)."""

from __future__ import annotations

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from radcc.oracle import lavapipe
from radcc.passes.manager import DebugOptions
from tests.frontend.mir.conftest import glsl_to_spirv

CHECKED = DebugOptions.parse("validateir,validatera")
N, SLOTS = 256, 4

FADD = """#version 450
#extension GL_EXT_shader_atomic_float : require
{ext}
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A {{ {t} sum[{slots}]; {t} olds[]; }};
layout(set = 0, binding = 1) readonly buffer B {{ {t} v[]; }};
void main() {{
    uint t = gl_GlobalInvocationID.x;
    // a divergent branch around the atomic: the loop sits inside an if
    if (t % 3u != 1u)
        olds[t] = atomicAdd(sum[t % {slots}u], v[t]);
    else
        olds[t] = {t}(-1);
}}
"""


def _shader(bits: int) -> bytes:
    t = "float" if bits == 32 else "double"
    ext = "" if bits == 32 else "#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require"
    return glsl_to_spirv(FADD.format(t=t, ext=ext, slots=SLOTS), "vulkan1.2")


def _check_chain(olds: np.ndarray, v: np.ndarray, init: np.ndarray, final: np.ndarray) -> None:
    for s in range(SLOTS):
        lanes = [t for t in range(N) if t % 3 != 1 and t % SLOTS == s]
        order = sorted(lanes, key=lambda t: olds[t])
        cur = init[s]
        for t in order:
            assert olds[t] == cur, (s, t)
            cur = cur + v[t]
        assert final[s] == cur, s


# (chip, bits): the instruction it lacks
CASES = [("gfx1030", 32), ("gfx1010", 32), ("gfx1030", 64), ("gfx1100", 64)]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize(("mcpu", "bits"), CASES)
def test_float_atomic_add_cas_loop(mcpu: str, bits: int, wave: int) -> None:
    spv = _shader(bits)
    asm = compile_spirv(spv, mcpu=mcpu, wave_size=wave).asm
    assert "global_atomic_cmpswap" in asm and "global_atomic_add_f" not in asm
    dt = np.float32 if bits == 32 else np.float64
    rng = np.random.default_rng(bits + wave)
    v = rng.integers(1, 9, N).astype(dt)  # small integers: every sum is exact
    init = np.arange(1, SLOTS + 1, dtype=dt) * 100
    a = np.concatenate([init, np.zeros(N, dt)])
    got = run_compute(spv, groups=(N // 64, 1, 1), buffers={(0, 0): a, (0, 1): v},
                      wave_size=wave, mcpu=mcpu, debug_options=CHECKED)
    out = np.frombuffer(got[(0, 0)], dt)
    ref = init + np.array([sum(v[t] for t in range(N) if t % 3 != 1 and t % SLOTS == s)
                           for s in range(SLOTS)], dt)
    if bits == 32:  # (lavapipe aborts on a float64 atomic add)
        want = lavapipe.run_compute(spv, groups=(N // 64, 1, 1),
                                    buffers={(0, 0): a, (0, 1): v})
        np.testing.assert_array_equal(np.frombuffer(want[(0, 0)], dt)[:SLOTS], ref)
    np.testing.assert_array_equal(out[:SLOTS], ref)
    olds = out[SLOTS:]
    assert all(olds[t] == -1 for t in range(N) if t % 3 == 1)
    _check_chain(olds, v, init, out[:SLOTS])


def test_gfx11_keeps_the_f32_instruction() -> None:
    """GFX11 has global_atomic_add_f32: no loop there."""
    asm = compile_spirv(_shader(32), mcpu="gfx1100").asm
    assert "global_atomic_add_f32" in asm and "cmpswap" not in asm


SHARED = """#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { double total[]; };
layout(set = 0, binding = 1) readonly buffer B { double v[]; };
shared double s;
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0u) s = 0.5;
    barrier();
    atomicAdd(s, v[gl_GlobalInvocationID.x]);
    barrier();
    if (t == 0u) total[gl_WorkGroupID.x] = s;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("mcpu", ["gfx1030", "gfx1100"])
def test_shared_f64_add_cas_loop(mcpu: str, wave: int) -> None:
    """No generation has an LDS f64 add: a ds_cmpst/ds_cmpstore loop; per workgroup sums
    (small integers plus 0.5: exact) against NumPy."""
    spv = glsl_to_spirv(SHARED, "vulkan1.2")
    asm = compile_spirv(spv, mcpu=mcpu, wave_size=wave).asm
    assert "_rtn_b64" in asm and "ds_add" not in asm
    v = np.random.default_rng(wave).integers(1, 9, N).astype(np.float64)
    got = run_compute(spv, groups=(N // 64, 1, 1), buffers={(0, 0): 8 * (N // 64), (0, 1): v},
                      wave_size=wave, mcpu=mcpu, debug_options=CHECKED)
    want = v.reshape(-1, 64).sum(1) + 0.5
    np.testing.assert_array_equal(np.frombuffer(got[(0, 0)], np.float64), want)
