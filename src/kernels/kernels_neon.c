/* SPDX-License-Identifier: MIT */
/* The neon level (W = 4, built with aarch64 NEON through SIMDe): kernels.inl once. */
#define HS_W 4
#define HS_KNAME neon
#define HS_KISA HS_ISA_NEON
#include "kernels.inl"
