/* The grid as an hs_engine (traversal per ISA in src/kernels/grid_walk_impl.h), query ordering, and the public hs_grid_* batch calls. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "grid_impl.h"
#include "hitscan/narrow.h"

/* The traversal itself is compiled per ISA with the kernels inlined into it
 * (src/kernels/grid_walk_impl.h); the engine only forwards to the resolved level. */
static int grid_any(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint64_t *tests)
{
    return ks->grid_any((const hs_grid *)ctx, kq, tests);
}

static uint32_t grid_count(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq,
                           uint64_t *tests)
{
    return ks->grid_count((const hs_grid *)ctx, kq, tests);
}

static int grid_closest(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint32_t *id,
                        float *t, hs_circle *circle, uint64_t *tests)
{
    return ks->grid_closest((const hs_grid *)ctx, kq, id, t, circle, tests);
}

static hs_status grid_all(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq,
                          hs_hitbuf *buf, uint64_t *tests)
{
    return ks->grid_all((const hs_grid *)ctx, kq, buf, tests);
}

static void grid_closest_range(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                               hs_semantics sem, size_t lo, size_t hi, hs_closest_out out,
                               hs_racc *acc)
{
    ks->grid_closest_range((const hs_grid *)ctx, qs, sem, lo, hi, out, acc);
}

static void grid_anycount_range(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                                hs_semantics sem, size_t lo, size_t hi, uint8_t *hit,
                                uint32_t *count, hs_racc *acc)
{
    ks->grid_anycount_range((const hs_grid *)ctx, qs, sem, lo, hi, hit, count, acc);
}

static hs_status grid_all_range(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                                hs_semantics sem, size_t lo, size_t hi, hs_hitbuf *buf,
                                uint32_t *cnt, hs_racc *acc)
{
    return ks->grid_all_range((const hs_grid *)ctx, qs, sem, lo, hi, buf, cnt, acc);
}

static hs_engine grid_engine(const hs_grid *g)
{
    hs_engine e;
    e.ctx = g;
    e.cost = 64; /* a short query's cells: measured 30-60 circle tests per query */
    e.any = grid_any;
    e.count = grid_count;
    e.closest = grid_closest;
    e.all = grid_all;
    e.closest_range = grid_closest_range;
    e.anycount_range = grid_anycount_range;
    e.all_range = grid_all_range;
    return e;
}

/* ---- Query ordering ---------------------------------------------------------------------------
 * 10^6 circles do not fit in cache and queries in the caller's order touch random cells, so
 * each query would wait on memory for most of its cells. Large batches against large grids are
 * therefore answered in a locality order: a counting sort of the queries by the Z-order (Morton)
 * index of the coarse cell (32 x 32 over the grid; measured best of 8 .. 256 per side on the
 * uniform 10^6 scene) holding their start. The grid's own cells
 * are row-major; within a coarse cell that is close enough. Outputs are scattered back, so the
 * caller sees its order; the order itself is a pure function of the queries, so results stay
 * independent of the thread count. */
#define HS_SORT_MIN_CIRCLES 32768
#define HS_SORT_MIN_QUERIES 4096
#ifndef HS_SORT_BITS
#define HS_SORT_BITS 5
#endif

static uint32_t spread8(uint32_t v)
{
    v &= 0xffu;
    v = (v | (v << 4)) & 0x0f0fu;
    v = (v | (v << 2)) & 0x3333u;
    v = (v | (v << 1)) & 0x5555u;
    return v;
}

typedef struct qorder {
    uint32_t *perm; /* sorted position -> caller's query index */
    float *ax, *ay, *dx, *dy, *tmin, *tmax, *q;
    uint32_t *mask;
    hs_queries qs;
} qorder;

static void qorder_free(qorder *o)
{
    free(o->perm);
    free(o->ax);
    free(o->ay);
    free(o->dx);
    free(o->dy);
    free(o->tmin);
    free(o->tmax);
    free(o->q);
    free(o->mask);
    memset(o, 0, sizeof *o);
}

static int want_order(const hs_grid *g, const hs_queries *qs)
{
    return g->nlevels > 0 && g->n >= HS_SORT_MIN_CIRCLES && qs != NULL &&
           qs->count >= HS_SORT_MIN_QUERIES && qs->count <= HS_MAX_COUNT && qs->ax && qs->ay &&
           qs->dx && qs->dy;
}

static int opt_threads(const hs_batch_opts *opts)
{
    return (opts && opts->threads > 0) ? opts->threads : omp_get_max_threads();
}

/* HS_OK and o filled, or HS_E_NOMEM.
 * A stable counting sort run by the whole team: each thread keys and counts a contiguous
 * slice of the batch, the (bucket, thread) counts are summed bucket-major, and each thread
 * scatters its slice into its own run of every bucket. Slices are in order and a thread keeps
 * its slice's order inside a bucket, so the permutation is the serial stable sort's whatever
 * the team size (the serial histogram and scatter were ~10% of a 2-thread closest batch). */
