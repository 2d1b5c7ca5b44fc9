#version 450
// 8- and 16-bit integers: storage and arithmetic.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B {
    int8_t s8[64]; uint8_t u8[64]; int16_t s16[64]; uint16_t u16[64];
    i8vec4 v8; u16vec2 v16;
} b;
layout(push_constant) uniform P { int16_t k16; uint8_t k8; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    int8_t a = b.s8[i] * int8_t(-3) + int8_t(100);
    uint8_t u = b.u8[i] / uint8_t(7) + uint8_t(250);
    int16_t c = b.s16[i] - int16_t(-30000) + pc.k16;
    uint16_t d = (b.u16[i] << uint16_t(3)) ^ uint16_t(0xBEEF) + uint16_t(pc.k8);
    b.s8[i] = a;
    b.u8[i] = u;
    b.s16[i] = c >> 2;
    b.u16[i] = d;
    b.v8 = b.v8 + i8vec4(int8_t(-128), int8_t(127), int8_t(0), a);
    b.v16 = u16vec2(d, uint16_t(65535));
}
