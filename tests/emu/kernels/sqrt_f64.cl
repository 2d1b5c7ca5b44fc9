#include "emu.h"
kernel void sqrt_f64(global double *c, global const double *a, uint n) { uint i = gid(); if (i < n) c[i] = __builtin_sqrt(a[i]); }
