/* SPDX-License-Identifier: MIT */
/* Internal: a pair search's lists put in (i, j) order (pairs_assemble.c). */
#ifndef HITSCAN_GRID_PAIRS_ASSEMBLE_H
#define HITSCAN_GRID_PAIRS_ASSEMBLE_H

#include <stddef.h>
#include <stdint.h>

#include "batch/parallel.h"
#include "grid/pair_list.h"

/* The pairs of lists[0 .. nl) in (i, j) order into out_i, out_j (room for every pair; i < n),
 * and when out_w is not NULL, where each came from into out_w: its place in the lists taken
 * as one sequence (list l's entry k: the lengths of the lists before l, plus k). The pairs do
 * not depend on how they are spread over the lists, as long as none comes twice. Returns 0,
 * or 1 when scratch memory ran out. */
int hs_pairs_assemble(const hs_pair_list *lists, size_t nl, size_t n, const hs_par *par,
                      uint32_t *out_i, uint32_t *out_j, uint32_t *out_w);

/* hs_pairs_assemble of lists that carry records (total pairs in all): and each pair's record,
 * out pair m's at (*ans)[(*word)[m]] (both freed by the caller with free()). Returns 0, or 1
 * when memory ran out (then *ans and *word are NULL). */
int hs_pairs_assemble_carried(const hs_pair_list *lists, size_t nl, size_t total, size_t n,
                              const hs_par *par, uint32_t *out_i, uint32_t *out_j,
                              hs_pair_rec **ans, uint32_t **word);

/* The shifts of the pairs in (i, j) order out_i, out_j (total of them) into new arrays *sx,
 * *sy (freed with free()): those of the lists' sh entries, 0 for every other pair. Returns 0,
 * or 1 when memory ran out. */
int hs_pairs_shifts(const hs_pair_list *lists, size_t nl, const uint32_t *out_i,
                    const uint32_t *out_j, size_t total, const hs_par *par, int8_t **sx,
                    int8_t **sy);

#endif
