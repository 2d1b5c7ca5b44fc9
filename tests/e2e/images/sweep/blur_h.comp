#version 450
// separable Gaussian blur, horizontal pass: 9 taps as 5 bilinear samples (the linear
// sampling trick: two texels per sample at weighted offsets) of an rgba8 texture,
// written to an rgba8 storage image
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
layout(push_constant) uniform P { vec2 texel; } pc;
const float w[3] = float[](0.2270270270, 0.3162162162, 0.0702702703);
const float o[3] = float[](0.0, 1.3846153846, 3.2307692308);
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + 0.5) * pc.texel;
    vec4 c = textureLod(src, uv, 0.0) * w[0];
    for (int i = 1; i < 3; ++i) {
        c += textureLod(src, uv + vec2(o[i] * pc.texel.x, 0.0), 0.0) * w[i];
        c += textureLod(src, uv - vec2(o[i] * pc.texel.x, 0.0), 0.0) * w[i];
    }
    imageStore(dst, p, c);
}
