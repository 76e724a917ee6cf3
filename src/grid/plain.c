/* SPDX-License-Identifier: MIT */
/* The plain engine (engine.h): the circles where they lie. The locality order made (order.c),
 * then ranges of the batch handed to the level's grid walker (walk/walkers.h: the block walk
 * of src/walk/block_walk.inl) on the team, staged answers copied to the caller's order; all
 * hits laid out by hs_all_hits. The periodic engine answers its pieces through hs_plain_walk
 * and the walker's all_range. */
#include "grid/plain.h"

#include <math.h>
#include <string.h>

#include "query_prep.h"
#include "tuning.h"

/* One walk's data for the ranges (hs_grid_ranges). */
typedef struct walk_call {
    const hs_grid *g;
    const hs_grid_walkers *gw;
    const hs_queries *qs;
    const hs_qorder *ord;
    hs_semantics sem;
    const hs_grid_out *o;
    unsigned char *state; /* the walk's state, gw->state_bytes for each thread of the team */
    const float *bound;   /* hs_grid_call.bound */
} walk_call;

static void walk_range(const void *ctx, size_t lo, size_t hi, int tid, hs_tally *t)
{
    const walk_call *c = ctx;
    const hs_walk_range r = {
        c->g, c->qs, c->ord, c->sem, lo, hi, t, hs_walk_state(c->state, c->gw, tid), c->bound};
    switch (c->o->mode) {
    case HS_GRID_CLOSEST: c->gw->closest_range(&r, c->o->co); break;
    case HS_GRID_ANY: c->gw->any_range(&r, c->o->hit); break;
    default: c->gw->count_range(&r, c->o->count); break;
    }
}

/* What the order stages (order.h): the answers, and closest's hit points and normals when
 * the caller wants them. */
static int stages(const hs_grid_out *o)
{
    switch (o->mode) {
    case HS_GRID_CLOSEST:
        if (!o->co.idx || !o->co.t)
            return HS_STAGE_NONE;
        return o->co.px || o->co.py || o->co.nx || o->co.ny ? HS_STAGE_GEOMETRY : HS_STAGE_ANSWERS;
    case HS_GRID_ANY: return o->hit != NULL ? HS_STAGE_ANSWERS : HS_STAGE_NONE;
    default: return o->count != NULL ? HS_STAGE_ANSWERS : HS_STAGE_NONE;
    }
}

/* The lowest index of an invalid query in qs (one is), for an order without perm: its walk
 * knew positions only (order.h). */
static size_t first_invalid(const hs_queries *qs)
{
    size_t i = 0;
    for (hs_kq kq; i < qs->count && hs_prep_query(qs, i, HS_SOLID, &kq); i++)
        ;
    return i;
}

hs_status hs_plain_walk(const hs_grid_call *c)
{
    const hs_batch_setup *b = c->b;
    const hs_par team = hs_grid_team(c->opts);
    hs_qorder ord;
    const int stage = stages(c->o) | (c->bound ? HS_STAGE_PERM : 0);
    HS_ASSERT(c->bound == NULL || c->o->mode == HS_GRID_CLOSEST || c->o->mode == HS_GRID_ANY);
    if (hs_qorder_make(c->g, c->qs, &team, stage, c->ws, &ord) != 0)
        return HS_E_NOMEM;
    const hs_grid_walkers *gw = hs_grid_walkers_get(b->ks->isa);
    const walk_call w = {c->g,
                         gw,
                         c->qs,
                         ord.rec ? &ord : NULL,
                         b->sem,
                         c->o,
                         hs_walk_states(c->ws, gw, b->threads),
                         c->bound};
    if (w.state == NULL)
        return HS_E_NOMEM;
    hs_tally total = hs_grid_ranges(b, c->qs->count, walk_range, &w);
    if (total.invalid && ord.rec && !ord.perm)
        total.first = first_invalid(c->qs);
    const hs_status s = hs_batch_end(b, &total);
    /* these two are returned only once every query was answered */
    if (ord.inv && (s == HS_OK || s == HS_E_INVALID_QUERY))
        hs_qorder_unstage(&ord, c->qs->count, &team,
                          c->o->mode == HS_GRID_CLOSEST ? &c->o->co : NULL, c->o->hit, c->o->count);
    return s;
}

