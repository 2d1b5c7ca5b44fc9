#version 450
// mip-chain style downsample inside a 2-D array: layer 0 sampled (sampler2DArray,
// linear, at the centre of each 2x2 block) written to layer 1's top-left quarter with
// imageStore into an image2DArray; 8x8 groups
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DArray src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2DArray dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec3 s = textureSize(src, 0);
    if (any(greaterThanEqual(p * 2, s.xy))) return;
    vec2 uv = (vec2(p * 2) + 1.0) / vec2(s.xy);
    vec4 c = textureLod(src, vec3(uv, 0.0), 0.0);
    imageStore(dst, ivec3(p, 1), c);
    imageStore(dst, ivec3(p, 0), texelFetch(src, ivec3(p * 2 + 1, 1), 0));
}
