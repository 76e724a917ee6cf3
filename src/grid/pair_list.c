/* SPDX-License-Identifier: MIT */
/* The lists of a pair search (pair_list.h): grown by doubling, every array replaced as soon
 * as it has grown, so a failure leaves a list valid; and the output arrays the assembly
 * writes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grid/pair_list.h"
#include "grid/storage.h"

/* p (len entries of elem bytes kept) grown to c entries: the new block, p freed; NULL, p
 * untouched, when memory ran out. From megabytes up a fresh block on 2 MB pages
 * (hs_grid_alloc_lines): the copy faults it in by large pages, where realloc's would take
 * one fault per small page. */
static void *grow(void *p, size_t len, size_t c, size_t elem)
{
    if (c * elem < ((size_t)2 << 20))
        return realloc(p, c * elem);
    void *q = hs_grid_alloc_lines(c, elem);
    if (q != NULL && len > 0)
        memcpy(q, p, len * elem);
    if (q != NULL)
        free(p);
    return q;
}

int hs_pair_list_reserve(hs_pair_list *B, size_t need)
{
    if (B->cap - B->len >= need)
        return 1;
    /* no size in bytes may wrap, doubled (size_t is 32 bits in WebAssembly) */
    const size_t most = SIZE_MAX / (B->carry ? sizeof(hs_pair_rec) : sizeof(uint32_t)) / 2;
    if (need > most - B->len) {
        B->oom = 1;
        return 0;
    }
    size_t c = B->cap ? B->cap * 2 : 1024;
    while (c - B->len < need)
        c *= 2;
    /* each array replaced as soon as it has grown: a later failure leaves them all valid */
    uint32_t *pi = grow(B->i, B->len, c, sizeof *pi);
    B->i = pi ? pi : B->i;
    uint32_t *pj = pi ? grow(B->j, B->len, c, sizeof *pj) : NULL;
    B->j = pj ? pj : B->j;
    int ok = pj != NULL;
    if (ok && B->carry) {
        hs_pair_rec *pr = grow(B->rec, B->len, c, sizeof *pr);
        B->rec = pr ? pr : B->rec;
        ok = pr != NULL;
    }
    if (!ok) {
        B->oom = 1;
        return 0;
    }
    B->cap = c;
    return 1;
}

int hs_pair_shift_reserve(hs_pair_list *B, size_t need)
{
    if (B->sh_cap - B->sh_len >= need)
        return 1;
    size_t c = B->sh_cap ? B->sh_cap * 2 : 64;
    while (c - B->sh_len < need)
        c *= 2;
    hs_pair_shift *p = realloc(B->sh, c * sizeof *p);
    if (p == NULL) {
        B->oom = 1;
        return 0;
    }
    B->sh = p;
    B->sh_cap = c;
    return 1;
}

void hs_pair_list_free(hs_pair_list *B)
{
    free(B->i);
    free(B->j);
    free(B->rec);
    free(B->sh);
    memset(B, 0, sizeof *B);
}

void hs_pair_lists_free(hs_pair_list *lists, size_t nl)
{
    for (size_t b = 0; lists && b < nl; b++)
        hs_pair_list_free(&lists[b]);
    free(lists);
}

/* From megabytes up on 2 MB pages where the system allows it (hs_grid_alloc_lines): fresh
 * memory faults page by page, and the assembly writes it in a few hundred streams at once.
 * Smaller ones from malloc, which reuses freed memory. */
uint32_t *hs_pairs_alloc_out(size_t n)
{
    if (n * sizeof(uint32_t) >= ((size_t)2 << 20))
        return hs_grid_alloc_lines(n, sizeof(uint32_t));
    return malloc(n * sizeof(uint32_t));
}
