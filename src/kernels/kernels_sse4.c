/* SPDX-License-Identifier: MIT */
/* The sse4 level (W = 4, built with -msse4.2 -mpopcnt): kernels.inl once. */
#define HS_W 4
#define HS_KNAME sse4
#define HS_KISA HS_ISA_SSE4
#include "kernels.inl"
