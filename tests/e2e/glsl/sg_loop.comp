#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Subgroup operations in a loop with divergent trip counts: each iteration's active set is
// the invocations still looping.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    uint n = v % 13u;
    uint acc = 0u, cnt = 0u;
    for (uint j = 0u; j < n; j++) {
        acc += subgroupAdd(j + (v >> 8));
        cnt += subgroupBallotBitCount(subgroupBallot(true));
    }
    o[2u * i + 0u] = acc;
    o[2u * i + 1u] = cnt;
}
