/* SPDX-License-Identifier: MIT */
/* The steps the grid's engines share (engine.h): the ranges of a batch on the team, the
 * walk's per-thread states, the team and the output checks. */
#include "grid/engine.h"

#include "batch/worksteal.h"
#include "tuning.h"

/* The schedule's ranges (of rs positions) taken by one thread. */
typedef struct ranges_call {
    size_t n, rs;
    hs_grid_range_fn fn;
    const void *ctx;
    hs_sched sc;
    hs_par_tally sum; /* the slots' tallies */
} ranges_call;

static hs_tally ranges_share(ranges_call *c, int tid)
{
    const unsigned home = hs_sched_home(&c->sc, tid);
    hs_tally sum = HS_TALLY_INIT;
    for (ptrdiff_t k; (k = hs_sched_next(&c->sc, home)) >= 0;) {
        const size_t lo = (size_t)k * c->rs, hi = c->n - lo > c->rs ? lo + c->rs : c->n;
        hs_tally t = HS_TALLY_INIT;
        c->fn(c->ctx, lo, hi, tid, &t);
        hs_tally_add(&sum, &t);
    }
    return sum;
}

static void ranges_slot(void *ctx, int slot)
{
    ranges_call *c = (ranges_call *)ctx;
    const hs_tally t = ranges_share(c, slot);
    hs_par_tally_add(&c->sum, &t);
}

hs_tally hs_grid_ranges(const hs_batch_setup *b, size_t n, hs_grid_range_fn fn, const void *ctx)
{
    ranges_call c; /* the schedule's slots are set by hs_sched_init, not zeroed first */
    c.n = n;
    c.fn = fn;
    c.ctx = ctx;
    c.rs = b->chunk < HS_RANGE_MIN ? HS_RANGE_MIN : b->chunk;
    hs_sched_init(&c.sc, (n + c.rs - 1) / c.rs, b->threads);
    if (b->threads <= 1) /* one thread walks its ranges straight: no team, no atomics */
        return ranges_share(&c, 0);
    hs_par_tally_init(&c.sum);
    hs_par_team(&b->par, ranges_slot, &c);
    return hs_par_tally_get(&c.sum);
}

/* Bytes between two threads' walk states: whole lines, so each starts aligned. */
static size_t walk_state_stride(const hs_grid_walkers *gw)
{
    return (gw->state_bytes + HS_WALK_STATE_ALIGN - 1) & ~(size_t)(HS_WALK_STATE_ALIGN - 1);
}

unsigned char *hs_walk_states(hs_workspace *ws, const hs_grid_walkers *gw, int threads)
{
    return hs_ws_get(ws, HS_WS_WALK, (size_t)(threads > 1 ? threads : 1) * walk_state_stride(gw));
}

void *hs_walk_state(unsigned char *states, const hs_grid_walkers *gw, int tid)
{
    return states + (size_t)tid * walk_state_stride(gw);
}

hs_par hs_grid_team(const hs_batch_opts *opts)
{
    return opts ? hs_par_make(opts->threads, opts->tasks) : hs_par_make(0, NULL);
}

int hs_grid_out_missing(size_t m, const hs_grid_out *o)
{
    switch (o->mode) {
    case HS_GRID_CLOSEST: return m > 0 && (o->co.idx == NULL || o->co.t == NULL);
    case HS_GRID_ANY: return m > 0 && o->hit == NULL;
    case HS_GRID_COUNT: return m > 0 && o->count == NULL;
    default: return o->out == NULL && o->place == NULL;
    }
}
