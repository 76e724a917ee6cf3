/* SPDX-License-Identifier: MIT */
/* Distributed batch queries: routing (route.c: the ranks a query reaches), exchange, local
 * answers on the owners' grids, and the merge that makes them the single-process answer.
 *
 * Exactness. A circle is in exactly one rank's grid (its owner's), so each (query, circle)
 * pair is tested once, by hs_grid_* on the query's original floats (a, d, tmin, tmax, q, mask
 * travel unchanged, never clipped) and the circle's own floats: the same computation as in
 * one process. Local indices follow the global ids, so a local tie (closest: same t, smaller
 * index) is a global one, and merging by (t, id) reproduces the order of one process. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "hitscan/narrow.h"
#include "mpi_internal.h"

typedef enum qmode { QM_CLOSEST, QM_ANY, QM_COUNT, QM_ALL } qmode;

#define QREC 32u /* ax, ay, dx, dy, tmin, tmax, q, mask */

/* Per-call state on the submitting side. */
typedef struct qcall {
    hs_mpi_set *s;
    qmode mode;
    const hs_queries *qs;
    hs_batch_opts lo; /* the local grid calls' options */
    uint64_t tests;
    int want_pn; /* closest: some rank asked for points / normals */
    size_t n;
    float *rec; /* n query records (valid ones) */
    uint8_t *valid;
    /* targets of query i: tg_rank / tg_t [off[i], off[i + 1]), by entry t then rank */
    size_t *off;
    int32_t *tg_rank;
    double *tg_t;
    uint32_t *pos;    /* targets asked so far */
    uint32_t *slot_q; /* query of each send slot this round (grouped by rank) */
    int *scnt, *rcnt, *rdsp, *acnt, *adsp;
    /* answers kept between rounds */
    hs_closest_out cout;
    uint8_t *any;
    uint32_t *count;
    hs_hits *hits;
} qcall;

static void qcall_free(qcall *c)
{
    free(c->scnt), free(c->rcnt), free(c->rdsp), free(c->acnt), free(c->adsp);
}

/* At least `bytes` of the set's kept array k for this call (what an earlier call left there is
 * stale); NULL when out of memory. */
static void *kept(hs_mpi_set *s, int k, size_t bytes)
{
    return hs_mbuf_reserve(&s->qkeep[k], bytes) ? s->qkeep[k].p : NULL;
}

static hs_status route(qcall *c, size_t *invalid, size_t *first_invalid)
{
    const hs_queries *qs = c->qs;
    const size_t n = c->n;
    hs_mpi_set *s = c->s;
    c->rec = kept(s, HS_MQ_REC, (n ? n : 1) * QREC);
    c->valid = kept(s, HS_MQ_VALID, n + 1);
    c->off = kept(s, HS_MQ_OFF, (n + 1) * sizeof *c->off);
    c->pos = kept(s, HS_MQ_POS, (n + 1) * sizeof *c->pos);
    if (!c->rec || !c->valid || !c->off || !c->pos)
        return HS_E_NOMEM;
    memset(c->pos, 0, (n + 1) * sizeof *c->pos);
    /* hitscan_mpi sees the public API only, not the library's team: with the caller's task
     * system these two loops run on the calling thread (no OpenMP region) */
    const int threads = c->lo.tasks ? 1 : c->lo.threads > 0 ? c->lo.threads : omp_get_max_threads();
    const long long nn = (long long)n;
    size_t inv = 0, first = SIZE_MAX;
    c->off[0] = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : inv) \
    reduction(min : first) if (n >= 16384 && threads > 1)
    for (long long ii = 0; ii < nn; ii++) {
        const size_t i = (size_t)ii;
        float *r = c->rec + i * 8;
        c->valid[i] = (uint8_t)hs_mpi_pack_query(qs, i, r);
        if (!c->valid[i]) {
            inv++;
            first = i < first ? i : first;
            c->off[i + 1] = 0;
        } else
            c->off[i + 1] = hs_mpi_query_targets(c->s, r, NULL, NULL);
    }
    for (size_t i = 0; i < n; i++)
        c->off[i + 1] += c->off[i];
    c->tg_rank = kept(s, HS_MQ_TG_RANK, (c->off[n] + 1) * sizeof *c->tg_rank);
    c->tg_t = kept(s, HS_MQ_TG_T, (c->off[n] + 1) * sizeof *c->tg_t);
    if (!c->tg_rank || !c->tg_t)
        return HS_E_NOMEM;
