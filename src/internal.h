/* Internal: circle-set layout and the batch driver that brute force and the grid share. */
#ifndef HITSCAN_INTERNAL_H
#define HITSCAN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/batch.h"
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

/* Query i of a batch as an hs_query (NULL arrays replaced by the *_all fields). */
hs_query hs_queries_get(const hs_queries *qs, size_t i);
uint32_t hs_queries_mask(const hs_queries *qs, size_t i);

#endif
