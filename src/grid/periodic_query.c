/* SPDX-License-Identifier: MIT */
/* The periodic engine (engine.h): segment queries in a periodic box.
 * A query sees the box tiled over the plane: it hits the image c + s L of a circle (s a shift
 * in periods) when the query moved by -s L hits c. Each query is cut into pieces, one per
 * image of the box that its path passes within reach of (the largest radius plus its
 * thickness, and the grid's pad): the query moved by -s L over the interval of t where it is
 * that near to the box's image. Outside that interval no circle of the image can touch the
 * query, so a piece's answers are the query's own: entry times in the query's parameter, and
 * no hit at a start the cut made. Closest, any and count: the pieces of a batch go to the
 * plain walk (plain.h) as one batch, and each query's answer is merged from its pieces':
 * closest the least (t, index), any any of them, count every image hit (a circle met again
 * after the query wraps around the box counts again). All: the pieces are made in the
 * batch's locality order, so a range of positions has its pieces in one stretch, which the
 * walker's all_range answers, and hs_all_hits sorts and lays out each query's hits.
 * Against moving circles (hs_batch_opts.disp_x / disp_y) a circle's motion takes it up to
 * T dmax out of the box over the query's interval (T the largest |t|, dmax the largest
 * displacement), so the reach grows by that much; only finite intervals are valid; the
 * pieces go to the moving engine (closest, any, count) or the walker's moving_range (all),
 * each piece keeping the query's parameter, so the relative motion is the query's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch/parallel.h"
#include "tuning.h"

#include "grid/periodic.h"
#include "grid/plain.h"
#include "query_prep.h"

/* One piece of a query: the image (its offset s L in the world) and the interval of t. */
typedef struct piece {
    double ox, oy;
    float t0, t1;
} piece;

/* One axis of a query: P(t) = a + t d over [t0, t1] in a box [lo, hi] of period L (0: the
 * axis is not periodic), within reach e. */
typedef struct axis {
    double a, d, lo, hi, L, e;
} axis;

/* The shifts s whose image [lo + s L, hi + s L] the path over [t0, t1] passes within e of:
 * s0 .. s1 (both 0 on an axis that is not periodic). 0, or 1 when they are unbounded (an
 * infinite interval across a periodic axis). */
static int shift_range(const axis *x, double t0, double t1, double *s0, double *s1)
{
    *s0 = *s1 = 0.0;
    if (x->L <= 0.0)
        return 0;
    double u0 = x->a, u1 = x->a;
    if (x->d != 0.0) {
        if (!isfinite(t0) || !isfinite(t1))
            return 1;
        u0 = fmin(x->a + t0 * x->d, x->a + t1 * x->d);
        u1 = fmax(x->a + t0 * x->d, x->a + t1 * x->d);
    }
    *s0 = ceil((u0 - x->e - x->hi) / x->L);
    *s1 = floor((u1 + x->e - x->lo) / x->L);
    return 0;
}

/* The part of [t0, t1] where the path lies within e of the image s; empty when *u0 > *u1. */
static void shift_interval(const axis *x, double s, double t0, double t1, double *u0, double *u1)
{
    *u0 = t0;
    *u1 = t1;
    if (x->L <= 0.0 || x->d == 0.0)
        return;
    double ta = (x->lo + s * x->L - x->e - x->a) / x->d;
    double tb = (x->hi + s * x->L + x->e - x->a) / x->d;
    if (x->d < 0.0) {
        const double t = ta;
        ta = tb;
        tb = t;
    }
    *u0 = fmax(t0, ta);
    *u1 = fmin(t1, tb);
}

/* The float interval holding [u0, u1], within the query's own [tmin, tmax]. */
static void round_out(double u0, double u1, const hs_query *q, float *t0, float *t1)
{
    float f0 = (float)u0, f1 = (float)u1;
    if ((double)f0 > u0)
        f0 = nextafterf(f0, -INFINITY);
    if ((double)f1 < u1)
        f1 = nextafterf(f1, INFINITY);
    *t0 = f0 > q->tmin ? f0 : q->tmin;
    *t1 = f1 < q->tmax ? f1 : q->tmax;
}

/* The pieces of the valid query q, up to HS_PERIODIC_MAX_IMAGES into out, against circles
 * moving up to dmax (0 for standing ones); their number, or HS_PERIODIC_MAX_IMAGES + 1 when
 * there are more. */
