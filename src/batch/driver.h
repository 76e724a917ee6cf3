/* SPDX-License-Identifier: MIT */
/* Internal: what every batch call (brute force and grid) settles before it answers a query,
 * and how it reports at the end. The calls themselves run their own parallel loop and call
 * their kernels directly (src/batch/brute.c, src/grid/query.c); what they share is here:
 *   - argument checks (NULL, count > HS_MAX_COUNT, sem / isa / threads out of range);
 *   - the ISA: opts->isa resolved through hs_kernels_get; an unsupported level returns
 *     HS_E_UNSUPPORTED before any output is written;
 *   - the team: one thread for batches whose total work does not pay for a team, and the
 *     scheduling chunk;
 *   - stats and the status: pair_tests summed over the parts (an integer sum, so independent
 *     of the thread count), invalid queries counted (answered as misses: idx HS_NONE / t NaN,
 *     hit 0, count 0, no hits), the lowest such index kept, and HS_E_INVALID_QUERY returned.
 * Determinism: every output element depends on one query only, and all-hits output is laid
 * out by query index, so nothing depends on the thread count or on the schedule. */
#ifndef HITSCAN_BATCH_DRIVER_H
#define HITSCAN_BATCH_DRIVER_H

#include <stddef.h>

#include "batch/parallel.h"
#include "batch/tally.h"
#include "hitscan/batch.h"
#include "kernels/kernels.h"

typedef struct hs_batch_setup {
    const hs_kernel_set *ks; /* the resolved level's pair kernels (ks->isa: the level) */
    hs_semantics sem;
    int threads;  /* team size to request (1: the calling thread alone): par.threads */
    hs_par par;   /* the team (batch/parallel.h) */
    size_t chunk; /* queries per scheduling chunk */
    hs_batch_stats *stats;
} hs_batch_setup;

/* Checks a batch call's arguments and settles its level, team and chunk. cost: rough circle
 * tests per query (the team starts only when queries x cost pays for it). */
hs_status hs_batch_begin(const hs_queries *qs, const hs_batch_opts *opts, size_t cost,
                         hs_batch_setup *b);

/* Fills the stats from the whole batch's tally; HS_OK, or HS_E_INVALID_QUERY when some query
 * was invalid. */
hs_status hs_batch_end(const hs_batch_setup *b, const hs_tally *t);

static inline void hs_tally_add(hs_tally *sum, const hs_tally *part)
{
    sum->tests += part->tests;
    sum->invalid += part->invalid;
    sum->first = part->first < sum->first ? part->first : sum->first;
}

#endif
