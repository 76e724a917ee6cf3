/* SPDX-License-Identifier: MIT */
/* The grid build's first pass (build.h): the split radius between the two levels, each
 * level's bounds, largest radius and count, its cell shape and where its cells start.
 *
 * Two levels at most: level 0 holds the "small" circles, level 1 the few much larger ones (r
 * above a threshold taken from the radius distribution), each with its own cell size and
 * inflation radius (see grid/layout.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "invariant.h"
#include "grid/build.h"
#include "grid/storage.h"
#include "grid/vectorize.h"
#include "tuning.h"

float hs_select_kth(float *a, size_t n, size_t k)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        float p0 = a[lo], p1 = a[mid], p2 = a[hi];
        float pivot =
            p0 < p1 ? (p1 < p2 ? p1 : (p0 < p2 ? p2 : p0)) : (p0 < p2 ? p0 : (p1 < p2 ? p2 : p1));
        ptrdiff_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                float t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        }
        if (kk <= j)
            hi = j;
        else if (kk >= i)
            lo = i;
        else
            return a[kk];
    }
    return a[kk];
}

/* Sets a level's cell size and dimensions from its bounds, count, largest radius and the share
 * of its bounds its circles fill (partition.h); req > 0: that cell side, honoured as given (0
 * when it would make more than HS_GRID_REQ_MAX_CELLS_PER_CIRCLE cells per circle: the
 * caller's size is never changed). */
static int level_shape(hs_glevel *L, double minx, double miny, double maxx, double maxy, double req,
                       double fill)
{
    double w = maxx - minx, hh = maxy - miny;
    HS_ASSERT(isfinite(w) && isfinite(hh) && w >= 0.0 && hh >= 0.0); /* validated circles */
    double n = (double)L->n;
    double mag = fmax(fmax(fabs(minx), fabs(maxx)), fmax(fabs(miny), fabs(maxy)));
    double h = req, nx, ny;
    if (req > 0.0) {
        nx = floor(w / h) + 1.0;
        ny = floor(hh / h) + 1.0;
        if (nx * ny > HS_GRID_REQ_MAX_CELLS_PER_CIRCLE * n + 65536.0)
            return 0;
    } else {
        double hd = sqrt(HS_GRID_PER_CELL * w * hh * fill / n);
        if (!(hd > 0.0))
            hd = HS_GRID_PER_CELL * fmax(w, hh) / n;
        h = fmax(hd, HS_GRID_R_FACTOR * (double)L->rmax);
        /* cells much finer than float resolution of the coordinates only cost memory */
        h = fmax(h, mag * 1e-6);
        if (!(h > 0.0))
            h = 1.0;
        const double max_cells = HS_GRID_MAX_CELLS_PER_CIRCLE * n / fill + 64.0;
        for (;;) {
            nx = floor(w / h) + 1.0;
            ny = floor(hh / h) + 1.0;
            if (nx * ny <= max_cells)
                break;
            h *= 1.25;
        }
    }
    L->ox = minx;
    L->oy = miny;
    L->bx1 = maxx;
    L->by1 = maxy;
    L->mag = mag;
    L->h = h;
    L->inv_h = 1.0 / h;
    L->nx = (int32_t)nx;
    L->ny = (int32_t)ny;
    return 1;
}

/* Bounds, largest radius and count of each partition slot (partition.h) over a range of
 * circles. */
typedef struct bounds {
    float x0[HS_PART_SLOTS], y0[HS_PART_SLOTS], x1[HS_PART_SLOTS], y1[HS_PART_SLOTS];
    float r[HS_PART_SLOTS];
    size_t n[HS_PART_SLOTS];
    float rmin;   /* smallest radius of any slot */
    float finite; /* 0 while every x, y and r seen is finite (x * 0 is NaN for NaN and inf) */
} bounds;

static void bounds_init(bounds *b)
{
    for (int l = 0; l < HS_PART_SLOTS; l++) {
        b->x0[l] = b->y0[l] = INFINITY;
        b->x1[l] = b->y1[l] = -INFINITY;
        b->r[l] = 0.0f;
        b->n[l] = 0;
    }
    b->rmin = INFINITY;
    b->finite = 0.0f;
}

