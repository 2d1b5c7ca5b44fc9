#include "emu.h"
kernel void bpermute(global int *out, global const int *a) { uint l = lid(); int v = a[gid()]; out[gid()] = __builtin_amdgcn_ds_bpermute((int)(((l + 3) & 31) | (l & ~31u)) * 4, v); }
