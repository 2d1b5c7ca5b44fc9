#include "emu.h"
kernel void mul_u32(global uint *c, global const uint *a, global const uint *b, uint n) { uint i = gid(); if (i < n) c[i] = a[i] * b[i]; }
