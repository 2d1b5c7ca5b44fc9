#version 450
// the MIMG sampling forms the waits audit (tests/e2e/test_mimg_waits.py) needs beyond the
// other image shaders: depth compare with an explicit level, gradients and offsets
// (image_sample_c_l/_c_l_o/_c_d_o, image_sample_c_lz, image_gather4_c_lz/_c_lz_o) and the
// offset forms with a level or gradients (image_sample_l_o, image_sample_d_o); each sample's
// coordinates depend on the previous result, so that every sample has a wait of its own
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DShadow sh;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(set = 1, binding = 0, rgba32f) uniform writeonly image2D o0;
layout(set = 1, binding = 1, rgba32f) uniform writeonly image2D o1;
layout(set = 1, binding = 2, rgba32f) uniform writeonly image2D o2;
layout(push_constant) uniform P { float lod; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + vec2(0.3, 0.7)) / 13.0 - 0.1;
    float ref = float((p.x * 7 + p.y * 3) % 11) / 10.0;
    vec3 c = vec3(uv, ref);
    float a = textureLod(sh, c, pc.lod);
    float b = textureLodOffset(sh, c + vec3(0.0, 0.0, a * 0.125), pc.lod, ivec2(1, -2));
    float d = textureGradOffset(sh, c + vec3(b * 0.0625, 0.0, 0.0), vec2(0.02, 0.0),
                                vec2(0.0, 0.02), ivec2(-1, 1));
    float e = textureLod(sh, c + vec3(0.0, d * 0.0625, 0.0), 0.0);
    imageStore(o0, p, vec4(a, b, d, e));
    vec4 f = textureLodOffset(tex, uv + vec2(e * 0.125), pc.lod, ivec2(2, 0));
    imageStore(o1, p, f);
    vec4 g = textureGradOffset(tex, uv + f.xy * 0.0625, vec2(0.01, 0.0), vec2(0.0, 0.03),
                               ivec2(0, -1));
    imageStore(o2, p + ivec2(0, 8), g);
    vec4 h = textureGather(sh, uv + g.zw * 0.0625, ref);
    imageStore(o2, p, h + textureGatherOffset(sh, uv + h.xy * 0.0625, ref, ivec2(-1, 0)));
}
