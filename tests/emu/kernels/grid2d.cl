#include "emu.h"
kernel void grid2d(global uint *out, uint w) { uint x = gid(), y = gid_y(); out[y * w + x] = x * 1000 + y; }
