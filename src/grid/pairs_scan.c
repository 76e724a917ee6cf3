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
 *   in storage; the pair is written from the smaller caller index;
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

#include "batch/worksteal.h"
#include "grid/build.h"
#include "grid/discs.h"
#include "grid/layout.h"
#include "grid/pairs_images.h"
#include "grid/pairs_scan.h"
#include "grid/periodic.h"
#include "grid/subcells.h"
#include "grid/vectorize.h"
#include "invariant.h"
#include "tuning.h"

typedef struct pair_scan {
    const hs_pair_search *s;
    uint32_t pos;  /* storage position of the circle whose partners are collected */
    uint32_t i;    /* its caller's index */
    float x, y, r; /* its tested disc */
    uint32_t fast;
    uint32_t cat, col; /* its category and collide bits, when the search is filtered */
    hs_pair_list *B;   /* (i, j) with j > i; swept: every pair the circle keeps */
    hs_pair_list *X;   /* big circle against level 0: (j, i) for j < i */
} pair_scan;

/* Candidates per chunk of a run: written to small buffers that stay in L1, whose lengths
 * only advance over the kept ones, then copied out. Without branches: whether a neighbour has
 * the larger index is a coin toss, and a branch on it mispredicted about every other
 * candidate (and writing every candidate to the list instead made dense clusters bound by
 * memory writes). */
enum { CH = 64 };

/* Everything a block's scan calls is inlined into each clone of scan_block (HS_CLONE_INLINE),
 * so that the overlap loop is compiled for its instruction set and a run (a cell's few
 * circles) costs no call. The functions taking `filt` are instantiated twice, filt a constant:
 * a search without a filter runs the same instructions as before filters existed. */

/* Overlap of the disc of p with candidates [c0, c0 + m), m <= CH, as 0/1 words: a loop
 * without branches or data-dependent stores, vectorised in the AVX2 and AVX-512 clones of
 * scan_block (floats widened to double; the same bits on every clone). A big circle's runs
 * are long enough for it. */
HS_CLONE_INLINE void overlap_mask(const pair_scan *p, uint32_t c0, uint32_t m,
                                  uint32_t *restrict ov)
{
    const float *restrict x = p->s->tx + c0, *restrict y = p->s->ty + c0,
                          *restrict r = p->s->tr + c0;
    const float px = p->x, py = p->y, pr = p->r;
    const double skin = p->s->skin;
    for (uint32_t k = 0; k < m; k++)
        ov[k] = (uint32_t)hs_discs_within(px, py, pr, x[k], y[k], r[k], skin);
}

/* The filter of p's circle against candidates [c0, c0 + m), m <= CH, as 0/1 words, and
 * whether any passes: a loop without branches, vectorised like overlap_mask, so a big
 * circle's long runs are filtered a vector of lanes at a time and a chunk that none passes
 * skips the distance test. */
HS_CLONE_INLINE uint32_t filter_lanes(const pair_scan *p, uint32_t c0, uint32_t m,
                                      uint32_t *restrict fl)
{
    const uint32_t *restrict cat = p->s->fcat + c0, *restrict col = p->s->fcol + c0;
    const uint32_t pc = p->cat, pm = p->col;
    uint32_t any = 0;
    for (uint32_t k = 0; k < m; k++) {
        fl[k] = hs_filter_pass(pc, pm, cat[k], col[k]);
        any |= fl[k];
    }
    return any;
}

/* The candidates at storage positions keep[0 .. nk) that the circle of p keeps, as overlap
 * pairs (i, j), i < j, in B. */
HS_CLONE_INLINE int emit_pairs(pair_scan *p, const uint32_t *keep, size_t nk)
{
    hs_pair_list *B = p->B;
    const uint32_t *id = p->s->g->id, i = p->i;
    if (B->cap - B->len < nk && !hs_pair_list_reserve(B, nk))
        return 1;
    for (size_t k = 0; k < nk; k++) {
        const uint32_t j = id[keep[k]];
        B->i[B->len + k] = i < j ? i : j;
        B->j[B->len + k] = i < j ? j : i;
    }
    B->len += nk;
    return 0;
}

