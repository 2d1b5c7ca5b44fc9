#include "emu.h"
kernel void ballot(global ulong *out, global const uint *a) { ulong b = __builtin_amdgcn_ballot_w64((a[gid()] & 1) != 0); if (lid() == 0) out[__builtin_amdgcn_workgroup_id_x()] = b; }
