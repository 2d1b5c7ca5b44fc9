// y[i] = a * x[i] + y[i] for 64-lane workgroups, written by hand for gfx1100.
// Kernel arguments (kernarg segment): x (global ptr, offset 0),
// y (global ptr, offset 8), a (f32, offset 16).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.amdhsa_code_object_version 5
	.text
	.globl	saxpy
	.p2align	8
	.type	saxpy,@function
saxpy:
	s_load_b128 s[4:7], s[0:1], 0x0
	s_load_b32 s0, s[0:1], 0x10
	v_lshl_add_u32 v0, s2, 6, v0
	v_mov_b32_e32 v1, 0
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_add_co_u32 v2, vcc_lo, s4, v0
	v_add_co_ci_u32_e32 v3, vcc_lo, s5, v1, vcc_lo
	v_add_co_u32 v0, vcc_lo, s6, v0
	v_add_co_ci_u32_e32 v1, vcc_lo, s7, v1, vcc_lo
	global_load_b32 v4, v[2:3], off
	global_load_b32 v5, v[0:1], off
	s_waitcnt vmcnt(0)
	v_fmac_f32_e32 v5, s0, v4
	global_store_b32 v[0:1], v5, off
	s_endpgm
.Lsaxpy_end:
	.size	saxpy, .Lsaxpy_end-saxpy

	.rodata
	.p2align	6
	.amdhsa_kernel saxpy
		.amdhsa_kernarg_size 20
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_wavefront_size32 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 16
	.end_amdhsa_kernel
