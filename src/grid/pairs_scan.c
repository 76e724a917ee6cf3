/* SPDX-License-Identifier: MIT */
/* The search for pairs on a grid's circles (pairs_scan.h): overlap pairs (hs_grid_pairs,
 * hs_grid_pairs_within, hs_grid_pairs_ex, whose front door is pairs.c) and the candidates of
 * swept pairs (swept_pairs.c), with the swept discs as the tested discs and fast circles that
 * find their partners alone (pair_search.h).
 *
 * Circles are visited in storage order (cell by cell), so a circle's neighbourhood is the one
 * its predecessor just touched (in caller order every circle would cost a few cache misses).
 * Who finds which pair:
 * - two circles of one level: the one earlier in storage finds the pair (each one's search
 *   box is grown by its level's largest radius, so it holds every partner), searching from its
 *   own row of cells (the rows before hold only earlier circles) and only the circles after it
 *   in storage; the pair is written from the smaller caller index. On a level of cut cells
 *   (crowded: its circles fill a small share of its box), the fine scan finds them instead
 *   (pairs_fine.c), the one earlier in its order of fine cells;
 * - circles of two levels: only the one on the later level looks, with one box grown by the
 *   earlier level's largest radius (levels of small circles meet only along their edges; for
 *   a small circle and a big one, the big circle looks: a small circle searching the big
 *   circles' level would test each of the dozens near it, mostly in vain, while the big
 *   circle's box holds exactly the small circles within reach). The pair is kept by its
 *   smaller index: (later, earlier) in the block's list, or (earlier, later) in its cross list.
 * The assembly (pairs_assemble.c) puts them in order, wherever they were found. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "batch/worksteal.h"
#include "grid/build.h"
#include "grid/discs.h"
#include "grid/layout.h"
#include "grid/pairs_fine.h"
#include "grid/pairs_images.h"
#include "grid/pairs_scan.h"
#include "grid/periodic.h"
#include "grid/subcells.h"
#include "grid/vectorize.h"
#include "invariant.h"
#include "tuning.h"

#include "grid/pair_runs.inl"

/* The partners of the circle at storage position pos, on level `level`, that it keeps (see
 * the top): it searches its own level and every level before it; in a periodic box, across
 * its edges too. */
HS_CLONE_INLINE void find_partners(const hs_pair_search *s, size_t pos, int level, uint32_t levels,
                                   int edge, hs_pair_list *B, hs_pair_list *X, const int filt,
                                   const int cut)
{
    const hs_grid *g = s->g;
    if (levels == 0 && !edge)
        return;
    const uint32_t fast = s->fast ? s->fast[pos] : 0u;
    const uint32_t cat = filt ? s->fcat[pos] : 0u, col = filt ? s->fcol[pos] : 0u;
    if (filt && (cat == 0u || col == 0u)) /* passes no one's filter */
        return;
    pair_scan ps = {s,    (uint32_t)pos, g->id[pos], s->tx[pos], s->ty[pos], s->tr[pos],
                    fast, cat,           col,        B,          X};
    for (; levels != 0; levels &= levels - 1) {
        const int l = __builtin_ctz(levels);
        const hs_glevel *L = &g->lv[l];
        const int cross = l != level;
        const double reach = hs_pair_reach(s, L, l, pos, cross);
        const double x0 = ps.x - reach, x1 = ps.x + reach, y1 = ps.y + reach;
        double y0 = ps.y - reach;
        if (g->periodic) {
            int sh[4];
            hs_pair_image_shifts(g, L, x0, y0, x1, y1, sh);
            edge |= sh[0] | sh[1] | sh[2] | sh[3];
        }
        if (!cross && !fast) /* from its own row: the rows before hold only earlier circles */
            y0 = y0 > (double)g->y[pos] ? y0 : (double)g->y[pos]; /* fmax is a call */
        /* the box's runs by direct calls (hs_grid_box takes a function pointer, which gcc -O1
         * cannot inline into each clone) */
        hs_gbox bx;
        if (!hs_grid_box_cells(g, L, x0, y0, x1, y1, &bx))
            continue;
        /* the first row read is the circle's own: the rows before hold only earlier circles */
        HS_ASSERT(
            cross || fast ||
            (bx.cs[(size_t)bx.r0 * bx.nx] <= pos && pos < bx.cs[(size_t)(bx.r0 + 1) * bx.nx]));
        if (cut && L->sub_max > 1) {
            const double box[4] = {x0, ps.y - reach, x1, y1};
            if (sub_runs(&ps, L, &bx, box, cross, filt, 0, 0.0f))
                return;
            continue;
        }
        for (int32_t row = bx.r0; row <= bx.r1; row++) {
            const uint32_t *c = bx.cs + (size_t)row * bx.nx;
            const uint32_t b = c[bx.c0], e = c[bx.c1 + 1];
            if (b != e && run(&ps, b, e, cross, filt))
                return;
        }
    }
    if (edge)
        hs_pair_images(s, pos, level, B);
}

