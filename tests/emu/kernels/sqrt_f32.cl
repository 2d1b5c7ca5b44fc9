#include "emu.h"
kernel void sqrt_f32(global float *c, global const float *a, uint n) { uint i = gid(); if (i < n) c[i] = __builtin_sqrtf(a[i]); }
