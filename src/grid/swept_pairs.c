/* SPDX-License-Identifier: MIT */
/* Swept pairs, hs_grid_swept_pairs (and _filtered): the pairs of moving circles that
 * touch during a step.
 *
 * Broadphase: circle i sweeps the capsule from ci to ci + di of radius ri, which lies in the
 * disc centred at ci + di / 2 of radius ri + |di| / 2: two capsules that touch have
 * overlapping discs. The pair search of hs_grid_pairs (grid/pairs_scan.c) runs on g itself with
 * those discs: each circle searches the cells around its disc, as far as a partner's circle
 * can lie from it (its level's largest radius plus its largest displacement). The few fast
 * movers (|d| above a multiple of the median, and above half a cell) find their partners
 * alone, so only they search as far as the fast ones move. Narrowphase: each candidate is
 * tested exactly in the search (grid/swept.h), where both circles' data are close in memory,
 * and kept with its answer; the assembly puts the pairs in (i, j) order with a word naming
 * each answer, so the result is the same for any team.
 *
 * The discs are computed in double and rounded outward to float, so each holds its exact
 * disc: every pair that touches is a candidate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/build.h"
#include "grid/layout.h"
#include "grid/pair_list.h"
#include "grid/pair_search.h"
#include "grid/pairs_assemble.h"
#include "grid/pairs_scan.h"
#include "grid/periodic.h"
#include "grid/storage.h"
#include "prefetch.h"
#include "tuning.h"

/* Circles per thread below which a pass runs on the calling thread. */
enum { PAR_MIN = 16384 };

/* A branch-free pass per block, rescanned only when a block fails. */
hs_status hs_check_displacements(const float *dx, const float *dy, size_t n)
{
    const double big = (double)HS_MAX_COORD * (double)HS_MAX_COORD;
    enum { BLOCK = 1024 };
    for (size_t lo = 0; lo < n; lo += BLOCK) {
        const size_t hi = n - lo > BLOCK ? lo + BLOCK : n;
        int ok = 1;
        for (size_t i = lo; i < hi; i++) {
            const double x = dx[i], y = dy[i];
            ok &= x * x + y * y <= big; /* false for NaN and infinities */
        }
        if (ok)
            continue;
        for (size_t i = lo; i < hi; i++) {
            if (!isfinite(dx[i]) || !isfinite(dy[i]))
                return HS_E_NONFINITE;
            if (!((double)dx[i] * dx[i] + (double)dy[i] * dy[i] <= big))
                return HS_E_RANGE;
        }
    }
    return HS_OK;
}

/* The displacement above which a circle is fast: HS_SWEPT_FAST times the median length of a
 * fixed-stride sample (deterministic; on the heap, so the call fits a 64 KB thread stack),
 * and at least half a cell of level 0. HS_E_NOMEM when the sample cannot be had. */
static hs_status fast_threshold(const hs_grid *g, const float *dx, const float *dy, float *from)
{
    const size_t n = g->n, s = n < HS_GRID_SAMPLE ? n : HS_GRID_SAMPLE;
    float *sample = malloc(s * sizeof *sample);
    if (sample == NULL)
        return HS_E_NOMEM;
    for (size_t k = 0; k < s; k++) {
        const size_t i = k * (n / s);
        sample[k] = (float)sqrt((double)dx[i] * dx[i] + (double)dy[i] * dy[i]);
    }
    const double median = hs_select_kth(sample, s, s / 2);
    free(sample);
    *from = (float)fmax(HS_SWEPT_FAST * median, 0.5 * g->lv[0].h);
    return HS_OK;
}

/* Storage positions ahead of the one read whose caller's index is prefetched. */
enum { AHEAD = 64 };

/* What the search needs at each storage position of g, and each level's largest slow and
 * overall displacement. */
typedef struct swept_arrays {
    float *dx, *dy, *mx, *my, *mr;
    uint8_t *fast;
    double dmax[2][2]; /* small, big circles, then 0: the largest |d| of the slow ones, 1: of all */
    double mrmax;      /* the largest swept disc's radius */
} swept_arrays;

