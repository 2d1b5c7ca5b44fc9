#include "emu.h"
kernel void i64_arith(global long *c, global const long *a, global const long *b, uint n) { uint i = gid(); if (i < n) c[i] = a[i] * b[i] + (a[i] >> 7) - (b[i] << 3); }
