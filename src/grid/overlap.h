/* SPDX-License-Identifier: MIT */
/* Internal: the disc overlap predicate shared by pairs and disc queries, and the index order
 * both report in. */
#ifndef HITSCAN_GRID_OVERLAP_H
#define HITSCAN_GRID_OVERLAP_H

#include <stdint.h>

#include "hitscan/grid.h"

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

/* Calls visit(st, i) once for each circle i of g (the caller's index) that overlaps the
 * valid disc c and passes the query mask, in no particular order. In a periodic box each
 * circle is tested at its image nearest to the disc's centre taken modulo the periods
 * (overlap_visit.c). */
typedef void (*hs_disc_visit_fn)(void *st, uint32_t id);
void hs_grid_disc_visit(const hs_grid *g, hs_circle c, uint32_t mask, hs_disc_visit_fn visit,
                        void *st);

/* qsort's comparison of two uint32_t. */
static inline int hs_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

#endif
