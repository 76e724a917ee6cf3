/* SPDX-License-Identifier: MIT */
/* The grid's growable arrays (storage.h). */
#include <stdint.h>
#include <stdlib.h>

#include "grid/storage.h"
#include "memory.h"

void *hs_grid_grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap && p != NULL)
        return p;
    size_t c = need < 16 ? 16 : need;
    void *q = realloc(p, c * elem);
    if (q == NULL)
        return NULL;
    *cap = c;
    return q;
}

void *hs_grid_alloc_lines(size_t n, size_t elem)
{
    if (n > (SIZE_MAX - 63) / elem)
        return NULL;
    return hs_alloc_lines(n * elem);
}
