/* SPDX-License-Identifier: MIT */
/* Internal: the per-ISA grid walkers: a range of a batch through the grid, with the pair
 * kernels inlined into the walk (src/kernels/block_walk.h and the files it builds on). */
#ifndef HITSCAN_GRID_WALKERS_H
#define HITSCAN_GRID_WALKERS_H

#include <stddef.h>
#include <stdint.h>

#include "batch/hitbuf.h"
#include "batch/tally.h"
#include "grid/layout.h"
#include "grid/order.h"
#include "hitscan/batch.h"

/* Each walker answers positions k = lo .. hi-1 of a batch, position k being the caller's
 * query i = ord->perm[k] (ord NULL: i = k), with the answers of the brute-force kernels at the
 * same level. Invalid queries are answered as misses and counted in tally (first: the lowest
 * such i, left alone when ord has no perm); tests += the circle tests made (padding lanes
 * included).
 *   closest_range: out.*[i], or staged in ord's records when ord->inv is set;
 *   any_range / count_range: hit[i] / count[i], or staged likewise;
 *   all_range: appends each position's hits (unsorted within a query), position by position,
 *     to buf and writes their number to cnt[k]; HS_OK or HS_E_NOMEM. */
typedef struct hs_grid_walkers {
    hs_isa isa;
    void (*closest_range)(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                          hs_semantics sem, size_t lo, size_t hi, hs_closest_out out,
                          hs_tally *tally);
    void (*any_range)(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                      hs_semantics sem, size_t lo, size_t hi, uint8_t *hit, hs_tally *tally);
    void (*count_range)(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                        hs_semantics sem, size_t lo, size_t hi, uint32_t *count, hs_tally *tally);
    hs_status (*all_range)(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                           hs_semantics sem, size_t lo, size_t hi, hs_hitbuf *buf, uint32_t *cnt,
                           hs_tally *tally);
} hs_grid_walkers;

/* The walkers of a level, with hs_kernels_get's rules (NULL: not compiled in or not
 * supported by this CPU). */
const hs_grid_walkers *hs_grid_walkers_get(hs_isa isa);

#endif
