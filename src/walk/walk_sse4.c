/* SPDX-License-Identifier: MIT */
/* The grid walk of the sse4 level (W = 4, built with -msse4.2 -mpopcnt): walk.inl once. */
#define HS_W 4
#define HS_KNAME sse4
#define HS_KISA HS_ISA_SSE4
#define HS_WALK_LANES "block_lanes.inl"
#include "walk.inl"
