#version 450
// Loops with trip counts known at compile time (loop_unroll): nested constant loops, an early
// break whose index is used after the loop, a do-while, a trip count from a specialization
// constant, and a shared-memory tree reduction with a barrier per iteration whose bound is
// the workgroup size (iterations with st >= 64 do nothing but wait at the barrier).
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint ROUNDS = 5u;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint red[64];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    uint v = a[i];
    uint nest = 0u;
    for (uint y = 0u; y < 3u; y++)
        for (uint x = 0u; x < 4u; x++)
            nest = nest * 7u + ((v >> (y * 4u + x)) & 1u) * (x + 1u) + y;
    uint k;
    uint hit = 0u;
    for (k = 0u; k < 8u; k++) {
        if (((v >> (k * 3u)) & 7u) == 5u)
            break;
        hit += k * (v & 255u);
    }
    uint dw = 1u, j = 0u;
    do { dw = dw * 3u + ((v >> j) & 3u); j += 2u; } while (j < 10u);
    uint sp = v;
    for (uint r = 0u; r < ROUNDS; r++)
        sp = (sp ^ (sp << 5)) + r;
    red[l] = v & 0xffffu;
    barrier();
    for (uint st = 256u; st > 0u; st >>= 1) {
        if (l < st && l + st < 64u)
            red[l] += red[l + st];
        barrier();
    }
    uint total = red[0];
    o[6u * i + 0u] = nest;
    o[6u * i + 1u] = k;
    o[6u * i + 2u] = hit;
    o[6u * i + 3u] = dw;
    o[6u * i + 4u] = sp;
    o[6u * i + 5u] = total;
}
