/* SPDX-License-Identifier: MIT */
/* All-hits' assembly (all_hits.h): ranges of queries answered on the team into per-thread
 * hit buffers, each query's hits sorted, then the CSR laid out by a prefix sum and a copy. */
#include "batch/all_hits.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "batch/hit_sort.h"
#include "batch/prefix_sums.h"
#include "batch/worksteal.h"
#include "prefetch.h"
#include "tuning.h"

void hs_hits_free(hs_hits *h)
{
    if (h == NULL)
        return;
    if (h->ws == NULL) { /* else the workspace's, reused by its next call */
        free(h->offsets);
        free(h->idx);
        free(h->t);
        free(h->kind);
    }
    memset(h, 0, sizeof *h);
}

/* ---- The CSR -----------------------------------------------------------------------------
 * Queries are cut into blocks of at most HS_ALL_BLOCK (fewer for small batches, so every
 * thread gets work). One thread answers a whole block, appending its hits to its own
 * hs_hitbuf, so a block's hits sit contiguously, in query order, in one buffer: the block only
 * needs to remember which buffer and where. Per-query counts go to count[k]; a prefix sum turns
 * them into offsets, and a parallel copy moves every block to its final place (with rows, each
 * query's hits to its own row). The blocks and buffers only decide where hits wait before the
 * copy, never where they end up, so the output is the same for every block size, thread count
 * and schedule. */

typedef struct all_block {
    size_t start; /* position in the thread's buffer */
    int tid;
} all_block;

/* The buffers and tables of one all-hits call. */
typedef struct all_call {
    const hs_batch_setup *b;
    size_t n, bs, nblocks; /* queries, queries per block, blocks */
    hs_workspace *ws;
    const uint32_t *rows;
    size_t *offsets;
    all_block *blocks;
    size_t *part;
    uint32_t *count;
    size_t *done; /* per thread: queries answered so far */
    /* into the caller's arrays only (else NULL): where position k's hits wait, as
     * hs_src_make(thread, start in its buffer); then each output row's, with its count */
    uint64_t *src;
    struct all_row *row;
    atomic_int nomem; /* an allocation failed: every thread stops at its next block */
} all_call;

/* An output row of the hits into the caller's arrays: written once per row in a random order
 * (one cache line, where the offsets and a separate array would take two), then read in
 * order. */
typedef struct all_row {
    uint64_t src, count;
} all_row;

/* A position's hits in the thread buffers: the thread above, the start below. */
#define HS_SRC_SHIFT 48
static inline uint64_t hs_src_make(int tid, size_t start)
{
    return (uint64_t)tid << HS_SRC_SHIFT | (uint64_t)start;
}

/* Without a workspace, in large batches a thread's hit buffer is sized once from its first
 * HS_ALL_ESTIMATE queries' hit rate (its share of the batch, + 1/4), instead of growing by
 * doubling from empty, which copies every hit about once and touches twice the memory.
 * Small batches and workspaces (whose buffers keep their size between calls) keep plain
 * doubling. Only an allocation size: the output does not depend on it. */
static void size_hint(const all_call *c, hs_hitbuf *buf, int tid, size_t before)
{
    const size_t share = c->n / (size_t)c->b->threads + 1;
    const size_t done = c->done[tid];
    if (!c->ws->transient || share < 16 * HS_ALL_ESTIMATE || before >= HS_ALL_ESTIMATE ||
        done < HS_ALL_ESTIMATE)
        return;
    const double rate = (double)buf->len / (double)done;
    const double want = rate * (double)(share - done) * 1.25 + 64.0;
    if (want < (double)(SIZE_MAX / 16))
        (void)hs_hitbuf_reserve(buf, (size_t)want); /* a hint: growth still works */
}

/* The blocks one thread takes from the schedule: answered, each query's hits sorted in the
 * thread's buffer and counted. Returns 1 if an allocation failed, on this thread or another:
 * the result is lost then, and the thread stops at once. */
