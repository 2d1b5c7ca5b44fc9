#version 450
// min-env: vulkan1.1
// Subgroup arithmetic (reduce, inclusive/exclusive scan), clustered, shuffle, relative, quad.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float f[]; } b;
layout(std430, binding = 1) buffer C { int v[]; } c;

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = b.f[i];
    int n = c.v[i];
    float s = subgroupAdd(x) + subgroupMul(x) + subgroupMin(x) + subgroupMax(x);
    s += subgroupInclusiveAdd(x) + subgroupExclusiveMul(x);
    int k = subgroupAnd(n) | subgroupOr(n) ^ subgroupXor(n) + subgroupExclusiveMin(n);
    k += subgroupClusteredAdd(n, 4u) + subgroupClusteredMax(n, 8u);
    s += subgroupShuffle(x, 5u) + subgroupShuffleXor(x, 1u);
    s += subgroupShuffleUp(x, 2u) + subgroupShuffleDown(x, 3u);
    s += subgroupQuadBroadcast(x, 2u) + subgroupQuadSwapHorizontal(x)
        + subgroupQuadSwapVertical(x) + subgroupQuadSwapDiagonal(x);
    b.f[i] = s;
    c.v[i] = k;
}
