/* SPDX-License-Identifier: MIT */
/* The spatial partition's plan (partition.h): a k-d tree over a fixed-stride sample of the
 * small circles' centres, cut where a cut lowers the cost of the grids the sides would get.
 *
 * The cost of one uniform grid over a region: with the cells as fine as its count allows
 * (a fixed number of circles per cell on average), a query near a circle tests about
 * (local density) x (cell area) circles, so the region's cost, summed over its circles, is
 * proportional to (bins of its box) x sum(n_b^2) / n over a histogram of its sample: n for a
 * uniform region, up to (bins) x n when all of it sits in one bin. A node is cut at the
 * histogram boundary that most lowers the sum of its sides' costs, when that at least halves
 * it; each side then plans again on its own histogram. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/partition.h"
#include "invariant.h"
#include "tuning.h"

#define BINS 16

typedef struct planner {
    hs_gpart *P;
    int nodes;
} planner;

typedef struct hist {
    uint32_t n[BINS][BINS]; /* [column][row] */
} hist;

/* Cost of the columns [c0, c1) x rows [r0, r1) as a grid of their own: the bins of their
 * occupied box x sum(n_b^2) / n; 0 when empty. *count gets n. */
static double region_cost(const hist *h, int c0, int c1, int r0, int r1, uint32_t *count)
{
    int tc0 = BINS, tc1 = -1, tr0 = BINS, tr1 = -1;
    double s2 = 0.0, n = 0.0;
    for (int c = c0; c < c1; c++)
        for (int r = r0; r < r1; r++) {
            const double v = (double)h->n[c][r];
            if (v == 0.0)
                continue;
            s2 += v * v;
            n += v;
            tc0 = c < tc0 ? c : tc0;
            tc1 = c > tc1 ? c : tc1;
            tr0 = r < tr0 ? r : tr0;
            tr1 = r > tr1 ? r : tr1;
        }
    *count = (uint32_t)n;
    if (n == 0.0)
        return 0.0;
    return (double)(tc1 - tc0 + 1) * (double)(tr1 - tr0 + 1) * s2 / n;
}

static int bin_of(float v, double lo, double w)
{
    if (!(w > 0.0))
        return 0;
    const int b = (int)(((double)v - lo) / w * BINS);
    return b < 0 ? 0 : (b >= BINS ? BINS - 1 : b);
}

static int make_leaf(planner *pl, int k, const float *x, const float *y, size_t m)
{
    hs_gpart *P = pl->P;
    const int leaf = P->nleaves++;
    P->node[k].axis = -1;
    P->node[k].leaf = (int16_t)leaf;
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        x0 = x[i] < x0 ? x[i] : x0;
        x1 = x[i] > x1 ? x[i] : x1;
        y0 = y[i] < y0 ? y[i] : y0;
        y1 = y[i] > y1 ? y[i] : y1;
    }
    /* the circles the sample did not see lie near those it did: a margin of a sixteenth of
     * the box's longer side keeps them in the leaf rather than among the outliers */
    const double grow = m > 0 ? fmax((double)x1 - x0, (double)y1 - y0) / HS_PART_MARGIN : 0.0;
    float *b = P->box[leaf];
    b[0] = m > 0 ? (float)((double)x0 - grow) : INFINITY;
    b[1] = m > 0 ? (float)((double)y0 - grow) : INFINITY;
    b[2] = m > 0 ? (float)((double)x1 + grow) : -INFINITY;
    b[3] = m > 0 ? (float)((double)y1 + grow) : -INFINITY;
    return leaf;
}

/* Node k over the sample points x, y [0, m), at depth d. */
static void plan_node(planner *pl, int k, float *x, float *y, size_t m, int d)
{
    hs_gpart *P = pl->P;
    if (d >= HS_PART_DEPTH || m < HS_PART_MIN_SAMPLE || pl->nodes + 2 > HS_PART_NODES ||
        P->nleaves + 2 > HS_PART_LEAVES) {
        make_leaf(pl, k, x, y, m);
        return;
    }
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < m; i++) {
        lo[0] = fmin(lo[0], x[i]);
        hi[0] = fmax(hi[0], x[i]);
        lo[1] = fmin(lo[1], y[i]);
        hi[1] = fmax(hi[1], y[i]);
    }
    const double w[2] = {hi[0] - lo[0], hi[1] - lo[1]};
    hist *h = calloc(1, sizeof *h);
    if (h == NULL) { /* no cut: a valid, coarser plan */
        make_leaf(pl, k, x, y, m);
        return;
    }
    for (size_t i = 0; i < m; i++)
        h->n[bin_of(x[i], lo[0], w[0])][bin_of(y[i], lo[1], w[1])]++;
    uint32_t cnt, cl, cr;
    const double whole = region_cost(h, 0, BINS, 0, BINS, &cnt);
    double best = whole * HS_PART_GAIN;
    int best_axis = -1, best_b = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 1; b < BINS; b++) {
            const double c = a == 0 ? region_cost(h, 0, b, 0, BINS, &cl) +
                                          region_cost(h, b, BINS, 0, BINS, &cr)
                                    : region_cost(h, 0, BINS, 0, b, &cl) +
                                          region_cost(h, 0, BINS, b, BINS, &cr);
            if (cl > 0 && cr > 0 && c < best) {
                best = c;
                best_axis = a;
                best_b = b;
            }
        }
    free(h);
    if (best_axis < 0) {
        make_leaf(pl, k, x, y, m);
        return;
    }
    const float cut = (float)(lo[best_axis] + w[best_axis] * best_b / BINS);
    float *v = best_axis ? y : x;
    size_t i = 0, j = m;
    while (i < j) { /* points with v >= cut to the back */
        if (v[i] >= cut) {
            j--;
            float t = x[i];
            x[i] = x[j];
            x[j] = t;
            t = y[i];
            y[i] = y[j];
            y[j] = t;
        } else {
            i++;
        }
    }
    if (i == 0 || i == m) { /* rounding moved every point to one side */
        make_leaf(pl, k, x, y, m);
        return;
    }
    const int c0 = pl->nodes, c1 = pl->nodes + 1;
    pl->nodes += 2;
    P->node[k].axis = (int16_t)best_axis;
    P->node[k].cut = cut;
    P->node[k].child[0] = (int16_t)c0;
    P->node[k].child[1] = (int16_t)c1;
    plan_node(pl, c0, x, y, i, d + 1);
    plan_node(pl, c1, x + i, y + i, m - i, d + 1);
}

hs_status hs_gpart_plan(hs_gpart *P, const hs_circles *cs, float split)
{
    memset(P, 0, sizeof *P);
    P->split = split;
    const size_t n = cs->n, s = n < HS_GRID_SAMPLE ? n : HS_GRID_SAMPLE;
    float *x = malloc((2 * s + 1) * sizeof *x);
    if (x == NULL)
        return HS_E_NOMEM;
    float *y = x + s;
    /* sample k is circle floor(k n / s), stepped in integers */
    size_t m = 0, i = 0, rem = 0;
    const size_t step = s ? n / s : 0, frac = s ? n % s : 0;
    for (size_t k = 0; k < s; k++) {
        if (cs->r[i] <= split) {
            x[m] = cs->x[i];
            y[m] = cs->y[i];
            m++;
        }
        i += step;
        rem += frac;
        if (rem >= s) {
            i++;
            rem -= s;
        }
    }
    planner pl = {P, 1};
    plan_node(&pl, 0, x, y, m, 0);
    free(x);
    HS_ASSERT(P->nleaves >= 1 && P->nleaves <= HS_PART_LEAVES);
    return HS_OK;
}
