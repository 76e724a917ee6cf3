/* SPDX-License-Identifier: MIT */
/* Internal: one ISA level's walk of a grid's walls by their cells, instantiated once per
 * translation unit (wall_walk_<isa>.c sets HS_W, HS_KNAME and HS_KISA, then includes this
 * file): a range of a batch, each query read from the batch's order and walked through the
 * cells its segment crosses (wall_cells_walk.inl). Its two external names,
 * hs_k_<isa>_wall_cells_range and hs_k_<isa>_wall_cells_closest, are in the level's walker
 * table (walk.inl); a translation unit of its own, so that it compiles apart from the circles'
 * walk. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/level.h"
#include "kernels/simd.h"

#include "batch/hit_sort.h"
#include "core.h"
#include "grid/wall_cells.h"
#include "invariant.h"
#include "query_prep.h"
#include "wall_core.h"
#include "walk/walkers.h"

#include "wall_cells_walk.inl"

/* Position p's query: its record's a and d, the rest through perm (made whenever the batch
 * has per-query arrays) or the batch's values. */
HS_INLINE int hs_wc_query(const hs_wcells_call *c, size_t p, hs_kq *k)
{
    const hs_qorder *o = c->ord;
    if (o->rec == NULL)
        return hs_prep_query(c->qs, p, c->sem, k);
    const hs_queries *qs = c->qs;
    HS_ASSERT(o->perm || !(qs->tmin || qs->tmax || qs->q || qs->mask));
    const size_t i = o->perm ? o->perm[p] : 0; /* 0: no array reads it */
    const float *r = o->rec + 4 * p;
    const hs_query q = {{r[0], r[1]},
                        {r[2], r[3]},
                        qs->tmin ? qs->tmin[i] : qs->tmin_all,
                        qs->tmax ? qs->tmax[i] : qs->tmax_all,
                        qs->q ? qs->q[i] : qs->q_all};
    return hs_prep_query_of(q, qs->mask ? qs->mask[i] : qs->mask_all, c->sem, k);
}

/* Position p's answer (hit: wall w at t), staged when the batch has an order, else written. */
HS_INLINE void hs_wc_answer(const hs_wcells_call *c, size_t p, int hit, uint32_t w, float t)
{
    if (!hit)
        w = HS_NONE, t = INFINITY;
    const uint32_t word = c->hit != NULL ? (uint32_t)hit : w;
    if (c->ord->inv != NULL) {
        memcpy(c->ord->rec + 4 * p + 2, &word, sizeof word);
        memcpy(c->ord->rec + 4 * p + 3, &t, sizeof t);
    } else if (c->hit != NULL) {
        c->hit[p] = (uint8_t)hit;
    } else {
        c->wi[p] = w;
        c->wt[p] = t;
    }
}

/* Position p's query walked alone (hs_wc_closest) and answered. */
HS_INLINE void hs_wc_alone(const hs_wcells_call *c, size_t p, const hs_kq *k, int valid,
                           uint64_t *tests)
{
    uint32_t w = HS_NONE;
    float t = INFINITY;
    const int hit = valid && hs_wc_closest(c->cells, k, c->hit != NULL, &w, &t, tests);
    hs_wc_answer(c, p, hit, w, t);
}

#if HS_W >= 16
/* Rays in lanes: HS_W segments walked together, one a lane, each through the cells
 * hs_wc_segment walks, in the same order and with the same tests (so the same answers and
 * counts): a step takes the next entry of every lane's cell (gathered) through the float
 * filter and the lanes it leaves through the exact test; once a lane's cell is done, its walk
 * moves on as hs_wc_next says, or ends and the lane takes the range's next query. So a lane
 * costs no branch of its own while its neighbours' cells are tested. Point queries and those of
 * mask 0 are walked alone. Only 16 lanes pay for their gathers: at 8 the walk of one query at
 * a time is faster. */
