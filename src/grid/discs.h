/* SPDX-License-Identifier: MIT */
/* Internal: the disc overlap predicates shared by pairs, swept pairs and disc queries, the
 * filter every one of them applies, and the index order they report in. Header only, below
 * every search that uses it. */
#ifndef HITSCAN_GRID_DISCS_H
#define HITSCAN_GRID_DISCS_H

#include <stdint.h>

/* Touching counts. Symmetric in its two circles, bit for bit, so (i, j) and (j, i) always
 * agree. In double: float squares of separations below 1e-19 underflow (two points 1e-30
 * apart would touch), and double neither underflows nor overflows for any float input up to
 * HS_MAX_COORD. */
static inline int hs_discs_overlap(float xa, float ya, float ra, float xb, float yb, float rb)
{
    double dx = (double)xa - (double)xb, dy = (double)ya - (double)yb;
    double s = (double)ra + (double)rb;
    return dx * dx + dy * dy <= s * s;
}

/* Within a cutoff: the gap between the two discs is at most skin >= 0 (skin = 0: exactly
 * hs_discs_overlap, since (ra + rb) + 0 is ra + rb). Symmetric as hs_discs_overlap: the sum
 * ra + rb is taken first, and IEEE addition commutes. */
static inline int hs_discs_within(float xa, float ya, float ra, float xb, float yb, float rb,
                                  double skin)
{
    double dx = (double)xa - (double)xb, dy = (double)ya - (double)yb;
    double s = ((double)ra + (double)rb) + skin;
    return dx * dx + dy * dy <= s * s;
}

/* The filter of hitscan/grid.h (Box2D's b2ShouldShapesCollide without groups): 1 when a
 * (category bits ca, collide bits ma) and b (cb, mb) may pair, 0 otherwise. Symmetric, and
 * without a branch, so a run of candidates is filtered a vector at a time. */
static inline uint32_t hs_filter_pass(uint32_t ca, uint32_t ma, uint32_t cb, uint32_t mb)
{
    return (uint32_t)((ca & mb) != 0u) & (uint32_t)((cb & ma) != 0u);
}

/* qsort's comparison of two uint32_t. */
static inline int hs_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

#endif
