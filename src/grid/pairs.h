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

/* The lists' pairs in (i, j) order into out->i, out->j (allocated, room for every pair).
 * Every caller index i must own entries in lists[b] and extra[b] of one b only, so the count
 * and the placement of i's pairs are done by one thread. start: n + 1 zeroed counters; part:
 * one per thread. extra may be NULL. */
void hs_pairs_assemble(const hs_pair_list *lists, const hs_pair_list *extra, size_t nb, size_t n,
                       int threads, size_t *start, size_t *part, uint32_t *out_i,
                       uint32_t *out_j);

#endif