static int answer_share(all_call *c, hs_sched *sc, hs_hits_range_fn answer, const void *ctx,
                        int tid, hs_tally *sum)
{
    const size_t n = c->n, bs = c->bs;
    const unsigned home = hs_sched_home(sc, tid);
    for (ptrdiff_t k; (k = hs_sched_next(sc, home)) >= 0;) {
        if (atomic_load_explicit(&c->nomem, memory_order_relaxed))
            return 1;
        hs_hitbuf *buf = hs_ws_hitbuf(c->ws, tid);
        c->blocks[k].tid = tid;
        c->blocks[k].start = buf->len;
        const size_t lo = (size_t)k * bs, hi = n - lo > bs ? lo + bs : n;
        hs_tally t = HS_TALLY_INIT;
        if (answer(ctx, lo, hi, tid, buf, c->count, &t) != HS_OK) {
            atomic_store_explicit(&c->nomem, 1, memory_order_relaxed);
            return 1;
        }
        hs_tally_add(sum, &t);
        const size_t before = c->done[tid];
        c->done[tid] += hi - lo;
        size_hint(c, buf, tid, before);
        size_t at = c->blocks[k].start;
        for (size_t i = lo; i < hi; i++) {
            if (c->src)
                c->src[i] = hs_src_make(tid, at);
            if (c->count[i] > 1) /* buf->id is NULL until the first hit: no offset on it */
                sort_hits(buf->id + at, buf->t + at, c->count[i]);
            at += c->count[i];
            if (c->offsets && !c->rows)
                c->offsets[i + 1] = c->count[i];
        }
    }
    return 0;
}

typedef struct answer_team {
    all_call *c;
    hs_sched *sc;
    hs_hits_range_fn answer;
    const void *ctx;
    atomic_int nomem;
    hs_par_tally sum;
} answer_team;

static void answer_slot(void *ctx, int slot)
{
    answer_team *a = (answer_team *)ctx;
    hs_tally t = HS_TALLY_INIT;
    if (answer_share(a->c, a->sc, a->answer, a->ctx, slot, &t))
        atomic_store(&a->nomem, 1);
    hs_par_tally_add(&a->sum, &t);
}

/* Every block answered on the team (blocks handed out by the work-stealing schedule, which
 * keeps each thread on a contiguous stretch of the batch). Returns 1 if an allocation failed
 * (the result is lost). */
static int answer_blocks(all_call *c, hs_hits_range_fn answer, const void *ctx, hs_tally *total)
{
    const hs_batch_setup *b = c->b;
    hs_sched sc;
    hs_sched_init(&sc, c->nblocks, b->threads);
    answer_team t = {c, &sc, answer, ctx, 0, {0, 0, 0}};
    atomic_init(&t.nomem, 0);
    hs_par_tally_init(&t.sum);
    hs_par_team(&b->par, answer_slot, &t);
    *total = hs_par_tally_get(&t.sum);
    return atomic_load(&t.nomem);
}

/* Block k's hits to their rows: rows are a few hits each, so a plain loop beats two memcpy
 * calls per row. The rows are scattered over the output (the caller's order, not the sorted
 * one), so each is a cache miss: the row HS_COPY_AHEAD queries on is requested early, and its
 * offset before that. */
static void copy_rows(const all_call *c, const hs_hitbuf *buf, size_t from, size_t lo, size_t hi,
                      uint32_t *oid, float *ot)
{
    const size_t *offsets = c->offsets;
    const uint32_t *rows = c->rows;
    for (size_t i = lo; i < hi; i++) {
        if (i + 2 * HS_COPY_AHEAD < hi)
            hs_prefetch(offsets + rows[i + 2 * HS_COPY_AHEAD]);
        if (i + HS_COPY_AHEAD < hi) {
            size_t ta = offsets[rows[i + HS_COPY_AHEAD]];
            hs_prefetch_write(oid + ta);
            hs_prefetch_write(ot + ta);
        }
        size_t to = offsets[rows[i]], len = c->count[i];
        for (size_t j = 0; j < len; j++) {
            oid[to + j] = buf->id[from + j];
            ot[to + j] = buf->t[from + j];
        }
        from += len;
    }
}

