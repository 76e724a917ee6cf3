/* SPDX-License-Identifier: MIT */
/* Internal: a range of a batch through the grid, block by block (block.inl), and the grid
 * walkers of this level that src/grid/query.c calls: positions lo .. hi-1 of the batch,
 * position k being the caller's query ord->perm[k] (ord NULL: k; order.h says when ord has
 * no perm). Part of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* A prepared block planned slot by slot (block_plan.inl), tested and answered. The list is
 * tested and the slots before answered whenever it fills; a slot the block cannot take goes
 * to the per-query walk, after the slots before it (all's hits stay in query order). */
HS_INLINE hs_status hs_block_answer_by_slots(const hs_bw W)
{
    hs_block *B = W.B;
    const size_t nq = B->nq;
    for (size_t j = 0; j < nq; j++) {
        if (B->state[j] != HS_SLOT_LIVE)
            continue;
        int s = hs_block_plan_slot(B, W.g, j, W.sem);
        if (s == 1 && B->nitems > 0) { /* a full list: answer the slots before, start again */
            if (hs_block_flush(W, j) != HS_OK)
                return HS_E_NOMEM;
            s = hs_block_plan_slot(B, W.g, j, W.sem);
        }
        if (s) {
            if (hs_block_flush(W, j) != HS_OK ||
                HS_FN(block_walk_query)(B, W.g, j, W.sem, W.mode, W.o, W.acc) != HS_OK)
                return HS_E_NOMEM;
            B->answered = j + 1;
        }
    }
    return hs_block_flush(W, nq);
}

/* Count and all plan by rows where a vector holds 8 slots or more; on the narrower levels
 * planning a slot's rows one after the other costs less (no early exit to gain, and their
 * gathers are emulated lane by lane). */
#define HS_PLAN_ROWS_ALL_MODES (HS_W >= 8)

/* The range r (walkers.h), HS_BLOCK_Q positions at a time: prep, set-up, then the
 * row plan (block_plan_rows.inl), or the slot-by-slot plan (block_plan.inl) for count and all
 * on the narrow levels and when all's list cannot hold the block. */
HS_INLINE hs_status hs_block_range(const hs_bw W, const hs_walk_range *r)
{
    hs_block *B = W.B;
    HS_ASSERT(((uintptr_t)B & (HS_WALK_STATE_ALIGN - 1)) == 0);
    B->trace = W.o->trace;
    /* all: blocks left to plan slot by slot after one whose items did not fit (its neighbours
     * in the locality order are alike: planning them by rows first would be wasted too) */
    unsigned by_slots = 0;
    const int cull = hs_block_may_set_aside(W.g);
    for (size_t base = r->lo; base < r->hi; base += HS_BLOCK_Q) {
        const size_t nq = r->hi - base < HS_BLOCK_Q ? r->hi - base : HS_BLOCK_Q;
        hs_block_prep(B, r->qs, r->ord, W.sem, base, nq, W.acc);
        if (r->bound != NULL) {
            HS_ASSERT(r->ord == NULL || r->ord->perm != NULL); /* B->idx: the caller's */
            if (W.mode == HS_WALK_ANY)
                hs_block_seed_hits(B, r->bound, nq);
            else
                hs_block_seed_bests(B, r->bound, nq);
        }
        if (HS_TF_HAS(W.tf, HS_TF_MOVE))
            hs_block_moving_prep(B, r->qs, r->sem, W.mv, W.acc);
        if (nq == 1) { /* a batch of one: the per-query walk, without the block's set-up */
            /* any: a slot seeded with a hit is answered by the flush */
            const int walk = B->state[0] == HS_SLOT_LIVE && !(W.mode == HS_WALK_ANY && B->nhits[0]);
            if (walk && HS_FN(block_walk_query)(B, W.g, 0, W.sem, W.mode, W.o, W.acc) != HS_OK)
                return HS_E_NOMEM;
            B->answered = (size_t)walk;
            if (hs_block_flush(W, 1) != HS_OK)
                return HS_E_NOMEM;
            continue;
        }
        double box[4], qmax, amag;
        const int finite = cull && hs_block_extent(B, box, &qmax, &amag);
        B->apart = 0;
        const int by = hs_repeats_passed_by(W.mode, B->has_ign, HS_TF_HAS(W.tf, HS_TF_MOVE));
        for (int l = 0; l < W.g->nlevels; l++) {
            if ((finite && hs_block_level_apart(&W.g->lv[l], box, qmax, amag)) ||
                (by && W.g->lv[l].repeats)) {
                B->apart |= 1u << l;
                for (size_t j = 0; j < B->nq; j++)
                    B->rows[l].nrows[j] = B->rows[l].row0[j] = 0.0f;
                continue;
            }
            hs_block_setup(B, &W.g->lv[l], &B->rows[l]);
        }
        if (by_slots == 0 &&
            (HS_PLAN_ROWS_ALL_MODES || W.mode == HS_WALK_CLOSEST || W.mode == HS_WALK_ANY)) {
            const int done = hs_block_answer_by_rows(W);
            if (done < 0)
                return HS_E_NOMEM;
            if (done)
                continue;
            by_slots = HS_ALL_SLOT_BLOCKS;
        }
        by_slots -= by_slots > 0;
        if (hs_block_answer_by_slots(W) != HS_OK)
            return HS_E_NOMEM;
    }
    return HS_OK;
}

/* A range walk of `mode`, with the semantics' boundary test (a third of the pair test) bound
 * as a constant. The circle-mask flag is a run-time bit of tf, taken the same way on every
 * item of the range (the other bits stay known to the compiler); the thickness is always
 * added (r + 0 is r exactly, so q = 0 queries give the same answers). Binding either would
 * double the copies of the block walk per mode and level. */
