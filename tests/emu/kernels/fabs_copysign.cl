#include "emu.h"
kernel void fabs_copysign(global float *c, global const float *a, global const float *b, uint n) { uint i = gid(); if (i < n) c[i] = __builtin_fabsf(a[i]) + __builtin_copysignf(b[i], a[i]); }
