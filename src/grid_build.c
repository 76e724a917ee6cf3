/* Uniform grid build / rebuild: automatic cell size, big-circle level, parallel stable counting sort into CSR. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1 /* posix_memalign, madvise */
#endif
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

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
/* Build threads: at most this many (each keeps a band buffer), and one per
 * HS_GRID_MIN_PER_THREAD circles (measured: from 2 x 16384 circles two threads beat one on
 * this 2-core machine; below, the team costs more to start than it saves). */
#define HS_GRID_MAX_BUILD_THREADS 8
#ifndef HS_GRID_MIN_PER_THREAD
#define HS_GRID_MIN_PER_THREAD 16384
#endif
/* Up to HS_GRID_DIRECT circles the sort is one counting sort straight from the input (its
 * random writes stay in L2: measured faster than the bands up to ~32 K circles); above,
 * circles are first partitioned into bands of at most HS_GRID_BAND circles, each then sorted
 * inside a per-thread buffer that stays in L2 (16 K circles: 16 + 16 + 4 bytes each). */
#ifndef HS_GRID_DIRECT
#define HS_GRID_DIRECT 32768
#endif
#ifndef HS_GRID_BAND
#define HS_GRID_BAND 16384
#endif
/* Bands are unions of consecutive sub-bands (2^sh cells each, at most HS_GRID_SUBBANDS of
 * them, about HS_GRID_SB_PER_BAND per band: fine enough to pack the bands evenly, coarse
 * enough for the tables to stay in L1). */
#define HS_GRID_SUBBANDS 4096
#ifndef HS_GRID_SB_PER_BAND
#define HS_GRID_SB_PER_BAND 16
#endif
#define HS_GRID_BLOCK 256 /* circles per vectorised cell computation */
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

/* n elements of elem bytes, 64-byte aligned (NULL on failure or overflow). */
static void *alloc_lines(size_t n, size_t elem)
{
    if (n > (SIZE_MAX - 63) / elem)
        return NULL;
    const size_t b = (n * elem + 63) & ~(size_t)63;
#if defined(MADV_HUGEPAGE)
    /* Arrays of megabytes go on 2 MB pages where the system allows it: pass 2 writes ~64
     * streams per array at once, which on 4 KB pages miss the first-level TLB (measured
     * ~3% of a 10^6 build). Only whole huge pages are advised, nothing is over-allocated. */
    const size_t huge = (size_t)2 << 20;
    if (b >= huge) {
        void *p = NULL;
        if (posix_memalign(&p, huge, b) != 0)
            return NULL;
        (void)madvise(p, b & ~(huge - 1), MADV_HUGEPAGE);
        return p;
    }
#endif
    return aligned_alloc(64, b);
}

/* The k-th smallest of a[0 .. n) (a is permuted): the value a sort would put at a[k]. The
 * radii are finite, so < is a total order. */
static float select_kth(float *a, size_t n, size_t k)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        float p0 = a[lo], p1 = a[mid], p2 = a[hi];
        float pivot = p0 < p1 ? (p1 < p2 ? p1 : (p0 < p2 ? p2 : p0))
                              : (p0 < p2 ? p0 : (p1 < p2 ? p2 : p1));
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

/* The per-circle cell is most of the build's arithmetic (three times per circle), so it is
 * compiled as HS_GRID_CLONES. The operations are the same IEEE double ones in every clone
 * (nothing to contract into an FMA), so the cells are. */

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

/* Blocks without a level-1 circle (nearly all) run a vectorisable min / max over 8 lanes; in
 * the others only the groups of 8 holding one go element by element. Coordinates are finite,
 * so min / max are exact in float and the result does not depend on how the range is split. */
/* One group of 8 circles into the lane-wise bounds of bounds_range. */
static inline void
lanes_add(float *restrict mx0, float *restrict my0, float *restrict mx1, float *restrict my1,
          float *restrict mr, const float *restrict X, const float *restrict Y,
          const float *restrict R, size_t u)
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

HS_GRID_CLONES
static void bounds_range(const float *restrict X, const float *restrict Y,
                         const float *restrict R, size_t i0, size_t i1, float split, bounds *b)
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

