#version 450
// Every compute builtin a GLSL compute shader can read.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;
layout(std430, binding = 0) buffer B { uvec4 o[]; } b;

void main() {
    uvec3 g = gl_GlobalInvocationID;
    uvec3 l = gl_LocalInvocationID;
    uvec3 w = gl_WorkGroupID;
    uvec3 n = gl_NumWorkGroups;
    uvec3 s = gl_WorkGroupSize;
    uint idx = gl_LocalInvocationIndex;
    b.o[idx + (w.x + n.x * (w.y + n.y * w.z)) * 64u] = uvec4(g + l + s, idx * s.x * s.y * s.z);
}
