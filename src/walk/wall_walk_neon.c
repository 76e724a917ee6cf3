/* SPDX-License-Identifier: MIT */
/* The walk of a grid's walls by their cells at the neon level (W = 4, the flags of walk_neon.c):
 * wall_walk.inl once. */
#define HS_W 4
#define HS_KNAME neon
#define HS_KISA HS_ISA_NEON
#include "wall_walk.inl"
