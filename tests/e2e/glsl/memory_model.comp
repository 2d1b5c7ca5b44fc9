#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// The Vulkan memory model (VulkanMemoryModel capability): atomicStore/atomicLoad with
// release/acquire on shared memory, controlBarrier with workgroup scope, atomics with
// explicit scopes and semantics on a buffer.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 1) buffer C { uint total; uint maxv; } c;
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
shared uint s[64];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    uint v = a[i];
    atomicStore(s[l], v * 2u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    uint w = atomicLoad(s[63u - l], gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                        gl_SemanticsAcquire);
    o[i] = w + v;
    atomicAdd(c.total, v, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    atomicMax(c.maxv, w, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
