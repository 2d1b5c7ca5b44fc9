#version 450
// Matrices larger than one WMMA (16x16 tiles): D (32 x 32, f16, column-major) =
// f16((A (32 x 48, row-major, staged in shared memory) x B (48 x 32, column-major) +
// C (32 x 32, f32, row-major) + 1) * 0.5); one subgroup.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) readonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer D { float16_t d[]; };
shared float16_t sa[32 * 48];
void main() {
  for (uint e = gl_LocalInvocationID.x; e < 32 * 48; e += gl_WorkGroupSize.x)
    sa[e] = a[e];
  barrier();
  coopmat<float16_t, gl_ScopeSubgroup, 32, 48, gl_MatrixUseA> ma;
  coopmat<float16_t, gl_ScopeSubgroup, 48, 32, gl_MatrixUseB> mb;
  coopmat<float, gl_ScopeSubgroup, 32, 32, gl_MatrixUseAccumulator> acc;
  coopMatLoad(ma, sa, 0, 48, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mb, b, 0, 48, gl_CooperativeMatrixLayoutColumnMajor);
  coopMatLoad(acc, c, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  acc = coopMatMulAdd(ma, mb, acc);
  for (int i = 0; i < acc.length(); i++)
    acc[i] += 1.0;
  coopmat<float16_t, gl_ScopeSubgroup, 32, 32, gl_MatrixUseAccumulator> h =
      coopmat<float16_t, gl_ScopeSubgroup, 32, 32, gl_MatrixUseAccumulator>(acc * 0.5);
  coopMatStore(h, d, 0, 32, gl_CooperativeMatrixLayoutColumnMajor);
}
