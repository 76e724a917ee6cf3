/* SPDX-License-Identifier: MIT */
/* Internal: the per-ISA grid walkers: a range of a batch through the grid, with the pair test
 * inlined into the walk (block_walk.inl and the files it builds on). */
#ifndef HITSCAN_WALK_WALKERS_H
#define HITSCAN_WALK_WALKERS_H

#include <stddef.h>
#include <stdint.h>

#include "batch/hitbuf.h"
#include "batch/tally.h"
#include "core.h"
#include "grid/layout.h"
#include "grid/order.h"
#include "grid/wall_cells.h"
#include "hitscan/batch.h"

/* A range of a batch for a walker: positions k = lo .. hi-1 of qs, position k being the
 * caller's query i = ord->perm[k] (ord NULL: i = k), walked with semantics sem. Invalid
 * queries are answered as misses and counted in tally (first: the lowest such i, left alone
 * when ord has no perm); tally->tests += the circle tests made (padding lanes included).
 * state: the calling thread's working state, state_bytes bytes aligned to HS_WALK_STATE_ALIGN,
 * contents undefined (the walk keeps a few kilobytes on the stack at most, so a thread with a
 * small stack can run it). */
typedef struct hs_walk_range {
    const hs_grid *g;
    const hs_queries *qs;
    const hs_qorder *ord;
    hs_semantics sem;
    size_t lo, hi;
    hs_tally *tally;
    void *state;
    /* closest_range: bound[i], a t past which no circle of the caller's query i is wanted
     * (NULL: none), read through ord's perm (made for it: order.h's HS_STAGE_PERM). The
     * query's best starts at (bound, no circle), so its walk stops there, and it answers no
     * hit unless a circle comes first (at an equal t, the circle); every circle's t is the
     * unbounded walk's. any_range: bound[i] < +inf answers query i as a hit without a walk. */
    const float *bound;
} hs_walk_range;

/* Each walker answers a range with the answers of the brute-force kernels at the same level:
 *   closest_range: out.*[i], or staged in ord's records when ord->inv is set;
 *   any_range / count_range: hit[i] / count[i], or staged likewise;
 *   all_range: appends each position's hits (unsorted within a query), position by position,
 *     to buf and writes their number to cnt[k]; HS_OK or HS_E_NOMEM. */
#define HS_WALK_STATE_ALIGN 64

/* What a walk planned, for the walk's own tests: each item (up to a vector of consecutive
 * circles of one query) as the caller's query, the storage position of its first circle and
 * its number of circles. n counts every item; the first cap are stored. */
typedef struct hs_plan_trace {
    size_t n, cap;
    uint32_t *query, *start, *lanes;
} hs_plan_trace;

/* Circles moving by (dx[p], dy[p]) at storage position p (hs_batch_opts.disp_x / disp_y in the
 * grid's order): dmax the largest |(dx, dy)| and rmax the largest radius, both rounded up. */
typedef struct hs_moving_set {
    const float *dx, *dy;
    double dmax, rmax;
} hs_moving_set;

/* The moving walk's modes (the walk's own numbers) and outputs: closest's co, any's hit and
 * count's count at the caller's index; all's hits appended to buf, their number to cnt[k] by
 * batch position. */
enum { HS_MW_ANY, HS_MW_COUNT, HS_MW_CLOSEST, HS_MW_ALL };
typedef struct hs_moving_walk_out {
    int mode;
    hs_closest_out co;
    uint8_t *hit;
    uint32_t *count;
    hs_hitbuf *buf;
    uint32_t *cnt;
} hs_moving_walk_out;

/* A batch's closest or any against a grid's walls by their cells (wall_cells.h), every query
 * thin: position p is the caller's query ord->perm[p] (ord->rec NULL: query p in the batch's
 * order), read from its record when ord->rec is set. Answers: closest's (wall, t) in wi, wt
 * (a miss: HS_NONE, +inf) or any's flag in hit (when hit is set), at position p, or staged
 * over the record when ord->inv is set (hs_qorder_unstage copies them out). */
typedef struct hs_wcells_call {
    const hs_wcells *cells;
    const hs_queries *qs;
    const hs_qorder *ord;
    hs_semantics sem;
    uint32_t *wi;
    float *wt;
    uint8_t *hit;
} hs_wcells_call;

typedef struct hs_grid_walkers {
    hs_isa isa;
    size_t state_bytes;
    void (*closest_range)(const hs_walk_range *r, hs_closest_out out);
    void (*any_range)(const hs_walk_range *r, uint8_t *hit);
    void (*count_range)(const hs_walk_range *r, uint32_t *count);
    hs_status (*all_range)(const hs_walk_range *r, hs_hitbuf *buf, uint32_t *cnt);
    /* For tests: the range (no order, HS_SOLID) walked as count_range (closest = 0, counts to
     * count) or closest_range (closest = 1, answers to co) walks it, with every item tested
     * recorded in trace. Queries the block does not take (walked alone) record nothing. */
    void (*trace_range)(const hs_walk_range *r, int closest, uint32_t *count, hs_closest_out co,
                        hs_plan_trace *trace);
    /* The range (order: NULL or with perm) against the circles moving by mv, in o->mode:
     * invalid queries (and rays and lines, which have no finite interval) are misses counted
     * in the tally; tests += the walk's tests, as the other walkers count them. HS_OK or
     * HS_E_NOMEM (all). state as for the others. */
    hs_status (*moving_range)(const hs_walk_range *r, const hs_moving_set *mv,
                              const hs_moving_walk_out *o);
    /* Positions lo .. hi-1 of c (wall_walk.inl): each query's closest wall (ties in t to the
     * smaller index, -0 as +0, as the grid's closest) or, with c->hit, whether it hits one.
     * Invalid queries are misses (the circles' walk counts them); tally->tests += the entries
     * the filter left near. */
    void (*wall_cells_range)(const hs_wcells_call *c, size_t lo, size_t hi, hs_tally *tally);
    /* One prepared query k (q = 0) as wall_cells_range walks it: 1 with *wall and *t on a hit
     * (with any, the first hit found), else 0; *tests as for the range. */
    int (*wall_cells_closest)(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall, float *t,
                              uint64_t *tests);
} hs_grid_walkers;

/* The walkers of a level, with hs_kernels_get's rules (NULL: not compiled in or not
 * supported by this CPU). */
const hs_grid_walkers *hs_grid_walkers_get(hs_isa isa);

#endif
