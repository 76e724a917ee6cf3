/* SPDX-License-Identifier: MIT */
/* Internal: queries against moving circles through the per-query walk (walk_query.inl). Part
 * of the per-ISA walk (walk.inl).
 *
 * Circle p stands at c_p + t d_p when the query is at P(t) = a + t d, so the query hits it
 * when a + t (d - d_p) hits the circle standing still. Over the query's [tmin, tmax] the
 * circle stays within T |d_p| <= T dmax of c_p (T = max(|tmin|, |tmax|)), so a point of the
 * query within r_p + q of the moving circle lies within r_p + q + T dmax of c_p: the query
 * walked with that thickness (solid, rounded up with a margin far above the float test's
 * rounding) meets every circle it can hit. Each circle it meets (a candidate) then gets the
 * exact test on the relative motion, in scalar (the arithmetic of core.h, hs_pair_hits and
 * hs_pair_times, as hs_intersect_circle), so the answers depend neither on the level nor on
 * the thread count. The inflated query is entered no later than the true one at every circle,
 * so the walk's early exit for closest (best t before any later row can be entered) stays
 * exact. */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* The per-query walk with the moving query: hs_walk first, so the run hook (hs_walk_run) finds
 * the rest from its hs_walk. */
typedef struct hs_mwalk {
    hs_walk w;
    hs_query q; /* the caller's query */
    hs_semantics sem;
    const hs_moving_set *mv;
} hs_mwalk;

/* Candidate p against the moving query: 1 on a hit, its entry time in *t. A relative motion
 * whose |d|^2 is below FLT_MIN counts as none (the query then stands still relative to the
 * circle). */
HS_INLINE hs_kq hs_moving_kq(const hs_mwalk *m, uint32_t p)
{
    hs_query q = m->q;
    q.d.x -= m->mv->dx[p];
    q.d.y -= m->mv->dy[p];
    if (!(q.d.x * q.d.x + q.d.y * q.d.y >= FLT_MIN))
        q.d.x = q.d.y = 0.0f;
    return hs_kq_make(q, m->sem, 0u);
}

HS_INLINE int hs_moving_hit(const hs_mwalk *m, uint32_t p, float *t)
{
    const hs_grid *g = m->w.g;
    const hs_kq k = hs_moving_kq(m, p);
    if (!hs_pair_hits(&k, g->x[p], g->y[p], g->r[p]))
        return 0;
    *t = hs_pair_times(&k, g->x[p], g->y[p], g->r[p]).t;
    return 1;
}

/* The run [b, e) of storage: candidates by the inflated query (tf: its flags), each tested
 * exactly. Returns 1 to stop (any: a hit; all: no memory). */
HS_INLINE int hs_moving_test_run(hs_mwalk *m, const int mode, uint32_t b, uint32_t e,
                                 const unsigned tf)
{
    hs_walk *w = &m->w;
    const hs_run run = hs_walk_storage_run(w->g, b, e);
    const size_t n = run.n;
    hs_vc c;
    for (size_t i = 0; i < n; i += HS_W) {
        const size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
        unsigned bits = hs_vm_bits(hs_walk_vector_hits(&w->Q, &run, i, k, &c, tf));
        for (; bits; bits &= bits - 1u) {
            const uint32_t p = b + (uint32_t)i + (uint32_t)__builtin_ctz(bits);
            float t;
            w->tests++;
            if (!hs_moving_hit(m, p, &t))
                continue;
            const uint32_t id = w->g->id[p];
            if (mode == HS_WALK_ANY)
                return 1;
            if (mode == HS_WALK_COUNT) {
                w->count++;
            } else if (mode == HS_WALK_CLOSEST) {
                if (w->best_id == HS_NONE || t < w->best_t || (t == w->best_t && id < w->best_id)) {
                    w->best_t = t;
                    w->best_id = id;
                    w->best_pos = p;
                }
            } else {
                hs_hitbuf *buf = w->buf;
                if (buf->len == buf->cap && hs_hitbuf_reserve(buf, 1) != HS_OK) {
                    w->err = HS_E_NOMEM;
                    return 1;
                }
                buf->id[buf->len] = id;
                buf->t[buf->len++] = t;
            }
        }
    }
    return 0;
}

/* hs_walk_run's hook for a walk whose tf has HS_TF_MOVE (hs_walk_run counts no tests for it:
 * the exact tests are counted here). Out of line: one copy per ISA and flag set. */
static HS_OUTLINE int HS_FN(walk_moving_run)(hs_walk *w, int mode, uint32_t b, uint32_t e)
{
    hs_mwalk *m = (hs_mwalk *)(void *)w;
    const unsigned tf = HS_TF_THICK | (w->tf & HS_TF_MASK);
    return tf & HS_TF_MASK ? hs_moving_test_run(m, mode, b, e, HS_TF_THICK | HS_TF_MASK)
                           : hs_moving_test_run(m, mode, b, e, HS_TF_THICK);
}

/* The inflated query of q (valid, finite interval): thickness q + T dmax, rounded up with a
 * relative 2^-16 of the magnitudes near it, solid, with the query's mask. */
