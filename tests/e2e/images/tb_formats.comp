#version 450
// Texel buffers (issue 11): uniform texel buffers of several formats read with texelFetch,
// storage texel buffers read and written with imageLoad/imageStore, and their sizes.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer f4;           // rgba32f
layout(set = 0, binding = 1) uniform usamplerBuffer u1;          // r32ui
layout(set = 0, binding = 2) uniform textureBuffer n4;           // rgba8 (unorm)
layout(set = 0, binding = 3) uniform isamplerBuffer i4;          // rgba32i
layout(set = 0, binding = 4, r32f) uniform writeonly imageBuffer of;
layout(set = 0, binding = 5, rgba8) uniform imageBuffer rw;
layout(set = 0, binding = 6, rgba32ui) uniform writeonly uimageBuffer ou;
layout(set = 0, binding = 7) uniform samplerBuffer h4;           // rgba16f
layout(set = 0, binding = 8) uniform samplerBuffer r8;           // r8 (unorm)
layout(set = 0, binding = 9) buffer O { vec4 oc[128]; vec4 oh[128]; vec4 or8[128]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    vec4 a = texelFetch(f4, i);
    uint b = texelFetch(u1, i).x;
    ivec4 d = texelFetch(i4, i);
    imageStore(of, i, vec4(a.x + a.y * float(b & 7u)));
    imageStore(rw, i, imageLoad(rw, i).wzyx);
    imageStore(ou, i, uvec4(b, uint(d.x), uint(d.w) ^ b,
                            uint(textureSize(f4) + 1000 * imageSize(rw))));
    oc[i] = texelFetch(n4, i);
    oh[i] = texelFetch(h4, i) * 2.0;
    or8[i] = texelFetch(r8, i);
}
