/* SPDX-License-Identifier: MIT */
/* Workspaces: scratch memory that batch calls keep between calls instead of allocating, faulting in
 * and freeing it each time. */
#include <stdlib.h>
#include <string.h>

#include "batch/workspace.h"
#include "memory.h"

hs_status hs_workspace_create(hs_workspace **out)
{
    if (out == NULL)
        return HS_E_NULL;
    *out = calloc(1, sizeof **out);
    if (*out == NULL)
        return HS_E_NOMEM;
    atomic_init(&(*out)->busy, 0);
    return HS_OK;
}

static void ws_release_memory(hs_workspace *ws)
{
    for (int s = 0; s < HS_WS_SLOTS; s++) {
        free(ws->p[s]);
        ws->p[s] = NULL;
        ws->cap[s] = 0;
    }
    for (int k = 0; k < ws->nbuf; k++)
        hs_hitbuf_free(&ws->buf[k].b);
    free(ws->buf);
    ws->buf = NULL;
    ws->nbuf = 0;
}

void hs_workspace_destroy(hs_workspace *ws)
{
    if (ws == NULL)
        return;
    ws_release_memory(ws);
    free(ws);
}

hs_status hs_workspace_trim(hs_workspace *ws)
{
    if (ws == NULL)
        return HS_E_NULL;
    if (atomic_exchange(&ws->busy, 1) != 0)
        return HS_E_BUSY;
    ws_release_memory(ws);
    atomic_store(&ws->busy, 0);
    return HS_OK;
}

size_t hs_workspace_bytes(const hs_workspace *ws)
{
    if (ws == NULL)
        return 0;
    size_t b = sizeof *ws;
    for (int s = 0; s < HS_WS_SLOTS; s++)
        b += ws->cap[s];
    b += (size_t)ws->nbuf * sizeof *ws->buf;
    for (int k = 0; k < ws->nbuf; k++)
        b += ws->buf[k].b.cap * (sizeof(uint32_t) + sizeof(float));
    return b;
}

hs_status hs_ws_open(const hs_batch_opts *opts, hs_wsref *r)
{
    hs_workspace *user = opts ? opts->ws : NULL;
    if (user == NULL) {
        memset(&r->local, 0, sizeof r->local);
        atomic_init(&r->local.busy, 0);
        r->local.transient = 1;
        r->ws = &r->local;
        return HS_OK;
    }
    /* one call at a time: a second concurrent user would overwrite the first's buffers */
    if (atomic_exchange(&user->busy, 1) != 0)
        return HS_E_BUSY;
    r->ws = user;
    return HS_OK;
}

void hs_ws_close(hs_wsref *r)
{
    if (r->ws->transient)
        ws_release_memory(r->ws);
    else
        atomic_store(&r->ws->busy, 0);
}

/* All-hits' result: without a workspace it goes to the caller (hs_ws_take), so every call's is
 * new memory, faulted in whole; on 2 MB pages from the start (hs_alloc_lines) that takes a
 * fault per 2 MB instead of per 4 KB. The other slots are freed and asked for again at about
 * the same sizes call after call, which the heap serves from memory already faulted in: they
 * are only advised (a 2 MB-aligned allocation of its own would be new memory every call). */
static int result_slot(hs_ws_slot s)
{
    return s == HS_WS_OFFSETS || s == HS_WS_OUT_ID || s == HS_WS_OUT_T;
}

void *hs_ws_get(hs_workspace *ws, hs_ws_slot s, size_t bytes)
{
    if (bytes == 0)
        bytes = 1; /* a result is never NULL on success */
    if (bytes <= ws->cap[s])
        return ws->p[s];
    /* no copy (contents are dead between uses); 1/8 headroom so a batch that grows a little
     * from call to call does not reallocate every time */
    size_t cap = bytes + (ws->transient ? 0 : bytes / 8);
    free(ws->p[s]);
    if (result_slot(s) || s == HS_WS_WALK) { /* the walk's state is line-aligned (walkers.h) */
        ws->p[s] = hs_alloc_lines(cap);
    } else {
        ws->p[s] = malloc(cap);
        hs_advise_huge(ws->p[s], cap);
    }
    ws->cap[s] = ws->p[s] ? cap : 0;
    return ws->p[s];
}

void *hs_ws_take(hs_workspace *ws, hs_ws_slot s)
{
    void *p = ws->p[s];
    ws->p[s] = NULL;
    ws->cap[s] = 0;
    return p;
}

hs_hitbuf *hs_ws_hitbuf(hs_workspace *ws, int k) { return &ws->buf[k].b; }

hs_status hs_ws_hitbufs(hs_workspace *ws, int n)
{
    if (n > ws->nbuf) {
        hs_padded_hitbuf *b = realloc(ws->buf, (size_t)n * sizeof *b);
        if (b == NULL)
            return HS_E_NOMEM;
        memset(b + ws->nbuf, 0, (size_t)(n - ws->nbuf) * sizeof *b);
        ws->buf = b;
        ws->nbuf = n;
    }
    for (int k = 0; k < ws->nbuf; k++)
        ws->buf[k].b.len = 0;
    return HS_OK;
}