/* The cell of a circle: hs_gcell along each axis in the circle's level, written without
 * branches (f clamped to [0, n - 1] before truncation gives the same value for every f, NaN
 * included) so that a block of circles vectorises. A block holding a level-1 circle computes
 * both levels' cells and picks per lane. */
typedef struct cellfn {
    double ox[2], oy[2], ih[2], tx[2], ty[2]; /* per level: origin, 1 / h, last column / row */
    uint32_t nx[2], cell0[2];
    float split; /* radii above: level 1 (INFINITY: one level) */
    int two;
} cellfn;

static void cellfn_init(cellfn *F, const hs_grid *g)
{
    for (int l = 0; l < 2; l++) {
        const hs_glevel *L = &g->lv[l < g->nlevels ? l : 0];
        F->ox[l] = L->ox;
        F->oy[l] = L->oy;
        F->ih[l] = L->inv_h;
        F->tx[l] = (double)(L->nx - 1);
        F->ty[l] = (double)(L->ny - 1);
        F->nx[l] = (uint32_t)L->nx;
        F->cell0[l] = L->cell0;
    }
    F->split = g->split_r;
    F->two = g->nlevels > 1;
}

static inline uint32_t cell_bf(const cellfn *F, int l, float x, float y)
{
    double fx = ((double)x - F->ox[l]) * F->ih[l], fy = ((double)y - F->oy[l]) * F->ih[l];
    fx = fx >= 0.0 ? fx : 0.0;
    fx = fx < F->tx[l] ? fx : F->tx[l];
    fy = fy >= 0.0 ? fy : 0.0;
    fy = fy < F->ty[l] ? fy : F->ty[l];
    return F->cell0[l] + (uint32_t)(int32_t)fy * F->nx[l] + (uint32_t)(int32_t)fx;
}

HS_GRID_CLONES
static void cells_block(const cellfn *Fp, const float *restrict x, const float *restrict y,
                        const float *restrict r, size_t k, uint32_t *restrict out)
{
    const cellfn Fl = *Fp, *F = &Fl; /* a local copy: nothing written below can alias it */
    int big = 0;
    if (F->two) {
        const float split = F->split;
        for (size_t i = 0; i < k; i++)
            big |= r[i] > split;
    }
    if (!big) {
        for (size_t i = 0; i < k; i++)
            out[i] = cell_bf(F, 0, x[i], y[i]);
    } else {
        const float split = F->split;
        for (size_t i = 0; i < k; i++) {
            uint32_t c0 = cell_bf(F, 0, x[i], y[i]), c1 = cell_bf(F, 1, x[i], y[i]);
            out[i] = r[i] > split ? c1 : c0;
        }
    }
}

/* Turns the counts in cs[c0 .. c1) into end positions (from base): a backward scatter that
 * pre-decrements them then leaves each cell's start there, and is stable. */
static void counts_to_ends(uint32_t *cs, size_t c0, size_t c1, uint32_t base)
{
    uint32_t run = base;
    for (size_t c = c0; c < c1; c++) {
        run += cs[c];
        cs[c] = run;
    }
}

/* One circle of a band while it is sorted: the four fields side by side, so a scatter writes
 * one line instead of four. */
typedef struct hs_grec {
    float x, y, r;
    uint32_t id;
} hs_grec;

static size_t align64(size_t b) { return (b + 63) & ~(size_t)63; }

/* Fills g from cs. Why the sort is shaped so (measured on the scenes; the plain
 * counting sort this replaced spent ~19 ms on 10^6 circles, mostly in cache and TLB misses of
 * its random scatter / gather over 12-16 MB):
 * - A circle's cell comes from cells_block (branch-free, vectorised, cloned for AVX-512 and
 *   AVX2, bit-identical to hs_gcell) and is recomputed in each pass: cheaper than storing it
 *   (4 more bytes per circle of memory and traffic).
 * - Up to HS_GRID_DIRECT circles: one stable counting sort (cells stored once, counts in
 *   cell_start, scatter backwards from the input); it all fits in L2.
 * - Above, a two-pass radix sort. Pass 1 counts each thread's chunk per sub-band (2^sh
 *   consecutive cells); the plan groups sub-bands into bands of at most `cap` (16 K) circles,
 *   whose ranges in the final arrays follow from the counts (rows are contiguous in storage).
 *   Pass 2 moves every circle into its band's range: ~64 sequential write streams per array
 *   instead of random writes. Pass 3 sorts the bands (in parallel, dynamic schedule), each
 *   inside L2: cells from the band, counts straight into cell_start (which is left holding
 *   the CSR), destinations, 16-byte records scattered into a per-thread buffer with the lines
 *   requested ahead, copied back field by field. Write-combining buffers with non-temporal
 *   stores in pass 2, and per-array move loops, were measured slower on this machine.
 * - Determinism: thread t's circles of a band follow those of threads < t, in input order,
 *   and every sort is stable (backwards from end positions), so each position depends on the
 *   input alone and the grid is identical for every team size.
 * - Memory (kept for rebuilds): cell_start, small per-sub-band tables, per-thread band
 *   buffers within 4 bytes per circle, and only when a band outgrows its buffer (thousands of
 *   circles in a few cells) one index per circle for the spill path. */
