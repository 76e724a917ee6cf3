/* SPDX-License-Identifier: MIT */
/* Internal: the pair search on a grid's circles (pairs_scan.c), block by block on a team. */
#ifndef HITSCAN_GRID_PAIRS_SCAN_H
#define HITSCAN_GRID_PAIRS_SCAN_H

#include <stddef.h>

#include "batch/parallel.h"
#include "grid/pair_list.h"
#include "grid/pair_search.h"

/* The pairs of a search in lists (*lists, *nl of them, freed with hs_pair_lists_free), spread
 * over them in an order that depends on the team; swept lists carry the answers.
 * Returns 0, or 1 when memory ran out (then *lists is NULL). */
int hs_pair_search_run(const hs_pair_search *s, const hs_par *par, hs_pair_list **lists,
                       size_t *nl);

#endif
