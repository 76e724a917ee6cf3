/* SPDX-License-Identifier: MIT */
/* Swept pairs, hs_grid_swept_pairs: the pairs of moving circles that touch during a step.
 *
 * Broadphase: circle i sweeps the capsule from ci to ci + di of radius ri, which lies in the
 * disc centred at ci + di / 2 of radius ri + |di| / 2. A temporary grid of those discs and
 * hs_grid_pairs on it give every candidate: two capsules that touch have overlapping discs.
 * The grid's level of large circles takes the few fast movers, so they do not widen every
 * slow circle's search. Narrowphase: each candidate tested exactly (swept_test), in order, so
 * the output keeps hs_grid_pairs' (i, j) order and is independent of the team.
 *
 * The discs are computed in double, halved and rounded outward to float: halved, so that a
 * circle and displacement at the range limit (|c| + |d| / 2 up to 1.5 HS_MAX_COORD) still
 * make a valid circle; overlap is invariant under the scale, and the outward rounding keeps
 * every float disc around its exact disc, so the candidates hold every pair that touches. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "core.h"
#include "grid/build.h"
#include "grid/layout.h"
#include "grid/overlap.h"
#include "grid/storage.h"
#include "prefetch.h"
#include "tuning.h"

/* A circle and its displacement, at the caller's index: the narrowphase reads both circles of
 * a candidate from one cache line each. */
typedef struct swept_rec {
    float x, y, r, dx, dy, pad[3];
} swept_rec;

/* Circles per thread below which a pass runs on the calling thread. */
enum { PAR_MIN = 16384 };

/* HS_OK, or the first bad displacement's code: NaN or infinite, then a length above
 * HS_MAX_COORD. A branch-free pass per block, rescanned only when a block fails. */
static hs_status check_displacements(const float *dx, const float *dy, size_t n)
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

/* v rounded to a float no smaller. */
static inline float round_up(double v)
{
    const float f = (float)v;
    return (double)f < v ? nextafterf(f, INFINITY) : f;
}

/* Storage positions ahead of the one read whose caller's index is prefetched. */
enum { AHEAD = 16 };

/* The records of every circle, at the caller's index: the grid's storage read in order, each
 * record written (and the displacement read) where the caller's index says. */
static void make_records(const hs_grid *g, const float *dx, const float *dy, swept_rec *rec,
                         int threads)
{
    const ptrdiff_t n = (ptrdiff_t)g->n;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (ptrdiff_t pos = 0; pos < n; pos++) {
        if (pos + AHEAD < n) {
            const uint32_t ahead = g->id[pos + AHEAD];
            hs_prefetch_write(&rec[ahead]);
            hs_prefetch(&dx[ahead]);
            hs_prefetch(&dy[ahead]);
        }
        const uint32_t id = g->id[pos];
        rec[id] = (swept_rec){g->x[pos], g->y[pos], g->r[pos], dx[id], dy[id], {0.0f, 0.0f, 0.0f}};
    }
}

/* The halved swept discs, at the caller's index. The radius grows by a relative 2^-20 and by
 * the rounding of the centre (2^-23 of its coordinates' size, and 2^-148 where they are
 * subnormal): more than every rounding of the computation. */
static void make_discs(const swept_rec *rec, size_t n, float *sx, float *sy, float *sr, int threads)
{
#pragma omp parallel for num_threads(threads) schedule(static)
    for (ptrdiff_t i = 0; i < (ptrdiff_t)n; i++) {
        const swept_rec c = rec[i];
        const double len = sqrt((double)c.dx * c.dx + (double)c.dy * c.dy);
        const double mx = 0.5 * ((double)c.x + 0.5 * c.dx), my = 0.5 * ((double)c.y + 0.5 * c.dy);
        const double R = 0.5 * ((double)c.r + 0.5 * len);
        sx[i] = (float)mx;
        sy[i] = (float)my;
        sr[i] = round_up(R * (1.0 + 0x1p-20) + (fabs(mx) + fabs(my)) * 0x1p-23 + 0x1p-148);
    }
}

