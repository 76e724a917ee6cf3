/* SPDX-License-Identifier: MIT */
/* The grid walk of the neon level (W = 4, built with aarch64 NEON through SIMDe): walk.inl once. */
#define HS_W 4
#define HS_KNAME neon
#define HS_KISA HS_ISA_NEON
#define HS_WALK_LANES "block_lanes.inl"
#include "walk.inl"
