"""Small GLSL compute shaders for the isel tests: (name, source, groups, buffers, push)."""

from __future__ import annotations

import struct

import numpy as np

HEAD = "#version 450\nlayout(local_size_x = 64) in;\n"
RNG = np.random.default_rng(5)
A = RNG.integers(0, 100, 256).astype(np.uint32)
F = RNG.uniform(-4, 4, 256).astype(np.float32)

SHADERS: list[tuple[str, str, tuple[int, int, int], dict, bytes]] = [
    ("buffer_add", HEAD + """
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) readonly buffer B { uint b[]; };
layout(set=0, binding=2) buffer C { uint c[]; };
void main() { uint i = gl_GlobalInvocationID.x; c[i] = a[i] + b[i] * 3u; }
""", (4, 1, 1), {(0, 0): A, (0, 1): A[::-1].copy(), (0, 2): 1024}, b""),
    ("scale_push", HEAD + """
layout(set=0, binding=0) buffer X { float x[]; };
layout(push_constant) uniform P { float k; float c; uint n; } pc;
void main() {  // precise: lavapipe rounds x * k before the add; radcc fuses a*b+c otherwise
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) { precise float r = x[i] * pc.k + pc.c; x[i] = r; }
}
""", (4, 1, 1), {(0, 0): F}, struct.pack("<ffI", 1.5, -2.0, 200)),
    ("branches", HEAD + """
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) buffer O { uint o[]; };
layout(push_constant) uniform P { uint mode; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x, v = a[i], r;
    if (pc.mode == 1u) { r = v * 2u; } else { r = v + 7u; }       // uniform
    if ((v & 1u) != 0u) { r ^= 0x55u; } else { r += i; }            // divergent
    if (v > 50u) { if (i % 3u == 0u) r = r / 3u; else r = r % 7u; }
    o[i] = r;
}
""", (4, 1, 1), {(0, 0): A, (0, 1): 1024}, struct.pack("<I", 1)),
    ("loops", HEAD + """
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, acc = 0u;
    for (uint j = 0u; j < 16u; j++) {                 // uniform trip count
        if (j == a[i] % 13u) continue;                  // divergent continue
        acc += j * 3u;
        if (acc > a[i] * 4u) break;                     // divergent break
    }
    uint k = a[i];
    while (k > 1u) { k = (k & 1u) != 0u ? 3u * k + 1u : k / 2u; acc++; }
    int s = int(a[i]) - 50; float f = 0.0;
    do { f += float(s) * 0.5; s += 7; } while (s < 30);
    o[i] = acc + uint(int(f));
}
""", (4, 1, 1), {(0, 0): A, (0, 1): 1024}, b""),
    ("shared_reduce", """#version 450
layout(local_size_x = 128) in;
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) buffer O { uint o[]; };
shared uint s[128];
void main() {
    uint l = gl_LocalInvocationIndex;
    s[l] = a[gl_GlobalInvocationID.x];
    barrier();
    for (uint w = 64u; w > 0u; w >>= 1) { if (l < w) s[l] += s[l + w]; barrier(); }
    if (l == 0u) o[gl_WorkGroupID.x] = s[0];
}
""", (2, 1, 1), {(0, 0): A, (0, 1): 64}, b""),
    ("atomics", HEAD + """
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) buffer O { uint sum; uint mx; uint mn; uint cnt; uint hist[16]; };
shared uint sh[16];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    if (l < 16u) sh[l] = 0u;
    barrier();
    atomicAdd(sum, a[i]);
    atomicMax(mx, a[i]);
    atomicMin(mn, a[i]);
    if (a[i] > 40u) atomicAdd(cnt, 1u);
    atomicAdd(sh[a[i] % 16u], 1u);
    barrier();
    if (l < 16u) atomicAdd(hist[l], sh[l]);
}
""", (4, 1, 1), {(0, 0): A, (0, 1): np.array([0, 0, 0xFFFFFFFF, 0] + [0] * 16, np.uint32)},
     b""),
    ("int64_f64", HEAD + """
#extension GL_ARB_gpu_shader_int64 : require
layout(set=0, binding=0) readonly buffer A { uint a[]; };
layout(set=0, binding=1) buffer O { uint64_t q[256]; double d[256]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t x = uint64_t(a[i]) * 0x100000001ul + (uint64_t(i) << 33);
    x = (x ^ (x >> 7)) - 12345ul;
    q[i] = x;
    double y = double(a[i]) / 3.0 + double(i) * 0.25;
    d[i] = y * y - sqrt(y + 1.0);
}
""", (4, 1, 1), {(0, 0): A, (0, 1): 4096}, b""),
]
