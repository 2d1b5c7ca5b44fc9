#version 450
// Hillis-Steele inclusive and exclusive prefix sums in shared memory, ping-ponging
// between two arrays with a barrier per step (workgroup of 64).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer I { uint incl[]; };
layout(std430, set = 0, binding = 2) writeonly buffer E { uint excl[]; };
shared uint buf[2][64];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    buf[0][l] = a[i];
    barrier();
    uint p = 0u;
    for (uint off = 1u; off < 64u; off <<= 1) {
        uint v = buf[p][l];
        if (l >= off)
            v += buf[p][l - off];
        buf[1u - p][l] = v;
        barrier();
        p = 1u - p;
    }
    incl[i] = buf[p][l];
    excl[i] = l == 0u ? 0u : buf[p][l - 1u];
}
