#include "emu.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void cvt_half(global half *c, global float *d, global const float *a, global const half *b, uint n) { uint i = gid(); if (i < n) { c[i] = (half)a[i]; d[i] = (float)b[i]; } }
