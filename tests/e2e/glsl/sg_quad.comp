#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
// Quad operations: subgroupQuadBroadcast (each of the 4 ids), subgroupQuadSwapHorizontal,
// Vertical, Diagonal on uint and float.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    uint k = 8u * i;
    o[k + 0u] = subgroupQuadBroadcast(v, 0u);
    o[k + 1u] = subgroupQuadBroadcast(v, 1u);
    o[k + 2u] = subgroupQuadBroadcast(v, 2u);
    o[k + 3u] = subgroupQuadBroadcast(v, 3u);
    o[k + 4u] = subgroupQuadSwapHorizontal(v);
    o[k + 5u] = subgroupQuadSwapVertical(v);
    o[k + 6u] = subgroupQuadSwapDiagonal(v);
    o[k + 7u] = floatBitsToUint(subgroupQuadSwapHorizontal(float(v & 0xffffu) * 0.5));
}
