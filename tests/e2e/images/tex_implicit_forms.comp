#version 450
// the implicit-level MIMG forms of compute shaders with derivative groups (the waits
// audit, tests/e2e/test_mimg_waits.py): image_sample, _b, _o, _b_o, _c, _c_b, _c_o and
// image_gather4 (the level from the quad), each sample's coordinates depending on the
// previous result so that each has a wait of its own
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(derivative_group_quadsNV) in;
layout(set = 0, binding = 0) uniform sampler2DShadow sh;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(set = 1, binding = 0, rgba32f) uniform writeonly image2D o0;
layout(set = 1, binding = 1, rgba32f) uniform writeonly image2D o1;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 13.0 - 0.1;
    float ref = float((p.x * 7 + p.y * 3) % 11) / 10.0;
    vec4 a = texture(tex, uv);
    vec4 b = texture(tex, uv + a.xy * 0.0625, 0.5);
    vec4 c = textureOffset(tex, uv + b.zw * 0.0625, ivec2(1, -1));
    vec4 d = textureOffset(tex, uv + c.xy * 0.0625, ivec2(-2, 0), -0.25);
    imageStore(o0, p, a + b + c + d);
    float e = texture(sh, vec3(uv + d.zw * 0.0625, ref));
    float f = texture(sh, vec3(uv + vec2(e * 0.0625), ref), 0.75);
    float g = textureOffset(sh, vec3(uv + vec2(f * 0.0625), ref), ivec2(0, 1));
    vec4 h = textureGather(tex, uv + vec2(g * 0.0625), 2);
    imageStore(o1, p, vec4(e, f, g, 0.0) + h);
}
