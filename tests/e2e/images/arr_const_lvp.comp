#version 450
// Arrays of texel buffers, combined image samplers, sampled images and samplers indexed
// by constants only (element 0 included): what lavapipe 22.3 can run, since it has none
// of shader{SampledImage,StorageImage,UniformTexelBuffer}ArrayDynamicIndexing nor
// descriptor indexing (docs/oracle-lavapipe.md, "Arrays of descriptors").
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform samplerBuffer tb[2];
layout(set = 0, binding = 1) uniform sampler2D cs[2];
layout(set = 0, binding = 2) uniform texture2D tex[2];
layout(set = 0, binding = 3) uniform sampler smp[2];
layout(set = 0, binding = 4) buffer Out { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    vec2 uv = (vec2(p) + 0.5) / 4.0;
    o[4u * i] = texelFetch(tb[0], int(i)) + 2.0 * texelFetch(tb[1], int(15u - i));
    o[4u * i + 1u] = texelFetch(cs[0], p, 0) + 4.0 * textureLod(cs[1], uv, 0.0);
    o[4u * i + 2u] = textureLod(sampler2D(tex[0], smp[1]), uv, 0.0);
    o[4u * i + 3u] = texelFetch(sampler2D(tex[1], smp[0]), p.yx, 0);
}
