/* SPDX-License-Identifier: MIT */
/* Internal: one ISA level's code, instantiated once per translation unit (kernels_<isa>.c sets
 * HS_W, HS_KNAME and HS_KISA, then includes this file). Everything below is written once over
 * the vector layer simd.h; the AVX-512 files are included only for that level.
 *
 * Names this file makes, for HS_KNAME = isa (scalar, sse4, avx2, avx512, neon):
 *   hs_kernels_<isa>                 the pair kernel table (kernels.h):
 *     hs_k_<isa>_any, _count, _closest, _all                       (pair_kernels.h)
 *   hs_grid_walkers_<isa>            the grid walker table (grid_walkers.h):
 *     hs_k_<isa>_grid_closest_range, _grid_any_range, _grid_count_range, _grid_all_range
 *                                                                  (block_walk.h)
 *   and the out-of-line helpers of the walk:
 *     hs_k_<isa>_walk_any, _walk_count, _walk_all                  (walk_query.h)
 *     hs_k_<isa>_block_plan_level                                  (block_plan.h)
 *     hs_k_<isa>_block_walk_query                                  (block_answer.h)
 * Only the two tables are external; dispatch.c picks them by level. */
#ifndef HS_KNAME
#error "define HS_W, HS_KNAME and HS_KISA before including instantiate.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>

#include "simd.h"

#include "batch/hitbuf.h"
#include "core.h"
#include "grid/layout.h"
#include "grid_walkers.h"
#include "kernels.h"
#include "prefetch.h"
#include "query_prep.h"
#include "tuning.h"

#define HS_CAT2(a, b) a##b
#define HS_CAT(a, b) HS_CAT2(a, b)
/* This level's name for a function: HS_FN(any) is hs_k_<isa>_any. */
#define HS_FN(name) HS_CAT(HS_CAT(hs_k_, HS_KNAME), HS_CAT(_, name))

/* The rarer paths of the walk stay out of line: one copy per ISA rather than one per mode and
 * semantics. Not "cold": the per-query walk is the whole path of rays and lines. */
#if defined(__GNUC__) || defined(__clang__)
#define HS_OUTLINE __attribute__((noinline))
#else
#define HS_OUTLINE
#endif

/* The pair arithmetic on vectors, and the pair kernels. */
#include "pair_math.h"
#include "pair_kernels.h"

/* The grid walk: the block and its queries, the per-query walk, the block's plan, test and
 * answer steps, then the range walk over blocks. */
#include "block.h"
#include "walk_run.h"
#include "walk_query.h"
#include "block_plan.h"
#ifdef HS_BLOCK_VPLAN
#include "block_avx512.h"
#endif
#include "block_test.h"
#include "block_answer.h"
#include "block_plan_rows.h"
#ifdef HS_BLOCK_VPLAN
#include "block_plan_avx512.h"
#endif
#include "block_walk.h"

const hs_kernel_set HS_CAT(hs_kernels_, HS_KNAME) = {
    HS_KISA, HS_W, HS_FN(any), HS_FN(count), HS_FN(closest), HS_FN(all),
};

const hs_grid_walkers HS_CAT(hs_grid_walkers_, HS_KNAME) = {
    HS_KISA,
    HS_FN(grid_closest_range),
    HS_FN(grid_any_range),
    HS_FN(grid_count_range),
    HS_FN(grid_all_range),
};