static void bounds_merge(bounds *a, const bounds *b)
{
    for (int l = 0; l < HS_PART_SLOTS; l++) {
        a->x0[l] = b->x0[l] < a->x0[l] ? b->x0[l] : a->x0[l];
        a->y0[l] = b->y0[l] < a->y0[l] ? b->y0[l] : a->y0[l];
        a->x1[l] = b->x1[l] > a->x1[l] ? b->x1[l] : a->x1[l];
        a->y1[l] = b->y1[l] > a->y1[l] ? b->y1[l] : a->y1[l];
        a->r[l] = b->r[l] > a->r[l] ? b->r[l] : a->r[l];
        a->n[l] += b->n[l];
    }
    a->rmin = b->rmin < a->rmin ? b->rmin : a->rmin;
    a->finite += b->finite;
}

/* One group of 8 circles into the lane-wise bounds of bounds_range. */
typedef struct lanes {
    float x0[8], y0[8], x1[8], y1[8], r[8], rmin[8], finite[8];
} lanes;

static inline void lanes_add(lanes *restrict m, const float *restrict X, const float *restrict Y,
                             const float *restrict R, size_t u)
{
    for (int j = 0; j < 8; j++) {
        float x = X[u + (size_t)j], y = Y[u + (size_t)j], r = R[u + (size_t)j];
        m->x0[j] = x < m->x0[j] ? x : m->x0[j];
        m->x1[j] = x > m->x1[j] ? x : m->x1[j];
        m->y0[j] = y < m->y0[j] ? y : m->y0[j];
        m->y1[j] = y > m->y1[j] ? y : m->y1[j];
        m->r[j] = r > m->r[j] ? r : m->r[j];
        m->rmin[j] = r < m->rmin[j] ? r : m->rmin[j];
        m->finite[j] += x * 0.0f + y * 0.0f + r * 0.0f;
    }
}

/* A partition as tables, for hs_gpart_slot without a branch, so that a block of circles
 * vectorises: node k sends a centre to its second child when x >= cx[k] and y >= cy[k] (the
 * cut on the other axis -inf), and each bottom position has its leaf and that leaf's box. The
 * same slot as hs_gpart_slot's for every circle but one with a NaN coordinate (whose set the
 * bounds' check refuses, its slots unread). */
typedef struct slot_tables {
    float cx[HS_PART_INNER], cy[HS_PART_INNER];
    int32_t leaf[HS_PART_LEAVES];
    float x0[HS_PART_LEAVES], y0[HS_PART_LEAVES], x1[HS_PART_LEAVES], y1[HS_PART_LEAVES];
    float split;
    int32_t outliers, big;
} slot_tables;

static void slot_tables_init(slot_tables *T, const hs_gpart *P)
{
    for (int k = 0; k < HS_PART_INNER; k++) {
        T->cx[k] = P->axis[k] ? -INFINITY : P->cut[k];
        T->cy[k] = P->axis[k] ? P->cut[k] : -INFINITY;
    }
    for (int b = 0; b < HS_PART_LEAVES; b++) {
        const int leaf = P->leaf[b];
        T->leaf[b] = leaf;
        T->x0[b] = P->box[leaf][0];
        T->y0[b] = P->box[leaf][1];
        T->x1[b] = P->box[leaf][2];
        T->y1[b] = P->box[leaf][3];
    }
    T->split = P->split;
    T->outliers = HS_PART_OUTLIERS(P);
    T->big = HS_PART_BIG(P);
}

_Static_assert(HS_PART_DEPTH == 4, "slots_of takes four cuts on the way down");

