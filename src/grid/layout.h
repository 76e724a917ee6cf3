/* SPDX-License-Identifier: MIT */
/* Internal: the uniform grid's layout (hitscan/grid.h's hs_grid): two levels of cells over
 * the circles stored cell by cell, and the cell arithmetic every reader of it shares. */
#ifndef HITSCAN_GRID_LAYOUT_H
#define HITSCAN_GRID_LAYOUT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "hitscan/grid.h"
#include "circles.h"
#include "grid/partition.h"

/* Levels 0 .. nsmall-1 hold the "small" circles, split by where they are (partition.h: a leaf
 * of the spatial partition each, then the outliers); level nsmall, when there is one, the few
 * much larger ones (r above a threshold taken from the radius distribution). Each level has
 * its own bounds, cell size and inflation radius, and only non-empty levels exist. A uniform
 * scene has one level of small circles. Every circle is inserted once, by its centre, so no query
 * ever sees a circle twice and nothing needs de-duplication; a query is inflated by the level's
 * largest radius instead. Cell geometry is computed in double so that the cell ranges a query
 * derives are conservative with respect to the cell a circle was binned into (the same monotone
 * function bins both). */
/* At most: the partition's leaves, the outliers and the big circles. */
#define HS_GRID_LEVELS HS_PART_SLOTS

typedef struct hs_glevel {
    double ox, oy;   /* lower corner: the smallest centre coordinates */
    double h, inv_h; /* cell side */
    double bx1, by1; /* largest centre coordinates */
    double mag;      /* largest |coordinate| of the bounds: scale of float rounding */
    int32_t nx, ny;
    uint32_t cell0; /* first cell of this level in the shared cell_start[] */
    float rmax;     /* largest radius in the level: the query inflation */
    size_t n;       /* circles in the level */
    /* a bit per cell of the level, set when the cell holds a circle (bit c % 8 of byte c / 8,
     * padded by HS_OCC_PAD bytes); NULL when most cells hold one (occupancy.c) */
    const uint8_t *occ;
    /* n (2 mean(r) h0 + pi mean(r^2)), h0 level 0's cell side: how many of the level's circles
     * a query meets in its first cell of travel, up to a factor common to the levels (the
     * world's area); any walks the level that meets more first (hs_grid_level_weights) */
    float meet;
    /* sub-cells a side of its most crowded cells (subcells.h); 1: no cell is cut */
    uint8_t sub_max;
    /* 1: the repeats' level (repeats.c): each of its circles equals, in x, y, r and mask, one
     * of a smaller index on another level, which ties with it wherever it is hit */
    uint8_t repeats;
} hs_glevel;

struct hs_grid {
    size_t n;
    /* storage: circles reordered cell by cell, level 0 then level 1 (capacity cap) */
    float *x, *y, *r;
    uint32_t *mask; /* NULL when the source set had no mask */
    uint32_t *id;   /* storage position -> caller's index */
    size_t cap;
    size_t mask_cap;
    /* CSR: circles of cell c (over both levels) are storage positions cell_start[c] ..
     * cell_start[c + 1] - 1 */
    uint32_t *cell_start;
    size_t ncells, cells_cap;
    /* the build's working memory (band tables, per-thread band buffers), kept for rebuilds;
     * spill: one word per circle, only grown when a band outgrows the band buffer (an index)
     * or the grid has several leaves (a cell, sort.c) */
    void *scratch;
    size_t scratch_bytes;
    uint32_t *spill;
    size_t spill_cap;
    uint8_t *occ; /* the levels' occupancy bits (hs_glevel.occ) */
    /* the crowded cells' sub-cell starts (subcells.h), read only in levels with sub_max > 1 */
    uint32_t *sub;
    size_t sub_cap;
    /* a partition of several leaves: each circle's slot (partition.h) by its index in the
     * build's input, from the bounds pass, read by the sort's passes over the input */
    uint8_t *slot_of;
    size_t slot_cap;
    size_t occ_cap;
    float cell_size_req; /* 0: automatic */
    int threads;
    const hs_task_system *tasks; /* hs_grid_opts.tasks, or hs_grid_set_tasks's */
    float split_r;               /* radii above go to the big circles' level (INFINITY: none) */
    int repeats_apart;           /* builds set repeated circles apart (repeats.c); 0: never */
    int nlevels;
    int nsmall; /* levels of small circles; level nsmall holds the big ones when < nlevels */
    hs_glevel lv[HS_GRID_LEVELS];
    hs_gpart part;                    /* the small circles' partition */
    int8_t slot_level[HS_PART_SLOTS]; /* a partition slot's level (-1: empty slot) */
    /* the periodic box (grid.h): its axes (HS_PERIODIC_*; 0: none), x0, y0, x1, y1 and the
     * periods x1 - x0, y1 - y0 (0 on an axis that is not periodic) */
    unsigned periodic;
    double box[4];
    double period[2];
    /* walls (wall_grid.h): a grid of circles owns the grid of its walls' pieces (NULL: no
     * walls); that grid owns the walls and answers for them (walls is NULL in every other) */
    struct hs_grid *wall_grid;
    struct hs_gwalls *walls;
};

