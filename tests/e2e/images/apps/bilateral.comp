#version 450
// bilateral filter on an rgba16f image: spatial and range weights, 3x3..5x5 radius
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba16f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;
layout(push_constant) uniform P { int radius; float sigmaS; float sigmaR; } pc;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 s = imageSize(src);
    vec4 c0 = imageLoad(src, p);
    vec4 acc = vec4(0.0);
    float wsum = 0.0;
    for (int j = -pc.radius; j <= pc.radius; ++j)
        for (int i = -pc.radius; i <= pc.radius; ++i) {
            vec4 c = imageLoad(src, clamp(p + ivec2(i, j), ivec2(0), s - 1));
            float d = length(c.rgb - c0.rgb);
            float w = exp(-float(i * i + j * j) / (2.0 * pc.sigmaS * pc.sigmaS)
                          - d * d / (2.0 * pc.sigmaR * pc.sigmaR));
            acc += c * w;
            wsum += w;
        }
    imageStore(dst, p, acc / wsum);
}