/* The slots of circles [0, k) of X, Y, R (repeats aside), into slot. */
static inline void slots_of(const slot_tables *restrict T, const float *restrict X,
                            const float *restrict Y, const float *restrict R, size_t k,
                            int32_t *restrict slot)
{
    for (size_t i = 0; i < k; i++) {
        const float x = X[i], y = Y[i];
        int32_t n = 1 + ((x >= T->cx[0]) & (y >= T->cy[0]));
        n = 2 * n + 1 + ((x >= T->cx[n]) & (y >= T->cy[n]));
        n = 2 * n + 1 + ((x >= T->cx[n]) & (y >= T->cy[n]));
        n = 2 * n + 1 + ((x >= T->cx[n]) & (y >= T->cy[n]));
        const int32_t b = n - HS_PART_INNER, leaf = T->leaf[b];
        const int32_t out = (x < T->x0[b]) | (y < T->y0[b]) | (x > T->x1[b]) | (y > T->y1[b]);
        const int32_t small = leaf ^ ((leaf ^ T->outliers) & -out);
        slot[i] = small ^ ((small ^ T->big) & -(int32_t)(R[i] > T->split));
    }
}

/* Bounds per slot, circle j of a group in lane j % 4 of its slot: consecutive circles of one
 * slot then update different words, not one chain of stores and loads from each to the next. */
enum { SLOT_LANES = 4 };
typedef struct slot_lanes {
    float x0[HS_PART_SLOTS][SLOT_LANES], y0[HS_PART_SLOTS][SLOT_LANES];
    float x1[HS_PART_SLOTS][SLOT_LANES], y1[HS_PART_SLOTS][SLOT_LANES];
    float r[HS_PART_SLOTS][SLOT_LANES];
    uint32_t n[HS_PART_SLOTS][SLOT_LANES];
} slot_lanes;

static void slot_lanes_init(slot_lanes *s)
{
    for (int l = 0; l < HS_PART_SLOTS; l++)
        for (int j = 0; j < SLOT_LANES; j++) {
            s->x0[l][j] = s->y0[l][j] = INFINITY;
            s->x1[l][j] = s->y1[l][j] = -INFINITY;
            s->r[l][j] = 0.0f;
            s->n[l][j] = 0;
        }
}

/* The 8 circles at X, Y, R of slots slot[0 .. 8) into s, their smallest radius and
 * finiteness into m's lanes. */
static inline void slot_lanes_add(slot_lanes *restrict s, lanes *restrict m,
                                  const float *restrict X, const float *restrict Y,
                                  const float *restrict R, const int32_t *restrict slot)
{
    for (int j = 0; j < 8; j++) {
        const float x = X[j], y = Y[j], r = R[j];
        const int l = slot[j], a = j % SLOT_LANES;
        s->n[l][a]++;
        s->x0[l][a] = x < s->x0[l][a] ? x : s->x0[l][a];
        s->x1[l][a] = x > s->x1[l][a] ? x : s->x1[l][a];
        s->y0[l][a] = y < s->y0[l][a] ? y : s->y0[l][a];
        s->y1[l][a] = y > s->y1[l][a] ? y : s->y1[l][a];
        s->r[l][a] = r > s->r[l][a] ? r : s->r[l][a];
        m->rmin[j] = r < m->rmin[j] ? r : m->rmin[j];
        m->finite[j] += x * 0.0f + y * 0.0f + r * 0.0f;
    }
}

static void slot_lanes_merge(bounds *b, const slot_lanes *s)
{
    for (int l = 0; l < HS_PART_SLOTS; l++)
        for (int j = 0; j < SLOT_LANES; j++) {
            b->n[l] += s->n[l][j];
            b->x0[l] = s->x0[l][j] < b->x0[l] ? s->x0[l][j] : b->x0[l];
            b->x1[l] = s->x1[l][j] > b->x1[l] ? s->x1[l][j] : b->x1[l];
            b->y0[l] = s->y0[l][j] < b->y0[l] ? s->y0[l][j] : b->y0[l];
            b->y1[l] = s->y1[l][j] > b->y1[l] ? s->y1[l][j] : b->y1[l];
            b->r[l] = s->r[l][j] > b->r[l] ? s->r[l][j] : b->r[l];
        }
}

/* Whether circle u of X, Y, R is not plainly in slot 0 of a one-leaf partition: big, outside
 * the leaf's box, or NaN. */
