/* SPDX-License-Identifier: MIT */
/* The walk of a grid's walls by their cells at the scalar level (W = 1, the flags of
 * walk_scalar.c): wall_walk.inl once. */
#define HS_W 1
#define HS_KNAME scalar
#define HS_KISA HS_ISA_SCALAR
#include "wall_walk.inl"
