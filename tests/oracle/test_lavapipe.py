"""The lavapipe oracle: GLSL compute shaders run on lavapipe, checked against NumPy."""

from __future__ import annotations

import os
import struct
import subprocess
import sys

import numpy as np
import pytest

from radcc.oracle import lavapipe, spirv_reflect
from radcc.oracle.lavapipe import LavapipeError, run_compute

ADD = """
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] + 2.0 * b[i];
}
"""


def f32(raw: bytes) -> np.ndarray:
    return np.frombuffer(raw, np.float32)


def u32(raw: bytes) -> np.ndarray:
    return np.frombuffer(raw, np.uint32)


def test_add_scale(glsl, lvp):
    rng = np.random.default_rng(1)
    a = rng.integers(-1000, 1000, 256).astype(np.float32)
    b = rng.integers(-1000, 1000, 256).astype(np.float32)
    out = run_compute(glsl(ADD), groups=(4, 1, 1), buffers={(0, 0): a, (0, 1): b, (0, 2): 1024})
    np.testing.assert_array_equal(f32(out[(0, 2)]), a + 2 * b)
    # every buffer comes back, read-only ones unchanged
    assert out[(0, 0)] == a.tobytes() and out[(0, 1)] == b.tobytes()
    assert set(out) == {(0, 0), (0, 1), (0, 2)}


def test_groups_cover_only_what_is_dispatched(glsl, lvp):
    a = np.ones(256, np.float32)
    c = np.full(256, -7.0, np.float32)
    out = run_compute(glsl(ADD), groups=(2, 1, 1), buffers={(0, 0): a, (0, 1): a, (0, 2): c})
    got = f32(out[(0, 2)])
    np.testing.assert_array_equal(got[:128], 3.0)
    np.testing.assert_array_equal(got[128:], -7.0)


