/* SPDX-License-Identifier: MIT */
/* Queries against moving circles (hs_batch_opts.disp_x, disp_y): circle i stands at
 * c_i + t d_i when the query is at P(t) = a + t d, so the query hits it when a + t (d - d_i)
 * hits the circle standing still, which hs_intersect_circle decides.
 *
 * Broadphase: over the batch's times [t0, t1] (the valid queries' smallest tmin and largest
 * tmax), circle i stays in the disc centred at c_i + m d_i, m = (t0 + t1) / 2, of radius
 * r_i + h |d_i|, h = (t1 - t0) / 2. A grid of those discs (the big ones of fast movers on its
 * level of large circles, so they do not slow the others) gives each query its candidates: the
 * query's own all-hits walk there, solid, with its thickness. A point of the query within
 * r_i + q of the moving circle lies within r_i + q of that disc, so every circle the query
 * hits is a candidate; the discs are computed in double and rounded outward with a margin far
 * above the walk's float rounding. Narrowphase: each candidate by hs_intersect_circle in
 * scalar arithmetic, so the answers depend neither on the ISA level nor on the thread count.
 * Cost: one grid build of the discs per call (24 bytes per circle besides the grid), the
 * candidates' all-hits walk, then one exact test per candidate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch/all_hits.h"
#include "batch/driver.h"
#include "batch/workspace.h"
#include "grid/layout.h"
#include "grid/moving.h"
#include "core.h"
#include "grid/swept.h"
#include "query_prep.h"
#include "tuning.h"

/* The circles in the caller's order, as they stand with their displacements (one record
 * each: a candidate's test reads one line, in whatever order the candidates come) and as
 * discs over the batch's times (cx, cy, cr: the discs' centres and radii, the grid's input). */
typedef struct moving_circles {
    hs_moving *c;
    float *cx, *cy, *cr;
    uint32_t *mask;
} moving_circles;

static void moving_circles_free(moving_circles *m)
{
    free(m->c);
    free(m->cx);
    free(m->cy);
    free(m->cr);
    free(m->mask);
    memset(m, 0, sizeof *m);
}

/* Circle i's disc over the times mid -+ half, rounded outward: its centre's rounding and a
 * relative 2^-16 of its coordinates (far above the few ulps the walk's float test loses). */
static void moving_disc(float x, float y, float r, float dx, float dy, double mid, double half,
                        float *cx, float *cy, float *cr)
{
    const double X = x + mid * dx, Y = y + mid * dy;
    *cx = (float)X;
    *cy = (float)Y;
    const double shift = fabs((double)*cx - X) + fabs((double)*cy - Y);
    const double R = r + half * sqrt((double)dx * dx + (double)dy * dy) + shift;
    *cr = nextafterf((float)(R + 0x1p-16 * (fabs(X) + fabs(Y) + R)), INFINITY);
}

/* g's circles in the caller's order, and their discs over the times [t0, t1]. */
static hs_status moving_circles_make(const hs_grid *g, const float *dx, const float *dy, double t0,
                                     double t1, moving_circles *m)
{
    const size_t n = g->n;
    memset(m, 0, sizeof *m);
    m->c = malloc((n ? n : 1) * sizeof *m->c);
    m->cx = malloc(n * sizeof *m->cx);
    m->cy = malloc(n * sizeof *m->cy);
    m->cr = malloc(n * sizeof *m->cr);
    m->mask = g->mask ? malloc(n * sizeof *m->mask) : NULL;
    if (!m->c || !m->cx || !m->cy || !m->cr || (g->mask && !m->mask)) {
        moving_circles_free(m);
        return HS_E_NOMEM;
    }
    const double mid = 0.5 * (t0 + t1), half = 0.5 * (t1 - t0);
    for (size_t p = 0; p < n; p++) {
        const uint32_t i = g->id[p];
        m->c[i] = (hs_moving){g->x[p], g->y[p], g->r[p], dx[i], dy[i]};
        if (m->mask)
            m->mask[i] = g->mask[p];
        moving_disc(g->x[p], g->y[p], g->r[p], dx[i], dy[i], mid, half, &m->cx[i], &m->cy[i],
                    &m->cr[i]);
    }
    return HS_OK;
}

/* Each query's validity into ok (1: valid, with a finite interval, as moving circles need),
 * the valid queries' times [*t0, *t1] (empty when none is valid), and whether some query
 * valid for standing circles has an infinite interval (a ray or line: invalid here). */
