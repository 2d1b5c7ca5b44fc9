#include "emu.h"
kernel void matvec(global float *y, global const float *m, global const float *x, uint n, uint cols) { uint i = gid(); if (i < n) { float s = 0.0f; for (uint k = 0; k < cols; k++) s += m[i * cols + k] * x[k]; y[i] = s; } }
