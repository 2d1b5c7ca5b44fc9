#include "emu.h"
kernel void bitcount(global uint *c, global const uint *a, uint n) { uint i = gid(); if (i < n) { uint v = a[i] | 1; c[i] = __builtin_popcount(a[i]) + 100 * __builtin_clz(v) + 10000 * __builtin_ctz(v); } }
