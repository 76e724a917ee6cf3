/* SPDX-License-Identifier: MIT */
/* Internal: the lists a pair search fills (pair_list.c), which the searches (pairs_scan.c,
 * pairs_images.c, swept_pairs.c) append to and the assembly (pairs_assemble.c) reads. */
#ifndef HITSCAN_GRID_PAIR_LIST_H
#define HITSCAN_GRID_PAIR_LIST_H

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "grid/swept.h"

/* A pair's contact (hitscan/grid.h's hs_pairs: nx, ny, distance, gap). */
typedef struct hs_pair_contact {
    float nx, ny, distance, gap;
} hs_pair_contact;

/* What a pair list carries for each pair when asked to: a swept pair's answer, or an overlap
 * pair's contact. */
typedef union hs_pair_rec {
    hs_swept_hit swept;
    hs_pair_contact contact;
} hs_pair_rec;

/* A pair found across a periodic box's edge: i and the image of j shifted by (sx, sy)
 * periods. */
typedef struct hs_pair_shift {
    uint32_t i, j;
    int8_t sx, sy;
} hs_pair_shift;

/* Address space the lists of one search grow into, shared by the team: one block on 2 MB
 * pages (hs_alloc_lines), handed out by a bump pointer and freed whole. Only what is written
 * is faulted in, by 2 MB pages; from malloc, every search's lists would be fresh 4 KB pages
 * again, each a page fault on first write. A list grows from malloc once the block is used
 * up. */
typedef struct hs_pair_arena {
    char *base;
    size_t cap;
    atomic_size_t used;
} hs_pair_arena;

/* A list of pairs (i[k], j[k]), grown by doubling; oom is set when growing failed. With
 * carry set, each pair also has a record rec[k]. The pairs found across a periodic box's
 * edges are in it as any other, and their shifts in sh[0 .. sh_len) too. With an arena, i, j
 * and rec grow as one piece of it while it lasts (in_arena: they are in it, not malloc's). */
typedef struct hs_pair_list {
    uint32_t *i, *j;
    hs_pair_rec *rec;
    size_t len, cap;
    hs_pair_shift *sh;
    size_t sh_len, sh_cap;
    int oom, carry;
    hs_pair_arena *arena;
    int in_arena;
} hs_pair_list;

/* The contact of a circle of radius ra with one of radius rb whose centre (or image) lies at
 * (ex, ey) from it, in double: the normal from the first towards the second ((1, 0) where
 * they coincide), the distance and the gap. */
static inline hs_pair_contact hs_pair_contact_of(double ex, double ey, float ra, float rb)
{
    const double d = sqrt(ex * ex + ey * ey);
    hs_pair_contact c;
    c.nx = d > 0.0 ? (float)(ex / d) : 1.0f;
    c.ny = d > 0.0 ? (float)(ey / d) : 0.0f;
    c.distance = (float)d;
    c.gap = (float)(d - ((double)ra + (double)rb));
    return c;
}

/* Room for `need` more pairs; 0 (and oom set) when memory ran out. */
int hs_pair_list_reserve(hs_pair_list *B, size_t need);
/* Room for `need` more shifts in B's sh; 0 (and oom set) when memory ran out. */
int hs_pair_shift_reserve(hs_pair_list *B, size_t need);
void hs_pair_list_free(hs_pair_list *B);
/* nl new empty lists sharing an arena sized for a search of n circles (none where the
 * system has no lazily committed 2 MB pages, or memory ran out for it); NULL when memory ran
 * out for the lists. carry: as hs_pair_list's. */
hs_pair_list *hs_pair_lists_make(size_t nl, size_t n, int carry);
/* Every list's memory and their arena freed, the lists left empty (their array kept). */
void hs_pair_lists_clear(hs_pair_list *lists, size_t nl);
/* hs_pair_lists_clear, then the array holding them. */
void hs_pair_lists_free(hs_pair_list *lists, size_t nl);

#endif
