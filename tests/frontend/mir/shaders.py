"""The GLSL compute shaders of the MIR tests, with their inputs and how to compare.

Each ``Case`` gives the GLSL, the dispatch, the initial buffers (from a seeded
generator) and, for buffers of floats, the dtype and tolerance of the comparison;
every other buffer must come back byte for byte what lavapipe gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Rng = np.random.Generator


@dataclass
class Case:
    name: str
    glsl: str
    groups: tuple[int, int, int]
    buffers: Callable[[Rng], dict[tuple[int, int], Any]]
    floats: dict[tuple[int, int], tuple[Any, float, float]] = field(default_factory=dict)
    push: Callable[[Rng], bytes] | None = None
    spec: dict[int, int | float | bool] = field(default_factory=dict)
    env: str = "vulkan1.1"


def _i32(rng: Rng, n: int, lo: int = -1000, hi: int = 1000) -> np.ndarray:
    return rng.integers(lo, hi, n).astype(np.int32)


def _f32(rng: Rng, n: int, lo: float = -8.0, hi: float = 8.0) -> np.ndarray:
    return rng.uniform(lo, hi, n).astype(np.float32)


CASES: list[Case] = []


def case(c: Case) -> Case:
    CASES.append(c)
    return c


case(Case("int32_arith", """
#version 450
layout(local_size_x = 64) in;
layout(set=0, binding=0) readonly buffer A { int a[]; };
layout(set=0, binding=1) readonly buffer B { int b[]; };
layout(set=0, binding=2) writeonly buffer C { int c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i], y = b[i];
    uint o = 16u * i;
    uint ux = uint(x), uy = uint(y);
    c[o + 0] = x + y; c[o + 1] = x - y; c[o + 2] = x * y;
    c[o + 3] = y != 0 ? x / y : 0; c[o + 4] = y > 0 && x >= 0 ? x % y : 0;
    c[o + 5] = x << (y & 31); c[o + 6] = x >> (y & 31); c[o + 7] = int(ux >> (uy & 31u));
    c[o + 8] = x & y; c[o + 9] = x | y; c[o + 10] = x ^ ~y; c[o + 11] = -x;
    c[o + 12] = min(x, y) + max(x, y) * 3; c[o + 13] = int(min(ux, uy) ^ max(ux, uy));
    c[o + 14] = abs(x) + sign(y) + clamp(x, -100, 100);
    c[o + 15] = int(uy != 0u ? ux / uy + ux % uy : 0u);
}
""", (2, 1, 1), lambda r: {(0, 0): _i32(r, 128, -2**31, 2**31 - 1),
                          (0, 1): np.concatenate([_i32(r, 120, -70, 70), np.zeros(8, np.int32)]),
                          (0, 2): 128 * 16 * 4}))

case(Case("bit_ops", """
#version 450
layout(local_size_x = 32) in;
layout(set=0, binding=0) buffer A { uint a[]; };
layout(set=0, binding=1) buffer C { uint c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    int s = int(x);
    uint o = 10 * i;
    c[o + 0] = bitCount(x); c[o + 1] = uint(findLSB(x)); c[o + 2] = uint(findMSB(x));
    c[o + 3] = uint(findMSB(s)); c[o + 4] = bitfieldReverse(x);
    c[o + 5] = bitfieldExtract(x, int(i % 8u), 9); c[o + 6] = uint(bitfieldExtract(s, 3, 12));
    c[o + 7] = bitfieldInsert(x, ~x, 5, int(i % 20u));
    uint hi, lo; umulExtended(x, x + 12345u, hi, lo); c[o + 8] = hi ^ lo;
    uint carry; c[o + 9] = uaddCarry(x, 0xF0000000u, carry) + carry * 7u;
}
""", (2, 1, 1), lambda r: {(0, 0): r.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32),
                          (0, 1): 64 * 40}))

case(Case("float32_math", """
#version 450
layout(local_size_x = 32) in;
layout(set=0, binding=0) readonly buffer A { float a[]; };
layout(set=0, binding=1) readonly buffer B { float b[]; };
layout(set=0, binding=2) buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    uint o = 24 * i;
    c[o + 0] = x + y; c[o + 1] = x * y - y; c[o + 2] = x / (abs(y) + 1.0);
    c[o + 3] = floor(x) + ceil(y) * 10.0; c[o + 4] = fract(x); c[o + 5] = trunc(y) + round(x);
    c[o + 6] = sqrt(abs(x)); c[o + 7] = inversesqrt(abs(y) + 0.5); c[o + 8] = exp2(x * 0.5);
    c[o + 9] = log2(abs(x) + 1.0); c[o + 10] = sin(x); c[o + 11] = cos(y);
    c[o + 12] = min(x, y) - max(x, y); c[o + 13] = clamp(x, -1.0, 2.0);
    c[o + 14] = mix(x, y, 0.25); c[o + 15] = step(0.5, x) + smoothstep(-2.0, 2.0, y);
    c[o + 16] = fma(x, y, 1.0); c[o + 17] = mod(x, 3.0); c[o + 18] = atan(x, y);
    c[o + 19] = pow(abs(x) + 0.1, 1.5); c[o + 20] = exp(y * 0.25) + log(abs(y) + 2.0);
    c[o + 21] = sign(x) * abs(y); c[o + 22] = radians(x) + degrees(y);
    c[o + 23] = x > y ? x * 0.5 : y * 2.0;
}
""", (2, 1, 1), lambda r: {(0, 0): _f32(r, 64), (0, 1): _f32(r, 64), (0, 2): 64 * 24 * 4},
    floats={(0, 2): (np.float32, 2e-5, 2e-5)}))

case(Case("vectors_geometry", """
#version 450
layout(local_size_x = 16) in;
layout(set=0, binding=0) readonly buffer A { vec4 a[]; };
layout(set=0, binding=1) buffer C { vec4 c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    vec3 w = a[i + 16u].xyz;
    c[4 * i + 0] = vec4(dot(v, v), length(w), distance(v.xy, w.zx), dot(v.xyz, w));
    c[4 * i + 1] = vec4(cross(v.xyz, w), 1.0).wzyx;
    c[4 * i + 2] = vec4(normalize(w + 0.5), float(all(greaterThan(v, vec4(-1.0)))));
    vec4 s = v; s.yw = w.xz * 2.0; s[int(i & 3u)] = 7.0;
    c[4 * i + 3] = s + reflect(v, normalize(vec4(w, 1.0)));
}
""", (1, 1, 1), lambda r: {(0, 0): _f32(r, 32 * 4, -2, 2), (0, 1): 16 * 16 * 4},
    floats={(0, 1): (np.float32, 1e-5, 1e-5)}))

case(Case("conversions", """
#version 450
layout(local_size_x = 32) in;
layout(set=0, binding=0) readonly buffer A { float a[]; };
layout(set=0, binding=1) readonly buffer B { int b[]; };
layout(set=0, binding=2) buffer C { uint c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i]; int y = b[i];
    uint o = 8 * i;
    c[o + 0] = uint(int(x)); c[o + 1] = uint(max(x, 0.0));
    c[o + 2] = floatBitsToUint(float(y)); c[o + 3] = floatBitsToUint(float(uint(y) >> 4));
    c[o + 4] = packHalf2x16(vec2(float(y & 255), -0.5));
    c[o + 5] = packUnorm4x8(vec4(0.0, 1.0, 0.5, 0.25));
    c[o + 6] = uint(intBitsToFloat(y & 0x3fffffff) > 1.0) + 2u * uint(bool(y));
    vec2 h = unpackHalf2x16(uint(y)); c[o + 7] = floatBitsToUint(h.x + h.y);
}
""", (1, 1, 1), lambda r: {(0, 0): _f32(r, 32, -1000, 1000), (0, 1): _i32(r, 32, -2**20, 2**20),
                          (0, 2): 32 * 32}))

case(Case("int64_float64", """
#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 16) in;
layout(set=0, binding=0) readonly buffer A { int64_t a[]; };
layout(set=0, binding=1) readonly buffer B { double d[]; };
layout(set=0, binding=2) buffer C { int64_t c[]; };
layout(set=0, binding=3) buffer E { double e[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t x = a[i]; uint64_t u = uint64_t(x);
    c[4 * i + 0] = x * 3l + (x >> 7);
    c[4 * i + 1] = int64_t(u >> 13) ^ (x << 5);
    c[4 * i + 2] = x / 1000l + abs(x) % 77l;
    c[4 * i + 3] = int64_t(d[i] * 1e6);
    e[2 * i] = d[i] * d[i] + double(x & 0xffffl);
    e[2 * i + 1] = sqrt(abs(d[i])) + floor(d[i]);
}
""", (1, 1, 1), lambda r: {(0, 0): r.integers(-2**62, 2**62, 16, dtype=np.int64),
                          (0, 1): r.uniform(-1e3, 1e3, 16),
                          (0, 2): 16 * 4 * 8, (0, 3): 16 * 2 * 8}, floats={(0, 3): (np.float64, 1e-12, 1e-12)}))

case(Case("int16_int8_float16", """
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
layout(set=0, binding=0) readonly buffer A { int16_t a[]; };
layout(set=0, binding=1) readonly buffer B { uint8_t b[]; };
layout(set=0, binding=2) readonly buffer F { float16_t f[]; };
layout(set=0, binding=3) buffer C { int16_t c[]; };
layout(set=0, binding=4) buffer E { float16_t e[]; };
layout(set=0, binding=5) buffer D { uint8_t d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int16_t x = a[i]; uint8_t y = b[i];
    c[2 * i] = x * int16_t(3) + int16_t(y);
    c[2 * i + 1] = (x >> 3s) ^ int16_t(i);
    d[i] = y + uint8_t(7) * y;
    e[i] = f[i] * float16_t(2.0) + float16_t(x & int16_t(15));
}
""", (1, 1, 1), lambda r: {(0, 0): r.integers(-2**15, 2**15, 32).astype(np.int16),
                          (0, 1): r.integers(0, 256, 32).astype(np.uint8),
                          (0, 2): (r.integers(-64, 64, 32) / 4).astype(np.float16),
                          (0, 3): 128, (0, 4): 64, (0, 5): 32}))

case(Case("std140_ubo_std430_structs", """
#version 450
layout(local_size_x = 8) in;
struct S { vec3 p; float w; ivec2 q; float arr[3]; };
layout(std140, set=0, binding=0) uniform U { vec4 scale; float f[4]; S s; mat4 m; } u;
layout(std430, set=0, binding=1) buffer B { S items[]; } b;
layout(set=0, binding=2) buffer O { uint len; vec4 o[]; } o;
void main() {
    uint i = gl_LocalInvocationIndex;
    S s = b.items[i];
    o.o[3 * i] = vec4(s.p * u.scale.xyz, s.w + u.f[i & 3u]);
    o.o[3 * i + 1] = vec4(float(s.q.x + s.q.y), s.arr[0] + s.arr[2], u.s.arr[1], u.s.w);
    o.o[3 * i + 2] = u.m * vec4(s.p, 1.0);
    s.arr[1] = float(i); s.q.y = int(i) * 2;
    b.items[i] = s;
    if (i == 0u) o.len = uint(b.items.length());
}
""", (1, 1, 1), lambda r: {
    (0, 0): np.concatenate([np.arange(1, 5), np.arange(10, 26, 4), _f32(r, 12 + 16, -2, 2)])
    .astype(np.float32)[:8 + 12 + 16].tobytes().ljust(256, b"\0"),
    (0, 1): np.concatenate([r.integers(-5, 5, 8 * 12).astype(np.int32)]).tobytes(),
    (0, 2): 8 * 3 * 16 + 16},
    floats={(0, 2): (np.float32, 1e-5, 1e-5)}))

case(Case("push_constants_and_builtins", """
#version 450
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(push_constant) uniform P { uint base; int mul; vec2 off; } pc;
layout(set=0, binding=0) buffer O { uvec4 o[]; };
void main() {
    uint g = gl_WorkGroupID.x + gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
    uint i = g * 16u + gl_LocalInvocationIndex;
    o[2 * i] = uvec4(gl_GlobalInvocationID, pc.base + uint(pc.mul) * i);
    o[2 * i + 1] = uvec4(gl_LocalInvocationID, uint(pc.off.x * float(gl_WorkGroupSize.x) + pc.off.y));
}
""", (2, 2, 2), lambda r: {(0, 0): 8 * 16 * 32},
    push=lambda r: np.array([7, -3], np.int32).tobytes() + np.array([1.5, 0.25], np.float32)
    .tobytes()))

case(Case("shared_reduction", """
#version 450
layout(local_size_x = 64) in;
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) buffer O { uint o[]; };
shared uint tmp[64];
shared uint total;
void main() {
    uint l = gl_LocalInvocationID.x;
    tmp[l] = a[gl_GlobalInvocationID.x];
    if (l == 0u) total = 0u;
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier();
    }
    atomicAdd(total, a[gl_GlobalInvocationID.x] & 0xffu);
    memoryBarrierShared();
    barrier();
    if (l == 0u) { o[2 * gl_WorkGroupID.x] = tmp[0]; o[2 * gl_WorkGroupID.x + 1] = total; }
}
""", (4, 1, 1), lambda r: {(0, 0): r.integers(0, 2**20, 256).astype(np.uint32), (0, 1): 32}))

case(Case("atomics", """
#version 450
layout(local_size_x = 32) in;
layout(set=0, binding=0) buffer C { int sum; uint mx; uint mn; uint orv; uint andv; uint xorv;
                                    int cnt; int slots[]; };
