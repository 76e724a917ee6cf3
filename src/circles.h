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

#endif
