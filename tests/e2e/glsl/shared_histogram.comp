#version 450
// Histogram with shared-memory atomics per workgroup, merged into a global histogram with
// buffer atomics; each workgroup's own histogram is written too.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };   // [0, 32)
layout(std430, set = 0, binding = 1) buffer G { uint global_hist[32]; };
layout(std430, set = 0, binding = 2) writeonly buffer W { uint wg_hist[]; };
shared uint hist[32];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    if (l < 32u)
        hist[l] = 0u;
    barrier();
    atomicAdd(hist[a[i]], 1u);
    atomicAdd(hist[(a[i] * 7u + 3u) & 31u], 2u);
    barrier();
    if (l < 32u) {
        atomicAdd(global_hist[l], hist[l]);
        wg_hist[gl_WorkGroupID.x * 32u + l] = hist[l];
    }
}
