#include "emu.h"
kernel void i64_div(global ulong *c, global const ulong *a, global const ulong *b, uint n) { uint i = gid(); if (i < n) c[i] = a[i] / b[i] + a[i] % b[i]; }
