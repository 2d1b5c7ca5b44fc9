#version 450
// imageAtomicCompSwap on r32i: each invocation owns one texel and swaps when the texel
// holds the expected value (its parity rule); min/max/and/or/xor on other texels, 8x8
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32i) uniform iimage2D img;
layout(set = 0, binding = 1, r32i) uniform iimage2D acc;
layout(set = 0, binding = 2) buffer O { ivec4 r[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int id = p.y * 16 + p.x;
    int expect = (id & 1) == 0 ? imageLoad(img, p).x : 12345;
    int got = imageAtomicCompSwap(img, p, expect, -id - 7);
    int k = id & 7;
    int a = imageAtomicMin(acc, ivec2(k, 0), id * 37 % 101 - 50);
    int b = imageAtomicMax(acc, ivec2(k, 1), id * 53 % 97 - 40);
    imageAtomicAnd(acc, ivec2(k, 2), ~(1 << (id % 31)));
    imageAtomicOr(acc, ivec2(k, 3), 1 << (id % 29));
    imageAtomicXor(acc, ivec2(k, 4), id * 0x9E3779B1);
    r[id] = ivec4(got, expect, 0, 0);
}
