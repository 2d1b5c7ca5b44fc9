/* Work-item helpers for -nogpulib OpenCL kernels (see TOOL-NOTES): ids from
   the AMDGPU builtins, sizes from the code object v5 hidden kernel arguments. */
typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned short ushort;
typedef unsigned char uchar;
#define IMPL_U16 ((__constant ushort *)__builtin_amdgcn_implicitarg_ptr())
static inline uint lid(void) { return __builtin_amdgcn_workitem_id_x(); }
static inline uint lid_y(void) { return __builtin_amdgcn_workitem_id_y(); }
static inline uint lsize(void) { return IMPL_U16[6]; }
static inline uint lsize_y(void) { return IMPL_U16[7]; }
static inline uint gid(void) { return __builtin_amdgcn_workgroup_id_x() * lsize() + lid(); }
static inline uint gid_y(void) { return __builtin_amdgcn_workgroup_id_y() * lsize_y() + lid_y(); }
static inline void bar(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#define ATOMIC_ADD(p, v) __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)
#define ATOMIC_MIN(p, v) __scoped_atomic_fetch_min(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)
#define ATOMIC_MAX(p, v) __scoped_atomic_fetch_max(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)
#define ATOMIC_ADD_WG(p, v) __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP)