#pragma omp parallel for num_threads(threads) schedule(static) if (n >= 16384 && threads > 1)
    for (long long ii = 0; ii < nn; ii++) {
        const size_t i = (size_t)ii;
        if (c->valid[i])
            hs_mpi_query_targets(c->s, c->rec + i * 8, c->tg_rank + c->off[i], c->tg_t + c->off[i]);
    }
    *invalid = inv;
    *first_invalid = inv ? first : (size_t)-1;
    return HS_OK;
}

/* 1 when query i needs no more ranks (closest: its best hit lies before the next rank's
 * entry; any: it hit). */
static int settled(const qcall *c, size_t i)
{
    const size_t k = c->off[i] + c->pos[i];
    if (k >= c->off[i + 1])
        return 1;
    if (c->mode == QM_ANY)
        return c->any[i] != 0;
    if (c->mode == QM_CLOSEST)
        return c->cout.idx[i] != HS_NONE && c->tg_t[k] > (double)c->cout.t[i];
    return 0;
}

/* Whether the m 4-byte values at p (m >= 1) all have the first one's bits. */
static int all_same(const void *p, size_t m)
{
    const unsigned char *b = p;
    for (size_t k = 1; k < m; k++)
        if (memcmp(b + 4 * k, b, 4) != 0)
            return 0;
    return 1;
}

/* The local grid call on the received queries; answers packed for their senders in
 * s->sbuf (fixed-size units), or for all-hits as 4-byte words per sender. */
