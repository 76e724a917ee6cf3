/* SPDX-License-Identifier: MIT */
/* Internal: all-hits' assembly, shared by brute force and the grid: each query's hits sorted
 * by (t, id) and laid out as CSR (hitscan/batch.h's hs_hits). */
#ifndef HITSCAN_BATCH_ALL_HITS_H
#define HITSCAN_BATCH_ALL_HITS_H

#include <stddef.h>
#include <stdint.h>

#include "batch/driver.h"
#include "batch/hitbuf.h"
#include "batch/tally.h"
#include "batch/workspace.h"

/* Answers batch positions lo .. hi-1 on slot tid of the team (0 .. threads-1; 0 for the
 * calling thread, batch/parallel.h): appends each position's hits (caller's index,
 * entry t; any order within a position), position after position, to buf, writes their number to
 * count[k] for k = lo .. hi-1, and adds its tests and invalid queries to *tally. HS_OK, or
 * HS_E_NOMEM (the whole result is then discarded). Runs on several threads at once with the
 * same ctx, so it must only read it. */
typedef hs_status (*hs_hits_range_fn)(const void *ctx, size_t lo, size_t hi, int tid,
                                      hs_hitbuf *buf, uint32_t *count, hs_tally *tally);

/* Where the hits go: NULL, the CSR of hs_hits (out); else the caller's arrays that
 * place->fn gives (hs_hits_into). */
typedef struct hs_all_place {
    hs_hits_place_fn fn;
    void *ctx;
} hs_all_place;

/* All hits of the n queries of a batch set up in b, answered range by range by `answer`, with
 * position k's hits in output row rows[k] (a permutation of 0 .. n-1; NULL: row k), so a
 * caller that reordered its batch gets the result in its own order in one copy. Buffers come
 * from ws (opened by the caller). Without place, the result's arrays stay in ws unless it is
 * transient, in which case they are handed to out; with place, the hits go to the caller's
 * arrays and out is not used. Returns hs_batch_end's status, or HS_E_NOMEM. */
hs_status hs_all_hits(const hs_batch_setup *b, size_t n, hs_hits_range_fn answer, const void *ctx,
                      hs_workspace *ws, const uint32_t *rows, hs_hits *out,
                      const hs_all_place *place);

#endif
