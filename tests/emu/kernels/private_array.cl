#include "emu.h"
kernel void private_array(global int *out, global const int *a, uint n) { uint i = gid(); if (i < n) { int p[8]; for (int k = 0; k < 8; k++) p[k] = a[i] * k; out[i] = p[a[i] & 7] + p[(a[i] >> 3) & 7]; } }