static hs_status answer(qcall *c, size_t nr, const int *rcnt, size_t *unit, int *acnt)
{
    hs_mpi_set *s = c->s;
    const int K = s->ranks;
    const size_t m = nr;
    float *f = kept(s, HS_MQ_FIELDS, (7 * m + 1) * sizeof *f);
    uint32_t *mk = kept(s, HS_MQ_MASK, (m + 1) * sizeof *mk);
    if (f == NULL || mk == NULL)
        return HS_E_NOMEM;
    const float *rec = s->rbuf.p;
    float *ax = f, *ay = f + m, *dx = f + 2 * m, *dy = f + 3 * m, *t0 = f + 4 * m, *t1 = f + 5 * m,
          *qq = f + 6 * m;
    for (size_t k = 0; k < m; k++) {
        const float *r = rec + k * 8;
        ax[k] = r[0], ay[k] = r[1], dx[k] = r[2], dy[k] = r[3];
        t0[k] = r[4], t1[k] = r[5], qq[k] = r[6];
        memcpy(&mk[k], &r[7], 4);
    }
    hs_queries q;
    memset(&q, 0, sizeof q);
    q.ax = ax, q.ay = ay, q.dx = dx, q.dy = dy, q.tmin = t0, q.tmax = t1, q.q = qq, q.mask = mk;
    q.count = m;
    /* a field the same for every query goes as the batch's one value: the same answers, and
     * the grid then sorts a large batch without a permutation (src/grid/order.h) */
    if (m > 0) {
        if (all_same(t0, m))
            q.tmin = NULL, q.tmin_all = t0[0];
        if (all_same(t1, m))
            q.tmax = NULL, q.tmax_all = t1[0];
        if (all_same(qq, m))
            q.q = NULL, q.q_all = qq[0];
        if (all_same(mk, m))
            q.mask = NULL, q.mask_all = mk[0];
    }
    hs_batch_stats bs;
    memset(&bs, 0, sizeof bs);
    hs_batch_opts o = c->lo;
    o.stats = &bs;
    hs_status st = HS_OK;
    const uint32_t *gid = s->id;
    if (c->mode == QM_CLOSEST) {
        const size_t u = c->want_pn ? 24 : 8;
        *unit = u;
        uint32_t *idx = kept(s, HS_MQ_IDX, (m + 1) * sizeof *idx);
        float *tt = kept(s, HS_MQ_T, (5 * m + 1) * sizeof *tt);
        st = idx && tt && hs_mbuf_reserve(&s->sbuf, m * u + 1) ? HS_OK : HS_E_NOMEM;
        if (st == HS_OK && m > 0) {
            hs_closest_out co = {idx, tt, NULL, NULL, NULL, NULL, NULL};
            if (c->want_pn)
                co.px = tt + m, co.py = tt + 2 * m, co.nx = tt + 3 * m, co.ny = tt + 4 * m;
            st = hs_grid_closest(s->grid, &q, &o, co);
            unsigned char *out = s->sbuf.p;
            for (size_t k = 0; k < m && st >= HS_OK; k++) {
                uint32_t g = idx[k] == HS_NONE ? HS_NONE : gid[idx[k]];
                unsigned char *d = out + k * u;
                memcpy(d, &g, 4);
                memcpy(d + 4, &tt[k], 4);
                if (c->want_pn) {
                    memcpy(d + 8, &co.px[k], 4);
                    memcpy(d + 12, &co.py[k], 4);
                    memcpy(d + 16, &co.nx[k], 4);
                    memcpy(d + 20, &co.ny[k], 4);
                }
            }
        }
        for (int p = 0; p < K; p++)
            acnt[p] = rcnt[p];
    } else if (c->mode == QM_ANY) {
        *unit = 1;
        st = hs_mbuf_reserve(&s->sbuf, m + 1) ? HS_OK : HS_E_NOMEM;
        if (st == HS_OK && m > 0)
            st = hs_grid_any(s->grid, &q, &o, s->sbuf.p);
        for (int p = 0; p < K; p++)
            acnt[p] = rcnt[p];
    } else if (c->mode == QM_COUNT) {
        *unit = 4;
        st = hs_mbuf_reserve(&s->sbuf, 4 * m + 1) ? HS_OK : HS_E_NOMEM;
        if (st == HS_OK && m > 0)
            st = hs_grid_count_hits(s->grid, &q, &o, s->sbuf.p);
        for (int p = 0; p < K; p++)
            acnt[p] = rcnt[p];
    } else {
        /* per sender: one count per query, then (id, t) per hit */
        *unit = 4;
        hs_hits h;
        memset(&h, 0, sizeof h);
        if (m > 0)
            st = hs_grid_all(s->grid, &q, &o, &h);
        if (st >= HS_OK && !hs_mbuf_reserve(&s->sbuf, 4 * (m + 2 * h.total) + 1))
            st = HS_E_NOMEM;
        if (m == 0)
            for (int p = 0; p < K; p++)
                acnt[p] = 0;
        else if (st >= HS_OK) {
            uint32_t *w = s->sbuf.p;
            size_t k = 0, at = 0;
            for (int p = 0; p < K; p++) {
                const size_t k0 = k, w0 = at;
                for (; k < k0 + (size_t)rcnt[p]; k++)
                    w[at++] = (uint32_t)(h.offsets[k + 1] - h.offsets[k]);
                for (size_t e = h.offsets[k0]; e < h.offsets[k]; e++) {
                    w[at++] = gid[h.idx[e]];
                    memcpy(&w[at++], &h.t[e], 4);
                }
                if (at - w0 > (size_t)0x7fffffff)
                    st = HS_E_TOO_MANY;
                acnt[p] = (int)(at - w0);
            }
        }
        hs_hits_free(&h);
    }
    if (st == HS_E_INVALID_QUERY) /* not expected: only valid queries travel */
        st = HS_OK;
    c->tests += bs.pair_tests;
    return st;
}

