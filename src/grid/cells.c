/* SPDX-License-Identifier: MIT */
/* The grid build's per-circle cell (cells.h). */
#include "grid/cells.h"

#include "grid/vectorize.h"
#include "invariant.h"

void hs_cellfn_init(hs_cellfn *F, const hs_grid *g)
{
    for (int l = 0; l < HS_GRID_LEVELS; l++) {
        const hs_glevel *L = &g->lv[l < g->nlevels ? l : 0];
        F->ox[l] = L->ox;
        F->oy[l] = L->oy;
        F->ih[l] = L->inv_h;
        F->tx[l] = (double)(L->nx - 1);
        F->ty[l] = (double)(L->ny - 1);
        F->nx[l] = (uint32_t)L->nx;
        F->cell0[l] = L->cell0;
    }
    F->split = g->split_r;
    F->two = g->nsmall > 1 ? 2 : g->nlevels > 1;
    F->part = &g->part;
    F->slot_level = g->slot_level;
    F->slot_of = g->part.nleaves > 1 || g->part.repeats ? g->slot_of : NULL;
}

int hs_cellfn_level_of(const hs_cellfn *F, int nlevels, size_t c0, size_t c1)
{
    int l = 0;
    while (l + 1 < nlevels && F->cell0[l + 1] <= c0)
        l++;
    return l + 1 < nlevels && F->cell0[l + 1] < c1 ? -1 : l;
}

void hs_cellfn_one_level(hs_cellfn *dst, const hs_cellfn *F, int l)
{
    *dst = *F;
    dst->ox[0] = F->ox[l];
    dst->oy[0] = F->oy[l];
    dst->ih[0] = F->ih[l];
    dst->tx[0] = F->tx[l];
    dst->ty[0] = F->ty[l];
    dst->nx[0] = F->nx[l];
    dst->cell0[0] = F->cell0[l];
    dst->two = 0;
    dst->slot_of = NULL; /* one level: no slot to look up */
}

static inline uint32_t cell_bf(const hs_cellfn *F, int l, float x, float y)
{
    double fx = ((double)x - F->ox[l]) * F->ih[l], fy = ((double)y - F->oy[l]) * F->ih[l];
    fx = fx >= 0.0 ? fx : 0.0;
    fx = fx < F->tx[l] ? fx : F->tx[l];
    fy = fy >= 0.0 ? fy : 0.0;
    fy = fy < F->ty[l] ? fy : F->ty[l];
    return F->cell0[l] + (uint32_t)(int32_t)fy * F->nx[l] + (uint32_t)(int32_t)fx;
}

/* The level of a circle (partition.h's slot). */
static inline int level_of(const hs_cellfn *F, float x, float y, float r)
{
    const int l = F->slot_level[hs_gpart_slot(F->part, x, y, r)];
    HS_ASSERT(l >= 0); /* the bounds pass counted this circle in its slot */
    return l;
}

/* A block of a grid whose circles are mostly in level 0 (one leaf of the partition): level 0
 * for all, then the groups of 16 that hold another (a big circle, an outlier) classified
 * circle by circle (0.1 % of the circles put one in a quarter of the blocks, but in few
 * groups). */
HS_GRID_CLONES
static void cells_block_mostly0(const hs_cellfn *Fp, const float *restrict x,
                                const float *restrict y, const float *restrict r, size_t k,
                                uint32_t *restrict out)
{
    const hs_cellfn Fl = *Fp, *F = &Fl;
    const float split = F->split, *b = F->part->box[0];
    for (size_t i = 0; i < k; i++)
        out[i] = cell_bf(F, 0, x[i], y[i]);
    for (size_t i0 = 0; i0 < k; i0 += 16) {
        const size_t ge = k - i0 < 16 ? k - i0 : 16;
        int any = 0;
        for (size_t i = i0; i < i0 + ge; i++)
            any |= (r[i] > split) | !(x[i] >= b[0]) | !(y[i] >= b[1]) | !(x[i] <= b[2]) |
                   !(y[i] <= b[3]);
        if (any)
            for (size_t i = i0; i < i0 + ge; i++)
                out[i] = cell_bf(F, level_of(F, x[i], y[i], r[i]), x[i], y[i]);
    }
}

/* A block of a grid partitioned into several leaves: each circle's level from its slot, kept
 * by the bounds pass (every caller has it: the input's, or a stored circle's by its index).
 * F: a local copy, so that the stores to out do not make every level's fields reload. */
static inline void cells_block_part(const hs_cellfn *F, const float *restrict x,
                                    const float *restrict y, const uint8_t *restrict slot, size_t k,
                                    uint32_t *restrict out)
{
    HS_ASSERT(slot != NULL);
    for (size_t i = 0; i < k; i++) {
        const int l = F->slot_level[slot[i]];
        HS_ASSERT(l >= 0);
        out[i] = cell_bf(F, l, x[i], y[i]);
    }
}

HS_GRID_CLONES
static void cells_block(const hs_cellfn *Fp, const float *restrict x, const float *restrict y,
                        const float *restrict r, const uint8_t *restrict slot, size_t k,
                        uint32_t *restrict out)
{
    if (Fp->slot_of != NULL) {
        const hs_cellfn Fl = *Fp;
        cells_block_part(&Fl, x, y, slot, k, out);
        return;
    }
    const hs_cellfn Fl = *Fp, *F = &Fl; /* a local copy: nothing written below can alias it */
    int odd = 0;
    if (F->two) {
        const float split = F->split, *b = F->part->box[0];
        for (size_t i = 0; i < k; i++)
            odd |= (r[i] > split) | !(x[i] >= b[0]) | !(y[i] >= b[1]) | !(x[i] <= b[2]) |
                   !(y[i] <= b[3]);
    }
    if (!odd) {
        for (size_t i = 0; i < k; i++)
            out[i] = cell_bf(F, 0, x[i], y[i]);
    } else {
        cells_block_mostly0(Fp, x, y, r, k, out);
    }
}

/* Not multiversioned itself: a caller in another file sees a plain function (clang calls a
 * target_clones function only where its declaration carries the attribute too). */
void hs_cells_block(const hs_cellfn *F, const float *restrict x, const float *restrict y,
                    const float *restrict r, const uint8_t *restrict slot, size_t k,
                    uint32_t *restrict out)
{
    cells_block(F, x, y, r, slot, k, out);
}