static hs_status qorder_make(const hs_grid *g, const hs_queries *qs, int threads, qorder *o)
{
    memset(o, 0, sizeof *o);
    const size_t m = qs->count;
    const size_t nb = (size_t)1 << (2 * HS_SORT_BITS);
    const int nthr = threads < 1 ? 1 : threads;
    uint32_t *key = malloc(m * sizeof *key);
    size_t *hist = calloc((size_t)nthr * nb, sizeof *hist);
    /* One pass in the caller's order, each query written to its bucket's next slot: reads are
     * sequential and writes go to a few streams per bucket, where gathering in sorted order
     * made a cache miss of every query (~15% of a short query). The coordinates go straight
     * to their four arrays: a 16-byte record per query and a pass splitting it won ~5% when
     * the sort was serial, but with the sort on the team its 16 MB of fresh pages per 10^6
     * queries cost more than the extra streams (equal on 1 thread, a few % faster on 2). */
    o->perm = malloc(m * sizeof *o->perm);
    o->ax = malloc(m * sizeof(float));
    o->ay = malloc(m * sizeof(float));
    o->dx = malloc(m * sizeof(float));
    o->dy = malloc(m * sizeof(float));
    int ok = key && hist && o->perm && o->ax && o->ay && o->dx && o->dy;
    if (ok && qs->tmin)
        ok = (o->tmin = malloc(m * sizeof(float))) != NULL;
    if (ok && qs->tmax)
        ok = (o->tmax = malloc(m * sizeof(float))) != NULL;
    if (ok && qs->q)
        ok = (o->q = malloc(m * sizeof(float))) != NULL;
    if (ok && qs->mask)
        ok = (o->mask = malloc(m * sizeof(uint32_t))) != NULL;
    if (!ok) {
        free(key);
        free(hist);
        qorder_free(o);
        return HS_E_NOMEM;
    }
    const hs_glevel *L = &g->lv[0];
    const double sx = (double)(1u << HS_SORT_BITS) / fmax(L->bx1 - L->ox, L->h);
    const double sy = (double)(1u << HS_SORT_BITS) / fmax(L->by1 - L->oy, L->h);
    const int32_t top = (1 << HS_SORT_BITS);
    const int extra = o->tmin || o->tmax || o->q || o->mask;
#pragma omp parallel num_threads(nthr)
    {
        /* the team may be smaller than asked for: slice by its actual size */
        const size_t tid = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
        const size_t lo = m / nt * tid + (tid < m % nt ? tid : m % nt);
        const size_t hi = lo + m / nt + (tid < m % nt ? 1 : 0);
        size_t *h = hist + tid * nb;
        for (size_t i = lo; i < hi; i++) {
            double t = qs->tmin ? qs->tmin[i] : qs->tmin_all;
            if (!isfinite(t))
                t = 0.0;
            double px = (double)qs->ax[i] + t * (double)qs->dx[i];
            double py = (double)qs->ay[i] + t * (double)qs->dy[i];
            uint32_t cx = (uint32_t)hs_gcell(px, L->ox, sx, top);
            uint32_t cy = (uint32_t)hs_gcell(py, L->oy, sy, top);
            uint32_t k = spread8(cx) | (spread8(cy) << 1);
            key[i] = k;
            h[k]++;
        }
#pragma omp barrier
#pragma omp single
        {
            size_t sum = 0;
            for (size_t b = 0; b < nb; b++)
                for (size_t u = 0; u < (size_t)nthr; u++) {
                    size_t c = hist[u * nb + b];
                    hist[u * nb + b] = sum;
                    sum += c;
                }
        }
        for (size_t i = lo; i < hi; i++) {
            size_t k = h[key[i]]++;
            o->perm[k] = (uint32_t)i;
            o->ax[k] = qs->ax[i];
            o->ay[k] = qs->ay[i];
            o->dx[k] = qs->dx[i];
            o->dy[k] = qs->dy[i];
        }
        if (extra) { /* the same on every thread, as a worksharing loop requires */
#pragma omp barrier
#pragma omp for schedule(static)
            for (ptrdiff_t kk = 0; kk < (ptrdiff_t)m; kk++) {
                size_t k = (size_t)kk, i = o->perm[k];
                if (o->tmin)
                    o->tmin[k] = qs->tmin[i];
                if (o->tmax)
                    o->tmax[k] = qs->tmax[i];
                if (o->q)
                    o->q[k] = qs->q[i];
                if (o->mask)
                    o->mask[k] = qs->mask[i];
            }
        }
    }
    free(hist);
    free(key);
    o->qs = *qs;
    o->qs.ax = o->ax;
    o->qs.ay = o->ay;
    o->qs.dx = o->dx;
    o->qs.dy = o->dy;
    o->qs.tmin = o->tmin;
    o->qs.tmax = o->tmax;
    o->qs.q = o->q;
    o->qs.mask = o->mask;
    return HS_OK;
}

