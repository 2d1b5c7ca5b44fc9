#include "emu.h"
kernel void rounding(global float *c, global const float *a, uint n) { uint i = gid(); if (i < n) c[i] = __builtin_floorf(a[i]) + 10.0f * __builtin_truncf(a[i]) + 100.0f * __builtin_ceilf(a[i]) + 1000.0f * __builtin_rintf(a[i]); }