static int count_run(void *st, uint32_t b, uint32_t e)
{
    *(size_t *)st += e - b;
    return 0;
}

/* Room in B and X for the pairs of the big circles [p0, p1) against the small ones, so that
 * their thousands of partners do not grow the lists by copying: half the candidates each (a
 * disc fills about 3/4 of its box, split between the lists by index); short, the lists grow. */
static void reserve_big(const hs_pair_search *s, size_t p0, size_t p1, hs_pair_list *B,
                        hs_pair_list *X)
{
    const hs_grid *g = s->g;
    size_t cand = 0;
    for (size_t pos = p0; pos < p1; pos++)
        for (int l = 0; l < g->nsmall; l++) {
            const hs_glevel *L = &g->lv[l];
            const double x = s->tx[pos], y = s->ty[pos];
            const double reach = hs_pair_reach(s, L, l, pos, 1);
            hs_grid_box(g, L, x - reach, y - reach, x + reach, y + reach, count_run, &cand);
        }
    if (hs_pair_list_reserve(B, cand / 2 + 64))
        hs_pair_list_reserve(X, cand / 2 + 64);
}

/* The blocks of storage positions: nb0 of HS_PAIR_BLOCK small circles, then blocks of
 * HS_PAIR_BIG_BLOCK big ones (each searches thousands of small circles). */
typedef struct pair_blocks {
    size_t n0, nb0, nb;
} pair_blocks;

static void block_span(const hs_grid *g, const pair_blocks *pb, size_t k, size_t *p0, size_t *p1)
{
    if (k < pb->nb0) {
        *p0 = k * HS_PAIR_BLOCK;
        *p1 = *p0 + HS_PAIR_BLOCK < pb->n0 ? *p0 + HS_PAIR_BLOCK : pb->n0;
    } else {
        *p0 = pb->n0 + (k - pb->nb0) * HS_PAIR_BIG_BLOCK;
        *p1 = *p0 + HS_PAIR_BIG_BLOCK < g->n ? *p0 + HS_PAIR_BIG_BLOCK : g->n;
    }
}

/* The levels the circles at storage positions [p0, p1) of level `level` search: their own and
 * the earlier ones whose bounds their box, grown by the largest reach (with a margin far above
 * the reach's pad), meets; every earlier one for swept discs (which leave their level's
 * bounds) and in a periodic box (whose images do). A bit per level. */
static uint32_t levels_met(const hs_pair_search *s, int level, size_t p0, size_t p1)
{
    const hs_grid *g = s->g;
    const uint32_t all = (2u << level) - 1u;
    if (s->dx != NULL || g->periodic || level == 0)
        return all;
    float x0 = s->tx[p0], x1 = x0, y0 = s->ty[p0], y1 = y0, r = 0.0f;
    for (size_t p = p0; p < p1; p++) {
        x0 = s->tx[p] < x0 ? s->tx[p] : x0;
        x1 = s->tx[p] > x1 ? s->tx[p] : x1;
        y0 = s->ty[p] < y0 ? s->ty[p] : y0;
        y1 = s->ty[p] > y1 ? s->ty[p] : y1;
        r = s->tr[p] > r ? s->tr[p] : r;
    }
    const double mag =
        fmax(fmax(fabs((double)x0), fabs((double)x1)), fmax(fabs((double)y0), fabs((double)y1)));
    uint32_t met = 1u << level;
    for (int l = 0; l < level; l++) {
        const hs_glevel *L = &g->lv[l];
        const double reach = ((double)r + s->ext[l][1]) * (1.0 + 0x1p-30) +
                             (2.0 * mag + L->mag) * 0x1p-30 + HS_GPAD_ABS;
        const int apart =
            x0 - reach > L->bx1 || L->ox > x1 + reach || y0 - reach > L->by1 || L->oy > y1 + reach;
        met |= (uint32_t)!apart << l;
    }
    return met;
}

