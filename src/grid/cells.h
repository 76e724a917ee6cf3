/* SPDX-License-Identifier: MIT */
/* Internal: the grid build's per-circle cell (build.h's sort pass), computed a block of circles
 * at a time. */
#ifndef HITSCAN_GRID_CELLS_H
#define HITSCAN_GRID_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "grid/layout.h"

/* The per-circle cell is most of the build's arithmetic (three times per circle), so it is
 * compiled as HS_GRID_CLONES. The operations are the same IEEE double ones in every clone
 * (nothing to contract into an FMA), so the cells are.
 *
 * The cell of a circle: hs_gcell along each axis in the circle's level, written without
 * branches (f clamped to [0, n - 1] before truncation gives the same value for every f, NaN
 * included) so that a block of circles vectorises. A block holding a level-1 circle also
 * computes level 1's cells, where they are needed, and picks per lane. A grid whose small
 * circles are split over several levels (partition.h) classifies each circle of a block that
 * is not plainly in level 0. */
typedef struct hs_cellfn {
    /* per level: origin, 1 / h, last column / row */
    double ox[HS_GRID_LEVELS], oy[HS_GRID_LEVELS], ih[HS_GRID_LEVELS], tx[HS_GRID_LEVELS],
        ty[HS_GRID_LEVELS];
    uint32_t nx[HS_GRID_LEVELS], cell0[HS_GRID_LEVELS];
    float split; /* radii above: the big circles' level (INFINITY: none) */
    int two;     /* 0: one level; 1: small circles in level 0 but big ones; 2: a partition */
    const hs_gpart *part;
    const int8_t *slot_level;
    const uint8_t *slot_of; /* hs_grid.slot_of of a partition of several leaves, else NULL */
} hs_cellfn;

/* F for the levels of g. */
void hs_cellfn_init(hs_cellfn *F, const hs_grid *g);

/* The level whose cells hold cells [c0, c1) of F, or -1 when they span more than one. */
int hs_cellfn_level_of(const hs_cellfn *F, int nlevels, size_t c0, size_t c1);

/* F restricted to level l (its circles alone): no radius or partition to read. */
void hs_cellfn_one_level(hs_cellfn *dst, const hs_cellfn *F, int l);

/* The cells of circles x, y, r [0, k) into out (r is read only when F has two levels). slot:
 * the circles' slots (hs_grid.slot_of at their input index), required when F has a partition
 * of several leaves (F->slot_of set); else NULL. */
void hs_cells_block(const hs_cellfn *F, const float *restrict x, const float *restrict y,
                    const float *restrict r, const uint8_t *restrict slot, size_t k,
                    uint32_t *restrict out);

#endif
