#version 450
// min-env: vulkan1.2
// The Vulkan memory model: scoped atomics, availability/visibility, nonprivate access.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) coherent buffer B { uint flag; uint data[]; } b;
shared uint s;

void main() {
    uint i = gl_GlobalInvocationID.x;
    b.data[i] = i;
    atomicStore(b.flag, 1u, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    uint f = atomicLoad(b.flag, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    atomicAdd(s, f, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    b.data[i] += s;
}
