/* SPDX-License-Identifier: MIT */
/* The pairs within a level of cut cells (pairs_fine.h). A level's cells are sized for its
 * average density over its box, so where its circles fill a small share of the box (a band
 * across it, scattered clusters) they crowd a few cells, which the build cuts into sub-cells.
 * Their own pairs are found here instead, on cells sized for the pairs: side at least the
 * largest reach of the search, so a circle's partners lie in its own cell and the 8 around
 * it. Only the occupied cells are kept, sorted by (row, column), with the circles in that
 * order: nothing spans the level's box. Each cell searches itself (the circles after each),
 * its right neighbour and the three cells of the row above, which follow one another in the
 * sorted order, through pointers that only move forward. So each pair of neighbouring cells is
 * searched once, from the one earlier in the order, and each pair found once. The pairs are
 * tested as the block scan tests them (pair_runs.inl) and assembled with its lists. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/discs.h"
#include "grid/layout.h"
#include "grid/pairs_fine.h"
#include "grid/storage.h"
#include "grid/subcells.h"
#include "grid/vectorize.h"
#include "invariant.h"
#include "memory.h"
#include "tuning.h"

#include "grid/pair_runs.inl"

/* A chunk: cells [c0, c1) of fine level f. */
typedef struct hs_fine_chunk {
    int f;
    size_t c0, c1;
} hs_fine_chunk;

/* Fine cells a side of a coarse one at most: each coarse cell's are sorted by counting. */
enum { FINE_MAX = 64 };

/* Fine cells a side of a coarse cell of level l: each at least the reach of any circle's
 * search (that of the level's widest circle at its largest magnitude: monotone), with a
 * margin for the rounding of their coordinates; 0 when the level's cells are narrower. */
static int fine_per_cell(const hs_pair_search *s, int l)
{
    const hs_glevel *L = &s->g->lv[l];
    const float mag = nextafterf((float)L->mag, INFINITY);
    const double reach = hs_pair_reach_of(s, L, l, 0, L->rmax, mag, mag) * (1.0 + 0x1p-16);
    const double k = floor(L->h / reach);
    if (!(k >= 1.0) || (double)L->nx * FINE_MAX >= 0x1p31 || (double)L->ny * FINE_MAX >= 0x1p31)
        return 0;
    return k < FINE_MAX ? (int)k : FINE_MAX;
}

/* The fine cell, 0 .. k - 1, within coarse cell c of coordinate f >= 0 (relative to the
 * level's origin, the smallest centre coordinate, over the fine side): the coarse cell the
 * build stored the circle in is kept, so the fine order refines the storage's. */
static inline uint32_t fine_in(double f, int64_t c, int k)
{
    HS_ASSERT(f >= 0.0);
    const int64_t i = (f < 0x1p62 ? (int64_t)f : INT64_MAX / 2) - c * k; /* f >= 0: its floor */
    return i > 0 ? (i < k ? (uint32_t)i : (uint32_t)k - 1u) : 0u;
}

/* A part of a fine level: coarse rows [row0, row1), sorted on their own (fine cells nest in
 * coarse rows, so a part's circles keep the storage positions of its rows), its cells listed
 * from its first position on, then moved down behind the previous parts'. */
typedef struct fine_part {
    int f;
    size_t row0, row1, ncells;
} fine_part;

/* What the parts share: the search, the levels, and per level the scratch of the sort (the
 * circles' fine columns and rows, storage positions in column order), k and n. */
typedef struct fine_build {
    const hs_pair_search *s;
    hs_fine *f;
    fine_part *part;
    uint32_t *tp[HS_GRID_LEVELS], *tc[HS_GRID_LEVELS];
    uint8_t *tr[HS_GRID_LEVELS];
    int k[HS_GRID_LEVELS];
} fine_build;

/* Part t's circles in fine order: by columns within each coarse cell, then stably by rows
 * across each coarse row (two counting sorts, in cache, as storage is in coarse order); their
 * discs gathered and their cells listed. */
