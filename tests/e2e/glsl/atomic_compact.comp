#version 450
// Stream compaction: invocations whose value passes a test append it with the slot that
// atomicAdd returns (the order is free; the reference checks the multiset and the count).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint count; uint items[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    if (v % 3u == 0u) {
        uint slot = atomicAdd(count, 1u);
        items[slot] = v;
    }
}
