#version 450
// Shared-memory tree reduction with barrier() (workgroup of 128): float sum, uint max and
// int min per workgroup.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float osum[]; };
layout(std430, set = 0, binding = 3) writeonly buffer M { uvec2 ominmax[]; };
shared float sf[128];
shared uint su[128];
shared int si[128];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    sf[l] = a[i];
    su[l] = b[i];
    si[l] = int(b[i]);
    barrier();
    for (uint s = 64u; s > 0u; s >>= 1) {
        if (l < s) {
            sf[l] += sf[l + s];
            su[l] = max(su[l], su[l + s]);
            si[l] = min(si[l], si[l + s]);
        }
        barrier();
    }
    if (l == 0u) {
        osum[gl_WorkGroupID.x] = sf[0];
        ominmax[gl_WorkGroupID.x] = uvec2(su[0], uint(si[0]));
    }
}