static inline int off_slot0(const float *restrict X, const float *restrict Y,
                            const float *restrict R, size_t u, float split, const float *b)
{
    return (R[u] > split) | !(X[u] >= b[0]) | !(Y[u] >= b[1]) | !(X[u] <= b[2]) | !(Y[u] <= b[3]);
}

/* Whether slot l is hs_gpart_slot's for the circle, or the circle is refused anyway (NaN). */
static inline int slot_agrees(const hs_gpart *P, int l, float x, float y, float r)
{
    return l == hs_gpart_slot(P, x, y, r) || isnan(x) || isnan(y);
}

/* The circle (x, y, r) of slot l into b; its smallest radius and finiteness into *rmin and
 * *finite (registers, not a chain of stores and loads through b). */
static inline void bounds_add(bounds *b, float *rmin, float *finite, float x, float y, float r,
                              int l)
{
    b->n[l]++;
    b->x0[l] = x < b->x0[l] ? x : b->x0[l];
    b->x1[l] = x > b->x1[l] ? x : b->x1[l];
    b->y0[l] = y < b->y0[l] ? y : b->y0[l];
    b->y1[l] = y > b->y1[l] ? y : b->y1[l];
    b->r[l] = r > b->r[l] ? r : b->r[l];
    *rmin = r < *rmin ? r : *rmin;
    *finite += x * 0.0f + y * 0.0f + r * 0.0f;
}

/* The slot of circle j (x, y, r) of a block whose slots were classified (slot, or NULL: one by
 * one): the repeats' when repeats.c marked it so. */
static inline int slot_at(const hs_gpart *P, const uint8_t *slot_of, const int32_t *slot, size_t j,
                          float x, float y, float r)
{
    const int l = P->repeats && slot_of[j] ? HS_PART_REPEATS(P)
                  : slot                   ? slot[j]
                                           : hs_gpart_slot(P, x, y, r);
    HS_ASSERT((P->repeats && slot_of[j]) || slot_agrees(P, l, x, y, r));
    return l;
}

/* Bounds of the circles i0 .. i1-1. With a one-leaf partition, blocks whose circles all lie in
 * its slot (nearly all) run a vectorisable min / max over 8 lanes; in the others only the
 * groups of 8 holding another go element by element. A partition with more leaves classifies
 * every circle, a block at a time (slots_of), into the lanes of its slot (slot_lanes). Coordinates
 * are finite, so min / max are exact in float and the result does not depend on how the range is
 * split. */
