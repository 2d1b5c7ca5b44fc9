#version 450
// 5x5 separable-style gaussian written as one pass: sampler2D + textureLod at texel
// centres offset by fractional steps (bilinear taps), rgba8 in, rgba8 out, 8x8 groups
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
const float w[3] = float[](0.2270270270, 0.3162162162, 0.0702702703);
const float o[3] = float[](0.0, 1.3846153846, 3.2307692308);
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 ts = 1.0 / vec2(textureSize(src, 0));
    vec2 uv = (vec2(p) + 0.5) * ts;
    vec4 acc = textureLod(src, uv, 0.0) * w[0] * w[0];
    for (int i = 1; i < 3; ++i) {
        acc += textureLod(src, uv + vec2(o[i], 0.0) * ts, 0.0) * w[i] * w[0];
        acc += textureLod(src, uv - vec2(o[i], 0.0) * ts, 0.0) * w[i] * w[0];
        acc += textureLod(src, uv + vec2(0.0, o[i]) * ts, 0.0) * w[i] * w[0];
        acc += textureLod(src, uv - vec2(0.0, o[i]) * ts, 0.0) * w[i] * w[0];
    }
    acc /= (w[0] * w[0] + 4.0 * w[0] * (w[1] + w[2]));
    imageStore(dst, p, acc);
}
