/* SPDX-License-Identifier: MIT */
/* Internal: the wall set's layout (hitscan/walls.h's hs_walls), aligned and padded like the
 * circle sets (circles.h). */
#ifndef HITSCAN_WALLS_INTERNAL_H
#define HITSCAN_WALLS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/walls.h"

struct hs_walls {
    const float *ax, *ay, *bx, *by;
    const float *w;       /* NULL: every wall thin */
    const uint32_t *mask; /* NULL: no filter */
    size_t n;
    void *owned; /* one block holding the copies, or NULL when borrowed */
};

#endif