/* The same over rows r0 .. r1 of the level (cs: its cell starts, nx: its columns), columns
 * c0 .. c1 of each; the first row is the circle's own, read from the circle after it. */
HS_CLONE_INLINE int cell_rows(pair_scan *p, const uint32_t *cs, size_t nx, int32_t r0, int32_t r1,
                              int32_t c0, int32_t c1, float skin_up)
{
    for (int32_t row = r0; row <= r1; row++) {
        const uint32_t *c = cs + (size_t)row * nx;
        if (run_lanes(p, row == r0 ? p->pos + 1 : c[c0], c[c1 + 1], skin_up))
            return 1;
    }
    return 0;
}

/* The cell of ncells (starts cs) holding storage position p: the last whose start is at
 * most p. */
static size_t cell_holding(const uint32_t *cs, size_t ncells, size_t p)
{
    size_t lo = 0, hi = ncells;
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (cs[mid] <= p)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The circles at storage positions [p, e) of level L, a cell's: their bounding box, a reach
 * at least each one's (from their largest radius and magnitude, which hs_pair_reach_of grows
 * with), and whether a box of that reach around any of them may meet a partner's image in a
 * periodic box (hs_pair_image_shifts' tests on the union of their boxes: each is monotone in
 * its side). */
typedef struct cell_reach {
    float x0, y0, x1, y1;
    double reach;
    int images;
} cell_reach;

HS_CLONE_INLINE cell_reach reach_of_cell(const hs_pair_search *s, const hs_glevel *L, int level,
                                         size_t p, size_t e)
{
    cell_reach c = {s->tx[p], s->ty[p], s->tx[p], s->ty[p], 0.0, 0};
    float rm = s->tr[p];
    for (size_t k = p + 1; k < e; k++) { /* fminf and fmaxf are calls */
        c.x0 = s->tx[k] < c.x0 ? s->tx[k] : c.x0;
        c.x1 = s->tx[k] > c.x1 ? s->tx[k] : c.x1;
        c.y0 = s->ty[k] < c.y0 ? s->ty[k] : c.y0;
        c.y1 = s->ty[k] > c.y1 ? s->ty[k] : c.y1;
        rm = s->tr[k] > rm ? s->tr[k] : rm;
    }
    const float ax = fabsf(c.x0) > fabsf(c.x1) ? fabsf(c.x0) : fabsf(c.x1),
                ay = fabsf(c.y0) > fabsf(c.y1) ? fabsf(c.y0) : fabsf(c.y1);
    c.reach = hs_pair_reach_of(s, L, level, 0, rm, ax, ay);
    if (s->g->periodic) {
        int sh[4];
        hs_pair_image_shifts(s->g, L, (double)c.x0 - c.reach, (double)c.y0 - c.reach,
                             (double)c.x1 + c.reach, (double)c.y1 + c.reach, sh);
        c.images = sh[0] | sh[1] | sh[2] | sh[3];
    }
    return c;
}

/* A cell of more circles than this is searched with each circle's own box (scan_cells). */
enum { DENSE_CELL = 8 };

/* The partners of the circles at storage positions [p0, q) of level `level`, which has no cut
 * cells, in an overlap search without a filter: its own level a cell at a time. The cell's
 * circles share one box (the union of theirs, so it holds every partner of each), whose
 * columns and rows are found once, and each circle tests the runs of its rows LANES
 * candidates a vector (cell_rows); in a dense cell, whose union box would hold many times the
 * candidates of each circle's, each circle takes its own columns and last row, with the
 * cell's reach. The other levels as find_partners searches them, and the images in a cell
 * whose union box may meet one. */

