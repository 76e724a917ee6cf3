/* Internal: circle-set layout and the batch driver that brute force and the grid share. */
#ifndef HITSCAN_INTERNAL_H
#define HITSCAN_INTERNAL_H

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "hitscan/batch.h"
#include "hitscan/narrow.h"
#include "core.h"
#include "kernels.h"

/* Widest vector any level uses, in bytes and floats: copies are aligned and padded to it. */
#define HS_ALIGN 64
#define HS_PAD_FLOATS 16

struct hs_circles {
    const float *x, *y, *r;
    const uint32_t *mask; /* NULL: no filter */
    size_t n;
    void *owned;          /* one block holding the copies, or NULL when borrowed */
};

/* Growable per-thread hit list for all-hits. */
typedef struct hs_hitbuf {
    uint32_t *id;
    float *t;
    size_t len, cap;
} hs_hitbuf;
/* Makes room for at least `extra` more entries; HS_OK or HS_E_NOMEM. */
hs_status hs_hitbuf_reserve(hs_hitbuf *b, size_t extra);
void hs_hitbuf_free(hs_hitbuf *b);

/* One thread's hit buffer alone on its cache lines (two 64-byte lines: the adjacent-line
 * prefetcher pairs them). The traversal updates len as it appends; with the buffers packed,
 * two threads' buffers shared a line and all-hits on 2 threads ran barely faster than on one. */
typedef union hs_padded_hitbuf {
    hs_hitbuf b;
    char pad[128];
} hs_padded_hitbuf;

/* ---- Workspaces (workspace.c) ---------------------------------------------------------------
 * Every buffer a batch call needs comes from a workspace: the caller's (kept between calls) or
 * a transient one on the stack, freed when the call ends. One code path either way. */
typedef enum hs_ws_slot {
    HS_WS_ORD_KEY, HS_WS_ORD_HIST, HS_WS_ORD_PERM, HS_WS_ORD_REC, /* the locality order */
    HS_WS_OFFSETS, HS_WS_OUT_ID, HS_WS_OUT_T,                      /* all-hits' result */
    HS_WS_BLOCKS, HS_WS_PART, HS_WS_SCNT, HS_WS_DONE,              /* all-hits' bookkeeping */
    HS_WS_SLOTS
} hs_ws_slot;

struct hs_workspace {
    atomic_int busy;  /* a call is using it */
    int transient;    /* a call's own, freed when it returns */
    void *p[HS_WS_SLOTS];
    size_t cap[HS_WS_SLOTS];
    hs_padded_hitbuf *buf; /* per-thread hit buffers */
    int nbuf;
};

typedef struct hs_wsref {
    hs_workspace *ws; /* opts->ws, or &local */
    hs_workspace local;
} hs_wsref;

/* HS_OK, or HS_E_BUSY when opts->ws is in use by another call. */
hs_status hs_ws_open(const hs_batch_opts *opts, hs_wsref *r);
void hs_ws_close(hs_wsref *r);
/* Slot s with room for bytes (contents undefined), or NULL; owned by the workspace. */
void *hs_ws_get(hs_workspace *ws, hs_ws_slot s, size_t bytes);
/* Slot s's block, now the caller's to free (a transient workspace handing over a result). */
void *hs_ws_take(hs_workspace *ws, hs_ws_slot s);
/* n per-thread hit buffers, emptied (their capacity kept); then hs_ws_hitbuf(ws, k). */
hs_status hs_ws_hitbufs(hs_workspace *ws, int n);
hs_hitbuf *hs_ws_hitbuf(hs_workspace *ws, int k);

/* A sufficient condition for hs_query_validate(q) == HS_OK, inlined: the call (a 28-byte
 * struct by value, nine branches) cost ~4% of a short grid query. Anything it does not
 * accept goes to hs_query_validate itself, which stays the one definition of "valid". */
static inline int hs_query_surely_valid(hs_query q)
{
    const float big = HS_MAX_COORD;
    float dd = q.d.x * q.d.x + q.d.y * q.d.y;
    return fabsf(q.a.x) <= big && fabsf(q.a.y) <= big && q.q >= 0.0f && q.q <= big &&
           fabsf(q.d.x) <= big && fabsf(q.d.y) <= big && q.tmin <= q.tmax &&
           q.tmin < INFINITY && q.tmax > -INFINITY && dd <= FLT_MAX &&
           (dd == 0.0f || dd >= FLT_MIN);
}

