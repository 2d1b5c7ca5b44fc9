#include "emu.h"
kernel void cvt_int_float(global int *c, global float *d, global const float *a, global const int *b, uint n) { uint i = gid(); if (i < n) { c[i] = (int)a[i]; d[i] = (float)b[i] + (float)(uint)b[i]; } }
