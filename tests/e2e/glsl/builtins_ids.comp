#version 450
// Compute builtins in a 3D dispatch: GlobalInvocationId, LocalInvocationId,
// LocalInvocationIndex, WorkgroupId, NumWorkgroups, WorkgroupSize.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 3) in;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main() {
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uvec3 g = gl_GlobalInvocationID;
    uint flat_ = (g.z * n.y + g.y) * n.x + g.x;
    uint k = 16u * flat_;
    o[k + 0u] = g.x; o[k + 1u] = g.y; o[k + 2u] = g.z;
    o[k + 3u] = gl_LocalInvocationID.x; o[k + 4u] = gl_LocalInvocationID.y;
    o[k + 5u] = gl_LocalInvocationID.z;
    o[k + 6u] = gl_LocalInvocationIndex;
    o[k + 7u] = gl_WorkGroupID.x; o[k + 8u] = gl_WorkGroupID.y; o[k + 9u] = gl_WorkGroupID.z;
    o[k + 10u] = gl_NumWorkGroups.x; o[k + 11u] = gl_NumWorkGroups.y;
    o[k + 12u] = gl_NumWorkGroups.z;
    o[k + 13u] = gl_WorkGroupSize.x * 100u + gl_WorkGroupSize.y * 10u + gl_WorkGroupSize.z;
    o[k + 14u] = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    o[k + 15u] = 0xabcdu;
}
