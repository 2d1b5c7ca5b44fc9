#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup reductions: subgroupAdd, Mul, Min, Max, And, Or, Xor on uint, int and float
// (integer-valued floats: exact in any order) and subgroupAdd/Max on vectors.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) readonly buffer F { float f[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 4) writeonly buffer P { float p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    int s = int(v) - 1000000;
    float x = f[i];
    uint k = 12u * i;
    o[k + 0u] = subgroupAdd(v);
    o[k + 1u] = subgroupMul(v | 1u);
    o[k + 2u] = subgroupMin(v);
    o[k + 3u] = subgroupMax(v);
    o[k + 4u] = subgroupAnd(v | 0x01010101u);
    o[k + 5u] = subgroupOr(v & 0x10101010u);
    o[k + 6u] = subgroupXor(v);
    o[k + 7u] = uint(subgroupAdd(s));
    o[k + 8u] = uint(subgroupMin(s));
    o[k + 9u] = uint(subgroupMax(s));
    uvec2 va = subgroupAdd(uvec2(v, 1u));
    o[k + 10u] = va.x ^ va.y;
    o[k + 11u] = uint(subgroupMul((s & 3) - 1));
    p[4u * i + 0u] = subgroupAdd(x);
    p[4u * i + 1u] = subgroupMin(x);
    p[4u * i + 2u] = subgroupMax(x);
    p[4u * i + 3u] = subgroupMul(x < 0.0 ? -1.0 : 1.0) * subgroupMax(vec2(x, -x)).y;
}
