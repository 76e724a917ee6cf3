/* SPDX-License-Identifier: MIT */
/* The grid's batch calls (hitscan/grid.h): hs_grid_closest, hs_grid_any, hs_grid_count_hits
 * and hs_grid_all. Each one: its workspace opened, the batch set up (batch/driver.h), the
 * locality order made (order.c), then ranges of the batch handed to the level's grid walker
 * (walk/walkers.h: the block walk of src/walk/block_walk.inl) on the team, staged
 * answers copied to the caller's order, the workspace closed. */
#include <string.h>

#include "batch/all_hits.h"
#include "batch/driver.h"
#include "batch/workspace.h"
#include "batch/worksteal.h"
#include "grid/layout.h"
#include "grid/moving.h"
#include "grid/order.h"
#include "grid/query.h"
#include "grid/wall_query.h"
#include "query_prep.h"
#include "tuning.h"
#include "walk/walkers.h"

/* Ranges of at least HS_RANGE_MIN queries (the walk fills blocks of 64 from them), handed
 * out by the work-stealing schedule (batch/worksteal.h), which keeps each thread on a
 * contiguous stretch of the batch: the batch comes in a locality order. */
typedef struct walk_call {
    const hs_grid *g;
    const hs_grid_walkers *gw;
    const hs_queries *qs;
    const hs_qorder *ord;
    const hs_batch_setup *b;
    const hs_grid_out *o;
    size_t rs;            /* queries per range */
    unsigned char *state; /* the walk's state, gw->state_bytes for each thread of the team */
    hs_sched sc;
    hs_par_tally sum; /* the slots' tallies */
} walk_call;

/* Bytes between two threads' walk states: whole lines, so each starts aligned. */
static size_t walk_state_stride(const hs_grid_walkers *gw)
{
    return (gw->state_bytes + HS_WALK_STATE_ALIGN - 1) & ~(size_t)(HS_WALK_STATE_ALIGN - 1);
}

/* Room for the walk state of each thread of a team, from the workspace (NULL: no memory). */
static unsigned char *walk_states(hs_workspace *ws, const hs_grid_walkers *gw, int threads)
{
    return hs_ws_get(ws, HS_WS_WALK, (size_t)(threads > 1 ? threads : 1) * walk_state_stride(gw));
}

/* Thread tid's walk state in a block of threads of them (walk_states). */
static void *walk_state(unsigned char *states, const hs_grid_walkers *gw, int tid)
{
    return states + (size_t)tid * walk_state_stride(gw);
}

/* The ranges thread tid takes from the schedule, answered; their tally. */
static hs_tally walk_share(walk_call *c, int tid)
{
    void *st = walk_state(c->state, c->gw, tid);
    const size_t n = c->qs->count, rs = c->rs;
    const unsigned home = hs_sched_home(&c->sc, tid);
    hs_tally sum = HS_TALLY_INIT;
    for (ptrdiff_t k; (k = hs_sched_next(&c->sc, home)) >= 0;) {
        const size_t lo = (size_t)k * rs, hi = n - lo > rs ? lo + rs : n;
        hs_tally t = HS_TALLY_INIT;
        const hs_walk_range r = {c->g, c->qs, c->ord, c->b->sem, lo, hi, &t, st};
        switch (c->o->mode) {
        case HS_GRID_CLOSEST: c->gw->closest_range(&r, c->o->co); break;
        case HS_GRID_ANY: c->gw->any_range(&r, c->o->hit); break;
        default: c->gw->count_range(&r, c->o->count); break;
        }
        hs_tally_add(&sum, &t);
    }
    return sum;
}

static void walk_slot(void *ctx, int slot)
{
    walk_call *c = (walk_call *)ctx;
    const hs_tally t = walk_share(c, slot);
    hs_par_tally_add(&c->sum, &t);
}

/* One thread walks its ranges straight: no team, no atomics. */
static hs_tally walk_ranges(const hs_grid *g, const hs_grid_walkers *gw, const hs_queries *qs,
                            const hs_qorder *ord, const hs_batch_setup *b, const hs_grid_out *o,
                            unsigned char *state)
{
    walk_call c; /* the schedule's slots are set by hs_sched_init, not zeroed first */
    c.g = g;
    c.gw = gw;
    c.qs = qs;
    c.ord = ord;
    c.b = b;
    c.o = o;
    c.state = state;
    c.rs = b->chunk < HS_RANGE_MIN ? HS_RANGE_MIN : b->chunk;
    hs_sched_init(&c.sc, (qs->count + c.rs - 1) / c.rs, b->threads);
    if (b->threads <= 1)
        return walk_share(&c, 0);
    hs_par_tally_init(&c.sum);
    hs_par_team(&b->par, walk_slot, &c);
    return hs_par_tally_get(&c.sum);
}

