#include "emu.h"
kernel void lds_reduce(global uint *out, global const uint *a) { local uint s[256]; uint l = lid(); s[l] = a[gid()]; bar(); for (uint k = lsize() / 2; k > 0; k >>= 1) { if (l < k) s[l] += s[l + k]; bar(); } if (l == 0) out[__builtin_amdgcn_workgroup_id_x()] = s[0]; }
