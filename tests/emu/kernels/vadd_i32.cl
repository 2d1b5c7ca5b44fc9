#include "emu.h"
kernel void vadd_i32(global int *c, global const int *a, global const int *b, uint n) { uint i = gid(); if (i < n) c[i] = a[i] + b[i] - 3 * (a[i] ^ b[i]); }
