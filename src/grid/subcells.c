/* SPDX-License-Identifier: MIT */
/* The crowded cells cut into sub-cells (subcells.h), during the grid build's sort: a band
 * sorted in its buffer (sort.c) leaves its circles there as records in cell order, and the copy
 * back to storage of each cut cell goes in sub-cell order instead, while the band is in cache;
 * the few cells sorted otherwise (small sets, bands larger than the buffer) are gathered into
 * records first. A counting sort, stable: within a sub-cell the circles keep the sort's order,
 * and each cell depends on its own circles alone, so the grid is the same for every team. */
#include <stdlib.h>
#include <string.h>

#include "grid/build.h"
#include "grid/storage.h"
#include "grid/subcells.h"
#include "grid/vectorize.h"
#include "invariant.h"

hs_status hs_grid_subcells_plan(hs_grid *g)
{
    int any = 0;
    for (int l = 0; l < g->nlevels; l++) {
        hs_glevel *L = &g->lv[l];
        /* sub-cells no narrower than a pair's box (two largest radii each side): narrower
         * ones would only cut the box into more runs */
        const double side = L->h / (HS_SUBCELL_SIDE_R * (double)L->rmax);
        L->sub_max = side >= HS_SUBCELL_MAX ? HS_SUBCELL_MAX : side >= 2.0 ? (uint8_t)side : 1;
        any |= L->sub_max > 1 && L->n >= HS_SUBCELL_CUT;
    }
    if (!any)
        return HS_OK;
    uint32_t *p = hs_grid_grow(g->sub, &g->sub_cap, g->n + 1, sizeof(uint32_t));
    if (p == NULL)
        return HS_E_NOMEM;
    g->sub = p;
    return HS_OK;
}

/* The sub-cells of records rec[0, m) of cell (cx, cy) of L, k a side. */
HS_GRID_CLONES static void cell_keys(const hs_grec *restrict rec, uint32_t m, const hs_glevel *L,
                                     int32_t cx, int32_t cy, uint32_t k, uint8_t *restrict key)
{
    const double ox = L->ox, oy = L->oy, ih = L->inv_h;
    for (uint32_t i = 0; i < m; i++)
        key[i] = (uint8_t)(hs_subcell_of((double)rec[i].y, oy, ih, cy, k) * k +
                           hs_subcell_of((double)rec[i].x, ox, ih, cx, k));
}

/* Cell (cx, cy) of L, storage [b, e), its circles rec[0, e - b) (masks mask[0, e - b), when the
 * grid has them), written to storage in k x k sub-cells. key: room for e - b bytes. */
static void cut_cell(hs_grid *g, const hs_glevel *L, int32_t cx, int32_t cy, uint32_t b, uint32_t e,
                     uint32_t k, const hs_grec *rec, const uint32_t *mask, uint8_t *key)
{
    uint32_t at[HS_SUBCELL_MAX * HS_SUBCELL_MAX];
    const uint32_t nk = k * k, m = e - b;
    HS_ASSERT(k > 1 && nk <= m);
    cell_keys(rec, m, L, cx, cy, k, key);
    for (uint32_t s = 0; s < nk; s++)
        at[s] = 0;
    for (uint32_t i = 0; i < m; i++)
        at[key[i]]++;
    uint32_t run = b;
    for (uint32_t s = 0; s < nk; s++) {
        g->sub[b + s] = run; /* nk <= m: the table fits in the cell's positions */
        const uint32_t c = at[s];
        at[s] = run;
        run += c;
    }
    for (uint32_t i = 0; i < m; i++) {
        const uint32_t d = at[key[i]]++;
        g->x[d] = rec[i].x;
        g->y[d] = rec[i].y;
        g->r[d] = rec[i].r;
        g->id[d] = rec[i].id;
        if (mask)
            g->mask[d] = mask[i];
    }
}

