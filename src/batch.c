/* The batch driver shared by brute force and the grid: validation, ISA choice, OpenMP split, stats, CSR output. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "hitscan/narrow.h"
#include "internal.h"
#include "worksteal.h"

/* ---- How an engine plugs in ---------------------------------------------------------------
 * An engine (brute.c, the grid) supplies one callback per mode that answers ONE prepared,
 * valid query (an hs_kq from hs_kq_make with the batch's semantics and the query's mask) with
 * the kernel table the driver resolved, and adds the circle tests it made to *tests. The
 * callbacks run concurrently on several threads with the same ctx, so they must only read it.
 * Everything else is done here, once for every engine:
 *   - argument checks (NULL, count > HS_MAX_COUNT, sem / isa / threads out of range);
 *   - the ISA: opts->isa resolved through hs_kernels_get; an unsupported level returns
 *     HS_E_UNSUPPORTED before any output is written;
 *   - per query: hs_prep_query (internal.h); an invalid query is answered as a miss
 *     (idx HS_NONE / t NaN, hit 0, count 0, no hits), counted in stats->invalid, the lowest
 *     such index kept in stats->first_invalid, and the call returns HS_E_INVALID_QUERY;
 *   - closest: the hit point / normal through hs_hit_geometry from the circle the engine
 *     returns, so every engine's geometry is the scalar reference's;
 *   - all: the engine appends hits in any order to a per-thread hs_hitbuf; the driver sorts
 *     each query's hits by (t, id) and assembles the CSR arrays;
 *   - stats: pair_tests summed over threads (an integer sum, so thread-count independent
 *     apart from what the engine itself counts).
 * Determinism: every output element depends on one query only, and all-hits output is laid
 * out by query index, so nothing depends on the thread count or on the schedule. */

hs_queries hs_queries_segments(const float *ax, const float *ay, const float *dx, const float *dy,
                               size_t count)
{
    hs_queries qs;
    memset(&qs, 0, sizeof qs);
    qs.ax = ax;
    qs.ay = ay;
    qs.dx = dx;
    qs.dy = dy;
    qs.count = count;
    qs.tmin_all = 0.0f;
    qs.tmax_all = 1.0f;
    qs.q_all = 0.0f;
    qs.mask_all = UINT32_MAX;
    return qs;
}

hs_batch_opts hs_batch_opts_default(void)
{
    hs_batch_opts o;
    memset(&o, 0, sizeof o);
    o.sem = HS_SOLID;
    o.isa = HS_ISA_AUTO;
    o.threads = 0;
    o.stats = NULL;
    o.ws = NULL;
    return o;
}

void hs_hits_free(hs_hits *h)
{
    if (h == NULL)
        return;
    if (h->ws == NULL) { /* else the workspace's, reused by its next call */
        free(h->offsets);
        free(h->idx);
        free(h->t);
    }
    memset(h, 0, sizeof *h);
}

hs_status hs_hitbuf_reserve(hs_hitbuf *b, size_t extra)
{
    if (extra <= b->cap - b->len)
        return HS_OK;
    if (extra > SIZE_MAX / sizeof(float) - b->len)
        return HS_E_NOMEM;
    /* geometric growth: a thread's buffer reallocates O(log total) times per batch */
    size_t need = b->len + extra;
    size_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap < need)
        cap = cap > SIZE_MAX / (2 * sizeof(float)) ? need : cap * 2;
    uint32_t *id = realloc(b->id, cap * sizeof *id);
    if (id == NULL)
        return HS_E_NOMEM;
    b->id = id;
    float *t = realloc(b->t, cap * sizeof *t);
    if (t == NULL)
        return HS_E_NOMEM; /* b->id is the larger block now: still consistent, cap unchanged */
    b->t = t;
    b->cap = cap;
    return HS_OK;
}

void hs_hitbuf_free(hs_hitbuf *b)
{
    if (b == NULL)
        return;
    free(b->id);
    free(b->t);
    memset(b, 0, sizeof *b);
}