/* Block k's hits moved to their place in the output. */
static void copy_block(const all_call *c, size_t k, uint32_t *oid, float *ot)
{
    const size_t n = c->n, bs = c->bs;
    const size_t lo = k * bs, hi = n - lo > bs ? lo + bs : n;
    const hs_hitbuf *buf = hs_ws_hitbuf(c->ws, c->blocks[k].tid);
    if (c->rows) {
        copy_rows(c, buf, c->blocks[k].start, lo, hi, oid, ot);
        return;
    }
    size_t len = c->offsets[hi] - c->offsets[lo];
    if (len) {
        memcpy(oid + c->offsets[lo], buf->id + c->blocks[k].start, len * sizeof *oid);
        memcpy(ot + c->offsets[lo], buf->t + c->blocks[k].start, len * sizeof *ot);
    }
}

typedef struct copy_call {
    const all_call *c;
    uint32_t *oid;
    float *ot;
} copy_call;

static void copy_one(void *ctx, size_t k, int slot)
{
    const copy_call *cc = (const copy_call *)ctx;
    (void)slot;
    copy_block(cc->c, k, cc->oid, cc->ot);
}

/* Every block's hits moved to their place in the output, on the team. */
static void copy_blocks(const all_call *c, uint32_t *oid, float *ot)
{
    const copy_call cc = {c, oid, ot};
    const hs_par alone = hs_par_cap(c->b->par, 1);
    hs_par_for(c->n < 2 * HS_PAR_LIGHT_STEP ? &alone : &c->b->par, c->nblocks, copy_one,
               (void *)&cc);
}

/* With stream (a large output), stores go past the cache where the CPU has them: the caller's
 * arrays are written once, in order, and not read back by the call, so no line of them is
 * read from memory before it is written (the write-combining buffers join a row's stores into
 * whole lines). A small output stays in the cache the caller reads it from. */
static inline void put_i64(int64_t *p, int64_t v, const int stream)
{
#if defined(__SSE2__)
    if (stream) {
        _mm_stream_si64((long long *)p, v);
        return;
    }
#endif
    (void)stream;
    *p = v;
}

static inline void put_f32(float *p, float v, const int stream)
{
#if defined(__SSE2__)
    if (stream) {
        int u;
        memcpy(&u, &v, sizeof u);
        _mm_stream_si32((int *)(void *)p, u);
        return;
    }
#endif
    (void)stream;
    *p = v;
}

/* Output rows lo .. hi-1 to the caller's arrays (hs_hits_into) from entry `to` on, in the
 * output's order, each row's hits fetched from the thread buffer they wait in (requested
 * HS_COPY_AHEAD rows early). Gathering beats scattering rows here: the caller's rows are two
 * and a half times the bytes of the buffers', and a scattered row costs a read of every line
 * it touches. One loop writes every member asked for: a loop over a row's few hits
 * mispredicts its exit about once a row, and the tests of the members go the same way for the
 * whole call. The offsets, when asked for, are the running sum. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline)) /* one copy per constant stream */
#endif
static inline void
rows_into_with(const all_call *c, size_t lo, size_t hi, size_t to, const hs_hits_into *d,
               const int stream)
{
    const all_row *row = c->row;
    const uint64_t start_mask = ((uint64_t)1 << HS_SRC_SHIFT) - 1;
    const hs_padded_hitbuf *bufs = c->ws->buf;
    int64_t *restrict off = d->offsets, *restrict oq = d->query, *restrict oid = d->idx;
    float *restrict ot = d->t;
    for (size_t i = lo; i < hi; i++) {
        if (i + HS_COPY_AHEAD < hi) {
            const uint64_t a = row[i + HS_COPY_AHEAD].src;
            const hs_hitbuf *ab = &bufs[a >> HS_SRC_SHIFT].b;
            if (ab->id != NULL) {
                hs_prefetch(ab->id + (a & start_mask));
                hs_prefetch(ab->t + (a & start_mask));
            }
        }
        if (off)
            off[i] = (int64_t)to;
        const size_t len = (size_t)row[i].count;
        if (len == 0) /* and a thread without hits has no buffer to offset */
            continue;
        const uint64_t s = row[i].src;
        const hs_hitbuf *buf = &bufs[s >> HS_SRC_SHIFT].b;
        const uint32_t *id = buf->id + (s & start_mask);
        const float *t = buf->t + (s & start_mask);
        for (size_t j = 0; j < len; j++) {
            if (oq)
                put_i64(oq + to + j, (int64_t)i, stream);
            if (oid)
                put_i64(oid + to + j, (int64_t)id[j], stream);
            if (ot)
                put_f32(ot + to + j, t[j], stream);
        }
        to += len;
    }
    if (off && hi == c->n)
        off[hi] = (int64_t)to;
#if defined(__SSE2__)
    if (stream)
        _mm_sfence(); /* this thread's streamed stores are complete before the arrays are read */
#endif
}

