/* SPDX-License-Identifier: MIT */
/* Internal: a pair search's part across a periodic box's edges (pairs_images.c). */
#ifndef HITSCAN_GRID_PAIRS_IMAGES_H
#define HITSCAN_GRID_PAIRS_IMAGES_H

#include <stddef.h>

#include "grid/pair_list.h"
#include "grid/pair_search.h"

/* The partners of the circle at storage position pos, on level `level`, across the box's
 * edges that it keeps, into B: it searches its own level and the levels before it. Returns
 * 1 when memory ran out. */
int hs_pair_images(const hs_pair_search *s, size_t pos, int level, hs_pair_list *B);

#endif
