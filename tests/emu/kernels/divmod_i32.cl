#include "emu.h"
kernel void divmod_i32(global int *q, global int *r, global const int *a, global const int *b, uint n) { uint i = gid(); if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; } }
