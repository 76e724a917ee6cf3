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

/* The pairs in (i, j) order into out_i, out_j (room for every pair): lists[b] holds pairs
 * (i, j) whose i belong to block b alone; cross[b] pairs (storage position of i, j), any
 * position (id maps it to i). start: n + 1 zeroed counters; part: one per thread. */
void hs_pairs_assemble(const uint32_t *id, const hs_pair_list *lists, const hs_pair_list *cross,
                       size_t nb, size_t n, int threads, size_t *start, size_t *part,
                       uint32_t *out_i, uint32_t *out_j);

#endif
