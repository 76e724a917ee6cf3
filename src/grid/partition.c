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

/* What the cost of a region needs from its bins: the count, the sum of squared counts, and
 * the occupied box, as lines along one axis (first, last) and bins across (lo, hi). */
typedef struct span {
    double n, s2;
    int first, last, lo, hi;
} span;

static const span empty_span = {0.0, 0.0, BINS, -1, BINS, -1};

static void span_add(span *a, const span *b)
{
    a->n += b->n; /* sums of integers below 2^53: exact in any order */
    a->s2 += b->s2;
    a->first = b->first < a->first ? b->first : a->first;
    a->last = b->last > a->last ? b->last : a->last;
    a->lo = b->lo < a->lo ? b->lo : a->lo;
    a->hi = b->hi > a->hi ? b->hi : a->hi;
}

/* A node's histogram of its sample, and its lines' and cuts' spans (on the heap: plan_node
 * recurses on a build's thread stack). */
typedef struct hist {
    uint32_t n[BINS][BINS];                 /* [column][row] */
    span line[2][BINS];                     /* [axis][line] */
    span before[BINS + 1], after[BINS + 1]; /* lines [0, b) and [b, BINS) of one axis */
} hist;

/* Line i along axis a of h (a column for a = 0, a row for a = 1). */
static span line_of(const hist *h, int a, int i)
{
    span s = empty_span;
    for (int j = 0; j < BINS; j++) {
        const double v = (double)(a == 0 ? h->n[i][j] : h->n[j][i]);
        s.n += v;
        s.s2 += v * v;
        s.lo = v > 0.0 && j < s.lo ? j : s.lo;
        s.hi = v > 0.0 ? j : s.hi;
    }
    if (s.n > 0.0)
        s.first = s.last = i;
    return s;
}

/* Cost of a region as a grid of its own: the bins of its occupied box x sum(n_b^2) / n; 0
 * when empty. *count gets n. */
static double span_cost(const span *s, uint32_t *count)
{
    *count = (uint32_t)s->n;
    if (s->n == 0.0)
        return 0.0;
    return (double)(s->last - s->first + 1) * (double)(s->hi - s->lo + 1) * s->s2 / s->n;
}

static int bin_of(float v, double lo, double w)
{
    if (!(w > 0.0))
        return 0;
    const int b = (int)(((double)v - lo) / w * BINS);
    return b < 0 ? 0 : (b >= BINS ? BINS - 1 : b);
}

/* The bounding box of the points x, y [0, m): x0, y0, x1, y1 (+-inf when m = 0). Plain
 * comparisons: a min / max reduction of floats widened to double made gcc 12's aarch64
 * vectoriser fail. */
static void sample_box(const float *x, const float *y, size_t m, float b[4])
{
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        x0 = x[i] < x0 ? x[i] : x0;
        x1 = x[i] > x1 ? x[i] : x1;
        y0 = y[i] < y0 ? y[i] : y0;
        y1 = y[i] > y1 ? y[i] : y1;
    }
    b[0] = x0;
    b[1] = y0;
    b[2] = x1;
    b[3] = y1;
}

/* The share of the BINS x BINS bins of the box [x0, x1] x [y0, y1] that hold a sample point,
 * over what m points uniform in the box would fill (1 - e^(-m / bins)), clamped to
 * [HS_PART_MIN_FILL, 1]; 1 with too few points to tell. */
static double leaf_fill(const float *x, const float *y, size_t m, float x0, float y0, float x1,
                        float y1)
{
    if (m < HS_PART_MIN_SAMPLE)
        return 1.0;
    const double wx = (double)x1 - x0, wy = (double)y1 - y0;
    const int bx = wx > 0.0 ? BINS : 1, by = wy > 0.0 ? BINS : 1;
    uint64_t seen[BINS * BINS / 64] = {0};
    for (size_t i = 0; i < m; i++) {
        const int b = bin_of(x[i], x0, wx) * BINS + bin_of(y[i], y0, wy);
        seen[b / 64] |= (uint64_t)1 << (b % 64);
    }
    int filled = 0;
    for (int w = 0; w < BINS * BINS / 64; w++)
        filled += __builtin_popcountll(seen[w]);
    const double bins = (double)(bx * by);
    const double f = (double)filled / bins / (1.0 - exp(-(double)m / bins));
    return f < HS_PART_MIN_FILL ? HS_PART_MIN_FILL : (f > 1.0 ? 1.0 : f);
}

