/* SPDX-License-Identifier: MIT */
/* The walk of a grid's walls by their cells at the avx2 level (W = 8, the flags of walk_avx2.c):
 * wall_walk.inl once. */
#define HS_W 8
#define HS_KNAME avx2
#define HS_KISA HS_ISA_AVX2
#include "wall_walk.inl"
