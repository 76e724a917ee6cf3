/* SPDX-License-Identifier: MIT */
/* Internal: the grid's batch calls (query.c) on the circles as they lie, and their periodic
 * counterparts (periodic_query.c), which answer a query as its pieces near each image of the
 * box it passes. */
#ifndef HITSCAN_GRID_QUERY_H
#define HITSCAN_GRID_QUERY_H

#include <stdint.h>

#include "batch/all_hits.h"
#include "grid/layout.h"

typedef enum hs_grid_mode { HS_GRID_CLOSEST, HS_GRID_ANY, HS_GRID_COUNT } hs_grid_mode;

/* One closest / any / count call's outputs (the one of its mode). */
typedef struct hs_grid_out {
    hs_grid_mode mode;
    hs_closest_out co;
    uint8_t *hit;
    uint32_t *count;
} hs_grid_out;

/* hs_grid_closest / _any / _count_hits, and hs_grid_all / _all_into (out or place), without
 * a periodic box: the circles are seen where they lie. */
hs_status hs_grid_walk_plain(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             const hs_grid_out *o);
hs_status hs_grid_all_plain(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                            hs_hits *out, const hs_all_place *place);

/* The same in g's periodic box (grid.h). */
hs_status hs_grid_periodic_walk(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                                const hs_grid_out *o);
hs_status hs_grid_periodic_all(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                               hs_hits *out, const hs_all_place *place);

#endif
