#include "emu.h"
kernel void poly_f32(global float *c, global const float *a, uint n) { uint i = gid(); if (i < n) { float x = a[i], r = 0.0f; for (int k = 7; k >= 0; k--) r = r * x + (float)(k + 1) * 0.125f; c[i] = r; } }
