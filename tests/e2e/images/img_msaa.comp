#version 450
#extension GL_EXT_samplerless_texture_functions : require
// Multisampled images (issue 11): texelFetch of a sampled 2-D MS image and of a 2-D MS
// array with a sample index, imageLoad/imageStore of storage MS images, an atomic on a
// sample, the sample counts and sizes.
// (GL_ARB_shader_texture_image_samples: textureSamples, imageSamples)
#extension GL_ARB_shader_texture_image_samples : require
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform texture2DMS tex;
layout(set = 0, binding = 1) uniform itexture2DMSArray texa;
layout(set = 0, binding = 2, rgba32f) uniform readonly image2DMS src;
layout(set = 0, binding = 3, rgba32f) uniform writeonly image2DMS dst;
layout(set = 0, binding = 4, r32ui) uniform uimage2DMS cnt;
layout(set = 0, binding = 5) buffer Out { vec4 o[]; };
layout(push_constant) uniform P { int s; } pc;
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    int i = int(gl_LocalInvocationIndex);
    int ns = textureSamples(tex);
    vec4 a = texelFetch(tex, p, i % ns);
    ivec4 b = texelFetch(texa, ivec3(p, i & 1), pc.s);
    vec4 c = imageLoad(src, p, 3 - (i & 3));
    for (int k = 0; k < imageSamples(dst); k++)
        imageStore(dst, p, k, c * float(k + 1));
    uint old = imageAtomicAdd(cnt, p, i & 1, uint(i) + 1u);
    ivec2 sz = textureSize(tex) + imageSize(src);
    ivec3 sa = textureSize(texa);
    o[3 * i] = a;
    o[3 * i + 1] = vec4(b);
    o[3 * i + 2] = vec4(float(old), float(ns * 100 + imageSamples(cnt) * 10 + textureSamples(texa)),
                        float(sz.x * 1000 + sz.y), float(sa.x * 100 + sa.y * 10 + sa.z));
}