/* The same with a record: overlap pairs with their contacts, or swept pairs, each tested
 * exactly and kept when the two touch; oriented from the smaller index (cross pairs come in
 * either order, swept pairs from either circle). */
HS_CLONE_INLINE int emit_carried(pair_scan *p, const uint32_t *keep, size_t nk)
{
    const hs_pair_search *s = p->s;
    const hs_grid *g = s->g;
    hs_pair_list *B = p->B;
    if (B->cap - B->len < nk && !hs_pair_list_reserve(B, nk))
        return 1;
    for (size_t k = 0; k < nk; k++) {
        uint32_t a = p->pos, b = keep[k];
        if (g->id[a] > g->id[b]) {
            a = keep[k];
            b = p->pos;
        }
        B->i[B->len] = g->id[a];
        B->j[B->len] = g->id[b];
        if (s->dx == NULL) {
            B->rec[B->len++].contact =
                hs_pair_contact_of((double)g->x[b] - (double)g->x[a],
                                   (double)g->y[b] - (double)g->y[a], g->r[a], g->r[b]);
            continue;
        }
        const hs_moving ca = {g->x[a], g->y[a], g->r[a], s->dx[a], s->dy[a]};
        const hs_moving cb = {g->x[b], g->y[b], g->r[b], s->dx[b], s->dy[b]};
        B->len += (size_t)hs_swept_test(&ca, &cb, &B->rec[B->len].swept);
    }
    return 0;
}

/* keep: storage positions. */
HS_CLONE_INLINE int emit(pair_scan *p, const uint32_t *keep, size_t nk)
{
    return p->s->dx || p->s->contacts ? emit_carried(p, keep, nk) : emit_pairs(p, keep, nk);
}
/* Whether the swept disc of p may meet (x, y, r): in float, with the sum of the radii grown
 * by 2^-20 (more than the roundings of the test) and every distance whose square is
 * subnormal taken as meeting, so never false for discs that meet. A candidate only: the
 * exact test decides. */
HS_CLONE_INLINE int swept_discs_meet(const pair_scan *p, float x, float y, float r)
{
    const float dx = p->x - x, dy = p->y - y, s = (p->r + r) * (1.0f + 0x1p-20f);
    return dx * dx + dy * dy <= s * s + 0x1p-126f;
}

/* A run of the circle's own level against it, one candidate at a time: a cell holds a few
 * circles, and for runs that short the vector loop's set-up and tail cost more than it
 * saves. A filter is one more 0/1 term of the keep mask, without a branch (a separate pass
 * over the run's filter, or the filter before the distance test, cost more than the test
 * it saves on such runs). A pair of two slow circles (every circle of an overlap search) is
 * found by the one earlier in storage (see the top); of a slow and a fast one, by the fast one
 * (the slow one's reach may not hold it); two fast ones are not the search's (pairs.h). */
HS_CLONE_INLINE int pair_run(pair_scan *p, uint32_t b, uint32_t e, const int filt)
{
    const hs_pair_search *s = p->s;
    const float *x = s->tx, *y = s->ty, *r = s->tr;
    const uint8_t *fast = s->fast;
    const uint32_t *fcat = s->fcat, *fcol = s->fcol, pc = p->cat, pm = p->col;
    uint32_t keep[CH];
    if (!p->fast && b <= p->pos) /* only the circles after it (a fast one: every circle) */
        b = p->pos + 1;
    for (uint32_t c0 = b; c0 < e; c0 += CH) {
        const uint32_t c1 = e - c0 > CH ? c0 + CH : e;
        size_t nk = 0;
        if (fast) {
            for (uint32_t k = c0; k < c1; k++) {
                const uint32_t mine = fast[k] == 0; /* a slow searcher's run starts after it */
                const uint32_t pass = filt ? hs_filter_pass(pc, pm, fcat[k], fcol[k]) : 1u;
                keep[nk] = k;
                nk += (size_t)(mine & pass & (uint32_t)swept_discs_meet(p, x[k], y[k], r[k]));
            }
        } else {
            const float px = p->x, py = p->y, pr = p->r;
            const double skin = s->skin;
            for (uint32_t k = c0; k < c1; k++) {
                const uint32_t pass = filt ? hs_filter_pass(pc, pm, fcat[k], fcol[k]) : 1u;
                keep[nk] = k;
                nk +=
                    (size_t)(pass & (uint32_t)hs_discs_within(px, py, pr, x[k], y[k], r[k], skin));
            }
        }
        if (nk != 0 && emit(p, keep, nk))
            return 1;
    }
    return 0;
}