/* The next HS_W queries of the range (from position p0, n of them) set up for their walks, a
 * lane each, by hs_wc_setup_of in a loop without a branch, so that it vectorises:
 * lane u's walk is the packet's when bit u of ok is set, else it is walked alone. Only
 * batches without per-query arrays come here (their tmin, tmax, q and mask are the batch's). */
typedef struct hs_wc_next_q {
    float ax[HS_W], ay[HS_W], dx[HS_W], dy[HS_W];
    float f[HS_WCQ_N][HS_W];
    double t0[HS_W], t1[HS_W], scale[HS_W], tol[HS_W], tx[HS_W], ty[HS_W], stx[HS_W], sty[HS_W];
    int32_t i[HS_W], j[HS_W], si[HS_W], sj[HS_W];
    unsigned ok;
    size_t p0, n, taken;
} hs_wc_next_q;

static HS_OUTLINE void hs_wc_next_batch(const hs_wcells_call *c, hs_wc_next_q *N, size_t p0,
                                        size_t n)
{
    const hs_wcells *cs = c->cells;
    const hs_queries *qs = c->qs;
    const float *rec = c->ord->rec;
    N->p0 = p0, N->n = n, N->taken = 0;
    for (size_t u = 0; u < (size_t)HS_W; u++) {
        const size_t p = p0 + (u < n ? u : 0);
        N->ax[u] = rec ? rec[4 * p] : qs->ax[p];
        N->ay[u] = rec ? rec[4 * p + 1] : qs->ay[p];
        N->dx[u] = rec ? rec[4 * p + 2] : qs->dx[p];
        N->dy[u] = rec ? rec[4 * p + 3] : qs->dy[p];
    }
    const float tmin = qs->tmin_all, tmax = qs->tmax_all;
    /* mask 0 is walked alone */
    const int batch_ok = hs_query_batch_surely_valid(qs) && qs->q_all == 0.0f && qs->mask_all != 0u;
    int ok[HS_W];
    for (size_t u = 0; u < (size_t)HS_W; u++) {
        const float ax = N->ax[u], ay = N->ay[u], dx = N->dx[u], dy = N->dy[u];
        const hs_wc_setup S = hs_wc_setup_of(cs, ax, ay, dx, dy, tmin, tmax);
        /* a point query (d = 0) is walked alone */
        ok[u] = S.ok & hs_query_ad_surely_valid(ax, ay, dx, dy) & ((dx != 0.0f) | (dy != 0.0f));
        for (int i = 0; i < HS_WCQ_N; i++)
            N->f[i][u] = S.f[i];
        N->t0[u] = S.q.t0, N->t1[u] = S.q.t1, N->scale[u] = S.q.scale;
        N->tol[u] = S.d.tol, N->tx[u] = S.d.tx, N->ty[u] = S.d.ty;
        N->stx[u] = S.d.stx, N->sty[u] = S.d.sty;
        N->i[u] = S.d.i, N->j[u] = S.d.j, N->si[u] = S.d.si, N->sj[u] = S.d.sj;
    }
    N->ok = 0;
    for (size_t u = 0; u < n; u++)
        N->ok |= (unsigned)(batch_ok & ok[u]) << u;
}

typedef struct hs_wc_pack {
    float f[HS_WCQ_N][HS_W];     /* the float filter's values, a lane each */
    uint32_t e[HS_W], end[HS_W]; /* the lane's next entry and its cell's end (e = end: idle) */
    hs_kq k[HS_W];
    hs_wc_span q[HS_W];
    hs_wc_dda d[HS_W];
    hs_wc_best b[HS_W];
    size_t pos[HS_W];
    hs_wc_next_q next;
} hs_wc_pack;

/* Lane u's cell from its walk's position. */
HS_INLINE void hs_wc_pack_cell(const hs_wcells *cs, hs_wc_pack *P, unsigned u)
{
    const size_t cell = hs_wc_cell_at(cs, &P->d[u]);
    P->e[u] = cs->start[cell];
    P->end[u] = cs->start[cell + 1];
}

