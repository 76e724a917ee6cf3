/* Uniform grid build / rebuild: automatic cell size, big-circle level, parallel stable counting sort into CSR. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "grid_impl.h"

/* Auto cell size: about HS_GRID_PER_CELL circles per cell on average over the level's bounding
 * box, and never below HS_GRID_R_FACTOR times the level's largest radius (a query is inflated
 * by that radius, so smaller cells would only multiply the cells visited). Chosen by
 * measurement on the uniform / clustered / mixed scenes (bench/bench_grid.cc). */
#ifndef HS_GRID_PER_CELL
#define HS_GRID_PER_CELL 4.0
#endif
#define HS_GRID_R_FACTOR 2.0
/* Cells per circle are capped (the grid then grows its cells): this bounds cell_start[] and the
 * build's histograms, hence the bytes per circle. */
#define HS_GRID_MAX_CELLS_PER_CIRCLE 0.5
/* A circle goes to the big level when r > max(HS_GRID_SPLIT * p99 radius, half the density
 * cell): with centre-only insertion every query of level 0 is inflated by level 0's largest
 * radius, so the 0.1% asteroids among r ~ 1 particles must not set that inflation. */
#define HS_GRID_SPLIT 4.0
/* The build keeps one histogram of cell_start's size per thread (reused by rebuilds), so its
 * team is capped: memory stays within 16 + 4 (mask) + 4 (T + 1) cells / N bytes per circle. */
#define HS_GRID_MAX_BUILD_THREADS 8
#define HS_GRID_SAMPLE 4096
#ifndef HS_GRID_PREFETCH
#define HS_GRID_PREFETCH 16
#endif

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap && p != NULL)
        return p;
    size_t c = need < 16 ? 16 : need;
    void *q = realloc(p, c * elem);
    if (q == NULL)
        return NULL;
    *cap = c;
    return q;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
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

static inline uint32_t cell_of(const hs_grid *g, float x, float y, float r)
{
    const hs_glevel *L = &g->lv[r > g->split_r ? 1 : 0];
    int32_t cx = hs_gcell(x, L->ox, L->inv_h, L->nx);
    int32_t cy = hs_gcell(y, L->oy, L->inv_h, L->ny);
    return L->cell0 + (uint32_t)cy * (uint32_t)L->nx + (uint32_t)cx;
}

