#include "emu.h"
kernel void readfirstlane(global int *out, global const int *a) { int v = a[gid()]; out[gid()] = v - __builtin_amdgcn_readfirstlane(v); }