static size_t query_pieces(const hs_grid *g, const hs_query *q, double dmax, piece *out)
{
    const size_t max = HS_PERIODIC_MAX_IMAGES;
    double rmax = 0.0;
    for (int l = 0; l < g->nlevels; l++)
        rmax = fmax(rmax, (double)g->lv[l].rmax);
    double e = rmax + (double)q->q, mag = fabs(q->a.x) + fabs(q->a.y);
    for (int k = 0; k < 4; k++)
        mag += fabs(g->box[k]);
    const double tm = fmax(fabs(q->tmin), fabs(q->tmax));
    if (isfinite(tm)) {
        mag += (fabs(q->d.x) + fabs(q->d.y)) * tm;
        e += tm * dmax;
    }
    e += hs_gpad(mag, e);
    const axis X = {q->a.x, q->d.x, g->box[0], g->box[2], g->period[0], e};
    const axis Y = {q->a.y, q->d.y, g->box[1], g->box[3], g->period[1], e};
    double sx0, sx1, sy0, sy1;
    if (shift_range(&X, q->tmin, q->tmax, &sx0, &sx1) || sx1 - sx0 >= (double)max)
        return max + 1;
    size_t k = 0;
    for (double sx = sx0; sx <= sx1; sx++) {
        double a0, a1;
        shift_interval(&X, sx, q->tmin, q->tmax, &a0, &a1);
        if (!(a0 <= a1))
            continue;
        if (shift_range(&Y, a0, a1, &sy0, &sy1) || sy1 - sy0 >= (double)max)
            return max + 1;
        for (double sy = sy0; sy <= sy1; sy++) {
            double b0, b1;
            shift_interval(&Y, sy, a0, a1, &b0, &b1);
            if (!(b0 <= b1))
                continue;
            if (++k > max)
                return k;
            piece *p = &out[k - 1];
            p->ox = sx * X.L;
            p->oy = sy * Y.L;
            round_out(b0, b1, q, &p->t0, &p->t1);
        }
    }
    return k;
}

/* A batch's pieces, as a batch of their own (qs), those of position k (the caller's query
 * perm[k], or k) being first[k] .. first[k + 1]. */
typedef struct pieces {
    hs_queries qs;
    float *v;         /* the arrays of qs: ax, ay, dx, dy, tmin, tmax, q */
    uint32_t *mask;   /* per piece, when the batch has a mask array */
    uint32_t *ignore; /* per piece, when the batch has an ignore array */
    double *ox, *oy;
    size_t *first;
    size_t invalid, first_invalid;
} pieces;

static void pieces_free(pieces *p)
{
    free(p->v);
    free(p->mask);
    free(p->ignore);
    free(p->ox);
    free(p->oy);
    free(p->first);
}

/* Query i's pieces, at most HS_PERIODIC_MAX_IMAGES (0 for an invalid query, or one with
 * more), written from position at when out is not NULL; dmax < 0: the circles stand still,
 * else they move up to dmax (and an infinite interval is invalid). */
static size_t pieces_of(const hs_grid *g, const hs_queries *qs, size_t i, double dmax, pieces *out,
                        size_t at)
{
    const hs_query q = hs_query_at(qs, i);
    if (!hs_query_surely_valid(q) && hs_query_validate(q) != HS_OK)
        return 0;
    if (dmax >= 0.0 && (!isfinite(q.tmin) || !isfinite(q.tmax)))
        return 0;
    piece buf[HS_PERIODIC_MAX_IMAGES];
    const size_t k = query_pieces(g, &q, dmax > 0.0 ? dmax : 0.0, buf);
    if (k > HS_PERIODIC_MAX_IMAGES)
        return 0;
    for (size_t j = 0; j < k; j++) { /* a query moved beyond HS_MAX_COORD */
        const hs_query qj = {
            {(float)((double)q.a.x - buf[j].ox), (float)((double)q.a.y - buf[j].oy)},
            q.d,
            buf[j].t0,
            buf[j].t1,
            q.q};
        if (!hs_query_surely_valid(qj) && hs_query_validate(qj) != HS_OK)
            return 0;
    }
    for (size_t j = 0; out && j < k; j++) {
        const size_t n = out->qs.count, w = at + j;
        float *v = out->v;
        v[w] = (float)((double)q.a.x - buf[j].ox);
        v[n + w] = (float)((double)q.a.y - buf[j].oy);
        v[2 * n + w] = q.d.x;
        v[3 * n + w] = q.d.y;
        v[4 * n + w] = buf[j].t0;
        v[5 * n + w] = buf[j].t1;
        v[6 * n + w] = q.q;
        if (out->mask)
            out->mask[w] = qs->mask[i];
        if (out->ignore)
            out->ignore[w] = qs->ignore[i];
        out->ox[w] = buf[j].ox;
        out->oy[w] = buf[j].oy;
    }
    return k;
}

