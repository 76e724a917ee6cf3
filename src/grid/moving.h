/* SPDX-License-Identifier: MIT */
/* Internal: the grid's batch queries against moving circles (hs_batch_opts.disp_x / disp_y),
 * which src/grid/query.c hands over to moving.c. */
#ifndef HITSCAN_GRID_MOVING_H
#define HITSCAN_GRID_MOVING_H

#include "batch/all_hits.h"
#include "hitscan/grid.h"

typedef enum { HS_MOVING_CLOSEST, HS_MOVING_ANY, HS_MOVING_COUNT, HS_MOVING_ALL } hs_moving_mode;

/* Where a moving call's answers go, by mode: co, hit, count, or all's hits (out, or with place
 * the caller's memory). */
typedef struct moving_out {
    hs_moving_mode mode;
    hs_closest_out co;
    uint8_t *hit;
    uint32_t *count;
    hs_hits *hits;
    const hs_all_place *place;
} moving_out;

/* Whether opts asks for moving circles (either displacement array set). */
int hs_moving_asked(const hs_batch_opts *opts);

/* The batch call of o->mode with circle i of g moving by (opts->disp_x[i], opts->disp_y[i])
 * (hitscan/batch.h states the contract). */
hs_status hs_moving_query(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                          const moving_out *o);

#endif
