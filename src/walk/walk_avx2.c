/* SPDX-License-Identifier: MIT */
/* The grid walk of the avx2 level (W = 8, built with -mavx2 -mfma -mpopcnt): walk.inl once. */
#define HS_W 8
#define HS_KNAME avx2
#define HS_KISA HS_ISA_AVX2
#define HS_WALK_LANES "block_lanes.inl"
#include "walk.inl"
