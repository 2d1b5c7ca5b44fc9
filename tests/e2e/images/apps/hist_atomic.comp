#version 450
// luminance histogram over a 2-D r32ui image (64 bins x 4 rows = r, g, b, luma) with
// imageAtomicAdd; also a per-texel imageAtomicExchange that returns the old value
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, r32ui) uniform uimage2D hist;
layout(set = 0, binding = 2, r32ui) uniform uimage2D swapimg;
layout(set = 0, binding = 3) buffer O { uint old[]; };
void main() {
    ivec2 s = textureSize(src, 0);
    int i = int(gl_GlobalInvocationID.x);
    ivec2 p = ivec2(i % s.x, i / s.x);
    if (p.y >= s.y) return;
    vec4 c = texelFetch(src, p, 0);
    uvec3 b = uvec3(c.rgb * 63.0 + 0.5);
    imageAtomicAdd(hist, ivec2(b.r, 0), 1u);
    imageAtomicAdd(hist, ivec2(b.g, 1), 1u);
    imageAtomicAdd(hist, ivec2(b.b, 2), 1u);
    uint l = uint(dot(c.rgb, vec3(0.25, 0.5, 0.25)) * 63.0 + 0.5);
    imageAtomicAdd(hist, ivec2(l, 3), 2u);
    old[i] = imageAtomicExchange(swapimg, p, uint(i) * 3u + 1u);
}
