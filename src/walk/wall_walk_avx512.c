/* SPDX-License-Identifier: MIT */
/* The walk of a grid's walls by their cells at the avx512 level (W = 16, the flags of
 * walk_avx512.c): wall_walk.inl once. */
#define HS_W 16
#define HS_KNAME avx512
#define HS_KISA HS_ISA_AVX512
#include "wall_walk.inl"