layout(set=0, binding=1) readonly buffer A { int a[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    atomicAdd(sum, x);
    atomicMax(mx, uint(x) & 0xffffu);
    atomicMin(mn, uint(x) & 0xffffu);
    atomicOr(orv, 1u << (i & 31u));
    atomicAnd(andv, ~(1u << (i % 7u)));
    atomicXor(xorv, uint(x));
    int idx = atomicAdd(cnt, 1);
    atomicExchange(slots[i], idx >= 0 ? 1 : 2);
    atomicCompSwap(slots[64 + (i & 3u)], 0, 5);
}
""", (2, 1, 1), lambda r: {(0, 0): np.array([0, 0, 0xFFFFFFFF, 0, 0xFFFFFFFF, 0, 0] + [0] * 80,
                                            np.uint32), (0, 1): _i32(r, 64)}))

case(Case("loops_break_continue", """
#version 450
layout(local_size_x = 32) in;
layout(set=0, binding=0) buffer A { int a[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    int s = 0;
    for (int j = 0; j < 20; j++) {
        if (j == x % 7) continue;  // x >= 0
        s += j * x;
        if (s > 500) break;
    }
    int k = 0;
    while (x > 1) { x = (x & 1) != 0 ? 3 * x + 1 : x / 2; k++; if (k > 200) break; }
    int d = 0;
    do { d += 3; if ((d & 4) != 0) continue; d += 1; } while (d < int(i));
    for (int p = 0; p < 3; p++) for (int q = 0; q < 4; q++) { if (q > p) break; s += p * q; }
    a[i] = s * 1000 + k * 10 + d;
}
""", (1, 1, 1), lambda r: {(0, 0): r.integers(0, 60, 32).astype(np.int32)}))

case(Case("switch", """
#version 450
layout(local_size_x = 32) in;
layout(set=0, binding=0) buffer A { int a[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i], r = 0;
    // (% of a negative operand is undefined in GLSL: lavapipe truncates)
    switch (x >= 0 ? x % 6 : -((-x) % 6)) {
        case 0: r = 10; break;
        case 1: r = 20;
        case 2: r += 5; break;
        case -3: case -4: r = -1; break;
        default: r = 99;
    }
    for (int j = 0; j < 5; j++) {
        switch (j) {
            case 1: continue;
            case 3: if (x > 0) break; r += 100; break;
            default: r += j;
        }
        r *= 2;
    }
    a[i] = r;
}
""", (1, 1, 1), lambda r: {(0, 0): r.integers(-20, 20, 32).astype(np.int32)}))

case(Case("functions_and_returns", """
#version 450
layout(local_size_x = 32) in;
layout(set=0, binding=0) buffer A { int a[]; };
int collatz(int x) {
    for (int k = 0; k < 100; k++) { if (x == 1) return k; x = (x & 1) != 0 ? 3 * x + 1 : x >> 1; }
    return -1;
}
void swap(inout int p, inout int q) { int t = p; p = q; q = t; }
int classify(int x) {
    if (x < 0) return -1;
    switch (x & 3) { case 0: return 100; case 1: if (x > 10) return 200; break; }
    return collatz(x);
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i], y = a[i] * 2;
    if (x % 5 == 0) swap(x, y);
    a[i] = classify(x) * 1000 + classify(y - 3);
    if (i == 31u) return;
    a[i] += 7;
}
""", (1, 1, 1), lambda r: {(0, 0): r.integers(-10, 60, 32).astype(np.int32)}))

case(Case("local_arrays", """
#version 450
layout(local_size_x = 32) in;
layout(set=0, binding=0) buffer A { int a[]; };
struct P { int v[4]; ivec2 w; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int t[8];
    for (int k = 0; k < 8; k++) t[k] = a[i] * k + k * k;
    int c[3] = int[3](1, 2, 3);
    P p; p.v = int[4](a[i], 1, 2, 3); p.w = ivec2(5, 6);
    int idx = int(uint(a[i]) % 8u);
    t[idx] += 100;
    p.v[idx & 3] = 9;
    a[i] = t[idx] + t[(idx + 3) & 7] + c[1] + p.v[0] + p.v[1] * p.w.y;
}
""", (1, 1, 1), lambda r: {(0, 0): r.integers(-50, 50, 32).astype(np.int32)}))

case(Case("spec_constants", """
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int K = 3;
layout(constant_id = 2) const bool FLAG = false;
layout(constant_id = 3) const float SCALE = 1.5;
const int K2 = K * 2 + 1;
layout(set=0, binding=0) buffer A { float a[]; };
shared float sh[gl_WorkGroupSize.x];
void main() {
    uint i = gl_GlobalInvocationID.x;
    sh[gl_LocalInvocationID.x] = a[i];
    barrier();
    float v = sh[(gl_LocalInvocationID.x + 1u) % gl_WorkGroupSize.x] * SCALE + float(K2);
    a[i] = FLAG ? -v : v + float(gl_WorkGroupSize.x);
}
""", (4, 1, 1), lambda r: {(0, 0): _f32(r, 256)}, floats={(0, 0): (np.float32, 1e-6, 1e-6)},
    spec={0: 16, 1: 5, 2: True, 3: 0.5}))

case(Case("spec_constants_default", """
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int K = 3;
layout(constant_id = 2) const uint U = 7u;
const uint M = U * 3u + uint(K);
layout(set=0, binding=0) buffer A { uint a[]; };
void main() { a[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * M + gl_WorkGroupSize.x; }
""", (2, 1, 1), lambda r: {(0, 0): 2 * 4 * 64}))

case(Case("subgroup_basic", """
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 32) in;
layout(set=0, binding=0) readonly buffer A { int a[]; };
layout(set=0, binding=1) buffer O { uvec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    uvec4 b = subgroupBallot(x > 0);
    o[3 * i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    o[3 * i + 1] = uvec4(b.x, subgroupBallotBitCount(b), subgroupBallotExclusiveBitCount(b),
                         subgroupBallotFindMSB(b));
    uint e = 0u;
    if (x > 3) e = uint(subgroupElect()) + 2u * uint(subgroupAll(x > 10)) +
                  4u * uint(subgroupAny(x > 40)) + 8u * uint(subgroupAllEqual(x / 100));
    o[3 * i + 2] = uvec4(e, uint(subgroupBroadcastFirst(x)), uint(subgroupBroadcast(x, 3u)),
                         gl_SubgroupEqMask.x | gl_SubgroupLtMask.x);
}
""", (2, 1, 1), lambda r: {(0, 0): r.integers(-20, 50, 64).astype(np.int32),
                          (0, 1): 64 * 48}))

case(Case("subgroup_arith_shuffle", """
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 32) in;
layout(set=0, binding=0) readonly buffer A { int a[]; };
layout(set=0, binding=1) buffer O { ivec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    o[3 * i] = ivec4(subgroupAdd(x), subgroupMin(x), subgroupInclusiveAdd(x),
                     subgroupExclusiveMul(x & 3));
    o[3 * i + 1] = ivec4(subgroupShuffle(x, (gl_SubgroupInvocationID + 3u) & 7u),
                         subgroupShuffleXor(x, 5u), subgroupShuffleDown(x, 1u) * int(gl_SubgroupInvocationID < 7u),
                         subgroupExclusiveAdd(x));
    // (lavapipe 22.3 ignores the cluster size of clustered reductions: see test_mir_interp)
    int y = 0;
    if ((x & 1) == 0) y = subgroupAdd(x) + subgroupOr(x);
    o[3 * i + 2] = ivec4(subgroupQuadBroadcast(x, 2u), subgroupQuadSwapHorizontal(x),
                         subgroupQuadSwapDiagonal(x), y);
}
""", (2, 1, 1), lambda r: {(0, 0): r.integers(-100, 100, 64).astype(np.int32),
                          (0, 1): 64 * 48}))

case(Case("divergent_nested_cf", """
#version 450
layout(local_size_x = 64) in;
layout(set=0, binding=0) buffer A { float a[]; };
layout(set=0, binding=1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    uint flags = 0u;
    if (x > 0.0) {
        if (x > 4.0) { x = sqrt(x); flags |= 1u; } else { x *= 2.0; flags |= 2u; }
    } else if (x < -4.0) {
        for (int k = 0; k < 3; k++) { x += 1.0; if (x > -4.5) { flags |= 4u; break; } }
    } else {
        x = -x;
    }
    bool odd = (i & 1u) != 0u;
    bvec2 bv = bvec2(odd, x > 1.0);
    if (any(bv) && !all(bv)) flags |= 8u;
    a[i] = x;
    b[i] = flags;
}
""", (1, 1, 1), lambda r: {(0, 0): _f32(r, 64, -8, 8), (0, 1): 256},
    floats={(0, 0): (np.float32, 1e-6, 1e-6)}))

case(Case("row_major_matrices", """
#version 450
layout(local_size_x = 16) in;
layout(std140, row_major, set=0, binding=0) uniform U { mat3 m3; mat2x4 m24; } u;
layout(std430, set=0, binding=1) readonly buffer A { layout(row_major) mat4x3 a[]; };
layout(std430, set=0, binding=2) buffer C { layout(row_major) mat4 m[]; };
layout(std430, set=0, binding=4) writeonly buffer V { vec4 v[]; };
layout(std430, row_major, set=0, binding=3) writeonly buffer D { mat3x2 d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = i % 4u, j = (i / 4u) % 3u;
    mat4x3 x = a[i];
    vec3 col = a[i][k];                          // a strided column, dynamic index
    float e = a[i][k][j] + a[i][2][j] + a[i][k].y;
    v[2u * i] = vec4(u.m3 * col, e);
    v[2u * i + 1u] = vec4(u.m24[1].xz + u.m24[k & 1u].yw, u.m3[j][k % 3u], x[3][j]);
    m[i] = mat4(x[0], 1.0, x[1], 2.0, x[2], 3.0, x[3], 4.0);
    m[i][k] = vec4(col, e);                      // store a strided column
    m[i][j][k] = -e;                             // store one element
    m[i][3].zw = vec2(7.0, 8.0);                 // part of a column
    d[i] = mat3x2(x[0].xy, x[1].yz, x[2].zx);
}
""", (2, 1, 1), lambda r: {(0, 0): _f32(r, 28),
                          (0, 1): _f32(r, 32 * 12), (0, 2): 32 * 64, (0, 3): 32 * 24,
                          (0, 4): 32 * 2 * 16},
    floats={(0, 4): (np.float32, 1e-5, 1e-5)}))
