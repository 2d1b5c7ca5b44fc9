#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// sRGB texture sampled (decode in the texture unit) and f16vec4 arithmetic on the
// results (GL_EXT_shader_explicit_arithmetic_types), stored to rgba16f and to an f16 buffer
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D srgb;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;
layout(set = 0, binding = 2) buffer O { f16vec4 h[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + 0.5) / vec2(imageSize(dst));
    f16vec4 c = f16vec4(textureLod(srgb, uv, 0.0));
    f16vec4 g = c * float16_t(0.5) + f16vec4(0.25hf);
    imageStore(dst, p, vec4(g));
    h[p.y * 16 + p.x] = f16vec4(texelFetch(srgb, p, 0));
}
