/* SPDX-License-Identifier: MIT */
/* Internal: the engines behind the grid's batch calls. The front door (query.c) checks a call
 * once, opens its workspace and picks one engine: plain (plain.c: the circles where they lie),
 * periodic (periodic_query.c: a query cut into its pieces near each image of the box, the
 * pieces answered by the plain walk, or by the moving engine when the circles move) or moving
 * (moving.c: circles moving by hs_batch_opts.disp_x / disp_y). Engines call the steps below
 * and the walkers (walk/walkers.h), never the public calls. */
#ifndef HITSCAN_GRID_ENGINE_H
#define HITSCAN_GRID_ENGINE_H

#include <stdint.h>

#include "batch/all_hits.h"
#include "batch/driver.h"
#include "batch/workspace.h"
#include "grid/layout.h"
#include "grid/order.h"
#include "walk/walkers.h"

typedef enum hs_grid_mode { HS_GRID_CLOSEST, HS_GRID_ANY, HS_GRID_COUNT, HS_GRID_ALL } hs_grid_mode;

/* One call's outputs (the ones of its mode): closest's co, any's hit, count's count; all's
 * out, or with place the caller's arrays. */
typedef struct hs_grid_out {
    hs_grid_mode mode;
    hs_closest_out co;
    uint8_t *hit;
    uint32_t *count;
    hs_hits *out;
    const hs_all_place *place;
} hs_grid_out;

/* What every engine gets from the front door: the grid, the batch, the options, the batch's
 * set-up (hs_batch_begin: checks, level, team, chunk), the open workspace, the outputs, and
 * whether the circles move (opts->disp_x / disp_y, checked). */
typedef struct hs_grid_call {
    const hs_grid *g;
    const hs_queries *qs;
    const hs_batch_opts *opts;
    const hs_batch_setup *b;
    hs_workspace *ws;
    const hs_grid_out *o;
    int moving;
    /* closest and any, plain engine: per caller's query, a t past which no circle is wanted
     * (a wall's hit, wall_query.c; any: any finite t answers the query), or NULL; walkers.h's
     * hs_walk_range.bound */
    const float *bound;
} hs_grid_call;

hs_status hs_engine_plain(const hs_grid_call *c);
hs_status hs_engine_periodic(const hs_grid_call *c);
hs_status hs_engine_moving(const hs_grid_call *c);

/* ---- Steps the engines share (engine.c) ----------------------------------------------- */

/* A range of batch positions answered on slot tid of the team, its tests and invalid queries
 * added to *tally. */
typedef void (*hs_grid_range_fn)(const void *ctx, size_t lo, size_t hi, int tid, hs_tally *tally);

/* Positions 0 .. n-1 in ranges of at least HS_RANGE_MIN (b->chunk) on b's team with the
 * work-stealing schedule (batch/worksteal.h: each thread sweeps its own stretch of the
 * batch, in its locality order); the whole batch's tally. */
hs_tally hs_grid_ranges(const hs_batch_setup *b, size_t n, hs_grid_range_fn fn, const void *ctx);

/* Room for one walk state per thread of b's team (ws's HS_WS_WALK slot; NULL: no memory), and
 * slot tid's. */
unsigned char *hs_walk_states(hs_workspace *ws, const hs_grid_walkers *gw, int threads);
void *hs_walk_state(unsigned char *states, const hs_grid_walkers *gw, int tid);

/* The displacements of c's moving circles in the grid's order (ws's HS_WS_MOVE) and the
 * bounds the walk grows queries by (moving.c): HS_OK or HS_E_NOMEM. */
hs_status hs_moving_set_make(const hs_grid_call *c, hs_moving_set *mv);

/* The team of opts (the caller's task system, or the library's). */
hs_par hs_grid_team(const hs_batch_opts *opts);

/* Whether o lacks an output a batch of m queries needs (none when m is 0, but all's). */
int hs_grid_out_missing(size_t m, const hs_grid_out *o);

#endif