HS_GRID_CLONES
static void bounds_range(const float *restrict X, const float *restrict Y, const float *restrict R,
                         size_t i0, size_t i1, const hs_gpart *P, uint8_t *restrict slot_of,
                         bounds *b)
{
    enum { W = 8 };
    lanes m;
    for (int j = 0; j < W; j++) {
        m.x0[j] = m.y0[j] = m.rmin[j] = INFINITY;
        m.x1[j] = m.y1[j] = -INFINITY;
        m.r[j] = m.finite[j] = 0.0f;
    }
    const float split = P->split, *bx = P->box[0];
    const int one = P->nleaves == 1 && !P->repeats;
    slot_tables T;
    slot_tables_init(&T, P);
    size_t i = i0, nlanes = 0;
    float rmin = b->rmin, finite = b->finite;
    if (!one) {
        HS_ASSERT(slot_of != NULL);
        slot_lanes lanes_of_slots, *sl = &lanes_of_slots;
        slot_lanes_init(sl);
        int32_t slot[HS_GRID_BLOCK];
        for (; i + W <= i1;) {
            const size_t k = (i1 - i < HS_GRID_BLOCK ? i1 - i : HS_GRID_BLOCK) & ~(size_t)(W - 1);
            slots_of(&T, X + i, Y + i, R + i, k, slot);
            for (size_t j = 0; j < k; j++) {
                slot[j] = slot_at(P, slot_of + i, slot, j, X[i + j], Y[i + j], R[i + j]);
                slot_of[i + j] = (uint8_t)slot[j];
            }
            for (size_t j = 0; j < k; j += W)
                slot_lanes_add(sl, &m, X + i + j, Y + i + j, R + i + j, slot + j);
            i += k;
        }
        slot_lanes_merge(b, sl);
        for (; i < i1; i++) {
            const int l = slot_at(P, slot_of + i, NULL, 0, X[i], Y[i], R[i]);
            slot_of[i] = (uint8_t)l;
            bounds_add(b, &rmin, &finite, X[i], Y[i], R[i], l);
        }
    }
    /* left to here: one leaf without repeats, whose slots are not kept */
    HS_ASSERT(i == i1 || (one && slot_of == NULL));
    while (i < i1) {
        size_t k = i1 - i < HS_GRID_BLOCK ? i1 - i : HS_GRID_BLOCK;
        int odd = 0;
        for (size_t j = 0; j < k; j++)
            odd |= off_slot0(X, Y, R, i + j, split, bx);
        if (!odd && k == HS_GRID_BLOCK) {
            for (size_t u = i; u < i + HS_GRID_BLOCK; u += W)
                lanes_add(&m, X, Y, R, u);
            nlanes += k;
            i += k;
            continue;
        }
        /* such a block goes 8 by 8, the groups holding another slot element by element */
        for (size_t u = i; u < i + k; u += W) {
            int grp = 1;
            if (u + W <= i + k) {
                grp = 0;
                for (int j = 0; j < W; j++)
                    grp |= off_slot0(X, Y, R, u + (size_t)j, split, bx);
            }
            if (!grp) {
                lanes_add(&m, X, Y, R, u);
                nlanes += W;
                continue;
            }
            const size_t ue = u + W < i + k ? u + W : i + k;
            int32_t slot[W];
            if (ue - u == W)
                slots_of(&T, X + u, Y + u, R + u, W, slot);
            for (size_t v = u; v < ue; v++) {
                const int l = ue - u == W ? slot[v - u] : hs_gpart_slot(P, X[v], Y[v], R[v]);
                HS_ASSERT(slot_agrees(P, l, X[v], Y[v], R[v]));
                bounds_add(b, &rmin, &finite, X[v], Y[v], R[v], l);
            }
        }
        i += k;
    }
    b->rmin = rmin;
    b->finite = finite;
    b->n[0] += nlanes;
    for (int j = 0; j < W; j++) {
        b->x0[0] = m.x0[j] < b->x0[0] ? m.x0[j] : b->x0[0];
        b->x1[0] = m.x1[j] > b->x1[0] ? m.x1[j] : b->x1[0];
        b->y0[0] = m.y0[j] < b->y0[0] ? m.y0[j] : b->y0[0];
        b->y1[0] = m.y1[j] > b->y1[0] ? m.y1[j] : b->y1[0];
        b->r[0] = m.r[j] > b->r[0] ? m.r[j] : b->r[0];
        b->rmin = m.rmin[j] < b->rmin ? m.rmin[j] : b->rmin;
        b->finite += m.finite[j];
    }
}

/* The split radius from a fixed-stride sample (deterministic and O(1)): radii above
 * max(HS_GRID_SPLIT * p99, half the density cell of the sample's box) go to level 1.
 * Sample k is circle floor(k n / s), stepped in integers. The sample is on the heap (16 KB):
 * a build runs on a 64 KB thread stack. HS_E_NOMEM when it cannot be had. */
static hs_status split_radius(const hs_circles *cs, float cell_size_req, float *split)
{
    const size_t n = cs->n;
    const float *X = cs->x, *Y = cs->y, *Rr = cs->r;
    size_t s = n < HS_GRID_SAMPLE ? n : HS_GRID_SAMPLE;
    float *sample = malloc(s * sizeof *sample);
    if (sample == NULL)
        return HS_E_NOMEM;
    float sx0 = INFINITY, sy0 = INFINITY, sx1 = -INFINITY, sy1 = -INFINITY;
    size_t i = 0, rem = 0;
    const size_t step = n / s, frac = n % s;
    for (size_t k = 0; k < s; k++) {
        sample[k] = Rr[i];
        sx0 = X[i] < sx0 ? X[i] : sx0;
        sx1 = X[i] > sx1 ? X[i] : sx1;
        sy0 = Y[i] < sy0 ? Y[i] : sy0;
        sy1 = Y[i] > sy1 ? Y[i] : sy1;
        i += step;
        rem += frac;
        if (rem >= s) {
            i++;
            rem -= s;
        }
    }
    double p99 = hs_select_kth(sample, s, (size_t)(0.99 * (double)(s - 1)));
    free(sample);
    double hd = sqrt(HS_GRID_PER_CELL * ((double)sx1 - (double)sx0) * ((double)sy1 - (double)sy0) /
                     (double)n);
    *split = (float)fmax(HS_GRID_SPLIT * p99, 0.5 * fmax(hd, (double)cell_size_req));
    return HS_OK;
}

