/* SPDX-License-Identifier: MIT */
/* Disc and point overlap queries, hs_grid_overlap_circle (and _filtered): the circles
 * overlapping a closed disc, in ascending index order, with any number of results in the
 * caller's buffer. */
#include <stdlib.h>

#include "grid/discs.h"
#include "grid/overlap_visit.h"
#include "hitscan/narrow.h"

/* Keeps the cap smallest indices seen in a max-heap, so any number of results needs no memory
 * beyond the caller's buffer. */
typedef struct disc_scan {
    uint32_t *heap;
    size_t cap, len, found;
} disc_scan;

static void heap_sift_down(uint32_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && h[l] > h[m])
            m = l;
        if (l + 1 < n && h[l + 1] > h[m])
            m = l + 1;
        if (m == i)
            return;
        uint32_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void heap_add(disc_scan *d, uint32_t id)
{
    d->found++;
    if (d->cap == 0)
        return;
    if (d->len < d->cap) {
        size_t i = d->len++;
        d->heap[i] = id;
        while (i > 0) {
            size_t p = (i - 1) / 2;
            if (d->heap[p] >= d->heap[i])
                break;
            uint32_t t = d->heap[p];
            d->heap[p] = d->heap[i];
            d->heap[i] = t;
            i = p;
        }
    } else if (id < d->heap[0]) {
        d->heap[0] = id;
        heap_sift_down(d->heap, d->len, 0);
    }
}

static void heap_visit(void *st, uint32_t id) { heap_add(st, id); }

hs_status hs_grid_overlap_circle_filtered(const hs_grid *g, hs_circle c, uint32_t mask,
                                          uint32_t category, const uint32_t *collide, uint32_t *idx,
                                          size_t cap, size_t *found)
{
    if (g == NULL || found == NULL || (idx == NULL && cap > 0))
        return HS_E_NULL;
    *found = 0;
    hs_status s = hs_circle_validate(c); /* the circles' own limits, HS_MAX_COORD included */
    if (s != HS_OK)
        return s;
    disc_scan d = {idx, cap, 0, 0};
    hs_grid_disc_visit(g, c, mask, category, collide, heap_visit, &d);
    if (d.len > 1)
        qsort(idx, d.len, sizeof *idx, hs_cmp_u32);
    *found = d.found;
    return HS_OK;
}

hs_status hs_grid_overlap_circle(const hs_grid *g, hs_circle c, uint32_t mask, uint32_t *idx,
                                 size_t cap, size_t *found)
{
    return hs_grid_overlap_circle_filtered(g, c, mask, UINT32_MAX, NULL, idx, cap, found);
}
