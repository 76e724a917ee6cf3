/* SPDX-License-Identifier: MIT */
/* The search of the disc overlap queries (overlap.h's hs_grid_disc_visit): the cells of each
 * level around the disc, and in a periodic box those around its images. A circle of a
 * periodic grid is tested at its image nearest to the disc's centre, wrapped into the box in
 * double: the one image that can touch the disc first (per axis the nearest image is the
 * closest), so each circle is visited once whatever the disc's size. The search looks as far
 * as that image can lie: half a period, plus the pad of the grid's roundings. */
#include <math.h>

#include "grid/layout.h"
#include "grid/discs.h"
#include "grid/overlap_visit.h"

typedef struct visit_scan {
    const hs_grid *g;
    double x, y; /* the disc's centre (in a periodic box: wrapped into it) */
    float r;
    uint32_t mask, category;
    const uint32_t *collide; /* NULL: no collide bits */
    double sx, sy;           /* the shift of the images this run looks at (periods) */
    hs_disc_visit_fn visit;
    void *st;
} visit_scan;

/* Whether the circle at storage position k passes the filter: the disc's mask against its
 * category (every bit without masks), the disc's category against its collide bits. */
static int passes(const visit_scan *d, uint32_t k)
{
    const hs_grid *g = d->g;
    return (g->mask == NULL || (g->mask[k] & d->mask) != 0) &&
           (d->collide == NULL || (d->collide[g->id[k]] & d->category) != 0);
}

static int visit_run(void *st, uint32_t b, uint32_t e)
{
    visit_scan *d = st;
    const hs_grid *g = d->g;
    for (uint32_t k = b; k < e; k++) {
        if (!passes(d, k))
            continue;
        if (hs_discs_overlap((float)d->x, (float)d->y, d->r, g->x[k], g->y[k], g->r[k]))
            d->visit(d->st, g->id[k]);
    }
    return 0;
}

/* The shift of the image of x nearest to c on an axis of period L (0: not periodic). */
static double nearest(double c, float x, double L)
{
    return L > 0.0 ? round((c - (double)x) / L) : 0.0;
}

/* The same in a periodic box: each candidate at its nearest image, when that is the shift
 * this run looks at. */
static int image_run(void *st, uint32_t b, uint32_t e)
{
    visit_scan *d = st;
    const hs_grid *g = d->g;
    const double Lx = g->period[0], Ly = g->period[1];
    for (uint32_t k = b; k < e; k++) {
        if (!passes(d, k) || nearest(d->x, g->x[k], Lx) != d->sx ||
            nearest(d->y, g->y[k], Ly) != d->sy)
            continue;
        const double ex = ((double)g->x[k] + d->sx * Lx) - d->x;
        const double ey = ((double)g->y[k] + d->sy * Ly) - d->y;
        const double R = (double)d->r + (double)g->r[k];
        if (ex * ex + ey * ey <= R * R)
            d->visit(d->st, g->id[k]);
    }
    return 0;
}

/* v wrapped into [lo, lo + L) in double (L = 0: v). */
static double wrap(double v, double lo, double L)
{
    return L > 0.0 ? v - floor((v - lo) / L) * L : v;
}

void hs_grid_disc_visit(const hs_grid *g, hs_circle c, uint32_t mask, uint32_t category,
                        const uint32_t *collide, hs_disc_visit_fn visit, void *st)
{
    const double Lx = g->period[0], Ly = g->period[1];
    visit_scan d = {g, c.x, c.y, c.r, mask, category, collide, 0.0, 0.0, visit, st};
    if (mask == 0u || (collide && category == 0u)) /* passes no circle's filter */
        return;
    if (g->periodic) {
        d.x = wrap(d.x, g->box[0], Lx);
        d.y = wrap(d.y, g->box[1], Ly);
    }
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        double reach = (double)c.r + (double)L->rmax;
        reach += hs_gpad(L->mag + fabs(d.x) + fabs(d.y), reach);
        if (!g->periodic) {
            hs_grid_box(g, L, d.x - reach, d.y - reach, d.x + reach, d.y + reach, visit_run, &d);
            continue;
        }
        /* no nearest image lies farther than half a period on a periodic axis */
        const double pad = hs_gpad(L->mag + fabs(d.x) + fabs(d.y), 0.0);
        const double rx = Lx > 0.0 ? fmin(reach, 0.5 * Lx + pad) : reach;
        const double ry = Ly > 0.0 ? fmin(reach, 0.5 * Ly + pad) : reach;
        /* the shifts s whose images c + s L may lie in [x - rx, x + rx] */
        const double sx0 = Lx > 0.0 ? ceil((d.x - rx - L->bx1) / Lx) : 0.0;
        const double sx1 = Lx > 0.0 ? floor((d.x + rx - L->ox) / Lx) : 0.0;
        const double sy0 = Ly > 0.0 ? ceil((d.y - ry - L->by1) / Ly) : 0.0;
        const double sy1 = Ly > 0.0 ? floor((d.y + ry - L->oy) / Ly) : 0.0;
        for (d.sy = sy0; d.sy <= sy1; d.sy++)
            for (d.sx = sx0; d.sx <= sx1; d.sx++) {
                const double ox = d.sx * Lx, oy = d.sy * Ly;
                hs_grid_box(g, L, d.x - rx - ox, d.y - ry - oy, d.x + rx - ox, d.y + ry - oy,
                            image_run, &d);
            }
    }
}
