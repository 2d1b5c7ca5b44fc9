#version 450
// texel reads converted to 16-bit float (ACO's d16 MIMG forms after NIR's 16-bit fold):
// texelFetch of rgba16f and r16f, textureLod and textureGather of rgba16f (nearest),
// f16 arithmetic, results to a float16 buffer
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D t4;
layout(set = 0, binding = 1) uniform sampler2D t1;
layout(set = 0, binding = 2) buffer B { f16vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    int i = (p.y * 16 + p.x) * 4;
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 13.3 - 0.07;
    f16vec4 a = f16vec4(texelFetch(t4, p & 7, 0));
    o[i] = a * float16_t(2.0) - f16vec4(texelFetch(t1, p.yx & 7, 0).x);
    o[i + 1] = f16vec4(textureLod(t4, uv, 0.0)).wzyx;
    o[i + 2] = f16vec4(textureGather(t4, uv, 1));
    f16vec3 b = f16vec3(textureLod(t4, uv.yx, 0.0).xyz);
    o[i + 3] = f16vec4(b, float16_t(texelFetch(t1, p & 7, 0).x));
}
