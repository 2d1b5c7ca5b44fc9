#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// 64-bit atomics (shaderBufferInt64Atomics, shaderSharedInt64Atomics): Add, Min, Max, And,
// Or, Xor on uint64/int64 in a buffer and in shared memory; CompSwap with one winner.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer C {
    uint64_t add; uint64_t umin; uint64_t umax; uint64_t uand; uint64_t uor; uint64_t uxor;
    int64_t smin; int64_t smax; uint64_t cas;
} c;
layout(std430, set = 0, binding = 1) readonly buffer In { uint64_t a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer W { uint64_t w[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Ret { uint64_t ret[]; };
shared uint64_t sadd, sxor;
shared int64_t smax;
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    if (l == 0u) {
        sadd = 0ul; sxor = 0ul; smax = -0x7fffffffffffffffl - 1l;
    }
    barrier();
    uint64_t v = a[i];
    atomicAdd(c.add, v);
    atomicMin(c.umin, v);
    atomicMax(c.umax, v);
    atomicAnd(c.uand, v | 0x0f0f0f0f0f0f0f0ful);
    atomicOr(c.uor, v & 0x00ff000000ff0000ul);
    atomicXor(c.uxor, v);
    atomicMin(c.smin, int64_t(v));
    atomicMax(c.smax, int64_t(v));
    ret[i] = atomicCompSwap(c.cas, 0ul, uint64_t(i) + 0x100000000ul);
    atomicAdd(sadd, v >> 8);
    atomicXor(sxor, v);
    atomicMax(smax, int64_t(v));
    barrier();
    if (l == 0u) {
        w[3u * gl_WorkGroupID.x + 0u] = sadd;
        w[3u * gl_WorkGroupID.x + 1u] = sxor;
        w[3u * gl_WorkGroupID.x + 2u] = uint64_t(smax);
    }
}