/* ---- All hits ------------------------------------------------------------------------------ */

typedef struct grid_hits_call {
    const hs_grid *g;
    const hs_grid_walkers *gw;
    const hs_queries *qs;
    const hs_qorder *ord;
    hs_semantics sem;
    unsigned char *state; /* hs_walk_states */
} grid_hits_call;

/* Positions lo .. hi-1 for hs_all_hits (hs_hits_range_fn): the level's all-hits walker. */
static hs_status grid_hits_range(const void *ctx, size_t lo, size_t hi, int tid, hs_hitbuf *buf,
                                 uint32_t *count, hs_tally *tally)
{
    const grid_hits_call *c = ctx;
    const hs_walk_range r = {
        c->g, c->qs, c->ord, c->sem, lo, hi, tally, hs_walk_state(c->state, c->gw, tid), NULL};
    return c->gw->all_range(&r, buf, count);
}

/* The assembly writes each sorted position's hits straight into the caller's row: into out,
 * or with place into the caller's arrays. */
static hs_status plain_all(const hs_grid_call *c)
{
    const hs_batch_setup *b = c->b;
    hs_qorder ord;
    const hs_par team = hs_grid_team(c->opts);
    if (hs_qorder_make(c->g, c->qs, &team, HS_STAGE_NONE, c->ws, &ord) != 0)
        return HS_E_NOMEM;
    const hs_grid_walkers *gw = hs_grid_walkers_get(b->ks->isa);
    const grid_hits_call h = {
        c->g, gw, c->qs, ord.rec ? &ord : NULL, b->sem, hs_walk_states(c->ws, gw, b->threads)};
    if (h.state == NULL)
        return HS_E_NOMEM;
    return hs_all_hits(b, c->qs->count, grid_hits_range, &h, c->ws, ord.perm, c->o->out,
                       c->o->place);
}

/* Closest, any and count on a grid without circles: every query a miss, written as the walk
 * writes one, each checked as the walk checks it. */
static hs_status plain_empty(const hs_grid_call *c)
{
    const hs_grid_out *o = c->o;
    const size_t n = c->qs->count;
    const hs_queries *qs = c->qs;
    hs_tally total = HS_TALLY_INIT;
    size_t unsure = n; /* queries hs_query_ad_surely_valid does not pass */
    if (hs_query_batch_surely_valid(qs)) {
        unsure = 0;
        for (size_t i = 0; i < n; i++)
            unsure += !hs_query_ad_surely_valid(qs->ax[i], qs->ay[i], qs->dx[i], qs->dy[i]);
    }
    for (size_t i = 0; unsure != 0 && i < n; i++) {
        hs_kq kq;
        if (!hs_prep_query(qs, i, c->b->sem, &kq) && total.invalid++ == 0)
            total.first = i;
    }
    if (o->mode == HS_GRID_CLOSEST) {
        float *const put[] = {o->co.t, o->co.px, o->co.py, o->co.nx, o->co.ny};
        for (size_t i = 0; i < n; i++)
            o->co.idx[i] = HS_NONE;
        for (size_t a = 0; a < sizeof put / sizeof put[0]; a++)
            for (size_t i = 0; put[a] != NULL && i < n; i++)
                put[a][i] = NAN;
    } else if (o->mode == HS_GRID_ANY) {
        memset(o->hit, 0, n);
    } else {
        memset(o->count, 0, n * sizeof *o->count);
    }
    return hs_batch_end(c->b, &total);
}

hs_status hs_engine_plain(const hs_grid_call *c)
{
    if (c->o->mode == HS_GRID_ALL)
        return plain_all(c);
    return c->g->n == 0 && c->qs->count > 0 ? plain_empty(c) : hs_plain_walk(c);
}
