/* SPDX-License-Identifier: MIT */
/* Internal: a growable hit list (caller's index, entry t), one per thread during all-hits. */
#ifndef HITSCAN_BATCH_HITBUF_H
#define HITSCAN_BATCH_HITBUF_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/types.h"

typedef struct hs_hitbuf {
    uint32_t *id;
    float *t;
    size_t len, cap;
} hs_hitbuf;

/* Makes room for at least `extra` more entries; HS_OK or HS_E_NOMEM. */
hs_status hs_hitbuf_reserve(hs_hitbuf *b, size_t extra);
void hs_hitbuf_free(hs_hitbuf *b);

/* One thread's hit buffer alone on its cache lines (two 64-byte lines: the adjacent-line
 * prefetcher pairs them). The walk updates len as it appends: two threads' buffers sharing a
 * line would make every append a coherence miss. */
typedef union hs_padded_hitbuf {
    hs_hitbuf b;
    char pad[128];
} hs_padded_hitbuf;

#endif