static int out_missing(const hs_queries *qs, const hs_grid_out *o)
{
    if (qs->count == 0)
        return 0;
    switch (o->mode) {
    case HS_GRID_CLOSEST: return o->co.idx == NULL || o->co.t == NULL;
    case HS_GRID_ANY: return o->hit == NULL;
    default: return o->count == NULL;
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

static hs_par team_of(const hs_batch_opts *opts)
{
    return opts ? hs_par_make(opts->threads, opts->tasks) : hs_par_make(0, NULL);
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

/* closest / any / count: HS_E_BUSY / HS_E_NOMEM / argument errors before anything is
 * answered. */
hs_status hs_grid_walk_plain(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             const hs_grid_out *o)
{
    if (g == NULL)
        return HS_E_NULL;
    hs_wsref w;
    hs_status s = hs_ws_open(opts, &w);
    if (s != HS_OK)
        return s;
    const hs_par team = team_of(opts);
    hs_qorder ord;
    if (hs_qorder_make(g, qs, &team, stages(o), w.ws, &ord) != 0) {
        hs_ws_close(&w);
        return HS_E_NOMEM;
    }
    hs_batch_setup b;
    s = hs_batch_begin(qs, opts, HS_GRID_QUERY_COST, &b);
    if (s == HS_OK && out_missing(qs, o))
        s = HS_E_NULL;
    if (s == HS_OK) {
        const hs_grid_walkers *gw = hs_grid_walkers_get(b.ks->isa);
        unsigned char *state = walk_states(w.ws, gw, b.threads);
        if (state == NULL) {
            s = HS_E_NOMEM;
        } else {
            hs_tally total = walk_ranges(g, gw, qs, ord.rec ? &ord : NULL, &b, o, state);
            if (total.invalid && ord.rec && !ord.perm)
                total.first = first_invalid(qs);
            s = hs_batch_end(&b, &total);
        }
    }
    /* these two are returned only once every query was answered */
    if (ord.inv && (s == HS_OK || s == HS_E_INVALID_QUERY))
        hs_qorder_unstage(&ord, qs->count, &team, o->mode == HS_GRID_CLOSEST ? &o->co : NULL,
                          o->hit, o->count);
    hs_ws_close(&w);
    return s;
}

static hs_status closest_circles(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                                 hs_closest_out out)
{
    if (hs_moving_asked(opts)) {
        const moving_out m = {HS_MOVING_CLOSEST, out, NULL, NULL, NULL, NULL};
        return hs_moving_query(g, qs, opts, &m);
    }
    const hs_grid_out o = {HS_GRID_CLOSEST, out, NULL, NULL};
    return g && g->periodic ? hs_grid_periodic_walk(g, qs, opts, &o)
                            : hs_grid_walk_plain(g, qs, opts, &o);
}

hs_status hs_grid_closest(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                          hs_closest_out out)
{
    return hs_walls_merge_closest(g, qs, opts, out, closest_circles(g, qs, opts, out));
}

static hs_status any_circles(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             uint8_t *hit)
{
    if (hs_moving_asked(opts)) {
        const moving_out m = {HS_MOVING_ANY, {0}, hit, NULL, NULL, NULL};
        return hs_moving_query(g, qs, opts, &m);
    }
    const hs_grid_out o = {HS_GRID_ANY, {0}, hit, NULL};
    return g && g->periodic ? hs_grid_periodic_walk(g, qs, opts, &o)
                            : hs_grid_walk_plain(g, qs, opts, &o);
}

hs_status hs_grid_any(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                      uint8_t *hit)
{
    return hs_walls_merge_any(g, qs, opts, hit, any_circles(g, qs, opts, hit));
}

static hs_status count_circles(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                               uint32_t *count)
{
    if (hs_moving_asked(opts)) {
        const moving_out m = {HS_MOVING_COUNT, {0}, NULL, count, NULL, NULL};
        return hs_moving_query(g, qs, opts, &m);
    }
    const hs_grid_out o = {HS_GRID_COUNT, {0}, NULL, count};
    return g && g->periodic ? hs_grid_periodic_walk(g, qs, opts, &o)
                            : hs_grid_walk_plain(g, qs, opts, &o);
}

hs_status hs_grid_count_hits(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             uint32_t *count)
{
    return hs_walls_merge_count(g, qs, opts, count, count_circles(g, qs, opts, count));
}

/* ---- All hits ------------------------------------------------------------------------------ */

typedef struct grid_hits_call {
    const hs_grid *g;
    const hs_grid_walkers *gw;
    const hs_queries *qs;
    const hs_qorder *ord;
    hs_semantics sem;
    unsigned char *state; /* walk_states */
} grid_hits_call;

/* Positions lo .. hi-1 for hs_all_hits (hs_hits_range_fn): the level's all-hits walker. */
static hs_status grid_hits_range(const void *ctx, size_t lo, size_t hi, int tid, hs_hitbuf *buf,
                                 uint32_t *count, hs_tally *tally)
{
    const grid_hits_call *c = ctx;
    const hs_walk_range r = {c->g, c->qs, c->ord, c->sem,
                             lo,   hi,    tally,  walk_state(c->state, c->gw, tid)};
    return c->gw->all_range(&r, buf, count);
}

/* The assembly writes each sorted position's hits straight into the caller's row: into out,
 * or with place into the caller's arrays. */
hs_status hs_grid_all_plain(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                            hs_hits *out, const hs_all_place *place)
{
    if (g == NULL)
        return HS_E_NULL;
    hs_wsref w;
    hs_status s = hs_ws_open(opts, &w);
    if (s != HS_OK)
        return s;
    hs_qorder ord;
    const hs_par team = team_of(opts);
    if (hs_qorder_make(g, qs, &team, HS_STAGE_NONE, w.ws, &ord) != 0) {
        hs_ws_close(&w);
        return HS_E_NOMEM;
    }
    hs_batch_setup b;
    s = out == NULL && place == NULL ? HS_E_NULL : hs_batch_begin(qs, opts, HS_GRID_QUERY_COST, &b);
    if (s == HS_OK) {
        const hs_grid_walkers *gw = hs_grid_walkers_get(b.ks->isa);
        const grid_hits_call c = {
            g, gw, qs, ord.rec ? &ord : NULL, b.sem, walk_states(w.ws, gw, b.threads)};
        s = c.state == NULL
                ? HS_E_NOMEM
                : hs_all_hits(&b, qs->count, grid_hits_range, &c, w.ws, ord.perm, out, place);
    }
    hs_ws_close(&w);
    return s;
}

/* The circles' hits into out (hs_grid_all without walls). */
static hs_status all_circles(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             hs_hits *out)
{
    if (hs_moving_asked(opts)) {
        const moving_out m = {HS_MOVING_ALL, {0}, NULL, NULL, out, NULL};
        return out == NULL ? HS_E_NULL : hs_moving_query(g, qs, opts, &m);
    }
    return g && g->periodic ? hs_grid_periodic_all(g, qs, opts, out, NULL)
                            : hs_grid_all_plain(g, qs, opts, out, NULL);
}

hs_status hs_grid_all(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                      hs_hits *out)
{
    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (g != NULL && g->wall_grid != NULL && out != NULL && qs != NULL)
        return hs_walls_all(g, qs, opts, out, NULL, all_circles);
    return all_circles(g, qs, opts, out);
}

hs_status hs_grid_all_into(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                           hs_hits_place_fn place, void *ctx)
{
    if (place == NULL)
        return HS_E_NULL;
    const hs_all_place p = {place, ctx};
    if (g != NULL && g->wall_grid != NULL && qs != NULL)
        return hs_walls_all(g, qs, opts, NULL, &p, all_circles);
    if (hs_moving_asked(opts)) {
        const moving_out m = {HS_MOVING_ALL, {0}, NULL, NULL, NULL, &p};
        return hs_moving_query(g, qs, opts, &m);
    }
    return g && g->periodic ? hs_grid_periodic_all(g, qs, opts, NULL, &p)
                            : hs_grid_all_plain(g, qs, opts, NULL, &p);
}
