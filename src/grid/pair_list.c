/* SPDX-License-Identifier: MIT */
/* The lists of a pair search (pair_list.h): grown by doubling, in the search's arena while it
 * lasts, every array replaced as soon as it has grown, so a failure leaves a list valid. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grid/pair_list.h"
#include "grid/storage.h"
#include "memory.h"
#include "tuning.h"

/* p (len entries of elem bytes kept) grown to c entries: the new block, p freed unless it is
 * an arena's (borrowed); NULL, p untouched, when memory ran out. From megabytes up a fresh
 * block on 2 MB pages (hs_grid_alloc_lines): the copy faults it in by large pages, where
 * realloc's would take one fault per small page. */
static void *grow(void *p, size_t len, size_t c, size_t elem, int borrowed)
{
    if (c * elem < ((size_t)2 << 20) && !borrowed)
        return realloc(p, c * elem);
    void *q = c * elem < ((size_t)2 << 20) ? malloc(c * elem) : hs_grid_alloc_lines(c, elem);
    if (q != NULL && len > 0)
        memcpy(q, p, len * elem);
    if (q != NULL && !borrowed)
        free(p);
    return q;
}

/* Room for bytes in the arena (64-byte aligned), or NULL when it is used up. */
static void *arena_take(hs_pair_arena *A, size_t bytes)
{
    if (A == NULL || bytes > A->cap - 63)
        return NULL;
    const size_t b = hs_lines_bytes(bytes); /* <= cap */
    const size_t at = atomic_fetch_add_explicit(&A->used, b, memory_order_relaxed);
    return at <= A->cap - b ? A->base + at : NULL;
}

/* B's arrays of pairs freed unless they are its arena's. */
static void free_pairs(hs_pair_list *B)
{
    if (!B->in_arena) {
        free(B->i);
        free(B->j);
        free(B->rec);
    }
}

/* B's pairs moved into a piece of its arena of c entries; 0 when the arena is used up. */
static int grow_in_arena(hs_pair_list *B, size_t c)
{
    const size_t rec = B->carry ? sizeof(hs_pair_rec) : 0;
    char *piece = arena_take(B->arena, c * (2 * sizeof(uint32_t) + rec));
    if (piece == NULL)
        return 0;
    uint32_t *pi = (uint32_t *)piece, *pj = pi + c;
    hs_pair_rec *pr = B->carry ? (hs_pair_rec *)(pj + c) : NULL;
    if (B->len > 0) {
        memcpy(pi, B->i, B->len * sizeof *pi);
        memcpy(pj, B->j, B->len * sizeof *pj);
        if (pr != NULL)
            memcpy(pr, B->rec, B->len * sizeof *pr);
    }
    free_pairs(B);
    B->i = pi;
    B->j = pj;
    B->rec = pr;
    B->in_arena = 1;
    B->cap = c;
    return 1;
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
    if (grow_in_arena(B, c))
        return 1;
    /* each array replaced as soon as it has grown: a later failure leaves them all valid
     * (those still in the arena stay there until all three have moved) */
    const int borrowed = B->in_arena;
    uint32_t *pi = grow(B->i, B->len, c, sizeof *pi, borrowed);
    uint32_t *pj = pi ? grow(B->j, B->len, c, sizeof *pj, borrowed) : NULL;
    hs_pair_rec *pr = pj && B->carry ? grow(B->rec, B->len, c, sizeof *pr, borrowed) : NULL;
    const int ok = pj != NULL && (pr != NULL || !B->carry);
    if (borrowed && !ok) { /* the arena's arrays stay; the new ones go */
        free(pi);
        free(pj);
        B->oom = 1;
        return 0;
    }
    B->i = pi ? pi : B->i;
    B->j = pj ? pj : B->j;
    B->rec = pr ? pr : B->rec;
    B->in_arena = 0;
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
    free_pairs(B);
    free(B->sh);
    hs_pair_arena *A = B->arena; /* freed with the last of the lists */
    const int carry = B->carry;
    memset(B, 0, sizeof *B);
    B->arena = A;
    B->carry = carry;
}

/* Lists sharing an arena of 48 bytes a circle (96 with records): three pairs a circle, with
 * the doubling's copies. Where the system commits memory only when it is written, the address
 * space costs nothing else. */
hs_pair_list *hs_pair_lists_make(size_t nl, size_t n, int carry)
{
    hs_pair_list *lists = calloc(nl ? nl : 1, sizeof *lists);
    if (lists == NULL)
        return NULL;
    hs_pair_arena *A = NULL;
    const size_t per = carry ? 96 : 48, most = SIZE_MAX / 4 / per;
    if (hs_alloc_is_lazy() && n >= HS_PAIR_ARENA_MIN && n <= most)
        A = malloc(sizeof *A);
    if (A != NULL) {
        A->cap = n * per;
        A->base = hs_alloc_lines(A->cap);
        atomic_init(&A->used, 0);
        if (A->base == NULL) {
            free(A);
            A = NULL;
        }
    }
    for (size_t b = 0; b < nl; b++) {
        lists[b].carry = carry;
        lists[b].arena = A;
    }
    return lists;
}

void hs_pair_lists_clear(hs_pair_list *lists, size_t nl)
{
    hs_pair_arena *A = NULL;
    for (size_t b = 0; lists && b < nl; b++) {
        A = A ? A : lists[b].arena;
        hs_pair_list_free(&lists[b]);
        lists[b].arena = NULL;
    }
    if (A != NULL) {
        free(A->base);
        free(A);
    }
}

void hs_pair_lists_free(hs_pair_list *lists, size_t nl)
{
    hs_pair_lists_clear(lists, nl);
    free(lists);
}
