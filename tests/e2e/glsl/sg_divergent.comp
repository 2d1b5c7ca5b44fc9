#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup operations in divergent control flow: only the active invocations take part
// (reductions, scans, ballots, elect, broadcastFirst inside if/else arms).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    uvec4 r = uvec4(0u);
    if (v % 3u == 0u) {
        r.x = subgroupAdd(v);
        r.y = subgroupInclusiveAdd(1u);
        r.z = subgroupBallotBitCount(subgroupBallot(true));
        r.w = subgroupElect() ? 1u : 0u;
    } else {
        r.x = subgroupMax(v);
        r.y = subgroupExclusiveAdd(v & 255u);
        r.z = subgroupBroadcastFirst(v);
        if ((v & 1u) != 0u)
            r.w = subgroupOr(v) ^ subgroupMin(v);
    }
    o[4u * i + 0u] = r.x;
    o[4u * i + 1u] = r.y;
    o[4u * i + 2u] = r.z;
    o[4u * i + 3u] = r.w;
}
