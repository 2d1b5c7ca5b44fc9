#include "emu.h"
kernel void switch_case(global int *c, global const int *a, uint n) { uint i = gid(); if (i < n) { int v = a[i]; switch (v & 7) { case 0: v += 5; break; case 1: v *= 7; break; case 2: v ^= 0x55; break; case 3: v -= 100; break; case 5: v = -v; break; default: v = v >> 2; } c[i] = v; } }
