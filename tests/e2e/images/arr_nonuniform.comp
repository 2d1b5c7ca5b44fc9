#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Non-uniform descriptor indices (nonuniformEXT): each invocation picks its own element
// of arrays of storage images, combined image samplers, sampled images with separate
// samplers and texel buffers (the waterfall loop of nir_lower_non_uniform_access).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src[3];
layout(set = 0, binding = 1, r32ui) uniform uimage2D dst[4];
layout(set = 0, binding = 2) uniform sampler2D cs[3];
layout(set = 0, binding = 3) uniform texture2D tex[2];
layout(set = 0, binding = 4) uniform sampler smp[2];
layout(set = 0, binding = 5) uniform samplerBuffer tb[2];
layout(set = 0, binding = 6) buffer Out { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    uint a = i % 3u, b = (i / 3u) & 3u, c = (i >> 2) & 1u;
    vec2 uv = (vec2(p) + 0.5) / 8.0;
    vec4 x = imageLoad(src[nonuniformEXT(a)], p);
    vec4 y = textureLod(cs[nonuniformEXT(2u - a)], uv, 0.0);
    vec4 z = textureLod(sampler2D(tex[nonuniformEXT(c)], smp[nonuniformEXT(i & 1u)]), uv, 0.0);
    vec4 t = texelFetch(tb[nonuniformEXT(c)], int(i));
    imageStore(dst[nonuniformEXT(b)], p, uvec4(i + 1u));
    uint old = imageAtomicAdd(dst[nonuniformEXT(b)], p, 1000u);
    o[3u * i] = x + y;
    o[3u * i + 1u] = z + t;
    o[3u * i + 2u] = vec4(float(old), float(imageSize(src[nonuniformEXT(a)]).x), 0.0, 0.0);
}
