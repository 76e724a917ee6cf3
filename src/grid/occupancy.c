/* SPDX-License-Identifier: MIT */
/* The grid build's last pass: each level's occupancy bits (hs_glevel.occ), kept only where
 * most cells are empty. There, the block walk's plans read a row run's bits (one load for up to
 * 25 cells, from a map 32 times smaller than cell_start): the row-by-row plans (AVX-512's in
 * every mode, the others' for closest and any) trim each query's rows to those between its
 * first and last occupied run, and every plan drops an empty run before it costs a cell_start
 * read, an item or an exit test; elsewhere nearly every run holds circles and the checks would
 * only add work. */
#include <stdlib.h>
#include <string.h>

#include "grid/build.h"
#include "grid/storage.h"
#include "tuning.h"

/* Whether at least HS_OCC_MIN_EMPTY of the level's cells are empty, from HS_OCC_SAMPLE cells
 * at a fixed stride: deterministic, and O(1) next to the build. */
static int mostly_empty(const uint32_t *cs, size_t nc)
{
    const size_t k = nc < HS_OCC_SAMPLE ? nc : HS_OCC_SAMPLE;
    const uint64_t step = ((uint64_t)nc << 16) / k; /* cells per sample, 16.16 fixed point */
    size_t empty = 0;
    for (size_t i = 0; i < k; i++) {
        const size_t c = (size_t)(((uint64_t)i * step) >> 16);
        empty += cs[c + 1] == cs[c];
    }
    return (double)empty >= HS_OCC_MIN_EMPTY * (double)k;
}

hs_status hs_grid_occupancy(hs_grid *g)
{
    size_t off[HS_GRID_LEVELS] = {0}, total = 0;
    int keep[HS_GRID_LEVELS] = {0};
    for (int l = 0; l < g->nlevels; l++) {
        hs_glevel *L = &g->lv[l];
        L->occ = NULL;
        const size_t nc = (size_t)L->nx * (size_t)L->ny;
        keep[l] = L->n > 0 && nc > 0 && mostly_empty(g->cell_start + L->cell0, nc);
        if (keep[l]) {
            off[l] = total;
            total += (nc + 7) / 8 + HS_OCC_PAD;
        }
    }
    if (total == 0)
        return HS_OK;
    uint8_t *p = hs_grid_grow(g->occ, &g->occ_cap, total, 1);
    if (p == NULL)
        return HS_E_NOMEM;
    g->occ = p;
    for (int l = 0; l < g->nlevels; l++) {
        if (!keep[l])
            continue;
        hs_glevel *L = &g->lv[l];
        const uint32_t *cs = g->cell_start + L->cell0; /* cs[nc] is the next level's start */
        const size_t nc = (size_t)L->nx * (size_t)L->ny;
        uint8_t *o = p + off[l];
        for (size_t b = 0; b < nc / 8; b++) {
            const uint32_t *c = cs + 8 * b;
            unsigned v = 0;
            for (unsigned k = 0; k < 8; k++)
                v |= (unsigned)(c[k + 1] != c[k]) << k;
            o[b] = (uint8_t)v;
        }
        memset(o + nc / 8, 0, (nc + 7) / 8 - nc / 8 + HS_OCC_PAD);
        for (size_t c = nc / 8 * 8; c < nc; c++)
            o[c / 8] |= (uint8_t)((cs[c + 1] != cs[c]) << (c % 8));
        L->occ = o;
    }
    return HS_OK;
}
