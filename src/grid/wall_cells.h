/* SPDX-License-Identifier: MIT */
/* Internal: a grid's walls listed in cells for thin queries. Square cells of about one wall
 * each cover the walls' box; a cell lists (with a copy of its coordinates) every wall whose
 * capsule, grown by a margin eps, meets it. A query of thickness 0 then walks the cells its
 * segment crosses in order (a 2-D DDA) and tests their walls exactly (wall_core.h), stopping
 * once its best hit lies before the cell it leaves: a hit is a point within w of its wall,
 * so it lies in a cell listing the wall, and the margin covers the rounding of the walk. */
#ifndef HITSCAN_GRID_WALL_CELLS_H
#define HITSCAN_GRID_WALL_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/types.h"
#include "walls.h"

typedef struct hs_wcells {
    double ox, oy, h, inv_h; /* cell (i, j) is [ox + i h, ox + (i+1) h) x [oy + j h, ...) */
    double x_hi, y_hi;       /* the box's far sides: ox + nx h, oy + ny h */
    double eps;              /* the listing's margin */
    double mag;              /* the largest |coordinate| of the cells' box */
    int32_t nx, ny;
    uint32_t *start; /* nx ny + 1: cell c lists entries start[c] .. start[c+1] - 1 */
    /* each entry's wall: its ends, thickness (NULL: every wall thin), mask (NULL: the set
     * has none) and index, in arrays padded by HS_WCELL_PAD so that a vector loads past a
     * cell's last entry */
    float *px, *py, *bx, *by, *w;
    uint32_t *mask, *wall;
} hs_wcells;

/* the widest vector's lanes (16) */
#define HS_WCELL_PAD 16

/* The cell index of coordinate v (relative to the origin) in 0 .. n-1 (a positive f's
 * truncation is its floor; NaN gives 0). */
static inline int32_t hs_wcell_of(double v, double inv_h, int32_t n)
{
    const double f = v * inv_h;
    return !(f > 0.0) ? 0 : f >= (double)n ? n - 1 : (int32_t)f;
}

/* The cells of ws (n > 0, valid walls) in *out: HS_OK, HS_E_NOMEM or HS_E_TOO_MANY. */
hs_status hs_wcells_make(const hs_walls *ws, hs_wcells **out);
void hs_wcells_free(hs_wcells *c);
size_t hs_wcells_bytes(const hs_wcells *c);

#endif