static void rows_into(const all_call *c, size_t lo, size_t hi, size_t to, const hs_hits_into *d,
                      int stream)
{
    if (stream)
        rows_into_with(c, lo, hi, to, d, 1);
    else
        rows_into_with(c, lo, hi, to, d, 0);
}

/* Every row to the caller's arrays in parts (hs_par_parts); each part's first entry is the
 * sum of the counts before it (c->part holds the parts' sums, then their starts). */
typedef struct into_call {
    const all_call *c;
    const hs_hits_into *d;
    size_t parts;
    int stream;
} into_call;

static void count_part(void *ctx, size_t k, int slot)
{
    const into_call *ic = (const into_call *)ctx;
    const size_t n = ic->c->n, lo = n * k / ic->parts, hi = n * (k + 1) / ic->parts;
    size_t sum = 0;
    (void)slot;
    for (size_t i = lo; i < hi; i++)
        sum += (size_t)ic->c->row[i].count;
    ic->c->part[k] = sum;
}

static void into_part(void *ctx, size_t k, int slot)
{
    const into_call *ic = (const into_call *)ctx;
    const size_t n = ic->c->n, lo = n * k / ic->parts, hi = n * (k + 1) / ic->parts;
    (void)slot;
    rows_into(ic->c, lo, hi, ic->c->part[k], ic->d, ic->stream);
}

static void copy_into(const all_call *c, const hs_hits_into *d, size_t hits)
{
    const int stream = hits >= HS_STREAM_MIN_HITS;
    const size_t n = c->n;
    const hs_par *par = &c->b->par;
    const size_t parts = hs_par_parts(par);
    if (par->threads <= 1 || n < parts * HS_ALL_BLOCK || n < 2 * HS_PAR_LIGHT_STEP) {
        rows_into(c, 0, n, 0, d, stream);
        return;
    }
    const into_call ic = {c, d, parts, stream};
    hs_par_for(par, parts, count_part, (void *)&ic);
    size_t to = 0;
    for (size_t k = 0; k < parts; k++) {
        const size_t s = c->part[k];
        c->part[k] = to;
        to += s;
    }
    hs_par_for(par, parts, into_part, (void *)&ic);
}

typedef struct row_call {
    all_call *c;
    const uint32_t *rows;
    _Atomic size_t hits;
} row_call;

static void row_range(void *ctx, size_t lo, size_t hi, int slot)
{
    row_call *rc = (row_call *)ctx;
    all_call *c = rc->c;
    size_t hits = 0;
    (void)slot;
    for (size_t i = lo; i < hi; i++) {
        const size_t r = rc->rows ? rc->rows[i] : i;
        c->row[r].src = c->src[i];
        c->row[r].count = c->count[i];
        hits += c->count[i];
    }
    atomic_fetch_add_explicit(&rc->hits, hits, memory_order_relaxed);
}

/* The answered hits into the caller's arrays: each row's record (in the output's order), the
 * total, the caller's arrays, the copy. */
