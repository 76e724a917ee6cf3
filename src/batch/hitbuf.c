/* SPDX-License-Identifier: MIT */
/* Growable hit lists: geometric growth, so a thread's list reallocates O(log hits) times. */
#include "batch/hitbuf.h"

#include <stdlib.h>
#include <string.h>

#include "memory.h"

hs_status hs_hitbuf_reserve(hs_hitbuf *b, size_t extra)
{
    if (extra <= b->cap - b->len)
        return HS_OK;
    if (extra > SIZE_MAX / sizeof(float) - b->len)
        return HS_E_NOMEM;
    size_t need = b->len + extra;
    size_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap < need)
        cap = cap > SIZE_MAX / (2 * sizeof(float)) ? need : cap * 2;
    uint32_t *id = realloc(b->id, cap * sizeof *id);
    if (id == NULL)
        return HS_E_NOMEM;
    b->id = id;
    hs_advise_huge(id, cap * sizeof *id);
    float *t = realloc(b->t, cap * sizeof *t);
    if (t == NULL)
        return HS_E_NOMEM; /* b->id is the larger block now: still consistent, cap unchanged */
    b->t = t;
    hs_advise_huge(t, cap * sizeof *t);
    b->cap = cap;
    return HS_OK;
}

void hs_hitbuf_free(hs_hitbuf *b)
{
    if (b == NULL)
        return;
    free(b->id);
    free(b->t);
    memset(b, 0, sizeof *b);
}
