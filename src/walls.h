/* SPDX-License-Identifier: MIT */
/* Internal: the wall set's layout (hitscan/walls.h's hs_walls), aligned and padded like the
 * circle sets (circles.h). */
#ifndef HITSCAN_WALLS_INTERNAL_H
#define HITSCAN_WALLS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/walls.h"
#include "wall_core.h"

struct hs_walls {
    const float *ax, *ay, *bx, *by;
    const float *w;       /* NULL: every wall thin */
    const uint32_t *mask; /* NULL: no filter */
    size_t n;
    void *owned; /* one block holding the copies, or NULL when borrowed */
};

/* The first wall the prepared query k hits, by testing every wall (scalar, the reference the
 * faster paths are checked against): 1 with *index and *hit, 0 on a miss. Walls whose mask
 * shares no bit with k's are skipped (a query mask of 0 passes none). Ties in t go to the
 * smaller index. */
int hs_walls_brute_closest(const hs_walls *ws, const hs_kq *k, uint32_t *index, hs_wall_hit *hit);

#endif