typedef struct discs_call {
    const hs_grid *g;
    const float *dx, *dy;
    float fast_from;
    swept_arrays *a;
    _Atomic uint64_t max[5]; /* m0s, m0a, m1s, m1a, mrm as hs_par_max_nonneg keeps them */
} discs_call;

static void discs_range(void *ctx, size_t lo, size_t hi, int slot)
{
    discs_call *c = (discs_call *)ctx;
    const hs_grid *g = c->g;
    const float *dx = c->dx, *dy = c->dy;
    const float fast_from = c->fast_from;
    const ptrdiff_t n = (ptrdiff_t)g->n, n0 = (ptrdiff_t)hs_grid_small_count(g);
    float *restrict sdx = c->a->dx, *restrict sdy = c->a->dy, *restrict mx_ = c->a->mx,
                    *restrict my_ = c->a->my, *restrict mr_ = c->a->mr;
    uint8_t *restrict fast_ = c->a->fast;
    double m0s = 0.0, m0a = 0.0, m1s = 0.0, m1a = 0.0, mrm = 0.0;
    (void)slot;
    for (ptrdiff_t pos = (ptrdiff_t)lo; pos < (ptrdiff_t)hi; pos++) {
        if (pos + AHEAD < n) {
            const uint32_t ahead = g->id[pos + AHEAD];
            hs_prefetch(&dx[ahead]);
            hs_prefetch(&dy[ahead]);
        }
        const uint32_t id = g->id[pos];
        const float ux = dx[id], uy = dy[id];
        const double len = sqrt((double)ux * ux + (double)uy * uy);
        const double mx = (double)g->x[pos] + 0.5 * ux, my = (double)g->y[pos] + 0.5 * uy;
        const double R = (double)g->r[pos] + 0.5 * len;
        sdx[pos] = ux;
        sdy[pos] = uy;
        mx_[pos] = (float)mx;
        my_[pos] = (float)my;
        mr_[pos] = (float)(R * (1.0 + 0x1p-20) + (fabs(mx) + fabs(my)) * 0x1p-23 + 0x1p-148);
        mrm = mr_[pos] > mrm ? mr_[pos] : mrm;
        const int fast = len > fast_from;
        fast_[pos] = (uint8_t)fast;
        if (pos < n0) {
            m0a = len > m0a ? len : m0a;
            m0s = !fast && len > m0s ? len : m0s;
        } else {
            m1a = len > m1a ? len : m1a;
            m1s = !fast && len > m1s ? len : m1s;
        }
    }
    const double m[5] = {m0s, m0a, m1s, m1a, mrm};
    for (int k = 0; k < 5; k++)
        hs_par_max_nonneg(&c->max[k], m[k]);
}

/* Every circle's displacement and swept disc at its storage position: g's storage read in
 * order, the caller's arrays where its index says. The disc's radius grows by a relative
 * 2^-20 and by the rounding of its centre (2^-23 of its coordinates' size, and 2^-148 where
 * they are subnormal): more than every rounding of the computation. */
static void make_discs(const hs_grid *g, const float *dx, const float *dy, float fast_from,
                       swept_arrays *a, const hs_par *par)
{
    discs_call c = {g, dx, dy, fast_from, a, {0, 0, 0, 0, 0}};
    for (int k = 0; k < 5; k++)
        atomic_init(&c.max[k], 0);
    hs_par_range(par, g->n, PAR_MIN, discs_range, &c);
    a->dmax[0][0] = hs_par_max_get(&c.max[0]);
    a->dmax[0][1] = hs_par_max_get(&c.max[1]);
    a->dmax[1][0] = hs_par_max_get(&c.max[2]);
    a->dmax[1][1] = hs_par_max_get(&c.max[3]);
    a->mrmax = hs_par_max_get(&c.max[4]);
}

static void free_arrays(swept_arrays *a)
{
    free(a->dx);
    free(a->dy);
    free(a->mx);
    free(a->my);
    free(a->mr);
    free(a->fast);
}

/* The candidate pair p, q of two fast circles (storage positions), into L when the two touch:
 * in a periodic box between p and the image of q whose disc is nearest to p's (the discs of
 * a pair that touches overlap, and then under that image only). Returns 1 when memory ran
 * out. */
