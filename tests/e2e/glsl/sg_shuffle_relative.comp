#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
// subgroupShuffleUp/Down by constant and dynamic deltas; lanes whose source is outside the
// subgroup are undefined and not compared.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
layout(push_constant) uniform PC { uint delta; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    o[4u * i + 0u] = subgroupShuffleUp(v, 1u);
    o[4u * i + 1u] = subgroupShuffleDown(v, 1u);
    o[4u * i + 2u] = subgroupShuffleUp(v * 3u, pc.delta);
    o[4u * i + 3u] = floatBitsToUint(subgroupShuffleDown(float(v & 0xffffu), pc.delta));
}
