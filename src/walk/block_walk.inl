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
HS_INLINE hs_status hs_block_answer_by_slots(hs_block *B, const hs_grid *g, hs_semantics sem,
                                             const int mode, const hs_block_out *o, hs_tally *acc,
                                             const int thick, const int boundary, const int usemask)
{
    const size_t nq = B->nq;
    for (size_t j = 0; j < nq; j++) {
        if (B->state[j] != HS_SLOT_LIVE)
            continue;
        int s = hs_block_plan_slot(B, g, j, sem);
        if (s == 1 && B->nitems > 0) { /* a full list: answer the slots before, start again */
            if (hs_block_flush(B, g, j, sem, mode, o, acc, thick, boundary, usemask) != HS_OK)
                return HS_E_NOMEM;
            s = hs_block_plan_slot(B, g, j, sem);
        }
        if (s) {
            if (hs_block_flush(B, g, j, sem, mode, o, acc, thick, boundary, usemask) != HS_OK ||
                HS_FN(block_walk_query)(B, g, j, sem, mode, o, acc) != HS_OK)
                return HS_E_NOMEM;
            B->answered = j + 1;
        }
    }
    return hs_block_flush(B, g, nq, sem, mode, o, acc, thick, boundary, usemask);
}

/* Count and all plan by rows where a vector holds 8 slots or more; on the narrower levels
 * planning a slot's rows one after the other costs less (no early exit to gain, and their
 * gathers are emulated lane by lane). */
#define HS_PLAN_ROWS_ALL_MODES (HS_W >= 8)

/* Positions lo .. hi-1, HS_BLOCK_Q at a time: prep, set-up, then the row plan
 * (block_plan_rows.inl), or the slot-by-slot plan (block_plan.inl) for count and all on the
 * narrow levels and when all's list cannot hold the block. */
HS_INLINE hs_status hs_block_range(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                                   hs_semantics sem, size_t lo, size_t hi, const int mode,
                                   const hs_block_out *o, hs_tally *acc, hs_block *B,
                                   const int thick, const int boundary, const int usemask)
{
    HS_ASSERT(((uintptr_t)B & (HS_WALK_STATE_ALIGN - 1)) == 0);
    B->trace = o->trace;
    /* all: blocks left to plan slot by slot after one whose items did not fit (its neighbours
     * in the locality order are alike: planning them by rows first would be wasted too) */
    unsigned by_slots = 0;
    for (size_t base = lo; base < hi; base += HS_BLOCK_Q) {
        const size_t nq = hi - base < HS_BLOCK_Q ? hi - base : HS_BLOCK_Q;
        hs_block_prep(B, qs, ord, sem, base, nq, acc);
        for (int l = 0; l < g->nlevels; l++)
            hs_block_setup(B, &g->lv[l], &B->rows[l]);
        if (by_slots == 0 &&
            (HS_PLAN_ROWS_ALL_MODES || mode == HS_WALK_CLOSEST || mode == HS_WALK_ANY)) {
            const int done =
                hs_block_answer_by_rows(B, g, sem, mode, o, acc, thick, boundary, usemask);
            if (done < 0)
                return HS_E_NOMEM;
            if (done)
                continue;
            by_slots = HS_ALL_SLOT_BLOCKS;
        }
        by_slots -= by_slots > 0;
        if (hs_block_answer_by_slots(B, g, sem, mode, o, acc, thick, boundary, usemask) != HS_OK)
            return HS_E_NOMEM;
    }
    return HS_OK;
}

/* Only the semantics is bound as a constant (boundary adds a third of the pair test). The
 * thickness is always added (r + 0 is r exactly, so q = 0 queries give the same answers) and
 * the circle-mask test is a branch taken the same way on every item of the range: binding
 * them too would make eight copies of the block walk per mode and ISA. */
HS_INLINE hs_status hs_block_run(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                                 hs_semantics sem, size_t lo, size_t hi, const int mode,
                                 const hs_block_out *o, hs_tally *acc, void *state)
{
    const int usemask = g->mask != NULL;
    hs_block *B = state;
    if (sem & HS_BOUNDARY)
        return hs_block_range(g, qs, ord, sem, lo, hi, mode, o, acc, B, 1, 1, usemask);
    return hs_block_range(g, qs, ord, sem, lo, hi, mode, o, acc, B, 1, 0, usemask);
}

/* ---- The grid walkers (hs_grid_walkers, walkers.h) ------------------------------------ */

static void HS_FN(grid_closest_range)(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                                      hs_semantics sem, size_t lo, size_t hi, hs_closest_out out,
                                      hs_tally *acc, void *state)
{
    hs_block_out o;
    memset(&o, 0, sizeof o);
    o.co = out;
    o.stage = ord && ord->inv ? ord->rec : NULL;
    o.stage_geo = ord && ord->inv ? ord->geo : NULL;
    (void)hs_block_run(g, qs, ord, sem, lo, hi, HS_WALK_CLOSEST, &o, acc, state);
}

static void HS_FN(grid_any_range)(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                                  hs_semantics sem, size_t lo, size_t hi, uint8_t *hit,
                                  hs_tally *acc, void *state)
{
    hs_block_out o;
    memset(&o, 0, sizeof o);
    o.hit = hit;
    o.stage = ord && ord->inv ? ord->rec : NULL;
    (void)hs_block_run(g, qs, ord, sem, lo, hi, HS_WALK_ANY, &o, acc, state);
}

static void HS_FN(grid_count_range)(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                                    hs_semantics sem, size_t lo, size_t hi, uint32_t *count,
                                    hs_tally *acc, void *state)
{
    hs_block_out o;
    memset(&o, 0, sizeof o);
    o.count = count;
    o.stage = ord && ord->inv ? ord->rec : NULL;
    (void)hs_block_run(g, qs, ord, sem, lo, hi, HS_WALK_COUNT, &o, acc, state);
}

static hs_status HS_FN(grid_all_range)(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                                       hs_semantics sem, size_t lo, size_t hi, hs_hitbuf *buf,
                                       uint32_t *cnt, hs_tally *acc, void *state)
{
    hs_block_out o;
    memset(&o, 0, sizeof o);
    o.buf = buf;
    o.cnt = cnt;
    return hs_block_run(g, qs, ord, sem, lo, hi, HS_WALK_ALL, &o, acc, state);
}

static void HS_FN(trace_range)(const hs_grid *g, const hs_queries *qs, int closest, size_t lo,
                               size_t hi, uint32_t *count, hs_closest_out co, hs_tally *acc,
                               void *state, hs_plan_trace *trace)
{
    hs_block_out o;
    memset(&o, 0, sizeof o);
    o.trace = trace;
    if (closest) {
        o.co = co;
        (void)hs_block_run(g, qs, NULL, HS_SOLID, lo, hi, HS_WALK_CLOSEST, &o, acc, state);
    } else {
        o.count = count;
        (void)hs_block_run(g, qs, NULL, HS_SOLID, lo, hi, HS_WALK_COUNT, &o, acc, state);
    }
}
