#include "emu.h"
kernel void saxpy(global float *y, global const float *x, float a, uint n) { uint i = gid(); if (i < n) y[i] = a * x[i] + y[i]; }
