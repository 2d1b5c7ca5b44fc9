#include "emu.h"
kernel void float4_vec(global float4 *c, global const float4 *a, uint n) { uint i = gid(); if (i < n) { float4 v = a[i]; c[i] = v.wzyx * 2.0f + v; } }
