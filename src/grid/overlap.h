/* Internal: the disc overlap predicate shared by pairs and disc queries, and the index order
 * both report in. */
#ifndef HITSCAN_GRID_OVERLAP_H
#define HITSCAN_GRID_OVERLAP_H

#include <stdint.h>

/* Touching counts. Symmetric in its two circles, bit for bit, so (i, j) and (j, i) always
 * agree. */
static inline int hs_discs_overlap(float xa, float ya, float ra, float xb, float yb, float rb)
{
    float dx = xa - xb, dy = ya - yb, s = ra + rb;
    return dx * dx + dy * dy <= s * s;
}

/* qsort's comparison of two uint32_t. */
static inline int hs_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

#endif
