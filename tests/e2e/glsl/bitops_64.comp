#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit bit operations: and/or/xor/not, shifts by 0..63 (both directions, arithmetic and
// logical), rotations, pack/unpack of 2x32 (packUint2x32, unpackInt2x32).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint64_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint64_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint64_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t x = a[i], y = b[i];
    int64_t sx = int64_t(x);
    uint s = uint(y & 63ul);
    uint k = 12 * i;
    o[k + 0] = x & y;
    o[k + 1] = x | y;
    o[k + 2] = x ^ y;
    o[k + 3] = ~x;
    o[k + 4] = x << s;
    o[k + 5] = x >> s;
    o[k + 6] = uint64_t(sx >> s);
    o[k + 7] = (x << s) | (x >> ((64u - s) & 63u));
    uvec2 p = unpackUint2x32(x);
    o[k + 8] = packUint2x32(p.yx);
    ivec2 q = unpackInt2x32(sx);
    o[k + 9] = uint64_t(packInt2x32(ivec2(q.x >> 4, q.y)));
    o[k + 10] = x << 32 | y >> 32;
    o[k + 11] = uint64_t(sx >> 63) ^ (x >> 63);
}
