"""Code-quality shapes from real-world compute shaders (issue 9: ncnn's and llama.cpp's
Vulkan kernels measured against ACO), reduced to shaders of our own. Each checks the
instructions the shape should cost and that the code runs right in the strict emulator
(reference: NumPy), with the IR and register-allocation validators on."""

from __future__ import annotations

import re
import struct

import numpy as np
import pytest

from radcc.driver.compile import compile_spirv
from radcc.driver.run import run_compute
from radcc.passes.manager import DebugOptions
from tests.frontend.mir.conftest import glsl_to_spirv

CHECKED = DebugOptions.parse("validateir,validatera")

# A uniform condition selecting between per-lane vectors, several times in one block
# (ncnn's reshape_batch_reorder: a local array of ivec4 indexed by a uniform loop
# counter becomes selects `i == e ? v : a[e]` of every element). ACO makes the uniform
# boolean a lane mask once (bool_to_vector_condition's s_cselect reads the boolean as an
# SCC operand, and value numbering merges the repeats); radcc made one per component,
# each a new SGPR write before its v_cndmask (and on GFX11 an s_waitcnt_depctr for the
# VALU mask write hazard between them).
UNIFORM_SELECT = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { ivec4 o[]; };
layout(push_constant) uniform P { int k; int m; } p;
void main() {
    int t = int(gl_LocalInvocationID.x);
    ivec4 x = a[t];
    ivec4 y = a[63 - t];
    bool c = p.k == 1;
    bool d = p.m > 2;
    ivec4 r = c ? x : y;
    ivec4 s = c ? y + 1 : x * 3;
    ivec4 u = d ? r - s : s;
    o[t] = r + s * 5 + u * 7;
}
"""


def _uniform_select_ref(a: np.ndarray, k: int, m: int) -> np.ndarray:
    x = a
    y = a[::-1]
    c, d = k == 1, m > 2
    r = x if c else y
    s = (y + 1) if c else (x * 3)
    u = (r - s) if d else s
    return r + s * 5 + u * 7


@pytest.mark.parametrize("wave", [32, 64])
def test_uniform_boolean_becomes_one_lane_mask_per_block(wave: int) -> None:
    spv = glsl_to_spirv(UNIFORM_SELECT)
    asm = compile_spirv(spv, wave_size=wave, debug_options=CHECKED).asm
    bits = 64 if wave == 64 else 32
    masks = re.findall(rf"s_cselect_b{bits} s\[?[0-9:]+\]?, -1, 0", asm)
    cndmask = re.findall(r"v_cndmask_b32", asm)
    # two uniform booleans (c, d), each made a lane mask once; 12 selected components
    assert len(masks) == 2, asm
    assert len(cndmask) == 12, asm
    a = np.random.default_rng(9).integers(-1 << 20, 1 << 20, (64, 4), dtype=np.int32)
    for k, m in ((1, 3), (0, 3), (1, 0), (0, 0)):
        out = run_compute(spv, buffers={(0, 0): a, (0, 1): 64 * 16},
                          push_constants=struct.pack("<ii", k, m), wave_size=wave,
                          debug_options=CHECKED)
        got = np.frombuffer(out[(0, 1)], np.int32).reshape(64, 4)
        want = _uniform_select_ref(a.astype(np.int64), k, m).astype(np.int32)
        assert (got == want).all(), (k, m)


# ncnn's elementwise layers (hardswish, absval, ...): one buffer, a size in the push
# constants, `if (gx >= psc(n)) return;` and a store. RADV passes the descriptor pointer and
# the push constants in user SGPRs; radcc reads its kernel arguments (the buffer's address
# at 0x0, its size at 0x8, the push constant at 0xc: docs/abi.md), now with one s_load_b128
# over the gap instead of two loads and an s_clause. The merge block ending the program no
# longer restores EXEC before s_endpgm (ACO's eliminate_useless_exec_writes_in_block), so
# the save of EXEC is unread and the guard is a lone v_cmpx.
GUARDED_STORE = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { vec4 b[]; };
layout(push_constant) uniform P { int n; } p;
void main() {
    int gx = int(gl_GlobalInvocationID.x);
    if (gx >= p.n) return;
    vec4 v = b[gx];
    b[gx] = max(v, vec4(0.0)) * 2.0 + vec4(gx);
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_guarded_store_one_kernarg_load_and_no_exec_restore(wave: int) -> None:
    spv = glsl_to_spirv(GUARDED_STORE)
    asm = compile_spirv(spv, wave_size=wave, debug_options=CHECKED).asm
    lines = [x.split(";")[0].strip() for x in asm.splitlines()]
    code = [x for x in lines if re.match(r"[sv]_|global_", x) and not x.startswith("s_delay_alu")]
    assert len([x for x in code if x.startswith("s_load")]) == 1, asm
    assert not any(x.startswith("s_clause") for x in code), asm
    assert not any(x.startswith("s_and_saveexec") for x in code), asm
    end = code.index("s_endpgm")
    assert code[end - 1].startswith("global_store"), asm
    a = np.random.default_rng(5).standard_normal((100, 4)).astype(np.float32)
    for n in (0, 37, 100):
        out = run_compute(spv, buffers={(0, 0): a}, push_constants=struct.pack("<i", n),
                          groups=(2, 1, 1), wave_size=wave, debug_options=CHECKED)
        got = np.frombuffer(out[(0, 0)], np.float32).reshape(100, 4)
        want = a.copy()
        idx = np.arange(n, dtype=np.float32)[:, None]
        want[:n] = np.maximum(a[:n], 0) * np.float32(2.0) + idx
        assert (got == want).all(), n


# ncnn's and ggml's reductions over shared memory with `barrier()` (workgroup execution
# and memory scope) in a workgroup of 64: in wave64 the workgroup is one wave, so the
# release orders nothing another wave could see and ACO emits no wait for it
# (aco_insert_waitcnt.cpp perform_barrier: no wait unless the scope exceeds the
# "subgroup scope", the workgroup when it fits in one wave); in wave32 the two waves
# still get the wait and the s_barrier.
SHARED_TREE = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { float b[]; };
shared float s[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    s[t] = b[gl_WorkGroupID.x * 64u + t];
    barrier();
    for (uint k = 32u; k > 0u; k >>= 1) {
        if (t < k) s[t] = max(s[t], s[t + k]);
        barrier();
    }
    if (t == 0u) b[gl_WorkGroupID.x * 64u] = s[0];
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_workgroup_barrier_in_a_one_wave_workgroup_has_no_release_wait(wave: int) -> None:
    spv = glsl_to_spirv(SHARED_TREE)
    asm = compile_spirv(spv, wave_size=wave, debug_options=CHECKED).asm
    code = [x.split(";")[0].strip() for x in asm.splitlines()]
    code = [x for x in code if re.match(r"[sv]_|ds_|global_", x) and
            not x.startswith("s_delay_alu")]
    after_store = [code[i + 1] for i, x in enumerate(code[:-1]) if x.startswith("ds_store")]
    if wave == 64:
        assert "s_barrier" not in code, asm
        assert not any(x.startswith("s_waitcnt") for x in after_store), asm
    else:
        bars = [i for i, x in enumerate(code) if x == "s_barrier"]
        assert len(bars) == 7 and all(code[i - 1].startswith("s_waitcnt") for i in bars), asm
    a = np.random.default_rng(3).standard_normal(3 * 64).astype(np.float32)
    out = run_compute(spv, buffers={(0, 0): a}, groups=(3, 1, 1), wave_size=wave,
                      debug_options=CHECKED)
    got = np.frombuffer(out[(0, 0)], np.float32)
    want = a.copy()
    want[::64] = a.reshape(3, 64).max(axis=1)
    assert (got == want).all()


# ncnn's bounds tests mixing a per-lane and uniform conditions (priorbox: `if (gx < 0 ||
# gx >= psc(w) || gy >= psc(h)) return;`): the uniform parts are short SALU runs inside
# divergent ifs whose execz branches lower_to_hw drops (cheaper to run with no lane). The
# kernel-argument load is waited for once: with the dropped branch's edge still in the
# linear CFG, each join re-opened the load and it was waited for again in every block.
MIXED_GUARD = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { vec4 b[]; };
layout(push_constant) uniform P { int pad[12]; int w; int h; } p;
void main() {
    int gx = int(gl_GlobalInvocationID.x);
    int gy = int(gl_WorkGroupID.y);
    if (gx < 0 || gy >= p.w || gy >= p.h) return;
    b[gx + 64 * gy] = vec4(float(gx), float(gy), 1.0, 0.0);
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_mixed_guard_waits_for_the_arguments_once(wave: int) -> None:
    spv = glsl_to_spirv(MIXED_GUARD)
    asm = compile_spirv(spv, wave_size=wave, debug_options=CHECKED).asm
    waits = [x for x in asm.splitlines() if "s_waitcnt" in x and "lgkmcnt" in x]
    assert len(waits) == 1, asm
    a = np.zeros((2 * 64, 4), np.float32)
    for w, h in ((2, 2), (1, 2), (2, 1), (0, 2)):
        pc = struct.pack("<14i", *([0] * 12), w, h)
        out = run_compute(spv, buffers={(0, 0): a}, push_constants=pc, groups=(1, 2, 1),
                          wave_size=wave, debug_options=CHECKED)
        got = np.frombuffer(out[(0, 0)], np.float32).reshape(2, 64, 4)
        want = np.zeros((2, 64, 4), np.float32)
        for gy in range(min(w, h, 2)):
            want[gy, :, 0] = np.arange(64)
            want[gy, :, 1] = gy
            want[gy, :, 2] = 1.0
        assert (got == want).all(), (w, h)
