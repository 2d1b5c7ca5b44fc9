#include "emu.h"
/* GFX10.3's integer dot products (clang-19 -mcpu=gfx1030 selects v_dot2_{i32_i16,u32_u16},
   v_dot4_{i32_i8,u32_u8}, v_dot4c_i32_i8, v_dot8_{i32_i4,u32_u4}, with and without clamp)
   and GFX10's v_clrexcp (inline assembly). */
typedef short short2 __attribute__((ext_vector_type(2)));
typedef unsigned short ushort2 __attribute__((ext_vector_type(2)));
kernel void dot_gfx1030(global int *out, global const int *a, global const int *b,
                        global const int *c) {
  uint i = gid();
  int x = a[i], y = b[i], z = c[i];
  short2 xs = __builtin_astype(x, short2), ys = __builtin_astype(y, short2);
  ushort2 xu = __builtin_astype(x, ushort2), yu = __builtin_astype(y, ushort2);
  __asm__ volatile("v_clrexcp");
  out[12 * i + 0] = __builtin_amdgcn_sdot4(x, y, z, false);
  out[12 * i + 1] = __builtin_amdgcn_sdot4(x, y, z, true);
  out[12 * i + 2] = __builtin_amdgcn_udot4(x, y, z, false);
  out[12 * i + 3] = __builtin_amdgcn_udot4(x, y, z, true);
  out[12 * i + 4] = __builtin_amdgcn_sdot8(x, y, z, false);
  out[12 * i + 5] = __builtin_amdgcn_sdot8(x, y, z, true);
  out[12 * i + 6] = __builtin_amdgcn_udot8(x, y, z, false);
  out[12 * i + 7] = __builtin_amdgcn_udot8(x, y, z, true);
  out[12 * i + 8] = __builtin_amdgcn_sdot2(xs, ys, z, false);
  out[12 * i + 9] = __builtin_amdgcn_sdot2(xs, ys, z, true);
  out[12 * i + 10] = __builtin_amdgcn_udot2(xu, yu, z, false);
  out[12 * i + 11] = __builtin_amdgcn_udot2(xu, yu, z, true);
}
