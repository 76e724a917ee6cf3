/* SPDX-License-Identifier: MIT */
/* The repeats (build.h): circles equal to one of a smaller index, set apart after a build.
 *
 * n equal circles make every query that reaches them test all n, though none but the one of
 * the smallest index can change closest's answer (equal t: the smallest index wins) or any's.
 * So the cells of at least HS_REPEAT_CELL circles are searched, through a hash table, for
 * circles equal in the bits of x, y, r and mask, and all but the smallest index of each such
 * group are marked; with at least HS_REPEAT_MIN of them, build.c builds the grid again with
 * the marked ones in a level of their own (partition.h's repeats slot), which closest and any
 * skip unless a query ignores a circle. Every other mode walks it like any level. Scenes
 * without such crowds pay for one vectorised max over cell_start. */
#include <stdlib.h>
#include <string.h>

#include "grid/build.h"
#include "grid/storage.h"
#include "grid/vectorize.h"
#include "invariant.h"
#include "tuning.h"

/* The most circles any of the cells cs[0 .. nc) holds. */
HS_GRID_CLONES static uint32_t most_in_a_cell(const uint32_t *restrict cs, size_t nc)
{
    uint32_t m = 0;
    for (size_t c = 0; c < nc; c++) {
        const uint32_t k = cs[c + 1] - cs[c];
        m = k > m ? k : m;
    }
    return m;
}

static uint32_t bits_of(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* The circle at storage position p, as the key it is compared by. */
typedef struct key {
    uint32_t x, y, r, mask;
} key;

static key key_at(const hs_grid *g, uint32_t p)
{
    const key k = {bits_of(g->x[p]), bits_of(g->y[p]), bits_of(g->r[p]), g->mask ? g->mask[p] : 0u};
    return k;
}

static int key_equal(key a, key b)
{
    return a.x == b.x && a.y == b.y && a.r == b.r && a.mask == b.mask;
}

static size_t key_hash(key k)
{
    uint64_t h = ((uint64_t)k.x << 32 | k.y) * 0x9E3779B97F4A7C15ull;
    h ^= ((uint64_t)k.r << 32 | k.mask) + (h >> 29);
    h *= 0xBF58476D1CE4E5B9ull;
    return (size_t)(h ^ (h >> 31));
}

/* Marks the repeats among storage positions [b, e) (one cell) by index into mark; table: room
 * for size (a power of two, at least twice e - b) positions. Returns how many it marked. */
static size_t mark_cell(const hs_grid *g, uint32_t b, uint32_t e, uint32_t *table, size_t size,
                        uint8_t *mark)
{
    HS_ASSERT((size & (size - 1)) == 0 && size >= 2 * (size_t)(e - b));
    memset(table, 0xff, size * sizeof *table);
    size_t marked = 0;
    key prev = key_at(g, b);
    for (uint32_t p = b; p < e; p++) {
        const key k = key_at(g, p);
        /* equal to the circle before it, of a smaller index: not its group's first (the
         * common case, a cell keeping its circles in index order) */
        const int after_equal = p > b && key_equal(k, prev) && g->id[p - 1] < g->id[p];
        prev = k;
        if (after_equal) {
            mark[g->id[p]] = 1;
            marked++;
            continue;
        }
        for (size_t s = key_hash(k) & (size - 1);; s = (s + 1) & (size - 1)) {
            const uint32_t q = table[s];
            if (q == UINT32_MAX) {
                table[s] = p;
                break;
            }
            if (!key_equal(key_at(g, q), k))
                continue;
            /* the table keeps the smallest index of the group; every other one is marked */
            if (g->id[p] < g->id[q]) {
                mark[g->id[q]] = 1;
                table[s] = p;
            } else {
                mark[g->id[p]] = 1;
            }
            marked++;
            break;
        }
    }
    return marked;
}

size_t hs_grid_mark_repeats(hs_grid *g)
{
    if (g->ncells == 0 || most_in_a_cell(g->cell_start, g->ncells) < HS_REPEAT_CELL)
        return 0;
    uint8_t *mark = hs_grid_grow(g->slot_of, &g->slot_cap, g->n, 1);
    if (mark == NULL)
        return 0;
    g->slot_of = mark;
    memset(mark, 0, g->n);
    size_t size = 1, marked = 0;
    uint32_t *table = NULL;
    for (size_t c = 0; c < g->ncells; c++) {
        const uint32_t b = g->cell_start[c], e = g->cell_start[c + 1];
        if (e - b < HS_REPEAT_CELL)
            continue;
        if (size < 2 * (size_t)(e - b) || table == NULL) {
            while (size < 2 * (size_t)(e - b))
                size *= 2;
            free(table);
            if ((table = malloc(size * sizeof *table)) == NULL)
                return 0; /* without memory, nothing is set apart: the grid is as built */
        }
        marked += mark_cell(g, b, e, table, size, mark);
    }
    free(table);
    return marked;
}