/* Lane u's walk from the set-up query v of the next batch. */
HS_INLINE void hs_wc_pack_take(const hs_wcells_call *c, hs_wc_pack *P, unsigned u, size_t v)
{
    const hs_wc_next_q *N = &P->next;
    const hs_queries *qs = c->qs;
    const size_t pos = N->p0 + v;
    const hs_query q = {
        {N->ax[v], N->ay[v]}, {N->dx[v], N->dy[v]}, qs->tmin_all, qs->tmax_all, 0.0f};
    P->k[u] = hs_kq_make(q, c->sem, qs->mask_all);
    P->k[u].ignore = c->ord->rec == NULL && qs->ignore ? qs->ignore[pos] : HS_NONE;
    for (int i = 0; i < HS_WCQ_N; i++)
        P->f[i][u] = N->f[i][v];
    P->q[u] = (hs_wc_span){N->t0[v], N->t1[v], N->scale[v]};
    P->d[u] = (hs_wc_dda){N->tx[v], N->ty[v], N->stx[v], N->sty[v], N->tol[v],
                          N->t1[v], N->i[v],  N->j[v],   N->si[v],  N->sj[v]};
    P->b[u] = (hs_wc_best){UINT64_MAX, 0.0f};
    P->pos[u] = pos;
    hs_wc_pack_cell(c->cells, P, u);
}

/* Lane u takes the next query of [*p, hi) that walks cells, answering those before it that do
 * not; 0 when none is left (the lane idle). */
HS_INLINE unsigned hs_wc_pack_fill(const hs_wcells_call *c, hs_wc_pack *P, unsigned u, size_t *p,
                                   size_t hi, uint64_t *tests)
{
    hs_wc_next_q *N = &P->next;
    for (;;) {
        if (N->taken == N->n) {
            if (*p >= hi)
                break;
            const size_t n = hi - *p < (size_t)HS_W ? hi - *p : (size_t)HS_W;
            hs_wc_next_batch(c, N, *p, n);
            *p += n;
        }
        const size_t v = N->taken++;
        if ((N->ok >> v & 1u) != 0u) {
            hs_wc_pack_take(c, P, u, v);
            return 1;
        }
        hs_kq k;
        const int valid = hs_wc_query(c, N->p0 + v, &k);
        hs_wc_alone(c, N->p0 + v, &k, valid, tests);
    }
    P->e[u] = P->end[u] = 0;
    return 0;
}

/* Lane u's cell is done: its walk moves on to a cell with entries, or ends and the lane takes
 * the range's next query (*p), answering those without a walk; 0 when none is left. */
HS_INLINE unsigned hs_wc_pack_on(const hs_wcells_call *c, hs_wc_pack *P, unsigned u, size_t *p,
                                 size_t hi, uint64_t *tests)
{
    const hs_wcells *cs = c->cells;
    const int any = c->hit != NULL;
    do {
        const int hit = P->b[u].key != UINT64_MAX;
        if (!(any && hit) && hs_wc_next(cs, &P->d[u], &P->b[u])) {
            hs_wc_pack_cell(cs, P, u);
            continue;
        }
        hs_wc_answer(c, P->pos[u], hit, (uint32_t)P->b[u].key, P->b[u].t);
        if (!hs_wc_pack_fill(c, P, u, p, hi, tests))
            return 0;
    } while (P->e[u] == P->end[u]);
    return 1;
}

/* hs_wc_crossed_t of every lane (its wall's ends p, b; the lane's query in v), in double by
 * the same correctly rounded operations, so the same bits: *t the lanes' t, and the lanes
 * returned whose crossing lies past tmin (den != 0; the others take hs_wc_lane's path). */