/* A grid of wall pieces (grid/wall_grid.h): the walk with HS_TF_WALL, the pieces of the cells
 * it crosses through their filter and the exact test (which applies the semantics), out of
 * line, so the walks of circles stay as they are. */
static HS_OUTLINE hs_status HS_FN(walls_range)(const hs_walk_range *r, const int mode,
                                               const hs_block_out *o)
{
    hs_bw W = {r->state,
               r->g,
               o,
               r->tally,
               r->sem,
               HS_WALK_CLOSEST,
               (r->g->mask ? (unsigned)HS_TF_MASK : 0u) | HS_TF_WALL,
               NULL};
    switch (mode) {
    case HS_WALK_CLOSEST: return hs_block_range(W, r);
    case HS_WALK_ANY: W.mode = HS_WALK_ANY; return hs_block_range(W, r);
    case HS_WALK_COUNT: W.mode = HS_WALK_COUNT; return hs_block_range(W, r);
    default: W.mode = HS_WALK_ALL; return hs_block_range(W, r);
    }
}

/* Against circles moving by mv (block_moving.inl): the walk solid, each query's thickness
 * grown by the motion, the candidates tested exactly under r->sem; out of line like a wall
 * grid's walk. */
static HS_OUTLINE hs_status HS_FN(moving_range)(const hs_walk_range *r, const hs_moving_set *mv,
                                                const hs_moving_walk_out *mo)
{
    hs_block_out o;
    memset(&o, 0, sizeof o);
    o.co = mo->co;
    o.hit = mo->mode == HS_WALK_ANY ? mo->hit : NULL; /* the answer step writes the one set */
    o.count = mo->mode == HS_WALK_COUNT ? mo->count : NULL;
    o.buf = mo->buf;
    o.cnt = mo->cnt;
    hs_bw W = {r->state,
               r->g,
               &o,
               r->tally,
               HS_SOLID,
               HS_WALK_CLOSEST,
               (r->g->mask ? (unsigned)HS_TF_MASK : 0u) | HS_TF_MOVE,
               mv};
    switch (mo->mode) {
    case HS_WALK_CLOSEST: return hs_block_range(W, r);
    case HS_WALK_ANY: W.mode = HS_WALK_ANY; return hs_block_range(W, r);
    case HS_WALK_COUNT: W.mode = HS_WALK_COUNT; return hs_block_range(W, r);
    default: W.mode = HS_WALK_ALL; return hs_block_range(W, r);
    }
}

HS_INLINE hs_status hs_block_run(const hs_walk_range *r, const int mode, const hs_block_out *o)
{
    if (r->g->walls != NULL)
        return HS_FN(walls_range)(r, mode, o);
    hs_bw W = {r->state, r->g, o, r->tally, r->sem, mode, r->g->mask ? (unsigned)HS_TF_MASK : 0u,
               NULL};
    if (!(r->sem & HS_BOUNDARY))
        return hs_block_range(W, r);
    W.tf |= HS_TF_BOUNDARY;
    return hs_block_range(W, r);
}

/* ---- The grid walkers (hs_grid_walkers, walkers.h) ------------------------------------ */

/* Answers staged in the order's records when it has them (hs_qorder.inv). */
HS_INLINE hs_block_out hs_block_out_of(const hs_walk_range *r)
{
    hs_block_out o;
    memset(&o, 0, sizeof o);
    o.stage = r->ord && r->ord->inv ? r->ord->rec : NULL;
    return o;
}

/* Closest and count out of line: the trace walker below runs the same copies. */
static HS_OUTLINE void HS_FN(closest_run)(const hs_walk_range *r, const hs_block_out *o)
{
    (void)hs_block_run(r, HS_WALK_CLOSEST, o);
}

static HS_OUTLINE void HS_FN(count_run)(const hs_walk_range *r, const hs_block_out *o)
{
    (void)hs_block_run(r, HS_WALK_COUNT, o);
}

static void HS_FN(grid_closest_range)(const hs_walk_range *r, hs_closest_out out)
{
    hs_block_out o = hs_block_out_of(r);
    o.co = out;
    o.stage_geo = o.stage ? r->ord->geo : NULL;
    HS_FN(closest_run)(r, &o);
}

static void HS_FN(grid_any_range)(const hs_walk_range *r, uint8_t *hit)
{
    hs_block_out o = hs_block_out_of(r);
    o.hit = hit;
    (void)hs_block_run(r, HS_WALK_ANY, &o);
}

static void HS_FN(grid_count_range)(const hs_walk_range *r, uint32_t *count)
{
    hs_block_out o = hs_block_out_of(r);
    o.count = count;
    HS_FN(count_run)(r, &o);
}

static hs_status HS_FN(grid_all_range)(const hs_walk_range *r, hs_hitbuf *buf, uint32_t *cnt)
{
    hs_block_out o = hs_block_out_of(r);
    o.stage = NULL;
    o.buf = buf;
    o.cnt = cnt;
    return hs_block_run(r, HS_WALK_ALL, &o);
}

/* The walk's own copies, so the tests trace what the walkers run. */
static void HS_FN(trace_range)(const hs_walk_range *r, int closest, uint32_t *count,
                               hs_closest_out co, hs_plan_trace *trace)
{
    const hs_walk_range rs = {r->g, r->qs, NULL, HS_SOLID, r->lo, r->hi, r->tally, r->state, NULL};
    hs_block_out o;
    memset(&o, 0, sizeof o);
    o.trace = trace;
    if (closest) {
        o.co = co;
        HS_FN(closest_run)(&rs, &o);
    } else {
        o.count = count;
        HS_FN(count_run)(&rs, &o);
    }
}
