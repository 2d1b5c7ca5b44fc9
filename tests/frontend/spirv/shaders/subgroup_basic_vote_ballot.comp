#version 450
// min-env: vulkan1.1
// Subgroup basic, vote and ballot operations; subgroup builtins.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(std430, binding = 0) buffer B { uvec4 masks[2]; uint v[]; } b;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = b.v[i];
    bool e = subgroupElect();
    bool all_ = subgroupAll(x > 3u);
    bool any_ = subgroupAny(x == 7u);
    bool eq = subgroupAllEqual(x);
    uvec4 bal = subgroupBallot(x > 10u);
    uint cnt = subgroupBallotBitCount(bal);
    uint first = subgroupBroadcastFirst(x);
    uint lane3 = subgroupBroadcast(x, 3u);
    bool inv = subgroupInverseBallot(bal);
    uint lsb = subgroupBallotFindLSB(bal);
    uint excl = subgroupBallotExclusiveBitCount(bal);
    subgroupBarrier();
    subgroupMemoryBarrierBuffer();
    b.v[i] = cnt + first + lane3 + lsb + excl + gl_SubgroupSize + gl_SubgroupInvocationID
        + gl_SubgroupID * gl_NumSubgroups + uint(e) + uint(all_) + uint(any_) + uint(eq) + uint(inv);
    b.masks[i & 1u] = bal;
    b.v[i] += gl_SubgroupEqMask.x & gl_SubgroupLtMask.x;
}
