/* SPDX-License-Identifier: MIT */
/* The grid walkers of each ISA level, made by walk.inl in the walk_<isa>.c translation units,
 * picked by the level hs_isa_resolve chose (kernels/dispatch.c). */
#include "hitscan/batch.h"
#include "walk/walkers.h"

/* Which walk TUs src/walk/CMakeLists.txt compiled in (and the compiler agrees). */
#if defined(HS_KERNELS_X86) && (defined(__x86_64__) || defined(__i386__))
#define HS_HAS_X86 1
extern const hs_grid_walkers hs_grid_walkers_sse4, hs_grid_walkers_avx2, hs_grid_walkers_avx512;
#endif
#if defined(HS_KERNELS_NEON) && (defined(__aarch64__) || defined(_M_ARM64))
#define HS_HAS_NEON 1
extern const hs_grid_walkers hs_grid_walkers_neon;
#endif
#if defined(HS_KERNELS_WASM) && defined(__wasm_simd128__)
#define HS_HAS_WASM128 1
extern const hs_grid_walkers hs_grid_walkers_wasm128;
#endif
extern const hs_grid_walkers hs_grid_walkers_scalar;

const hs_grid_walkers *hs_grid_walkers_get(hs_isa isa)
{
    isa = hs_isa_resolve(isa);
    if (isa == HS_ISA_AUTO || !hs_isa_supported(isa))
        return NULL;
    switch (isa) {
    case HS_ISA_SCALAR: return &hs_grid_walkers_scalar;
#ifdef HS_HAS_X86
    case HS_ISA_SSE4: return &hs_grid_walkers_sse4;
    case HS_ISA_AVX2: return &hs_grid_walkers_avx2;
    case HS_ISA_AVX512: return &hs_grid_walkers_avx512;
#endif
#ifdef HS_HAS_NEON
    case HS_ISA_NEON: return &hs_grid_walkers_neon;
#endif
#ifdef HS_HAS_WASM128
    case HS_ISA_WASM128: return &hs_grid_walkers_wasm128;
#endif
    default: return NULL;
    }
}
