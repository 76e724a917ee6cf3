/* SPDX-License-Identifier: MIT */
/* Internal: the block's answer step (5 in block.inl): each slot's result written to the
 * caller's arrays, or staged in the batch's locality order (hs_qorder), and the per-query
 * walk for the slots the block does not take. Part of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* The hit point and normal of closest's answer (id, t) from the circle at storage position
 * pos; NaN on a miss. */
HS_INLINE void hs_block_geometry(const hs_kq *kq, uint32_t id, float t, const hs_grid *g,
                                 uint32_t pos, hs_vec2 *p, hs_vec2 *nrm)
{
    p->x = p->y = nrm->x = nrm->y = NAN;
    if (id != HS_NONE)
        hs_hit_geometry(kq, g->x[pos], g->y[pos], t, p, nrm);
}

/* Closest's answer for the caller's query i: id, t (NaN on a miss) and, when asked for, the
 * hit point and normal from the circle at storage position pos. */
HS_INLINE void hs_block_put_closest(const hs_closest_out *o, size_t i, const hs_kq *kq, uint32_t id,
                                    float t, const hs_grid *g, uint32_t pos)
{
    const int hit = id != HS_NONE;
    o->idx[i] = id;
    o->t[i] = hit ? t : NAN;
    if (o->px || o->py || o->nx || o->ny) {
        hs_vec2 p, nrm;
        hs_block_geometry(kq, id, t, g, pos, &p, &nrm);
        if (o->px)
            o->px[i] = p.x;
        if (o->py)
            o->py[i] = p.y;
        if (o->nx)
            o->nx[i] = nrm.x;
        if (o->ny)
            o->ny[i] = nrm.y;
    }
}

/* Batch position pos's answer word, staged (hs_qorder.inv: over the record's d, which the
 * block read in its prep): any's flag, count's count, closest's id. */
HS_INLINE void hs_block_stage_word(const hs_block_out *o, size_t pos, uint32_t v)
{
    memcpy(o->stage + 4 * pos + 2, &v, sizeof v);
}

/* Closest's answer for batch position pos, staged: id and the t written out, as
 * hs_block_put_closest writes them. */
HS_INLINE void hs_block_stage_closest(const hs_block_out *o, size_t pos, uint32_t id, float t)
{
    /* t where the id is one, else NaN, by a mask: whether a query hit is the data's, and a
     * branch on it mispredicts */
    const uint32_t hit = 0u - (uint32_t)(id != HS_NONE);
    const float nan = NAN;
    uint32_t tw, nan_bits;
    memcpy(&tw, &t, sizeof tw);
    memcpy(&nan_bits, &nan, sizeof nan_bits);
    tw = (tw & hit) | (nan_bits & ~hit);
    hs_block_stage_word(o, pos, id);
    memcpy(o->stage + 4 * pos + 3, &tw, sizeof tw);
}

/* Closest's hit point and normal for batch position pos, staged (hs_qorder.geo). */
HS_INLINE void hs_block_stage_geometry(const hs_block_out *o, size_t pos, const hs_kq *kq,
                                       uint32_t id, float t, const hs_grid *g, uint32_t cpos)
{
    hs_vec2 p, nrm;
    hs_block_geometry(kq, id, t, g, cpos, &p, &nrm);
    float *r = o->stage_geo + 4 * pos;
    r[0] = p.x;
    r[1] = p.y;
    r[2] = nrm.x;
    r[3] = nrm.y;
}

HS_INLINE void hs_block_answer_closest(hs_block *B, const hs_grid *g, size_t upto, hs_semantics sem,
                                       const hs_block_out *o)
{
    float t;
    if (o->stage) {
        for (size_t j = B->answered; j < upto; j++)
            if (B->state[j] != HS_SLOT_DONE) {
                const uint32_t id = hs_block_best(B, j, &t);
                hs_block_stage_closest(o, B->base + j, id, t);
                if (o->stage_geo) {
                    const hs_kq kq = hs_block_kq(B, j, sem);
                    hs_block_stage_geometry(o, B->base + j, &kq, id, t, g, B->best_pos[j]);
                }
            }
        return;
    }
    for (size_t j = B->answered; j < upto; j++)
        if (B->state[j] != HS_SLOT_DONE) {
            const hs_kq kq = hs_block_kq(B, j, sem);
            const uint32_t id = hs_block_best(B, j, &t);
            hs_block_put_closest(&o->co, B->idx[j], &kq, id, t, g, B->best_pos[j]);
        }
}

HS_INLINE void hs_block_answer_anycount(const hs_block *B, size_t upto, const hs_block_out *o)
{
    for (size_t j = B->answered; j < upto; j++) {
        if (B->state[j] == HS_SLOT_DONE)
            continue;
        if (o->stage) /* any's count is 0 or 1 */
            hs_block_stage_word(o, B->base + j, B->nhits[j]);
        else if (o->count)
            o->count[B->idx[j]] = B->nhits[j];
        else
            o->hit[B->idx[j]] = (uint8_t)B->nhits[j];
    }
}