HS_CLONE_INLINE void scan_cells(const hs_pair_search *s, size_t p0, size_t q, int level,
                                uint32_t levels, hs_pair_list *B, hs_pair_list *X, const int cut)
{
    const hs_grid *g = s->g;
    const hs_glevel *L = &g->lv[level];
    const uint32_t *cs = g->cell_start + L->cell0;
    const size_t nx = (size_t)L->nx, ncells = nx * (size_t)L->ny;
    const uint32_t others = levels & ~(1u << level);
    HS_ASSERT(L->sub_max <= 1 && s->fast == NULL); /* whole cells; every circle slow */
    size_t ci = cell_holding(cs, ncells, p0);
    float skin_up = (float)s->skin;
    skin_up = (double)skin_up < s->skin ? nextafterf(skin_up, INFINITY) : skin_up;
    for (size_t pos = p0; pos < q && !B->oom && !X->oom;) {
        while (cs[ci + 1] <= pos)
            ci++;
        const size_t ce = cs[ci + 1] < q ? cs[ci + 1] : q;
        HS_ASSERT(cs[ci] <= pos && pos < ce);
        const cell_reach cr = reach_of_cell(s, L, level, pos, ce);
        const double reach = cr.reach;
        const int32_t c0 = hs_gcell((double)cr.x0 - reach, L->ox, L->inv_h, L->nx),
                      c1 = hs_gcell((double)cr.x1 + reach, L->ox, L->inv_h, L->nx),
                      r1 = hs_gcell((double)cr.y1 + reach, L->oy, L->inv_h, L->ny),
                      r0 = (int32_t)(ci / nx);
        const int dense = cs[ci + 1] - cs[ci] > DENSE_CELL;
        for (; pos < ce && !B->oom && !X->oom; pos++) {
            pair_scan ps = {
                s, (uint32_t)pos, g->id[pos], s->tx[pos], s->ty[pos], s->tr[pos], 0u, 0u, 0u, B, X};
            int32_t pc0 = c0, pc1 = c1, pr1 = r1;
            if (dense) { /* the circle's own box: far fewer candidates than the cell's */
                pc0 = hs_gcell((double)ps.x - reach, L->ox, L->inv_h, L->nx);
                pc1 = hs_gcell((double)ps.x + reach, L->ox, L->inv_h, L->nx);
                pr1 = hs_gcell((double)ps.y + reach, L->oy, L->inv_h, L->ny);
            }
            if (cell_rows(&ps, cs, nx, r0, pr1 < r0 ? r0 : pr1, pc0, pc1, skin_up))
                return;
            int edge = 0;
            if (cr.images) {
                const double rr = hs_pair_reach(s, L, level, pos, 0);
                int sh[4];
                hs_pair_image_shifts(g, L, ps.x - rr, ps.y - rr, ps.x + rr, ps.y + rr, sh);
                edge = sh[0] | sh[1] | sh[2] | sh[3];
            }
            if (others != 0 || edge)
                find_partners(s, pos, level, others, edge, B, X, 0, cut);
        }
    }
}

/* Sub-cell sc's first storage position in a cell [b, e) of k x k sub-cells (k = 1: not cut),
 * sc <= k k (k k: the cell's end). */
static inline uint32_t sub_start(const uint32_t *sub, uint32_t b, uint32_t e, uint32_t k,
                                 uint32_t sc)
{
    return sc == 0 ? b : sc >= k * k ? e : sub[b + sc];
}

/* The partners of the circles at storage positions [p0, q) of level `level`, which has cut
 * cells, in an overlap search without a filter. A circle's cell and sub-cell are those it is
 * stored in, followed through storage, and its reach is its cell's; when its box lies in its
 * own cell, the runs of its level are the box's sub-cells in the rows from its own (the rows
 * before hold only earlier circles), LANES candidates a vector (run_lanes); else those of
 * sub_runs. The other levels and the images as find_partners searches them. */