/* Storage positions of the small circles: [0, hs_grid_small_count(g)); the big ones follow. */
static inline size_t hs_grid_small_count(const hs_grid *g)
{
    return g->nlevels > g->nsmall ? g->n - g->lv[g->nsmall].n : g->n;
}

/* The storage positions of level l's circles end here (levels are stored in order). */
static inline size_t hs_grid_level_end(const hs_grid *g, int l)
{
    return l + 1 < g->nlevels ? g->cell_start[g->lv[l + 1].cell0] : g->n;
}

/* Bytes past a level's occupancy bits: a reader loads 4 bytes at any cell's byte. */
#define HS_OCC_PAD 4

/* The longest run of cells whose bits those 4 bytes hold from any bit of the first byte
 * (32 - 7); a reader takes a longer run as occupied. */
#define HS_OCC_RUN_MAX 25

/* Cell index along one axis: a monotone function of v (floor, clamped to [0, n - 1], NaN -> 0),
 * used for circles and queries alike. */
static inline int32_t hs_gcell_at(double f, int32_t n) /* f = (v - o) inv_h */
{
    if (!(f >= 0.0))
        return 0;
    if (f >= (double)n)
        return n - 1;
    return (int32_t)f;
}

static inline int32_t hs_gcell(double v, double o, double inv_h, int32_t n)
{
    return hs_gcell_at((v - o) * inv_h, n);
}

/* Slack added to every inflation radius: covers float rounding in the kernels (which work on
 * coordinates of magnitude up to `mag`) and in the hit decision itself: a few float32 epsilons
 * with a wide margin. It only ever makes the visited region a little larger. HS_GPAD_ABS
 * covers the kernels' absolute resolution: their squared distances underflow, so a pair can
 * count as touching up to 2^-73 (1.1e-22) beyond the rim (narrow.h), and the grid must visit
 * every circle brute force would report. */
#define HS_GPAD_ABS 1e-20
static inline double hs_gpad(double mag, double radius)
{
    return 4e-6 * (mag + radius) + HS_GPAD_ABS;
}

/* The cells of level L that meet the box [x0, x1] x [y0, y1]: columns c0 .. c1 of rows
 * r0 .. r1, row r's run of storage being cs[r nx + c0] .. cs[r nx + c1 + 1]; 0 when none. */
typedef struct hs_gbox {
    int32_t c0, c1, r0, r1;
    const uint32_t *cs;
    size_t nx;
} hs_gbox;

static inline int hs_grid_box_cells(const hs_grid *g, const hs_glevel *L, double x0, double y0,
                                    double x1, double y1, hs_gbox *b)
{
    if (L->n == 0 || x1 < L->ox || y1 < L->oy || x0 > L->bx1 || y0 > L->by1)
        return 0;
    b->c0 = hs_gcell(x0, L->ox, L->inv_h, L->nx);
    b->c1 = hs_gcell(x1, L->ox, L->inv_h, L->nx);
    b->r0 = hs_gcell(y0, L->oy, L->inv_h, L->ny);
    b->r1 = hs_gcell(y1, L->oy, L->inv_h, L->ny);
    b->cs = g->cell_start + L->cell0;
    b->nx = (size_t)L->nx;
    return 1;
}

/* Visits every storage run of level L whose cells meet the box [x0, x1] x [y0, y1]:
 * one contiguous run per row. fn returns non-zero to stop; the return value is passed on. */
typedef int (*hs_grun_fn)(void *st, uint32_t begin, uint32_t end);
static inline int hs_grid_box(const hs_grid *g, const hs_glevel *L, double x0, double y0, double x1,
                              double y1, hs_grun_fn fn, void *st)
{
    hs_gbox bx;
    if (!hs_grid_box_cells(g, L, x0, y0, x1, y1, &bx))
        return 0;
    for (int32_t row = bx.r0; row <= bx.r1; row++) {
        const uint32_t *c = bx.cs + (size_t)row * bx.nx;
        const uint32_t b = c[bx.c0], e = c[bx.c1 + 1];
        if (b != e) {
            int s = fn(st, b, e);
            if (s)
                return s;
        }
    }
    return 0;
}

#endif