static hs_status grid_sort(hs_grid *g, const hs_circles *cs)
{
    const size_t n = cs->n;
    const float *X = cs->x, *Y = cs->y, *Rr = cs->r;
    const uint32_t *M = cs->mask;
    int T = g->threads > 0 ? g->threads : omp_get_max_threads();
    if (T < 1)
        T = 1;
    if (T > HS_GRID_MAX_BUILD_THREADS)
        T = HS_GRID_MAX_BUILD_THREADS;
    if ((size_t)T > n / HS_GRID_MIN_PER_THREAD)
        T = n / HS_GRID_MIN_PER_THREAD > 1 ? (int)(n / HS_GRID_MIN_PER_THREAD) : 1;
    memset(g->lv, 0, sizeof g->lv);
    g->n = n;
    g->nlevels = 0;
    g->split_r = INFINITY;

    if (n > 0) {
        /* The split radius from a fixed-stride sample (deterministic and O(1)): radii above
         * max(HS_GRID_SPLIT * p99, half the density cell of the sample's box) go to level 1.
         * Sample k is circle floor(k n / s), stepped in integers. */
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
        double hd = sqrt(HS_GRID_PER_CELL * ((double)sx1 - (double)sx0) *
                         ((double)sy1 - (double)sy0) / (double)n);
        g->split_r = (float)fmax(HS_GRID_SPLIT * p99, 0.5 * fmax(hd, (double)g->cell_size_req));
    }

    /* bounds, largest radius and count per level */
    bounds bd;
    bounds_init(&bd);
    if (T == 1) {
        bounds_range(X, Y, Rr, 0, n, g->split_r, &bd);
    } else {
        bounds part[HS_GRID_MAX_BUILD_THREADS];
        for (int t = 0; t < T; t++)
            bounds_init(&part[t]);
#pragma omp parallel num_threads(T)
        {
            const size_t nt = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
            bounds_range(X, Y, Rr, n * t / nt, n * (t + 1) / nt, g->split_r, &part[t]);
        }
        for (int t = 0; t < T; t++)
            bounds_merge(&bd, &part[t]);
    }
    const size_t n1 = bd.n1;
    if (n > 0 && n1 == 0) {
        g->split_r = INFINITY;
        g->nlevels = 1;
        g->lv[0].n = n;
        g->lv[0].rmax = bd.r[0];
        level_shape(&g->lv[0], bd.x0[0], bd.y0[0], bd.x1[0], bd.y1[0], g->cell_size_req);
    } else if (n > 0) {
        g->nlevels = 2;
        g->lv[0].n = n - n1;
        g->lv[0].rmax = bd.r[0];
        g->lv[1].n = n1;
        g->lv[1].rmax = bd.r[1];
        if (n1 < n)
            level_shape(&g->lv[0], bd.x0[0], bd.y0[0], bd.x1[0], bd.y1[0], g->cell_size_req);
        else
            level_shape(&g->lv[0], 0.0, 0.0, 0.0, 0.0, 1.0);
        level_shape(&g->lv[1], bd.x0[1], bd.y0[1], bd.x1[1], bd.y1[1], 0.0);
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
    /* the circle arrays start on a cache line (the band streams and the kernels' vector loads
     * then never split one); their old contents are never needed: growing is free + allocate */
    /* HS_PAD_FLOATS slots past the last circle (zeroed by grid_fill): the block walk loads
     * whole vectors at any run start and masks the lanes past the run off */
    if (n + HS_PAD_FLOATS > g->cap || g->x == NULL) {
        size_t c = n + HS_PAD_FLOATS;
        free(g->x);
        free(g->y);
        free(g->r);
        free(g->id);
        g->x = alloc_lines(c, sizeof(float));
        g->y = alloc_lines(c, sizeof(float));
        g->r = alloc_lines(c, sizeof(float));
        g->id = alloc_lines(c, sizeof(uint32_t));
        g->cap = c;
        if (!g->x || !g->y || !g->r || !g->id) {
            free(g->x);
            free(g->y);
            free(g->r);
            free(g->id);
            g->x = g->y = g->r = NULL;
            g->id = NULL;
            g->cap = 0;
            return HS_E_NOMEM;
        }
    }
    if (M != NULL) {
        if (n + HS_PAD_FLOATS > g->mask_cap || g->mask == NULL) {
            size_t c = n + HS_PAD_FLOATS;
            free(g->mask);
            g->mask = alloc_lines(c, sizeof(uint32_t));
            g->mask_cap = g->mask ? c : 0;
            if (g->mask == NULL)
                return HS_E_NOMEM;
        }
    } else {
        free(g->mask);
        g->mask = NULL;
        g->mask_cap = 0;
    }

    uint32_t *cs_ = g->cell_start;
    if (n == 0 || ncells == 0) {
        for (size_t c = 0; c <= ncells; c++)
            cs_[c] = 0;
        return HS_OK;
    }
    float *gx = g->x, *gy = g->y, *gr = g->r;
    uint32_t *gm = g->mask, *gid = g->id;
    cellfn F;
    cellfn_init(&F, g);

    if (n <= HS_GRID_DIRECT) {
        /* Small sets: one stable counting sort, cells computed once into scratch, scattered
         * backwards from the input (everything is in L2). */
        if (g->scratch_bytes < n * sizeof(uint32_t)) {
            free(g->scratch);
            g->scratch = alloc_lines(n, sizeof(uint32_t));
            g->scratch_bytes = g->scratch ? align64(n * sizeof(uint32_t)) : 0;
            if (g->scratch == NULL)
                return HS_E_NOMEM;
        }
        uint32_t *cb = g->scratch;
        for (size_t i = 0; i < n; i += HS_GRID_BLOCK)
            cells_block(&F, X + i, Y + i, Rr + i, n - i < HS_GRID_BLOCK ? n - i : HS_GRID_BLOCK,
                        cb + i);
        memset(cs_, 0, ncells * sizeof *cs_);
        for (size_t i = 0; i < n; i++)
            cs_[cb[i]]++;
        counts_to_ends(cs_, 0, ncells, 0);
        for (size_t i = n; i-- > 0;) {
            uint32_t d = --cs_[cb[i]];
            gx[d] = X[i];
            gy[d] = Y[i];
            gr[d] = Rr[i];
            gid[d] = (uint32_t)i;
            if (gm)
                gm[d] = M[i];
        }
        cs_[ncells] = (uint32_t)n;
        return HS_OK;
    }

    /* Band plan: sub-band = 2^sh consecutive cells; a band = consecutive sub-bands holding at
     * most `cap` circles (or one sub-band holding more: sorted by the spill path). `cap` is
     * also kept under n / (6 T) so the band buffers stay within 4 bytes per circle. */
    size_t cap = n / (6 * (size_t)T);
    cap = cap > HS_GRID_BAND ? HS_GRID_BAND : cap < 1024 ? 1024 : cap;
    size_t nsb_max = HS_GRID_SB_PER_BAND * (n / cap);
    nsb_max = nsb_max < 16 ? 16 : nsb_max > HS_GRID_SUBBANDS ? HS_GRID_SUBBANDS : nsb_max;
    unsigned sh = 0;
    while (((ncells - 1) >> sh) + 1 > nsb_max)
        sh++;
    const size_t nsb = ((ncells - 1) >> sh) + 1;
    const size_t nsbp = (nsb + 16) & ~(size_t)15; /* per-chunk rows padded to 64 bytes */
    /* Passes 1 and 2 work on K contiguous chunks of the input, handed out dynamically: with
     * one chunk per thread, a thread on a core the host was slowing held up the other at both
     * barriers (seen: one thread's pass 2 at 1.25x the other's, two threads 1.4x one).
     * Chunks are in input order whatever K, so the grid does not depend on it. */
    const size_t K = T == 1 ? 1 : (n / 4096 < 4 * (size_t)T ? (size_t)T : 4 * (size_t)T);
    /* scratch: sub-band histograms and band cursors [K][nsbp] each, sb -> band
     * [nsbp], band first position and first sub-band [nsbp + 1 each]; then per thread:
     * cells [cap], records [cap] (, masks [cap]) */
    const size_t tab = align64(((2 * K + 3) * nsbp + 2) * sizeof(uint32_t));
    const size_t area = align64(cap * sizeof(uint32_t)) * (M ? 2 : 1) +
                        align64(cap * sizeof(hs_grec));
    if (g->scratch_bytes < tab + (size_t)T * area) {
        free(g->scratch);
        g->scratch = alloc_lines(tab + (size_t)T * area, 1);
        g->scratch_bytes = g->scratch ? tab + (size_t)T * area : 0;
        if (g->scratch == NULL)
            return HS_E_NOMEM;
    }
    unsigned char *sbase = g->scratch;
    uint32_t *hist = (uint32_t *)sbase, *cur = hist + K * nsbp;
    uint32_t *sb2b = cur + K * nsbp;
    uint32_t *bpos = sb2b + nsbp, *bsb = bpos + nsbp + 1;
    size_t nb = 0;
    int spill = 0;
    hs_status st = HS_OK;

    /* Pass 1 counts each chunk per sub-band; pass 2 moves every circle into its band's range
     * (chunk c's circles after those of chunks < c, in input order, so the bands hold their
     * circles in input order whatever the chunks and the team); pass 3 sorts each band by
     * cell inside the thread's buffer, stably. Every position written is fixed by the input
     * alone: the grid is identical for every team size. */
#pragma omp parallel num_threads(T)
    {
        const size_t t = (size_t)omp_get_thread_num();
        uint32_t blk[HS_GRID_BLOCK];
#pragma omp for schedule(dynamic, 1)
        for (ptrdiff_t cc = 0; cc < (ptrdiff_t)K; cc++) {
            const size_t i0 = n * (size_t)cc / K, i1 = n * ((size_t)cc + 1) / K;
            uint32_t *h = hist + (size_t)cc * nsbp;
            memset(h, 0, nsb * sizeof *h);
            for (size_t i = i0; i < i1; i += HS_GRID_BLOCK) {
                size_t k = i1 - i < HS_GRID_BLOCK ? i1 - i : HS_GRID_BLOCK;
                cells_block(&F, X + i, Y + i, Rr + i, k, blk);
                for (size_t j = 0; j < k; j++)
                    h[blk[j] >> sh]++;
            }
        }
#pragma omp single
        {
            /* greedy bands over the sub-band totals (the same for every team size) */
            size_t run = 0, pos = 0;
            bpos[0] = 0;
            bsb[0] = 0;
            for (size_t b = 0; b < nsb; b++) {
                size_t tot = 0;
                for (size_t u = 0; u < K; u++)
                    tot += hist[u * nsbp + b];
                if (run > 0 && run + tot > cap) {
                    nb++;
                    bpos[nb] = (uint32_t)pos;
                    bsb[nb] = (uint32_t)b;
                    run = 0;
                }
                sb2b[b] = (uint32_t)nb;
                run += tot;
                pos += tot;
                spill |= tot > cap;
            }
            nb++;
            bpos[nb] = (uint32_t)n;
            bsb[nb] = (uint32_t)nsb;
            for (size_t b = 0; b < nb; b++) {
                uint32_t off = bpos[b];
                for (size_t u = 0; u < K; u++) {
                    cur[u * nsbp + b] = off;
                    for (size_t q = bsb[b]; q < bsb[b + 1]; q++)
                        off += hist[u * nsbp + q];
                }
            }
            if (spill) {
                uint32_t *sp = grow(g->spill, &g->spill_cap, n, sizeof(uint32_t));
                if (sp == NULL)
                    st = HS_E_NOMEM;
                else
                    g->spill = sp;
            }
        }
        if (st == HS_OK) {
            unsigned char *a = sbase + tab + t * area;
#pragma omp for schedule(dynamic, 1)
            for (ptrdiff_t cc = 0; cc < (ptrdiff_t)K; cc++) {
                const size_t i0 = n * (size_t)cc / K, i1 = n * ((size_t)cc + 1) / K;
                uint32_t *c = cur + (size_t)cc * nsbp;
                for (size_t i = i0; i < i1; i += HS_GRID_BLOCK) {
                    size_t k = i1 - i < HS_GRID_BLOCK ? i1 - i : HS_GRID_BLOCK;
                    cells_block(&F, X + i, Y + i, Rr + i, k, blk);
                    for (size_t j = 0; j < k; j++)
                        blk[j] = c[sb2b[blk[j] >> sh]]++;
                    const float *xi = X + i, *yi = Y + i, *ri = Rr + i;
                    for (size_t j = 0; j < k; j++) {
                        uint32_t d = blk[j];
                        gx[d] = xi[j];
                        gy[d] = yi[j];
                        gr[d] = ri[j];
                        gid[d] = (uint32_t)(i + j);
                    }
                    if (gm)
                        for (size_t j = 0; j < k; j++)
                            gm[blk[j]] = M[i + j];
                }
            }
            uint32_t *cb = (uint32_t *)a;
            hs_grec *trec = (hs_grec *)(a + align64(cap * sizeof(uint32_t)));
            uint32_t *tm = (uint32_t *)(a + align64(cap * sizeof(uint32_t)) +
                                        align64(cap * sizeof(hs_grec)));
#pragma omp for schedule(dynamic, 1)
            for (ptrdiff_t bb = 0; bb < (ptrdiff_t)nb; bb++) {
                const size_t b = (size_t)bb;
                const size_t p0 = bpos[b], p1 = bpos[b + 1], m = p1 - p0;
                const size_t c0 = (size_t)bsb[b] << sh;
                const size_t c1 = ((size_t)bsb[b + 1] << sh) < ncells ? (size_t)bsb[b + 1] << sh
                                                                      : ncells;
                memset(cs_ + c0, 0, (c1 - c0) * sizeof *cs_);
                if (m <= cap) {
                    /* cells from the band in place; records scattered into the buffer in
                     * cell order (one random 16-byte store each), then copied back */
                    for (size_t j = 0; j < m; j += HS_GRID_BLOCK)
                        cells_block(&F, gx + p0 + j, gy + p0 + j, gr + p0 + j,
                                    m - j < HS_GRID_BLOCK ? m - j : HS_GRID_BLOCK, cb + j);
                    for (size_t j = 0; j < m; j++)
                        cs_[cb[j]]++;
                    counts_to_ends(cs_, c0, c1, 0);
                    const float *sx = gx + p0, *sy = gy + p0, *sr = gr + p0;
                    const uint32_t *sid = gid + p0, *sm = gm ? gm + p0 : NULL;
                    /* destinations first, so that the scatter can ask for its lines
                     * ahead: a store that misses L1 holds up every later one */
                    for (size_t j = m; j-- > 0;)
                        cb[j] = --cs_[cb[j]];
                    size_t j = 0;
                    /* four records at a time: a 4 x 4 transpose turns four loads per
                     * field into one 16-byte store per record */
                    for (; j + 4 <= m; j += 4) {
#if defined(__GNUC__) || defined(__clang__)
                        if (j + HS_GRID_PREFETCH + 4 <= m) {
                            __builtin_prefetch(trec + cb[j + HS_GRID_PREFETCH], 1);
                            __builtin_prefetch(trec + cb[j + HS_GRID_PREFETCH + 1], 1);
                            __builtin_prefetch(trec + cb[j + HS_GRID_PREFETCH + 2], 1);
                            __builtin_prefetch(trec + cb[j + HS_GRID_PREFETCH + 3], 1);
                        }
#endif
                        hs_transpose4(sx + j, sy + j, sr + j, sid + j, trec + cb[j],
                                      trec + cb[j + 1], trec + cb[j + 2], trec + cb[j + 3]);
                        if (sm) {
                            tm[cb[j]] = sm[j];
                            tm[cb[j + 1]] = sm[j + 1];
                            tm[cb[j + 2]] = sm[j + 2];
                            tm[cb[j + 3]] = sm[j + 3];
                        }
                    }
                    for (; j < m; j++) {
                        uint32_t d = cb[j];
                        hs_grec *e = trec + d;
                        e->x = sx[j];
                        e->y = sy[j];
                        e->r = sr[j];
                        e->id = sid[j];
                        if (sm)
                            tm[d] = sm[j];
                    }
                    for (size_t c = c0; c < c1; c++)
                        cs_[c] += (uint32_t)p0;
                    float *ox = gx + p0, *oy = gy + p0, *orr = gr + p0;
                    uint32_t *oid = gid + p0;
                    size_t q = 0;
                    for (; q + 4 <= m; q += 4) {
                        hs_transpose4(trec + q, trec + q + 1, trec + q + 2, trec + q + 3, ox + q,
                                      oy + q, orr + q, oid + q);
                    }
                    for (; q < m; q++) {
                        ox[q] = trec[q].x;
                        oy[q] = trec[q].y;
                        orr[q] = trec[q].r;
                        oid[q] = trec[q].id;
                    }
                    if (gm)
                        memcpy(gm + p0, tm, m * sizeof *tm);
                } else {
                    /* a band larger than the buffer (one sub-band of a dense cluster):
                     * scatter the indices, then gather from the input */
                    uint32_t *sp = g->spill;
                    for (size_t j = p0; j < p1; j += HS_GRID_BLOCK) {
                        size_t k = p1 - j < HS_GRID_BLOCK ? p1 - j : HS_GRID_BLOCK;
                        cells_block(&F, gx + j, gy + j, gr + j, k, blk);
                        for (size_t u = 0; u < k; u++)
                            cs_[blk[u]]++;
                    }
                    counts_to_ends(cs_, c0, c1, (uint32_t)p0);
                    for (size_t j = p1; j > p0;) {
                        size_t k = j - p0 < HS_GRID_BLOCK ? j - p0 : HS_GRID_BLOCK;
                        j -= k;
                        cells_block(&F, gx + j, gy + j, gr + j, k, blk);
                        for (size_t u = k; u-- > 0;)
                            sp[--cs_[blk[u]]] = gid[j + u];
                    }
                    for (size_t q = p0; q < p1; q++) {
#if defined(__GNUC__) || defined(__clang__)
                        if (q + HS_GRID_PREFETCH < p1) {
                            uint32_t f = sp[q + HS_GRID_PREFETCH];
                            __builtin_prefetch(X + f);
                            __builtin_prefetch(Y + f);
                            __builtin_prefetch(Rr + f);
                        }
#endif
                        uint32_t i = sp[q];
                        gx[q] = X[i];
                        gy[q] = Y[i];
                        gr[q] = Rr[i];
                        gid[q] = i;
                        if (gm)
                            gm[q] = M[i];
                    }
                }
            }
        }
    }
    cs_[ncells] = (uint32_t)n;
    return st;
}

/* The sort, then the padding past the last circle zeroed (its lanes are always masked off,
 * but they must be defined values). */
static hs_status grid_fill(hs_grid *g, const hs_circles *cs)
{
    hs_status s = grid_sort(g, cs);
    if (s == HS_OK && g->x != NULL) {
        memset(g->x + g->n, 0, HS_PAD_FLOATS * sizeof(float));
        memset(g->y + g->n, 0, HS_PAD_FLOATS * sizeof(float));
        memset(g->r + g->n, 0, HS_PAD_FLOATS * sizeof(float));
        memset(g->id + g->n, 0, HS_PAD_FLOATS * sizeof(uint32_t));
        if (g->mask)
            memset(g->mask + g->n, 0, HS_PAD_FLOATS * sizeof(uint32_t));
    }
    return s;
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
    free(g->spill);
    free(g);
}

size_t hs_grid_count(const hs_grid *g) { return g ? g->n : 0; }

size_t hs_grid_bytes(const hs_grid *g)
{
    if (g == NULL)
        return 0;
    return sizeof *g + g->cap * (3 * sizeof(float) + sizeof(uint32_t)) +
           g->mask_cap * sizeof(uint32_t) + g->cells_cap * sizeof(uint32_t) +
           g->scratch_bytes + g->spill_cap * sizeof(uint32_t);
}

float hs_grid_cell_size(const hs_grid *g)
{
    return (g && g->nlevels > 0) ? (float)g->lv[0].h : 0.0f;
}