static void fine_part_sort(void *ctx, size_t t, int slot)
{
    const fine_build *fb = (const fine_build *)ctx;
    fine_part *P = &fb->part[t];
    hs_fine_level *F = &fb->f->lv[P->f];
    const hs_pair_search *s = fb->s;
    const hs_glevel *L = &s->g->lv[F->level];
    const size_t nx = (size_t)L->nx;
    const uint32_t *cs = s->g->cell_start + L->cell0;
    const size_t p0 = cs[0];
    const int k = fb->k[P->f];
    uint32_t *tp = fb->tp[P->f], *tc = fb->tc[P->f];
    uint8_t *tr = fb->tr[P->f];
    const double inv = (double)k / L->h;
    uint32_t cnt[FINE_MAX];
    (void)slot;
    for (size_t row = P->row0; row < P->row1; row++) {
        const size_t rb = cs[row * nx] - p0, re = cs[(row + 1) * nx] - p0;
        if (rb == re)
            continue;
        /* each cell's circles by fine column into tp, tc (their columns), tr (rows) */
        for (size_t col = 0; col < nx; col++) {
            const size_t cb = cs[row * nx + col] - p0, ce = cs[row * nx + col + 1] - p0;
            if (cb == ce)
                continue;
            memset(cnt, 0, (size_t)k * sizeof *cnt);
            for (size_t i = cb; i < ce; i++) {
                const size_t p = p0 + i;
                const uint32_t c = fine_in(((double)s->tx[p] - L->ox) * inv, (int64_t)col, k);
                const uint32_t r = fine_in(((double)s->ty[p] - L->oy) * inv, (int64_t)row, k);
                F->start[i] = r << 8 | c; /* scratch until the cells are listed */
                cnt[c]++;
            }
            for (uint32_t c = 0, at = (uint32_t)cb; c < (uint32_t)k; c++) {
                const uint32_t m = cnt[c];
                cnt[c] = at;
                at += m;
            }
            for (size_t i = cb; i < ce; i++) {
                const uint32_t c = F->start[i] & 255u, to = cnt[c]++;
                tp[to] = (uint32_t)(p0 + i);
                tc[to] = (uint32_t)col * (uint32_t)k + c;
                tr[to] = (uint8_t)(F->start[i] >> 8);
            }
        }
        /* the row's circles stably by fine row */
        memset(cnt, 0, (size_t)k * sizeof *cnt);
        for (size_t i = rb; i < re; i++)
            cnt[tr[i]]++;
        for (uint32_t c = 0, at = (uint32_t)rb; c < (uint32_t)k; c++) {
            const uint32_t m = cnt[c];
            cnt[c] = at;
            at += m;
        }
        for (size_t i = rb; i < re; i++) {
            const uint32_t to = cnt[tr[i]]++;
            F->pos[to] = tp[i];
            F->key[to] = ((uint64_t)row * (uint64_t)k + tr[i]) << 32 | tc[i];
        }
    }
    const size_t b = cs[P->row0 * nx] - p0, e = cs[P->row1 * nx] - p0;
    size_t nc = b;
    for (size_t i = b; i < e; i++) {
        const uint32_t p = F->pos[i];
        F->x[i] = s->tx[p], F->y[i] = s->ty[p], F->r[i] = s->tr[p];
        HS_ASSERT(i == b || F->key[i] >= F->key[i - 1]);
        if (i == b || F->key[i] != F->key[i - 1]) {
            F->key[nc] = F->key[i]; /* nc <= i: the cells overwrite keys already read */
            F->start[nc++] = (uint32_t)i;
        }
    }
    P->ncells = nc - b;
}

/* Room for bytes at *at in a block of lines: its offset, *at moved on by whole lines. */
static size_t take_lines(size_t *at, size_t bytes)
{
    const size_t o = *at;
    *at += hs_lines_bytes(bytes);
    return o;
}

/* Level l's arrays (F) in one block and its sort scratch in another; 1 when memory ran out.
 * Fresh memory of about 37 bytes a circle, written once: blocks that large come on 2 MB
 * pages (hs_grid_alloc_lines), whose faults are 512 times rarer. */
static int fine_alloc(const hs_pair_search *s, int l, hs_fine_level *F, fine_build *fb, int i)
{
    const hs_glevel *L = &s->g->lv[l];
    const uint32_t *cs = s->g->cell_start + L->cell0;
    const size_t n = cs[(size_t)L->nx * (size_t)L->ny] - cs[0];
    F->level = l;
    F->n = n;
    size_t at = 0, st = 0;
    take_lines(&at, (n + 1) * sizeof *F->key); /* key at the block's base */
    const size_t o_pos = take_lines(&at, (n + 1) * sizeof *F->pos);
    const size_t o_start = take_lines(&at, (n + 1) * sizeof *F->start);
    const size_t o_x = take_lines(&at, (3 * n + 1) * sizeof *F->x);
    take_lines(&st, (n + 1) * sizeof *fb->tp[i]); /* tp at the scratch's base */
    const size_t o_tc = take_lines(&st, (n + 1) * sizeof *fb->tc[i]);
    const size_t o_tr = take_lines(&st, n + 1);
    char *a = hs_grid_alloc_lines(at, 1), *t = a ? hs_grid_alloc_lines(st, 1) : NULL;
    F->key = (uint64_t *)(void *)a; /* the block's base, freed by hs_fine_free */
    if (a == NULL || t == NULL)
        return 1;
    F->pos = (uint32_t *)(void *)(a + o_pos);
    F->start = (uint32_t *)(void *)(a + o_start);
    F->x = (float *)(void *)(a + o_x);
    F->y = F->x + n;
    F->r = F->x + 2 * n;
    fb->tp[i] = (uint32_t *)(void *)t; /* the scratch's base, freed by hs_fine_make */
    fb->tc[i] = (uint32_t *)(void *)(t + o_tc);
    fb->tr[i] = (uint8_t *)(t + o_tr);
    return 0;
}