/* Batches with less work than this (queries x engine cost, in circle tests) run on the calling
 * thread: about 2048 short grid queries. */
#ifndef HS_PAR_MIN_WORK
#define HS_PAR_MIN_WORK (2048u * 64u)
#endif

/* ---- Common set-up ------------------------------------------------------------------------- */

typedef struct drv {
    const hs_kernel_set *ks;
    hs_semantics sem;
    int threads; /* team size actually requested */
    size_t chunk;
    hs_batch_stats *stats;
} drv;

static hs_status drv_setup(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                           drv *d)
{
    hs_batch_opts o = opts ? *opts : hs_batch_opts_default();
    if (e == NULL || qs == NULL)
        return HS_E_NULL;
    if (qs->count > HS_MAX_COUNT || qs->count > (size_t)PTRDIFF_MAX / 2) /* 32-bit targets */
        return HS_E_TOO_MANY;
    if (qs->count > 0 && (qs->ax == NULL || qs->ay == NULL || qs->dx == NULL || qs->dy == NULL))
        return HS_E_NULL;
    if ((o.sem != HS_SOLID && o.sem != HS_BOUNDARY) || (int)o.isa < 0 ||
        (int)o.isa >= (int)HS_ISA_COUNT_ || o.threads < 0)
        return HS_E_RANGE;
    d->ks = hs_kernels_get(o.isa);
    if (d->ks == NULL)
        return HS_E_UNSUPPORTED;
    d->sem = o.sem;
    d->threads = o.threads > 0 ? o.threads : omp_get_max_threads();
    /* starting a team costs more than a small batch gains from it (measured up to 5x slower
     * for 10^4 short grid queries on 2 threads of a loaded box) */
    double work = (double)qs->count * (double)(e->cost > 0 ? e->cost : 1);
    if (d->threads < 1 || work < (double)HS_PAR_MIN_WORK)
        d->threads = 1;
    /* Dynamic chunks: query costs vary a lot in the grid (and threads share the machine), so
     * about 16 chunks per thread balance well while keeping the schedule's atomics rare. */
    size_t c = qs->count / ((size_t)d->threads * 16u);
    d->chunk = c < 1 ? 1 : (c > 1024 ? 1024 : c);
    d->stats = o.stats;
    return HS_OK;
}

static hs_status drv_finish(const drv *d, size_t invalid, size_t first_invalid, uint64_t tests)
{
    if (d->stats) {
        d->stats->invalid = invalid;
        d->stats->first_invalid = invalid ? first_invalid : (size_t)-1;
        d->stats->pair_tests = tests;
    }
    return invalid ? HS_E_INVALID_QUERY : HS_OK;
}

/* The loop over queries of closest / any / count. It names the caller's locals d, tests,
 * invalid and first (a _Pragma string cannot take macro arguments). OpenMP wants a signed
 * loop variable in older versions; ptrdiff_t holds HS_MAX_COUNT on every 64-bit target. */
#define HS_FOR_QUERIES(n)                                                                        \
    _Pragma("omp parallel for num_threads(d.threads) schedule(dynamic, d.chunk) reduction(+:tests, invalid) reduction(min:first) if(d.threads > 1)") \
    for (ptrdiff_t ii = 0; ii < (ptrdiff_t)(n); ii++)

/* Ranges for engines that answer many queries at once: at least HS_RANGE_MIN queries each
 * (the grid fills blocks of 64 from them), handed out by hs_sched (worksteal.h), which keeps
 * each thread on a contiguous stretch of the batch: the grid's batches come in a locality
 * order. Names the same locals as HS_FOR_QUERIES and declares the schedule, sc. */
#define HS_RANGE_MIN 256
#define HS_FOR_RANGES(n)                                                                         \
    hs_sched sc;                                                                                 \
    hs_sched_init(&sc, (n), d.threads);                                                          \
    _Pragma("omp parallel num_threads(d.threads) reduction(+:tests, invalid) reduction(min:first) if(d.threads > 1)") \
    HS_SCHED_LOOP(sc, ii)

