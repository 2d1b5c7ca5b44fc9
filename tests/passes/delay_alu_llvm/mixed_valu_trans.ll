target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %p, float %a, float %b, i32 %s) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr float, ptr addrspace(1) %p, i32 %tid
  %x = load float, ptr addrspace(1) %g
  %g2 = getelementptr float, ptr addrspace(1) %g, i32 64
  %y = load float, ptr addrspace(1) %g2
  %m = fmul float %x, %y
  %e = call float @llvm.exp2.f32(float %x)
  %t1 = fadd float %y, 3.0
  %t2 = fadd float %y, 5.0
  %t3 = fadd float %y, 7.0
  %r = fadd float %m, %a
  %q = fadd float %r, %t1
  %q2 = fadd float %q, %t2
  %q3 = fmul float %q2, %t3
  %q4 = fmul float %q3, %e
  store float %q4, ptr addrspace(1) %g
  %i = fptosi float %x to i32
  %mm = mul i32 %i, %tid
  %tt = add i32 %mm, 1
  %tt2 = add i32 %mm, 2
  %z = mul i32 %tt, %tt2
  %g3 = getelementptr i32, ptr addrspace(1) %g, i32 128
  store i32 %z, ptr addrspace(1) %g3
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.exp2.f32(float)
