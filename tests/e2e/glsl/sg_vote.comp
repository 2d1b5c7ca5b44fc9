#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
// Subgroup votes: subgroupAll, subgroupAny, subgroupAllEqual on uint, float and vectors, in
// uniform control flow and in a divergent branch.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    uint r = 0u;
    r |= subgroupAll(v < 200u) ? 1u : 0u;
    r |= subgroupAny(v > 250u) ? 2u : 0u;
    r |= subgroupAllEqual(v) ? 4u : 0u;
    r |= subgroupAllEqual(float(v >> 4)) ? 8u : 0u;
    r |= subgroupAllEqual(uvec2(v & 0xf0u, 7u)) ? 16u : 0u;
    if ((v & 1u) != 0u) {
        r |= subgroupAll((v & 1u) != 0u) ? 32u : 0u;
        r |= subgroupAny(v > 200u) ? 64u : 0u;
        r |= subgroupAllEqual(v) ? 128u : 0u;
    }
    o[i] = r;
}
