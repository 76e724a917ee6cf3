/* SPDX-License-Identifier: MIT */
/* The walk of a grid's walls by their cells at the sse4 level (W = 4, the flags of walk_sse4.c):
 * wall_walk.inl once. */
#define HS_W 4
#define HS_KNAME sse4
#define HS_KISA HS_ISA_SSE4
#include "wall_walk.inl"
