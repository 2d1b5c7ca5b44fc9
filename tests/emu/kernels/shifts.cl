#include "emu.h"
kernel void shifts(global uint *c, global const uint *a, global const uint *b, uint n) { uint i = gid(); if (i < n) { uint s = b[i] & 31; c[i] = (a[i] << s) ^ (a[i] >> (31 - s)) ^ (uint)((int)a[i] >> s); } }