/* The partners of the circle of p among the fine circles [b, e) (b after it), each tested
 * exactly: a few candidates, as the cells are sized for the pairs (vectors of lanes would be
 * mostly empty), without branches (whether a candidate is kept is a coin toss). */
HS_CLONE_INLINE int fine_run(pair_scan *p, const hs_fine_level *F, uint32_t b, uint32_t e)
{
    const double skin = p->s->skin;
    uint32_t keep[CH];
    for (uint32_t v = b; v < e; v += CH) {
        const uint32_t m = e - v < CH ? e - v : CH;
        size_t nk = 0;
        for (uint32_t k = v; k < v + m; k++) {
            keep[nk] = F->pos[k];
            nk += (size_t)hs_discs_within(p->x, p->y, p->r, F->x[k], F->y[k], F->r[k], skin);
        }
        if (nk != 0 && emit(p, keep, nk))
            return 1;
    }
    return 0;
}

/* The pairs of cells [c0, c1) of F into B. */
HS_GRID_CLONES static void fine_chunk(const hs_pair_search *s, const hs_fine_level *F, size_t c0,
                                      size_t c1, hs_pair_list *B)
{
    const hs_grid *g = s->g;
    const uint64_t *key = F->key;
    const uint32_t *start = F->start;
    const size_t nc = F->ncells;
    /* lo .. hi - 1: the cells of the row above within a column of cell c */
    size_t lo = c0, hi = c0;
    for (size_t c = c0; c < c1; c++) {
        const uint64_t k = key[c], col = k & 0xffffffffu;
        const uint64_t above = k + ((uint64_t)1 << 32), first = col > 0 ? above - 1u : above;
        while (lo < nc && key[lo] < first)
            lo++;
        if (hi < lo)
            hi = lo;
        while (hi < nc && key[hi] <= above + 1u)
            hi++;
        /* the cell and its right neighbour are consecutive circles, the three above too */
        const uint32_t own_end = c + 1 < nc && key[c + 1] == k + 1u ? start[c + 2] : start[c + 1];
        const uint32_t ab = start[lo], ae = start[hi];
        for (uint32_t a = start[c]; a < start[c + 1]; a++) {
            const uint32_t pos = F->pos[a];
            pair_scan ps = {s, pos, g->id[pos], F->x[a], F->y[a], F->r[a], 0u, 0u, 0u, B, NULL};
            if (fine_run(&ps, F, a + 1, own_end) || fine_run(&ps, F, ab, ae))
                return;
        }
    }
}

/* Whether level l's own pairs go to the fine scan. */
static int fine_takes(const hs_pair_search *s, int l)
{
    const hs_glevel *L = &s->g->lv[l];
    return L->sub_max > 1 && !L->repeats && s->fast == NULL && s->dx == NULL &&
           s->collide == NULL && !s->g->periodic;
}

/* Circles a part of a level's rows holds, about: enough to be worth a thread, few enough
 * for the parts to share the team. */
enum { FINE_PART = 16384 };

/* The parts of the levels' rows (NULL when memory ran out; *np of them). */
static fine_part *fine_parts(const hs_pair_search *s, const hs_fine *f, size_t *np)
{
    size_t m = 0;
    for (int i = 0; i < f->nlevels; i++)
        m += f->lv[i].n / FINE_PART + 1;
    fine_part *part = malloc(m * sizeof *part);
    if (part == NULL)
        return NULL;
    *np = 0;
    for (int i = 0; i < f->nlevels; i++) {
        const hs_glevel *L = &s->g->lv[f->lv[i].level];
        const size_t nx = (size_t)L->nx, ny = (size_t)L->ny, parts = f->lv[i].n / FINE_PART + 1;
        const uint32_t *cs = s->g->cell_start + L->cell0;
        size_t row = 0;
        for (size_t j = 0; j < parts; j++) {
            const size_t row0 = row, until = cs[0] + (j + 1) * f->lv[i].n / parts;
            while (row < ny && cs[row * nx] < until)
                row++;
            part[(*np)++] = (fine_part){i, row0, j + 1 == parts ? ny : row, 0};
        }
    }
    HS_ASSERT(*np == m);
    return part;
}

