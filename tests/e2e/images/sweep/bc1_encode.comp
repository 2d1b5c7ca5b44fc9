#version 450
// texture-compression-style block reads: each invocation reads a 4x4 block of an rgba8
// image, finds the colour bounding box (the BC1 endpoints, as RGB565), projects each
// texel onto the min-max line for a 2-bit index, and writes the 64-bit block as two
// uints of an rg32ui... here an rgba32ui image (endpoints, indices, block sum)
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32ui) uniform writeonly uimage2D blocks;
uint rgb565(vec3 c) {
    uvec3 q = uvec3(round(clamp(c, 0.0, 1.0) * vec3(31.0, 63.0, 31.0)));
    return (q.r << 11) | (q.g << 5) | q.b;
}
void main() {
    ivec2 b = ivec2(gl_GlobalInvocationID.xy);
    vec3 lo = vec3(1.0), hi = vec3(0.0);
    vec3 px[16];
    uvec4 sum = uvec4(0u);
    for (int i = 0; i < 16; ++i) {
        vec4 t = imageLoad(src, b * 4 + ivec2(i & 3, i >> 2));
        px[i] = t.rgb;
        lo = min(lo, t.rgb);
        hi = max(hi, t.rgb);
        sum += uvec4(round(t * 255.0));
    }
    vec3 d = hi - lo;
    float dd = max(dot(d, d), 1e-8);
    uint idx = 0u;
    for (int i = 0; i < 16; ++i) {
        float t = dot(px[i] - lo, d) / dd;
        idx |= uint(clamp(round(t * 3.0), 0.0, 3.0)) << (2 * i);
    }
    imageStore(blocks, b, uvec4(rgb565(hi), rgb565(lo), idx, sum.r + sum.g * 3u + sum.b * 7u + sum.a));
}
