#version 450
// image atomics on R32ui/R32i storage images: on each invocation's own texel (the old
// values returned to a buffer) and on texels shared by many invocations (only the
// final values, which do not depend on the order)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D u;
layout(set = 0, binding = 1, r32i) uniform iimage2D s;
layout(set = 0, binding = 2, r32ui) uniform uimage2D acc;
layout(set = 0, binding = 3) buffer Out { uint o[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = uint(p.y * 16 + p.x);
    uint v = i * 2654435761u;
    uint a = imageAtomicAdd(u, p, v);
    uint b = imageAtomicXor(u, p, 0x5a5a5a5au);
    uint c = imageAtomicExchange(u, p, a ^ i);
    // equal to the texel (a ^ i) on even texels: swapped; odd ones keep it
    uint d = imageAtomicCompSwap(u, p, (i & 1u) == 0u ? (a ^ i) : 7u, v + 3u);
    int e = imageAtomicMin(s, p, int(v) >> 4);
    int f = imageAtomicMax(s, p, int(i) - 100);
    uint g = imageAtomicAnd(u, p, 0xfff0fff0u) + imageAtomicOr(u, p, i << 8);
    uint h = imageAtomicMin(u, p, v >> 1) + imageAtomicMax(u, p, 1u << (i & 31u));
    o[i * 8u + 0u] = a; o[i * 8u + 1u] = b; o[i * 8u + 2u] = c; o[i * 8u + 3u] = d;
    o[i * 8u + 4u] = uint(e); o[i * 8u + 5u] = uint(f); o[i * 8u + 6u] = g;
    o[i * 8u + 7u] = h;
    int col = (p.x + p.y) & 3;
    imageAtomicAdd(acc, ivec2(col, 0), v);
    imageAtomicMin(acc, ivec2(col, 1), v);
    imageAtomicMax(acc, ivec2(col, 2), v);
    imageAtomicAnd(acc, ivec2(col, 3), ~(1u << (i & 31u)));
    imageAtomicOr(acc, ivec2(col, 4), v & 0x01010101u);
    imageAtomicXor(acc, ivec2(col, 5), v);
    if (p.x == 3 && p.y < 4)  // a uniform branch in some waves, divergent in others
        imageAtomicAdd(acc, ivec2(p.y, 6), 1u);
}
