#include "emu.h"
kernel void mbcnt(global uint *out) { uint m = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); out[gid()] = m; }