/* The pieces of qs into p: HS_OK or HS_E_NOMEM. A query that is invalid, or meets more than
 * HS_PERIODIC_MAX_IMAGES images of the box, has none and is counted invalid. */
typedef struct pieces_call {
    const hs_grid *g;
    const hs_queries *qs;
    const uint32_t *perm; /* position k's query (NULL: k) */
    double dmax;          /* pieces_of's */
    pieces *p;            /* NULL: count them */
    size_t *first;
} pieces_call;

static void pieces_range(void *ctx, size_t lo, size_t hi, int slot)
{
    const pieces_call *c = (const pieces_call *)ctx;
    size_t *first = c->first;
    (void)slot;
    for (size_t k = lo; k < hi; k++) {
        const size_t i = c->perm ? c->perm[k] : k;
        if (c->p == NULL)
            first[k + 1] = pieces_of(c->g, c->qs, i, c->dmax, NULL, 0);
        else if (first[k + 1] > first[k])
            pieces_of(c->g, c->qs, i, c->dmax, c->p, first[k]);
    }
}

static hs_status make_pieces(const hs_grid *g, const hs_queries *qs, const uint32_t *perm,
                             double dmax, const hs_par *par, pieces *p)
{
    const size_t m = qs->count;
    memset(p, 0, sizeof *p);
    p->first = malloc((m + 1) * sizeof *p->first);
    if (p->first == NULL)
        return HS_E_NOMEM;
    size_t *first = p->first;
    const pieces_call count = {g, qs, perm, dmax, NULL, first};
    hs_par_range(par, m, HS_PERIODIC_GRAIN, pieces_range, (void *)&count);
    first[0] = 0;
    p->first_invalid = (size_t)-1;
    for (size_t k = 0; k < m; k++) {
        const size_t i = perm ? perm[k] : k;
        if (first[k + 1] == 0 && p->invalid++ == 0)
            p->first_invalid = i;
        else if (first[k + 1] == 0 && i < p->first_invalid)
            p->first_invalid = i;
        first[k + 1] += first[k];
    }
    const size_t n = first[m], nn = n ? n : 1;
    p->v = malloc(7 * nn * sizeof *p->v);
    p->ox = malloc(nn * sizeof *p->ox);
    p->oy = malloc(nn * sizeof *p->oy);
    p->mask = qs->mask ? malloc(nn * sizeof *p->mask) : NULL;
    p->ignore = qs->ignore ? malloc(nn * sizeof *p->ignore) : NULL;
    if (!p->v || !p->ox || !p->oy || (qs->mask && !p->mask) || (qs->ignore && !p->ignore))
        return HS_E_NOMEM;
    p->qs = (hs_queries){.ax = p->v,
                         .ay = p->v + n,
                         .dx = p->v + 2 * n,
                         .dy = p->v + 3 * n,
                         .tmin = p->v + 4 * n,
                         .tmax = p->v + 5 * n,
                         .q = p->v + 6 * n,
                         .mask = p->mask,
                         .count = n,
                         .mask_all = qs->mask_all,
                         .ignore = p->ignore};
    const pieces_call make = {g, qs, perm, dmax, p, first};
    hs_par_range(par, m, HS_PERIODIC_GRAIN, pieces_range, (void *)&make);
    return HS_OK;
}

/* The status of a call whose pieces were answered with status s: the invalid queries are
 * the batch's (none of the pieces is), and the stats say so. */
