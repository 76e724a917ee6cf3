/* SPDX-License-Identifier: MIT */
/* Internal: what answering part of a batch adds up; the driver sums the parts. */
#ifndef HITSCAN_BATCH_TALLY_H
#define HITSCAN_BATCH_TALLY_H

#include <stddef.h>
#include <stdint.h>

/* Circle tests made, invalid queries and the lowest invalid index (SIZE_MAX when none). */
typedef struct hs_tally {
    uint64_t tests;
    size_t invalid, first;
} hs_tally;

#define HS_TALLY_INIT                                                                              \
    {                                                                                              \
        0, 0, SIZE_MAX                                                                             \
    }

#endif
