/* SPDX-License-Identifier: MIT */
/* Internal: the block's steps against moving circles (walk_moving.inl says why they are
 * exact). The block walks each slot's query with its thickness grown by the motion (solid,
 * hs_moving_reach_kq), so the vector test of the circles finds the candidates; each lane it
 * hits then takes the exact test on the relative motion (hs_moving_rel_hit) under the slot's
 * own query and semantics, lane by lane. The lanes hit are few (the growth is a displacement),
 * so these steps are scalar and out of line, and the walks of standing circles stay as they
 * are. Part of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* Slot j's query as the caller gave it (the block's own has the walk's thickness, and a
 * zero-length query's interval collapsed). */
HS_INLINE hs_query hs_block_moving_query(const hs_block *B, size_t j)
{
    hs_query q;
    q.a.x = B->ax[j];
    q.a.y = B->ay[j];
    q.d.x = B->dx[j];
    q.d.y = B->dy[j];
    q.tmin = B->mt0[j];
    q.tmax = B->mt1[j];
    q.q = B->mq[j];
    return q;
}

/* After hs_block_prep (solid): each live slot's own thickness and interval kept, a slot
 * without a finite interval made an invalid one (counted), the others' thickness grown by the
 * motion; the exact tests apply sem. */
static HS_OUTLINE void hs_block_moving_prep(hs_block *B, const hs_queries *qs, hs_semantics sem,
                                            const hs_moving_set *mv, hs_tally *acc)
{
    HS_ASSERT(mv != NULL && !B->skip);
    B->mv = mv;
    B->sem = sem;
    for (size_t j = 0; j < B->nq; j++) {
        B->mq[j] = B->q[j];
        B->mt0[j] = B->tmin[j];
        B->mt1[j] = B->tmax[j];
        if (B->state[j] != HS_SLOT_LIVE)
            continue;
        if (!(B->inv_dd[j] > 0.0f)) { /* a point: hs_kq_make collapsed its interval */
            const size_t i = B->idx[j];
            B->mt0[j] = qs->tmin ? qs->tmin[i] : qs->tmin_all;
            B->mt1[j] = qs->tmax ? qs->tmax[i] : qs->tmax_all;
        }
        if (!isfinite(B->mt0[j]) || !isfinite(B->mt1[j])) {
            B->state[j] = HS_SLOT_INVALID;
            acc->invalid++;
            acc->first = B->idx[j] < acc->first ? B->idx[j] : acc->first;
            continue;
        }
        const hs_query q = hs_block_moving_query(B, j);
        B->q[j] = hs_moving_reach_kq(&q, B->kmask[j], mv).q;
    }
}

/* The candidates `bits` of item it against its slot's query relative to each one's motion,
 * HS_W at a time: hs_moving_rel_kq, hs_pair_hits and hs_pair_times lane-wise, every
 * operation as core.h's and rounded as there (no fused multiply-add), so each lane's answer
 * is the scalar test's at every level. Returns the lanes hit; their entry t in *t. */
HS_INLINE unsigned hs_block_moving_lanes(const hs_block *B, const hs_grid *g, const hs_item it,
                                         unsigned bits, hs_vf *t)
{
    const size_t j = it.slot;
    const hs_moving_set *mv = B->mv;
    const hs_vf zero = hs_vf_set1(0.0f);
    hs_vq Q;
    Q.ax = hs_vf_set1(B->ax[j]);
    Q.ay = hs_vf_set1(B->ay[j]);
    hs_vf dx = hs_vf_sub(hs_vf_set1(B->dx[j]), hs_vf_loadu(mv->dx + it.start));
    hs_vf dy = hs_vf_sub(hs_vf_set1(B->dy[j]), hs_vf_loadu(mv->dy + it.start));
    /* a relative motion below FLT_MIN squared is none: a point, its interval collapsed */
    const hs_vm moves =
        hs_vm_le(hs_vf_set1(FLT_MIN), hs_vf_add(hs_vf_mul(dx, dx), hs_vf_mul(dy, dy)));
    dx = hs_vf_select(moves, dx, zero);
    dy = hs_vf_select(moves, dy, zero);
    Q.dx = dx;
    Q.dy = dy;
    Q.dd = hs_vf_add(hs_vf_mul(dx, dx), hs_vf_mul(dy, dy));
    Q.inv_dd = hs_vf_select(
        moves, hs_vf_div(hs_vf_set1(1.0f), hs_vf_select(moves, Q.dd, hs_vf_set1(1.0f))), zero);
    Q.ninv = hs_vf_neg(Q.inv_dd);
    const float t0 = B->mt0[j], t1 = B->mt1[j], tp = hs_clampf(0.0f, t0, t1);
    Q.tmin = hs_vf_select(moves, hs_vf_set1(t0), hs_vf_set1(tp));
    Q.tmax = hs_vf_select(moves, hs_vf_set1(t1), hs_vf_set1(tp));
    Q.q = hs_vf_set1(B->mq[j]);
    Q.kmask = hs_vi_set1(0u);
    Q.skip = (B->sem & HS_SKIP_START) != 0;
    hs_vc c;
    c.cx = hs_vf_loadu(g->x + it.start);
    c.cy = hs_vf_loadu(g->y + it.start);
    c.r = hs_vf_loadu(g->r + it.start);
    const int boundary = (B->sem & HS_BOUNDARY) != 0;
    const hs_vs s = hs_v_hits1_r(&Q, c, 1, 1);
    hs_vm m = hs_vm_and(boundary ? hs_v_hits2_r(&Q, s, 1, 1) : hs_v_hits2_r(&Q, s, 0, 1),
                        hs_vm_from_bits(bits));
    if (Q.skip && hs_vm_bits(m))
        m = hs_v_skip_start_r(&Q, s.fx, s.fy, s.R2, m, 1);
    bits = hs_vm_bits(m);
    if (t != NULL && bits)
        *t = boundary ? hs_v_entry_r(&Q, c, 1, 1, 1) : hs_v_entry_r(&Q, c, 1, 0, 1);
    return bits;
}

