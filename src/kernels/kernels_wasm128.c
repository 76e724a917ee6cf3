/* SPDX-License-Identifier: MIT */
/* The wasm128 level (W = 4, built with -msimd128: SIMDe maps the SSE path onto WebAssembly
 * SIMD128): kernels.inl once. */
#define HS_W 4
#define HS_KNAME wasm128
#define HS_KISA HS_ISA_WASM128
#include "kernels.inl"
