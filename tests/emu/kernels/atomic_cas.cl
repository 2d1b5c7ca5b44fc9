#include "emu.h"
kernel void atomic_cas(global uint *cnt, global uint *slot, uint n) { uint i = gid(); if (i < n) { uint old = __scoped_atomic_load_n(cnt, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE); while (!__scoped_atomic_compare_exchange_n(cnt, &old, old + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)) {} slot[i] = old; } }
