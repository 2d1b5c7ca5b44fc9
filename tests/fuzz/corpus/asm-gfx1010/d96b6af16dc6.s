	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[6:7] offset:16 glc
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v2, 1%0, v2
	v_fma_f32 v3, -v2, |v1|, 0x40490fdb
	v_cmp_gt_u32_e32 vcc_lo, 64, v0
	s_and_saveexec_b32 s8, vcc_lo
	s_cbranch_execz .LBB0_2
	ds_write_b32 v1, v2 offset:8
	buffer_load_dword v4, v1, s[4:7], 0 offen
.LBB0_2:
	global_store_dword v1, v2, s[4:5]
	s_endpgm
.Lend:
	.size k, .Lend-k
	.rodata
	.p2align 6
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 16
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           p
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .name:           k
    .symbol:         k.kd
    .sgpr_count:     16
    .vgpr_count:     8
    .wavefront_size: 32
    .max_flat_workgroup_size: 256
amdhsa.target:   amdgcn-amd-amdhsa--gfx1010
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
