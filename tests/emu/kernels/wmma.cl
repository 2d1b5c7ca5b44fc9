/* GFX11 WMMA through clang's builtins (ISA guide 7.9): one 16x16x16 problem per
   workgroup of one wave. Lane l loads row l % 16 of A and column l % 16 of B (the
   copies in lanes 16-63 replicate lanes 0-15, as the ISA requires); VGPR j of C/D
   in lane l is element (j * W/16 + l / 16, l % 16), W the wave size. */
#include "emu.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half half16 __attribute__((ext_vector_type(16)));
typedef half half8 __attribute__((ext_vector_type(8)));
typedef short short16 __attribute__((ext_vector_type(16)));
typedef short short8 __attribute__((ext_vector_type(8)));
typedef float floatv8 __attribute__((ext_vector_type(8)));
typedef float floatv4 __attribute__((ext_vector_type(4)));
typedef int intv8 __attribute__((ext_vector_type(8)));
typedef int intv4 __attribute__((ext_vector_type(4)));
typedef int intv2 __attribute__((ext_vector_type(2)));

#define W __AMDGCN_WAVEFRONT_SIZE
#define ND (256 / W)
#define LANE lid()
#define G __builtin_amdgcn_workgroup_id_x()
#define ROW(j) ((j) * (W / 16) + LANE / 16)
#define COL (LANE % 16)

#if W == 64
#define F32ACC floatv4
#define I32ACC intv4
#define H16ACC half8
#define S16ACC short8
#define SFX(name) name##_w64
#else
#define F32ACC floatv8
#define I32ACC intv8
#define H16ACC half16
#define S16ACC short16
#define SFX(name) name##_w32
#endif

kernel void wmma_f32_f16(global float *d, global const half *a, global const half *b,
                         global const float *c) {
  a += G * 256; b += G * 256; c += G * 256; d += G * 256;
  half16 af, bf;
  for (int k = 0; k < 16; k++) { af[k] = a[COL * 16 + k]; bf[k] = b[k * 16 + COL]; }
  F32ACC cf;
  for (int j = 0; j < ND; j++) cf[j] = c[ROW(j) * 16 + COL];
  cf = SFX(__builtin_amdgcn_wmma_f32_16x16x16_f16)(af, bf, cf);
  for (int j = 0; j < ND; j++) d[ROW(j) * 16 + COL] = cf[j];
}

/* two chained products: the second reads the first's D as C (no hazard) and then
   its own D as A (needs one VALU in between: LLVM inserts it) */
kernel void wmma_f32_f16_chain(global float *d, global const half *a, global const half *b,
                               global const float *c) {
  a += G * 256; b += G * 256; c += G * 256; d += G * 256;
  half16 af, bf;
  for (int k = 0; k < 16; k++) { af[k] = a[COL * 16 + k]; bf[k] = b[k * 16 + COL]; }
  F32ACC cf;
  for (int j = 0; j < ND; j++) cf[j] = c[ROW(j) * 16 + COL];
  cf = SFX(__builtin_amdgcn_wmma_f32_16x16x16_f16)(af, bf, cf);
  cf = SFX(__builtin_amdgcn_wmma_f32_16x16x16_f16)(bf, af, cf);
  for (int j = 0; j < ND; j++) d[ROW(j) * 16 + COL] = cf[j];
}

kernel void wmma_f32_bf16(global float *d, global const short *a, global const short *b,
                          global const float *c) {
  a += G * 256; b += G * 256; c += G * 256; d += G * 256;
  short16 af, bf;
  for (int k = 0; k < 16; k++) { af[k] = a[COL * 16 + k]; bf[k] = b[k * 16 + COL]; }
  F32ACC cf;
  for (int j = 0; j < ND; j++) cf[j] = c[ROW(j) * 16 + COL];
  cf = SFX(__builtin_amdgcn_wmma_f32_16x16x16_bf16)(af, bf, cf);
  for (int j = 0; j < ND; j++) d[ROW(j) * 16 + COL] = cf[j];
}

