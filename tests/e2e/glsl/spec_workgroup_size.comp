#version 450
// Workgroup size from specialization constants (local_size_x_id/local_size_y_id; glslang
// emits a spec-constant WorkgroupSize composite, or LocalSizeId for SPIR-V 1.6), used in
// index arithmetic and as gl_WorkGroupSize; a shared reduction over the whole workgroup.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uvec4 o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer S { uint s[]; };
shared uint partial[1024];
void main() {
    uint wg = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
    uint l = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    uint i = g * wg + l;
    o[i] = uvec4(gl_WorkGroupSize.x, gl_WorkGroupSize.y, gl_LocalInvocationID.x,
                 gl_LocalInvocationID.y);
    partial[l] = a[i];
    barrier();
    for (uint st = 512u; st > 0u; st >>= 1) {
        if (l < st && l + st < wg)
            partial[l] += partial[l + st];
        barrier();
    }
    if (l == 0u)
        s[g] = partial[0];
}
