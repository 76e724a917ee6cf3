/* SPDX-License-Identifier: MIT */
/* Internal: the grid build's named passes, run in order by build.c:
 *   1. hs_grid_plan_levels (levels.c): the split radius, each level's bounds, largest radius
 *      and cell shape, and where its cells start;
 *   2. storage (build.c): cell_start and the circle arrays, padded for whole-vector loads;
 *   3. hs_grid_sort (sort.c): the circles into storage cell by cell, cell_start as CSR, each
 *      crowded cell's circles ordered by sub-cell (subcells.c);
 *   4. hs_grid_occupancy (occupancy.c): the occupancy bits of the levels that are mostly empty;
 *   5. hs_grid_level_weights (levels.c): each level's hs_glevel.meet, from its stored radii;
 *   6. hs_grid_mark_repeats (repeats.c): with enough repeated circles, passes 1-5 again with
 *      them in a level of their own.
 * Every pass is deterministic and independent of the team size, so the grid is too. */
#ifndef HITSCAN_GRID_BUILD_H
#define HITSCAN_GRID_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "circles.h"
#include "batch/parallel.h"
#include "grid/layout.h"

/* The grid of cs's circles as hs_grid_build makes it, without opts->walls (lifetime.c adds
 * them); its memory freed (no walls); its bytes (no walls). repeats_apart: 1 to set repeated
 * circles apart (repeats.c); 0 where equal circles are not interchangeable (a wall grid's
 * proxies). */
hs_status hs_grid_make(const hs_circles *cs, const hs_grid_opts *opts, int repeats_apart,
                       hs_grid **out);
void hs_grid_free(hs_grid *g);
size_t hs_grid_storage_bytes(const hs_grid *g);

/* Sets g->n, the levels (g->lv, g->nlevels, g->split_r) and g->ncells from cs; HS_OK or
 * HS_E_TOO_MANY (more cells than 32-bit indices address). The circles are validated as
 * hs_circles_create does (their arrays may be borrowed and changed since): on a bad one it
 * returns that code with *bad_index (if not NULL) set, and g is left unchanged. repeats: 1
 * when g->slot_of holds hs_grid_mark_repeats' marks, whose circles go to the repeats' level. */
hs_status hs_grid_plan_levels(hs_grid *g, const hs_circles *cs, int repeats, const hs_par *par,
                              size_t *bad_index);

/* Sorts cs into g's storage (allocated for g->n circles) and fills cell_start; HS_OK or
 * HS_E_NOMEM (the build's scratch). */
hs_status hs_grid_sort(hs_grid *g, const hs_circles *cs, const hs_par *par);

/* The k-th smallest of a[0 .. n) (a is permuted): the value a sort would put at a[k]. The
 * values must be free of NaN, so that < is a total order. */
float hs_select_kth(float *a, size_t n, size_t k);

/* One circle while the sort moves it: the four fields side by side, so a scatter writes one
 * line instead of four. */
typedef struct hs_grec {
    float x, y, r;
    uint32_t id;
} hs_grec;

/* Before the sort: each level's sub_max (subcells.h), and g->sub allocated when a level may
 * have cut cells; HS_OK or HS_E_NOMEM. */
hs_status hs_grid_subcells_plan(hs_grid *g);

/* The cut cells among cells [c0, c1) (storage [p0, p1)), whose cell_start entries are final:
 * their circles are rec[pos - p0] (masks mask[pos - p0], NULL without masks; key: room for as many
 * bytes as the largest cell holds) and are written to storage in sub-cell order, with g->sub. */
void hs_grid_cut_band(hs_grid *g, size_t c0, size_t c1, size_t p0, size_t p1, const hs_grec *rec,
                      const uint32_t *mask, uint8_t *key);

/* The same for cells whose circles are in storage only (read back first); HS_OK or
 * HS_E_NOMEM. */
hs_status hs_grid_cut_stored(hs_grid *g, size_t c0, size_t c1);

/* Sets each level's occ from cell_start; HS_OK or HS_E_NOMEM. */
hs_status hs_grid_occupancy(hs_grid *g);

/* After a build: marks in g->slot_of (grown to g->n bytes, by index) every circle equal in
 * x, y, r and mask to one of a smaller index, in cells of at least HS_REPEAT_CELL circles;
 * returns how many (0 as well when memory ran out). */
size_t hs_grid_mark_repeats(hs_grid *g);

/* Sets each level's meet from the radii in storage (a fixed-stride sample of at most
 * HS_GRID_MEET_SAMPLE of them). */
void hs_grid_level_weights(hs_grid *g);

#endif
