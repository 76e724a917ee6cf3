/* SPDX-License-Identifier: MIT */
/* The walk of a grid's walls by their cells at the wasm128 level (W = 4, the flags of
 * walk_wasm128.c): wall_walk.inl once. */
#define HS_W 4
#define HS_KNAME wasm128
#define HS_KISA HS_ISA_WASM128
#include "wall_walk.inl"
