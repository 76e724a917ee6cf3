/* SPDX-License-Identifier: MIT */
/* The periodic box of a grid (periodic.h): its checks and the wrap of the centres into it.
 * The build sorts the wrapped circles as it sorts any others; only the pair searches and
 * overlap queries know of the box (they look for images across its edges). */
#include <math.h>
#include <stdlib.h>

#include "grid/periodic.h"

hs_status hs_grid_set_box(hs_grid *g, const hs_grid_opts *opts)
{
    g->periodic = 0;
    g->box[0] = g->box[1] = g->box[2] = g->box[3] = 0.0;
    g->period[0] = g->period[1] = 0.0;
    if (opts == NULL || opts->periodic == 0)
        return HS_OK;
    if (opts->periodic & ~HS_PERIODIC_XY)
        return HS_E_RANGE;
    const float v[4] = {opts->box.min.x, opts->box.min.y, opts->box.max.x, opts->box.max.y};
    for (int k = 0; k < 4; k++)
        if (!(fabsf(v[k]) <= HS_MAX_COORD)) /* false for NaN and infinities */
            return HS_E_RANGE;
    for (int a = 0; a < 2; a++) {
        const int per = (opts->periodic >> a) & 1u;
        if (per ? !(v[a] < v[a + 2]) : !(v[a] <= v[a + 2]))
            return HS_E_RANGE;
        g->period[a] = per ? (double)v[a + 2] - (double)v[a] : 0.0;
        /* a requested cell above half a period: a box of fewer than two cells */
        if (per && (double)opts->cell_size > 0.5 * g->period[a])
            return HS_E_BOX;
    }
    for (int k = 0; k < 4; k++)
        g->box[k] = v[k];
    g->periodic = opts->periodic;
    return HS_OK;
}

/* v wrapped into [lo, lo + period): the float nearest to v - k period, k = floor((v - lo) /
 * period), in double; one that rounds to the upper edge becomes lo. */
static float wrap(float v, double lo, double period)
{
    const double w = (double)v - floor(((double)v - lo) / period) * period;
    const float f = (float)w;
    return (double)f >= lo + period || (double)f < lo ? (float)lo : f;
}

/* Circles per block of the branch-free check. */
enum { BLOCK = 1024 };

/* The first circle of [lo, hi) that the box refuses, its code in *s; hi when none. Bad
 * circles are named as hs_circles_create names them, before the box's own checks. */
static size_t first_refused(const hs_grid *g, const hs_circles *cs, size_t lo, size_t hi,
                            hs_status *s)
{
    for (size_t i = lo; i < hi; i++) {
        size_t bad;
        if ((*s = hs_circles_check(cs, i, i + 1, &bad)) != HS_OK)
            return i;
        const float c[2] = {cs->x[i], cs->y[i]};
        for (int a = 0; a < 2; a++) {
            const int per = (g->periodic >> a) & 1u;
            if (per ? !(4.0 * (double)cs->r[i] * (1.0 + 0x1p-30) < g->period[a])
                    : !((double)c[a] >= g->box[a] && (double)c[a] <= g->box[a + 2])) {
                *s = HS_E_BOX;
                return i;
            }
        }
    }
    return hi;
}

/* HS_OK when every circle is valid for the box (*outside: some centre lies outside it on a
 * periodic axis), else the first refused one's code and index. A branch-free pass per block,
 * rescanned only when a block fails. */
static hs_status check(const hs_grid *g, const hs_circles *cs, int *outside, size_t *bad_index)
{
    const int px = (g->periodic & HS_PERIODIC_X) != 0, py = (g->periodic & HS_PERIODIC_Y) != 0;
    /* a periodic axis: anything finite is accepted (and wrapped); else within the box */
    const float lo[2] = {px ? -HS_MAX_COORD : (float)g->box[0],
                         py ? -HS_MAX_COORD : (float)g->box[1]};
    const float hi[2] = {px ? HS_MAX_COORD : (float)g->box[2],
                         py ? HS_MAX_COORD : (float)g->box[3]};
    /* in a box the diameter must stay below half the period */
    const double pmin = fmin(px ? g->period[0] : INFINITY, py ? g->period[1] : INFINITY);
    const float rmax = nextafterf((float)(pmin / (4.0 * (1.0 + 0x1p-30))), 0.0f); /* rounded down */
    const float bx0 = (float)g->box[0], by0 = (float)g->box[1];
    const float bx1 = (float)g->box[2], by1 = (float)g->box[3];
    const size_t n = cs->n;
    const float *X = cs->x, *Y = cs->y, *R = cs->r;
    int out = 0;
    for (size_t b = 0; b < n; b += BLOCK) {
        const size_t e = n - b > BLOCK ? b + BLOCK : n;
        int ok = 1, o = 0;
        for (size_t i = b; i < e; i++) {
            ok &= (X[i] >= lo[0]) & (X[i] <= hi[0]) & (Y[i] >= lo[1]) & (Y[i] <= hi[1]) &
                  (R[i] >= 0.0f) & (R[i] < rmax);
            o |= (px & ((X[i] < bx0) | (X[i] >= bx1))) | (py & ((Y[i] < by0) | (Y[i] >= by1)));
        }
        out |= o;
        if (ok)
            continue;
        hs_status s = HS_OK;
        const size_t i = first_refused(g, cs, b, e, &s);
        if (i < e) {
            if (bad_index)
                *bad_index = i;
            return s;
        }
    }
    *outside = out;
    return HS_OK;
}

hs_status hs_grid_periodic_input(const hs_grid *g, const hs_circles *cs, hs_circles *out,
                                 float **keep, size_t *bad_index)
{
    *keep = NULL;
    *out = *cs;
    if (g->periodic == 0)
        return HS_OK;
    int outside = 0;
    hs_status s = check(g, cs, &outside, bad_index);
    if (s != HS_OK || !outside)
        return s;
    const size_t n = cs->n;
    float *w = malloc(2 * n * sizeof *w);
    if (w == NULL)
        return HS_E_NOMEM;
    const int px = (g->periodic & HS_PERIODIC_X) != 0, py = (g->periodic & HS_PERIODIC_Y) != 0;
    for (size_t i = 0; i < n; i++) {
        const float x = cs->x[i], y = cs->y[i];
        w[i] = px && (x < g->box[0] || x >= g->box[2]) ? wrap(x, g->box[0], g->period[0]) : x;
        w[n + i] = py && (y < g->box[1] || y >= g->box[3]) ? wrap(y, g->box[1], g->period[1]) : y;
    }
    out->x = w;
    out->y = w + n;
    out->owned = NULL;
    *keep = w;
    return HS_OK;
}

unsigned hs_grid_periodic(const hs_grid *g, hs_aabb *box)
{
    if (g == NULL || g->periodic == 0)
        return 0;
    if (box) {
        box->min.x = (float)g->box[0];
        box->min.y = (float)g->box[1];
        box->max.x = (float)g->box[2];
        box->max.y = (float)g->box[3];
    }
    return g->periodic;
}