/* Folds the answers of this round (in s->rbuf, grouped by the rank that answered, in slot
 * order) into the caller's outputs. All-hits: the CSR arrays are assembled here. */
static hs_status merge(qcall *c, const int *scnt, const int *adsp)
{
    hs_mpi_set *s = c->s;
    const int K = s->ranks;
    const unsigned char *ans = s->rbuf.p;
    size_t slot = 0;
    if (c->mode == QM_CLOSEST) {
        const size_t u = c->want_pn ? 24 : 8;
        hs_closest_out *o = &c->cout;
        for (int p = 0; p < K; p++)
            for (int k = 0; k < scnt[p]; k++, slot++) {
                const unsigned char *a = ans + ((size_t)adsp[p] + (size_t)k) * u;
                const size_t i = c->slot_q[slot];
                uint32_t g;
                float t;
                memcpy(&g, a, 4);
                memcpy(&t, a + 4, 4);
                if (g == HS_NONE)
                    continue;
                if (o->idx[i] != HS_NONE && !(t < o->t[i] || (t == o->t[i] && g < o->idx[i])))
                    continue;
                o->idx[i] = g;
                o->t[i] = t;
                if (o->px)
                    memcpy(&o->px[i], a + 8, 4);
                if (o->py)
                    memcpy(&o->py[i], a + 12, 4);
                if (o->nx)
                    memcpy(&o->nx[i], a + 16, 4);
                if (o->ny)
                    memcpy(&o->ny[i], a + 20, 4);
            }
        return HS_OK;
    }
    if (c->mode == QM_ANY) {
        for (int p = 0; p < K; p++)
            for (int k = 0; k < scnt[p]; k++, slot++)
                c->any[c->slot_q[slot]] |= ans[(size_t)adsp[p] + (size_t)k];
        return HS_OK;
    }
    const uint32_t *w = (const uint32_t *)ans;
    if (c->mode == QM_COUNT) {
        for (int p = 0; p < K; p++)
            for (int k = 0; k < scnt[p]; k++, slot++)
                c->count[c->slot_q[slot]] += w[(size_t)adsp[p] + (size_t)k];
        return HS_OK;
    }
    /* all hits: sizes, offsets, then each query's runs copied and, where several ranks
     * answered, put in (t, id) order */
    const size_t n = c->n;
    hs_hits *h = c->hits;
    size_t *off = calloc(n + 1, sizeof *off);
    uint32_t *nsrc = calloc(n + 1, sizeof *nsrc);
    if (off == NULL || nsrc == NULL) {
        free(off), free(nsrc);
        return HS_E_NOMEM;
    }
    for (int p = 0; p < K; p++) {
        const uint32_t *cw = w + adsp[p];
        for (int k = 0; k < scnt[p]; k++, slot++) {
            off[c->slot_q[slot] + 1] += cw[k];
            nsrc[c->slot_q[slot]] += cw[k] > 0;
        }
    }
    for (size_t i = 0; i < n; i++)
        off[i + 1] += off[i];
    const size_t total = off[n];
    h->offsets = off;
    h->count = n;
    h->total = total;
    h->ws = NULL;
    h->idx = malloc((total + 1) * sizeof *h->idx);
    h->t = malloc((total + 1) * sizeof *h->t);
    size_t *cur = malloc((n + 1) * sizeof *cur);
    if (h->idx == NULL || h->t == NULL || cur == NULL) {
        free(nsrc), free(cur);
        return HS_E_NOMEM;
    }
    memcpy(cur, off, n * sizeof *cur);
    slot = 0;
    for (int p = 0; p < K; p++) {
        const uint32_t *cw = w + adsp[p], *hw = cw + scnt[p];
        for (int k = 0; k < scnt[p]; k++, slot++) {
            const size_t i = c->slot_q[slot];
            for (uint32_t e = 0; e < cw[k]; e++) {
                h->idx[cur[i]] = hw[0];
                memcpy(&h->t[cur[i]], &hw[1], 4);
                cur[i]++;
                hw += 2;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (nsrc[i] < 2)
            continue;
        /* insertion sort by (t, id): a query's hits are few, and each rank's run is sorted */
        for (size_t a = off[i] + 1; a < off[i + 1]; a++) {
            const uint32_t ki = h->idx[a];
            const float kt = h->t[a];
            size_t b = a;
            while (b > off[i] && (kt < h->t[b - 1] || (kt == h->t[b - 1] && ki < h->idx[b - 1]))) {
                h->idx[b] = h->idx[b - 1];
                h->t[b] = h->t[b - 1];
                b--;
            }
            h->idx[b] = ki;
            h->t[b] = kt;
        }
    }
    free(nsrc), free(cur);
    return HS_OK;
}

static hs_status run(hs_mpi_set *s, qmode mode, const hs_queries *qs, const hs_batch_opts *opts,
                     qcall *c)
{
    const int K = s->ranks;
    c->s = s;
    c->mode = mode;
    c->qs = qs;
    c->lo = opts ? *opts : hs_batch_opts_default();
    hs_batch_stats *user_stats = c->lo.stats;
    c->lo.stats = NULL;
    c->n = qs->count;
    memset(&s->info.queries, 0, sizeof s->info - offsetof(hs_mpi_info, queries));
    s->info.queries = c->n;

    double t0 = MPI_Wtime();
    size_t invalid = 0, first_invalid = (size_t)-1;
    c->scnt = calloc((size_t)K, sizeof *c->scnt);
    c->rcnt = calloc((size_t)K, sizeof *c->rcnt);
    c->rdsp = calloc((size_t)K, sizeof *c->rdsp);
    c->acnt = calloc((size_t)K, sizeof *c->acnt);
    c->adsp = calloc((size_t)K, sizeof *c->adsp);
    hs_status st = c->scnt && c->rcnt && c->rdsp && c->acnt && c->adsp ? HS_OK : HS_E_NOMEM;
    if (st == HS_OK)
        st = route(c, &invalid, &first_invalid);
    /* misses everywhere to start with */
    if (st == HS_OK) {
        for (size_t i = 0; i < c->n; i++) {
            if (mode == QM_CLOSEST) {
                c->cout.idx[i] = HS_NONE;
                c->cout.t[i] = NAN;
                if (c->cout.px)
                    c->cout.px[i] = NAN;
                if (c->cout.py)
                    c->cout.py[i] = NAN;
                if (c->cout.nx)
                    c->cout.nx[i] = NAN;
                if (c->cout.ny)
                    c->cout.ny[i] = NAN;
            } else if (mode == QM_ANY)
                c->any[i] = 0;
            else if (mode == QM_COUNT)
                c->count[i] = 0;
        }
    }
    s->info.route_s = MPI_Wtime() - t0;

    const int rounds_apart = mode == QM_CLOSEST || mode == QM_ANY;
    uint32_t *from = st == HS_OK ? kept(s, HS_MQ_FROM, (c->n + 1) * sizeof *from) : NULL;
    if (st == HS_OK && from == NULL)
        st = HS_E_NOMEM;
    for (int round = 0;; round++) {
        double ta = MPI_Wtime();
        /* this round's sends: each unsettled query to its next targets (closest and any:
         * 1, 2, 4, ... of them; count and all: every one at once) */
        size_t nslot = 0;
        if (st == HS_OK) {
            memset(c->scnt, 0, (size_t)K * sizeof *c->scnt);
            const uint32_t take = rounds_apart && round < 31 ? 1u << round : UINT32_MAX;
            for (size_t i = 0; i < c->n; i++) {
                from[i] = c->pos[i];
                if (!c->valid[i])
                    continue;
                for (uint32_t took = 0; took < take && !settled(c, i); took++) {
                    c->scnt[c->tg_rank[c->off[i] + c->pos[i]]]++;
                    c->pos[i]++;
                    nslot++;
                }
            }
            c->slot_q = kept(s, HS_MQ_SLOT, (nslot + 1) * sizeof *c->slot_q);
            if (c->slot_q == NULL || !hs_mbuf_reserve(&s->sbuf, nslot * QREC + 1))
                st = HS_E_NOMEM;
        }
        if (st == HS_OK) {
            int *fill = c->adsp; /* scratch until the answers arrive */
            int acc = 0;
            for (int p = 0; p < K; p++) {
                fill[p] = acc;
                acc += c->scnt[p];
            }
            unsigned char *sb = s->sbuf.p;
            for (size_t i = 0; i < c->n; i++)
                for (uint32_t k = from[i]; k < c->pos[i]; k++) {
                    const int slot = fill[c->tg_rank[c->off[i] + k]]++;
                    c->slot_q[slot] = (uint32_t)i;
                    memcpy(sb + (size_t)slot * QREC, c->rec + i * 8, QREC);
                }
            s->info.sends += nslot;
            s->info.remote_sends += nslot - (size_t)c->scnt[s->rank];
        }
        double tb = MPI_Wtime();
        size_t nr = 0;
        st = hs_mx_exchange(s, st, s->sbuf.p, c->scnt, QREC, c->rcnt, c->rdsp, &nr,
                            &s->info.bytes_sent, &s->info.bytes_received);
        double tc = MPI_Wtime();
        size_t unit = 1;
        if (st == HS_OK) {
            st = answer(c, nr, c->rcnt, &unit, c->acnt);
            s->info.answered += nr;
        }
        double td = MPI_Wtime();
        /* the answers come back in slot order; rcnt / rdsp now count them per answering rank */
        size_t na = 0;
        st = hs_mx_exchange(s, st, s->sbuf.p, c->acnt, unit, c->rcnt, c->rdsp, &na,
                            &s->info.bytes_sent, &s->info.bytes_received);
        if (st == HS_OK)
            st = merge(c, c->scnt, c->rdsp);
        int more = 0;
        if (st == HS_OK && rounds_apart)
            for (size_t i = 0; i < c->n && !more; i++)
                more = c->valid[i] && !settled(c, i);
        if (st != HS_OK)
            more = 0;
        /* one Allreduce: does any rank go on, and did any fail */
        int v[2] = {more, -(int)st}, r[2] = {0, 0};
        MPI_Allreduce(v, r, 2, MPI_INT, MPI_MAX, s->comm);
        const int any_more = r[0];
        st = (hs_status)(-r[1]);
        double te = MPI_Wtime();
        s->info.route_s += tb - ta;
        s->info.exchange_s += tc - tb;
        s->info.local_s += td - tc;
        s->info.return_s += te - td;
        s->info.rounds = round + 1;
        if (st != HS_OK || !any_more)
            break;
    }
    if (st == HS_OK)
        for (size_t i = 0; i < c->n; i++)
            s->info.multi_rank += c->pos[i] > 1;
    if (st == HS_OK && user_stats) {
        user_stats->invalid = invalid;
        user_stats->first_invalid = invalid ? first_invalid : (size_t)-1;
        user_stats->pair_tests = c->tests;
    }
    if (st == HS_OK && invalid)
        st = HS_E_INVALID_QUERY;
    return st;
}

/* Checks every rank's arguments together; every rank returns the same failure. */
static hs_status agree_args(hs_mpi_set *s, const hs_queries *qs, const hs_batch_opts *opts,
                            hs_status local, int want_pn, int *want_pn_all)
{
    const hs_batch_opts o = opts ? *opts : hs_batch_opts_default();
    if (local == HS_OK && qs == NULL)
        local = HS_E_NULL;
    if (local == HS_OK && qs->count > HS_MAX_COUNT)
        local = HS_E_TOO_MANY;
    if (local == HS_OK && qs->count > 0 &&
        (qs->ax == NULL || qs->ay == NULL || qs->dx == NULL || qs->dy == NULL))
        local = HS_E_NULL;
    if (local == HS_OK && ((unsigned)o.sem > (unsigned)HS_BOUNDARY_SKIP_START || (int)o.isa < 0 ||
                           (int)o.isa >= (int)HS_ISA_COUNT || o.threads < 0))
        local = HS_E_RANGE;
    if (local == HS_OK && !hs_isa_supported(hs_isa_resolve(o.isa)))
        local = HS_E_UNSUPPORTED;
    /* a circle to ignore is a global id, which no rank maps to its own circles yet */
    if (local == HS_OK && qs->ignore != NULL)
        local = HS_E_UNSUPPORTED;
    /* max of: the want flag, the negated status, the semantics and its negation (rank
     * disagreement on the semantics is a range error) */
    int v[4] = {want_pn, -(int)local, (int)o.sem, -(int)o.sem}, r[4];
    MPI_Allreduce(v, r, 4, MPI_INT, MPI_MAX, s->comm);
    *want_pn_all = r[0];
    if (r[1] > 0)
        return (hs_status)(-r[1]);
    if (r[2] != -r[3])
        return HS_E_RANGE;
    return HS_OK;
}

/* The part every mode's entry shares: the ranks agree on the arguments (st is this rank's
 * verdict on them), then the call runs and its scratch is freed. */
static hs_status call_mode(hs_mpi_set *s, qmode mode, const hs_queries *qs,
                           const hs_batch_opts *opts, hs_status st, int pn, qcall *c)
{
    st = agree_args(s, qs, opts, st, pn, &c->want_pn);
    if (st != HS_OK)
        return st;
    if (mode == QM_ALL)
        memset(c->hits, 0, sizeof *c->hits);
    st = run(s, mode, qs, opts, c);
    if (mode == QM_ALL && st < 0 && st != HS_E_INVALID_QUERY)
        hs_hits_free(c->hits);
    qcall_free(c);
    return st;
}

hs_status hs_mpi_closest(hs_mpi_set *s, const hs_queries *qs, const hs_batch_opts *opts,
                         hs_closest_out out)
{
    if (s == NULL)
        return HS_E_NULL;
    qcall c = {0};
    c.cout = out;
    const int pn = out.px || out.py || out.nx || out.ny;
    return call_mode(s, QM_CLOSEST, qs, opts,
                     qs && qs->count > 0 && (out.idx == NULL || out.t == NULL) ? HS_E_NULL : HS_OK,
                     pn, &c);
}

hs_status hs_mpi_any(hs_mpi_set *s, const hs_queries *qs, const hs_batch_opts *opts, uint8_t *hit)
{
    if (s == NULL)
        return HS_E_NULL;
    qcall c = {0};
    c.any = hit;
    return call_mode(s, QM_ANY, qs, opts, qs && qs->count > 0 && hit == NULL ? HS_E_NULL : HS_OK, 0,
                     &c);
}

hs_status hs_mpi_count_hits(hs_mpi_set *s, const hs_queries *qs, const hs_batch_opts *opts,
                            uint32_t *count)
{
    if (s == NULL)
        return HS_E_NULL;
    qcall c = {0};
    c.count = count;
    return call_mode(s, QM_COUNT, qs, opts,
                     qs && qs->count > 0 && count == NULL ? HS_E_NULL : HS_OK, 0, &c);
}

hs_status hs_mpi_all(hs_mpi_set *s, const hs_queries *qs, const hs_batch_opts *opts, hs_hits *out)
{
    if (s == NULL)
        return HS_E_NULL;
    qcall c = {0};
    c.hits = out;
    return call_mode(s, QM_ALL, qs, opts, out == NULL ? HS_E_NULL : HS_OK, 0, &c);
}
