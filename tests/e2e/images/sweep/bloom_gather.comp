#version 450
// bloom bright-pass downsample with gathers: textureGather of each channel over the
// 2x2 footprint at the centre of each output texel, a brightness threshold per texel,
// the weighted average to an rgba16f image (the 13-tap downsample's inner box)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;
layout(push_constant) uniform P { float threshold; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) * 2.0 + 1.0) / vec2(textureSize(src, 0));
    vec4 r = textureGather(src, uv, 0);
    vec4 g = textureGather(src, uv, 1);
    vec4 b = textureGather(src, uv, 2);
    vec3 acc = vec3(0.0);
    float wsum = 0.0;
    for (int k = 0; k < 4; ++k) {
        vec3 c = vec3(r[k], g[k], b[k]);
        float br = max(c.r, max(c.g, c.b));
        float w = max(br - pc.threshold, 0.0) / max(br, 1e-4);
        acc += c * w;
        wsum += w;
    }
    imageStore(dst, p, vec4(acc * 0.25, wsum * 0.25));
}