/* A big circle against a run of small ones: every overlapping one is kept, in the big
 * circle's list when its index is larger, else in the cross list (swept: each as it is
 * oriented, and none when both are fast). */
HS_CLONE_INLINE int cross_run(pair_scan *p, uint32_t b, uint32_t e, const int filt)
{
    hs_pair_list *B = p->B, *X = p->X;
    const uint32_t i = p->i, *id = p->s->g->id;
    uint32_t ov[CH], fl[CH];
    uint32_t keep_j[CH], keep_s[CH];
    for (uint32_t c0 = b; c0 < e; c0 += CH) {
        const uint32_t m = e - c0 > CH ? CH : e - c0;
        if (filt && !filter_lanes(p, c0, m, fl))
            continue;
        overlap_mask(p, c0, m, ov);
        if (filt)
            for (uint32_t k = 0; k < m; k++)
                ov[k] &= fl[k];
        if (p->s->dx || p->s->contacts) {
            static const uint8_t slow[CH];
            const uint8_t *fast = p->s->fast ? p->s->fast + c0 : slow;
            size_t nk = 0;
            for (uint32_t k = 0; k < m; k++) {
                keep_j[nk] = c0 + k;
                nk += ov[k] & !(p->fast & fast[k]);
            }
            if (nk != 0 && emit(p, keep_j, nk))
                return 1;
            continue;
        }
        size_t nk = 0, nx = 0;
        for (uint32_t k = 0; k < m; k++) {
            const uint32_t j = id[c0 + k];
            const int up = j > i;
            keep_j[nk] = j;
            nk += (size_t)(ov[k] & up);
            keep_s[nx] = j;
            nx += (size_t)(ov[k] & !up);
        }
        if (!hs_pair_list_reserve(B, nk) || !hs_pair_list_reserve(X, nx))
            return 1;
        for (size_t k = 0; k < nk; k++) {
            B->i[B->len + k] = i;
            B->j[B->len + k] = keep_j[k];
        }
        B->len += nk;
        for (size_t k = 0; k < nx; k++) {
            X->i[X->len + k] = keep_s[k];
            X->j[X->len + k] = i;
        }
        X->len += nx;
    }
    return 0;
}

HS_CLONE_INLINE int run(pair_scan *p, uint32_t b, uint32_t e, int cross, const int filt)
{
    return cross ? cross_run(p, b, e, filt) : pair_run(p, b, e, filt);
}

/* The runs of bx's rows in a level with cut cells: a cut cell's sub-cells that meet box
 * (x0, y0, x1, y1; y0 before the search raises it to the circle's own row, as sub-cells of one
 * row of cells are not in storage order by y), runs that follow each other in storage merged
 * into one. */
