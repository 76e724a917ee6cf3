/* SPDX-License-Identifier: MIT */
/* The grid walk of the wasm128 level (W = 4, built with -msimd128: SIMDe maps the SSE path onto
 * WebAssembly SIMD128): walk.inl once. */
#define HS_W 4
#define HS_KNAME wasm128
#define HS_KISA HS_ISA_WASM128
#define HS_WALK_LANES "block_lanes.inl"
#include "walk.inl"