/* f16 result in the low halves (d) and in the high halves (e, OPSEL[2]) */
kernel void wmma_f16_f16(global half *d, global half *e, global const half *a,
                         global const half *b, global const half *c) {
  a += G * 256; b += G * 256; c += G * 256; d += G * 256; e += G * 256;
  half16 af, bf;
  for (int k = 0; k < 16; k++) { af[k] = a[COL * 16 + k]; bf[k] = b[k * 16 + COL]; }
  H16ACC lo, hi;
  for (int j = 0; j < ND; j++) {
    lo[2 * j] = c[ROW(j) * 16 + COL]; lo[2 * j + 1] = 0;
    hi[2 * j + 1] = c[ROW(j) * 16 + COL]; hi[2 * j] = 0;
  }
  lo = SFX(__builtin_amdgcn_wmma_f16_16x16x16_f16)(af, bf, lo, false);
  hi = SFX(__builtin_amdgcn_wmma_f16_16x16x16_f16)(af, bf, hi, true);
  for (int j = 0; j < ND; j++) {
    d[ROW(j) * 16 + COL] = lo[2 * j];
    e[ROW(j) * 16 + COL] = hi[2 * j + 1];
  }
}

kernel void wmma_bf16_bf16(global short *d, global const short *a, global const short *b,
                           global const short *c) {
  a += G * 256; b += G * 256; c += G * 256; d += G * 256;
  short16 af, bf;
  for (int k = 0; k < 16; k++) { af[k] = a[COL * 16 + k]; bf[k] = b[k * 16 + COL]; }
  S16ACC cf;
  for (int j = 0; j < ND; j++) { cf[2 * j] = c[ROW(j) * 16 + COL]; cf[2 * j + 1] = 0; }
  cf = SFX(__builtin_amdgcn_wmma_bf16_16x16x16_bf16)(af, bf, cf, false);
  for (int j = 0; j < ND; j++) d[ROW(j) * 16 + COL] = cf[2 * j];
}

/* a: rows of A as bytes (4 dwords a row), bt: columns of B (rows of B^T) likewise;
   s selects signed (d) / unsigned (e) inputs, f is d with clamping */
kernel void wmma_i32_iu8(global int *d, global int *e, global int *f, global const int *a,
                         global const int *bt, global const int *c) {
  a += G * 64; bt += G * 64; c += G * 256; d += G * 256; e += G * 256; f += G * 256;
  intv4 af, bf;
  for (int k = 0; k < 4; k++) { af[k] = a[COL * 4 + k]; bf[k] = bt[COL * 4 + k]; }
  I32ACC cf;
  for (int j = 0; j < ND; j++) cf[j] = c[ROW(j) * 16 + COL];
  I32ACC ds = SFX(__builtin_amdgcn_wmma_i32_16x16x16_iu8)(true, af, true, bf, cf, false);
  I32ACC du = SFX(__builtin_amdgcn_wmma_i32_16x16x16_iu8)(false, af, false, bf, cf, false);
  I32ACC dc = SFX(__builtin_amdgcn_wmma_i32_16x16x16_iu8)(true, af, true, bf, cf, true);
  for (int j = 0; j < ND; j++) {
    d[ROW(j) * 16 + COL] = ds[j]; e[ROW(j) * 16 + COL] = du[j]; f[ROW(j) * 16 + COL] = dc[j];
  }
}

kernel void wmma_i32_iu4(global int *d, global int *e, global const int *a,
                         global const int *bt, global const int *c) {
  a += G * 32; bt += G * 32; c += G * 256; d += G * 256; e += G * 256;
  intv2 af, bf;
  for (int k = 0; k < 2; k++) { af[k] = a[COL * 2 + k]; bf[k] = bt[COL * 2 + k]; }
  I32ACC cf;
  for (int j = 0; j < ND; j++) cf[j] = c[ROW(j) * 16 + COL];
  I32ACC ds = SFX(__builtin_amdgcn_wmma_i32_16x16x16_iu4)(true, af, true, bf, cf, false);
  I32ACC du = SFX(__builtin_amdgcn_wmma_i32_16x16x16_iu4)(false, af, true, bf, cf, false);
  for (int j = 0; j < ND; j++) { d[ROW(j) * 16 + COL] = ds[j]; e[ROW(j) * 16 + COL] = du[j]; }
}
