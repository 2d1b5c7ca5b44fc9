#include "emu.h"
kernel void dpp_shr(global int *out, global const int *a) { int v = a[gid()]; out[gid()] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, false); }
