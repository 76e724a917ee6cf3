/* SPDX-License-Identifier: MIT */
/* Internal: workspaces (hitscan/batch.h's hs_workspace): every buffer a batch call needs comes
 * from one, the caller's (kept between calls) or a transient one on the stack, freed when the
 * call ends. One code path either way. */
#ifndef HITSCAN_BATCH_WORKSPACE_H
#define HITSCAN_BATCH_WORKSPACE_H

#include <stdatomic.h>
#include <stddef.h>

#include "batch/hitbuf.h"
#include "hitscan/batch.h"

typedef enum hs_ws_slot {
    /* the locality order: keys, bucket counts, permutation, records, closest's staged hit
     * points and normals */
    HS_WS_ORD_KEY,
    HS_WS_ORD_HIST,
    HS_WS_ORD_PERM,
    HS_WS_ORD_REC,
    HS_WS_ORD_GEO,
    /* all-hits' result: offsets, ids, times */
    HS_WS_OFFSETS,
    HS_WS_OUT_ID,
    HS_WS_OUT_T,
    /* all-hits' bookkeeping: blocks, prefix-sum parts, per-query counts, per-thread progress */
    HS_WS_BLOCKS,
    HS_WS_PART,
    HS_WS_SCNT,
    HS_WS_DONE,
    /* all-hits into the caller's arrays: where each position's hits wait, each row's record */
    HS_WS_SRC,
    HS_WS_ROWS,
    /* the grid walk's per-thread working state (walk/walkers.h) */
    HS_WS_WALK,
    /* queries against moving circles: the displacements in the grid's order */
    HS_WS_MOVE,
    /* a grid's walls: their answers before the merge with the circles' (grid/wall_query.c) */
    HS_WS_WALLS,
    HS_WS_SLOTS
} hs_ws_slot;

struct hs_workspace {
    atomic_int busy; /* a call is using it */
    int transient;   /* a call's own, freed when it returns */
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

#endif
