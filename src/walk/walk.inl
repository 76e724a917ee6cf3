/* SPDX-License-Identifier: MIT */
/* Internal: one ISA level's grid walk, instantiated once per translation unit (walk_<isa>.c
 * sets HS_W, HS_KNAME, HS_KISA and HS_WALK_LANES, then includes this file). Everything is written
 * once over the vector layer (kernels/simd.h) and the pair test (kernels/pair_math.inl); what a
 * level does lane-parallel in its own way is one file it names in HS_WALK_LANES (block_lanes.inl,
 * or block_avx512.inl).
 *
 * Names this file makes, for HS_KNAME = isa (scalar, sse4, avx2, avx512, neon):
 *   hs_grid_walkers_<isa>   the grid walker table (walkers.h), of
 *     hs_k_<isa>_grid_closest_range, _grid_any_range, _grid_count_range, _grid_all_range
 *                                                                  (block_walk.inl)
 *     hs_k_<isa>_wall_cells_range, _wall_cells_closest
 *                                 (wall_walk.inl, a translation unit of its own)
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

#include "batch/hit_sort.h"
#include "batch/hitbuf.h"
#include "core.h"
#include "grid/layout.h"
#include "grid/wall_grid.h"
#include "invariant.h"
#include "kernels/kernels.h"
#include "prefetch.h"
#include "query_prep.h"
#include "tuning.h"
#include "walk/walkers.h"

/* The pair arithmetic on vectors. */
#include "kernels/pair_math.inl"

/* What a walk does with the circles it finds. PLAN: no tests; the runs of a short query
 * become items of a block (block.inl). */
enum { HS_WALK_ANY, HS_WALK_COUNT, HS_WALK_CLOSEST, HS_WALK_ALL, HS_WALK_PLAN };
/* A bit of the per-query walk's mode: against moving circles, every run goes to walk_moving_run
 * (walk_moving.inl). A constant of the walk's copy, so that copy holds none of the circle tests
 * it never runs; HS_WALK_BASE is the mode without it. */
enum { HS_WALK_MOVED = 8 };
#define HS_WALK_BASE(mode) ((mode) & ~HS_WALK_MOVED)

/* The pair test's flags, each a compile-time constant of a copy of a walk loop: the boundary
 * semantics, a circle mask to test, skip-start, the query's thickness (the block always adds
 * it: r + 0 is r exactly), occupancy bits to read on the level. */
enum { HS_TF_BOUNDARY = 1, HS_TF_MASK = 2, HS_TF_SKIP = 4, HS_TF_THICK = 8, HS_TF_OCC = 16 };
/* A grid of wall pieces (grid/wall_grid.h): no circle test decides a piece; the pieces' filter
 * (wall_test.inl), whose margins follow the query, keeps the lanes that go through the exact
 * wall test under the query's semantics. A run-time bit, as the mask's. */
enum { HS_TF_WALL = 64 };
/* Against moving circles: the block's candidates take the exact test of block_moving.inl (the
 * per-query walk's runs go to walk_moving_run by HS_WALK_MOVED). */
enum { HS_TF_MOVE = 32 };
/* The batch names a circle per query to ignore (hs_queries.ignore): the block's item loops
 * take it as a constant (HS_BW_ITEM_LOOP), the per-query walk as a run-time bit. */
enum { HS_TF_IGNORE = 128 };
_Static_assert((int)HS_MW_ANY == (int)HS_WALK_ANY && (int)HS_MW_COUNT == (int)HS_WALK_COUNT &&
                   (int)HS_MW_CLOSEST == (int)HS_WALK_CLOSEST && (int)HS_MW_ALL == (int)HS_WALK_ALL,
               "the moving walk's modes are the walk's");
#define HS_TF_HAS(tf, f) (((tf) & (f)) != 0)

/* The grid walk: the block and its queries, the per-query walk, the block's plan, test and
 * answer steps, then the range walk over blocks. */
#include "block.inl"
#include "wall_test.inl"
#include "walk_run.inl"
#include "walk_query.inl"
#include "walk_moving.inl"
#include "block_moving.inl"
#include "block_plan.inl"
#include HS_WALK_LANES /* block_lanes.inl, or the level's own form */
#include "block_test.inl"
#include "block_answer.inl"
#include "block_plan_rows.inl"
#include "block_walk.inl"

/* made by wall_walk_<isa>.c */
void HS_FN(wall_cells_range)(const hs_wcells_call *c, size_t lo, size_t hi, hs_tally *tally);
int HS_FN(wall_cells_closest)(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall, float *t,
                              uint64_t *tests);

const hs_grid_walkers HS_CAT(hs_grid_walkers_, HS_KNAME) = {
    HS_KISA,
    sizeof(hs_block),
    HS_FN(grid_closest_range),
    HS_FN(grid_any_range),
    HS_FN(grid_count_range),
    HS_FN(grid_all_range),
    HS_FN(trace_range),
    HS_FN(moving_range),
    HS_FN(wall_cells_range),
    HS_FN(wall_cells_closest),
};
