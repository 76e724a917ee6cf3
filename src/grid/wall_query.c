/* SPDX-License-Identifier: MIT */
/* A grid's walls in its batch calls (wall_query.h): the plain engine on the grid of the walls'
 * pieces, its answers in a workspace slot of their own (8 bytes a query; all: a hit list of
 * their own), merged with the circles'. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/wall_grid.h"
#include "grid/wall_query.h"
#include "invariant.h"
#include "query_prep.h"
#include "walk/walkers.h"

/* c's batch for the grid of the walls: its ids are walls', so a circle to ignore is not one. */
static hs_queries wall_queries(const hs_queries *qs)
{
    hs_queries q = *qs;
    q.ignore = NULL;
    return q;
}

/* The walls' call: c's batch on the grid of g's wall pieces, with outputs o and stats of its
 * own (added to the caller's after). */
static hs_status walls_call(const hs_grid_call *c, const hs_grid_out *o)
{
    hs_batch_setup bw = *c->b;
    hs_batch_stats st;
    memset(&st, 0, sizeof st);
    bw.stats = c->b->stats ? &st : NULL;
    const hs_queries qw = wall_queries(c->qs);
    const hs_grid_call cw = {c->g->wall_grid, &qw, c->opts, &bw, c->ws, o, 0, NULL};
    const hs_status s = hs_engine_plain(&cw);
    if (c->b->stats)
        c->b->stats->pair_tests += st.pair_tests;
    return s;
}

static int answered(hs_status s) { return s == HS_OK || s == HS_E_INVALID_QUERY; }

/* Whether c's walls can be answered by their cells (wall_cells.h): closest or any, every
 * query thin and starting near enough that the cells' margin covers the walk's rounding at
 * its start (the cells it enters, in double) and the thick test's error there (2^-46 of |a|,
 * walls.h); a farther query may cross or be given a hit outside the cells it walks, which the
 * pieces' walk, whose reach grows with |a|, reaches. */
static int by_cells(const hs_grid_call *c)
{
    const hs_queries *qs = c->qs;
    if (c->o->mode != HS_GRID_CLOSEST && c->o->mode != HS_GRID_ANY)
        return 0;
    if (qs->q == NULL && qs->q_all != 0.0f)
        return 0;
    const float far = (float)(0x1p40 * c->g->wall_grid->walls->cells->eps);
    for (size_t i = 0; i < qs->count; i++)
        if ((qs->q != NULL && qs->q[i] != 0.0f) || fabsf(qs->ax[i]) + fabsf(qs->ay[i]) > far)
            return 0;
    return 1;
}

/* The walls' answers by their cells: the level's walker on ranges of the batch. */
typedef struct cells_call {
    const hs_grid_walkers *gw;
    hs_wcells_call wc;
} cells_call;

static void cells_range(const void *ctx, size_t lo, size_t hi, int tid, hs_tally *tally)
{
    const cells_call *c = ctx;
    (void)tid;
    c->gw->wall_cells_range(&c->wc, lo, hi, tally);
}

/* c's closest or any by the walls' cells into o: closest's (index, t) in o->co.idx, o->co.t
 * (a miss: HS_NONE, +inf, so t bounds the circles' walk as it is) or any's flags in o->hit, in
 * the caller's order; the walk's tally (its tests) in *tally. */
static hs_status cells_answer(const hs_grid_call *c, const hs_grid_out *o, hs_tally *tally)
{
    const hs_par team = hs_grid_team(c->opts);
    hs_qorder ord;
    if (hs_qorder_make(c->g->wall_grid, c->qs, &team, HS_STAGE_ANSWERS, c->ws, &ord) != 0)
        return HS_E_NOMEM;
    const cells_call cc = {
        hs_grid_walkers_get(c->b->ks->isa),
        {c->g->wall_grid->walls->cells, c->qs, &ord, c->b->sem, o->co.idx, o->co.t, o->hit}};
    HS_ASSERT(cc.gw != NULL); /* the batch's level is one this CPU runs */
    *tally = hs_grid_ranges(c->b, c->qs->count, cells_range, &cc);
    if (ord.inv)
        hs_qorder_unstage(&ord, c->qs->count, &team, o->mode == HS_GRID_CLOSEST ? &o->co : NULL,
                          o->hit, NULL);
    return HS_OK;
}

