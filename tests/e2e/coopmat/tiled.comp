#version 450
// C (M x N, row-major) = A (M x K, row-major) x B (K x N, row-major), f16 inputs, f32
// result; one subgroup per 16x16 tile of C (workgroup (i, j)); the K loop stages the
// A tile in shared memory; sizes in push constants.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint M, N, K; } p;
shared float16_t tile[16 * 16];
void main() {
  uint ti = gl_WorkGroupID.x, tj = gl_WorkGroupID.y;
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  for (uint k = 0; k < p.K; k += 16) {
    for (uint e = gl_LocalInvocationID.x; e < 256; e += gl_WorkGroupSize.x)
      tile[e] = a[(ti * 16 + e / 16) * p.K + k + e % 16];
    barrier();
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
    coopMatLoad(ma, tile, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mb, b, k * p.N + tj * 16, p.N, gl_CooperativeMatrixLayoutRowMajor);
    acc = coopMatMulAdd(ma, mb, acc);
    barrier();
  }
  coopMatStore(acc, c, ti * 16 * p.N + tj * 16, p.N, gl_CooperativeMatrixLayoutRowMajor);
}
