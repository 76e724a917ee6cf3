/* SPDX-License-Identifier: MIT */
/* The avx512 level (W = 16, built with -mavx512f/bw/dq/vl -mfma -mpopcnt): kernels.inl once. */
#define HS_W 16
#define HS_KNAME avx512
#define HS_KISA HS_ISA_AVX512
#include "kernels.inl"
