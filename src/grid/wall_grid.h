/* SPDX-License-Identifier: MIT */
/* Internal: walls in a grid (hs_grid_opts.walls). A grid with walls owns a second grid, of
 * the walls' pieces: each wall is cut into pieces of about one cell, and each piece stands in
 * that grid as a circle (a proxy) holding the piece thickened by the wall's thickness. The
 * walk walks it like any grid (the same levels, partition and block walk); a piece in a cell
 * the query crosses that the pieces' filter keeps (walk/wall_test.inl) is then tested exactly
 * against its whole wall (wall_core.h), and the hit is kept by one
 * piece only: the one whose share of the wall holds the hit (its parameter s in [k/n, (k+1)/n)
 * for piece k of n), so count and all see each wall once. That piece's proxy holds the hit
 * point with a margin (its radius is a sixteenth of a piece above the half-length), so the
 * query's walk reaches it whatever the rounding of s. */
#ifndef HITSCAN_GRID_WALL_GRID_H
#define HITSCAN_GRID_WALL_GRID_H

#include <stdint.h>

#include "grid/layout.h"
#include "grid/wall_cells.h"
#include "invariant.h"
#include "walls.h"

struct hs_gwalls {
    hs_walls *set;     /* the grid's copy of the walls, in the caller's order */
    uint32_t *npieces; /* pieces of each wall */
    uint32_t *piece;   /* the piece number of each storage position of the wall grid */
    /* each storage position's piece, grown by a sixteenth of a piece at each end (within the
     * wall), from (x0, y0) to (x1, y1), and its wall's thickness w: the walk's vector filter */
    float *x0, *y0, *x1, *y1, *w;
    hs_wcells *cells; /* the walls in cells: closest and any of thin queries */
};

/* The piece of n that the wall parameter s in [0, 1] falls in. */
static inline uint32_t hs_gwall_piece_of(double s, uint32_t n)
{
    const double k = s * (double)n;
    return k < (double)n ? (uint32_t)k : n - 1u; /* s = 1 is the last piece's */
}

/* The wall of storage position pos of the wall grid g against the prepared query k: 1 (and
 * *h) when it hits the wall and the hit lies on this position's piece. */
static inline int hs_gwall_hits(const hs_grid *g, uint32_t pos, const hs_kq *k, hs_wall_hit *h)
{
    const struct hs_gwalls *W = g->walls;
    const hs_walls *s = W->set;
    const uint32_t i = g->id[pos];
    HS_ASSERT(i < s->n);
    if (((s->mask ? s->mask[i] : ~0u) & k->mask) == 0u)
        return 0;
    const hs_kwall wl = {s->ax[i], s->ay[i], s->bx[i], s->by[i], s->w ? s->w[i] : 0.0f};
    if (!hs_wall_hits_as(k, &wl, h, 0))
        return 0;
    const uint32_t n = W->npieces[i];
    return n == 1u || hs_gwall_piece_of(h->s, n) == W->piece[pos];
}

/* The grid of g's walls and the walls freed (g then has none). */
void hs_grid_walls_free(hs_grid *g);
/* Bytes g's walls take: their copy, pieces and grid. */
size_t hs_grid_walls_bytes(const hs_grid *g);

#endif