static hs_status finish(const pieces *p, const hs_batch_opts *opts, const hs_batch_stats *inner,
                        hs_status s)
{
    if (s != HS_OK && s != HS_E_INVALID_QUERY)
        return s;
    if (opts && opts->stats) {
        opts->stats->invalid = p->invalid;
        opts->stats->first_invalid = p->first_invalid;
        opts->stats->pair_tests = inner->pair_tests;
    }
    return p->invalid ? HS_E_INVALID_QUERY : HS_OK;
}

/* Query i's answer from its pieces' answers in a (closest, any or count). */
static void merge_one(const pieces *p, const hs_grid_out *a, const hs_grid_out *o, size_t i)
{
    const size_t k0 = p->first[i], k1 = p->first[i + 1];
    if (o->mode == HS_GRID_ANY) {
        uint8_t hit = 0;
        for (size_t k = k0; k < k1; k++)
            hit |= a->hit[k];
        o->hit[i] = hit;
        return;
    }
    if (o->mode == HS_GRID_COUNT) {
        uint32_t c = 0;
        for (size_t k = k0; k < k1; k++)
            c += a->count[k];
        o->count[i] = c;
        return;
    }
    size_t best = k1;
    for (size_t k = k0; k < k1; k++)
        if (a->co.idx[k] != HS_NONE &&
            (best == k1 || a->co.t[k] < a->co.t[best] ||
             (a->co.t[k] == a->co.t[best] && a->co.idx[k] < a->co.idx[best])))
            best = k;
    const hs_closest_out *c = &o->co;
    c->idx[i] = best < k1 ? a->co.idx[best] : HS_NONE;
    c->t[i] = best < k1 ? a->co.t[best] : NAN;
    const float nan = NAN;
    if (c->px)
        c->px[i] = best < k1 ? (float)((double)a->co.px[best] + p->ox[best]) : nan;
    if (c->py)
        c->py[i] = best < k1 ? (float)((double)a->co.py[best] + p->oy[best]) : nan;
    if (c->nx)
        c->nx[i] = best < k1 ? a->co.nx[best] : nan;
    if (c->ny)
        c->ny[i] = best < k1 ? a->co.ny[best] : nan;
}

typedef struct merge_call {
    const pieces *p;
    const hs_grid_out *a, *o;
} merge_call;

static void merge_range(void *ctx, size_t lo, size_t hi, int slot)
{
    const merge_call *c = (const merge_call *)ctx;
    (void)slot;
    for (size_t i = lo; i < hi; i++)
        merge_one(c->p, c->a, c->o, i);
}

/* Closest, any, count: the pieces answered by the plain walk as one batch, then merged. */
static hs_status periodic_walk(const hs_grid_call *c)
{
    const hs_grid_out *o = c->o;
    const hs_queries *qs = c->qs;
    const hs_par par = hs_grid_team(c->opts);
    hs_moving_set mv = {NULL, NULL, -1.0, 0.0};
    pieces p;
    memset(&p, 0, sizeof p);
    hs_status s = c->moving ? hs_moving_set_make(c, &mv) : HS_OK;
    if (s == HS_OK)
        s = make_pieces(c->g, qs, NULL, mv.dmax, &par, &p);
    const size_t n = p.qs.count, nn = n ? n : 1;
    /* the pieces' answers: closest's geometry when the caller asks for it */
    const int geo = o->co.px || o->co.py || o->co.nx || o->co.ny;
    void *buf = s == HS_OK ? malloc(nn * (o->mode == HS_GRID_CLOSEST ? (geo ? 24 : 8) : 4)) : NULL;
    if (s == HS_OK && buf == NULL)
        s = HS_E_NOMEM;
    hs_grid_out a = {o->mode, {NULL, NULL, NULL, NULL, NULL, NULL, NULL}, NULL, NULL, NULL, NULL};
    if (s == HS_OK && o->mode == HS_GRID_CLOSEST) {
        float *f = buf;
        a.co.idx = (uint32_t *)buf;
        a.co.t = f + nn;
        if (geo) {
            a.co.px = f + 2 * nn;
            a.co.py = f + 3 * nn;
            a.co.nx = f + 4 * nn;
            a.co.ny = f + 5 * nn;
        }
    }
    a.hit = buf;
    a.count = buf;
    hs_batch_stats inner = {0, 0, 0};
    if (s == HS_OK) {
        hs_batch_opts io = c->opts ? *c->opts : hs_batch_opts_default();
        io.stats = &inner;
        hs_batch_setup ib;
        s = hs_batch_begin(&p.qs, &io, HS_GRID_QUERY_COST, &ib);
        const hs_grid_call pc = {c->g, &p.qs, &io, &ib, c->ws, &a, c->moving, NULL};
        if (s == HS_OK)
            s = c->moving ? hs_engine_moving(&pc) : hs_plain_walk(&pc);
    }
    if (s == HS_OK || s == HS_E_INVALID_QUERY) {
        const merge_call mc = {&p, &a, o};
        hs_par_range(&par, qs->count, HS_PERIODIC_GRAIN, merge_range, (void *)&mc);
    }
    free(buf);
    s = finish(&p, c->opts, &inner, s);
    pieces_free(&p);
    return s;
}

