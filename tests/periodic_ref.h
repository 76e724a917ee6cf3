/* SPDX-License-Identifier: MIT */
/* The reference of the periodic-box tests: random boxes and circles (many near the edges and
 * corners, some outside the box), the wrap of grid.h, and the minimum image in double. */
#ifndef HS_PERIODIC_REF_H
#define HS_PERIODIC_REF_H

/* Include after <cmocka.h> and test_util.h. */
#include <math.h>

#include "hitscan/grid.h"

/* A box, its periodic axes and circles (x, y as the grid holds them: wrapped). */
typedef struct pbox {
    unsigned axes;
    float b[4];  /* x0, y0, x1, y1 */
    double L[2]; /* periods; 0 on an axis that is not periodic */
    scene s;     /* the circles as given */
    float *wx, *wy;
    hs_grid *g;
} pbox;

/* grid.h's wrap: the float nearest to v - k period, k = floor((v - lo) / period), in double;
 * one that rounds to the upper edge becomes lo. */
static inline float ref_wrap(float v, double lo, double period)
{
    if ((double)v >= lo && (double)v < lo + period)
        return v;
    const double w = (double)v - floor(((double)v - lo) / period) * period;
    const float f = (float)w;
    return (double)f >= lo + period || (double)f < lo ? (float)lo : f;
}

/* The shift of j's image nearest to i on one axis (separation d = xj - xi, both in the box):
 * 0 when |d| is at most half the period. */
static inline int ref_shift(double d, double L)
{
    if (L <= 0.0 || fabs(d) <= 0.5 * L)
        return 0;
    return d > 0.0 ? -1 : 1;
}

static inline hs_grid_opts pbox_opts(const pbox *p, int threads)
{
    hs_grid_opts o = {.cell_size = 0.0f, .threads = threads, .periodic = p->axes};
    o.box.min.x = p->b[0];
    o.box.min.y = p->b[1];
    o.box.max.x = p->b[2];
    o.box.max.y = p->b[3];
    return o;
}

/* Circles in a random box: radii up to rmax (a few up to rbig, the grid's big level), a
 * fraction `edge` of the centres within 2 rmax of an edge or a corner, and on a periodic
 * axis a fraction `outside` of them moved by whole and half periods out of the box. */
static inline void pbox_make(pbox *p, unsigned axes, size_t n, uint64_t seed, double rmax,
                             double rbig, double edge, double outside)
{
    rng_state = seed;
    memset(p, 0, sizeof *p);
    p->axes = axes;
    for (int a = 0; a < 2; a++) {
        const double lo = -500.0 + 1000.0 * urand(), len = 40.0 + 160.0 * urand();
        p->b[a] = (float)lo;
        p->b[a + 2] = (float)(lo + len);
        p->L[a] = (axes >> a) & 1u ? (double)p->b[a + 2] - (double)p->b[a] : 0.0;
    }
    scene_alloc(&p->s, n);
    p->wx = xcalloc(n, sizeof(float));
    p->wy = xcalloc(n, sizeof(float));
    for (size_t i = 0; i < n; i++) {
        float c[2];
        for (int a = 0; a < 2; a++) {
            const double lo = p->b[a], hi = p->b[a + 2];
            double v = lo + (hi - lo) * urand();
            if (urand() < edge) /* near an edge: both axes at times, a corner */
                v = urand() < 0.5 ? lo + 2.0 * rmax * urand() : hi - 2.0 * rmax * urand();
            c[a] = (float)v;
            if (c[a] >= (float)hi) /* rounded up onto the closed edge */
                c[a] = (float)lo;
            if (p->L[a] > 0.0 && urand() < outside)
                c[a] = (float)(v + (double)(1 + irand(3)) * (urand() < 0.5 ? -1.0 : 1.0) *
                                       (p->L[a] * (urand() < 0.5 ? 1.0 : 0.5)));
        }
        p->s.x[i] = c[0];
        p->s.y[i] = c[1];
        p->s.r[i] = (float)(urand() < 0.01 ? rbig * urand() : rmax * urand());
        p->wx[i] = p->L[0] > 0.0 ? ref_wrap(c[0], p->b[0], p->L[0]) : c[0];
        p->wy[i] = p->L[1] > 0.0 ? ref_wrap(c[1], p->b[1], p->L[1]) : c[1];
    }
}

static inline void pbox_build(pbox *p, int threads)
{
    const hs_grid_opts o = pbox_opts(p, threads);
    assert_int_equal(hs_circles_create(p->s.x, p->s.y, p->s.r, NULL, p->s.n, &p->s.cs, NULL),
                     HS_OK);
    assert_int_equal(hs_grid_build(p->s.cs, &o, &p->g), HS_OK);
}

static inline void pbox_free(pbox *p)
{
    hs_grid_destroy(p->g);
    scene_free(&p->s);
    free(p->wx);
    free(p->wy);
}

/* The minimum-image separation of j from i, (ex, ey), and the shift of j's image. */
static inline void ref_image(const pbox *p, size_t i, size_t j, double *ex, double *ey, int *sx,
                             int *sy)
{
    const double dx = (double)p->wx[j] - (double)p->wx[i];
    const double dy = (double)p->wy[j] - (double)p->wy[i];
    *sx = ref_shift(dx, p->L[0]);
    *sy = ref_shift(dy, p->L[1]);
    *ex = dx + (double)*sx * p->L[0];
    *ey = dy + (double)*sy * p->L[1];
}

#endif
