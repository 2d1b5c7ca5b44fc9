#include "emu.h"
kernel void collatz(global uint *c, global const uint *a, uint n) { uint i = gid(); if (i < n) { uint v = a[i], steps = 0; while (v != 1 && steps < 1000) { v = (v & 1) ? 3 * v + 1 : v >> 1; steps++; } c[i] = steps; } }