/* Bounds, largest radius and count per slot over all circles, on the team: one part per
 * slot, merged in order; the slots kept in slot_of when it is not NULL. */
typedef struct measure_call {
    const hs_circles *cs;
    const hs_gpart *P;
    uint8_t *slot_of;
    size_t parts;
    bounds *part;
} measure_call;

static void measure_part(void *ctx, size_t t, int slot)
{
    const measure_call *m = (const measure_call *)ctx;
    const size_t n = m->cs->n, nt = m->parts;
    (void)slot;
    bounds_range(m->cs->x, m->cs->y, m->cs->r, n * t / nt, n * (t + 1) / nt, m->P, m->slot_of,
                 &m->part[t]);
}

static void measure_levels(const hs_circles *cs, const hs_gpart *P, uint8_t *slot_of,
                           const hs_par *par, bounds *bd)
{
    const size_t n = cs->n;
    const int T = par->threads;
    bounds_init(bd);
    if (T == 1) {
        bounds_range(cs->x, cs->y, cs->r, 0, n, P, slot_of, bd);
        return;
    }
    bounds part[HS_GRID_MAX_BUILD_THREADS];
    HS_ASSERT(T <= HS_GRID_MAX_BUILD_THREADS);
    for (int t = 0; t < T; t++)
        bounds_init(&part[t]);
    const measure_call m = {cs, P, slot_of, (size_t)T, part};
    hs_par_for(par, (size_t)T, measure_part, (void *)&m);
    for (int t = 0; t < T; t++)
        bounds_merge(bd, &part[t]);
}

/* The levels from the measured bounds: one per non-empty slot, in slot order (the leaves, the
 * outliers, the repeats, the big circles), each with its count, largest radius and cell shape; the
 * cell size asked for applies to the leaves. HS_E_RANGE when it cannot be honoured. */
static hs_status shape_levels(hs_grid *g, const bounds *bd, size_t n)
{
    const int out = HS_PART_OUTLIERS(&g->part), rep = HS_PART_REPEATS(&g->part),
              big = HS_PART_BIG(&g->part);
    g->nlevels = g->nsmall = 0;
    for (int s = 0; s < HS_PART_SLOTS; s++)
        g->slot_level[s] = -1;
    if (n == 0)
        return HS_OK;
    if (bd->n[big] == n) { /* every circle is big: an empty level of small ones first */
        g->nlevels = g->nsmall = 1;
        level_shape(&g->lv[0], 0.0, 0.0, 0.0, 0.0, 1.0, 1.0);
    }
    for (int s = 0; s <= big; s++) {
        if (bd->n[s] == 0)
            continue;
        const int l = g->nlevels++;
        hs_glevel *L = &g->lv[l];
        g->slot_level[s] = (int8_t)l;
        g->nsmall += s != big;
        L->n = bd->n[s];
        L->rmax = bd->r[s];
        L->repeats = s == rep;
        const double req = s < out ? (double)g->cell_size_req : 0.0;
        const double fill = s < out ? (double)g->part.fill[s] : 1.0;
        if (!level_shape(L, bd->x0[s], bd->y0[s], bd->x1[s], bd->y1[s], req, fill))
            return HS_E_RANGE;
    }
    return HS_OK;
}

/* Whether the measured bounds prove every circle valid (finite, |coordinate| and radius at
 * most HS_MAX_COORD, radius >= 0): the checks of hs_circles_create, done in the bounds pass so
 * that a rebuild reads the circles once. An empty level's bounds are +-inf and not checked. */