/* Query i of a batch as an hs_query (NULL arrays replaced by the *_all fields). */
static inline hs_query hs_query_at(const hs_queries *qs, size_t i)
{
    hs_query q;
    q.a.x = qs->ax[i];
    q.a.y = qs->ay[i];
    q.d.x = qs->dx[i];
    q.d.y = qs->dy[i];
    q.tmin = qs->tmin ? qs->tmin[i] : qs->tmin_all;
    q.tmax = qs->tmax ? qs->tmax[i] : qs->tmax_all;
    q.q = qs->q ? qs->q[i] : qs->q_all;
    return q;
}

/* 1 and *kq filled when query i of qs is valid (every engine and path prepares queries
 * here, so they agree on what is valid). */
static inline int hs_prep_query(const hs_queries *qs, size_t i, hs_semantics sem, hs_kq *kq)
{
    const hs_query q = hs_query_at(qs, i);
    if (!hs_query_surely_valid(q) && hs_query_validate(q) != HS_OK)
        return 0;
    *kq = hs_kq_make(q, sem, qs->mask ? qs->mask[i] : qs->mask_all);
    return 1;
}

/* What a batch is answered against: brute force (one run of every circle) or the grid
 * (ordered cell traversal). Each callback answers one prepared, valid query with the given
 * kernels and adds the circle tests it made to *tests. */
typedef struct hs_engine {
    const void *ctx;
    /* rough circle tests per query: the driver starts a thread team only for batches whose
     * total work pays for it (queries x cost, not queries alone: 512 queries against 65536
     * circles by brute force are 33M tests) */
    size_t cost;
    int (*any)(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint64_t *tests);
    uint32_t (*count)(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint64_t *tests);
    /* closest hit: returns 1 and fills *id (caller's index), *t, and the circle hit (for the
     * point and normal), or 0 on a miss */
    int (*closest)(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint32_t *id,
                   float *t, hs_circle *circle, uint64_t *tests);
    /* appends every hit (caller's index, entry t), in any order; the driver sorts */
    hs_status (*all)(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, hs_hitbuf *buf,
                     uint64_t *tests);
    /* Optional (NULL: the driver calls the per-query callbacks): a whole range of queries at
     * once, with the contracts of hs_kernel_set's grid_*_range. */
    void (*closest_range)(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                          hs_semantics sem, size_t lo, size_t hi, hs_closest_out out,
                          hs_racc *acc);
    void (*anycount_range)(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                           hs_semantics sem, size_t lo, size_t hi, uint8_t *hit,
                           uint32_t *count, hs_racc *acc);
    hs_status (*all_range)(const void *ctx, const hs_kernel_set *ks, const hs_queries *qs,
                           hs_semantics sem, size_t lo, size_t hi, hs_hitbuf *buf,
                           uint32_t *cnt, hs_racc *acc);
} hs_engine;

/* The batch driver: validates the queries, resolves the ISA, splits the batch across OpenMP
 * threads in a way that makes every output independent of the thread count, fills stats. */
hs_status hs_run_closest(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                         hs_closest_out out);
hs_status hs_run_any(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                     uint8_t *hit);
hs_status hs_run_count(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                       uint32_t *count);
/* All hits, with query i's hits in output row rows[i] (a permutation of 0 .. count-1; NULL:
 * row i), so a caller that reordered its batch gets the CSR in its own order in one copy.
 * Buffers come from ws (opened by the caller); the result's arrays stay in it unless it is
 * transient, in which case they are handed to out. */
hs_status hs_run_all_rows(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                          hs_workspace *ws, const uint32_t *rows, hs_hits *out);

/* Counts in offsets[1..n] become starts in offsets[0..n] (offsets[0] = 0), on a team of
 * `threads`; part holds one entry per thread. The result does not depend on the team. */
void hs_prefix_sums(size_t *offsets, size_t n, int threads, size_t *part);

#endif
