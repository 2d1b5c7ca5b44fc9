target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %p, i32 %n, double %d) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %x = load i32, ptr addrspace(1) %g
  %a = mul i32 %x, %n
  %b = add i32 %a, %tid
  %c = shl i64 4294967296, 3
  %xe = zext i32 %b to i64
  %s = shl i64 %xe, 5
  %t = lshr i64 %s, 3
  %u = trunc i64 %t to i32
  %f = sitofp i32 %u to double
  %h = fmul double %f, %d
  %i = fadd double %h, 1.0
  %j = fptosi double %i to i32
  %k1 = mul i32 %j, %j
  %sq = call float @llvm.sqrt.f32(float 2.0)
  %fl = sitofp i32 %k1 to float
  %lg = call float @llvm.log2.f32(float %fl)
  %ex = call float @llvm.exp2.f32(float %lg)
  %ad = fadd float %ex, %fl
  %r = fptosi float %ad to i32
  %sn = mul i32 %n, 7
  %sn2 = add i32 %sn, 3
  %sn3 = xor i32 %sn2, %n
  %z = add i32 %r, %sn3
  store i32 %z, ptr addrspace(1) %g
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.sqrt.f32(float)
declare float @llvm.log2.f32(float)
declare float @llvm.exp2.f32(float)
