/* SPDX-License-Identifier: MIT */
/* The grid walk of the scalar level (W = 1, built with plain C, no ISA flags): walk.inl once. */
#define HS_W 1
#define HS_KNAME scalar
#define HS_KISA HS_ISA_SCALAR
#define HS_WALK_LANES "block_lanes.inl"
#include "walk.inl"
