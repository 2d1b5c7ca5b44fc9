#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// interp16.vert with 32-bit varyings holding the same 16-bit values (lavapipe's
// reference: its LLVM 15 cannot compile 16-bit varyings)
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 smooth_h;
layout(location = 1) flat out vec2 flat_h;
layout(location = 2) noperspective out float linear_h;
layout(location = 3) flat out uint u16;
layout(location = 4) flat out ivec2 i16;
layout(location = 5) out vec2 f32_v;
void main() {
    gl_Position = pos;
    smooth_h = vec4(f16vec4(col));
    flat_h = vec2(f16vec2(col.yz * 2.0 + float(gl_VertexIndex)));
    linear_h = float(float16_t(col.x - col.w));
    u16 = uint(uint16_t(gl_VertexIndex * 1000 + 7));
    i16 = ivec2(i16vec2(-gl_VertexIndex * 300 - 5, gl_VertexIndex + 40000 - 65536));
    f32_v = col.wz;
}
