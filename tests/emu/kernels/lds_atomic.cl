#include "emu.h"
kernel void lds_atomic(global uint *h, global const uint *a) { local uint lh[8]; uint l = lid(); if (l < 8) lh[l] = 0; bar(); ATOMIC_ADD_WG(&lh[a[gid()] & 7], 1u); bar(); if (l < 8) ATOMIC_ADD(&h[l], lh[l]); }
