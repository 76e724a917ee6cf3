/* SPDX-License-Identifier: MIT */
/* The grid walk of the avx512 level (W = 16, built with -mavx512f/bw/dq/vl -mfma -mpopcnt):
 * walk.inl once. */
#define HS_W 16
#define HS_KNAME avx512
#define HS_KISA HS_ISA_AVX512
#define HS_WALK_LANES "block_avx512.inl"
#include "walk.inl"
