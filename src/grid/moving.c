/* SPDX-License-Identifier: MIT */
/* The moving engine (engine.h): queries against circles moving by hs_batch_opts.disp_x /
 * disp_y. Circle i stands at c_i + t d_i when the query is at P(t) = a + t d, so the query
 * hits it when a + t (d - d_i) hits the circle standing still, which hs_intersect_circle
 * decides. The grid's walk finds the candidates and tests them exactly as it goes
 * (walk/walk_moving.inl, block_moving.inl): each query walked with its thickness grown by how far
 * any circle moves over its interval, each circle it meets tested on the relative motion in scalar,
 * so the answers depend neither on the ISA level nor on the thread count. Here: the displacements
 * in the grid's order, their largest length, the locality order and the ranges on the team (all
 * hits laid out by hs_all_hits). */
#include <math.h>
#include <string.h>

#include "grid/engine.h"
#include "tuning.h"

/* Each array of the displacements padded with zeros past the last circle, as the grid's, for
 * whole-vector loads. */
hs_status hs_moving_set_make(const hs_grid_call *c, hs_moving_set *mv)
{
    const hs_grid *g = c->g;
    const size_t n = g->n, stride = n + HS_PAD_FLOATS;
    float *d = hs_ws_get(c->ws, HS_WS_MOVE, 2 * stride * sizeof *d);
    if (d == NULL)
        return HS_E_NOMEM;
    memset(d + n, 0, HS_PAD_FLOATS * sizeof *d);
    memset(d + stride + n, 0, HS_PAD_FLOATS * sizeof *d);
    double dmax = 0.0, rmax = 0.0;
    for (size_t p = 0; p < n; p++) {
        const uint32_t i = g->id[p];
        const float dx = c->opts->disp_x[i], dy = c->opts->disp_y[i];
        d[p] = dx;
        d[stride + p] = dy;
        dmax = fmax(dmax, (double)dx * dx + (double)dy * dy);
    }
    for (int l = 0; l < g->nlevels; l++)
        rmax = fmax(rmax, (double)g->lv[l].rmax);
    mv->dx = d;
    mv->dy = d + stride;
    mv->dmax = nextafter(sqrt(dmax), INFINITY);
    mv->rmax = rmax;
    return HS_OK;
}

/* One call's data for the ranges. */
typedef struct moving_call {
    const hs_grid *g;
    const hs_grid_walkers *gw;
    const hs_queries *qs;
    const hs_qorder *ord;
    hs_semantics sem;
    hs_moving_set mv;
    hs_moving_walk_out o; /* closest, any, count */
    unsigned char *state; /* the walk's state per thread (hs_walk_states) */
} moving_call;

static void moving_range(const void *ctx, size_t lo, size_t hi, int tid, hs_tally *t)
{
    const moving_call *c = ctx;
    const hs_walk_range r = {
        c->g, c->qs, c->ord, c->sem, lo, hi, t, hs_walk_state(c->state, c->gw, tid), NULL};
    (void)c->gw->moving_range(&r, &c->mv, &c->o);
}

/* All (hs_hits_range_fn): positions lo .. hi-1's hits appended to buf. */
static hs_status moving_hits_range(const void *ctx, size_t lo, size_t hi, int tid, hs_hitbuf *buf,
                                   uint32_t *count, hs_tally *tally)
{
    const moving_call *c = ctx;
    const hs_walk_range r = {
        c->g, c->qs, c->ord, c->sem, lo, hi, tally, hs_walk_state(c->state, c->gw, tid), NULL};
    hs_moving_walk_out o = c->o;
    o.buf = buf;
    o.cnt = count;
    return c->gw->moving_range(&r, &c->mv, &o);
}

hs_status hs_engine_moving(const hs_grid_call *c)
{
    const hs_batch_setup *b = c->b;
    const hs_grid_out *o = c->o;
    moving_call m;
    m.g = c->g;
    m.gw = hs_grid_walkers_get(b->ks->isa);
    m.qs = c->qs;
    m.sem = b->sem;
    m.o = (hs_moving_walk_out){HS_MW_CLOSEST, o->co, o->hit, o->count, NULL, NULL};
    m.o.mode = o->mode == HS_GRID_CLOSEST ? HS_MW_CLOSEST
               : o->mode == HS_GRID_ANY   ? HS_MW_ANY
               : o->mode == HS_GRID_COUNT ? HS_MW_COUNT
                                          : HS_MW_ALL;
    hs_status s = hs_moving_set_make(c, &m.mv);
    if (s != HS_OK)
        return s;
    m.state = hs_walk_states(c->ws, m.gw, b->threads);
    if (m.state == NULL)
        return HS_E_NOMEM;
    /* answers go straight to the caller's index: an order with its permutation */
    const hs_par team = hs_grid_team(c->opts);
    hs_qorder ord;
    if (hs_qorder_make(c->g, c->qs, &team, HS_STAGE_NONE, c->ws, &ord) != 0)
        return HS_E_NOMEM;
    m.ord = ord.perm ? &ord : NULL;
    if (o->mode == HS_GRID_ALL)
        return hs_all_hits(b, c->qs->count, moving_hits_range, &m, c->ws, ord.perm, o->out,
                           o->place);
    const hs_tally total = hs_grid_ranges(b, c->qs->count, moving_range, &m);
    return hs_batch_end(b, &total);
}
