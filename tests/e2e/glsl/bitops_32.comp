#version 450
// 32-bit bit operations: bitfieldExtract (signed/unsigned), bitfieldInsert, bitfieldReverse,
// bitCount, findLSB, findMSB (GLSL.std.450 FindILsb/FindSMsb/FindUMsb), shifts by
// vectors, rotations; offset + bits <= 32 always (undefined otherwise).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) readonly buffer C { uvec2 c[]; };   // (offset, bits)
layout(set = 0, binding = 3) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], y = b[i];
    int off = int(c[i].x), bits = int(c[i].y);
    int sx = int(x);
    uint k = 16 * i;
    o[k + 0] = bitfieldExtract(x, off, bits);
    o[k + 1] = uint(bitfieldExtract(sx, off, bits));
    o[k + 2] = bitfieldInsert(x, y, off, bits);
    o[k + 3] = bitfieldReverse(x);
    o[k + 4] = uint(bitCount(x));
    o[k + 5] = uint(findLSB(x));
    o[k + 6] = uint(findMSB(x));
    o[k + 7] = uint(findMSB(sx));
    o[k + 8] = uint(bitfieldReverse(sx));
    o[k + 9] = (x << (y & 31u)) | (x >> ((32u - (y & 31u)) & 31u));
    uvec4 v = uvec4(x, y, x ^ y, ~x) >> uvec4(0u, 1u, 7u, 31u);
    o[k + 10] = v.x ^ v.y ^ v.z ^ v.w;
    ivec2 s = ivec2(sx, -sx) >> ivec2(3, 30);
    o[k + 11] = uint(s.x + s.y);
    o[k + 12] = uint(bitCount(ivec2(sx, 0)).x + findLSB(0u) * 100);
    o[k + 13] = uint(findMSB(0) + findMSB(-1) * 10 + findMSB(int(y >> 1)) * 100);
    uvec2 r = bitfieldExtract(uvec2(x, y), 4, 8) | (bitfieldInsert(uvec2(0u), uvec2(y), 28, 4));
    o[k + 14] = r.x + r.y;
    o[k + 15] = x & ~y | (x | y) ^ 0xdeadbeefu;
}