static int moving_times(const hs_queries *qs, uint8_t *ok, double *t0, double *t1)
{
    double lo = INFINITY, hi = -INFINITY;
    int unbounded = 0;
    for (size_t i = 0; i < qs->count; i++) {
        const hs_query q = hs_query_at(qs, i);
        const int valid = hs_query_validate(q) == HS_OK;
        ok[i] = valid && isfinite(q.tmin) && isfinite(q.tmax);
        unbounded |= valid && !ok[i];
        if (ok[i]) {
            lo = q.tmin < lo ? q.tmin : lo;
            hi = q.tmax > hi ? q.tmax : hi;
        }
    }
    *t0 = lo;
    *t1 = hi;
    return unbounded;
}

/* Whether query i can take moving circles; if not, it is counted invalid in tally. */
static int moving_valid(const uint8_t *ok, size_t i, hs_tally *tally)
{
    if (ok[i])
        return 1;
    tally->invalid++;
    tally->first = i < tally->first ? i : tally->first;
    return 0;
}

/* One call's data: the circles, their displacements, the semantics and each query's
 * candidates. */
typedef struct moving_call {
    const hs_queries *qs;
    const uint8_t *ok; /* each query's validity (moving_times) */
    const moving_circles *m;
    hs_semantics sem;
    const hs_hits *cand;
} moving_call;

/* Query q relative to circle j, prepared as the batch kernels prepare a query (core.h): the
 * pair test and entry time on it are then theirs, so a circle standing still gets the same
 * bits as on the standing walk. A relative motion whose |d|^2 is below FLT_MIN counts as none
 * (the query then stands still relative to the circle). */
static hs_kq moving_kq(const moving_call *c, hs_query q, uint32_t j)
{
    q.d.x -= c->m->c[j].dx;
    q.d.y -= c->m->c[j].dy;
    if (!(q.d.x * q.d.x + q.d.y * q.d.y >= FLT_MIN))
        q.d.x = q.d.y = 0.0f;
    return hs_kq_make(q, c->sem, 0u);
}

/* Query q against circle j: 1 on a hit, with its entry time in *t. */
static int moving_hit(const moving_call *c, hs_query q, uint32_t j, float *t)
{
    const hs_kq k = moving_kq(c, q, j);
    const hs_moving *mc = &c->m->c[j];
    const float cx = mc->x, cy = mc->y, r = mc->r;
    if (!hs_pair_hits(&k, cx, cy, r))
        return 0;
    *t = hs_pair_times(&k, cx, cy, r).t;
    return 1;
}

/* Query i's closest hit among its candidates (HS_NONE: none, or the query is not valid for
 * moving circles, counted in tally), its t, point and normal in *h. With first, any hit will
 * do. */
static uint32_t moving_closest(const moving_call *c, size_t i, int first, hs_hit *h,
                               hs_tally *tally)
{
    const hs_query q = hs_query_at(c->qs, i);
    if (!moving_valid(c->ok, i, tally))
        return HS_NONE;
    uint32_t best = HS_NONE;
    float bt = INFINITY;
    for (size_t k = c->cand->offsets[i]; k < c->cand->offsets[i + 1]; k++) {
        const uint32_t j = c->cand->idx[k];
        float t;
        if (moving_hit(c, q, j, &t) && (best == HS_NONE || t < bt || (t == bt && j < best))) {
            best = j;
            bt = t;
            if (first)
                break;
        }
    }
    tally->tests += c->cand->offsets[i + 1] - c->cand->offsets[i];
    if (best != HS_NONE && !first) {
        const hs_kq k = moving_kq(c, q, best);
        h->t = bt;
        hs_hit_geometry(&k, c->m->c[best].x, c->m->c[best].y, bt, &h->point, &h->normal);
        h->point.x = q.a.x + bt * q.d.x; /* the query's own point, not the relative one */
        h->point.y = q.a.y + bt * q.d.y;
    }
    return best;
}

