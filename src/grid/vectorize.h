/* SPDX-License-Identifier: MIT */
/* Internal: vector helpers of the grid's portable code (the build's cells and record sorts, the
 * queries' locality order). */
#ifndef HITSCAN_GRID_VECTORIZE_H
#define HITSCAN_GRID_VECTORIZE_H

#include <simde/x86/sse.h>

#include "force_inline.h"

/* Loops worth AVX-512 / AVX2 in the generic library code (the build's cells, the query
 * order's keys): on x86-64 ELF they are compiled for those too, picked once by the loader. */
#if defined(__x86_64__) && defined(__ELF__) && (defined(__GNUC__) || defined(__clang__)) &&        \
    !defined(HS_GRID_NO_CLONES)
#define HS_GRID_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define HS_GRID_CLONES
#endif

/* A function inlined into each clone of its HS_GRID_CLONES caller, so that it is compiled for
 * the clone's instruction set and costs no call (where force_inline.h says it is on). */
#if HS_FORCE_INLINE_ON
#define HS_CLONE_INLINE static inline __attribute__((always_inline))
#else
#define HS_CLONE_INLINE static inline
#endif

/* Four 16-byte rows s0..s3 transposed into d0..d3 (four 32-bit fields of four records, either
 * way between arrays and records): one 16-byte load and store per row instead of four of
 * each. Used by the build's record sorts and the queries' locality order. */
static inline void hs_transpose4(const void *s0, const void *s1, const void *s2, const void *s3,
                                 void *d0, void *d1, void *d2, void *d3)
{
    simde__m128 v0 = simde_mm_loadu_ps((const float *)s0),
                v1 = simde_mm_loadu_ps((const float *)s1);
    simde__m128 v2 = simde_mm_loadu_ps((const float *)s2),
                v3 = simde_mm_loadu_ps((const float *)s3);
    SIMDE_MM_TRANSPOSE4_PS(v0, v1, v2, v3);
    simde_mm_storeu_ps((float *)d0, v0);
    simde_mm_storeu_ps((float *)d1, v1);
    simde_mm_storeu_ps((float *)d2, v2);
    simde_mm_storeu_ps((float *)d3, v3);
}

#endif