static int fast_pair(const hs_grid *g, const swept_arrays *a, const uint32_t *collide, uint32_t p,
                     uint32_t q, hs_pair_list *L)
{
    if (collide && !hs_filter_pass(g->mask ? g->mask[p] : UINT32_MAX, collide[g->id[p]],
                                   g->mask ? g->mask[q] : UINT32_MAX, collide[g->id[q]]))
        return 0;
    if (g->id[p] > g->id[q]) {
        const uint32_t t = p;
        p = q;
        q = t;
    }
    if (!hs_pair_list_reserve(L, 1) || (g->periodic && !hs_pair_shift_reserve(L, 1)))
        return 1;
    int s[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const double d = k == 0 ? (double)a->mx[q] - a->mx[p] : (double)a->my[q] - a->my[p];
        s[k] = g->period[k] > 0.0 ? -(int)round(d / g->period[k]) : 0;
    }
    const double ex = hs_image_sep(g->x[p], g->x[q], s[0], g->period[0]);
    const double ey = hs_image_sep(g->y[p], g->y[q], s[1], g->period[1]);
    const double R = (double)g->r[p] + (double)g->r[q];
    const hs_moving cp = {g->x[p], g->y[p], g->r[p], a->dx[p], a->dy[p]};
    const hs_moving cq = {g->x[q], g->y[q], g->r[q], a->dx[q], a->dy[q]};
    if (!hs_swept_test_image(&cp, &cq, ex, ey, s[0] != 0 || s[1] != 0, ex * ex + ey * ey <= R * R,
                             &L->rec[L->len].swept))
        return 0;
    L->i[L->len] = g->id[p];
    L->j[L->len] = g->id[q];
    L->len++;
    if (s[0] != 0 || s[1] != 0) {
        const hs_pair_shift e = {g->id[p], g->id[q], (int8_t)s[0], (int8_t)s[1]};
        L->sh[L->sh_len++] = e;
    }
    return 0;
}

/* The touching pairs of two fast circles into L (a list that carries answers): hs_grid_pairs
 * on a grid of their swept discs (in a periodic box, one of half its size), each candidate
 * then tested exactly. The discs are halved, so that those of circles and displacements at
 * the range limit are valid circles (overlap does not change with the scale), and grown by
 * 2^-20 and 2^-148 (the halving of subnormal values). Returns 0, or 1 when memory ran out. */
static int fast_pairs(const hs_grid *g, const swept_arrays *a, const uint32_t *collide,
                      const hs_batch_opts *opts, const hs_par *par, hs_pair_list *L)
{
    size_t nf = 0;
    for (size_t pos = 0; pos < g->n; pos++)
        nf += a->fast[pos];
    if (nf < 2)
        return 0;
    uint32_t *at = malloc(nf * sizeof *at);
    float *hx = malloc(nf * sizeof *hx), *hy = malloc(nf * sizeof *hy),
          *hr = malloc(nf * sizeof *hr);
    hs_grid *g3 = NULL;
    hs_pairs cand = {.i = NULL, .j = NULL, .count = 0};
    int oom = !at || !hx || !hy || !hr;
    if (!oom) {
        for (size_t pos = 0, k = 0; pos < g->n; pos++) {
            if (!a->fast[pos])
                continue;
            at[k] = (uint32_t)pos;
            hx[k] = 0.5f * a->mx[pos];
            hy[k] = 0.5f * a->my[pos];
            hr[k] = (float)(0.5 * (double)a->mr[pos] * (1.0 + 0x1p-20) + 0x1p-148);
            k++;
        }
        const hs_circles cs = {.x = hx, .y = hy, .r = hr, .mask = NULL, .n = nf, .owned = NULL};
        /* the halved box; on an axis that is not periodic the discs may leave it */
        hs_grid_opts go = {.cell_size = 0.0f,
                           .threads = par->threads,
                           .periodic = g->periodic,
                           .tasks = par->tasks};
        const int px = (g->periodic & HS_PERIODIC_X) != 0, py = (g->periodic & HS_PERIODIC_Y) != 0;
        go.box.min.x = px ? 0.5f * (float)g->box[0] : -HS_MAX_COORD;
        go.box.min.y = py ? 0.5f * (float)g->box[1] : -HS_MAX_COORD;
        go.box.max.x = px ? 0.5f * (float)g->box[2] : HS_MAX_COORD;
        go.box.max.y = py ? 0.5f * (float)g->box[3] : HS_MAX_COORD;
        oom = hs_grid_build(&cs, &go, &g3) != HS_OK || hs_grid_pairs(g3, opts, &cand) != HS_OK;
    }
    for (size_t k = 0; !oom && k < cand.count; k++)
        oom = fast_pair(g, a, collide, at[cand.i[k]], at[cand.j[k]], L);
    hs_pairs_free(&cand);
    hs_grid_destroy(g3);
    free(hr);
    free(hy);
    free(hx);
    free(at);
    return oom;
}

