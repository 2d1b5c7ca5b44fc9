#include "emu.h"
kernel void mulhi_u32(global uint *c, global const uint *a, global const uint *b, uint n) { uint i = gid(); if (i < n) c[i] = (uint)(((ulong)a[i] * b[i]) >> 32); }
