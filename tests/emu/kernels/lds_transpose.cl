#include "emu.h"
kernel void lds_transpose(global float *out, global const float *a, uint w) { local float t[16][17]; uint x = gid(), y = gid_y(); t[lid_y()][lid()] = a[y * w + x]; bar(); uint ox = __builtin_amdgcn_workgroup_id_y() * 16 + lid(), oy = __builtin_amdgcn_workgroup_id_x() * 16 + lid_y(); out[oy * w + ox] = t[lid()][lid_y()]; }
