/* SPDX-License-Identifier: MIT */
/* Internal: the search of the disc overlap queries (overlap_visit.c), which the calls of
 * overlap.c (one disc) and overlap_batch.c (many) run. */
#ifndef HITSCAN_GRID_OVERLAP_VISIT_H
#define HITSCAN_GRID_OVERLAP_VISIT_H

#include <stdint.h>

#include "hitscan/grid.h"

/* Calls visit(st, i) once for each circle i of g (the caller's index) that overlaps the
 * valid disc c and passes the filter of hitscan/grid.h: the query mask against the circles'
 * categories (the set's mask) and, when collide is not NULL, the disc's category against
 * collide[i]; in no particular order. In a periodic box each circle is tested at its image
 * nearest to the disc's centre taken modulo the periods. */
typedef void (*hs_disc_visit_fn)(void *st, uint32_t id);
void hs_grid_disc_visit(const hs_grid *g, hs_circle c, uint32_t mask, uint32_t category,
                        const uint32_t *collide, hs_disc_visit_fn visit, void *st);

#endif
