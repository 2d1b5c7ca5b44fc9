#include "emu.h"
kernel void f64_arith(global double *c, global const double *a, global const double *b, uint n) { uint i = gid(); if (i < n) c[i] = (a[i] * b[i] + a[i]) / (b[i] + 3.0); }