HS_CLONE_INLINE int sub_runs(pair_scan *p, const hs_glevel *L, const hs_gbox *bx,
                             const double box[4], int cross, const int filt)
{
    const uint32_t *sub = p->s->g->sub;
    const int32_t row0 = hs_gcell(box[1], L->oy, L->inv_h, L->ny);
    for (int32_t row = bx->r0; row <= bx->r1; row++) {
        const uint32_t *c = bx->cs + (size_t)row * bx->nx;
        uint32_t rb = c[bx->c0], re = rb;
        for (int32_t col = bx->c0; col <= bx->c1; col++) {
            const uint32_t b = c[col], e = c[col + 1], k = hs_subcell_k(L, e - b);
            if (k < 2) { /* the whole cell */
                if (b != re) {
                    if (rb != re && run(p, rb, re, cross, filt))
                        return 1;
                    rb = b;
                }
                re = e;
                continue;
            }
            const uint32_t sx0 = col == bx->c0 ? hs_subcell_of(box[0], L->ox, L->inv_h, col, k) : 0,
                           sx1 = col == bx->c1 ? hs_subcell_of(box[2], L->ox, L->inv_h, col, k)
                                               : k - 1,
                           sy0 = row == row0 ? hs_subcell_of(box[1], L->oy, L->inv_h, row, k) : 0,
                           sy1 = row == bx->r1 ? hs_subcell_of(box[3], L->oy, L->inv_h, row, k)
                                               : k - 1;
            for (uint32_t sy = sy0; sy <= sy1; sy++) {
                const uint32_t s0 = sy * k + sx0, s1 = sy * k + sx1 + 1;
                const uint32_t sb = sub[b + s0], se = s1 < k * k ? sub[b + s1] : e;
                if (sb != re) {
                    if (rb != re && run(p, rb, re, cross, filt))
                        return 1;
                    rb = sb;
                }
                re = se;
            }
        }
        if (rb != re && run(p, rb, re, cross, filt))
            return 1;
    }
    return 0;
}

/* The partners of the circle at storage position pos, on level `level`, that it keeps (see
 * the top): it searches its own level and every level before it; in a periodic box, across
 * its edges too. */
HS_CLONE_INLINE void find_partners(const hs_pair_search *s, size_t pos, int level, uint32_t levels,
                                   hs_pair_list *B, hs_pair_list *X, const int filt, const int cut)
{
    const hs_grid *g = s->g;
    const uint32_t fast = s->fast ? s->fast[pos] : 0u;
    const uint32_t cat = filt ? s->fcat[pos] : 0u, col = filt ? s->fcol[pos] : 0u;
    if (filt && (cat == 0u || col == 0u)) /* passes no one's filter */
        return;
    pair_scan ps = {s,    (uint32_t)pos, g->id[pos], s->tx[pos], s->ty[pos], s->tr[pos],
                    fast, cat,           col,        B,          X};
    int edge = 0;
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
            if (sub_runs(&ps, L, &bx, box, cross, filt))
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
        const uint32_t levels = levels_met(s, level, p0, q);
        for (size_t pos = p0; pos < q && !B->oom && !X->oom; pos++)
            find_partners(s, pos, level, levels, B, X, filt, cut);
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

static int run_search(const hs_pair_search *s, const hs_par *par, hs_pair_list **lists, size_t *nl)
{
    const hs_grid *g = s->g;
    const size_t n = g->n;
    pair_blocks pb;
    pb.n0 = hs_grid_small_count(g);
    pb.nb0 = (pb.n0 + HS_PAIR_BLOCK - 1) / HS_PAIR_BLOCK;
    pb.nb = pb.nb0 + (n - pb.n0 + HS_PAIR_BIG_BLOCK - 1) / HS_PAIR_BIG_BLOCK;
    const hs_par team = hs_par_cap(*par, pb.nb < 2 ? 1 : par->threads); /* one block: alone */
    /* lists[k]: block k's pairs; lists[nb + k]: its cross pairs */
    *nl = 2 * pb.nb;
    *lists = calloc(*nl ? *nl : 1, sizeof **lists);
    if (*lists == NULL)
        return 1;
    for (size_t b = 0; b < *nl; b++)
        (*lists)[b].carry = s->dx != NULL || s->contacts;
    if (find_pairs(s, &pb, *lists, *lists + pb.nb, &team)) {
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
