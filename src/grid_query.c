/* The grid as an hs_engine (traversal per ISA in src/kernels/grid_walk_impl.h), query ordering, and the public hs_grid_* batch calls. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "grid_impl.h"
#include "hitscan/narrow.h"

/* What the grid engine's callbacks see: the grid, and the locality order of a large batch
 * (NULL: the caller's order). The ranged callbacks answer sorted positions lo .. hi-1, each
 * the caller's query perm[k], and write closest / any / count answers at the caller's index;
 * the per-query callbacks only ever get queries one by one. */
typedef struct grid_ctx {
    const hs_grid *g;
    const hs_qorder *ord;
} grid_ctx;

/* The traversal itself is compiled per ISA with the kernels inlined into it
 * (src/kernels/grid_walk_impl.h); the engine only forwards to the resolved level. */
static int grid_any(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint64_t *tests)
{
    return ks->grid_any(((const grid_ctx *)ctx)->g, kq, tests);
}

static uint32_t grid_count(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq,
                           uint64_t *tests)
{
    return ks->grid_count(((const grid_ctx *)ctx)->g, kq, tests);
}

static int grid_closest(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint32_t *id,
                        float *t, hs_circle *circle, uint64_t *tests)
{
    return ks->grid_closest(((const grid_ctx *)ctx)->g, kq, id, t, circle, tests);
}

static hs_status grid_all(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq,
                          hs_hitbuf *buf, uint64_t *tests)
{
    return ks->grid_all(((const grid_ctx *)ctx)->g, kq, buf, tests);
}

static void grid_closest_range(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                               hs_semantics sem, size_t lo, size_t hi, hs_closest_out out,
                               hs_racc *acc)
{
    const grid_ctx *c = ctx;
    ks->grid_closest_range(c->g, qs, c->ord, sem, lo, hi, out, acc);
}

static void grid_anycount_range(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                                hs_semantics sem, size_t lo, size_t hi, uint8_t *hit,
                                uint32_t *count, hs_racc *acc)
{
    const grid_ctx *c = ctx;
    ks->grid_anycount_range(c->g, qs, c->ord, sem, lo, hi, hit, count, acc);
}

static hs_status grid_all_range(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                                hs_semantics sem, size_t lo, size_t hi, hs_hitbuf *buf,
                                uint32_t *cnt, hs_racc *acc)
{
    const grid_ctx *c = ctx;
    return ks->grid_all_range(c->g, qs, c->ord, sem, lo, hi, buf, cnt, acc);
}

