/* SPDX-License-Identifier: MIT */
/* Internal: the pairs within a level of cut cells by a fine grid of sorted occupied cells
 * (pairs_fine.c), for pairs_scan.c. */
#ifndef HITSCAN_GRID_PAIRS_FINE_H
#define HITSCAN_GRID_PAIRS_FINE_H

#include <stddef.h>
#include <stdint.h>

#include "batch/parallel.h"
#include "grid/pair_list.h"
#include "grid/pair_search.h"

/* One level's circles in the order of fine cells of side at least any pair's reach, row by row
 * (so a circle's partners lie in its own cell and the 8 around it), and its occupied cells. */
typedef struct hs_fine_level {
    int level;
    size_t n;
    uint32_t *pos;    /* fine order -> storage position */
    float *x, *y, *r; /* the tested discs in fine order */
    uint64_t *key;    /* each occupied cell's row << 32 | column, increasing */
    uint32_t *start;  /* its first circle (ncells + 1) */
    size_t ncells;
} hs_fine_level;

/* The fine levels of a search and their chunks: a chunk is a range of one level's cells whose
 * pairs go to a list of their own. */
typedef struct hs_fine {
    hs_fine_level lv[HS_GRID_LEVELS];
    int nlevels;
    uint32_t levels; /* a bit per grid level whose own pairs the fine scan finds */
    size_t nchunks;
    struct hs_fine_chunk *chunk;
} hs_fine;

/* The levels of s's grid whose own pairs the fine scan takes (cut cells, in an overlap search
 * without a filter or a periodic box), their fine cells made on the team, into f (f->levels
 * 0: none). Returns 0, or 1 when memory ran out (f is then freed by hs_fine_free). */
int hs_fine_make(const hs_pair_search *s, const hs_par *par, hs_fine *f);
/* Their pairs, chunk k's appended to lists[k] (f->nchunks lists), on the team. */
void hs_fine_scan(const hs_pair_search *s, const hs_fine *f, const hs_par *par,
                  hs_pair_list *lists);
void hs_fine_free(hs_fine *f);

#endif