def test_multidimensional_ids(glsl, lvp):
    src = """
    #version 450
    layout(local_size_x = 4, local_size_y = 2, local_size_z = 1) in;
    layout(set = 0, binding = 0) buffer O { uvec4 o[]; };
    void main() {
        uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
        uvec3 g = gl_GlobalInvocationID;
        uint flat_ = (g.z * n.y + g.y) * n.x + g.x;
        o[flat_] = uvec4(gl_WorkGroupID, gl_LocalInvocationIndex);
    }
    """
    groups = (3, 2, 2)
    n = 3 * 4 * 2 * 2 * 2
    out = u32(run_compute(glsl(src), groups=groups, buffers={(0, 0): n * 16})[(0, 0)])
    out = out.reshape(2, 4, 12, 4)  # z, y, x, component
    z, y, x = np.meshgrid(np.arange(2), np.arange(4), np.arange(12), indexing="ij")
    np.testing.assert_array_equal(out[..., 0], x // 4)
    np.testing.assert_array_equal(out[..., 1], y // 2)
    np.testing.assert_array_equal(out[..., 2], z)
    np.testing.assert_array_equal(out[..., 3], (y % 2) * 4 + x % 4)


def test_shared_memory_reduction(glsl, lvp):
    src = """
    #version 450
    layout(local_size_x = 128) in;
    layout(set = 0, binding = 0) readonly buffer I { float x[]; };
    layout(set = 0, binding = 1) writeonly buffer O { float sums[]; };
    shared float s[128];
    void main() {
        uint l = gl_LocalInvocationID.x;
        s[l] = x[gl_GlobalInvocationID.x];
        barrier();
        for (uint step = 64; step > 0; step >>= 1) {
            if (l < step) s[l] += s[l + step];
            barrier();
        }
        if (l == 0) sums[gl_WorkGroupID.x] = s[0];
    }
    """
    x = np.random.default_rng(2).integers(-100, 100, 128 * 8).astype(np.float32)
    out = run_compute(glsl(src), groups=(8, 1, 1), buffers={(0, 0): x, (0, 1): 8 * 4})
    np.testing.assert_array_equal(f32(out[(0, 1)]), x.reshape(8, 128).sum(axis=1))


def test_atomics(glsl, lvp):
    src = """
    #version 450
    #extension GL_EXT_shader_atomic_int64 : require
    #extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
    #extension GL_EXT_shader_atomic_float : require
    layout(local_size_x = 64) in;
    layout(set = 0, binding = 0) readonly buffer I { uint v[]; };
    layout(set = 0, binding = 1) buffer H { uint hist[16]; };
    layout(set = 0, binding = 2) buffer S {
        uint umax; int imin; uint64_t sum64; float fsum; uint xor_; uint or_; uint count;
    };
    shared uint local_count;
    void main() {
        uint x = v[gl_GlobalInvocationID.x];
        if (gl_LocalInvocationIndex == 0) local_count = 0;
        barrier();
        atomicAdd(hist[x % 16], 1);
        atomicMax(umax, x);
        atomicMin(imin, int(x) - 5000);
        atomicAdd(sum64, uint64_t(x) << 20);
        atomicAdd(fsum, float(x & 0xff));
        atomicXor(xor_, x);
        atomicOr(or_, 1u << (x % 32));
        atomicAdd(local_count, 1);
        barrier();
        if (gl_LocalInvocationIndex == 0) atomicAdd(count, local_count);
    }
    """
    v = np.random.default_rng(3).integers(0, 10_000, 64 * 16).astype(np.uint32)
    state = struct.pack("<IiQfIII", 0, 2**31 - 1, 0, 0.0, 0, 0, 0)
    out = run_compute(glsl(src), groups=(16, 1, 1),
                      buffers={(0, 0): v, (0, 1): 64, (0, 2): state})
    np.testing.assert_array_equal(u32(out[(0, 1)]), np.bincount(v % 16, minlength=16))
    umax, imin, sum64, fsum, xor_, or_, count = struct.unpack("<IiQfIII", out[(0, 2)][:32])
    assert umax == v.max()
    assert imin == int(v.min()) - 5000
    assert sum64 == int(v.astype(np.uint64).sum()) << 20
    assert fsum == float((v & 0xFF).sum())
    assert xor_ == int(np.bitwise_xor.reduce(v))
    assert or_ == int(np.bitwise_or.reduce(np.uint32(1) << (v % 32)))
    assert count == v.size


def test_vulkan_memory_model(glsl, lvp):
    src = """
    #version 450
    #pragma use_vulkan_memory_model
    #extension GL_KHR_memory_scope_semantics : require
    layout(local_size_x = 32) in;
    layout(set = 0, binding = 0) buffer C { uint total; uint slots[]; };
    shared uint s[32];
    void main() {
        uint l = gl_LocalInvocationID.x;
        s[l] = l * l;
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                       gl_SemanticsAcquireRelease);
        uint old = atomicAdd(total, s[31 - l], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                             gl_SemanticsRelaxed);
        atomicStore(slots[gl_GlobalInvocationID.x], old >= 0 ? s[31 - l] : 0u, gl_ScopeDevice,
                    gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    }
    """
    out = u32(run_compute(glsl(src, "vulkan1.2"), groups=(2, 1, 1),
                          buffers={(0, 0): 4 + 64 * 4})[(0, 0)])
    sq = np.arange(32) ** 2
    assert out[0] == 2 * sq.sum()
    np.testing.assert_array_equal(out[1:], np.tile(sq[::-1], 2))


def test_push_constants(glsl, lvp):
    src = """
    #version 450
    layout(local_size_x = 32) in;
    layout(push_constant) uniform P { uint n; float scale; int bias; } pc;
    layout(set = 0, binding = 0) readonly buffer I { float x[]; };
    layout(set = 0, binding = 1) writeonly buffer O { float y[]; };
    void main() {
        uint i = gl_GlobalInvocationID.x;
        y[i] = i < pc.n ? x[i] * pc.scale + float(pc.bias) : -1.0;
    }
    """
    x = np.arange(64, dtype=np.float32)
    spv = glsl(src)
    assert spirv_reflect.reflect(spv).push_constant_size == 12
    out = run_compute(spv, groups=(2, 1, 1), buffers={(0, 0): x, (0, 1): 256},
                      push_constants=struct.pack("<Ifi", 40, 0.5, -3))
    want = np.where(np.arange(64) < 40, x * 0.5 - 3, -1.0).astype(np.float32)
    np.testing.assert_array_equal(f32(out[(0, 1)]), want)
    # a short push constant block is zero-padded to the shader's size: n = 10, scale = bias = 0
    out = run_compute(spv, groups=(2, 1, 1), buffers={(0, 0): x, (0, 1): 256},
                      push_constants=struct.pack("<I", 10))
    np.testing.assert_array_equal(f32(out[(0, 1)]), np.where(np.arange(64) < 10, 0.0, -1.0))


def test_uniform_buffer(glsl, lvp):
    src = """
    #version 450
    layout(local_size_x = 16) in;
    layout(set = 0, binding = 0, std140) uniform U { vec4 coeff; ivec2 range; float table[4]; };
    layout(set = 0, binding = 1) buffer O { float y[]; };
    void main() {
        uint i = gl_GlobalInvocationID.x;
        float t = float(i);
        float v = coeff.x + coeff.y * t + coeff.z * t * t + table[i % 4];
        y[i] = (int(i) >= range.x && int(i) < range.y) ? v : coeff.w;
    }
    """
    spv = glsl(src)
    refl = spirv_reflect.reflect(spv)
    assert refl.bindings[(0, 0)].kind == "uniform" and refl.bindings[(0, 1)].kind == "storage"
    assert refl.bindings[(0, 0)].min_size == 32 + 4 * 16  # std140: array stride 16
    table = [10.0, 20.0, 30.0, 40.0]
    ubo = struct.pack("<4f2i8x", 1.0, 2.0, 3.0, -9.0, 3, 13)
    ubo += b"".join(struct.pack("<f12x", t) for t in table)
    out = run_compute(spv, groups=(1, 1, 1), buffers={(0, 0): ubo, (0, 1): 64})
    i = np.arange(16, dtype=np.float32)
    v = 1 + 2 * i + 3 * i * i + np.array(table * 4, np.float32)
    want = np.where((i >= 3) & (i < 13), v, -9.0)
    np.testing.assert_array_equal(f32(out[(0, 1)]), want)


SPEC = """
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int K = 1;
layout(constant_id = 2) const float F = 0.0;
layout(constant_id = 3) const bool NEG = false;
layout(constant_id = 4) const int64_t BIG = 0;
layout(set = 0, binding = 0) buffer O { float y[]; };
layout(set = 0, binding = 1) buffer M { uint wgsize; uint pad; int64_t big; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = (NEG ? -1.0 : 1.0) * (float(int(i) * K) + F);
    if (i == 0) { wgsize = gl_WorkGroupSize.x; big = BIG; }
}
"""


@pytest.mark.parametrize("env", ["vulkan1.1", "vulkan1.3"])  # 1.3: LocalSizeId
def test_spec_constants(glsl, lvp, env):
    spv = glsl(SPEC, env)
    kinds = {k: (s.kind, s.width) for k, s in spirv_reflect.reflect(spv).spec_constants.items()}
    assert kinds[1] == ("int", 32) and kinds[2] == ("float", 32) and kinds[3] == ("bool", 32)
    assert kinds[4] == ("int", 64)
    out = run_compute(spv, groups=(2, 1, 1), buffers={(0, 0): 64 * 4, (0, 1): 16},
                      spec_constants={0: 32, 1: 3, 2: 0.5, 3: True, 4: -(2**40) - 7})
    i = np.arange(64, dtype=np.float32)
    np.testing.assert_array_equal(f32(out[(0, 0)]), -(i * 3 + 0.5))
    wgsize, _, big = struct.unpack("<IIq", out[(0, 1)])
    assert wgsize == 32 and big == -(2**40) - 7
    # defaults when nothing is specialized: workgroup size 1 → two invocations run
    out = run_compute(spv, groups=(2, 1, 1), buffers={(0, 0): 64 * 4, (0, 1): 16})
    np.testing.assert_array_equal(f32(out[(0, 0)])[:3], [0.0, 1.0, 0.0])
    assert struct.unpack("<IIq", out[(0, 1)])[0] == 1


def test_reflection_entry_points_and_local_size(glsl):
    refl = spirv_reflect.reflect(glsl(ADD))
    assert refl.entry_points == {"main": spirv_reflect.EXEC_MODEL_GL_COMPUTE}
    assert refl.local_size == {"main": (64, 1, 1)}
    assert {k: b.kind for k, b in refl.bindings.items()} == {
        (0, 0): "storage", (0, 1): "storage", (0, 2): "storage"}
    assert refl.push_constant_size == 0 and refl.spec_constants == {}
    for env in ("vulkan1.1", "vulkan1.3"):  # LocalSize + WorkgroupSize / LocalSizeId
        assert spirv_reflect.reflect(glsl(SPEC, env)).local_size["main"][1:] == (1, 1)
    with pytest.raises(spirv_reflect.SpirvError, match="magic"):
        spirv_reflect.reflect(b"\1\2\3\4" * 8)


def test_16bit_types(glsl, lvp):
    src = """
    #version 450
    #extension GL_EXT_shader_explicit_arithmetic_types : require
    #extension GL_EXT_shader_16bit_storage : require
    #extension GL_EXT_shader_8bit_storage : require
    layout(local_size_x = 64) in;
    layout(set = 0, binding = 0) readonly buffer A { float16_t a[64]; int16_t ia[]; };
    layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
    layout(set = 0, binding = 2) buffer C { float16_t c[]; };
    layout(set = 0, binding = 3) buffer D { int16_t d[]; };
    layout(set = 0, binding = 4) buffer E { uint8_t e[]; };
    void main() {
        uint i = gl_GlobalInvocationID.x;
        c[i] = a[i] * b[i] + float16_t(0.25);
        d[i] = ia[i] * int16_t(300) + int16_t(7);
        e[i] = uint8_t(uint8_t(i) * uint8_t(37) + uint8_t(200));
    }
    """
    n = 64
    rng = np.random.default_rng(4)
    a = rng.integers(-64, 64, n).astype(np.float16)  # small integers: products exact in half
    b = (rng.integers(-8, 8, n) / 4).astype(np.float16)
    ia = rng.integers(-30000, 30000, n).astype(np.int16)
    buf_a = a.tobytes() + ia.tobytes()  # std430: ia[] starts at byte 128
    out = run_compute(glsl(src), groups=(1, 1, 1), buffers={
        (0, 0): buf_a, (0, 1): b, (0, 2): 2 * n, (0, 3): 2 * n, (0, 4): n})
    np.testing.assert_array_equal(np.frombuffer(out[(0, 2)], np.float16),
                                  a * b + np.float16(0.25))
    with np.errstate(over="ignore"):
        want_d = (ia * np.int16(300) + np.int16(7)).astype(np.int16)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 3)], np.int16), want_d)
    want_e = ((np.arange(n) * 37 + 200) & 0xFF).astype(np.uint8)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 4)], np.uint8), want_e)