/* The touching pairs found by the search, in lists with their answers. */
static hs_status search(const hs_grid *g, const float *dx, const float *dy, const uint32_t *collide,
                        const hs_batch_opts *opts, const hs_par *par, hs_pair_list **lists,
                        size_t *nl)
{
    const size_t n = g->n;
    swept_arrays a = {hs_grid_alloc_lines(n, sizeof(float)),
                      hs_grid_alloc_lines(n, sizeof(float)),
                      hs_grid_alloc_lines(n, sizeof(float)),
                      hs_grid_alloc_lines(n, sizeof(float)),
                      hs_grid_alloc_lines(n, sizeof(float)),
                      hs_grid_alloc_lines(n, 1),
                      {{0.0}},
                      0.0};
    hs_status s = a.dx && a.dy && a.mx && a.my && a.mr && a.fast ? HS_OK : HS_E_NOMEM;
    float fast_from = 0.0f;
    if (s == HS_OK)
        s = fast_threshold(g, dx, dy, &fast_from);
    if (s == HS_OK) {
        make_discs(g, dx, dy, fast_from, &a, par);
        /* one image per pair: the swept discs' diameters below half a period (the fast
         * circles' grid, of halved discs grown by 2^-20, then holds them too) */
        if (g->periodic && !hs_box_fits(g, 2.0 * a.mrmax * (1.0 + 0x1p-19) + 0x1p-140))
            s = HS_E_BOX;
    }
    if (s == HS_OK) {
        /* within a level: slow partners only; searching an earlier level: all */
        hs_pair_search ps = {.g = g,
                             .tx = a.mx,
                             .ty = a.my,
                             .tr = a.mr,
                             .fast = a.fast,
                             .dx = a.dx,
                             .dy = a.dy,
                             .collide = collide};
        for (int l = 0; l < g->nlevels; l++)
            for (int c = 0; c < 2; c++)
                ps.ext[l][c] =
                    ((double)g->lv[l].rmax + a.dmax[l >= g->nsmall][c]) * (1.0 + 0x1p-20);
        hs_pair_list *more = NULL;
        if (hs_pair_search_run(&ps, par, lists, nl) ||
            !(more = realloc(*lists, (*nl + 1) * sizeof *more))) {
            s = HS_E_NOMEM;
        } else { /* one more list: the pairs of two fast circles */
            *lists = more;
            memset(&more[*nl], 0, sizeof *more);
            more[*nl].carry = 1;
            *nl += 1;
            if (fast_pairs(g, &a, collide, opts, par, &more[*nl - 1]))
                s = HS_E_NOMEM;
        }
    }
    free_arrays(&a);
    return s;
}

typedef struct answer_call {
    const hs_pair_rec *ans;
    const uint32_t *word;
    size_t total;
    hs_swept_pairs *out;
} answer_call;

static void answer_range(void *ctx, size_t lo, size_t hi, int slot)
{
    const answer_call *c = (const answer_call *)ctx;
    hs_swept_pairs *out = c->out;
    (void)slot;
    for (size_t m = lo; m < hi; m++) {
        if (m + AHEAD < c->total)
            hs_prefetch(&c->ans[c->word[m + AHEAD]]);
        const hs_swept_hit h = c->ans[c->word[m]].swept;
        out->t[m] = h.t;
        out->nx[m] = h.nx;
        out->ny[m] = h.ny;
        out->overlapping[m] = (uint8_t)h.overlapping;
    }
}

