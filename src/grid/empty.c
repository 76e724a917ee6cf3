/* The grid build's fourth pass (build.h): each cell's empty distance, the Chebyshev distance
 * in cells from the cell to the nearest non-empty cell of its level (0 for a non-empty cell,
 * at most 255): every cell less than that many rows and columns away from it is empty. The
 * per-query walk reads it where a run is empty, to step over the empty cells ahead of a long
 * query without computing their runs (walk_query.h).
 *
 * The classic two-pass chessboard distance transform: forward in raster order (the three
 * cells above and the cell to the left), backward in reverse order (the three below and the
 * one to the right), each cell's value the smallest neighbour's plus one. Each pass is split
 * into the row-to-row step, which vectorises, and the scan along the row. */
#include <string.h>

#include "grid/build.h"

static inline uint8_t min_u8(uint8_t a, uint8_t b) { return a < b ? a : b; }
static inline uint8_t inc_u8(uint8_t v) { return (uint8_t)(v + (v < 255u)); }

/* row[j] = min(row[j], min(near[j - 1], near[j], near[j + 1]) + 1) for every j. */
static void from_row(uint8_t *restrict row, const uint8_t *restrict near, size_t w)
{
    row[0] = min_u8(row[0], inc_u8(w > 1 ? min_u8(near[0], near[1]) : near[0]));
    for (size_t j = 1; j + 1 < w; j++)
        row[j] = min_u8(row[j], inc_u8(min_u8(min_u8(near[j - 1], near[j]), near[j + 1])));
    if (w > 1)
        row[w - 1] = min_u8(row[w - 1], inc_u8(min_u8(near[w - 2], near[w - 1])));
}

static void level_distances(const uint32_t *cs, uint8_t *d, size_t nx, size_t ny)
{
    for (size_t r = 0; r < ny; r++) {
        uint8_t *row = d + r * nx;
        const uint32_t *c = cs + r * nx;
        for (size_t j = 0; j < nx; j++)
            row[j] = c[j + 1] != c[j] ? 0u : 255u;
        if (r > 0)
            from_row(row, row - nx, nx);
        for (size_t j = 1; j < nx; j++)
            row[j] = min_u8(row[j], inc_u8(row[j - 1]));
    }
    for (size_t r = ny; r-- > 0;) {
        uint8_t *row = d + r * nx;
        if (r + 1 < ny)
            from_row(row, row + nx, nx);
        for (size_t j = nx - 1; j-- > 0;)
            row[j] = min_u8(row[j], inc_u8(row[j + 1]));
    }
}

hs_status hs_grid_empty_distances(hs_grid *g)
{
    void *p = hs_grid_grow(g->empty, &g->empty_cap, g->ncells, sizeof(uint8_t));
    if (p == NULL)
        return HS_E_NOMEM;
    g->empty = p;
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        if (L->nx > 0 && L->ny > 0)
            level_distances(g->cell_start + L->cell0, g->empty + L->cell0, (size_t)L->nx,
                            (size_t)L->ny);
    }
    return HS_OK;
}
