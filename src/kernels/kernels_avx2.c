/* SPDX-License-Identifier: MIT */
/* The avx2 level (W = 8, built with -mavx2 -mfma -mpopcnt): kernels.inl once. */
#define HS_W 8
#define HS_KNAME avx2
#define HS_KISA HS_ISA_AVX2
#include "kernels.inl"
