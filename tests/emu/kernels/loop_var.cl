#include "emu.h"
kernel void loop_var(global uint *c, global const uint *a, uint n) { uint i = gid(); if (i < n) { uint s = 0; for (uint k = 0; k < (a[i] & 63); k++) s += k * k ^ a[i]; c[i] = s; } }
