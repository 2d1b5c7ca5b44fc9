#include "emu.h"
kernel void divmod_u32(global uint *q, global uint *r, global const uint *a, global const uint *b, uint n) { uint i = gid(); if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; } }
