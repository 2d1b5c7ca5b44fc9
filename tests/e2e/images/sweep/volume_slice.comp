#version 450
// 3-D image processing: a 3x3x3 box filter over an r32f storage volume by imageLoad
// (clamped), written to a second volume, and the maximum-intensity projection along z
// to a 2-D image
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0, r32f) uniform readonly image3D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image3D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D mip;
void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    ivec3 s = imageSize(src);
    float acc = 0.0;
    for (int z = -1; z <= 1; ++z)
        for (int y = -1; y <= 1; ++y)
            for (int x = -1; x <= 1; ++x)
                acc += imageLoad(src, clamp(p + ivec3(x, y, z), ivec3(0), s - 1)).x;
    imageStore(dst, p, vec4(acc / 27.0));
    float v = imageLoad(src, p).x;
    imageAtomicMax(mip, p.xy, floatBitsToUint(max(v, 0.0)));
}
