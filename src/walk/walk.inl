/* SPDX-License-Identifier: MIT */
/* Internal: one ISA level's grid walk, instantiated once per translation unit (walk_<isa>.c
 * sets HS_W, HS_KNAME and HS_KISA, then includes this file). Everything is written once over
 * the vector layer (kernels/simd.h) and the pair test (kernels/pair_math.inl); the AVX-512
 * test and answer helpers (block_avx512.inl) are included only for that level.
 *
 * Names this file makes, for HS_KNAME = isa (scalar, sse4, avx2, avx512, neon):
 *   hs_grid_walkers_<isa>   the grid walker table (walkers.h), of
 *     hs_k_<isa>_grid_closest_range, _grid_any_range, _grid_count_range, _grid_all_range
 *                                                                  (block_walk.inl)
 *   and the out-of-line helpers of the walk:
 *     hs_k_<isa>_walk_any, _walk_count, _walk_all                  (walk_query.inl)
 *     hs_k_<isa>_block_plan_level                                  (block_plan.inl)
 *     hs_k_<isa>_block_walk_query                                  (block_answer.inl)
 * Only the table is external; walkers.c picks it by level. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/level.h"
#include "kernels/simd.h"

#include "batch/hitbuf.h"
#include "core.h"
#include "grid/layout.h"
#include "invariant.h"
#include "kernels/kernels.h"
#include "prefetch.h"
#include "query_prep.h"
#include "tuning.h"
#include "walk/walkers.h"

/* The pair arithmetic on vectors. */
#include "kernels/pair_math.inl"

/* The grid walk: the block and its queries, the per-query walk, the block's plan, test and
 * answer steps, then the range walk over blocks. */
#include "block.inl"
#include "walk_run.inl"
#include "walk_query.inl"
#include "block_plan.inl"
#ifdef HS_BLOCK_AVX512
#include "block_avx512.inl"
#endif
#include "block_test.inl"
#include "block_answer.inl"
#include "block_plan_rows.inl"
#include "block_walk.inl"

const hs_grid_walkers HS_CAT(hs_grid_walkers_, HS_KNAME) = {
    HS_KISA,
    sizeof(hs_block),
    HS_FN(grid_closest_range),
    HS_FN(grid_any_range),
    HS_FN(grid_count_range),
    HS_FN(grid_all_range),
    HS_FN(trace_range),
};
