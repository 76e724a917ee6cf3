/* SPDX-License-Identifier: MIT */
/* Internal: queries against moving circles: the exact test on the relative motion and the
 * per-query walk (walk_query.inl); the block's steps are block_moving.inl. Part of the per-ISA
 * walk (walk.inl).
 *
 * Circle p stands at c_p + t d_p when the query is at P(t) = a + t d, so the query hits it
 * when a + t (d - d_p) hits the circle standing still. Over the query's [tmin, tmax] the
 * circle stays within T |d_p| <= T dmax of c_p (T = max(|tmin|, |tmax|)), so a point of the
 * query within r_p + q of the moving circle lies within r_p + q + T dmax of c_p: the query
 * walked with that thickness (solid, rounded up with a margin far above the float test's
 * rounding) meets every circle it can hit, in the block walk as in the per-query walk. Each
 * circle it meets (a candidate) then gets the
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

/* The query q (semantics sem) relative to the circle at storage position p moving by mv: a
 * relative motion whose |d|^2 is below FLT_MIN counts as none (the query then stands still
 * relative to the circle). */
HS_INLINE hs_kq hs_moving_rel_kq(hs_query q, hs_semantics sem, const hs_moving_set *mv, uint32_t p)
{
    q.d.x -= mv->dx[p];
    q.d.y -= mv->dy[p];
    if (!(q.d.x * q.d.x + q.d.y * q.d.y >= FLT_MIN))
        q.d.x = q.d.y = 0.0f;
    return hs_kq_make(q, sem, 0u);
}

/* Candidate p against the query of k (hs_moving_rel_kq): 1 on a hit, its entry time in *t. */
HS_INLINE int hs_moving_rel_hit(const hs_kq *k, const hs_grid *g, uint32_t p, float *t)
{
    if (!hs_pair_hits(k, g->x[p], g->y[p], g->r[p]))
        return 0;
    *t = hs_pair_times(k, g->x[p], g->y[p], g->r[p]).t;
    return 1;
}

HS_INLINE int hs_moving_hit(const hs_mwalk *m, uint32_t p, float *t)
{
    const hs_kq k = hs_moving_rel_kq(m->q, m->sem, m->mv, p);
    return hs_moving_rel_hit(&k, m->w.g, p, t);
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

/* hs_walk_run's hook for a walk whose mode has HS_WALK_MOVED (hs_walk_run counts no tests for it:
 * the exact tests are counted here). Out of line: one copy per ISA and flag set. */
static HS_OUTLINE int HS_FN(walk_moving_run)(hs_walk *w, int mode, uint32_t b, uint32_t e)
{
    hs_mwalk *m = (hs_mwalk *)(void *)w;
    const unsigned tf = HS_TF_THICK | (w->tf & (HS_TF_MASK | HS_TF_IGNORE));
    if (HS_TF_HAS(tf, HS_TF_IGNORE)) /* rare: one copy with the flags known at run time */
        return hs_moving_test_run(m, mode, b, e, tf);
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

/* Closest's answer (id, t at storage position pos; HS_NONE a miss) of query q to co at i:
 * the query's own point P(t), the normal from the moving circle's centre at t. */
HS_INLINE void hs_moving_put_closest(const hs_grid *g, const hs_moving_set *mv, hs_query q,
                                     hs_semantics sem, uint32_t id, float t, uint32_t pos,
                                     const hs_closest_out *co, size_t i)
{
    const int got = id != HS_NONE;
    hs_vec2 p = {NAN, NAN}, nrm = {NAN, NAN};
    if (got) {
        const hs_kq rk = hs_moving_rel_kq(q, sem, mv, pos);
        hs_hit_geometry(&rk, g->x[pos], g->y[pos], t, &p, &nrm);
        p.x = q.a.x + t * q.d.x; /* the query's own point */
        p.y = q.a.y + t * q.d.y;
    }
    co->idx[i] = id;
    co->t[i] = got ? t : NAN;
    if (co->px)
        co->px[i] = p.x;
    if (co->py)
        co->py[i] = p.y;
    if (co->nx)
        co->nx[i] = nrm.x;
    if (co->ny)
        co->ny[i] = nrm.y;
}

/* The per-query walk of q (valid, with a finite interval; mask, semantics sem) against the
 * circles moving by mv in mode (all: hits appended to buf): 1 when any stops at a hit (all:
 * on no memory, m->w.err). The answers are in m->w (best_*, count). */
HS_INLINE int hs_moving_walk_one(hs_mwalk *m, const hs_grid *g, hs_query q, uint32_t mask,
                                 uint32_t ignore, hs_semantics sem, const hs_moving_set *mv,
                                 int mode, hs_hitbuf *buf)
{
    m->q = q;
    m->sem = sem;
    m->mv = mv;
    hs_kq kq = hs_moving_reach_kq(&q, mask, mv);
    kq.ignore = ignore;
    hs_walk_init(&m->w, g, &kq);
    m->w.buf = buf;
    int hit = 0;
    for (int l = 0; l < g->nlevels && !hit; l++)
        hit = hs_walk_level(&m->w, mode | HS_WALK_MOVED, &kq, &g->lv[l]);
    return hit;
}
