/* SPDX-License-Identifier: MIT */
/* Internal: a crowded cell's circles in sub-cells, for the pair search. A level's cells are
 * sized for queries, which cross them; a pair's box is a few radii wide and, in a cluster, a
 * cell holds dozens of circles it would test in vain. So a cell holding m circles is cut into
 * k x k sub-cells, k = hs_subcell_k(L, m), and its circles are stored sub-cell by sub-cell
 * (row-major), the storage of the cell itself unchanged: every reader of whole cells is
 * unaffected. Sub-cell s (< k k) of a cell whose circles start at storage position p starts at
 * g->sub[p + s] and ends where s + 1 starts (the cell's end for the last): k k <= m, so the
 * table fits in the cell's own positions. The sub-cell of a coordinate is a monotone function
 * of it within its cell (hs_subcell_of, on the same double f as hs_gcell), so the sub-cells a
 * box derives hold every circle inside it. */
#ifndef HITSCAN_GRID_SUBCELLS_H
#define HITSCAN_GRID_SUBCELLS_H

#include <stdint.h>

#include "grid/layout.h"
#include "tuning.h"

/* Sub-cells per side of a cell of L holding m circles: 1 (not cut) below HS_SUBCELL_CUT, else
 * at most L->sub_max, and at least HS_SUBCELL_FILL circles a sub-cell on average. */
static inline uint32_t hs_subcell_k(const hs_glevel *L, uint32_t m)
{
    uint32_t k = 1;
    if (m < HS_SUBCELL_CUT)
        return 1;
    while (k < L->sub_max && (k + 1) * (k + 1) * HS_SUBCELL_FILL <= m)
        k++;
    return k;
}

/* The sub-cell column (or row) of coordinate v in column (row) `cell` of a level with origin o
 * and 1 / h inv_h, k sub-cells a side: clamped to [0, k - 1], monotone in v. */
static inline uint32_t hs_subcell_at(double fc, int32_t cell, uint32_t k) /* fc = (v - o) inv_h */
{
    double f = (fc - (double)cell) * (double)k;
    f = f >= 0.0 ? f : 0.0; /* NaN too; without branches, so that the build's loop vectorises */
    f = f <= (double)(k - 1) ? f : (double)(k - 1);
    return (uint32_t)(int32_t)f; /* f in [0, k - 1] */
}

static inline uint32_t hs_subcell_of(double v, double o, double inv_h, int32_t cell, uint32_t k)
{
    return hs_subcell_at((v - o) * inv_h, cell, k);
}

#endif