typedef struct swept_hit {
    float t, nx, ny;
    uint8_t overlapping;
} swept_hit;

/* Relative motions whose |d|^2 is subnormal are rescaled by this, their interval by its
 * inverse (exact: powers of two). */
#define HS_SWEPT_RESCALE 0x1p64f

/* Circle a (index i) and b (index j > i): 1 and *h filled when they touch in [0, 1]. The
 * segment query a + t (da - db) against the circle (b, ra + rb), as the batch calls prepare
 * it (hs_kq_make, hs_pair_hits, hs_pair_times). */
static inline int swept_test(const swept_rec *a, const swept_rec *b, swept_hit *h)
{
    const float Dx = a->dx - b->dx, Dy = a->dy - b->dy;
    float t = 0.0f;
    h->overlapping = (uint8_t)hs_discs_overlap(a->x, a->y, a->r, b->x, b->y, b->r);
    if (!h->overlapping) {
        hs_query q = {{a->x, a->y}, {Dx, Dy}, 0.0f, 1.0f, 0.0f};
        const float R = a->r + b->r, dd = Dx * Dx + Dy * Dy;
        float scale = 1.0f;
        if (dd < FLT_MIN) {
            q.d.x = Dx * HS_SWEPT_RESCALE;
            q.d.y = Dy * HS_SWEPT_RESCALE;
            q.tmax = 1.0f / HS_SWEPT_RESCALE;
            scale = HS_SWEPT_RESCALE;
            const float dd2 = q.d.x * q.d.x + q.d.y * q.d.y;
            if (dd2 < FLT_MIN)
                return 0; /* no motion (or below 2^-127): apart all the step */
        }
        const hs_kq k = hs_kq_make(q, HS_SOLID, 0u);
        if (!hs_pair_hits(&k, b->x, b->y, R))
            return 0;
        t = hs_pair_times(&k, b->x, b->y, R).t * scale;
    }
    /* from i towards j at t: (cj + t dj) - (ci + t di) */
    const hs_vec2 none = {0.0f, 0.0f};
    hs_vec2 u = hs_unit_or((b->x - a->x) - t * Dx, (b->y - a->y) - t * Dy, none);
    if (u.x == 0.0f && u.y == 0.0f)
        u = hs_unit_or(Dx, Dy, (hs_vec2){1.0f, 0.0f});
    h->t = t;
    h->nx = u.x;
    h->ny = u.y;
    return 1;
}

/* Candidates [lo, hi) of out tested; the pairs that touch written from lo on, in order (at
 * most where they are read). Returns how many. */
static size_t filter_range(const swept_rec *rec, hs_swept_pairs *out, size_t lo, size_t hi)
{
    size_t w = lo;
    for (size_t k = lo; k < hi; k++) {
        if (k + AHEAD < hi)
            hs_prefetch(&rec[out->j[k + AHEAD]]);
        const uint32_t i = out->i[k], j = out->j[k];
        swept_hit h;
        if (!swept_test(&rec[i], &rec[j], &h))
            continue;
        out->i[w] = i;
        out->j[w] = j;
        out->t[w] = h.t;
        out->nx[w] = h.nx;
        out->ny[w] = h.ny;
        out->overlapping[w] = h.overlapping;
        w++;
    }
    return w - lo;
}

static void move_down(hs_swept_pairs *out, size_t to, size_t from, size_t m)
{
    memmove(out->i + to, out->i + from, m * sizeof *out->i);
    memmove(out->j + to, out->j + from, m * sizeof *out->j);
    memmove(out->t + to, out->t + from, m * sizeof *out->t);
    memmove(out->nx + to, out->nx + from, m * sizeof *out->nx);
    memmove(out->ny + to, out->ny + from, m * sizeof *out->ny);
    memmove(out->overlapping + to, out->overlapping + from, m);
}

/* Every candidate of out (count of them) tested on the team, in chunks, each chunk's pairs
 * kept in place and then moved together: the order is the candidates'. Returns 1 when out of
 * memory. */
