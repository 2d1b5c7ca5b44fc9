#version 450
// bfloat16 (GL_EXT_bfloat16 / SPV_KHR_bfloat16): D = A x B + C with A, B bfloat16 and C, D
// float32 (v_wmma_f32_16x16x16_bf16), E = A x B + bf16(C) with a bfloat16 accumulator
// (v_wmma_bf16_16x16x16_bf16, the conversion per element), F16 = A x B + f16(C) with a
// float16 accumulator (no WMMA: widened around the float32 one), all row-major (stride 16); and
// per invocation the scalar conversions float32 -> bfloat16 (g) and bfloat16 -> float32 (h)
// of 64 values. One subgroup.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_bfloat16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { bfloat16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { bfloat16_t b[]; };
layout(set = 0, binding = 2) readonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer D { float d[]; };
layout(set = 0, binding = 4) writeonly buffer E { bfloat16_t e[]; };
layout(set = 0, binding = 5) readonly buffer F { float f[]; };
layout(set = 0, binding = 6) writeonly buffer G { bfloat16_t g[]; };
layout(set = 0, binding = 7) readonly buffer GI { bfloat16_t gi[]; };
layout(set = 0, binding = 8) writeonly buffer H { float h[]; };
layout(set = 0, binding = 9) writeonly buffer F16 { float16_t d16[]; };
void main() {
  coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
  coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc;
  coopMatLoad(ma, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mb, b, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> me =
      coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(mc);
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mh =
      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(mc);
  mh = coopMatMulAdd(ma, mb, mh);
  coopMatStore(mh, d16, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  mc = coopMatMulAdd(ma, mb, mc);
  coopMatStore(mc, d, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  me = coopMatMulAdd(ma, mb, me);
  coopMatStore(me, e, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  for (uint k = gl_LocalInvocationIndex; k < 64; k += gl_WorkGroupSize.x) {
    g[k] = bfloat16_t(f[k]);
    h[k] = float(gi[k]);
  }
}
