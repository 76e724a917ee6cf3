/* The grid build's first pass (build.h): the split radius between the two levels, each
 * level's bounds, largest radius and count, its cell shape and where its cells start.
 *
 * Two levels at most: level 0 holds the "small" circles, level 1 the few much larger ones (r
 * above a threshold taken from the radius distribution), each with its own cell size and
 * inflation radius (see grid/layout.h). */
#include <math.h>
#include <string.h>

#include <omp.h>

#include "grid/build.h"
#include "grid/vectorize.h"
#include "tuning.h"

/* The k-th smallest of a[0 .. n) (a is permuted): the value a sort would put at a[k]. The
 * radii are finite, so < is a total order. */
static float select_kth(float *a, size_t n, size_t k)
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

/* Sets a level's cell size and dimensions from its bounds, count and largest radius. */
static void level_shape(hs_glevel *L, double minx, double miny, double maxx, double maxy,
                        double req)
{
    double w = maxx - minx, hh = maxy - miny;
    double n = (double)L->n;
    double h = req;
    if (!(h > 0.0)) {
        double hd = sqrt(HS_GRID_PER_CELL * w * hh / n);
        if (!(hd > 0.0))
            hd = HS_GRID_PER_CELL * fmax(w, hh) / n;
        h = fmax(hd, HS_GRID_R_FACTOR * (double)L->rmax);
    }
    double mag = fmax(fmax(fabs(minx), fabs(maxx)), fmax(fabs(miny), fabs(maxy)));
    /* cells much finer than float resolution of the coordinates only cost memory */
    h = fmax(h, mag * 1e-6);
    if (!(h > 0.0))
        h = 1.0;
    double max_cells = HS_GRID_MAX_CELLS_PER_CIRCLE * n + 64.0;
    double nx, ny;
    for (;;) {
        nx = floor(w / h) + 1.0;
        ny = floor(hh / h) + 1.0;
        if (nx * ny <= max_cells)
            break;
        h *= 1.25;
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
}

/* Bounds, largest radius and count of each level over a range of circles. */
typedef struct bounds {
    float x0[2], y0[2], x1[2], y1[2], r[2];
    size_t n1;
} bounds;

static void bounds_init(bounds *b)
{
    for (int l = 0; l < 2; l++) {
        b->x0[l] = b->y0[l] = INFINITY;
        b->x1[l] = b->y1[l] = -INFINITY;
        b->r[l] = 0.0f;
    }
    b->n1 = 0;
}

static void bounds_merge(bounds *a, const bounds *b)
{
    for (int l = 0; l < 2; l++) {
        a->x0[l] = b->x0[l] < a->x0[l] ? b->x0[l] : a->x0[l];
        a->y0[l] = b->y0[l] < a->y0[l] ? b->y0[l] : a->y0[l];
        a->x1[l] = b->x1[l] > a->x1[l] ? b->x1[l] : a->x1[l];
        a->y1[l] = b->y1[l] > a->y1[l] ? b->y1[l] : a->y1[l];
        a->r[l] = b->r[l] > a->r[l] ? b->r[l] : a->r[l];
    }
    a->n1 += b->n1;
}

/* One group of 8 circles into the lane-wise bounds of bounds_range. */
static inline void lanes_add(float *restrict mx0, float *restrict my0, float *restrict mx1,
                             float *restrict my1, float *restrict mr, const float *restrict X,
                             const float *restrict Y, const float *restrict R, size_t u)
{
    for (int j = 0; j < 8; j++) {
        float x = X[u + (size_t)j], y = Y[u + (size_t)j], r = R[u + (size_t)j];
        mx0[j] = x < mx0[j] ? x : mx0[j];
        mx1[j] = x > mx1[j] ? x : mx1[j];
        my0[j] = y < my0[j] ? y : my0[j];
        my1[j] = y > my1[j] ? y : my1[j];
        mr[j] = r > mr[j] ? r : mr[j];
    }
}

/* Bounds of the circles i0 .. i1-1. Blocks without a level-1 circle (nearly all) run a
 * vectorisable min / max over 8 lanes; in the others only the groups of 8 holding one go
 * element by element. Coordinates are finite, so min / max are exact in float and the result
 * does not depend on how the range is split. */
HS_GRID_CLONES
static void bounds_range(const float *restrict X, const float *restrict Y, const float *restrict R,
                         size_t i0, size_t i1, float split, bounds *b)
{
    enum { W = 8 };
    float mx0[W], my0[W], mx1[W], my1[W], mr[W];
    for (int j = 0; j < W; j++) {
        mx0[j] = my0[j] = INFINITY;
        mx1[j] = my1[j] = -INFINITY;
        mr[j] = 0.0f;
    }
    size_t i = i0;
    while (i < i1) {
        size_t k = i1 - i < HS_GRID_BLOCK ? i1 - i : HS_GRID_BLOCK;
        int big = 0;
        for (size_t j = 0; j < k; j++)
            big |= R[i + j] > split;
        if (!big && k == HS_GRID_BLOCK) {
            for (size_t u = i; u < i + HS_GRID_BLOCK; u += W)
                lanes_add(mx0, my0, mx1, my1, mr, X, Y, R, u);
            i += k;
            continue;
        }
        /* a block holding a level-1 circle (or the last one) goes 8 by 8, the groups
         * holding one element by element */
        for (size_t u = i; u < i + k; u += W) {
            int grp = 1;
            if (u + W <= i + k) {
                grp = 0;
                for (int j = 0; j < W; j++)
                    grp |= R[u + (size_t)j] > split;
            }
            if (!grp) {
                lanes_add(mx0, my0, mx1, my1, mr, X, Y, R, u);
                continue;
            }
            const size_t ue = u + W < i + k ? u + W : i + k;
            for (size_t v = u; v < ue; v++) {
                float x = X[v], y = Y[v], r = R[v];
                int l = r > split;
                b->n1 += (size_t)l;
                b->x0[l] = x < b->x0[l] ? x : b->x0[l];
                b->x1[l] = x > b->x1[l] ? x : b->x1[l];
                b->y0[l] = y < b->y0[l] ? y : b->y0[l];
                b->y1[l] = y > b->y1[l] ? y : b->y1[l];
                b->r[l] = r > b->r[l] ? r : b->r[l];
            }
        }
        i += k;
    }
    for (int j = 0; j < W; j++) {
        b->x0[0] = mx0[j] < b->x0[0] ? mx0[j] : b->x0[0];
        b->x1[0] = mx1[j] > b->x1[0] ? mx1[j] : b->x1[0];
        b->y0[0] = my0[j] < b->y0[0] ? my0[j] : b->y0[0];
        b->y1[0] = my1[j] > b->y1[0] ? my1[j] : b->y1[0];
        b->r[0] = mr[j] > b->r[0] ? mr[j] : b->r[0];
    }
}

/* The split radius from a fixed-stride sample (deterministic and O(1)): radii above
 * max(HS_GRID_SPLIT * p99, half the density cell of the sample's box) go to level 1.
 * Sample k is circle floor(k n / s), stepped in integers. */
static float split_radius(const hs_circles *cs, float cell_size_req)
{
    const size_t n = cs->n;
    const float *X = cs->x, *Y = cs->y, *Rr = cs->r;
    float sample[HS_GRID_SAMPLE];
    size_t s = n < HS_GRID_SAMPLE ? n : HS_GRID_SAMPLE;
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
    double p99 = select_kth(sample, s, (size_t)(0.99 * (double)(s - 1)));
    double hd = sqrt(HS_GRID_PER_CELL * ((double)sx1 - (double)sx0) * ((double)sy1 - (double)sy0) /
                     (double)n);
    return (float)fmax(HS_GRID_SPLIT * p99, 0.5 * fmax(hd, (double)cell_size_req));
}

/* Bounds, largest radius and count per level over all circles, on the team. */
static void measure_levels(const hs_circles *cs, float split, int T, bounds *bd)
{
    const size_t n = cs->n;
    bounds_init(bd);
    if (T == 1) {
        bounds_range(cs->x, cs->y, cs->r, 0, n, split, bd);
        return;
    }
    bounds part[HS_GRID_MAX_BUILD_THREADS];
    for (int t = 0; t < T; t++)
        bounds_init(&part[t]);
#pragma omp parallel num_threads(T)
    {
        const size_t nt = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
        bounds_range(cs->x, cs->y, cs->r, n * t / nt, n * (t + 1) / nt, split, &part[t]);
    }
    for (int t = 0; t < T; t++)
        bounds_merge(bd, &part[t]);
}

/* The levels' counts, largest radii and cell shapes from the measured bounds. */
static void shape_levels(hs_grid *g, const bounds *bd, size_t n)
{
    const size_t n1 = bd->n1;
    if (n > 0 && n1 == 0) {
        g->split_r = INFINITY;
        g->nlevels = 1;
        g->lv[0].n = n;
        g->lv[0].rmax = bd->r[0];
        level_shape(&g->lv[0], bd->x0[0], bd->y0[0], bd->x1[0], bd->y1[0], g->cell_size_req);
    } else if (n > 0) {
        g->nlevels = 2;
        g->lv[0].n = n - n1;
        g->lv[0].rmax = bd->r[0];
        g->lv[1].n = n1;
        g->lv[1].rmax = bd->r[1];
        if (n1 < n)
            level_shape(&g->lv[0], bd->x0[0], bd->y0[0], bd->x1[0], bd->y1[0], g->cell_size_req);
        else
            level_shape(&g->lv[0], 0.0, 0.0, 0.0, 0.0, 1.0);
        level_shape(&g->lv[1], bd->x0[1], bd->y0[1], bd->x1[1], bd->y1[1], 0.0);
    }
}

hs_status hs_grid_plan_levels(hs_grid *g, const hs_circles *cs, int threads)
{
    const size_t n = cs->n;
    memset(g->lv, 0, sizeof g->lv);
    g->n = n;
    g->nlevels = 0;
    g->split_r = n > 0 ? split_radius(cs, g->cell_size_req) : INFINITY;
    bounds bd;
    measure_levels(cs, g->split_r, threads, &bd);
    shape_levels(g, &bd, n);
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