/* Query i's hit on wall w at t, for its point and normal (the exact test, whole wall). */
static void wall_geometry(const hs_grid *wg, const hs_queries *qs, hs_semantics sem, size_t i,
                          uint32_t w, float t, hs_closest_out out)
{
    hs_kq k;
    hs_wall_hit h;
    const hs_walls *s = wg->walls->set;
    const hs_kwall wl = {s->ax[w], s->ay[w], s->bx[w], s->by[w], s->w ? s->w[w] : 0.0f};
    /* the walk found the hit, so the query is valid and hits the wall */
    if (!hs_prep_query(qs, i, sem, &k) || !hs_wall_hits(&k, &wl, &h)) {
        HS_ASSERT(0);
        return;
    }
    const hs_vec2 n = h.normal;
    if (out.px)
        out.px[i] = k.ax + t * k.dx;
    if (out.py)
        out.py[i] = k.ay + t * k.dy;
    if (out.nx)
        out.nx[i] = n.x;
    if (out.ny)
        out.ny[i] = n.y;
}

/* closest: the walls' (index, t) in wi, wt merged into out. */
static void merge_closest(const hs_grid_call *c, const uint32_t *wi, const float *wt)
{
    const hs_closest_out out = c->o->co;
    for (size_t i = 0; i < c->qs->count; i++) {
        if (wi[i] == HS_NONE || (out.idx[i] != HS_NONE && !(wt[i] < out.t[i])))
            continue;
        out.idx[i] = wi[i];
        out.t[i] = wt[i];
        if (out.kind)
            out.kind[i] = HS_KIND_WALL;
        if (out.px || out.py || out.nx || out.ny)
            wall_geometry(c->g->wall_grid, c->qs, c->b->sem, i, wi[i], wt[i], out);
    }
}

/* Closest and any by the walls' cells first, their hits then bounding the circles' walk (any:
 * a query that hits a wall walks no circle): the plain engine, which takes hs_grid_call.bound. */
static int walls_first(const hs_grid_call *c, hs_grid_engine_fn engine)
{
    return (c->o->mode == HS_GRID_CLOSEST || c->o->mode == HS_GRID_ANY) &&
           engine == hs_engine_plain && by_cells(c);
}

hs_status hs_walls_merge(const hs_grid_call *c, hs_grid_engine_fn engine)
{
    const size_t n = c->qs->count;
    const hs_grid_out *o = c->o;
    if (c->g->wall_grid == NULL || n == 0) {
        const hs_status s = engine(c);
        if (answered(s) && o->mode == HS_GRID_CLOSEST && o->co.kind)
            memset(o->co.kind, HS_KIND_CIRCLE, n);
        return s;
    }
    /* the walls' answers, 8 bytes a query, in a slot no engine uses */
    const int first = walls_first(c, engine);
    unsigned char *room = hs_ws_get(c->ws, HS_WS_WALLS, n * 8);
    if (room == NULL)
        return HS_E_NOMEM;
    uint32_t *wi = (uint32_t *)(void *)room;
    float *wt = (float *)(void *)(room + 4 * n);
    hs_grid_out wo = {o->mode, {0}, NULL, NULL, NULL, NULL};
    if (o->mode == HS_GRID_CLOSEST) {
        wo.co.idx = wi;
        wo.co.t = wt;
    } else if (o->mode == HS_GRID_ANY) {
        wo.hit = room;
    } else {
        wo.count = wi;
    }
    hs_status s, sw = HS_OK;
    hs_tally tw = HS_TALLY_INIT;
    if (first) {
        /* closest: a circle past the query's wall hit could not be its answer (at an equal t
         * the circle is), so the circles' walk stops at the wall; any: a wall hit answers */
        sw = cells_answer(c, &wo, &tw);
        if (!answered(sw))
            return sw;
        if (o->mode == HS_GRID_ANY) /* the flags as bounds, in wt's bytes, unused by any */
            for (size_t i = 0; i < n; i++)
                wt[i] = room[i] ? 0.0f : INFINITY;
        hs_grid_call cb = *c;
        cb.bound = wt;
        s = engine(&cb);
    } else {
        s = engine(c);
    }
    if (!answered(s))
        return s;
    if (o->mode == HS_GRID_CLOSEST && o->co.kind)
        memset(o->co.kind, HS_KIND_CIRCLE, n);
    if (!first)
        sw = by_cells(c) ? cells_answer(c, &wo, &tw) : walls_call(c, &wo);
    if (!answered(sw))
        return sw;
    if (c->b->stats) /* the circles' engine set them; the walls' tests added */
        c->b->stats->pair_tests += tw.tests;
    if (o->mode == HS_GRID_CLOSEST)
        merge_closest(c, wi, wt);
    else if (o->mode == HS_GRID_ANY)
        for (size_t i = 0; i < n; i++)
            o->hit[i] |= room[i];
    else
        for (size_t i = 0; i < n; i++)
            o->count[i] += wi[i];
    return s;
}

