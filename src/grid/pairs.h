/* SPDX-License-Identifier: MIT */
/* Internal: the pieces of hs_grid_pairs (grid/pairs.c finds the pairs block by block,
 * grid/pairs_assemble.c puts them in (i, j) order). */
#ifndef HITSCAN_GRID_PAIRS_H
#define HITSCAN_GRID_PAIRS_H

#include <stddef.h>
#include <stdint.h>

/* A list of pairs (i[k], j[k]), grown by doubling; oom is set when growing failed. */
typedef struct hs_pair_list {
    uint32_t *i, *j;
    size_t len, cap;
    int oom;
} hs_pair_list;

/* Room for `need` more pairs; 0 (and oom set) when memory ran out. */
int hs_pair_list_reserve(hs_pair_list *B, size_t need);
void hs_pair_list_free(hs_pair_list *B);

/* The pairs of lists[0 .. nl) in (i, j) order into out_i, out_j (room for every pair; i < n):
 * the result does not depend on how the pairs are spread over the lists. Returns 0, or 1 when
 * scratch memory ran out. */
int hs_pairs_assemble(const hs_pair_list *lists, size_t nl, size_t n, int threads, uint32_t *out_i,
                      uint32_t *out_j);

#endif