static size_t range_size(const drv *d) { return d->chunk < HS_RANGE_MIN ? HS_RANGE_MIN : d->chunk; }

static void acc_add(const hs_racc *a, uint64_t *tests, size_t *invalid, size_t *first)
{
    *tests += a->tests;
    *invalid += a->invalid;
    *first = a->first < *first ? a->first : *first;
}

/* ---- closest / any / count ---------------------------------------------------------------- */

hs_status hs_run_closest(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                         hs_closest_out out)
{
    drv d;
    hs_status s = drv_setup(e, qs, opts, &d);
    if (s != HS_OK)
        return s;
    if (e->closest == NULL || (qs->count > 0 && (out.idx == NULL || out.t == NULL)))
        return HS_E_NULL;
    const int want_p = out.px != NULL || out.py != NULL;
    const int want_n = out.nx != NULL || out.ny != NULL;
    uint64_t tests = 0;
    size_t invalid = 0, first = SIZE_MAX;
    if (e->closest_range != NULL) {
        const size_t rs = range_size(&d), n = qs->count;
        HS_FOR_RANGES((n + rs - 1) / rs)
        {
            const size_t lo = (size_t)ii * rs, hi = n - lo > rs ? lo + rs : n;
            hs_racc acc = {0, 0, SIZE_MAX};
            e->closest_range(e->ctx, d.ks, qs, d.sem, lo, hi, out, &acc);
            acc_add(&acc, &tests, &invalid, &first);
        }
        return drv_finish(&d, invalid, first, tests);
    }
    HS_FOR_QUERIES(qs->count)
    {
        size_t i = (size_t)ii;
        hs_kq kq;
        uint32_t id = HS_NONE;
        float t = NAN;
        hs_circle c = {0.0f, 0.0f, 0.0f};
        int hit = 0;
        if (hs_prep_query(qs, i, d.sem, &kq)) {
            uint64_t n = 0;
            hit = e->closest(e->ctx, d.ks, &kq, &id, &t, &c, &n);
            tests += n;
        } else {
            invalid++;
            first = i < first ? i : first;
        }
        if (!hit) {
            id = HS_NONE;
            t = NAN;
        }
        out.idx[i] = id;
        out.t[i] = t;
        if (want_p || want_n) {
            hs_vec2 p = {NAN, NAN}, nrm = {NAN, NAN};
            if (hit)
                hs_hit_geometry(&kq, c.x, c.y, t, &p, &nrm);
            if (out.px)
                out.px[i] = p.x;
            if (out.py)
                out.py[i] = p.y;
            if (out.nx)
                out.nx[i] = nrm.x;
            if (out.ny)
                out.ny[i] = nrm.y;
        }
    }
    return drv_finish(&d, invalid, first, tests);
}

/* any and count differ only in the callback and the output's element type (hit or count).
 * Sharing the loop adds two tests of the loop-invariant, always-predicted `counting` per
 * query (gcc -O3 keeps it in a stack slot; no unswitching), next to an indirect call and a
 * kernel run: noise. */