static hs_status grid_fill(hs_grid *g, const hs_circles *cs)
{
    const size_t n = cs->n;
    const float *X = cs->x, *Y = cs->y, *Rr = cs->r;
    const uint32_t *M = cs->mask;
    int T = g->threads > 0 ? g->threads : omp_get_max_threads();
    if (T < 1)
        T = 1;
    if (T > HS_GRID_MAX_BUILD_THREADS)
        T = HS_GRID_MAX_BUILD_THREADS;
    memset(g->lv, 0, sizeof g->lv);
    g->n = n;
    g->nlevels = 0;
    g->split_r = INFINITY;

    if (n > 0) {
        /* The split radius from a fixed-stride sample (deterministic and O(1)): radii above
         * max(HS_GRID_SPLIT * p99, half the density cell of the sample's box) go to level 1. */
        float sample[HS_GRID_SAMPLE];
        size_t s = n < HS_GRID_SAMPLE ? n : HS_GRID_SAMPLE;
        double sx0 = INFINITY, sy0 = INFINITY, sx1 = -INFINITY, sy1 = -INFINITY;
        for (size_t k = 0; k < s; k++) {
            size_t i = (size_t)((double)k * (double)n / (double)s);
            sample[k] = Rr[i];
            sx0 = fmin(sx0, X[i]);
            sx1 = fmax(sx1, X[i]);
            sy0 = fmin(sy0, Y[i]);
            sy1 = fmax(sy1, Y[i]);
        }
        qsort(sample, s, sizeof sample[0], cmp_float);
        double p99 = sample[(size_t)(0.99 * (double)(s - 1))];
        double hd = sqrt(HS_GRID_PER_CELL * (sx1 - sx0) * (sy1 - sy0) / (double)n);
        g->split_r = (float)fmax(HS_GRID_SPLIT * p99, 0.5 * fmax(hd, (double)g->cell_size_req));
    }

    /* one pass: bounds, largest radius and count per level (min / max are exact, so the
     * reduction order is moot) */
    const float split = g->split_r;
    double ax0 = INFINITY, ay0 = INFINITY, ax1 = -INFINITY, ay1 = -INFINITY;
    double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
    float r0 = 0.0f, r1 = 0.0f;
    size_t n1 = 0;
#pragma omp parallel for num_threads(T) schedule(static) reduction(min : ax0, ay0, bx0, by0) \
    reduction(max : ax1, ay1, bx1, by1, r0, r1) reduction(+ : n1)
    for (ptrdiff_t ii = 0; ii < (ptrdiff_t)n; ii++) {
        size_t i = (size_t)ii;
        double x = X[i], y = Y[i];
        if (Rr[i] > split) {
            n1++;
            bx0 = x < bx0 ? x : bx0;
            bx1 = x > bx1 ? x : bx1;
            by0 = y < by0 ? y : by0;
            by1 = y > by1 ? y : by1;
            r1 = Rr[i] > r1 ? Rr[i] : r1;
        } else {
            ax0 = x < ax0 ? x : ax0;
            ax1 = x > ax1 ? x : ax1;
            ay0 = y < ay0 ? y : ay0;
            ay1 = y > ay1 ? y : ay1;
            r0 = Rr[i] > r0 ? Rr[i] : r0;
        }
    }
    if (n > 0 && n1 == 0) {
        g->split_r = INFINITY;
        g->nlevels = 1;
        g->lv[0].n = n;
        g->lv[0].rmax = r0;
        level_shape(&g->lv[0], ax0, ay0, ax1, ay1, g->cell_size_req);
    } else if (n > 0) {
        g->nlevels = 2;
        g->lv[0].n = n - n1;
        g->lv[0].rmax = r0;
        g->lv[1].n = n1;
        g->lv[1].rmax = r1;
        if (n1 < n)
            level_shape(&g->lv[0], ax0, ay0, ax1, ay1, g->cell_size_req);
        else
            level_shape(&g->lv[0], 0.0, 0.0, 0.0, 0.0, 1.0);
        level_shape(&g->lv[1], bx0, by0, bx1, by1, 0.0);
    }

    size_t ncells = 0;
    for (int l = 0; l < g->nlevels; l++) {
        g->lv[l].cell0 = (uint32_t)ncells;
        ncells += (size_t)g->lv[l].nx * (size_t)g->lv[l].ny;
    }
    if (ncells + 1 > (size_t)UINT32_MAX)
        return HS_E_TOO_MANY;
    g->ncells = ncells;

    void *p;
    if ((p = grow(g->cell_start, &g->cells_cap, ncells + 1, sizeof(uint32_t))) == NULL)
        return HS_E_NOMEM;
    g->cell_start = p;
    size_t cap_x = g->cap, cap_y = g->cap, cap_r = g->cap, cap_i = g->cap;
    if ((p = grow(g->x, &cap_x, n, sizeof(float))) == NULL)
        return HS_E_NOMEM;
    g->x = p;
    if ((p = grow(g->y, &cap_y, n, sizeof(float))) == NULL)
        return HS_E_NOMEM;
    g->y = p;
    if ((p = grow(g->r, &cap_r, n, sizeof(float))) == NULL)
        return HS_E_NOMEM;
    g->r = p;
    if ((p = grow(g->id, &cap_i, n, sizeof(uint32_t))) == NULL)
        return HS_E_NOMEM;
    g->id = p;
    /* all four grew to the same capacity or none did */
    g->cap = cap_x < cap_y ? cap_x : cap_y;
    g->cap = g->cap < cap_r ? g->cap : cap_r;
    g->cap = g->cap < cap_i ? g->cap : cap_i;
    if (M != NULL) {
        if ((p = grow(g->mask, &g->mask_cap, n, sizeof(uint32_t))) == NULL)
            return HS_E_NOMEM;
        g->mask = p;
    } else {
        free(g->mask);
        g->mask = NULL;
        g->mask_cap = 0;
    }
    /* T histograms plus T + 1 partial sums */
    if (ncells > (SIZE_MAX / sizeof(uint32_t) - 2) / ((size_t)T + 1))
        return HS_E_NOMEM;
    if ((p = grow(g->scratch, &g->scratch_cap, (size_t)T * ncells + (size_t)T + 1,
                  sizeof(uint32_t))) == NULL)
        return HS_E_NOMEM;
    g->scratch = p;

    uint32_t *cs_ = g->cell_start;
    if (n == 0 || ncells == 0) {
        cs_[0] = 0;
        for (size_t c = 0; c <= ncells; c++)
            cs_[c] = 0;
        return HS_OK;
    }

    /* Stable counting sort: thread t owns input chunk t; its circles of cell c land after those
     * of threads < t and in input order, which is the same order one thread gives, so the grid
     * is identical for every team size. */
    uint32_t *scr = g->scratch;
    float *gx = g->x, *gy = g->y, *gr = g->r;
    uint32_t *gm = g->mask, *gid = g->id;
#pragma omp parallel num_threads(T)
    {
        const size_t nt = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
        uint32_t *part = scr + (size_t)T * ncells; /* T + 1 partial sums */
        uint32_t *hist = scr + t * ncells;
        const size_t i0 = n * t / nt, i1 = n * (t + 1) / nt;
        memset(hist, 0, ncells * sizeof *hist);
        for (size_t i = i0; i < i1; i++)
            hist[cell_of(g, X[i], Y[i], Rr[i])]++;
#pragma omp barrier
        const size_t c0 = ncells * t / nt, c1 = ncells * (t + 1) / nt;
        uint32_t sum = 0;
        for (size_t c = c0; c < c1; c++)
            for (size_t u = 0; u < nt; u++)
                sum += scr[u * ncells + c];
        part[t] = sum;
#pragma omp barrier
        uint32_t off = 0;
        for (size_t u = 0; u < t; u++)
            off += part[u];
        for (size_t c = c0; c < c1; c++) {
            cs_[c] = off;
            for (size_t u = 0; u < nt; u++) {
                uint32_t v = scr[u * ncells + c];
                scr[u * ncells + c] = off;
                off += v;
            }
        }
        if (t == nt - 1)
            cs_[ncells] = (uint32_t)n;
#pragma omp barrier
        /* scatter only the index (one random write per circle), then gather the coordinates
         * in storage order: independent random reads overlap far better than random writes */
        {
            /* cells computed HS_GRID_PREFETCH circles ahead, so the write's line is requested
             * early; the ring holds the cells in between */
            uint32_t ring[HS_GRID_PREFETCH];
            size_t ahead = i1 - i0 < HS_GRID_PREFETCH ? i1 - i0 : HS_GRID_PREFETCH;
            for (size_t k = 0; k < ahead; k++)
                ring[k] = cell_of(g, X[i0 + k], Y[i0 + k], Rr[i0 + k]);
            for (size_t i = i0; i < i1; i++) {
                size_t slot = (i - i0) % HS_GRID_PREFETCH;
                uint32_t c = ring[slot];
                size_t j = i + HS_GRID_PREFETCH;
                if (j < i1) {
                    uint32_t cj = cell_of(g, X[j], Y[j], Rr[j]);
                    ring[slot] = cj;
#if defined(__GNUC__) || defined(__clang__)
                    __builtin_prefetch(gid + hist[cj], 1);
#endif
                }
                gid[hist[c]++] = (uint32_t)i;
            }
        }
#pragma omp barrier
        for (size_t p = i0; p < i1; p++) {
#if defined(__GNUC__) || defined(__clang__)
            /* the reads are random but known ahead: ask for them early */
            if (p + HS_GRID_PREFETCH < i1) {
                uint32_t f = gid[p + HS_GRID_PREFETCH];
                __builtin_prefetch(X + f);
                __builtin_prefetch(Y + f);
                __builtin_prefetch(Rr + f);
            }
#endif
            uint32_t i = gid[p];
            gx[p] = X[i];
            gy[p] = Y[i];
            gr[p] = Rr[i];
            if (gm)
                gm[p] = M[i];
        }
    }
    return HS_OK;
}

