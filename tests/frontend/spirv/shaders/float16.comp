#version 450
// 16-bit floats: arithmetic, conversions, storage, packing.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float16_t h[64]; f16vec4 hv; float f[]; } b;

void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    float16_t x = b.h[i];
    float16_t y = x * float16_t(0.1) + float16_t(65504.0) - float16_t(6.1e-5) + float16_t(5.96e-8);
    f16vec4 v = b.hv * f16vec4(float16_t(-0.0), float16_t(1.5), float16_t(-2.0), y);
    b.h[i] = max(y, float16_t(0.0));
    b.hv = v;
    b.f[i] = float(y) + unpackHalf2x16(packHalf2x16(vec2(x))).x;
}
