#version 450
// bfloat16 conversions alone (kept as SPIR-V text without the Float16 capability glslang
// adds: OpTypeFloat 16 BFloat16KHR needs only BFloat16TypeKHR)
#extension GL_EXT_bfloat16 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer F { float f[]; };
layout(set = 0, binding = 1) buffer G { bfloat16_t g[]; };
void main() {
  uint k = gl_GlobalInvocationID.x;
  g[k] = bfloat16_t(f[k]);
  f[k] = float(g[k + 64]);
}