/* Slot j's exact test against storage position p: 1 on a hit, its t in *t. */
HS_INLINE int hs_block_moving_hit(const hs_block *B, const hs_grid *g, size_t j, uint32_t p,
                                  float *t)
{
    const hs_kq k = hs_moving_rel_kq(hs_block_moving_query(B, j), B->sem, B->mv, p);
    return hs_moving_rel_hit(&k, g, p, t);
}

/* The lanes of bits (candidates of item it) that the slot's query hits. */
static HS_OUTLINE unsigned hs_block_moving_bits(const hs_block *B, const hs_grid *g,
                                                const hs_item it, unsigned bits)
{
    return hs_block_moving_lanes(B, g, it, bits, NULL);
}

/* Closest: the candidates `bits` of item it through the exact test, each hit folded into the
 * slot's best (hs_block_fold_t). */
static HS_OUTLINE void hs_block_moving_fold_item(hs_block *B, const hs_grid *g, const hs_item it,
                                                 unsigned bits)
{
    if ((bits & (bits - 1u)) == 0u) { /* one candidate: the scalar test, the same answer */
        const uint32_t pos = it.start + (uint32_t)__builtin_ctz(bits);
        float t1;
        if (hs_block_moving_hit(B, g, it.slot, pos, &t1))
            hs_block_fold_t(B, it.slot, t1, g->id[pos], pos);
        return;
    }
    hs_vf tv;
    bits = hs_block_moving_lanes(B, g, it, bits, &tv);
    if (bits == 0u)
        return;
    float t[HS_W];
    hs_vf_storeu(t, tv);
    for (; bits != 0u; bits &= bits - 1u) {
        const unsigned lane = (unsigned)__builtin_ctz(bits);
        hs_block_fold_t(B, it.slot, t[lane], g->id[it.start + lane], it.start + lane);
    }
}

/* All: the hits [from, to) of buf, written as (slot, storage position), turned into (t, id). */
static HS_OUTLINE void hs_block_moving_all_times(const hs_block *B, const hs_grid *g,
                                                 hs_hitbuf *buf, size_t from, size_t to)
{
    const uint32_t *slot = (const uint32_t *)(const void *)buf->t;
    for (size_t k = from; k < to; k++) {
        const uint32_t q = slot[k], pos = buf->id[k];
        float t = INFINITY;
        const int hit = hs_block_moving_hit(B, g, q, pos, &t);
        HS_ASSERT(hit); /* the lanes written are those the exact test kept */
        (void)hit;
        buf->t[k] = t;
        buf->id[k] = g->id[pos];
    }
}

/* Closest's answers of slots answered .. upto-1 (none staged: the moving engine's order has
 * a permutation and no staging). */
HS_INLINE void hs_block_moving_answer(const hs_block *B, const hs_grid *g, size_t upto,
                                      const hs_block_out *o)
{
    HS_ASSERT(o->stage == NULL);
    for (size_t j = B->answered; j < upto; j++)
        if (B->state[j] != HS_SLOT_DONE) {
            float t;
            const uint32_t id = hs_block_best(B, j, &t);
            hs_moving_put_closest(g, B->mv, hs_block_moving_query(B, j), B->sem, id, t,
                                  B->best_pos[j], &o->co, B->idx[j]);
        }
}

/* Slot j by the per-query walk against the moving circles, answered now. */
static HS_OUTLINE hs_status HS_FN(block_walk_moving)(hs_block *B, const hs_grid *g, size_t j,
                                                     int mode, const hs_block_out *o, hs_tally *acc)
{
    hs_mwalk m;
    const size_t i = B->idx[j], before = o->buf ? o->buf->len : 0;
    const int hit =
        hs_moving_walk_one(&m, g, hs_block_moving_query(B, j), B->kmask[j],
                           B->has_ign ? B->ign[j] : HS_NONE, B->sem, B->mv, mode, o->buf);
    acc->tests += m.w.tests;
    if (mode == HS_WALK_ANY) {
        o->hit[i] = (uint8_t)hit;
    } else if (mode == HS_WALK_COUNT) {
        o->count[i] = m.w.count;
    } else if (mode == HS_WALK_ALL) {
        if (m.w.err != HS_OK) {
            o->buf->len = before;
            return m.w.err;
        }
        o->cnt[B->base + j] = (uint32_t)(o->buf->len - before);
    } else {
        hs_moving_put_closest(g, B->mv, m.q, B->sem, m.w.best_id, m.w.best_t, m.w.best_pos, &o->co,
                              i);
    }
    return HS_OK;
}
