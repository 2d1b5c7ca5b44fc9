#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of storage and uniform buffers (issue 11): constant, dynamically uniform
// (a push constant, a value loaded from a buffer) and non-uniform indices, loads,
// stores, atomics and .length() of an element.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Src { float v[]; } src[3];
layout(set = 0, binding = 1) buffer Dst { uint n; uint hits[4]; uvec4 w[]; } dst[2];
layout(set = 0, binding = 2) uniform Par { vec4 scale; uvec4 sel; } par[2];
layout(set = 0, binding = 3) buffer Out { vec4 o[]; };
layout(push_constant) uniform Push { uint which; uint w2; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint s = par[1].sel.x;                       // dynamically uniform, from a UBO element
    float a = src[1].v[i] + par[0].scale.x;      // constant indices
    float b = src[pc.which].v[i + 1];            // a push constant
    float c = src[s].v[i];                       // loaded from a buffer
    uint k = i % 3u;
    float d = src[nonuniformEXT(k)].v[i];        // non-uniform
    o[i] = vec4(a + b, c, d, float(src[pc.which].v.length() + src[s].v.length()));
    dst[pc.w2].w[i] = uvec4(i, i * 2u, i * 3u, k);
    atomicAdd(dst[nonuniformEXT(i & 1u)].hits[k], 1u);
    if (i == 0u) {
        dst[1u - pc.w2].n = uint(dst[1u - pc.w2].w.length());
    }
}
