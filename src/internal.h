/* Internal: circle-set layout and the batch driver that brute force and the grid share. */
#ifndef HITSCAN_INTERNAL_H
#define HITSCAN_INTERNAL_H

#include <float.h>
#include <math.h>
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
hs_status hs_run_all(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                     hs_hits *out);
/* hs_run_all with query i's hits in output row rows[i] (a permutation of 0 .. count-1; NULL:
 * row i), so a caller that reordered its batch gets the CSR in its own order in one copy. */
hs_status hs_run_all_rows(const hs_engine *e, const hs_queries *qs, const hs_batch_opts *opts,
                          const uint32_t *rows, hs_hits *out);

#endif
