#version 450
// mip generation: each texel of the half-size level is one bilinear textureLod at the
// centre of its 2x2 footprint in the source (the box filter), stored with imageStore; a
// second, odd-size-safe path averages four texelFetches for comparison
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, rgba32f) uniform writeonly image2D dst2;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 outSize = imageSize(dst);
    if (any(greaterThanEqual(p, outSize))) return;
    vec2 uv = (vec2(p) + 0.5) / vec2(outSize);
    imageStore(dst, p, textureLod(src, uv, 0.0));
    ivec2 q = 2 * p;
    vec4 s = texelFetch(src, q, 0) + texelFetch(src, q + ivec2(1, 0), 0)
           + texelFetch(src, q + ivec2(0, 1), 0) + texelFetch(src, q + ivec2(1, 1), 0);
    imageStore(dst2, p, s * 0.25);
}
