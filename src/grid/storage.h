/* SPDX-License-Identifier: MIT */
/* Internal: the grid's growable arrays, shared by the build's passes (build.c, sort.c,
 * occupancy.c) so that none of them depends on another for its memory. */
#ifndef HITSCAN_GRID_STORAGE_H
#define HITSCAN_GRID_STORAGE_H

#include <stddef.h>

/* p with room for at least `need` elements of elem bytes (realloc; contents kept), *cap
 * updated; NULL on failure (p is then still valid). */
void *hs_grid_grow(void *p, size_t *cap, size_t need, size_t elem);

/* n elements of elem bytes, 64-byte aligned (NULL on failure or overflow); huge pages for
 * large arrays where the system allows. */
void *hs_grid_alloc_lines(size_t n, size_t elem);

#endif
