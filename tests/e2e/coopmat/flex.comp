#version 450
// Cooperative matrices of sizes that are not 16x16 tiles (the flexible layout: the
// whole matrix in every invocation). D = A x B + C at 4x4x4 (float16 -> float32: A
// row-major from element 3 with a push-constant stride, B column-major, D stored
// column-major with stride 6 from element 1); llama.cpp's defaults, 4x1 A times 1x2 B
// into a 4x2 float16 accumulator, eight steps of K in a loop; ncnn's 1x1; element-wise
// arithmetic, a conversion, indexing and length().
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) readonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer D { float d[]; };
layout(set = 0, binding = 4) readonly buffer G { float16_t g[]; };
layout(set = 0, binding = 5) readonly buffer Q { float16_t q[]; };
layout(set = 0, binding = 6) readonly buffer H { float16_t h[]; };
layout(set = 0, binding = 7) writeonly buffer O { float16_t o[]; };
layout(set = 0, binding = 8) writeonly buffer E { float e[]; };
layout(set = 0, binding = 9) writeonly buffer F { float16_t f[]; };
layout(set = 0, binding = 10) writeonly buffer L { uint len[]; };
layout(push_constant) uniform P { uint sa; uint sb; } p;
void main() {
  coopmat<float16_t, gl_ScopeSubgroup, 4, 4, gl_MatrixUseA> ma;
  coopmat<float16_t, gl_ScopeSubgroup, 4, 4, gl_MatrixUseB> mb;
  coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> mc;
  coopMatLoad(ma, a, 3, p.sa, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(mb, b, 0, p.sb, gl_CooperativeMatrixLayoutColumnMajor);
  coopMatLoad(mc, c, 0, 4, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> md =
      coopMatMulAdd(ma, mb, mc);
  coopMatStore(md, d, 1, 6, gl_CooperativeMatrixLayoutColumnMajor);

  coopmat<float16_t, gl_ScopeSubgroup, 4, 2, gl_MatrixUseAccumulator> mh;
  coopMatLoad(mh, h, 0, 2, gl_CooperativeMatrixLayoutRowMajor);
  for (uint k = 0; k < 8; ++k) {
    coopmat<float16_t, gl_ScopeSubgroup, 4, 1, gl_MatrixUseA> ta;
    coopmat<float16_t, gl_ScopeSubgroup, 1, 2, gl_MatrixUseB> tb;
    coopMatLoad(ta, g, k, 8, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(tb, q, k * 2, 2, gl_CooperativeMatrixLayoutRowMajor);
    mh = coopMatMulAdd(ta, tb, mh);
  }
  coopMatStore(mh, o, 0, 4, gl_CooperativeMatrixLayoutColumnMajor);

  coopmat<float16_t, gl_ScopeSubgroup, 1, 1, gl_MatrixUseA> oa;
  coopmat<float16_t, gl_ScopeSubgroup, 1, 1, gl_MatrixUseB> ob;
  coopmat<float, gl_ScopeSubgroup, 1, 1, gl_MatrixUseAccumulator> oc =
      coopmat<float, gl_ScopeSubgroup, 1, 1, gl_MatrixUseAccumulator>(0.25);
  coopMatLoad(oa, a, 0, 1, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(ob, b, 1, 1, gl_CooperativeMatrixLayoutRowMajor);
  oc = coopMatMulAdd(oa, ob, oc);
  coopMatStore(oc, e, 16, 1, gl_CooperativeMatrixLayoutRowMajor);

  coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> me = -(md * 0.5 + mc);
  for (int i = 0; i < me.length(); ++i)
    me[i] = me[i] + float(i);
  coopMatStore(me, e, 0, 4, gl_CooperativeMatrixLayoutRowMajor);
  coopmat<float16_t, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> mf =
      coopmat<float16_t, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator>(me);
  coopMatStore(mf, f, 0, 4, gl_CooperativeMatrixLayoutRowMajor);
  len[0] = mc.length();
  len[1] = mh.length();
  len[2] = oa.length();
  len[3] = ma.length();
}
