#version 450
#extension GL_KHR_shader_subgroup_basic : require
// Subgroup basics: subgroupElect (uniform and in a divergent branch), subgroupBarrier and
// subgroupMemoryBarrierShared around a shared-memory exchange within the subgroup.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uvec4 o[]; };
shared uint s[128];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint e0 = subgroupElect() ? 1u : 0u;
    uint e1 = 2u;
    if ((a[i] & 1u) != 0u)
        e1 = subgroupElect() ? 1u : 0u;
    // exchange through shared memory within the subgroup, indexed by the subgroup ids
    uint n = gl_SubgroupSize, id = gl_SubgroupInvocationID;
    s[gl_SubgroupID * n + id] = a[i] * 3u;
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    uint got = s[gl_SubgroupID * n + (id + 1u) % n];
    o[i] = uvec4(e0, e1, got, 0u);
}
