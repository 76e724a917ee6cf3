/* SPDX-License-Identifier: MIT */
/* Internal: a grid's walls in its batch calls (wall_query.c). Each merge takes the circles'
 * answers and their status s (already in the outputs), adds the walls' when the grid has
 * walls and s answered the batch, and returns s, or the walls' call's error. closest also
 * writes out.kind. */
#ifndef HITSCAN_GRID_WALL_QUERY_H
#define HITSCAN_GRID_WALL_QUERY_H

#include "batch/all_hits.h"
#include "grid/layout.h"

hs_status hs_walls_merge_closest(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                                 hs_closest_out out, hs_status s);
hs_status hs_walls_merge_any(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             uint8_t *hit, hs_status s);
hs_status hs_walls_merge_count(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                               uint32_t *count, hs_status s);
/* All hits of a grid with walls: the circles' list by `circles` (into memory of its own), the
 * walls', merged into out or through place. */
hs_status hs_walls_all(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                       hs_hits *out, const hs_all_place *place,
                       hs_status (*circles)(const hs_grid *, const hs_queries *,
                                            const hs_batch_opts *, hs_hits *));

#endif
