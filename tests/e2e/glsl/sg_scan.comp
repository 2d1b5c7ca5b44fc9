#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup scans: inclusive and exclusive Add, Mul, Min, Max, And, Or, Xor (uint, int, float).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer P { float p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    int s = int(v & 0xffffu) - 30000;
    float x = float(int(v & 255u) - 128);
    uint k = 14u * i;
    o[k + 0u] = subgroupInclusiveAdd(v);
    o[k + 1u] = subgroupExclusiveAdd(v);
    o[k + 2u] = subgroupInclusiveMul(v | 1u);
    o[k + 3u] = subgroupExclusiveMul(v | 1u);
    o[k + 4u] = subgroupInclusiveMin(v);
    o[k + 5u] = subgroupExclusiveMin(v);
    o[k + 6u] = subgroupInclusiveMax(v);
    o[k + 7u] = subgroupExclusiveMax(v);
    o[k + 8u] = subgroupInclusiveAnd(v | 0x11111111u);
    o[k + 9u] = subgroupExclusiveOr(v & 0x0f0f0000u);
    o[k + 10u] = subgroupInclusiveXor(v);
    o[k + 11u] = uint(subgroupInclusiveAdd(s));
    o[k + 12u] = uint(subgroupExclusiveMin(s));
    o[k + 13u] = uint(subgroupInclusiveMax(s));
    p[3u * i + 0u] = subgroupInclusiveAdd(x);
    p[3u * i + 1u] = subgroupExclusiveAdd(x);
    p[3u * i + 2u] = subgroupInclusiveMin(x);
}
