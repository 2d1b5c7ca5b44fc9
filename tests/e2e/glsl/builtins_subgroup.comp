#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Subgroup builtins: SubgroupSize, SubgroupLocalInvocationId, SubgroupId, NumSubgroups and
// the masks (Eq/Ge/Gt/Le/Lt), in a workgroup of 40 (a partial subgroup with 32 or 64 lanes).
layout(local_size_x = 40) in;
layout(std430, set = 0, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Masks { uvec4 masks[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ids[i] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID, gl_NumSubgroups);
    // bits at and above gl_SubgroupSize are not compared
    uvec4 valid;
    for (uint w = 0u; w < 4u; w++) {
        uint lo = 32u * w;
        valid[w] = gl_SubgroupSize >= lo + 32u ? 0xffffffffu
                   : (gl_SubgroupSize > lo ? (1u << (gl_SubgroupSize - lo)) - 1u : 0u);
    }
    masks[5u * i + 0u] = gl_SubgroupEqMask;
    masks[5u * i + 1u] = gl_SubgroupGeMask & valid;
    masks[5u * i + 2u] = gl_SubgroupGtMask & valid;
    masks[5u * i + 3u] = gl_SubgroupLeMask;
    masks[5u * i + 4u] = gl_SubgroupLtMask;
}