static hs_status run_any_or_count(const hs_engine *e, const hs_queries *qs,
                                  const hs_batch_opts *opts, int counting, uint8_t *hit,
                                  uint32_t *count)
{
    drv d;
    hs_status s = drv_setup(e, qs, opts, &d);
    if (s != HS_OK)
        return s;
    if ((counting ? e->count == NULL : e->any == NULL) ||
        (qs->count > 0 && (counting ? count == NULL : hit == NULL)))
        return HS_E_NULL;
    uint64_t tests = 0;
    size_t invalid = 0, first = SIZE_MAX;
    if (e->anycount_range != NULL) {
        const size_t rs = range_size(&d), n = qs->count;
        HS_FOR_RANGES((n + rs - 1) / rs)
        {
            const size_t lo = (size_t)ii * rs, hi = n - lo > rs ? lo + rs : n;
            hs_racc acc = {0, 0, SIZE_MAX};
            e->anycount_range(e->ctx, d.ks, qs, d.sem, lo, hi, counting ? NULL : hit,
                              counting ? count : NULL, &acc);
            acc_add(&acc, &tests, &invalid, &first);
        }
        return drv_finish(&d, invalid, first, tests);
    }
    HS_FOR_QUERIES(qs->count)
    {
        size_t i = (size_t)ii;
        hs_kq kq;
        uint32_t c = 0;
        if (hs_prep_query(qs, i, d.sem, &kq)) {
            uint64_t n = 0;
            if (counting)
                c = e->count(e->ctx, d.ks, &kq, &n);
            else
                c = e->any(e->ctx, d.ks, &kq, &n) != 0;
            tests += n;
        } else {
            invalid++;
            first = i < first ? i : first;
        }
        if (counting)
            count[i] = c;
        else
            hit[i] = (uint8_t)c;
    }
    return drv_finish(&d, invalid, first, tests);
}

hs_status hs_run_any(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                     uint8_t *hit)
{
    return run_any_or_count(e, qs, opts, 0, hit, NULL);
}

hs_status hs_run_count(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                       uint32_t *count)
{
    return run_any_or_count(e, qs, opts, 1, NULL, count);
}

/* ---- all hits ------------------------------------------------------------------------------ */

static inline int hit_less(float ta, uint32_t ia, float tb, uint32_t ib)
{
    return ta < tb || (ta == tb && ia < ib);
}

static void sift_down(uint32_t *id, float *t, size_t root, size_t n)
{
    for (;;) {
        size_t c = 2 * root + 1;
        if (c >= n)
            return;
        if (c + 1 < n && hit_less(t[c], id[c], t[c + 1], id[c + 1]))
            c++;
        if (!hit_less(t[root], id[root], t[c], id[c]))
            return;
        uint32_t ti = id[root];
        id[root] = id[c];
        id[c] = ti;
        float tt = t[root];
        t[root] = t[c];
        t[c] = tt;
        root = c;
    }
}

/* (t, id) as one unsigned key with the same order: t's bits made monotone (negatives
 * flipped, -0 folded into +0 first, as the float compare treats them as equal), id below. */
static inline uint64_t hit_key(float t, uint32_t id)
{
    float z = t + 0.0f;
    uint32_t u;
    memcpy(&u, &z, sizeof u);
    u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
    return ((uint64_t)u << 32) | id;
}

/* n <= w <= 8 hits by rank: each hit's slot is the number of smaller keys. w x w compares and
 * no branch on the data; the slots past n hold padding keys, which rank after every hit. A
 * query has a few hits, in the order the walk met them: sorting them by insertion was a coin
 * toss per comparison, and mispredicted. */
#if defined(__GNUC__) || defined(__clang__)
#define HS_RANK_INLINE inline __attribute__((always_inline)) /* one copy per constant w */
#else
#define HS_RANK_INLINE inline
#endif
static HS_RANK_INLINE void rank_sort(uint32_t *id, float *t, size_t n, size_t w)
{
    uint64_t k[8];
    uint32_t oi[8];
    float ot[8];
    for (size_t i = 0; i < w; i++)
        k[i] = i < n ? hit_key(t[i], id[i]) : UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t r = 0;
        for (size_t j = 0; j < w; j++)
            r += k[j] < k[i];
        oi[r] = id[i];
        ot[r] = t[i];
    }
    memcpy(id, oi, n * sizeof *id);
    memcpy(t, ot, n * sizeof *t);
}

/* Sorts one query's hits by (t, id) in place, allocation-free: by rank up to 8 (the usual
 * handful), insertion sort up to 24, heapsort (O(n log n) worst case) for lines through
 * dense scenes. Entry times of
 * valid queries are finite, and ids are distinct, so the order is total: the result is unique
 * and therefore the same whatever order the engine appended in. */
