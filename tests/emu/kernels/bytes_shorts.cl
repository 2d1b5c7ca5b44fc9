#include "emu.h"
kernel void bytes_shorts(global uchar *b, global short *s, global const uchar *a, global const short *c, uint n) { uint i = gid(); if (i < n) { b[i] = (uchar)(a[i] * 3 + 1); s[i] = (short)(c[i] * -2); } }
