#include "emu.h"
kernel void atomic_hist(global uint *h, global const uint *a, uint n) { uint i = gid(); if (i < n) ATOMIC_ADD(&h[a[i] & 15], 1u); }