HS_INLINE hs_vm hs_wc_crossed_v(const hs_wc_qv *v, hs_vf px, hs_vf py, hs_vf bx, hs_vf by,
                                float tmin, float tmax, hs_vf *t)
{
    const hs_vd2 pxd = hs_vd2_of(px), pyd = hs_vd2_of(py);
    const hs_vd2 ex = hs_vd2_sub(hs_vd2_of(bx), pxd), ey = hs_vd2_sub(hs_vd2_of(by), pyd);
    const hs_vd2 fx = hs_vd2_sub(hs_vd2_of(v->ax), pxd), fy = hs_vd2_sub(hs_vd2_of(v->ay), pyd);
    /* -x as -0 - x: a negation's bits, zeros included */
    const hs_vd2 num = hs_vd2_sub(hs_vd2_of(hs_vf_set1(-0.0f)),
                                  hs_vd2_sub(hs_vd2_mul(ex, fy), hs_vd2_mul(ey, fx)));
    const hs_vd2 den =
        hs_vd2_sub(hs_vd2_mul(ex, hs_vd2_of(v->dy)), hs_vd2_mul(ey, hs_vd2_of(v->dx)));
    const hs_vd2 tc = hs_vd2_div(num, den);
    const hs_vf lo = hs_vf_set1(tmin), hi = hs_vf_set1(tmax);
    const hs_vm past =
        hs_vm_and(hs_vd2_ne(den, hs_vd2_of(hs_vf_set1(0.0f))), hs_vd2_gt(tc, hs_vd2_of(lo)));
    *t = hs_vf_min(hs_vf_max(hs_vd2_to_vf(hs_vd2_min(tc, hs_vd2_of(hi))), lo), hi);
    return past;
}

/* Whether entry e's crossing by k lies past tmin at t, bit for bit (hs_wc_crossed_v's lanes). */
HS_INLINE int hs_wc_crossed_same(const hs_wcells *c, uint32_t e, const hs_kq *k, float t)
{
    const hs_kwall wl = hs_wc_entry(c, e);
    float ts;
    return hs_wc_crossed_t(k, &wl, &ts) && memcmp(&ts, &t, sizeof t) == 0;
}