/* The pairs in (i, j) order with their answers (hs_pairs_assemble_carried) and, in a periodic
 * box, their shifts; then the answers gathered to them. */
static hs_status assemble(hs_pair_list *lists, size_t nl, size_t total, size_t n, const hs_par *par,
                          const hs_grid *g, hs_swept_pairs *out)
{
    hs_pair_rec *ans = NULL;
    uint32_t *word = NULL;
    out->i = hs_grid_alloc_lines(total, sizeof(uint32_t));
    out->j = hs_grid_alloc_lines(total, sizeof(uint32_t));
    int oom = !out->i || !out->j ||
              hs_pairs_assemble_carried(lists, nl, total, n, par, out->i, out->j, &ans, &word);
    if (!oom && g->periodic)
        oom = hs_pairs_shifts(lists, nl, out->i, out->j, total, par, &out->sx, &out->sy);
    hs_pair_lists_clear(lists, nl); /* memory for the answers */
    out->count = total;
    out->t = oom ? NULL : hs_grid_alloc_lines(total, sizeof *out->t);
    out->nx = oom ? NULL : hs_grid_alloc_lines(total, sizeof *out->nx);
    out->ny = oom ? NULL : hs_grid_alloc_lines(total, sizeof *out->ny);
    out->overlapping = oom ? NULL : hs_grid_alloc_lines(total, 1);
    oom = oom || !out->t || !out->nx || !out->ny || !out->overlapping;
    if (!oom) {
        const answer_call c = {ans, word, total, out};
        hs_par_range(par, total, HS_PAIR_COPY_GRAIN, answer_range, (void *)&c);
    }
    free(word);
    free(ans);
    return oom ? HS_E_NOMEM : HS_OK;
}

hs_status hs_grid_swept_pairs(const hs_grid *g, const float *dx, const float *dy,
                              const hs_batch_opts *opts, hs_swept_pairs *out)
{
    return hs_grid_swept_pairs_filtered(g, dx, dy, NULL, opts, out);
}

hs_status hs_grid_swept_pairs_filtered(const hs_grid *g, const float *dx, const float *dy,
                                       const uint32_t *collide, const hs_batch_opts *opts,
                                       hs_swept_pairs *out)
{
    if (g == NULL || out == NULL)
        return HS_E_NULL;
    memset(out, 0, sizeof *out);
    const size_t n = g->n;
    if (n > 0 && (dx == NULL || dy == NULL))
        return HS_E_NULL;
    if (opts && opts->threads < 0)
        return HS_E_RANGE;
    hs_status s = hs_check_displacements(dx, dy, n);
    if (s != HS_OK || n < 2)
        return s;
    hs_par team = opts ? hs_par_make(opts->threads, opts->tasks) : hs_par_make(0, NULL);
    if (n < PAR_MIN) /* a team would only wait */
        team.threads = 1;
    hs_pair_list *lists = NULL;
    size_t nl = 0, total = 0;
    s = search(g, dx, dy, collide, opts, &team, &lists, &nl);
    for (size_t b = 0; s == HS_OK && b < nl; b++)
        total += lists[b].len;
    if (s == HS_OK && total > HS_MAX_COUNT) /* each answer is named by a 32-bit word */
        s = HS_E_TOO_MANY;
    if (s == HS_OK && total > 0)
        s = assemble(lists, nl, total, n, &team, g, out);
    hs_pair_lists_free(lists, nl);
    if (s != HS_OK)
        hs_swept_pairs_free(out);
    return s;
}

void hs_swept_pairs_free(hs_swept_pairs *p)
{
    if (p == NULL)
        return;
    free(p->i);
    free(p->j);
    free(p->t);
    free(p->nx);
    free(p->ny);
    free(p->overlapping);
    free(p->sx);
    free(p->sy);
    memset(p, 0, sizeof *p);
}
