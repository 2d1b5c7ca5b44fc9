#version 450
// D = 2 * (A x B + C), one 16x16x16 product; A row-major with row stride 24, B
// column-major (column stride 16), C and D row-major (stride 16); one subgroup.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) readonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer D { float d[]; };
void main() {
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc;
  coopMatLoad(ma, a, 4, 24, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mb, b, 0, 16, gl_CooperativeMatrixLayoutColumnMajor);
  coopMatLoad(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  mc = coopMatMulAdd(ma, mb, mc);
  mc = mc * 2.0;
  coopMatStore(mc, d, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
}
