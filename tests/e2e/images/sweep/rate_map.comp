#version 450
// A shading-rate / density map builder: reads two 8-bit integer channels (rg8ui), writes
// a one-channel rate code (r8ui) and a normalized two-channel density (rg8).
layout(local_size_x = 8, local_size_y = 4) in;
layout(binding = 0, rg8ui) uniform readonly uimage2D motion;
layout(binding = 1, r8ui) uniform writeonly uimage2D rate;
layout(binding = 2, rg8) uniform writeonly image2D density;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uvec2 m = uvec2(0u);
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx)
            m = max(m, imageLoad(motion, 2 * p + ivec2(dx, dy)).xy);
    uint code = (m.x >> 6) << 2 | (m.y >> 6);
    imageStore(rate, p, uvec4(code + (m.x == 255u ? 16u : 0u)));
    vec2 d = vec2(m) / 255.0;
    imageStore(density, p, vec4(1.0 - d.x, d.y * d.y, 0.5, 1.0));
}
