/* SPDX-License-Identifier: MIT */
/* Internal: the periodic box of a grid (hitscan/grid.h): its checks, the wrap of the centres
 * into it at build time, and the minimum image the pair searches and overlap queries use. */
#ifndef HITSCAN_GRID_PERIODIC_H
#define HITSCAN_GRID_PERIODIC_H

#include <math.h>
#include <stdint.h>

#include "grid/layout.h"

/* Sets g's box from opts: HS_OK, or HS_E_RANGE for a bad box or axis set, HS_E_BOX for a
 * requested cell size above half a period. */
hs_status hs_grid_set_box(hs_grid *g, const hs_grid_opts *opts);

/* The circles the build sorts: cs itself when every centre lies in g's box, else a set in
 * *out over wrapped copies of the periodic coordinates (*keep, freed by the caller with
 * free(), holds them). Refuses (with *bad_index when not NULL) a bad circle as
 * hs_circles_create does, a diameter not below half a period and a centre outside the box on
 * an axis that is not periodic (HS_E_BOX); HS_E_NOMEM for the copies. g is not changed. */
hs_status hs_grid_periodic_input(const hs_grid *g, const hs_circles *cs, hs_circles *out,
                                 float **keep, size_t *bad_index);

/* Whether a pair search whose partners lie at most `reach` apart (the sum of two radii plus
 * a skin, or of two swept discs' radii) sees one image of each partner at most: reach below
 * half of each period, by a relative margin far above the roundings of the tests, so that a
 * pair passing a test under one shift fails it under every other. */
static inline int hs_box_fits(const hs_grid *g, double reach)
{
    const double r = reach * (1.0 + 0x1p-30);
    return (!(g->periodic & HS_PERIODIC_X) || r < 0.5 * g->period[0]) &&
           (!(g->periodic & HS_PERIODIC_Y) || r < 0.5 * g->period[1]);
}

/* The shift (in periods) of the image of a partner at separation d (partner minus searcher,
 * both inside the box) nearest to the searcher: 0 when |d| is at most half the period.
 * Odd in d, so the two circles of a pair agree on it. */
static inline int hs_min_image(double d, double period)
{
    return fabs(d) <= 0.5 * period ? 0 : (d > 0.0 ? -1 : 1);
}

/* The separation of a partner's image from the searcher on one axis, (xk - xp) + s period,
 * in double: odd under swapping the two (with s negated), so both find the same distance. */
static inline double hs_image_sep(float xp, float xk, int s, double period)
{
    return ((double)xk - (double)xp) + (double)s * period;
}

#endif