hs_status hs_grid_build(const hs_circles *cs, const hs_grid_opts *opts, hs_grid **out)
{
    if (cs == NULL || out == NULL)
        return HS_E_NULL;
    *out = NULL;
    float cell = opts ? opts->cell_size : 0.0f;
    int threads = opts ? opts->threads : 0;
    if (!(cell >= 0.0f) || !isfinite(cell) || threads < 0)
        return HS_E_RANGE;
    hs_grid *g = calloc(1, sizeof *g);
    if (g == NULL)
        return HS_E_NOMEM;
    g->cell_size_req = cell;
    g->threads = threads;
    hs_status s = grid_fill(g, cs);
    if (s != HS_OK) {
        hs_grid_destroy(g);
        return s;
    }
    *out = g;
    return HS_OK;
}

hs_status hs_grid_rebuild(hs_grid *g, const hs_circles *cs)
{
    if (g == NULL || cs == NULL)
        return HS_E_NULL;
    hs_status s = grid_fill(g, cs);
    if (s != HS_OK) {
        /* leave a valid empty grid rather than a half-sorted one */
        g->n = 0;
        g->nlevels = 0;
        g->ncells = 0;
        if (g->cell_start)
            g->cell_start[0] = 0;
    }
    return s;
}

void hs_grid_destroy(hs_grid *g)
{
    if (g == NULL)
        return;
    free(g->x);
    free(g->y);
    free(g->r);
    free(g->id);
    free(g->mask);
    free(g->cell_start);
    free(g->scratch);
    free(g);
}

size_t hs_grid_count(const hs_grid *g) { return g ? g->n : 0; }

size_t hs_grid_bytes(const hs_grid *g)
{
    if (g == NULL)
        return 0;
    return sizeof *g + g->cap * (3 * sizeof(float) + sizeof(uint32_t)) +
           g->mask_cap * sizeof(uint32_t) + g->cells_cap * sizeof(uint32_t) +
           g->scratch_cap * sizeof(uint32_t);
}

float hs_grid_cell_size(const hs_grid *g)
{
    return (g && g->nlevels > 0) ? (float)g->lv[0].h : 0.0f;
}
