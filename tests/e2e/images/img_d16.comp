#version 450
// 16-bit image data and coordinates (ACO's MIMG d16 and a16 after NIR's 16-bit fold):
// loads of float texels converted to float16 (d16), stores of float16 / uint16 / int16
// values widened to 32 bits (d16 stores, float into rgba16f and unorm rgba8, integers
// into r32ui / r32i), every coordinate a 16-bit integer widened (a16)
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba16f) uniform image2D a;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D b;
layout(set = 0, binding = 2, r32ui) uniform uimage2D c;
layout(set = 0, binding = 3, r32i) uniform iimage2D e;
void main() {
    i16vec2 p = i16vec2(gl_GlobalInvocationID.xy);
    f16vec4 v = f16vec4(imageLoad(a, ivec2(p)));
    imageStore(a, ivec2(p), vec4(v * float16_t(2.0) + float16_t(0.5)));
    imageStore(b, ivec2(p.yx), vec4(v.wzyx * float16_t(0.25) + float16_t(0.5)));
    uint16_t w = uint16_t(imageLoad(c, ivec2(p)).x);
    imageStore(c, ivec2(p), uvec4(w * uint16_t(3) + uint16_t(p.x)));
    int16_t s = int16_t(imageLoad(e, ivec2(p)).x);
    imageStore(e, ivec2(p), ivec4(s - int16_t(300) * p.y));
}
