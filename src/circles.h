/* SPDX-License-Identifier: MIT */
/* Internal: the circle set's layout (hitscan/batch.h's hs_circles) and the vector width its
 * copies are aligned and padded to. */
#ifndef HITSCAN_CIRCLES_H
#define HITSCAN_CIRCLES_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/batch.h"

/* Widest vector any level uses, in bytes and floats: copies are aligned and padded to it. */
#define HS_ALIGN 64
#define HS_PAD_FLOATS 16

struct hs_circles {
    const float *x, *y, *r;
    const uint32_t *mask; /* NULL: no filter */
    size_t n;
    void *owned; /* one block holding the copies, or NULL when borrowed */
};

/* Validates circles i0 .. i1-1 of cs as hs_circles_create does (a borrowed set's arrays may
 * have changed since): HS_OK, or the first bad circle's code with *bad_index (if not NULL). */
hs_status hs_circles_check(const hs_circles *cs, size_t i0, size_t i1, size_t *bad_index);

#endif
