#include "emu.h"
kernel void prefix_sum(global uint *out, global const uint *a) { local uint s[2][256]; uint l = lid(), p = 0; s[0][l] = a[gid()]; bar(); for (uint k = 1; k < lsize(); k <<= 1) { uint v = s[p][l]; if (l >= k) v += s[p][l - k]; s[p ^ 1][l] = v; p ^= 1; bar(); } out[gid()] = s[p][l]; }
