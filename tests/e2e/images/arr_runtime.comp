#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Runtime-sized arrays of descriptors (descriptor indexing, RuntimeDescriptorArray):
// storage buffers, combined image samplers and storage images, indexed by a push
// constant, a constant and a non-uniform value; the element count is the dispatch's
// (lavapipe 22.3 lacks runtimeDescriptorArray and image array indexing: NumPy only).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer Src { float v[]; } src[];
layout(set = 0, binding = 1) uniform sampler2D tex[];
layout(set = 0, binding = 2, r32ui) uniform uimage2D dst[];
layout(set = 0, binding = 3) buffer Out { vec4 o[]; };
layout(push_constant) uniform P { uint k; uint n; } pc;
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    uint j = i % pc.n;
    vec2 uv = (vec2(p) + 0.5) / 8.0;
    float a = src[pc.k].v[i] + src[nonuniformEXT(j)].v[i + 1u];
    vec4 t = textureLod(tex[pc.k], uv, 0.0) + texelFetch(tex[pc.n], p, 0);
    imageStore(dst[nonuniformEXT(j)], p, uvec4(i + 7u));
    o[i] = vec4(a, t.x + t.y, float(src[pc.k].v.length()), float(textureSize(tex[2], 0).x));
}
