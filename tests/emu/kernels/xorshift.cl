#include "emu.h"
kernel void xorshift(global uint *out, global const uint *seed, uint n) { uint i = gid(); if (i < n) { uint x = seed[i] | 1; for (int k = 0; k < 16; k++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; } out[i] = x; } }
