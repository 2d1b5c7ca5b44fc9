#include "emu.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_arith(global half *c, global const half *a, global const half *b, uint n) { uint i = gid(); if (i < n) c[i] = a[i] * b[i] + a[i]; }