HS_CLONE_INLINE void scan_cut_cells(const hs_pair_search *s, size_t p0, size_t q, int level,
                                    uint32_t levels, hs_pair_list *B, hs_pair_list *X)
{
    const hs_grid *g = s->g;
    const hs_glevel *L = &g->lv[level];
    const uint32_t *cs = g->cell_start + L->cell0, *sub = g->sub;
    const size_t nx = (size_t)L->nx, ncells = nx * (size_t)L->ny;
    const uint32_t others = levels & ~(1u << level);
    float skin_up = (float)s->skin;
    skin_up = (double)skin_up < s->skin ? nextafterf(skin_up, INFINITY) : skin_up;
    HS_ASSERT(L->sub_max > 1 && s->fast == NULL);
    size_t ci = cell_holding(cs, ncells, p0);
    for (size_t pos = p0; pos < q && !B->oom && !X->oom;) {
        while (cs[ci + 1] <= pos)
            ci++;
        const uint32_t b = cs[ci], e = cs[ci + 1], k = hs_subcell_k(L, e - b);
        const size_t ce = e < q ? e : q;
        const int32_t col = (int32_t)(ci % nx), row = (int32_t)(ci / nx);
        const cell_reach cr = reach_of_cell(s, L, level, pos, ce);
        const double reach = cr.reach;
        for (uint32_t sc = 0; pos < ce && !B->oom && !X->oom; pos++) {
            while (sc + 1 < k * k && sub[b + sc + 1] <= pos)
                sc++;
            pair_scan ps = {
                s, (uint32_t)pos, g->id[pos], s->tx[pos], s->ty[pos], s->tr[pos], 0u, 0u, 0u, B, X};
            const double x0 = ps.x - reach, x1 = ps.x + reach, y0 = ps.y - reach, y1 = ps.y + reach;
            const double fx0 = (x0 - L->ox) * L->inv_h, fx1 = (x1 - L->ox) * L->inv_h,
                         fy1 = (y1 - L->oy) * L->inv_h;
            const int32_t c0 = hs_gcell_at(fx0, L->nx), c1 = hs_gcell_at(fx1, L->nx),
                          r1 = hs_gcell_at(fy1, L->ny);
            if ((c0 ^ col) | (c1 ^ col) | (r1 ^ row)) { /* the box leaves the cell */
                const hs_gbox bx = {c0, c1, row, r1, cs, nx};
                const double box[4] = {x0, y0, x1, y1};
                if (sub_runs(&ps, L, &bx, box, 0, 0, 1, skin_up))
                    return;
            } else {
                const uint32_t sx0 = hs_subcell_at(fx0, col, k), sx1 = hs_subcell_at(fx1, col, k),
                               sy1 = hs_subcell_at(fy1, row, k);
                HS_ASSERT(sub_start(sub, b, e, k, sc) <= pos &&
                          pos < sub_start(sub, b, e, k, sc + 1));
                for (uint32_t sy = sc / k; sy <= sy1; sy++) {
                    const uint32_t rb = sub_start(sub, b, e, k, sy * k + sx0),
                                   re = sub_start(sub, b, e, k, sy * k + sx1 + 1);
                    if (re > pos + 1 &&
                        run_lanes(&ps, rb > pos ? rb : (uint32_t)pos + 1, re, skin_up))
                        return;
                }
            }
            int edge = 0;
            if (cr.images) {
                int sh[4];
                hs_pair_image_shifts(g, L, x0, y0, x1, y1, sh);
                edge = sh[0] | sh[1] | sh[2] | sh[3];
            }
            if (others != 0 || edge)
                find_partners(s, pos, level, others, edge, B, X, 0, 1);
        }
    }
}

