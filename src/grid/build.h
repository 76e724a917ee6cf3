/* Internal: the grid build's named passes, run in order by build.c:
 *   1. hs_grid_plan_levels (levels.c): the split radius, each level's bounds, largest radius
 *      and cell shape, and where its cells start;
 *   2. storage (build.c): cell_start and the circle arrays, padded for whole-vector loads;
 *   3. hs_grid_sort (sort.c): the circles into storage cell by cell, cell_start as CSR;
 *   4. hs_grid_occupancy (occupancy.c): the occupancy bits of the levels that are mostly empty;
 *   5. hs_grid_level_weights (levels.c): each level's hs_glevel.meet, from its stored radii.
 * Every pass is deterministic and independent of the team size, so the grid is too. */
#ifndef HITSCAN_GRID_BUILD_H
#define HITSCAN_GRID_BUILD_H

#include <stddef.h>

#include "circles.h"
#include "grid/layout.h"

/* The build's team: g->threads (0: OpenMP's default), at most HS_GRID_MAX_BUILD_THREADS and
 * one per HS_GRID_MIN_PER_THREAD circles. */
int hs_grid_build_threads(const hs_grid *g, size_t n);

/* Sets g->n, the levels (g->lv, g->nlevels, g->split_r) and g->ncells from cs; HS_OK or
 * HS_E_TOO_MANY (more cells than 32-bit indices address). */
hs_status hs_grid_plan_levels(hs_grid *g, const hs_circles *cs, int threads);

/* Sorts cs into g's storage (allocated for g->n circles) and fills cell_start; HS_OK or
 * HS_E_NOMEM (the build's scratch). */
hs_status hs_grid_sort(hs_grid *g, const hs_circles *cs, int threads);

/* Sets each level's occ from cell_start; HS_OK or HS_E_NOMEM. */
hs_status hs_grid_occupancy(hs_grid *g);

/* Sets each level's meet from the radii in storage (a fixed-stride sample of at most
 * HS_GRID_MEET_SAMPLE of them). */
void hs_grid_level_weights(hs_grid *g);

/* p with room for at least `need` elements of elem bytes (realloc; contents kept), *cap
 * updated; NULL on failure (p is then still valid). */
void *hs_grid_grow(void *p, size_t *cap, size_t need, size_t elem);

/* n elements of elem bytes, 64-byte aligned (NULL on failure or overflow); huge pages for
 * large arrays where the system allows. */
void *hs_grid_alloc_lines(size_t n, size_t elem);

#endif