static int filter_pairs(const swept_rec *rec, hs_swept_pairs *out, int threads)
{
    const size_t m = out->count;
    const size_t nch = (m + HS_SWEPT_CHUNK - 1) / HS_SWEPT_CHUNK;
    size_t *kept = malloc((nch ? nch : 1) * sizeof *kept);
    if (kept == NULL)
        return 1;
    if (nch < 2)
        threads = 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (ptrdiff_t c = 0; c < (ptrdiff_t)nch; c++) {
        const size_t lo = (size_t)c * HS_SWEPT_CHUNK,
                     hi = lo + HS_SWEPT_CHUNK < m ? lo + HS_SWEPT_CHUNK : m;
        kept[c] = filter_range(rec, out, lo, hi);
    }
    size_t at = 0;
    for (size_t c = 0; c < nch; c++) {
        if (at != c * HS_SWEPT_CHUNK)
            move_down(out, at, c * HS_SWEPT_CHUNK, kept[c]);
        at += kept[c];
    }
    out->count = at;
    free(kept);
    return 0;
}

/* The candidates: hs_grid_pairs on a grid of the swept discs (built on the team; the grid is
 * the same for every team). */
static hs_status candidates(const float *sx, const float *sy, const float *sr, size_t n,
                            const hs_batch_opts *opts, int threads, hs_pairs *cand)
{
    const hs_circles cs = {.x = sx, .y = sy, .r = sr, .mask = NULL, .n = n, .owned = NULL};
    hs_grid *g2 = NULL;
    hs_status s = hs_grid_build_split(&cs, threads, HS_SWEPT_SPLIT_QUANTILE, &g2);
    if (s == HS_OK)
        s = hs_grid_pairs(g2, opts, cand);
    hs_grid_destroy(g2);
    return s;
}

hs_status hs_grid_swept_pairs(const hs_grid *g, const float *dx, const float *dy,
                              const hs_batch_opts *opts, hs_swept_pairs *out)
{
    if (g == NULL || out == NULL)
        return HS_E_NULL;
    memset(out, 0, sizeof *out);
    const size_t n = g->n;
    if (n > 0 && (dx == NULL || dy == NULL))
        return HS_E_NULL;
    int threads = opts ? opts->threads : 0;
    if (threads < 0)
        return HS_E_RANGE;
    hs_status s = check_displacements(dx, dy, n);
    if (s != HS_OK || n < 2)
        return s;
    if (threads == 0)
        threads = omp_get_max_threads();
    const int pass_threads = n / PAR_MIN < (size_t)threads ? (int)(n / PAR_MIN) + 1 : threads;

    swept_rec *rec = hs_grid_alloc_lines(n, sizeof *rec);
    float *sx = hs_grid_alloc_lines(n, sizeof *sx), *sy = hs_grid_alloc_lines(n, sizeof *sy);
    float *sr = hs_grid_alloc_lines(n, sizeof *sr);
    hs_pairs cand = {NULL, NULL, 0};
    s = rec && sx && sy && sr ? HS_OK : HS_E_NOMEM;
    if (s == HS_OK) {
        make_records(g, dx, dy, rec, pass_threads);
        make_discs(rec, n, sx, sy, sr, pass_threads);
        s = candidates(sx, sy, sr, n, opts, threads, &cand);
    }
    free(sx);
    free(sy);
    free(sr);
    if (s == HS_OK && cand.count > 0) {
        out->i = cand.i;
        out->j = cand.j;
        out->count = cand.count;
        cand.i = cand.j = NULL;
        out->t = malloc(out->count * sizeof *out->t);
        out->nx = malloc(out->count * sizeof *out->nx);
        out->ny = malloc(out->count * sizeof *out->ny);
        out->overlapping = malloc(out->count);
        if (!out->t || !out->nx || !out->ny || !out->overlapping || filter_pairs(rec, out, threads))
            s = HS_E_NOMEM;
    }
    hs_pairs_free(&cand);
    free(rec);
    if (s != HS_OK || out->count == 0) /* no pairs: no arrays, as hs_grid_pairs */
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
    memset(p, 0, sizeof *p);
}
