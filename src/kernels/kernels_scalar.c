/* SPDX-License-Identifier: MIT */
/* The scalar level (W = 1, built with plain C, no ISA flags): kernels.inl once. */
#define HS_W 1
#define HS_KNAME scalar
#define HS_KISA HS_ISA_SCALAR
#include "kernels.inl"
