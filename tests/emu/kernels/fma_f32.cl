#include "emu.h"
kernel void fma_f32(global float *d, global const float *a, global const float *b, global const float *c, uint n) { uint i = gid(); if (i < n) d[i] = __builtin_fmaf(a[i], b[i], c[i]); }