/* All: positions lo .. hi-1 for hs_all_hits (hs_hits_range_fn): their pieces, one stretch
 * of the pieces' batch, through the walker's all_range; a position without pieces is an
 * invalid query. */
typedef struct pall_call {
    const hs_grid *g;
    const hs_grid_walkers *gw;
    const pieces *p;
    const uint32_t *perm;
    hs_semantics sem;
    unsigned char *state;    /* hs_walk_states */
    uint32_t *pcnt;          /* each piece's hits */
    const hs_moving_set *mv; /* the circles' motion, or NULL */
} pall_call;

static hs_status pall_range(const void *ctx, size_t lo, size_t hi, int tid, hs_hitbuf *buf,
                            uint32_t *count, hs_tally *tally)
{
    const pall_call *c = ctx;
    const size_t *first = c->p->first;
    if (first[hi] > first[lo]) {
        const hs_walk_range r = {c->g,      &c->p->qs, NULL,  c->sem,
                                 first[lo], first[hi], tally, hs_walk_state(c->state, c->gw, tid),
                                 NULL};
        const hs_moving_walk_out mo = {HS_MW_ALL, {0}, NULL, NULL, buf, c->pcnt};
        const hs_status s =
            c->mv ? c->gw->moving_range(&r, c->mv, &mo) : c->gw->all_range(&r, buf, c->pcnt);
        if (s != HS_OK)
            return s;
    }
    for (size_t k = lo; k < hi; k++) {
        uint32_t n = 0;
        for (size_t j = first[k]; j < first[k + 1]; j++)
            n += c->pcnt[j];
        count[k] = n;
        if (first[k + 1] == first[k]) {
            const size_t i = c->perm ? c->perm[k] : k;
            tally->invalid++;
            tally->first = i < tally->first ? i : tally->first;
        }
    }
    return HS_OK;
}

static hs_status periodic_all(const hs_grid_call *c)
{
    const hs_batch_setup *b = c->b;
    const hs_par par = hs_grid_team(c->opts);
    hs_qorder ord;
    if (hs_qorder_make(c->g, c->qs, &par, HS_STAGE_NONE, c->ws, &ord) != 0)
        return HS_E_NOMEM;
    hs_moving_set mv = {NULL, NULL, -1.0, 0.0};
    pieces p;
    memset(&p, 0, sizeof p);
    hs_status s = c->moving ? hs_moving_set_make(c, &mv) : HS_OK;
    if (s == HS_OK)
        s = make_pieces(c->g, c->qs, ord.perm, mv.dmax, &par, &p);
    const size_t n = p.qs.count;
    uint32_t *pcnt = s == HS_OK ? malloc((n ? n : 1) * sizeof *pcnt) : NULL;
    const hs_grid_walkers *gw = hs_grid_walkers_get(b->ks->isa);
    const pall_call pc = {c->g,   gw,
                          &p,     ord.perm,
                          b->sem, hs_walk_states(c->ws, gw, b->threads),
                          pcnt,   c->moving ? &mv : NULL};
    if (s == HS_OK && (pcnt == NULL || pc.state == NULL))
        s = HS_E_NOMEM;
    if (s == HS_OK)
        s = hs_all_hits(b, c->qs->count, pall_range, &pc, c->ws, ord.perm, c->o->out, c->o->place);
    free(pcnt);
    pieces_free(&p);
    return s;
}

hs_status hs_engine_periodic(const hs_grid_call *c)
{
    return c->o->mode == HS_GRID_ALL ? periodic_all(c) : periodic_walk(c);
}
