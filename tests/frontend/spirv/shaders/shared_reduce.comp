#version 450
// Shared memory tree reduction with barriers.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { float x[]; } inb;
layout(std430, binding = 1) writeonly buffer Out { float sums[]; } outb;
shared float partial[256];
shared uint counter;

void main() {
    uint l = gl_LocalInvocationID.x;
    partial[l] = inb.x[gl_GlobalInvocationID.x];
    if (l == 0u) counter = 0u;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s) partial[l] += partial[l + s];
        memoryBarrierShared();
        barrier();
    }
    groupMemoryBarrier();
    if (l == 0u) outb.sums[gl_WorkGroupID.x] = partial[0];
}
