#include "emu.h"
kernel void cvt_f32_f64(global double *c, global float *d, global const float *a, global const double *b, uint n) { uint i = gid(); if (i < n) { c[i] = (double)a[i] * 3.0; d[i] = (float)b[i]; } }