/* Query i's number of hits. */
static uint32_t moving_count(const moving_call *c, size_t i, hs_tally *tally)
{
    const hs_query q = hs_query_at(c->qs, i);
    if (!moving_valid(c->ok, i, tally))
        return 0;
    uint32_t n = 0;
    for (size_t k = c->cand->offsets[i]; k < c->cand->offsets[i + 1]; k++) {
        const uint32_t j = c->cand->idx[k];
        const hs_kq kq = moving_kq(c, q, j);
        n += (uint32_t)hs_pair_hits(&kq, c->m->c[j].x, c->m->c[j].y, c->m->c[j].r);
    }
    tally->tests += c->cand->offsets[i + 1] - c->cand->offsets[i];
    return n;
}

/* All (hs_hits_range_fn): queries lo .. hi-1's hits appended to buf. */
static hs_status moving_all_range(const void *ctx, size_t lo, size_t hi, int tid, hs_hitbuf *buf,
                                  uint32_t *count, hs_tally *tally)
{
    (void)tid;
    const moving_call *c = ctx;
    for (size_t i = lo; i < hi; i++) {
        const size_t n = c->cand->offsets[i + 1] - c->cand->offsets[i];
        count[i] = 0;
        const hs_query q = hs_query_at(c->qs, i);
        if (!moving_valid(c->ok, i, tally))
            continue;
        if (buf->cap - buf->len < n && hs_hitbuf_reserve(buf, n) != HS_OK)
            return HS_E_NOMEM;
        for (size_t k = c->cand->offsets[i]; k < c->cand->offsets[i + 1]; k++) {
            const uint32_t j = c->cand->idx[k];
            float t;
            if (moving_hit(c, q, j, &t)) {
                buf->id[buf->len] = j;
                buf->t[buf->len++] = t;
                count[i]++;
            }
        }
        tally->tests += n;
    }
    return HS_OK;
}

/* Closest, any or count of every query, on the team, in blocks of HS_MOVING_BLOCK queries. */
typedef struct moving_team {
    const moving_call *c;
    const moving_out *o;
    size_t n;
    hs_par_tally sum;
} moving_team;

static void moving_block(void *ctx, size_t k, int slot)
{
    moving_team *mt = (moving_team *)ctx;
    const moving_call *c = mt->c;
    const moving_out *o = mt->o;
    const size_t lo = k * HS_MOVING_BLOCK;
    const size_t hi = mt->n - lo > HS_MOVING_BLOCK ? lo + HS_MOVING_BLOCK : mt->n;
    hs_tally t = HS_TALLY_INIT;
    (void)slot;
    for (size_t i = lo; i < hi; i++) {
        if (o->mode == HS_MOVING_COUNT) {
            o->count[i] = moving_count(c, i, &t);
            continue;
        }
        hs_hit h = {0};
        const uint32_t j = moving_closest(c, i, o->mode == HS_MOVING_ANY, &h, &t);
        const int hit = j != HS_NONE;
        if (o->mode == HS_MOVING_ANY) {
            o->hit[i] = (uint8_t)hit;
            continue;
        }
        o->co.idx[i] = j;
        o->co.t[i] = hit ? h.t : NAN;
        if (o->co.px)
            o->co.px[i] = hit ? h.point.x : NAN;
        if (o->co.py)
            o->co.py[i] = hit ? h.point.y : NAN;
        if (o->co.nx)
            o->co.nx[i] = hit ? h.normal.x : NAN;
        if (o->co.ny)
            o->co.ny[i] = hit ? h.normal.y : NAN;
    }
    hs_par_tally_add(&mt->sum, &t);
}

static hs_status moving_answer(const moving_call *c, const hs_batch_setup *b, const moving_out *o)
{
    moving_team mt = {c, o, c->qs->count, {0, 0, 0}};
    hs_par_tally_init(&mt.sum);
    hs_par_for(&b->par, (mt.n + HS_MOVING_BLOCK - 1) / HS_MOVING_BLOCK, moving_block, &mt);
    const hs_tally sum = hs_par_tally_get(&mt.sum);
    return hs_batch_end(b, &sum);
}

/* Whether every displacement is 0. */
static int moving_none(const float *dx, const float *dy, size_t n)
{
    int none = 1;
    for (size_t i = 0; i < n && none; i++)
        none = dx[i] == 0.0f && dy[i] == 0.0f;
    return none;
}

