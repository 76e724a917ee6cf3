/* SPDX-License-Identifier: MIT */
/* Internal: the spatial partition of the small circles into the grid's levels, so that the
 * cells follow where the circles are rather than their bounding box.
 *
 * One uniform grid over the bounding box of every circle falls over on scenes users have: one
 * circle parked far away, two clusters far apart, a dense crowd in a wide world. Each makes
 * the cells as large as the box allows, and a query then tests thousands of circles. The
 * partition is the top of a two-level structure in the spirit of Kalojanov, Billeter and
 * Slusallek, "Two-Level Grids for Ray Tracing on GPUs" (2011): a small k-d tree, planned from a
 * fixed-stride sample of the centres, cuts the world where the density changes; each of its
 * leaves becomes a level with its own bounds and its own cell size, from its own count. A
 * circle outside its leaf's box (grown by a margin: what the sample did not see, an outlier
 * above all) goes to one more level, the outliers', which is sized by its own few circles. A
 * uniform scene plans one leaf, and its grid is the single-level grid, cell for cell.
 *
 * The plan reads the sample only, so it costs the same for every N; every circle is then
 * classified by at most HS_PART_DEPTH comparisons. Both are deterministic and independent of
 * the team size. */
#ifndef HITSCAN_GRID_PARTITION_H
#define HITSCAN_GRID_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "circles.h"

#define HS_PART_DEPTH 4                     /* cuts on the way to any leaf */
#define HS_PART_LEAVES (1 << HS_PART_DEPTH) /* at most */
#define HS_PART_INNER (HS_PART_LEAVES - 1)

/* The slots a circle is classified into: leaves 0 .. nleaves-1, then the outliers, then the
 * repeats (circles equal to an earlier one: repeats.c), then the big circles (radius above
 * the split). Levels are made of the non-empty slots, in this order. */
#define HS_PART_SLOTS (HS_PART_LEAVES + 3)
#define HS_PART_OUTLIERS(P) ((P)->nleaves)
#define HS_PART_REPEATS(P) ((P)->nleaves + 1)
#define HS_PART_BIG(P) ((P)->nleaves + 2)

/* The tree is complete, HS_PART_DEPTH cuts deep, so that a circle's way down has no branch:
 * node k's children are 2k + 1 and 2k + 2 (the second when the coordinate is >= the cut). A
 * leaf planned higher up passes through cuts of +inf, and every bottom position below it
 * names it. */
typedef struct hs_gpart {
    int nleaves;
    float split;                  /* radii above: the big circles' slot */
    float cut[HS_PART_INNER];     /* inner node k's cut ... */
    uint8_t axis[HS_PART_INNER];  /* ... on x (0) or y (1) */
    uint8_t leaf[HS_PART_LEAVES]; /* the leaf at each bottom position */
    float box[HS_PART_LEAVES][4]; /* a leaf's accepted centres: x0, y0, x1, y1 */
    /* the share of a leaf's box its circles fill, from its sample (1: uniform, down to
     * HS_PART_MIN_FILL): its cells are sized for the filled area, not the box */
    float fill[HS_PART_LEAVES];
    /* 1: the build's slot_of named the repeats first (repeats.c), so every circle is
     * classified one by one and its slot kept, whatever the leaves */
    uint8_t repeats;
} hs_gpart;

/* Plans P for the circles of cs whose radius is at most split, from a fixed-stride sample.
 * HS_OK or HS_E_NOMEM (the sample's memory). */
hs_status hs_gpart_plan(hs_gpart *P, const hs_circles *cs, float split);

/* The slot of a circle (validated: finite, not NaN), repeats aside. */
static inline int hs_gpart_slot(const hs_gpart *P, float x, float y, float r)
{
    if (r > P->split)
        return HS_PART_BIG(P);
    unsigned k = 0;
    for (int d = 0; d < HS_PART_DEPTH; d++)
        k = 2u * k + 1u + (unsigned)((P->axis[k] ? y : x) >= P->cut[k]);
    const int leaf = P->leaf[k - HS_PART_INNER];
    const float *b = P->box[leaf];
    return (x >= b[0] && y >= b[1] && x <= b[2] && y <= b[3]) ? leaf : HS_PART_OUTLIERS(P);
}

#endif
