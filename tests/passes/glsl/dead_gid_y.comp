#version 450
// only gl_GlobalInvocationID.x of an 8x8 workgroup is used: isel computes every
// component of the global id, dead_code removes y's
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 1) readonly buffer U { uint unused[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    o[g.x] = g.x * 3u;
}