/* The partners of the circles at storage positions [p0, p1). */
HS_CLONE_INLINE void scan_positions(const hs_pair_search *s, size_t p0, size_t p1, hs_pair_list *B,
                                    hs_pair_list *X, const int filt, const int cut)
{
    const hs_grid *g = s->g;
    int level = 0;
    size_t end = hs_grid_level_end(g, 0);
    while (p0 >= end)
        end = hs_grid_level_end(g, ++level);
    while (p0 < p1) { /* [p0, min(p1, end)) lies in one level */
        const size_t q = p1 < end ? p1 : end;
        uint32_t levels = levels_met(s, level, p0, q);
        if (cut && (s->fine >> level & 1u)) { /* its own pairs are the fine scan's (cut) */
            HS_ASSERT(!filt && s->fast == NULL && !g->periodic);
            levels &= ~(1u << level);
            for (size_t pos = p0; pos < q && levels != 0 && !B->oom && !X->oom; pos++)
                find_partners(s, pos, level, levels, 0, B, X, 0, cut);
        } else if (!filt && s->fast == NULL && !(cut && g->lv[level].sub_max > 1))
            scan_cells(s, p0, q, level, levels, B, X, cut);
        else if (!filt && s->fast == NULL && cut)
            scan_cut_cells(s, p0, q, level, levels, B, X);
        else
            for (size_t pos = p0; pos < q && !B->oom && !X->oom; pos++)
                find_partners(s, pos, level, levels, 0, B, X, filt, cut);
        p0 = q;
        while (p0 < p1 && p0 >= end)
            end = hs_grid_level_end(g, ++level);
    }
}

/* The same without and with a filter, on grids without and with cut cells: one clone per
 * instruction set each (a search that cannot meet a cut cell runs no code for one). */
HS_GRID_CLONES static void scan_block(const hs_pair_search *s, size_t p0, size_t p1,
                                      hs_pair_list *B, hs_pair_list *X)
{
    scan_positions(s, p0, p1, B, X, 0, 0);
}

HS_GRID_CLONES static void scan_block_cut(const hs_pair_search *s, size_t p0, size_t p1,
                                          hs_pair_list *B, hs_pair_list *X)
{
    scan_positions(s, p0, p1, B, X, 0, 1);
}

HS_GRID_CLONES static void scan_block_filtered(const hs_pair_search *s, size_t p0, size_t p1,
                                               hs_pair_list *B, hs_pair_list *X)
{
    scan_positions(s, p0, p1, B, X, 1, 0);
}

HS_GRID_CLONES static void scan_block_filtered_cut(const hs_pair_search *s, size_t p0, size_t p1,
                                                   hs_pair_list *B, hs_pair_list *X)
{
    scan_positions(s, p0, p1, B, X, 1, 1);
}

/* Whether a level of g has cut cells. */
static int any_cut(const hs_grid *g)
{
    for (int l = 0; l < g->nlevels; l++)
        if (g->lv[l].sub_max > 1)
            return 1;
    return 0;
}

/* Every block scanned on the team. Blocks are consecutive storage positions, so neighbours in
 * space: each thread keeps a contiguous share of them (batch/worksteal.h). Returns 1 if an
 * allocation failed: then every thread stops at its next block, the search being lost. */
typedef struct find_call {
    const hs_pair_search *s;
    const pair_blocks *pb;
    hs_pair_list *lists, *cross;
    hs_sched sc;
    atomic_int oom;
    int cut; /* a level of the grid has cut cells */
} find_call;

static void find_share(void *ctx, int slot)
{
    find_call *f = (find_call *)ctx;
    const hs_pair_search *s = f->s;
    const pair_blocks *pb = f->pb;
    const unsigned home = hs_sched_home(&f->sc, slot);
    for (ptrdiff_t k; (k = hs_sched_next(&f->sc, home)) >= 0;) {
        if (atomic_load_explicit(&f->oom, memory_order_relaxed))
            break; /* another block's lists could not grow: the search is lost */
        hs_pair_list *B = &f->lists[k], *X = &f->cross[k];
        size_t p0, p1;
        block_span(s->g, pb, (size_t)k, &p0, &p1);
        const int big = (size_t)k >= pb->nb0;
        if (big)
            reserve_big(s, p0, p1, B, X);
        else if (s->dx) /* swept: room for a pair per circle to start with */
            hs_pair_list_reserve(B, p1 - p0);
        if (s->fcat)
            (f->cut ? scan_block_filtered_cut : scan_block_filtered)(s, p0, p1, B, X);
        else
            (f->cut ? scan_block_cut : scan_block)(s, p0, p1, B, X);
        if (B->oom | X->oom)
            atomic_store_explicit(&f->oom, 1, memory_order_relaxed);
    }
}

