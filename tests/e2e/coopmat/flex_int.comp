#version 450
// 8x8x8 8-bit integer cooperative matrices into 32-bit accumulators (the flexible
// layout): signed, wrapping and saturating; unsigned, saturating.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { int8_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int8_t b[]; };
layout(set = 0, binding = 2) readonly buffer C { int c[]; };
layout(set = 0, binding = 3) writeonly buffer D { int d[]; };
layout(set = 0, binding = 4) writeonly buffer S { int s[]; };
layout(set = 0, binding = 5) readonly buffer UA { uint8_t ua[]; };
layout(set = 0, binding = 6) readonly buffer UB { uint8_t ub[]; };
layout(set = 0, binding = 7) buffer U { uint u[]; };
void main() {
  coopmat<int8_t, gl_ScopeSubgroup, 8, 8, gl_MatrixUseA> ia;
  coopmat<int8_t, gl_ScopeSubgroup, 8, 8, gl_MatrixUseB> ib;
  coopmat<int, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator> ic;
  coopMatLoad(ia, a, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(ib, b, 0, 8, gl_CooperativeMatrixLayoutColumnMajor);
  coopMatLoad(ic, c, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
  coopMatStore(coopMatMulAdd(ia, ib, ic), d, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
  coopMatStore(coopMatMulAdd(ia, ib, ic, gl_MatrixOperandsSaturatingAccumulation), s, 0, 8,
               gl_CooperativeMatrixLayoutRowMajor);
  coopmat<uint8_t, gl_ScopeSubgroup, 8, 8, gl_MatrixUseA> ua_;
  coopmat<uint8_t, gl_ScopeSubgroup, 8, 8, gl_MatrixUseB> ub_;
  coopmat<uint, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator> uc;
  coopMatLoad(ua_, ua, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(ub_, ub, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(uc, u, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
  barrier();
  coopMatStore(coopMatMulAdd(ua_, ub_, uc, gl_MatrixOperandsSaturatingAccumulation), u, 0, 8,
               gl_CooperativeMatrixLayoutRowMajor);
}