/* The driver saw the sorted batch: its first invalid index is a sorted position. */
static void fix_first_invalid(const hs_queries *qs, const hs_batch_opts *opts)
{
    if (opts == NULL || opts->stats == NULL || opts->stats->invalid == 0)
        return;
    for (size_t i = 0; i < qs->count; i++)
        if (hs_query_validate(hs_queries_get(qs, i)) != HS_OK) {
            opts->stats->first_invalid = i;
            return;
        }
}

hs_status hs_grid_closest(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                          hs_closest_out out)
{
    if (g == NULL)
        return HS_E_NULL;
    hs_engine e = grid_engine(g);
    if (!want_order(g, qs) || out.idx == NULL || out.t == NULL)
        return hs_run_closest(&e, qs, opts, out);
    const int threads = opt_threads(opts);
    qorder o;
    if (qorder_make(g, qs, threads, &o) != HS_OK)
        return HS_E_NOMEM;
    const size_t m = qs->count;
    float *outs[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    float *user[6] = {out.t, out.px, out.py, out.nx, out.ny, NULL};
    uint32_t *sidx = malloc(m * sizeof *sidx);
    int ok = sidx != NULL;
    for (int k = 0; k < 5 && ok; k++)
        if (user[k])
            ok = (outs[k] = malloc(m * sizeof(float))) != NULL;
    hs_status s = HS_E_NOMEM;
    if (ok) {
        hs_closest_out so = {sidx, outs[0], outs[1], outs[2], outs[3], outs[4]};
        s = hs_run_closest(&e, &o.qs, opts, so);
        if (s == HS_OK || s == HS_E_INVALID_QUERY) {
#pragma omp parallel for num_threads(threads) schedule(static)
            for (ptrdiff_t kk = 0; kk < (ptrdiff_t)m; kk++) {
                size_t k = (size_t)kk, i = o.perm[k];
                out.idx[i] = sidx[k];
                for (int a = 0; a < 5; a++)
                    if (user[a])
                        user[a][i] = outs[a][k];
            }
            fix_first_invalid(qs, opts);
        }
    }
    free(sidx);
    for (int k = 0; k < 5; k++)
        free(outs[k]);
    qorder_free(&o);
    return s;
}

/* any and count of a large batch: answered in the locality order, each query's value (a hit
 * flag or a count) scattered back to the caller's position. */
static hs_status grid_any_or_count(const hs_grid *g, const hs_queries *qs,
                                   const hs_batch_opts *opts, int counting, uint8_t *hit,
                                   uint32_t *count)
{
    hs_engine e = grid_engine(g);
    if (!want_order(g, qs) || (counting ? count == NULL : hit == NULL))
        return counting ? hs_run_count(&e, qs, opts, count) : hs_run_any(&e, qs, opts, hit);
    const int threads = opt_threads(opts);
    qorder o;
    if (qorder_make(g, qs, threads, &o) != HS_OK)
        return HS_E_NOMEM;
    const size_t m = qs->count;
    void *sorted = malloc(m * (counting ? sizeof(uint32_t) : sizeof(uint8_t)));
    hs_status s = HS_E_NOMEM;
    if (sorted) {
        s = counting ? hs_run_count(&e, &o.qs, opts, sorted) : hs_run_any(&e, &o.qs, opts, sorted);
        if (s == HS_OK || s == HS_E_INVALID_QUERY) {
            const uint32_t *sc = sorted;
            const uint8_t *sh = sorted;
#pragma omp parallel for num_threads(threads) schedule(static)
            for (ptrdiff_t kk = 0; kk < (ptrdiff_t)m; kk++) {
                if (counting)
                    count[o.perm[kk]] = sc[kk];
                else
                    hit[o.perm[kk]] = sh[kk];
            }
            fix_first_invalid(qs, opts);
        }
    }
    free(sorted);
    qorder_free(&o);
    return s;
}

hs_status hs_grid_any(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                      uint8_t *hit)
{
    if (g == NULL)
        return HS_E_NULL;
    return grid_any_or_count(g, qs, opts, 0, hit, NULL);
}

hs_status hs_grid_count_hits(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             uint32_t *count)
{
    if (g == NULL)
        return HS_E_NULL;
    return grid_any_or_count(g, qs, opts, 1, NULL, count);
}

hs_status hs_grid_all(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                      hs_hits *out)
{
    if (g == NULL)
        return HS_E_NULL;
    hs_engine e = grid_engine(g);
    if (!want_order(g, qs) || out == NULL)
        return hs_run_all(&e, qs, opts, out);
    const int threads = opt_threads(opts);
    qorder o;
    if (qorder_make(g, qs, threads, &o) != HS_OK)
        return HS_E_NOMEM;
    /* the driver writes each sorted query's hits straight into the caller's row: one copy of
     * the hits instead of a sorted CSR then a reordered one */
    hs_status s = hs_run_all_rows(&e, &o.qs, opts, o.perm, out);
    if (s == HS_OK || s == HS_E_INVALID_QUERY)
        fix_first_invalid(qs, opts);
    qorder_free(&o);
    return s;
}
