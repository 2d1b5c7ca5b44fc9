#version 450
// image reads of which the shader uses some components only (ACO's dmask: the read
// returns only those, packed): a storage image's .yw and .y (dmask 0xa, 0x2), an
// integer image's .z (0x4), samples' .x and .zy (0x1, 0x6), a sample's .w converted to
// float16 (d16, 0x8), a texel buffer's .y (buffer_load_format_xy); and one read whose
// every component is used (0xf)
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D a;
layout(set = 0, binding = 1, rgba8ui) uniform readonly uimage2D b;
layout(set = 0, binding = 2) uniform sampler2D t;
layout(set = 0, binding = 3) buffer O { vec4 o[]; };
layout(set = 0, binding = 4) uniform samplerBuffer tb;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_GlobalInvocationID.y * 16 + gl_GlobalInvocationID.x;
    vec4 x = imageLoad(a, p);
    uvec4 y = imageLoad(b, p.yx);
    vec2 uv = (vec2(p) + 0.5) / 16.0;
    vec4 s = textureLod(t, uv, 0.0);
    vec4 s2 = textureLodOffset(t, uv.yx, 0.0, ivec2(1, -2));
    float16_t h = float16_t(textureLod(t, uv * 0.5, 0.0).w);
    vec4 e = texelFetch(tb, int(i));
    vec4 f = imageLoad(a, p.yx);
    o[i * 3] = vec4(x.yw, float(y.z), s.x);
    o[i * 3 + 1] = vec4(s2.zy, float(h), e.y + x.y);
    o[i * 3 + 2] = f.wzyx;
}