/* ---- All hits ---------------------------------------------------------------------------- */

/* Whether circle hit (tc, ic) comes before wall hit (tw, iw): t (-0 as +0), circles first. */
static int circle_first(float tc, float tw) { return tc + 0.0f <= tw + 0.0f; }

/* The two CSR lists merged into the caller's arrays d (each optional), query by query. */
static void merge_rows(const hs_hits *c, const hs_hits *w, size_t n, const hs_hits_into *d,
                       size_t *offsets, uint32_t *idx, float *t, uint8_t *kind)
{
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (offsets)
            offsets[i] = at;
        if (d && d->offsets)
            d->offsets[i] = (int64_t)at;
        size_t a = c->offsets[i], b = w->offsets[i];
        const size_t ae = c->offsets[i + 1], be = w->offsets[i + 1];
        for (; a < ae || b < be; at++) {
            const int wall = a == ae || (b < be && !circle_first(c->t[a], w->t[b]));
            const uint32_t id = wall ? w->idx[b] : c->idx[a];
            const float ti = wall ? w->t[b++] : c->t[a++];
            if (idx)
                idx[at] = id;
            if (t)
                t[at] = ti;
            if (kind)
                kind[at] = wall ? HS_KIND_WALL : HS_KIND_CIRCLE;
            if (d && d->query)
                d->query[at] = (int64_t)i;
            if (d && d->idx)
                d->idx[at] = id;
            if (d && d->t)
                d->t[at] = ti;
            if (d && d->kind)
                d->kind[at] = wall ? HS_KIND_WALL : HS_KIND_CIRCLE;
        }
    }
    if (offsets)
        offsets[n] = at;
    if (d && d->offsets)
        d->offsets[n] = (int64_t)at;
}

/* c's all-hits by engine into *h, through a transient workspace (so the list is the call's,
 * not the caller's workspace's, which the other list then uses). */
static hs_status all_into_own(const hs_grid_call *c, const hs_grid *g, hs_grid_engine_fn engine,
                              hs_hits *h)
{
    hs_wsref w;
    hs_status s = hs_ws_open(NULL, &w);
    if (s != HS_OK)
        return s;
    hs_batch_setup b = *c->b;
    hs_batch_stats st;
    memset(&st, 0, sizeof st);
    b.stats = c->b->stats ? &st : NULL;
    const hs_grid_out o = {HS_GRID_ALL, {0}, NULL, NULL, h, NULL};
    const hs_queries qw = wall_queries(c->qs);
    const hs_grid_call cc = {g,  g == c->g ? c->qs : &qw, c->opts, &b, w.ws,
                             &o, c->moving && g == c->g,  NULL};
    s = engine(&cc);
    hs_ws_close(&w);
    if (c->b->stats) {
        c->b->stats->pair_tests += st.pair_tests;
        c->b->stats->invalid = st.invalid;
        c->b->stats->first_invalid = st.first_invalid;
    }
    return s;
}

hs_status hs_walls_all(const hs_grid_call *c, hs_grid_engine_fn engine)
{
    hs_hits hc, hw;
    memset(&hc, 0, sizeof hc);
    memset(&hw, 0, sizeof hw);
    if (c->b->stats)
        c->b->stats->pair_tests = 0;
    hs_status s = all_into_own(c, c->g, engine, &hc);
    if (!answered(s))
        return s;
    const hs_status sw = all_into_own(c, c->g->wall_grid, hs_engine_plain, &hw);
    if (!answered(sw)) {
        hs_hits_free(&hc);
        return sw;
    }
    const size_t n = c->qs->count, total = hc.total + hw.total;
    hs_hits *out = c->o->out;
    if (c->o->place) {
        hs_hits_into d = {NULL, NULL, NULL, NULL, NULL};
        if (c->o->place->fn(c->o->place->ctx, n, total, &d) != 0)
            s = HS_E_NOMEM;
        else
            merge_rows(&hc, &hw, n, &d, NULL, NULL, NULL, NULL);
    } else {
        out->offsets = malloc((n + 1) * sizeof *out->offsets);
        out->idx = malloc((total ? total : 1) * sizeof *out->idx);
        out->t = malloc((total ? total : 1) * sizeof *out->t);
        out->kind = malloc(total ? total : 1);
        out->ws = NULL;
        if (!out->offsets || !out->idx || !out->t || !out->kind) {
            hs_hits_free(out);
            s = HS_E_NOMEM;
        } else {
            merge_rows(&hc, &hw, n, NULL, out->offsets, out->idx, out->t, out->kind);
            out->count = n;
            out->total = total;
        }
    }
    hs_hits_free(&hc);
    hs_hits_free(&hw);
    return s;
}
