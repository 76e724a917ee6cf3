/* SPDX-License-Identifier: MIT */
/* Internal: the pieces of hs_grid_pairs (grid/pairs.c finds the pairs block by block,
 * grid/pairs_assemble.c puts them in (i, j) order). */
#ifndef HITSCAN_GRID_PAIRS_H
#define HITSCAN_GRID_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "grid/layout.h"
#include "grid/swept.h"

/* A list of pairs (i[k], j[k]), grown by doubling; oom is set when growing failed. With
 * carry set, each pair also has a record rec[k] (a swept pair's answer). */
typedef struct hs_pair_list {
    uint32_t *i, *j;
    hs_swept_hit *rec;
    size_t len, cap;
    int oom, carry;
} hs_pair_list;

/* A search for pairs on a grid (pairs.c): each circle of g tests the disc (tx, ty, tr)[pos] of
 * its storage position against those of the circles within reach.
 * - Overlap pairs (hs_grid_pairs_within): the circles themselves, grown by skin; each pair
 *   goes to the list as (i, j), i < j.
 * - Swept pairs (hs_grid_swept_pairs): each circle's swept disc, with skin 0; each candidate
 *   the discs give is tested exactly (hs_swept_test, on g's circles and the displacements
 *   dx, dy at storage positions) and a touching pair goes to the list as (i, j), i < j, with
 *   its answer. A pair of fast circles (fast[pos] = 1) is left out (the caller finds those);
 *   of a fast and a slow one, the fast one finds it, so no circle searches farther than its
 *   slow partners' displacements; of two slow ones, the one earlier in storage.
 * ext[l][c]: how far beyond the tested disc of a circle the circle of a partner on level l
 * may lie; c = 1 for a big circle searching level 0 (cross pairs), 0 within a level. */
typedef struct hs_pair_search {
    const hs_grid *g;
    const float *tx, *ty, *tr;
    double skin;
    double ext[2][2];
    const uint8_t *fast;  /* NULL: no circle is fast */
    const float *dx, *dy; /* swept: the displacements; NULL for overlap pairs */
} hs_pair_search;

/* The pairs of a search in lists (*lists, *nl of them, freed with hs_pair_lists_free), spread
 * over them in an order that depends on the team; swept lists carry the answers.
 * Returns 0, or 1 when memory ran out (then *lists is NULL). */
int hs_pair_search_run(const hs_pair_search *s, int threads, hs_pair_list **lists, size_t *nl);
void hs_pair_lists_free(hs_pair_list *lists, size_t nl);

/* An output array of n indices: from megabytes up on 2 MB pages where the system allows it.
 * Freed with free(). */
uint32_t *hs_pairs_alloc_out(size_t n);

/* Room for `need` more pairs; 0 (and oom set) when memory ran out. */
int hs_pair_list_reserve(hs_pair_list *B, size_t need);
void hs_pair_list_free(hs_pair_list *B);

/* The pairs of lists[0 .. nl) in (i, j) order into out_i, out_j (room for every pair; i < n),
 * and when out_w is not NULL, where each came from into out_w: its place in the lists taken
 * as one sequence (list l's entry k: the lengths of the lists before l, plus k). The pairs do
 * not depend on how they are spread over the lists, as long as none comes twice. Returns 0,
 * or 1 when scratch memory ran out. */
int hs_pairs_assemble(const hs_pair_list *lists, size_t nl, size_t n, int threads, uint32_t *out_i,
                      uint32_t *out_j, uint32_t *out_w);

#endif
