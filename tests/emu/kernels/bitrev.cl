#include "emu.h"
kernel void bitrev(global uint *c, global const uint *a, uint n) { uint i = gid(); if (i < n) c[i] = __builtin_bitreverse32(a[i]) ^ __builtin_rotateleft32(a[i], 5); }
