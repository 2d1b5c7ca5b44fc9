#version 450
// texelFetch of a sampled image and imageStore to a formatless (writeonly) storage image,
// whatever their formats (the descriptors': the texture unit's packed formats).
// SAMPLER, IMAGE, VEC4: defined per sampled type (sampler2D, image2D, vec4; u..; i..)
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform SAMPLER src;
layout(set = 0, binding = 1) writeonly uniform IMAGE dst;
layout(set = 0, binding = 2, std430) writeonly buffer Out { VEC4 o[]; };
layout(set = 0, binding = 3, std430) readonly buffer In { VEC4 v[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x;
    o[i] = texelFetch(src, p, 0);
    imageStore(dst, p, v[i]);
}
