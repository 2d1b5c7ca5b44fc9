#version 450
// image atomics on 3-D R32ui/R32i storage images: each invocation's own texel (old
// values to a buffer) and texels shared by eight invocations (final values only)
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage3D u;
layout(set = 0, binding = 1, r32i) uniform iimage3D acc;
layout(set = 0, binding = 2) buffer Out { uint o[]; };

void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    uint i = uint((p.z * 4 + p.y) * 8 + p.x);
    uint v = i * 2654435761u;
    uint a = imageAtomicAdd(u, p, v);
    uint b = imageAtomicCompSwap(u, p, (i % 3u) == 0u ? a + v : 0u, i);
    o[i * 2u] = a;
    o[i * 2u + 1u] = b;
    imageAtomicMin(acc, p / 2, int(v));
}
