#version 450
// Atomics on storage texel buffers (r32ui: add, max, compare-exchange, xor without a
// result; r32f: exchange) and exchange on an r32f 2-D image: each invocation on
// elements of its own, so every result is deterministic.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimageBuffer tb;
layout(set = 0, binding = 1, r32f) uniform imageBuffer fb;
layout(set = 0, binding = 2, r32f) uniform image2D fimg;
layout(set = 0, binding = 3) buffer Out { uint o[]; };
void main() {
    int i = int(gl_LocalInvocationIndex);
    uint a = imageAtomicAdd(tb, i, 7u);
    uint b = imageAtomicMax(tb, i + 64, uint(i) * 3u);
    uint c = imageAtomicCompSwap(tb, i + 128, uint(i), 99u);
    imageAtomicXor(tb, i + 192, 0x55u);
    float f = imageAtomicExchange(fb, i, float(i) * 0.5);
    float g = imageAtomicExchange(fimg, ivec2(i & 7, i >> 3), 1.0 - float(i));
    o[5 * i] = a;
    o[5 * i + 1] = b;
    o[5 * i + 2] = c;
    o[5 * i + 3] = floatBitsToUint(f);
    o[5 * i + 4] = floatBitsToUint(g);
}