def test_64bit_types(glsl, lvp):
    src = """
    #version 450
    #extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
    layout(local_size_x = 32) in;
    layout(set = 0, binding = 0) readonly buffer A { double x[]; };
    layout(set = 0, binding = 1) readonly buffer B { uint64_t u[]; };
    layout(set = 0, binding = 2) writeonly buffer C { double y[]; };
    layout(set = 0, binding = 3) writeonly buffer D { uint64_t w[]; };
    void main() {
        uint i = gl_GlobalInvocationID.x;
        y[i] = x[i] * 3.0 + double(i);
        uint64_t v = u[i];
        w[i] = (v * 0x9E3779B97F4A7C15ul) ^ (v >> 29) ^ uint64_t(int64_t(-int(i)));
    }
    """
    n = 64
    rng = np.random.default_rng(5)
    x = rng.integers(-(2**45), 2**45, n).astype(np.float64)  # beyond float, exact in double
    u = rng.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    out = run_compute(glsl(src), groups=(2, 1, 1), buffers={
        (0, 0): x, (0, 1): u, (0, 2): 8 * n, (0, 3): 8 * n})
    np.testing.assert_array_equal(np.frombuffer(out[(0, 2)], np.float64), x * 3 + np.arange(n))
    with np.errstate(over="ignore"):
        neg = (-np.arange(n, dtype=np.int64)).astype(np.uint64)
        want = (u * np.uint64(0x9E3779B97F4A7C15)) ^ (u >> np.uint64(29)) ^ neg
    np.testing.assert_array_equal(np.frombuffer(out[(0, 3)], np.uint64), want)


