/* SPDX-License-Identifier: MIT */
/* The grid build's per-circle cell (cells.h). */
#include "grid/cells.h"

#include "grid/vectorize.h"

void hs_cellfn_init(hs_cellfn *F, const hs_grid *g)
{
    for (int l = 0; l < 2; l++) {
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
    F->two = g->nlevels > 1;
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

/* cells_block's blocks that hold a level-1 circle: level 1 only in their groups of 16 that
 * hold one (0.1 % of the circles put one in a quarter of the blocks, but in few groups). */
HS_GRID_CLONES
static void cells_block_two(const hs_cellfn *Fp, const float *restrict x, const float *restrict y,
                            const float *restrict r, size_t k, uint32_t *restrict out)
{
    const hs_cellfn Fl = *Fp, *F = &Fl;
    const float split = F->split;
    for (size_t i = 0; i < k; i++)
        out[i] = cell_bf(F, 0, x[i], y[i]);
    for (size_t i0 = 0; i0 < k; i0 += 16) {
        const size_t ge = k - i0 < 16 ? k - i0 : 16;
        int any = 0;
        for (size_t i = i0; i < i0 + ge; i++)
            any |= r[i] > split;
        if (any)
            for (size_t i = i0; i < i0 + ge; i++) {
                uint32_t c1 = cell_bf(F, 1, x[i], y[i]);
                out[i] = r[i] > split ? c1 : out[i];
            }
    }
}

HS_GRID_CLONES
static void cells_block(const hs_cellfn *Fp, const float *restrict x, const float *restrict y,
                        const float *restrict r, size_t k, uint32_t *restrict out)
{
    const hs_cellfn Fl = *Fp, *F = &Fl; /* a local copy: nothing written below can alias it */
    int big = 0;
    if (F->two) {
        const float split = F->split;
        for (size_t i = 0; i < k; i++)
            big |= r[i] > split;
    }
    if (!big) {
        for (size_t i = 0; i < k; i++)
            out[i] = cell_bf(F, 0, x[i], y[i]);
    } else {
        cells_block_two(Fp, x, y, r, k, out);
    }
}

/* Not multiversioned itself: a caller in another file sees a plain function (clang calls a
 * target_clones function only where its declaration carries the attribute too). */
void hs_cells_block(const hs_cellfn *F, const float *restrict x, const float *restrict y,
                    const float *restrict r, size_t k, uint32_t *restrict out)
{
    cells_block(F, x, y, r, k, out);
}
