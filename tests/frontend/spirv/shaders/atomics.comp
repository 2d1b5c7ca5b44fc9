#version 450
// Atomics on buffers and shared memory (int, uint, 64-bit).
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint counter; int imin; uint bits; uint64_t big; uint hist[16]; } b;
shared uint local_hist[16];

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (gl_LocalInvocationIndex < 16u) local_hist[gl_LocalInvocationIndex] = 0u;
    barrier();
    atomicAdd(local_hist[i & 15u], 1u);
    uint old = atomicAdd(b.counter, 1u);
    atomicMin(b.imin, -int(i));
    atomicOr(b.bits, 1u << (i & 31u));
    atomicXor(b.bits, old);
    atomicAnd(b.bits, ~0x10u);
    atomicExchange(b.counter, old + 1u);
    atomicCompSwap(b.bits, 0u, i);
    atomicAdd(b.big, uint64_t(i));
    barrier();
    if (gl_LocalInvocationIndex < 16u)
        atomicMax(b.hist[gl_LocalInvocationIndex], local_hist[gl_LocalInvocationIndex]);
}