static hs_engine grid_engine(const grid_ctx *c)
{
    hs_engine e;
    e.ctx = c;
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
 * index of the coarse cell (16 x 16 over the grid) holding their start. The grid's own cells
 * are row-major; within a coarse cell that is close enough. Side 16 against 8, 32 and 64
 * (same run, uniform and clustered 10^6, one thread): closest 1.09 / 1.02 over 32, count
 * 1.11 / 1.07; 8 and 64 were 0.96-1.02 of 32. (32 was best when the plan was scalar: a cheaper plan
 * and test leave the sort's scatter, 2 x 4^k streams, a larger share.) Answers go to the caller's
 * positions, so the caller sees its order; the order itself is a pure function of the
 * queries, so results stay independent of the thread count. */
#define HS_SORT_MIN_CIRCLES 32768
#define HS_SORT_MIN_QUERIES 4096
#ifndef HS_ORD_AHEAD
#define HS_ORD_AHEAD 64
#endif
#ifndef HS_SORT_BITS
#define HS_SORT_BITS 4
#endif

static uint32_t spread8(uint32_t v)
{
    v &= 0xffu;
    v = (v | (v << 4)) & 0x0f0fu;
    v = (v | (v << 2)) & 0x3333u;
    v = (v | (v << 1)) & 0x5555u;
    return v;
}

static int want_order(const hs_grid *g, const hs_queries *qs)
{
    return g->nlevels > 0 && g->n >= HS_SORT_MIN_CIRCLES && qs != NULL &&
           qs->count >= HS_SORT_MIN_QUERIES && qs->count <= HS_MAX_COUNT && qs->ax && qs->ay &&
           qs->dx && qs->dy;
}

/* Keys lo .. hi-1 (the coarse cell of each query's start, Z-order), with tmin[i] or tall as
 * the start's t; kp: origin x, y, scale x, y, last coarse cell. Float with no branch, so the
 * loop vectorises (in double through hs_gcell's branches it was 40% of the order), and as
 * HS_GRID_CLONES (SSE: 29% of the order); any pure function of the query is a valid key, so
 * the clones' FMA contractions do not matter, and non-finite starts get some key (a
 * non-finite t counts as 0, NaN coordinates as cell 0). */
static inline uint32_t order_key(float ax, float ay, float dx, float dy, float t,
                                 const float kp[5])
{
    t = t - t == 0.0f ? t : 0.0f;
    float fx = (ax + t * dx - kp[0]) * kp[2], fy = (ay + t * dy - kp[1]) * kp[3];
    fx = fx > 0.0f ? fx : 0.0f;
    fy = fy > 0.0f ? fy : 0.0f;
    fx = fx < kp[4] ? fx : kp[4];
    fy = fy < kp[4] ? fy : kp[4];
    return spread8((uint32_t)(int32_t)fx) | (spread8((uint32_t)(int32_t)fy) << 1);
}

HS_GRID_CLONES
static void order_keys(const float *restrict ax, const float *restrict ay,
                       const float *restrict dx, const float *restrict dy,
                       const float *restrict tmin, float tall, const float kp[5], size_t lo,
                       size_t hi, uint32_t *restrict key)
{
    if (tmin)
        for (size_t i = lo; i < hi; i++)
            key[i] = order_key(ax[i], ay[i], dx[i], dy[i], tmin[i], kp);
    else
        for (size_t i = lo; i < hi; i++)
            key[i] = order_key(ax[i], ay[i], dx[i], dy[i], tall, kp);
}

/* The locality order (hs_qorder), or 0 when the batch is answered in its own order; -1 if it
 * could not be allocated. A stable counting sort run by the whole team: each thread keys and
 * counts a contiguous slice of the batch, the (bucket, thread) counts are summed bucket-major,
 * and each thread scatters its slice into its own run of every bucket. Slices are in order
 * and a thread keeps its slice's order inside a bucket, so the permutation is the serial
 * stable sort's whatever the team size. What moves is the index and one 16-byte record
 * (a, d) per query: two write streams per bucket. Moving the four arrays plus the optional
 * ones (five or more streams per bucket, then the answers scattered back in another pass) was
 * a quarter of a short count query at 10^6; moving the index alone left the block walk four
 * cache misses per query to read a and d at the caller's index. With stage, closest / any /
 * count answers are kept in the order (hs_qorder) and copied out by unstage; the others are
 * written at the caller's index by the block walk. */
static int qorder_make(const hs_grid *g, const hs_queries *qs, int threads, int stage,
                       hs_workspace *ws, hs_qorder *o)
{
    o->perm = NULL;
    o->rec = NULL;
    o->inv = NULL;
    if (!want_order(g, qs))
        return 0;
    const size_t m = qs->count;
    const size_t nb = (size_t)1 << (2 * HS_SORT_BITS);
    const int nthr = threads < 1 ? 1 : threads;
    uint32_t *key = hs_ws_get(ws, HS_WS_ORD_KEY, m * sizeof *key);
    size_t *hist = hs_ws_get(ws, HS_WS_ORD_HIST, (size_t)nthr * nb * sizeof *hist);
    uint32_t *perm = hs_ws_get(ws, HS_WS_ORD_PERM, m * sizeof *perm);
    float *rec = hs_ws_get(ws, HS_WS_ORD_REC, m * 4 * sizeof *rec);
    if (key == NULL || hist == NULL || perm == NULL || rec == NULL)
        return -1; /* the workspace frees or keeps what it got */
    memset(hist, 0, (size_t)nthr * nb * sizeof *hist);
    const hs_glevel *L = &g->lv[0];
    const float sx = (float)((double)(1u << HS_SORT_BITS) / fmax(L->bx1 - L->ox, L->h));
    const float sy = (float)((double)(1u << HS_SORT_BITS) / fmax(L->by1 - L->oy, L->h));
    const float kp[5] = {(float)L->ox, (float)L->oy, sx, sy, (float)((1 << HS_SORT_BITS) - 1)};
    const float *tmin = qs->tmin;
    const float tall = qs->tmin_all;
#pragma omp parallel num_threads(nthr)
    {
        /* the team may be smaller than asked for: slice by its actual size */
        const size_t tid = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
        const size_t lo = m / nt * tid + (tid < m % nt ? tid : m % nt);
        const size_t hi = lo + m / nt + (tid < m % nt ? 1 : 0);
        size_t *h = hist + tid * nb;
        order_keys(qs->ax, qs->ay, qs->dx, qs->dy, tmin, tall, kp, lo, hi, key);
        for (size_t i = lo; i < hi; i++)
            h[key[i]]++;
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
        /* Four queries at a time: a 4 x 4 transpose (hs_transpose4) stores each record in one
         * piece (mixed 10^6 closest 1.05x, uniform 1.00x). Each record's bucket is prefetched
         * HS_ORD_AHEAD floats (4 lines) ahead: a bucket's next line was last touched a call
         * ago, and these store misses held up the in-order commit of every later store
         * (uniform 10^6, one thread, with a workspace: closest 1.08x, count 1.03x; 2 or 8
         * lines ahead 1.03-1.04x; the same for perm, no gain). The prefetch is a read one:
         * this generic x86-64 code has no PRFCHW. */
        size_t i = lo;
        for (; i + 4 <= hi; i += 4) {
            size_t k[4];
            for (int u = 0; u < 4; u++) {
                k[u] = h[key[i + u]]++;
                perm[k[u]] = (uint32_t)(i + u);
                if (stage) /* key[i] is read: its word becomes inv[i] */
                    key[i + u] = (uint32_t)k[u];
#if defined(__GNUC__) || defined(__clang__)
                __builtin_prefetch(rec + 4 * k[u] + HS_ORD_AHEAD, 1);
#endif
            }
            hs_transpose4(qs->ax + i, qs->ay + i, qs->dx + i, qs->dy + i, rec + 4 * k[0],
                          rec + 4 * k[1], rec + 4 * k[2], rec + 4 * k[3]);
        }
        for (; i < hi; i++) {
            const size_t k = h[key[i]]++;
            perm[k] = (uint32_t)i;
            if (stage)
                key[i] = (uint32_t)k;
            float *r = rec + 4 * k;
            r[0] = qs->ax[i];
            r[1] = qs->ay[i];
            r[2] = qs->dx[i];
            r[3] = qs->dy[i];
        }
    }
    o->perm = perm;
    o->rec = rec;
    o->inv = stage ? key : NULL;
    return 0;
}

/* A grid batch call: its workspace opened, the locality order made in it, then the mode's
 * driver on the engine; HS_E_BUSY / HS_E_NOMEM before anything is answered. */
typedef enum grid_mode { GRID_CLOSEST, GRID_ANY, GRID_COUNT, GRID_ALL } grid_mode;

typedef struct grid_call {
    grid_mode mode;
    hs_closest_out co;
    uint8_t *hit;
    uint32_t *count;
    hs_hits *all;
} grid_call;

/* Staged answers (closest, any, count) to the caller's arrays: query i's is position inv[i]'s.
 * The walk answers in the locality order, so written at the caller's index its stores went to
 * random lines, and x86 commits stores in order: a block's store misses held up every later
 * store. Read here in the caller's order instead, the random accesses are loads, independent
 * of each other, and the stores are sequential (closest 1.2-1.3x, uniform 10^6, one thread:
 * bench/README, session 6). A bucket's queries took consecutive positions in the caller's
 * order, so the reads are one sequential stream per bucket: each is prefetched 4 lines ahead,
 * as the scatter is (1.02-1.03x; unstage went from 6% to 3% of a closest call). */
static void unstage(const hs_qorder *o, size_t m, int threads, const grid_call *gc)
{
    const uint32_t *inv = o->inv;
    const float *rec = o->rec;
    const grid_mode mode = gc->mode;
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (ptrdiff_t ii = 0; ii < (ptrdiff_t)m; ii++) {
        const size_t i = (size_t)ii, k = inv[i];
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(rec + 4 * k + HS_ORD_AHEAD);
#endif
        uint32_t v;
        memcpy(&v, rec + 4 * k + 2, sizeof v);
        if (mode == GRID_CLOSEST) {
            gc->co.idx[i] = v;
            memcpy(&gc->co.t[i], rec + 4 * k + 3, sizeof *gc->co.t);
        } else if (mode == GRID_COUNT) {
            gc->count[i] = v;
        } else {
            gc->hit[i] = (uint8_t)v;
        }
    }
}

static hs_status grid_run(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                          const grid_call *gc)
{
    if (g == NULL)
        return HS_E_NULL;
    hs_wsref w;
    hs_status s = hs_ws_open(opts, &w);
    if (s != HS_OK)
        return s;
    hs_qorder ord;
    const int threads = opts && opts->threads > 0 ? opts->threads : omp_get_max_threads();
    /* answers are staged unless closest wants the hit point or normal (they need the query
     * and the circle: those are written straight to the caller); all-hits writes rows */
    const int stage = (gc->mode == GRID_CLOSEST && gc->co.idx && gc->co.t && !gc->co.px &&
                       !gc->co.py && !gc->co.nx && !gc->co.ny) ||
                      (gc->mode == GRID_ANY && gc->hit) || (gc->mode == GRID_COUNT && gc->count);
    if (qorder_make(g, qs, threads, stage, w.ws, &ord) != 0) {
        hs_ws_close(&w);
        return HS_E_NOMEM;
    }
    grid_ctx c = {g, ord.perm ? &ord : NULL};
    hs_engine e = grid_engine(&c);
    switch (gc->mode) {
    case GRID_CLOSEST:
        s = hs_run_closest(&e, qs, opts, gc->co);
        break;
    case GRID_ANY:
        s = hs_run_any(&e, qs, opts, gc->hit);
        break;
    case GRID_COUNT:
        s = hs_run_count(&e, qs, opts, gc->count);
        break;
    default: /* the driver writes each sorted query's hits straight into the caller's row */
        s = hs_run_all_rows(&e, qs, opts, w.ws, ord.perm, gc->all);
        break;
    }
    /* these two are returned only once every query was answered */
    if (ord.inv && (s == HS_OK || s == HS_E_INVALID_QUERY))
        unstage(&ord, qs->count, threads, gc);
    hs_ws_close(&w);
    return s;
}

hs_status hs_grid_closest(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                          hs_closest_out out)
{
    const grid_call gc = {GRID_CLOSEST, out, NULL, NULL, NULL};
    return grid_run(g, qs, opts, &gc);
}

hs_status hs_grid_any(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                      uint8_t *hit)
{
    const grid_call gc = {GRID_ANY, {0}, hit, NULL, NULL};
    return grid_run(g, qs, opts, &gc);
}

hs_status hs_grid_count_hits(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             uint32_t *count)
{
    const grid_call gc = {GRID_COUNT, {0}, NULL, count, NULL};
    return grid_run(g, qs, opts, &gc);
}

hs_status hs_grid_all(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                      hs_hits *out)
{
    if (out != NULL)
        memset(out, 0, sizeof *out);
    const grid_call gc = {GRID_ALL, {0}, NULL, NULL, out};
    return grid_run(g, qs, opts, &gc);
}