static hs_status into_place(all_call *c, const hs_batch_setup *b, const hs_tally *total,
                            const hs_all_place *place)
{
    const size_t n = c->n;
    const uint32_t *rows = c->rows;
    row_call rc = {c, rows, 0};
    atomic_init(&rc.hits, 0);
    hs_par_range(&b->par, n, HS_PAR_LIGHT_STEP, row_range, &rc);
    const size_t hits = atomic_load(&rc.hits);
    hs_hits_into d = {NULL, NULL, NULL, NULL, NULL};
    if (place->fn(place->ctx, n, hits, &d) != 0)
        return HS_E_NOMEM;
    if (d.offsets || d.query || d.idx || d.t)
        copy_into(c, &d, hits);
    if (d.kind && hits)
        memset(d.kind, HS_KIND_CIRCLE, hits); /* every hit here is a circle's */
    return hs_batch_end(b, total);
}

static void offset_range(void *ctx, size_t lo, size_t hi, int slot)
{
    const all_call *c = (const all_call *)ctx;
    (void)slot;
    for (size_t i = lo; i < hi; i++)
        c->offsets[c->rows[i] + 1] = c->count[i];
}

hs_status hs_all_hits(const hs_batch_setup *b, size_t n, hs_hits_range_fn answer, const void *ctx,
                      hs_workspace *ws, const uint32_t *rows, hs_hits *out,
                      const hs_all_place *place)
{
    all_call c;
    c.b = b;
    c.n = n;
    c.bs = b->chunk < HS_ALL_BLOCK ? b->chunk : HS_ALL_BLOCK;
    c.nblocks = (n + c.bs - 1) / c.bs;
    c.ws = ws;
    c.rows = rows;
    /* the CSR's offsets; the caller's arrays take the rows' records instead */
    c.offsets = place ? NULL : hs_ws_get(ws, HS_WS_OFFSETS, (n + 1) * sizeof *c.offsets);
    c.blocks = hs_ws_get(ws, HS_WS_BLOCKS, c.nblocks * sizeof *c.blocks);
    c.part = hs_ws_get(ws, HS_WS_PART, hs_par_parts(&b->par) * sizeof *c.part);
    /* counts in the batch's order: with rows, a random store per query in the walk would slow
     * it down; a tight parallel loop moves them to their rows */
    c.count = hs_ws_get(ws, HS_WS_SCNT, n * sizeof *c.count);
    c.done = hs_ws_get(ws, HS_WS_DONE, (size_t)b->threads * sizeof *c.done);
    c.src = NULL;
    c.row = NULL;
    if (place != NULL) {
        c.src = hs_ws_get(ws, HS_WS_SRC, n * sizeof *c.src);
        c.row = hs_ws_get(ws, HS_WS_ROWS, n * sizeof *c.row);
    }
    if ((place ? c.src == NULL || c.row == NULL : c.offsets == NULL) || c.blocks == NULL ||
        c.part == NULL || c.count == NULL || c.done == NULL ||
        hs_ws_hitbufs(ws, b->threads) != HS_OK)
        return HS_E_NOMEM; /* the workspace frees or keeps what it got */
    if (c.offsets)
        c.offsets[0] = 0;
    memset(c.done, 0, (size_t)b->threads * sizeof *c.done);
    atomic_init(&c.nomem, 0);

    hs_tally total;
    int nomem = answer_blocks(&c, answer, ctx, &total);
    if (nomem)
        return HS_E_NOMEM;
    if (place != NULL)
        return into_place(&c, b, &total, place);
    uint32_t *oid = NULL;
    float *ot = NULL;
    if (rows)
        hs_par_range(&b->par, n, HS_PAR_LIGHT_STEP, offset_range, &c);
    hs_prefix_sums(c.offsets, n, &b->par, c.part);
    const size_t total_hits = c.offsets[n];
    /* at least one element so a successful result never has NULL arrays */
    oid = hs_ws_get(ws, HS_WS_OUT_ID, total_hits * sizeof *oid);
    ot = hs_ws_get(ws, HS_WS_OUT_T, total_hits * sizeof *ot);
    if (oid == NULL || ot == NULL)
        return HS_E_NOMEM;
    copy_blocks(&c, oid, ot);
    size_t *offsets = c.offsets;
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
    out->total = total_hits;
    return hs_batch_end(b, &total);
}