SUBGROUP = """
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer I { int x[]; };
layout(set = 0, binding = 1) writeonly buffer O { int sum[]; };
layout(set = 0, binding = 2) writeonly buffer M { uvec4 meta[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    sum[i] = subgroupAdd(x[i]);
    meta[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID,
                    subgroupBallotBitCount(subgroupBallot((x[i] & 1) != 0)));
}
"""


@pytest.mark.parametrize("request_size", [False, True])
def test_subgroup_add(glsl, lvp, request_size):
    sg = lvp.subgroup_size
    assert sg >= 1 and sg & (sg - 1) == 0
    assert "arithmetic" in lvp.subgroup_supported_operations
    n = 64 * 4
    x = np.random.default_rng(6).integers(-1000, 1000, n).astype(np.int32)
    out = run_compute(glsl(SUBGROUP), groups=(4, 1, 1),
                      buffers={(0, 0): x, (0, 1): 4 * n, (0, 2): 16 * n},
                      subgroup_size=sg if request_size else None, full_subgroups=request_size)
    meta = u32(out[(0, 2)]).reshape(n, 4)
    local = np.arange(n) % 64
    np.testing.assert_array_equal(meta[:, 0], sg)
    np.testing.assert_array_equal(meta[:, 1], local % sg)
    np.testing.assert_array_equal(meta[:, 2], local // sg)
    per_sub = x.reshape(-1, sg)
    np.testing.assert_array_equal(np.frombuffer(out[(0, 1)], np.int32),
                                  np.repeat(per_sub.sum(axis=1), sg))
    np.testing.assert_array_equal(meta[:, 3], np.repeat((per_sub & 1).sum(axis=1), sg))


def test_subgroup_size_out_of_range(glsl, lvp):
    bad = lvp.max_subgroup_size * 2
    with pytest.raises(LavapipeError, match="subgroup size"):
        run_compute(glsl(ADD), groups=(1, 1, 1), buffers={(0, 0): 256, (0, 1): 256, (0, 2): 256},
                    subgroup_size=bad)


def test_multiple_descriptor_sets(glsl, lvp):
    src = """
    #version 450
    layout(local_size_x = 32) in;
    layout(set = 0, binding = 0) readonly buffer A { int a[]; };
    layout(set = 1, binding = 3) uniform U { int mul; int add; };
    layout(set = 3, binding = 0) writeonly buffer C { int c[]; };
    layout(set = 3, binding = 5) writeonly buffer D { int d[]; };
    void main() {
        uint i = gl_GlobalInvocationID.x;
        c[i] = a[i] * mul + add;
        d[i] = int(i);
    }
    """
    a = np.arange(-16, 16, dtype=np.int32)
    out = run_compute(glsl(src), groups=(1, 1, 1), buffers={
        (0, 0): a, (1, 3): struct.pack("<ii", -3, 100), (3, 0): 128, (3, 5): 128})
    np.testing.assert_array_equal(np.frombuffer(out[(3, 0)], np.int32), a * -3 + 100)
    np.testing.assert_array_equal(np.frombuffer(out[(3, 5)], np.int32), np.arange(32))


def test_extra_buffers_and_uniform_bindings(glsl, lvp):
    """Buffers the shader does not declare are bound too (typed by uniform_bindings)."""
    a = np.ones(64, np.float32)
    out = run_compute(glsl(ADD), groups=(1, 1, 1),
                      buffers={(0, 0): a, (0, 1): a, (0, 2): 256, (0, 7): b"\1\2\3\4",
                               (2, 0): 16},
                      uniform_bindings={(0, 7)})
    assert out[(0, 7)] == b"\1\2\3\4" and out[(2, 0)] == bytes(16)
    np.testing.assert_array_equal(f32(out[(0, 2)]), 3.0)


def test_errors_are_lavapipe_errors(glsl, lvp):
    spv = glsl(ADD)
    with pytest.raises(LavapipeError, match=r"binding .*\(0, 2\).*no buffer"):
        run_compute(spv, groups=(1, 1, 1), buffers={(0, 0): 256, (0, 1): 256})
    with pytest.raises(LavapipeError, match="no entry point 'nope'"):
        run_compute(spv, entry="nope", groups=(1, 1, 1), buffers={})
    with pytest.raises(LavapipeError, match="reflect"):
        run_compute(b"\0" * 64, groups=(1, 1, 1), buffers={})
    with pytest.raises(LavapipeError, match="storage buffer in the shader"):
        run_compute(spv, groups=(1, 1, 1), buffers={(0, 0): 4, (0, 1): 4, (0, 2): 4},
                    uniform_bindings={(0, 1)})
    with pytest.raises(LavapipeError, match="maxComputeWorkGroupCount"):
        run_compute(spv, groups=(1 << 20, 1, 1), buffers={(0, 0): 4, (0, 1): 4, (0, 2): 4})
    # a module lavapipe rejects fails in the Vulkan call, and the device still works after it
    bad = spv.replace(b"GLSL.std.450", b"GLSL.xyz.450")
    with pytest.raises(LavapipeError, match="vkCreateComputePipelines failed: VK_ERROR"):
        run_compute(bad, groups=(1, 1, 1), buffers={(0, 0): 256, (0, 1): 256, (0, 2): 256})
    out = run_compute(spv, groups=(1, 1, 1), buffers={(0, 0): 256, (0, 1): 256, (0, 2): 256})
    assert len(out[(0, 2)]) == 256


def test_too_small_uniform_block_is_refused(glsl, lvp):
    src = """
    #version 450
    layout(local_size_x = 1) in;
    layout(set = 0, binding = 0) uniform U { vec4 v[4]; };
    layout(set = 0, binding = 1) buffer O { vec4 o; };
    void main() { o = v[3]; }
    """
    with pytest.raises(LavapipeError, match="at least 64"):
        run_compute(glsl(src), groups=(1, 1, 1), buffers={(0, 0): 32, (0, 1): 16})


def test_missing_library_and_driver(monkeypatch):
    monkeypatch.setattr(lavapipe, "LIBVULKAN", "libvulkan-does-not-exist.so.1")
    with pytest.raises(LavapipeError, match="cannot load"):
        lavapipe._Vk()
    monkeypatch.setattr(lavapipe, "LVP_ICD", "/nonexistent/lvp_icd.json")
    with pytest.raises(LavapipeError, match="ICD"):
        with lavapipe._loader_env():
            pass


def test_loader_env_is_restored(lvp, monkeypatch):
    monkeypatch.delenv("VK_ICD_FILENAMES", raising=False)
    monkeypatch.setenv("VK_DRIVER_FILES", "/somewhere/else.json")
    with lavapipe._loader_env():
        assert os.environ["VK_ICD_FILENAMES"] == lavapipe.LVP_ICD
    assert "VK_ICD_FILENAMES" not in os.environ
    assert os.environ["VK_DRIVER_FILES"] == "/somewhere/else.json"


def test_device_info(lvp):
    assert "llvmpipe" in lvp.device_name
    assert lvp.min_subgroup_size <= lvp.subgroup_size <= lvp.max_subgroup_size
    for feature in ("shaderFloat64", "shaderInt64", "shaderInt16", "shaderFloat16", "shaderInt8",
                    "storageBuffer16BitAccess", "storageBuffer8BitAccess", "vulkanMemoryModel",
                    "shaderBufferInt64Atomics", "subgroupSizeControl"):
        assert lvp.features.get(feature), feature
    assert "robustBufferAccess" not in lvp.features  # off: out-of-bounds must not be hidden


def test_quirk_loop_iteration_limit(glsl, lvp):
    """TOOL-NOTES: lavapipe stops an invocation after 65,535 loop iterations in total."""
    src = """
    #version 450
    layout(local_size_x = 1) in;
    layout(set = 0, binding = 0) buffer O { uint n[2]; };
    layout(push_constant) uniform P { uint iters; } pc;
    void main() {
        uint c = 0, d = 0;
        for (uint i = 0; i < pc.iters; i++) c += 1;
        for (uint i = 0; i < pc.iters; i++) d += 1;
        n[0] = c; n[1] = d;
    }
    """
    spv = glsl(src)
    run = lambda k: u32(run_compute(spv, groups=(1, 1, 1), buffers={(0, 0): 8},  # noqa: E731
                                    push_constants=struct.pack("<I", k))[(0, 0)]).tolist()
    assert run(30000) == [30000, 30000]
    first, second = run(40000)
    assert first == 40000 and second < 40000
    assert first + second <= lavapipe.LOOP_ITERATION_LIMIT


def test_cli(glsl, lvp, tmp_path):
    spv = tmp_path / "add.spv"
    spv.write_bytes(glsl(ADD))
    a = np.arange(64, dtype=np.float32)
    (tmp_path / "a.bin").write_bytes(a.tobytes())
    p = subprocess.run(
        [sys.executable, "-m", "radcc.oracle.lavapipe", str(spv), "--groups", "1,1,1",
         "--buffer", f"0:0={tmp_path / 'a.bin'}", "--buffer", f"0:1={tmp_path / 'a.bin'}",
         "--buffer", "0:2=zeros:256", "--out", str(tmp_path / "out")],
        capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    np.testing.assert_array_equal(f32((tmp_path / "out" / "set0_binding2.bin").read_bytes()),
                                  a * 3)
    p = subprocess.run([sys.executable, "-m", "radcc.oracle.lavapipe", str(spv)],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "error:" in p.stderr and "no buffer" in p.stderr


# -- features this lavapipe lacks: refused by name (docs/oracle-lavapipe.md) -------------

_ARRAYS = """
#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform sampler2D cs[2];
layout(set = 0, binding = 1, r32f) uniform image2D si[2];
layout(set = 0, binding = 2) uniform samplerBuffer tb[2];
layout(set = 0, binding = 3, r32f) uniform imageBuffer sb[2];
layout(set = 0, binding = 4) buffer S { float v[]; } bs[2];
layout(set = 0, binding = 5) buffer O { vec4 o[]; };
layout(constant_id = 0) const int SPEC = 1;
layout(push_constant) uniform P { int k; } pc;
void main() {
    uint i = gl_LocalInvocationIndex;
    o[i] = vec4(INDEXED);
}
"""
# (the expression indexed, the binding and the feature the refusal names; None: accepted)
_FEATURE_CASES = [
    ("texelFetch(cs[1], ivec2(0), 0).x + imageLoad(si[SPEC], ivec2(0)).x + bs[0].v[i]",
     None),
    ("texelFetch(cs[pc.k], ivec2(0), 0).x",
     "binding 0:0 (combined array): a dynamic array index needs "
     "shaderSampledImageArrayDynamicIndexing"),
    ("imageLoad(si[pc.k], ivec2(0)).x",
     "binding 0:1 (storage_image array): a dynamic array index needs "
     "shaderStorageImageArrayDynamicIndexing"),
    ("texelFetch(tb[pc.k], 0).x",
     "binding 0:2 (combined array): a dynamic array index needs "
     "shaderUniformTexelBufferArrayDynamicIndexing"),
    ("imageLoad(sb[pc.k], 0).x",
     "binding 0:3 (storage_image array): a dynamic array index needs "
     "shaderStorageTexelBufferArrayDynamicIndexing"),
    ("bs[pc.k].v[i]", None),  # lavapipe has shaderStorageBufferArrayDynamicIndexing
    ("bs[nonuniformEXT(i & 1u)].v[i]",
     "binding 0:4 (storage array): a non-uniform array index needs "
     "shaderStorageBufferArrayNonUniformIndexing"),
]


@pytest.mark.parametrize("expr,refusal", _FEATURE_CASES)
def test_missing_features_refused_by_name(glsl, lvp, expr: str, refusal: str | None) -> None:
    """Vulkan allows only constant indices into arrays of descriptors without the
    ...ArrayDynamicIndexing / NonUniformIndexing features and no runtime-sized arrays
    without runtimeDescriptorArray; this lavapipe (Mesa 22.3.6) reports none of them but
    the buffer arrays' dynamic indexing, so the oracle refuses a shader needing one, by
    the feature's name, instead of returning undefined results. Constant and
    specialization-constant indices run (the accepted cases also check the result)."""
    spv = glsl(_ARRAYS.replace("INDEXED", expr))
    rng = np.random.default_rng(3)
    images = {(0, 0, j): (rng.random((2, 2), dtype=np.float32), None) for j in range(2)}
    images.update({(0, 1, j): (rng.random((2, 2), dtype=np.float32), None) for j in range(2)})
    images.update({(0, b, j): (rng.random(4, dtype=np.float32), None)
                   for b in (2, 3) for j in range(2)})
    bufs = {(0, 4, j): rng.random(4, dtype=np.float32) for j in range(2)}
    bufs[(0, 5)] = np.zeros(64, np.float32)
    args = dict(groups=(1, 1, 1), buffers=bufs, images=images,
                samplers={(0, 0, 0): "nearest", (0, 0, 1): "nearest"},
                push_constants=struct.pack("<i", 1))
    if refusal is not None:
        assert refusal in str(pytest.raises(lavapipe.MissingFeatureError, run_compute, spv,
                                            **args).value)
        assert not lvp.features.get(refusal.rsplit(" ", 1)[1])
        return
    got = f32(run_compute(spv, **args)[(0, 5)]).reshape(16, 4)[:4, 0]
    if "cs[1]" in expr:
        want = images[(0, 0, 1)][0][0, 0] + images[(0, 1, 1)][0][0, 0] + bufs[(0, 4, 0)]
    else:
        want = bufs[(0, 4, 1)]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_runtime_descriptor_array_refused(glsl, lvp) -> None:
    spv = glsl("""
#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer S { float v[]; } bs[];
layout(set = 0, binding = 1) buffer O { float o[]; };
layout(push_constant) uniform P { int k; } pc;
void main() { o[gl_LocalInvocationIndex] = bs[pc.k].v[gl_LocalInvocationIndex]; }
""")
    with pytest.raises(lavapipe.MissingFeatureError, match="binding 0:0 \\(storage array\\): "
                       "a runtime-sized array needs runtimeDescriptorArray"):
        run_compute(spv, groups=(1, 1, 1), buffers={(0, 0, 0): np.zeros(4, np.float32),
                                                    (0, 1): np.zeros(4, np.float32)})
    assert spirv_reflect.reflect(spv).bindings[(0, 0)].features_needed() == [
        ("runtimeDescriptorArray", "a runtime-sized array"),
        ("shaderStorageBufferArrayDynamicIndexing", "a dynamic array index")]