HS_INLINE hs_kq hs_moving_reach_kq(const hs_query *q, uint32_t mask, const hs_moving_set *mv)
{
    const double T = fmax(fabs((double)q->tmin), fabs((double)q->tmax));
    const double e = (double)q->q + T * mv->dmax;
    const double mag = fabs((double)q->a.x) + fabs((double)q->a.y) +
                       T * (fabs((double)q->d.x) + fabs((double)q->d.y)) + e + mv->rmax;
    hs_query qi = *q;
    qi.q = nextafterf((float)(e + 0x1p-16 * mag), INFINITY);
    return hs_kq_make(qi, HS_SOLID, mask);
}

/* Position k's query (the caller's i): a and d from the order's records, which lie in the
 * order of the positions (the caller's arrays through the permutation miss the cache). */
HS_INLINE hs_query hs_query_at_pos(const hs_queries *qs, const hs_qorder *ord, size_t k, size_t i)
{
    if (ord == NULL)
        return hs_query_at(qs, i);
    const float *rec = ord->rec + 4 * k;
    hs_query q;
    q.a.x = rec[0];
    q.a.y = rec[1];
    q.d.x = rec[2];
    q.d.y = rec[3];
    q.tmin = qs->tmin ? qs->tmin[i] : qs->tmin_all;
    q.tmax = qs->tmax ? qs->tmax[i] : qs->tmax_all;
    q.q = qs->q ? qs->q[i] : qs->q_all;
    return q;
}

/* Query i's fields in the caller's per-query arrays, requested ahead of their use. */
#define HS_MOVING_AHEAD 8
HS_INLINE void hs_moving_prefetch(const hs_queries *qs, size_t i)
{
    if (qs->tmin)
        hs_prefetch(qs->tmin + i);
    if (qs->tmax)
        hs_prefetch(qs->tmax + i);
    if (qs->q)
        hs_prefetch(qs->q + i);
    if (qs->mask)
        hs_prefetch(qs->mask + i);
}

/* Positions lo .. hi-1 of r against the moving circles mv (walkers.h). */
static hs_status HS_FN(moving_range)(const hs_walk_range *r, const hs_moving_set *mv,
                                     const hs_moving_walk_out *o)
{
    const hs_grid *g = r->g;
    for (size_t k = r->lo; k < r->hi; k++) {
        const size_t i = r->ord ? r->ord->perm[k] : k;
        if (r->ord && k + HS_MOVING_AHEAD < r->hi) /* the caller's arrays, read out of order */
            hs_moving_prefetch(r->qs, r->ord->perm[k + HS_MOVING_AHEAD]);
        hs_mwalk m;
        m.q = hs_query_at_pos(r->qs, r->ord, k, i);
        m.sem = r->sem;
        m.mv = mv;
        const uint32_t mask = r->qs->mask ? r->qs->mask[i] : r->qs->mask_all;
        const int valid = hs_query_validate(m.q) == HS_OK;
        if (!valid || !isfinite(m.q.tmin) || !isfinite(m.q.tmax)) {
            r->tally->invalid++;
            r->tally->first = i < r->tally->first ? i : r->tally->first;
        }
        const hs_kq kq = hs_moving_reach_kq(&m.q, mask, mv);
        hs_walk_init(&m.w, g, &kq);
        m.w.tf |= HS_TF_MOVE;
        m.w.buf = o->buf;
        const size_t before = o->buf ? o->buf->len : 0;
        int hit = 0;
        if (valid && isfinite(m.q.tmin) && isfinite(m.q.tmax) && !hs_query_mask_none(mask))
            for (int l = 0; l < g->nlevels && !hit; l++)
                hit = hs_walk_level(&m.w, o->mode, &kq, &g->lv[l]);
        r->tally->tests += m.w.tests;
        if (o->mode == HS_WALK_ANY) {
            o->hit[i] = (uint8_t)hit;
        } else if (o->mode == HS_WALK_COUNT) {
            o->count[i] = m.w.count;
        } else if (o->mode == HS_WALK_ALL) {
            if (m.w.err != HS_OK)
                return m.w.err;
            o->cnt[k] = (uint32_t)(o->buf->len - before);
        } else {
            const uint32_t id = m.w.best_id;
            const int got = id != HS_NONE;
            hs_vec2 p = {NAN, NAN}, nrm = {NAN, NAN};
            if (got) {
                const uint32_t cp = m.w.best_pos;
                const hs_kq rk = hs_moving_kq(&m, cp);
                hs_hit_geometry(&rk, g->x[cp], g->y[cp], m.w.best_t, &p, &nrm);
                p.x = m.q.a.x + m.w.best_t * m.q.d.x; /* the query's own point */
                p.y = m.q.a.y + m.w.best_t * m.q.d.y;
            }
            o->co.idx[i] = id;
            o->co.t[i] = got ? m.w.best_t : NAN;
            if (o->co.px)
                o->co.px[i] = p.x;
            if (o->co.py)
                o->co.py[i] = p.y;
            if (o->co.nx)
                o->co.nx[i] = nrm.x;
            if (o->co.ny)
                o->co.ny[i] = nrm.y;
        }
    }
    return HS_OK;
}
