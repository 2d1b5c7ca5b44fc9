#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Ballots: subgroupBallot, subgroupInverseBallot, subgroupBallotBitExtract, BitCount,
// InclusiveBitCount, ExclusiveBitCount, FindLSB, FindMSB, subgroupBroadcast (constant id),
// subgroupBroadcastFirst (in a divergent branch).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer B { uvec4 ballot[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    uvec4 b = subgroupBallot((v & 3u) != 0u);
    ballot[i] = b;
    uint k = 8u * i;
    o[k + 0u] = subgroupInverseBallot(uvec4(0x55555555u, 0x0f0f0f0fu, 1u, 0x80000000u)) ? 1u : 0u;
    o[k + 1u] = subgroupBallotBitExtract(b, (gl_SubgroupInvocationID + 1u) % gl_SubgroupSize) ? 1u : 0u;
    o[k + 2u] = subgroupBallotBitCount(b);
    o[k + 3u] = subgroupBallotInclusiveBitCount(b);
    o[k + 4u] = subgroupBallotExclusiveBitCount(b);
    o[k + 5u] = subgroupBallotFindLSB(b) | subgroupBallotFindMSB(b) << 16;
    o[k + 6u] = subgroupBroadcast(v, 3u);
    o[k + 7u] = (v & 4u) != 0u ? subgroupBroadcastFirst(v * 2u) : 0xffffffffu;
}