int hs_fine_make(const hs_pair_search *s, const hs_par *par, hs_fine *f)
{
    memset(f, 0, sizeof *f);
    fine_build fb;
    memset(&fb, 0, sizeof fb);
    fb.s = s;
    fb.f = f;
    int oom = 0;
    for (int l = 0; l < s->g->nlevels && !oom; l++) {
        const int k = fine_takes(s, l) ? fine_per_cell(s, l) : 0;
        if (k == 0)
            continue;
        fb.k[f->nlevels] = k;
        oom = fine_alloc(s, l, &f->lv[f->nlevels], &fb, f->nlevels);
        f->nlevels++;
        f->levels |= 1u << l;
    }
    size_t np = 0;
    if (!oom && f->nlevels > 0) {
        fb.part = fine_parts(s, f, &np);
        oom = fb.part == NULL;
    }
    if (!oom && np > 0) {
        hs_par_for(par, np, fine_part_sort, &fb);
        /* each level's cells: its parts' lists moved down behind one another */
        for (size_t t = 0; t < np; t++) {
            const fine_part *P = &fb.part[t];
            hs_fine_level *F = &f->lv[P->f];
            const hs_glevel *L = &s->g->lv[F->level];
            const uint32_t *cs = s->g->cell_start + L->cell0;
            const size_t b = cs[P->row0 * (size_t)L->nx] - cs[0];
            memmove(F->key + F->ncells, F->key + b, P->ncells * sizeof *F->key);
            memmove(F->start + F->ncells, F->start + b, P->ncells * sizeof *F->start);
            F->ncells += P->ncells;
        }
        for (int i = 0; i < f->nlevels; i++)
            f->lv[i].start[f->lv[i].ncells] = (uint32_t)f->lv[i].n;
    }
    for (int i = 0; i < HS_GRID_LEVELS; i++)
        free(fb.tp[i]); /* each level's scratch block */
    free(fb.part);
    for (int i = 0; !oom && i < f->nlevels; i++)
        f->nchunks += (f->lv[i].n + HS_PAIR_BLOCK - 1) / HS_PAIR_BLOCK;
    if (oom || f->nchunks == 0)
        return oom;
    f->chunk = malloc(f->nchunks * sizeof *f->chunk);
    if (f->chunk == NULL)
        return 1;
    /* chunks of about HS_PAIR_BLOCK circles, cut between cells */
    size_t k = 0;
    for (int i = 0; i < f->nlevels; i++) {
        const hs_fine_level *F = &f->lv[i];
        const size_t m = (F->n + HS_PAIR_BLOCK - 1) / HS_PAIR_BLOCK;
        size_t c = 0;
        for (size_t j = 0; j < m; j++) {
            const size_t c0 = c, until = (j + 1) * F->n / m;
            while (c < F->ncells && F->start[c] < until)
                c++;
            f->chunk[k++] = (hs_fine_chunk){i, c0, j + 1 == m ? F->ncells : c};
        }
    }
    HS_ASSERT(k == f->nchunks);
    return 0;
}

typedef struct fine_call {
    const hs_pair_search *s;
    const hs_fine *f;
    hs_pair_list *lists;
} fine_call;

static void fine_block(void *ctx, size_t k, int slot)
{
    const fine_call *c = (const fine_call *)ctx;
    const hs_fine_chunk *ch = &c->f->chunk[k];
    (void)slot;
    fine_chunk(c->s, &c->f->lv[ch->f], ch->c0, ch->c1, &c->lists[k]);
}

void hs_fine_scan(const hs_pair_search *s, const hs_fine *f, const hs_par *par, hs_pair_list *lists)
{
    const fine_call c = {s, f, lists};
    hs_par_for(par, f->nchunks, fine_block, (void *)&c);
}

void hs_fine_free(hs_fine *f)
{
    for (int i = 0; i < f->nlevels; i++) {
        free(f->lv[i].key); /* each level's block */
    }
    free(f->chunk);
    memset(f, 0, sizeof *f);
}
