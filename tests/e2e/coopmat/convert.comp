#version 450
// Accumulate and convert: E = f16(A x B + C) (f32 accumulator) - (A x B + F) (f16
// accumulator), with element-wise loops over the invocation's elements (length(),
// indexing); G = A8 x B8 + H (signed 8-bit, i32 accumulator); column-major C and E.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) readonly buffer C { float c[]; };
layout(set = 0, binding = 3) readonly buffer F { float16_t f[]; };
layout(set = 0, binding = 4) writeonly buffer E { float16_t e[]; };
layout(set = 0, binding = 5) readonly buffer A8 { int8_t a8[]; };
layout(set = 0, binding = 6) readonly buffer B8 { int8_t b8[]; };
layout(set = 0, binding = 7) buffer H { int h[]; };
void main() {
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc;
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mf;
  coopMatLoad(ma, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mb, b, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mc, c, 0, 16, gl_CooperativeMatrixLayoutColumnMajor);
  coopMatLoad(mf, f, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  mc = coopMatMulAdd(ma, mb, mc);
  mf = coopMatMulAdd(ma, mb, mf);
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> me =
      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(mc);
  for (int i = 0; i < me.length(); ++i)
    me[i] = me[i] - mf[i];
  coopMatStore(me, e, 0, 16, gl_CooperativeMatrixLayoutColumnMajor);
  coopmat<int8_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ia;
  coopmat<int8_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> ib;
  coopmat<int, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> ih;
  coopMatLoad(ia, a8, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(ib, b8, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(ih, h, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  ih = coopMatMulAdd(ia, ib, ih);
  coopMatStore(ih, h, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
}
