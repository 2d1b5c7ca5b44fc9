#version 450
// Image atomics beyond 2-D/3-D R32ui/R32i: R32f exchange on a 2-D image, atomics on a 1-D
// image, a 2-D array (its layers) and a 1-D array; each invocation on texels of its own,
// so every result is deterministic. The old values go to a buffer.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform image2D fimg;
layout(set = 0, binding = 1, r32i) uniform iimage1D line;
layout(set = 0, binding = 2, r32ui) uniform uimage2DArray layers;
layout(set = 0, binding = 3, r32ui) uniform uimage1DArray rows;
layout(set = 0, binding = 4) buffer Out { uint o[]; };
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    int i = int(gl_LocalInvocationIndex);
    float f = imageAtomicExchange(fimg, p, float(i) - 20.5);
    int a = imageAtomicMin(line, i, 10 - i);
    uint b = imageAtomicAdd(layers, ivec3(p, 1), uint(i) + 3u);
    uint c = imageAtomicCompSwap(layers, ivec3(p, 0), uint(i & 3), 1000u + uint(i));
    uint d = imageAtomicOr(rows, ivec2(p.x, p.y & 3), 1u << (p.y >> 2));
    o[5 * i] = floatBitsToUint(f);
    o[5 * i + 1] = uint(a);
    o[5 * i + 2] = b;
    o[5 * i + 3] = c;
    o[5 * i + 4] = d;
}
