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
 * computes level 1's cells, where they are needed, and picks per lane. */
typedef struct hs_cellfn {
    double ox[2], oy[2], ih[2], tx[2], ty[2]; /* per level: origin, 1 / h, last column / row */
    uint32_t nx[2], cell0[2];
    float split; /* radii above: level 1 (INFINITY: one level) */
    int two;
} hs_cellfn;

/* F for the levels of g. */
void hs_cellfn_init(hs_cellfn *F, const hs_grid *g);

/* The cells of circles x, y, r [0, k) into out (r is read only when F has two levels). */
void hs_cells_block(const hs_cellfn *F, const float *restrict x, const float *restrict y,
                    const float *restrict r, size_t k, uint32_t *restrict out);

#endif
