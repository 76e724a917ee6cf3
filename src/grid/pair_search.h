/* SPDX-License-Identifier: MIT */
/* Internal: what a search for pairs on a grid is asked (the front doors pairs.c and
 * swept_pairs.c fill it; pairs_scan.c runs it, pairs_images.c takes its part across a
 * periodic box's edges), and the reach both searches share. Header only. */
#ifndef HITSCAN_GRID_PAIR_SEARCH_H
#define HITSCAN_GRID_PAIR_SEARCH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "grid/layout.h"

/* A search for pairs on a grid: each circle of g tests the disc (tx, ty, tr)[pos] of its
 * storage position against those of the circles within reach.
 * - Overlap pairs (hs_grid_pairs_within): the circles themselves, grown by skin; each pair
 *   goes to the list as (i, j), i < j.
 * - Swept pairs (hs_grid_swept_pairs): each circle's swept disc, with skin 0; each candidate
 *   the discs give is tested exactly (hs_swept_test, on g's circles and the displacements
 *   dx, dy at storage positions) and a touching pair goes to the list as (i, j), i < j, with
 *   its answer. A pair of fast circles (fast[pos] = 1) is left out (the caller finds those);
 *   of a fast and a slow one, the fast one finds it, so no circle searches farther than its
 *   slow partners' displacements; of two slow ones, the one earlier in storage.
 * ext[l][c]: how far beyond the tested disc of a circle the circle of a partner on level l
 * may lie; c = 1 for a circle searching an earlier level (cross pairs), 0 within a level.
 * In a periodic box each circle also searches the images of its partners across the box's
 * edges (pairs_images.c), under the same rules of who keeps a pair. A filter drops the pairs
 * it does not pass before they are tested, which changes none of these rules: it is
 * symmetric, so both circles of a pair agree. */
typedef struct hs_pair_search {
    const hs_grid *g;
    const float *tx, *ty, *tr;
    double skin;
    double ext[HS_GRID_LEVELS][2];
    const uint8_t *fast;  /* NULL: no circle is fast */
    const float *dx, *dy; /* swept: the displacements; NULL for overlap pairs */
    int contacts;         /* overlap pairs: each carries its contact (hs_pair_contact) */
    /* The filter (hitscan/grid.h): the call's collide bits by caller's index, NULL for none;
     * hs_pair_search_run gathers the categories and collide bits into storage order, fcat
     * and fcol, for the searches. */
    const uint32_t *collide;
    const uint32_t *fcat, *fcol;
    /* A bit per level whose own pairs the fine scan finds (pairs_fine.h): the run sets it, the
     * block scan then searches only the other levels from those. */
    uint32_t fine;
} hs_pair_search;

/* How far a tested disc of radius r, |x| = ax and |y| = ay searches level L (index l) (cross:
 * a circle searching an earlier level); monotone in r, ax and ay, so the largest of a few
 * circles' give a reach at least each one's. Overlap pairs are decided in double on
 * the float circles, exactly but for a few double roundings, and the box's corners go through
 * the same cell function as the centres: their pad covers double rounding alone (a float pad
 * would add units of reach far from the origin). Swept discs are float roundings of the
 * motion, whose error grows with the coordinates: they keep the grid's float pad. */
static inline double hs_pair_reach_of(const hs_pair_search *s, const hs_glevel *L, int l, int cross,
                                      float r, float ax, float ay)
{
    const double reach = (double)r + s->ext[l][cross];
    const double mag = L->mag + (double)ax + (double)ay;
    return reach + (s->dx ? hs_gpad(mag, reach) : (mag + reach) * 0x1p-40 + HS_GPAD_ABS);
}

/* The same for the circle at storage position pos. */
static inline double hs_pair_reach(const hs_pair_search *s, const hs_glevel *L, int l, size_t pos,
                                   int cross)
{
    return hs_pair_reach_of(s, L, l, cross, s->tr[pos], fabsf(s->tx[pos]), fabsf(s->ty[pos]));
}

/* The shifts of the partners' images (in periods; pairs_images.c) that a search box
 * [x0, x1] x [y0, y1] may meet among the centres of level L: x from sh[0] to sh[1], y from
 * sh[2] to sh[3], each -1 or 0, then 0 or 1 (all 0: none, or g is not periodic). The image
 * c + s L of a partner lies in the box when c lies in it moved by -s L. */
static inline void hs_pair_image_shifts(const hs_grid *g, const hs_glevel *L, double x0, double y0,
                                        double x1, double y1, int sh[4])
{
    const double Lx = g->period[0], Ly = g->period[1];
    sh[0] = -(Lx > 0.0 && x0 + Lx <= L->bx1);
    sh[1] = Lx > 0.0 && x1 - Lx >= L->ox;
    sh[2] = -(Ly > 0.0 && y0 + Ly <= L->by1);
    sh[3] = Ly > 0.0 && y1 - Ly >= L->oy;
}

#endif
