#version 450
// Shared-memory atomics: Add (unique slots per workgroup), Min, Max, And, Or, Xor on uint
// and int, Exchange, CompSwap; results written out per workgroup after a barrier.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer W { uint w[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Ret { uvec2 ret[]; };
shared uint cnt, umin, umax, uand, uor, uxor, cas[16];
shared int smin, smax;
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    if (l == 0u) {
        cnt = 0u; umin = 0xffffffffu; umax = 0u; uand = 0xffffffffu; uor = 0u; uxor = 0u;
        smin = 0x7fffffff; smax = -0x7fffffff - 1;
    }
    if (l < 16u)
        cas[l] = 0u;
    barrier();
    uint v = a[i];
    uint slot = atomicAdd(cnt, 2u);
    atomicMin(umin, v);
    atomicMax(umax, v);
    atomicAnd(uand, v | 0xf0f0f0f0u);
    atomicOr(uor, v & 0x0000ff00u);
    atomicXor(uxor, v);
    atomicMin(smin, int(v));
    atomicMax(smax, int(v));
    uint won = atomicCompSwap(cas[l & 15u], 0u, l + 1u);
    barrier();
    ret[i] = uvec2(slot, won);
    if (l == 0u) {
        uint g = gl_WorkGroupID.x * 10u;
        w[g + 0u] = cnt; w[g + 1u] = umin; w[g + 2u] = umax; w[g + 3u] = uand;
        w[g + 4u] = uor; w[g + 5u] = uxor; w[g + 6u] = uint(smin); w[g + 7u] = uint(smax);
        w[g + 8u] = atomicExchange(cas[0], 0u);
        w[g + 9u] = cas[15];
    }
}
