#include "emu.h"
kernel void atomic_minmax(global int *mm, global const int *a, uint n) { uint i = gid(); if (i < n) { ATOMIC_MIN(&mm[0], a[i]); ATOMIC_MAX(&mm[1], a[i]); } }
