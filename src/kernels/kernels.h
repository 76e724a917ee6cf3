/* SPDX-License-Identifier: MIT */
/* Internal: the per-ISA pair kernels: one query against one contiguous run of circles. */
#ifndef HITSCAN_KERNELS_H
#define HITSCAN_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "hitscan/batch.h"

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

/* One level's pair kernels (src/kernels/pair_kernels.inl). Every function gives exactly the hit
 * set of hs_pair_hits() on each circle and times from hs_pair_times() (bit for bit in a
 * deterministic build; otherwise AVX2 / AVX-512 differ by FMA rounding in the tangency band). */
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
} hs_kernel_set;

/* The table for a level (HS_ISA_AUTO resolved by env / CPU); NULL if not compiled in or not
 * supported by this CPU. */
const hs_kernel_set *hs_kernels_get(hs_isa isa);

/* What HITSCAN_ISA=value selects (NULL or "" or "auto": the best level); an unknown or
 * unsupported value gives the best level and, if warn, one line on stderr. Exposed for
 * tests; hs_isa_resolve(HS_ISA_AUTO) calls it once per process. */
hs_isa hs_isa_parse_env(const char *value, int warn);

#endif
