#include "emu.h"
kernel void u64_bits(global ulong *c, global const ulong *a, uint n) { uint i = gid(); if (i < n) { ulong v = a[i]; c[i] = (ulong)__builtin_popcountl(v) + ((v >> 13) ^ (v << 7)) + (ulong)__builtin_clzl(v | 1); } }
