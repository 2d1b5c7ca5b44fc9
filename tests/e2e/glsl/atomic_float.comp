#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
// Float atomics (VK_EXT_shader_atomic_float/_float2, as lavapipe has them): atomicAdd on a
// buffer and shared memory (integer-valued floats: sums exact in any order), atomicExchange,
// atomicMin/atomicMax on a buffer and shared memory.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer C { float sum; float fmin; float fmax; float exch; } c;
layout(std430, set = 0, binding = 1) readonly buffer In { float a[]; };
layout(std430, set = 0, binding = 2) writeonly buffer W { vec4 w[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Ret { float ret[]; };
shared float ssum, smin, smax;
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    if (l == 0u) {
        ssum = 0.0; smin = 1e30; smax = -1e30;
    }
    barrier();
    float v = a[i];
    atomicAdd(c.sum, v);
    atomicMin(c.fmin, v);
    atomicMax(c.fmax, v);
    ret[i] = atomicExchange(c.exch, v);
    atomicAdd(ssum, v * 2.0);
    atomicMin(smin, v);
    atomicMax(smax, v);
    barrier();
    if (l == 0u)
        w[gl_WorkGroupID.x] = vec4(ssum, smin, smax, 0.0);
}
