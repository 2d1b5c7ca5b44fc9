#include "emu.h"
kernel void div_f32(global float *c, global const float *a, global const float *b, uint n) { uint i = gid(); if (i < n) c[i] = a[i] / b[i]; }