static int bounds_valid(const bounds *bd, size_t n)
{
    const float M = HS_MAX_COORD;
    if (!(bd->finite == 0.0f) || !(bd->rmin >= 0.0f))
        return 0;
    (void)n;
    for (int l = 0; l < HS_PART_SLOTS; l++) {
        if (bd->n[l] > 0 && !(bd->x0[l] >= -M && bd->x1[l] <= M && bd->y0[l] >= -M &&
                              bd->y1[l] <= M && bd->r[l] <= M))
            return 0;
    }
    return 1;
}

hs_status hs_grid_plan_levels(hs_grid *g, const hs_circles *cs, int repeats, const hs_par *par,
                              size_t *bad_index)
{
    const size_t n = cs->n;
    /* validate before anything of g changes: a refused rebuild leaves the grid as it was */
    hs_status v = hs_circles_check(cs, 0, n < HS_GRID_SAMPLE ? n : HS_GRID_SAMPLE, bad_index);
    if (v != HS_OK)
        return v;
    float split = INFINITY;
    if (n > 0 && (v = split_radius(cs, g->cell_size_req, &split)) != HS_OK)
        return v;
    hs_gpart P;
    if (hs_gpart_plan(&P, cs, split) != HS_OK)
        return HS_E_NOMEM;
    P.repeats = (uint8_t)(repeats != 0);
    /* several leaves, or repeats: every circle is classified once, here, and its slot kept for
     * the sort (scratch: a refused build leaves it changed, and nothing reads it then) */
    uint8_t *slot_of = NULL;
    HS_ASSERT(!repeats || (g->slot_of != NULL && g->slot_cap >= n));
    if (P.nleaves > 1 || repeats) {
        if ((slot_of = hs_grid_grow(g->slot_of, &g->slot_cap, n, 1)) == NULL)
            return HS_E_NOMEM;
        g->slot_of = slot_of;
    }
    bounds bd;
    measure_levels(cs, &P, slot_of, par, &bd);
    if (n > 0 && !bounds_valid(&bd, n)) {
        v = hs_circles_check(cs, 0, n, bad_index);
        HS_ASSERT(v != HS_OK);
        return v != HS_OK ? v : HS_E_RANGE;
    }
    /* shaped on a copy: a cell size that cannot be honoured leaves g as it was */
    hs_grid *shaped = malloc(sizeof *shaped);
    if (shaped == NULL)
        return HS_E_NOMEM;
    *shaped = *g;
    memset(shaped->lv, 0, sizeof shaped->lv);
    shaped->n = n;
    shaped->split_r = split;
    shaped->part = P;
    v = shape_levels(shaped, &bd, n);
    if (v == HS_OK)
        *g = *shaped;
    free(shaped);
    if (v != HS_OK)
        return v;
    size_t ncells = 0;
    for (int l = 0; l < g->nlevels; l++) {
        g->lv[l].cell0 = (uint32_t)ncells;
        ncells += (size_t)g->lv[l].nx * (size_t)g->lv[l].ny;
    }
    if (ncells + 1 > (size_t)UINT32_MAX)
        return HS_E_TOO_MANY;
    g->ncells = ncells;
    return HS_OK;
}

void hs_grid_level_weights(hs_grid *g)
{
    const double h0 = g->nlevels > 0 ? g->lv[0].h : 0.0;
    for (int l = 0; l < g->nlevels; l++) {
        hs_glevel *L = &g->lv[l];
        const size_t nc = (size_t)L->nx * (size_t)L->ny;
        const size_t first = g->cell_start[L->cell0], n = g->cell_start[L->cell0 + nc] - first;
        const size_t k = n < HS_GRID_MEET_SAMPLE ? n : HS_GRID_MEET_SAMPLE;
        double sr = 0.0, sr2 = 0.0;
        for (size_t i = 0; i < k; i++) {
            const double r = g->r[first + i * n / k];
            sr += r;
            sr2 += r * r;
        }
        L->meet = k > 0 ? (float)((double)n * (2.0 * h0 * sr + 3.14159265358979 * sr2) / (double)k)
                        : 0.0f;
    }
}