/* The call on the circles standing still (every displacement 0): their own answers. */
static hs_status moving_standing(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                                 const moving_out *o)
{
    hs_batch_opts still = *opts;
    still.disp_x = still.disp_y = NULL;
    switch (o->mode) {
    case HS_MOVING_CLOSEST: return hs_grid_closest(g, qs, &still, o->co);
    case HS_MOVING_ANY: return hs_grid_any(g, qs, &still, o->hit);
    case HS_MOVING_COUNT: return hs_grid_count_hits(g, qs, &still, o->count);
    default:
        return o->place ? hs_grid_all_into(g, qs, &still, o->place->fn, o->place->ctx)
                        : hs_grid_all(g, qs, &still, o->hits);
    }
}

/* Whether o lacks an output the call needs: closest's idx and t, any's hit, count's count
 * (none with no query, as the standing calls), all's out or place. */
static int moving_out_missing(const hs_queries *qs, const moving_out *o)
{
    switch (o->mode) {
    case HS_MOVING_CLOSEST: return qs->count > 0 && (o->co.idx == NULL || o->co.t == NULL);
    case HS_MOVING_ANY: return qs->count > 0 && o->hit == NULL;
    case HS_MOVING_COUNT: return qs->count > 0 && o->count == NULL;
    default: return o->hits == NULL && o->place == NULL;
    }
}

int hs_moving_asked(const hs_batch_opts *opts)
{
    return opts != NULL && (opts->disp_x != NULL || opts->disp_y != NULL);
}

hs_status hs_moving_query(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                          const moving_out *o)
{
    if (g == NULL || opts->disp_x == NULL || opts->disp_y == NULL)
        return HS_E_NULL;
    if (g->periodic)
        return HS_E_UNSUPPORTED; /* moving circles in a periodic box: not yet */
    hs_batch_setup b;
    hs_status s = hs_batch_begin(qs, opts, 64, &b);
    if (s != HS_OK)
        return s;
    if (moving_out_missing(qs, o))
        return HS_E_NULL;
    s = hs_check_displacements(opts->disp_x, opts->disp_y, g->n);
    if (s != HS_OK)
        return s;
    uint8_t *ok = malloc(qs->count ? qs->count : 1);
    if (ok == NULL)
        return HS_E_NOMEM;
    double t0, t1;
    const int unbounded = moving_times(qs, ok, &t0, &t1);
    /* no displacement: the standing call itself, unless a ray or line must be refused (a
     * query's validity does not depend on the displacements' values) */
    if (!unbounded && moving_none(opts->disp_x, opts->disp_y, g->n)) {
        free(ok);
        return moving_standing(g, qs, opts, o);
    }
    if (!(t0 <= t1))
        t0 = t1 = 0.0; /* no valid query: every one is answered as a miss */
    moving_circles m;
    if (moving_circles_make(g, opts->disp_x, opts->disp_y, t0, t1, &m) != HS_OK) {
        free(ok);
        return HS_E_NOMEM;
    }
    /* the candidates: the queries' all-hits walk (solid) on a grid of the discs */
    hs_circles *cs = NULL;
    hs_grid *dg = NULL;
    hs_hits cand = {0};
    s = hs_circles_borrow(m.cx, m.cy, m.cr, m.mask, g->n, &cs, NULL);
    if (s == HS_OK) {
        hs_grid_opts go;
        memset(&go, 0, sizeof go);
        go.threads = opts->threads;
        go.tasks = opts->tasks;
        s = hs_grid_build(cs, &go, &dg);
    }
    if (s == HS_OK) {
        hs_batch_opts co = *opts;
        co.sem = HS_SOLID;
        co.stats = NULL;
        co.ws = NULL;
        co.disp_x = co.disp_y = NULL;
        s = hs_grid_all(dg, qs, &co, &cand);
        s = s == HS_E_INVALID_QUERY ? HS_OK : s; /* counted below, by the exact pass */
    }
    if (s == HS_OK) {
        const moving_call c = {qs, ok, &m, opts->sem, &cand};
        if (o->mode == HS_MOVING_ALL) {
            hs_wsref w;
            s = hs_ws_open(opts, &w);
            if (s == HS_OK)
                s = hs_all_hits(&b, qs->count, moving_all_range, &c, w.ws, NULL, o->hits, o->place);
            hs_ws_close(&w);
        } else
            s = moving_answer(&c, &b, o);
    }
    hs_hits_free(&cand);
    hs_grid_destroy(dg);
    hs_circles_destroy(cs);
    moving_circles_free(&m);
    free(ok);
    return s;
}
