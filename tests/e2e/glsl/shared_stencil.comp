#version 450
// A 1D stencil with halo cells in shared memory (memoryBarrierShared + barrier), then the
// shared array is reused for a second pass after another barrier.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer P { float p[]; };
shared float tile[66];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    uint n = gl_NumWorkGroups.x * 64u;
    tile[l + 1u] = a[i];
    if (l == 0u)
        tile[0] = i > 0u ? a[i - 1u] : 0.0;
    if (l == 63u)
        tile[65] = i + 1u < n ? a[i + 1u] : 0.0;
    memoryBarrierShared();
    barrier();
    float s = tile[l] + 2.0 * tile[l + 1u] + tile[l + 2u];
    o[i] = s;
    barrier();
    tile[l + 1u] = s;
    barrier();
    p[i] = tile[64u - l] - tile[l + 1u];
}