/* Node k (at depth d) becomes a leaf over the sample points x, y [0, m). */
static void make_leaf(hs_gpart *P, unsigned k, int d, const float *x, const float *y, size_t m)
{
    const int leaf = P->nleaves++;
    /* every bottom position below k names the leaf; the cuts on the way pass through */
    unsigned lo = k, hi = k;
    for (int e = d; e < HS_PART_DEPTH; e++) {
        for (unsigned j = lo; j <= hi; j++) {
            P->cut[j] = INFINITY;
            P->axis[j] = 0;
        }
        lo = 2u * lo + 1u;
        hi = 2u * hi + 2u;
    }
    for (unsigned j = lo; j <= hi; j++)
        P->leaf[j - HS_PART_INNER] = (uint8_t)leaf;
    float sb[4];
    sample_box(x, y, m, sb);
    const float x0 = sb[0], y0 = sb[1], x1 = sb[2], y1 = sb[3];
    P->fill[leaf] = (float)leaf_fill(x, y, m, x0, y0, x1, y1);
    /* the circles the sample did not see lie near those it did: a margin of a sixteenth of
     * the box's longer side keeps them in the leaf rather than among the outliers */
    const double grow = m > 0 ? fmax((double)x1 - x0, (double)y1 - y0) / HS_PART_MARGIN : 0.0;
    float *b = P->box[leaf];
    b[0] = m > 0 ? (float)((double)x0 - grow) : INFINITY;
    b[1] = m > 0 ? (float)((double)y0 - grow) : INFINITY;
    b[2] = m > 0 ? (float)((double)x1 + grow) : -INFINITY;
    b[3] = m > 0 ? (float)((double)y1 + grow) : -INFINITY;
}

/* Node k over the sample points x, y [0, m), at depth d. */
static void plan_node(hs_gpart *P, unsigned k, float *x, float *y, size_t m, int d)
{
    if (d >= HS_PART_DEPTH || m < HS_PART_MIN_SAMPLE) {
        make_leaf(P, k, d, x, y, m);
        return;
    }
    float b[4];
    sample_box(x, y, m, b);
    const double lo[2] = {b[0], b[1]}, hi[2] = {b[2], b[3]};
    const double w[2] = {hi[0] - lo[0], hi[1] - lo[1]};
    hist *h = calloc(1, sizeof *h);
    if (h == NULL) { /* no cut: a valid, coarser plan */
        make_leaf(P, k, d, x, y, m);
        return;
    }
    for (size_t i = 0; i < m; i++)
        h->n[bin_of(x[i], lo[0], w[0])][bin_of(y[i], lo[1], w[1])]++;
    /* each side of every cut from the lines' sums before and after it: BINS^2 work, not BINS^3 */
    span(*line)[BINS] = h->line, *before = h->before, *after = h->after;
    for (int a = 0; a < 2; a++)
        for (int i = 0; i < BINS; i++)
            line[a][i] = line_of(h, a, i);
    uint32_t cnt, cl, cr;
    before[0] = empty_span;
    for (int b = 0; b < BINS; b++) {
        before[b + 1] = before[b];
        span_add(&before[b + 1], &line[0][b]);
    }
    const double whole = span_cost(&before[BINS], &cnt);
    double best = whole * HS_PART_GAIN;
    int best_axis = -1, best_b = 0;
    for (int a = 0; a < 2; a++) {
        before[0] = after[BINS] = empty_span;
        for (int b = 0; b < BINS; b++) {
            before[b + 1] = before[b];
            span_add(&before[b + 1], &line[a][b]);
            after[BINS - 1 - b] = after[BINS - b];
            span_add(&after[BINS - 1 - b], &line[a][BINS - 1 - b]);
        }
        for (int b = 1; b < BINS; b++) {
            const double c = span_cost(&before[b], &cl) + span_cost(&after[b], &cr);
            if (cl > 0 && cr > 0 && c < best) {
                best = c;
                best_axis = a;
                best_b = b;
            }
        }
    }
    free(h);
    if (best_axis < 0) {
        make_leaf(P, k, d, x, y, m);
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
        make_leaf(P, k, d, x, y, m);
        return;
    }
    P->axis[k] = (uint8_t)best_axis;
    P->cut[k] = cut;
    plan_node(P, 2u * k + 1u, x, y, i, d + 1);
    plan_node(P, 2u * k + 2u, x + i, y + i, m - i, d + 1);
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
    plan_node(P, 0, x, y, m, 0);
    free(x);
    HS_ASSERT(P->nleaves >= 1 && P->nleaves <= HS_PART_LEAVES);
    return HS_OK;
}
