#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
// subgroupShuffle with computed (permuting) ids and subgroupShuffleXor with masks below the
// subgroup size, on uint, float and uvec2.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    uint v = a[i];
    uint id = gl_SubgroupInvocationID, n = gl_SubgroupSize;
    uint k = 6u * i;
    o[k + 0u] = subgroupShuffle(v, (id * 5u + 3u) & (n - 1u));
    o[k + 1u] = subgroupShuffle(v, n - 1u - id);
    o[k + 2u] = floatBitsToUint(subgroupShuffle(float(v & 0xffffu), (id + 2u) % n));
    o[k + 3u] = subgroupShuffleXor(v, 1u);
    o[k + 4u] = subgroupShuffleXor(v, n - 1u);
    uvec2 w = subgroupShuffleXor(uvec2(v, id), 2u);
    o[k + 5u] = w.x ^ (w.y << 24);
}
