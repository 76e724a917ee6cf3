/* Internal: the per-ISA kernel table — one query against one contiguous run of circles. */
#ifndef HITSCAN_KERNELS_H
#define HITSCAN_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/batch.h"
#include "core.h"

struct hs_grid;
struct hs_hitbuf;

/* A contiguous SoA run of circles: x, y, r (and mask / ids when non-NULL), n of them, any
 * alignment, any n (tails handled inside). The circle at position i is reported as
 * ids[i] when ids != NULL, else base + i. mask == NULL: every circle passes the filter;
 * otherwise circle i is tested only when (mask[i] & kq->mask) != 0. */
typedef struct hs_run {
    const float *x, *y, *r;
    const uint32_t *mask;
    const uint32_t *ids;
    size_t n;
    uint32_t base;
} hs_run;

/* What answering a range of a batch adds up (the driver sums the ranges): circle tests
 * made, invalid queries and the lowest invalid index (SIZE_MAX when none). */
typedef struct hs_racc {
    uint64_t tests;
    size_t invalid, first;
} hs_racc;

/* The locality order of a large batch (see grid_query.c): position k is the caller's query
 * perm[k], whose a and d are rec[4k .. 4k+3] (ax, ay, dx, dy) so that they are read in order.
 * inv, when not NULL (answers staged): closest / any / count write position k's answer over
 * rec[4k + 2 .. 4k + 3] (closest: id, t; any, count: the hit flag or count as a 32-bit word at
 * rec[4k + 2]), which only the block answering position k reads, before it answers; the
 * caller's query i is then position inv[i]. Else answers go to the caller's arrays at perm[k]. */
typedef struct hs_qorder {
    const uint32_t *perm;
    float *rec;
    const uint32_t *inv;
} hs_qorder;

/* Every function gives exactly the hit set of hs_pair_hits() on each circle (modulo FMA
 * rounding in the tangency band) and times from hs_pair_times(). */
typedef struct hs_kernel_set {
    hs_isa isa;
    int width;
    /* 1 if any circle of the run is hit */
    int (*any)(const hs_kq *kq, const hs_run *run);
    /* number of circles hit */
    size_t (*count)(const hs_kq *kq, const hs_run *run);
    /* lowers (*best_t, *best_id) to a hit with smaller entry t, or equal t and smaller id;
     * start with *best_t = INFINITY (or a cap), *best_id = HS_NONE. *best_pos receives the
     * storage position (base + i) of the new best, so the caller can find its circle.
     * Returns 1 if it changed. */
    int (*closest)(const hs_kq *kq, const hs_run *run, float *best_t, uint32_t *best_id,
                   uint32_t *best_pos);
    /* writes the first min(found, cap) hits (id, entry t) in run order; returns found.
     * Entries past them, up to cap, may be overwritten (vector-wide stores). */
    size_t (*all)(const hs_kq *kq, const hs_run *run, uint32_t *ids, float *t, size_t cap);
    /* One whole grid query (every level, ordered traversal) with the kernels inlined: the
     * hs_engine callbacks of the grid (see internal.h), minus ctx / ks. tests += the circle
     * tests made (padding lanes included). all appends hits (caller's index, entry t) to buf,
     * in any order, and returns HS_OK or HS_E_NOMEM. */
    int (*grid_any)(const struct hs_grid *g, const hs_kq *kq, uint64_t *tests);
    uint32_t (*grid_count)(const struct hs_grid *g, const hs_kq *kq, uint64_t *tests);
    int (*grid_closest)(const struct hs_grid *g, const hs_kq *kq, uint32_t *id, float *t,
                        hs_circle *circle, uint64_t *tests);
    hs_status (*grid_all)(const struct hs_grid *g, const hs_kq *kq, struct hs_hitbuf *buf,
                          uint64_t *tests);
    /* Positions k = lo .. hi-1 of a batch through the grid at once (blocks of short queries,
     * see grid_walk_impl.h), position k being query i = ord->perm[k] (ord NULL: i = k): the
     * same answers as the per-query functions above. Invalid queries are answered as misses and
     * counted in acc (first: the lowest such i). closest writes out.*[i]; any / count write
     * hit[i] / count[i] (the one that is not NULL); all appends each query's hits, position
     * by position, to buf (unsorted within a query) and writes their number to cnt[k]. */
    void (*grid_closest_range)(const struct hs_grid *g, const hs_queries *qs,
                               const hs_qorder *ord, hs_semantics sem, size_t lo, size_t hi,
                               hs_closest_out out, hs_racc *acc);
    void (*grid_anycount_range)(const struct hs_grid *g, const hs_queries *qs,
                                const hs_qorder *ord, hs_semantics sem, size_t lo, size_t hi,
                                uint8_t *hit, uint32_t *count, hs_racc *acc);
    hs_status (*grid_all_range)(const struct hs_grid *g, const hs_queries *qs,
                                const hs_qorder *ord, hs_semantics sem, size_t lo, size_t hi,
                                struct hs_hitbuf *buf, uint32_t *cnt, hs_racc *acc);
} hs_kernel_set;

/* The table for a level (HS_ISA_AUTO resolved by env / CPU); NULL if not compiled in or not
 * supported by this CPU. */
const hs_kernel_set *hs_kernels_get(hs_isa isa);

/* What HITSCAN_ISA=value selects (NULL or "" or "auto": the best level); an unknown or
 * unsupported value gives the best level and, if warn, one line on stderr. Exposed for
 * tests; hs_isa_resolve(HS_ISA_AUTO) calls it once per process. */
hs_isa hs_isa_from_env_(const char *value, int warn);

#endif