/* Answer slots answered .. upto-1 from what the tests folded into them (slots the per-query
 * walk answered are skipped). st: the tests' status (all's counts are 0 after a failure). */
HS_INLINE void hs_block_answer(const hs_bw W, size_t upto, hs_status st)
{
    hs_block *B = W.B;
    const hs_block_out *o = W.o;
    if (hs_block_answer_lanes(B, W.g, upto, W.sem, W.mode, o)) /* the level's own way */
        B->answered = upto;
    else if (W.mode == HS_WALK_CLOSEST && HS_TF_HAS(W.tf, HS_TF_MOVE))
        hs_block_moving_answer(B, W.g, upto, o);
    else if (W.mode == HS_WALK_CLOSEST)
        hs_block_answer_closest(B, W.g, upto, W.sem, o);
    else if (W.mode == HS_WALK_ALL)
        for (size_t j = B->answered; j < upto; j++)
            o->cnt[B->base + j] = st == HS_OK ? B->nhits[j] : 0;
    else
        hs_block_answer_anycount(B, upto, o);
    B->answered = upto;
}

/* Test the planned items and answer slots answered .. upto-1. */
HS_INLINE hs_status hs_block_flush(const hs_bw W, size_t upto)
{
    const hs_status st = hs_block_drain(W);
    hs_block_answer(W, upto, st);
    return st;
}

/* Slot j by the per-query walk, answered now. Out of line: one copy per ISA. */
static HS_OUTLINE hs_status HS_FN(block_walk_query)(hs_block *B, const hs_grid *g, size_t j,
                                                    hs_semantics sem, int mode,
                                                    const hs_block_out *o, hs_tally *acc)
{
    if (B->mv != NULL)
        return HS_FN(block_walk_moving)(B, g, j, mode, o, acc);
    const hs_kq kq = hs_block_kq(B, j, sem);
    const size_t i = B->idx[j];
    if (mode == HS_WALK_CLOSEST) {
        hs_walk w;
        hs_walk_closest(&w, g, &kq);
        acc->tests += w.tests;
        if (o->stage) {
            hs_block_stage_closest(o, B->base + j, w.best_id, w.best_t);
            if (o->stage_geo)
                hs_block_stage_geometry(o, B->base + j, &kq, w.best_id, w.best_t, g, w.best_pos);
        } else
            hs_block_put_closest(&o->co, i, &kq, w.best_id, w.best_t, g, w.best_pos);
    } else if (mode == HS_WALK_ALL) {
        const size_t before = o->buf->len;
        if (HS_FN(walk_all)(g, &kq, o->buf, &acc->tests) != HS_OK) {
            o->buf->len = before;
            return HS_E_NOMEM;
        }
        o->cnt[B->base + j] = (uint32_t)(o->buf->len - before);
    } else {
        /* any: a slot seeded with a hit (hs_block_seed_hits) needs no walk */
        const uint32_t v = o->count      ? HS_FN(walk_count)(g, &kq, &acc->tests)
                           : B->nhits[j] ? 1u
                                         : (uint32_t)(HS_FN(walk_any)(g, &kq, &acc->tests) != 0);
        if (o->stage)
            hs_block_stage_word(o, B->base + j, v);
        else if (o->count)
            o->count[i] = v;
        else
            o->hit[i] = (uint8_t)v;
    }
    return HS_OK;
}

/* Slot j of a block whose other slots were planned some other way (closest, any, count): its
 * items planned slot by slot (a full list is tested first, as closest, any and count fold
 * their hits whatever the order of the items), or, when they do not fit even then, the slot
 * walked and answered at once. */
HS_INLINE void hs_block_plan_or_walk(const hs_bw W, size_t j)
{
    hs_block *B = W.B;
    int s = hs_block_plan_slot(B, W.g, j, W.sem);
    if (s == 1 && B->nitems > 0) {
        (void)hs_block_drain(W);
        s = hs_block_plan_slot(B, W.g, j, W.sem);
    }
    if (s) {
        (void)HS_FN(block_walk_query)(B, W.g, j, W.sem, W.mode, W.o, W.acc);
        B->state[j] = HS_SLOT_DONE;
    }
}

/* Whether a row-synchronous plan walks the level of large circles first. Closest: a query
 * that starts inside one is then answered at once, or its t = 0 ends the small circles' walk
 * after one row. Any: the level whose circles a query meets more often first (hs_glevel.meet:
 * with a few large circles among many small ones, most queries hit a small one and never walk
 * the large). */
HS_INLINE int hs_block_big_first(const hs_grid *g, const int mode)
{
    if (g->nlevels <= g->nsmall)
        return 0;
    float small = 0.0f;
    for (int l = 0; l < g->nsmall; l++)
        small += g->lv[l].repeats ? 0.0f : g->lv[l].meet;
    return mode == HS_WALK_CLOSEST || (mode == HS_WALK_ANY && g->lv[g->nsmall].meet > small);
}
