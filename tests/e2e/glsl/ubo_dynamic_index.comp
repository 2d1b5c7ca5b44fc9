#version 450
// Uniform buffer arrays indexed by uniform (constant, loop counter) and divergent
// (from data) indices; a uniform loop bound read from the uniform block.
layout(std140, set = 0, binding = 0) uniform Table { uint count; vec4 tab[64]; };
layout(std430, set = 0, binding = 1) readonly buffer Idx { uint idx[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
layout(local_size_x = 64) in;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 acc = tab[idx[i] & 63u];
    acc += tab[(i * 7u) & 63u] * 0.5;
    for (uint j = 0u; j < count; j++)
        acc += tab[j];
    acc.x += tab[5].w;
    o[i] = acc;
}
