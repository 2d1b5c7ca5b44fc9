#version 450
// A per-lane condition choosing between two uniform values, as llama.cpp's mat-vec shaders
// count their iterations (`if (n * K + K * tid < ncols) n++;`): the select's two sources are
// SGPRs, so its lane mask must take a constant-bus slot of its own and stay in SGPRs.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
layout(push_constant) uniform P { uint ncols; uint k; } p;
void main() {
    uint tid = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    uint n = p.ncols / 256u;
    if (n * 256u + 2u * tid < p.ncols)
        n++;
    uint m = a[i] < p.k ? p.ncols + 7u : p.k * 3u;
    uint s = 0u;
    for (uint j = 0u; j < n; j++)
        s += a[(j * 64u + tid) % 256u];
    o[3u * i] = n;
    o[3u * i + 1u] = m;
    o[3u * i + 2u] = s;
}