/* The first cell from c on, before ce, that may be cut (at least HS_SUBCELL_CUT circles),
 * else ce: most cells of a level hold fewer, and are passed 8 at a time. cell_start[ce] is
 * not read (it may be another band's, not sorted yet): cell ce - 1 is always looked at. */
HS_GRID_CLONES static size_t next_crowded(const uint32_t *restrict cs, size_t c, size_t ce)
{
    for (; c + 8 < ce; c += 8) {
        uint32_t crowded = 0;
        for (size_t u = 0; u < 8; u++)
            crowded |= (uint32_t)(cs[c + u + 1] - cs[c + u] >= HS_SUBCELL_CUT);
        if (crowded)
            break;
    }
    return c;
}

/* Calls cut_cell on every cell of [c0, c1) (storage [p0, p1)) that is cut, with rec and mask at
 * the cell's first position less p0 (keys from `key`); or, rec NULL, gathered into a buffer of
 * their own first. Returns 1 when that buffer could not be had. */
static int cut_cells(hs_grid *g, size_t c0, size_t c1, size_t p0, size_t p1, const hs_grec *rec,
                     const uint32_t *mask, uint8_t *key)
{
    hs_grec *own = NULL;
    uint32_t *own_mask = NULL;
    uint8_t *own_key = NULL;
    size_t cap = 0;
    int oom = 0;
    for (int l = 0; l < g->nlevels && !oom; l++) {
        const hs_glevel *L = &g->lv[l];
        const size_t l0 = L->cell0, l1 = l0 + (size_t)L->nx * (size_t)L->ny;
        if (L->sub_max < 2 || l1 <= c0 || l0 >= c1)
            continue;
        const size_t ce = c1 < l1 ? c1 : l1;
        for (size_t c = c0 > l0 ? c0 : l0; c < ce; c++) {
            c = next_crowded(g->cell_start, c, ce);
            /* cell c1 may be another band's, not sorted yet: [c0, c1) ends at p1 */
            const uint32_t b = g->cell_start[c],
                           e = c + 1 < c1 ? g->cell_start[c + 1] : (uint32_t)p1;
            const uint32_t k = hs_subcell_k(L, e - b);
            if (k < 2)
                continue;
            const size_t local = c - l0;
            const int32_t cx = (int32_t)(local % (size_t)L->nx),
                          cy = (int32_t)(local / (size_t)L->nx);
            if (rec) {
                cut_cell(g, L, cx, cy, b, e, k, rec + (b - p0), mask ? mask + (b - p0) : NULL, key);
                continue;
            }
            if (e - b > cap) {
                free(own);
                free(own_mask);
                free(own_key);
                cap = e - b;
                own = malloc(cap * sizeof *own);
                own_mask = malloc(cap * sizeof *own_mask);
                own_key = malloc(cap);
                if (!own || !own_mask || !own_key) {
                    oom = 1;
                    break;
                }
            }
            for (uint32_t p = b; p < e; p++) {
                own[p - b] = (hs_grec){g->x[p], g->y[p], g->r[p], g->id[p]};
                own_mask[p - b] = g->mask ? g->mask[p] : 0u;
            }
            cut_cell(g, L, cx, cy, b, e, k, own, g->mask ? own_mask : NULL, own_key);
        }
    }
    free(own);
    free(own_mask);
    free(own_key);
    return oom;
}

void hs_grid_cut_band(hs_grid *g, size_t c0, size_t c1, size_t p0, size_t p1, const hs_grec *rec,
                      const uint32_t *mask, uint8_t *key)
{
    if (g->sub != NULL)
        cut_cells(g, c0, c1, p0, p1, rec, mask, key);
}

hs_status hs_grid_cut_stored(hs_grid *g, size_t c0, size_t c1)
{
    if (g->sub == NULL)
        return HS_OK;
    return cut_cells(g, c0, c1, 0, g->cell_start[c1], NULL, NULL, NULL) ? HS_E_NOMEM : HS_OK;
}
