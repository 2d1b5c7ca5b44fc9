#version 450
// luminance histogram: each texel of an rgba8 image adds 1 to its bin (64 bins in an
// r32ui image, imageAtomicAdd), the red channel's bin counts in shared memory first and
// is merged with one image atomic per bin; the maximum red value by imageAtomicMax
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, r32ui) uniform uimage2D bins;
shared uint red[64];
void main() {
    uint li = gl_LocalInvocationIndex;
    red[li] = 0u;
    barrier();
    vec4 c = imageLoad(src, ivec2(gl_GlobalInvocationID.xy));
    float l = dot(c.rgb, vec3(0.299, 0.587, 0.114));
    uint b = min(uint(l * 64.0), 63u);
    imageAtomicAdd(bins, ivec2(b, 0), 1u);
    atomicAdd(red[uint(c.r * 255.0 + 0.5) >> 2], 1u);
    imageAtomicMax(bins, ivec2(li, 3), uint(c.g * 255.0 + 0.5));
    barrier();
    if (red[li] != 0u)
        imageAtomicAdd(bins, ivec2(li, 1), red[li]);
    imageAtomicOr(bins, ivec2(li & 7u, 2), 1u << (gl_WorkGroupID.x * 4u + gl_WorkGroupID.y));
}