static int find_pairs(const hs_pair_search *s, const pair_blocks *pb, hs_pair_list *lists,
                      hs_pair_list *cross, const hs_par *par)
{
    find_call f; /* the schedule's slots are set by hs_sched_init, not zeroed first */
    f.s = s;
    f.pb = pb;
    f.lists = lists;
    f.cross = cross;
    atomic_init(&f.oom, 0);
    f.cut = any_cut(s->g);
    hs_sched_init(&f.sc, pb->nb, par->threads);
    hs_par_team(par, find_share, &f);
    return atomic_load(&f.oom);
}

static int run_search(const hs_pair_search *search, const hs_par *par, hs_pair_list **lists,
                      size_t *nl)
{
    hs_pair_search fs = *search, *s = &fs;
    const hs_grid *g = s->g;
    const size_t n = g->n;
    pair_blocks pb;
    pb.n0 = hs_grid_small_count(g);
    pb.nb0 = (pb.n0 + HS_PAIR_BLOCK - 1) / HS_PAIR_BLOCK;
    pb.nb = pb.nb0 + (n - pb.n0 + HS_PAIR_BIG_BLOCK - 1) / HS_PAIR_BIG_BLOCK;
    const hs_par team = hs_par_cap(*par, pb.nb < 2 ? 1 : par->threads); /* one block: alone */
    hs_fine fine;
    int oom = hs_fine_make(s, &team, &fine);
    s->fine = fine.levels;
    /* lists[k]: block k's pairs; lists[nb + k]: its cross pairs; then the fine chunks' */
    *nl = 2 * pb.nb + fine.nchunks;
    *lists = oom ? NULL : hs_pair_lists_make(*nl, n, s->dx != NULL || s->contacts);
    oom |= *lists == NULL;
    oom = oom || find_pairs(s, &pb, *lists, *lists + pb.nb, &team);
    if (!oom && fine.nchunks > 0) {
        hs_fine_scan(s, &fine, &team, *lists + 2 * pb.nb);
        for (size_t k = 0; k < fine.nchunks; k++)
            oom |= (*lists)[2 * pb.nb + k].oom;
    }
    hs_fine_free(&fine);
    if (oom) {
        if (*lists != NULL)
            hs_pair_lists_free(*lists, *nl);
        *lists = NULL;
        return 1;
    }
    return 0;
}

/* A filter's bits at storage positions: g's storage read in order, the caller's collide bits
 * where its index says. */
typedef struct filter_call {
    const hs_grid *g;
    const uint32_t *collide;
    uint32_t *cat, *col;
} filter_call;

static void filter_range(void *ctx, size_t lo, size_t hi, int slot)
{
    const filter_call *c = (const filter_call *)ctx;
    const hs_grid *g = c->g;
    (void)slot;
    for (size_t pos = lo; pos < hi; pos++) {
        c->cat[pos] = g->mask ? g->mask[pos] : UINT32_MAX;
        c->col[pos] = c->collide[g->id[pos]];
    }
}

int hs_pair_search_run(const hs_pair_search *s, const hs_par *par, hs_pair_list **lists, size_t *nl)
{
    if (s->collide == NULL)
        return run_search(s, par, lists, nl);
    const size_t n = s->g->n;
    uint32_t *bits = malloc((2 * n + 1) * sizeof *bits);
    if (bits == NULL) {
        *lists = NULL;
        *nl = 0;
        return 1;
    }
    hs_pair_search f = *s;
    f.fcat = bits;
    f.fcol = bits + n;
    filter_call c = {s->g, s->collide, bits, bits + n};
    hs_par_range(par, n, HS_PAIR_FILTER_GRAIN, filter_range, &c);
    const int oom = run_search(&f, par, lists, nl);
    free(bits);
    return oom;
}
