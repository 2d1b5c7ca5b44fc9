#include "emu.h"
constant uint tab[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3}; kernel void const_table(global uint *out, global const uint *a, uint n) { uint i = gid(); if (i < n) out[i] = tab[a[i] & 15] * tab[(a[i] >> 4) & 15]; }
