#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
// Clustered reductions (cluster sizes 1, 2, 4, 8: at most lavapipe's subgroup size):
// Add, Mul, Min, Max, And, Or, Xor. lavapipe does not support clustered operations (it
// computes whole-subgroup results); the lavapipe test checks against a model of that.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    uint k = 10u * i;
    o[k + 0u] = subgroupClusteredAdd(v, 1u);
    o[k + 1u] = subgroupClusteredAdd(v, 2u);
    o[k + 2u] = subgroupClusteredAdd(v, 4u);
    o[k + 3u] = subgroupClusteredAdd(v, 8u);
    o[k + 4u] = subgroupClusteredMul(v | 1u, 2u);
    o[k + 5u] = subgroupClusteredMin(v, 4u);
    o[k + 6u] = subgroupClusteredMax(v, 2u);
    o[k + 7u] = subgroupClusteredAnd(v | 0x33333333u, 4u);
    o[k + 8u] = subgroupClusteredOr(v & 0x0f0f0f0fu, 8u);
    o[k + 9u] = subgroupClusteredXor(v, 4u);
}
