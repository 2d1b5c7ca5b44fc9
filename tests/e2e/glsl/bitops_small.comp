#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// 8- and 16-bit bit operations and the explicit-types packing functions
// (pack16/pack32/unpack8/unpack16 of u8vec/u16vec).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { u8vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { u16vec2 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint8_t o[]; };
layout(set = 0, binding = 3) writeonly buffer P { uint16_t p[]; };
layout(set = 0, binding = 4) writeonly buffer Q { uint q[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    u8vec4 x = a[i];
    u16vec2 y = b[i];
    int8_t s = int8_t(x.y);
    int16_t t = int16_t(y.y);
    o[8 * i + 0] = x.x & x.y;
    o[8 * i + 1] = x.x | x.z;
    o[8 * i + 2] = x.y ^ x.w;
    o[8 * i + 3] = ~x.z;
    o[8 * i + 4] = x.x << (x.w & uint8_t(7));
    o[8 * i + 5] = x.x >> (x.w & uint8_t(7));
    o[8 * i + 6] = uint8_t(s >> (x.z & uint8_t(7)));
    o[8 * i + 7] = (x.z << uint8_t(3)) | (x.z >> uint8_t(5));
    p[6 * i + 0] = y.x & y.y;
    p[6 * i + 1] = y.x ^ ~y.y;
    p[6 * i + 2] = y.x << (y.y & uint16_t(15));
    p[6 * i + 3] = uint16_t(t >> (y.x & uint16_t(15)));
    p[6 * i + 4] = pack16(x.zw);
    p[6 * i + 5] = unpack8(y.x).y | uint16_t(unpack8(y.y).x);
    q[3 * i + 0] = pack32(x);
    q[3 * i + 1] = pack32(y.yx);
    u8vec4 w = unpack8(pack32(y));
    q[3 * i + 2] = uint(w.x) + uint(w.y) * 3u + uint(w.z) * 5u + uint(w.w) * 7u
                   + uint(unpack16(pack32(x)).y) * 11u;
}
