#version 450
// Buffer atomics on uint and int: atomicAdd (returned values are unique slots), Min, Max,
// And, Or, Xor, Exchange (returned values chain), CompSwap (one winner per slot).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Counters {
    uint count; uint umin; uint umax; uint uand; uint uor; uint uxor;
    int smin; int smax; int sadd; uint exch;
} c;
layout(std430, set = 0, binding = 1) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Ret { uvec4 ret[]; };
layout(std430, set = 0, binding = 3) buffer Cas { uint cas[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    uint slot = atomicAdd(c.count, 1u);
    atomicMin(c.umin, v);
    atomicMax(c.umax, v);
    atomicAnd(c.uand, v | 0x0f0f0f0fu);
    atomicOr(c.uor, v & 0x00ff0000u);
    atomicXor(c.uxor, v);
    atomicMin(c.smin, int(v));
    atomicMax(c.smax, int(v));
    atomicAdd(c.sadd, int(v) >> 8);
    uint old = atomicExchange(c.exch, v);
    uint won = atomicCompSwap(cas[i & 63u], 0u, i + 1u);
    ret[i] = uvec4(slot, old, won, 0u);
}