static void hs_wc_packets(const hs_wcells_call *c, size_t lo, size_t hi, hs_tally *tally)
{
    const hs_wcells *cs = c->cells;
    hs_wc_pack pack, *P = &pack;
    memset(P, 0, sizeof *P); /* idle lanes read it */
    uint64_t tests = 0;
    size_t p = lo;
    unsigned live = 0;
    for (unsigned u = 0; u < (unsigned)HS_W; u++)
        if (hs_wc_pack_fill(c, P, u, &p, hi, &tests) &&
            (P->e[u] != P->end[u] || hs_wc_pack_on(c, P, u, &p, hi, &tests)))
            live |= 1u << u;
    hs_wc_qv v;
    const hs_vi one = hs_vi_set1(1u), kmask = hs_vi_set1(c->qs->mask_all);
    const float tmin = c->qs->tmin_all, tmax = c->qs->tmax_all; /* every lane's (hs_wc_pack_take) */
    for (int moved = 1; live != 0u;) {
        if (moved) { /* lanes took new queries: their values */
            v.ax = hs_vf_loadu(P->f[HS_WCQ_AX]), v.ay = hs_vf_loadu(P->f[HS_WCQ_AY]);
            v.dx = hs_vf_loadu(P->f[HS_WCQ_DX]), v.dy = hs_vf_loadu(P->f[HS_WCQ_DY]);
            v.x0 = hs_vf_loadu(P->f[HS_WCQ_X0]), v.y0 = hs_vf_loadu(P->f[HS_WCQ_Y0]);
            v.x1 = hs_vf_loadu(P->f[HS_WCQ_X1]), v.y1 = hs_vf_loadu(P->f[HS_WCQ_Y1]);
            v.margin = hs_vf_loadu(P->f[HS_WCQ_MARGIN]), v.mlen = hs_vf_loadu(P->f[HS_WCQ_MLEN]);
        }
        /* a step: the next entry of every lane's cell (lanes whose cell is done moved on
         * below, so every live lane has one) */
        const hs_vi e = hs_vi_loadu(P->e), end = hs_vi_loadu(P->end);
        const hs_vm on = hs_vm_from_bits(live);
        const hs_vf px = hs_vf_bits_of(hs_vi_gather_m(cs->px, e, on));
        const hs_vf py = hs_vf_bits_of(hs_vi_gather_m(cs->py, e, on));
        const hs_vf bx = hs_vf_bits_of(hs_vi_gather_m(cs->bx, e, on));
        const hs_vf by = hs_vf_bits_of(hs_vi_gather_m(cs->by, e, on));
        const hs_vf w = cs->w ? hs_vf_bits_of(hs_vi_gather_m(cs->w, e, on)) : hs_vf_set1(0.0f);
        hs_vm cross;
        const hs_vm apart = hs_wc_near_of(&v, px, py, bx, by, cs->w ? &w : NULL, &cross);
        unsigned near = hs_vm_bits(hs_vm_andnot(on, apart));
        const unsigned crossed = hs_vm_bits(cross);
        tests += (uint64_t)__builtin_popcount(near);
        if ((near & crossed) != 0u) { /* their t a vector at a time; hs_wc_lane takes the rest */
            if (cs->mask != NULL)
                near &= hs_vm_bits(hs_vm_test_i(hs_vi_gather_m(cs->mask, e, on), kmask));
            hs_vf t;
            const unsigned past =
                near & crossed & hs_vm_bits(hs_wc_crossed_v(&v, px, py, bx, by, tmin, tmax, &t));
            float tl[HS_W];
            hs_vf_storeu(tl, t);
            for (unsigned m = past; m != 0u; m &= m - 1u) {
                const unsigned u = (unsigned)__builtin_ctz(m);
                HS_ASSERT(hs_wc_crossed_same(cs, P->e[u], &P->k[u], tl[u]));
                hs_wc_keep(&P->b[u], tl[u], cs->wall[P->e[u]]);
            }
            near &= ~past;
        }
        for (; near != 0u; near &= near - 1u) {
            const unsigned u = (unsigned)__builtin_ctz(near);
            (void)hs_wc_lane(cs, P->e[u], (crossed >> u & 1u) != 0u, &P->k[u], &P->q[u], &P->b[u]);
        }
        const hs_vi next = hs_vi_add(e, one), left = hs_vi_sub(end, next);
        hs_vi_storeu(P->e, next);
        /* the live lanes whose cell is done */
        const unsigned done = live & ~hs_vm_bits(hs_vm_test_i(left, left));
        moved = 0;
        for (unsigned m = done; m != 0u; m &= m - 1u) {
            const unsigned u = (unsigned)__builtin_ctz(m);
            const size_t pos = P->pos[u];
            if (!hs_wc_pack_on(c, P, u, &p, hi, &tests))
                live &= ~(1u << u);
            moved |= P->pos[u] != pos;
        }
    }
    tally->tests += tests;
}
#endif

void HS_FN(wall_cells_range)(const hs_wcells_call *c, size_t lo, size_t hi, hs_tally *tally);
void HS_FN(wall_cells_range)(const hs_wcells_call *c, size_t lo, size_t hi, hs_tally *tally)
{
#if HS_W >= 16
    const hs_queries *qs = c->qs;
    if (!(qs->tmin || qs->tmax || qs->q || qs->mask)) {
        hs_wc_packets(c, lo, hi, tally);
        return;
    }
#endif
    for (size_t p = lo; p < hi; p++) {
        hs_kq k;
        const int valid = hs_wc_query(c, p, &k);
        hs_wc_alone(c, p, &k, valid, &tally->tests);
    }
}

int HS_FN(wall_cells_closest)(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall, float *t,
                              uint64_t *tests);
int HS_FN(wall_cells_closest)(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall, float *t,
                              uint64_t *tests)
{
    return hs_wc_closest(c, k, any, wall, t, tests);
}
