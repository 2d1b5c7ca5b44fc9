#include "emu.h"
kernel void lds_reverse(global int *out, global const int *a) { local int s[256]; uint l = lid(); s[l] = a[gid()]; bar(); out[gid()] = s[lsize() - 1 - l]; }
