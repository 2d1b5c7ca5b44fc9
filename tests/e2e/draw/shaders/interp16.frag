#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(location = 0) in f16vec4 smooth_h;
layout(location = 1) flat in f16vec2 flat_h;
layout(location = 2) noperspective in float16_t linear_h;
layout(location = 3) flat in uint16_t u16;
layout(location = 4) flat in i16vec2 i16;
layout(location = 5) in vec2 f32_v;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
void main() {
    o0 = vec4(smooth_h);
    o1 = vec4(flat_h, float(linear_h), float(u16));
    o2 = vec4(float(i16.x), float(i16.y), f32_v);
}
