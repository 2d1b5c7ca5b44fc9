#include "emu.h"
kernel void select_div(global int *c, global const int *a, uint n) { uint i = gid(); if (i < n) { int v = a[i]; if (v & 1) c[i] = v * 3 + 1; else c[i] = v / 2; } }