static void sort_hits(uint32_t *id, float *t, size_t n)
{
    if (n <= 1)
        return;
    if (n <= 4) {
        rank_sort(id, t, n, 4);
        return;
    }
    if (n <= 8) {
        rank_sort(id, t, n, 8);
        return;
    }
    if (n <= 24) {
        for (size_t i = 1; i < n; i++) {
            uint32_t ki = id[i];
            float kt = t[i];
            size_t j = i;
            while (j > 0 && hit_less(kt, ki, t[j - 1], id[j - 1])) {
                id[j] = id[j - 1];
                t[j] = t[j - 1];
                j--;
            }
            id[j] = ki;
            t[j] = kt;
        }
        return;
    }
    for (size_t i = n / 2; i-- > 0;)
        sift_down(id, t, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        uint32_t ti = id[0];
        id[0] = id[end];
        id[end] = ti;
        float tt = t[0];
        t[0] = t[end];
        t[end] = tt;
        sift_down(id, t, 0, end);
    }
}

/* Queries are cut into blocks of at most HS_ALL_BLOCK (fewer for small batches, so every
 * thread gets work). One thread answers a whole block, appending its hits to its own
 * hs_hitbuf, so a block's hits sit contiguously, in query order, in one buffer: the block only
 * needs to remember which buffer and where. Per-query counts go straight into offsets[i + 1];
 * a prefix sum turns them into offsets, and a parallel copy moves every block to its final
 * place (with rows, each query's hits to its own row). The blocks and buffers only decide
 * where hits wait before the copy, never where they end up, so the output is the same for
 * every block size, thread count and schedule. */
#define HS_ALL_BLOCK 256
#define HS_ALL_ESTIMATE 1024
#ifndef HS_COPY_AHEAD
#define HS_COPY_AHEAD 8
#endif

typedef struct all_block {
    size_t start; /* position in the thread's buffer */
    int tid;
} all_block;

/* offsets[1..n] (counts) become offsets[0..n] (starts) with offsets[0] = 0, on the team: each
 * thread sums its slice, the slice sums are scanned, then each thread scans its slice from its
 * base. Integer sums, so the result does not depend on the slicing. */
void hs_prefix_sums(size_t *offsets, size_t n, int threads, size_t *part)
{
    offsets[0] = 0;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        const size_t tid = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
        const size_t lo = n / nt * tid + (tid < n % nt ? tid : n % nt);
        const size_t hi = lo + n / nt + (tid < n % nt ? 1 : 0);
        size_t sum = 0;
        for (size_t i = lo; i < hi; i++)
            sum += offsets[i + 1];
        part[tid] = sum;
#pragma omp barrier
        size_t base = 0;
        for (size_t u = 0; u < tid; u++)
            base += part[u];
        for (size_t i = lo; i < hi; i++) {
            base += offsets[i + 1];
            offsets[i + 1] = base;
        }
    }
}

hs_status hs_run_all_rows(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                          hs_workspace *ws, const uint32_t *rows, hs_hits *out)
{
    if (out == NULL)
        return HS_E_NULL;
    memset(out, 0, sizeof *out);
    drv d;
    hs_status s = drv_setup(e, qs, opts, &d);
    if (s != HS_OK)
        return s;
    if (e->all == NULL)
        return HS_E_NULL;

    const size_t n = qs->count;
    const size_t bs = d.chunk < HS_ALL_BLOCK ? d.chunk : HS_ALL_BLOCK;
    const size_t nblocks = (n + bs - 1) / bs;
    size_t *offsets = hs_ws_get(ws, HS_WS_OFFSETS, (n + 1) * sizeof *offsets);
    all_block *blocks = hs_ws_get(ws, HS_WS_BLOCKS, nblocks * sizeof *blocks);
    size_t *part = hs_ws_get(ws, HS_WS_PART, (size_t)d.threads * sizeof *part);
    /* reordered: the query loop keeps counts in its own order (a random store per query there
     * slowed the traversal itself by ~20%); a tight parallel loop moves them to their rows */
    const int ranged = e->all_range != NULL; /* counts through scnt too */
    uint32_t *scnt = rows || ranged ? hs_ws_get(ws, HS_WS_SCNT, n * sizeof *scnt) : NULL;
    size_t *done = hs_ws_get(ws, HS_WS_DONE, (size_t)d.threads * sizeof *done);
    if (offsets == NULL || blocks == NULL || part == NULL || ((rows || ranged) && scnt == NULL) ||
        done == NULL || hs_ws_hitbufs(ws, d.threads) != HS_OK)
        return HS_E_NOMEM; /* the workspace frees or keeps what it got */
    offsets[0] = 0;
    memset(done, 0, (size_t)d.threads * sizeof *done);
    /* Without a workspace, in large batches a thread's hit buffer is sized once from its
     * first HS_ALL_ESTIMATE queries' hit rate (its share of the batch, + 1/4): growing it by
     * doubling from empty copied every hit about once and touched twice the memory, in page
     * faults, on every call
     * (10^6 queries: 1.02-1.24x; on 10^4 it measured 0.9x, so small batches keep plain
     * doubling; a workspace's buffers keep their size between calls, and sizing them this way
     * too cost 5% there). Only an allocation size: the output does not depend on it. */
    const size_t share = n / (size_t)d.threads + 1;

    uint64_t tests = 0;
    size_t invalid = 0, first = SIZE_MAX;
    int nomem = 0;
    const ptrdiff_t nb = (ptrdiff_t)nblocks;
    hs_sched sc; /* blocks in the locality order: kept contiguous per thread, as HS_FOR_RANGES */
    hs_sched_init(&sc, nblocks, d.threads);
#pragma omp parallel num_threads(d.threads) if (d.threads > 1) reduction(+ : tests, invalid)    \
    reduction(min : first) reduction(| : nomem)
    HS_SCHED_LOOP(sc, b) {
        const int tid = omp_get_thread_num();
        hs_hitbuf *buf = hs_ws_hitbuf(ws, tid);
        blocks[b].tid = tid;
        blocks[b].start = buf->len;
        size_t lo = (size_t)b * bs;
        size_t hi = n - lo > bs ? lo + bs : n;
        if (ranged) {
            hs_racc acc = {0, 0, SIZE_MAX};
            if (!nomem && e->all_range(e->ctx, d.ks, qs, d.sem, lo, hi, buf, scnt, &acc) != HS_OK)
                nomem = 1; /* the result is discarded */
            acc_add(&acc, &tests, &invalid, &first);
            const size_t before = done[tid];
            done[tid] += hi - lo;
            if (ws->transient && share >= 16 * HS_ALL_ESTIMATE && before < HS_ALL_ESTIMATE &&
                done[tid] >= HS_ALL_ESTIMATE) {
                const double rate = (double)buf->len / (double)done[tid];
                const double want = rate * (double)(share - done[tid]) * 1.25 + 64.0;
                if (!nomem && want < (double)(SIZE_MAX / 16))
                    (void)hs_hitbuf_reserve(buf, (size_t)want); /* a hint: growth still works */
            }
            size_t at = blocks[b].start;
            for (size_t i = lo; i < hi; i++) {
                if (nomem)
                    scnt[i] = 0;
                if (scnt[i] > 1)
                    sort_hits(buf->id + at, buf->t + at, scnt[i]);
                at += scnt[i];
                if (!rows)
                    offsets[i + 1] = scnt[i];
            }
            continue;
        }
        for (size_t i = lo; i < hi; i++) {
            hs_kq kq;
            size_t before = buf->len;
            if (nomem) {
                if (rows)
                    scnt[i] = 0;
                else
                    offsets[i + 1] = 0;
                continue;
            }
            if (hs_prep_query(qs, i, d.sem, &kq)) {
                uint64_t nt = 0;
                if (e->all(e->ctx, d.ks, &kq, buf, &nt) != HS_OK) {
                    nomem = 1; /* the only failure an engine reports; the result is discarded */
                    buf->len = before;
                }
                tests += nt;
            } else {
                invalid++;
                first = i < first ? i : first;
            }
            size_t nh = buf->len - before;
            if (nh > 1) /* buf->id is NULL until the first hit: no offset on it before then */
                sort_hits(buf->id + before, buf->t + before, nh);
            if (rows)
                scnt[i] = (uint32_t)nh; /* at most the circle count */
            else
                offsets[i + 1] = nh;
        }
    }

    uint32_t *oid = NULL;
    float *ot = NULL;
    size_t total = 0;
    if (!nomem) {
        if (rows) {
#pragma omp parallel for num_threads(d.threads) schedule(static) if (d.threads > 1)
            for (ptrdiff_t i = 0; i < (ptrdiff_t)n; i++)
                offsets[rows[i] + 1] = scnt[i];
        }
        hs_prefix_sums(offsets, n, d.threads, part);
        total = offsets[n];
        /* at least one element so a successful result never has NULL arrays */
        oid = hs_ws_get(ws, HS_WS_OUT_ID, total * sizeof *oid);
        ot = hs_ws_get(ws, HS_WS_OUT_T, total * sizeof *ot);
        nomem = oid == NULL || ot == NULL;
    }
    if (!nomem) {
#pragma omp parallel for num_threads(d.threads) schedule(static) if (d.threads > 1)
        for (ptrdiff_t b = 0; b < nb; b++) {
            size_t lo = (size_t)b * bs;
            size_t hi = n - lo > bs ? lo + bs : n;
            const hs_hitbuf *buf = hs_ws_hitbuf(ws, blocks[b].tid);
            if (rows == NULL) {
                size_t len = offsets[hi] - offsets[lo];
                if (len) {
                    memcpy(oid + offsets[lo], buf->id + blocks[b].start, len * sizeof *oid);
                    memcpy(ot + offsets[lo], buf->t + blocks[b].start, len * sizeof *ot);
                }
                continue;
            }
            /* rows are a few hits: a plain loop beats two memcpy calls per row. The rows are
             * scattered over the output (the caller's order, not the sorted one), so each is a
             * cache miss: the row HS_COPY_AHEAD queries on is requested early, and its
             * offset before that. */
            size_t from = blocks[b].start;
            for (size_t i = lo; i < hi; i++) {
#if defined(__GNUC__) || defined(__clang__)
                if (i + 2 * HS_COPY_AHEAD < hi)
                    __builtin_prefetch(offsets + rows[i + 2 * HS_COPY_AHEAD]);
                if (i + HS_COPY_AHEAD < hi) {
                    size_t ta = offsets[rows[i + HS_COPY_AHEAD]];
                    __builtin_prefetch(oid + ta, 1);
                    __builtin_prefetch(ot + ta, 1);
                }
#endif
                size_t to = offsets[rows[i]], len = scnt[i];
                for (size_t j = 0; j < len; j++) {
                    oid[to + j] = buf->id[from + j];
                    ot[to + j] = buf->t[from + j];
                }
                from += len;
            }
        }
    }
    if (nomem)
        return HS_E_NOMEM;
    if (ws->transient) { /* the result becomes the caller's */
        offsets = hs_ws_take(ws, HS_WS_OFFSETS);
        oid = hs_ws_take(ws, HS_WS_OUT_ID);
        ot = hs_ws_take(ws, HS_WS_OUT_T);
    } else {
        out->ws = ws;
    }
    out->offsets = offsets;
    out->idx = oid;
    out->t = ot;
    out->count = n;
    out->total = total;
    return drv_finish(&d, invalid, first, tests);
}
