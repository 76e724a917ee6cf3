/* SPDX-License-Identifier: MIT */
/* The batch API checked against itself and the scalar calls: every mode, engine and ISA level on
 * one input. */
#ifndef HS_BATCH_CHECK_H
#define HS_BATCH_CHECK_H

/* Header-only, public API only, no test framework: the unit tests assert on its answer and
 * the fuzz targets abort on it. A check returns 0 when everything agrees, else 1 with one
 * line in msg naming the first disagreement.
 *
 * What "agrees" means (the contracts of batch.h, grid.h, narrow.h):
 *  - every call's status is HS_OK, or HS_E_INVALID_QUERY exactly when some query fails
 *    hs_query_validate; those are answered as misses and counted in the stats;
 *  - at one ISA level, grid and brute force give identical answers, bit for bit, in every
 *    mode; any, count and closest are what all-hits implies (count = row length, any = row
 *    not empty, closest = the row's first hit);
 *  - the scalar and SSE4.2 / NEON levels give exactly the hit sets and entry times of
 *    hs_intersect_circle (the scalar reference), and closest's point and normal too;
 *    In a deterministic build (HS_DETERMINISTIC) so do AVX2 and AVX-512; otherwise
 *  - the FMA levels (AVX2, AVX-512) differ from it only inside the tangency band that
 *    src/kernels/pair_math.inl documents: a pair may flip only when its closest approach
 *    is within 1e-6 of the scale (+ 2^-72 absolute) of r + q, and entry t moves by at most
 *    3e-4 of the scale (+ 2^-36) along the query. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/hitscan.h"

typedef struct bc_input {
    const float *x, *y, *r;
    const uint32_t *mask; /* may be NULL */
    size_t n;
    hs_queries qs;
    hs_semantics sem;
    float cell;       /* grid cell size (0: automatic) */
    int threads;      /* batch and build threads (0: OpenMP's default) */
    hs_workspace *ws; /* optional: every batch call is made with and without it */
} bc_input;

#define BC_FAIL(...)                                                                               \
    do {                                                                                           \
        snprintf(msg, cap, __VA_ARGS__);                                                           \
        return 1;                                                                                  \
    } while (0)

static inline hs_query bc_query_at(const hs_queries *qs, size_t i)
{
    hs_query q;
    q.a.x = qs->ax[i];
    q.a.y = qs->ay[i];
    q.d.x = qs->dx[i];
    q.d.y = qs->dy[i];
    q.tmin = qs->tmin ? qs->tmin[i] : qs->tmin_all;
    q.tmax = qs->tmax ? qs->tmax[i] : qs->tmax_all;
    q.q = qs->q ? qs->q[i] : qs->q_all;
    return q;
}

static inline uint32_t bc_qmask(const hs_queries *qs, size_t i)
{
    return qs->mask ? qs->mask[i] : qs->mask_all;
}

/* Whether circle j of masks mask (NULL: the set has none) passes query mask qmask: a set
 * without masks counts as every bit set, so a query mask of 0 passes no circle (batch.h). */
static inline int bc_mask_passes(const uint32_t *mask, size_t j, uint32_t qmask)
{
    return ((mask ? mask[j] : UINT32_MAX) & qmask) != 0u;
}

/* Equal values: bit for bit, except that -0 equals +0 (the kernels' min / max follow the x86
 * operand rule, fminf / fmaxf may pick either zero) and any NaN equals any NaN. */
static inline int bc_same_bits(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

/* ---- the scalar reference: hs_intersect_circle on every pair ------------------------- */
typedef struct bc_ref {
    size_t *off; /* m + 1 */
    uint32_t *id;
    float *t;
    hs_hit *hit; /* per entry */
    size_t invalid, first_invalid;
} bc_ref;

static inline int bc_hit_less(float ta, uint32_t ia, float tb, uint32_t ib)
{
    return ta < tb || (ta == tb && ia < ib);
}

static inline void bc_ref_free(bc_ref *r)
{
    free(r->off);
    free(r->id);
    free(r->t);
    free(r->hit);
    memset(r, 0, sizeof *r);
}

static inline int bc_ref_make(const bc_input *in, bc_ref *r)
{
    const size_t m = in->qs.count, n = in->n;
    memset(r, 0, sizeof *r);
    r->first_invalid = (size_t)-1;
    r->off = calloc(m + 1, sizeof *r->off);
    size_t cap = 64, len = 0;
    r->id = malloc(cap * sizeof *r->id);
    r->t = malloc(cap * sizeof *r->t);
    r->hit = malloc(cap * sizeof *r->hit);
    if (!r->off || !r->id || !r->t || !r->hit)
        return 1;
    for (size_t i = 0; i < m; i++) {
        hs_query q = bc_query_at(&in->qs, i);
        r->off[i] = len;
        if (hs_query_validate(q) != HS_OK) {
            if (r->invalid++ == 0)
                r->first_invalid = i;
            continue;
        }
        for (size_t j = 0; j < n; j++) {
            if (!bc_mask_passes(in->mask, j, bc_qmask(&in->qs, i)))
                continue;
            hs_circle c = {in->x[j], in->y[j], in->r[j]};
            hs_hit h;
            if (hs_intersect_circle(q, c, in->sem, &h) != 1)
                continue;
            if (len == cap) {
                cap *= 2;
                uint32_t *id = realloc(r->id, cap * sizeof *id);
                if (id)
                    r->id = id;
                float *t = realloc(r->t, cap * sizeof *t);
                if (t)
                    r->t = t;
                hs_hit *hh = realloc(r->hit, cap * sizeof *hh);
                if (hh)
                    r->hit = hh;
                if (!id || !t || !hh)
                    return 1;
            }
            /* insertion into the query's row, by (t, id) */
            size_t k = len++;
            while (k > r->off[i] && bc_hit_less(h.t, (uint32_t)j, r->t[k - 1], r->id[k - 1])) {
                r->id[k] = r->id[k - 1];
                r->t[k] = r->t[k - 1];
                r->hit[k] = r->hit[k - 1];
                k--;
            }
            r->id[k] = (uint32_t)j;
            r->t[k] = h.t;
            r->hit[k] = h;
        }
    }
    r->off[m] = len;
    return 0;
}

/* ---- the tangency band --------------------------------------------------------------- */
static inline double bc_dist_at(hs_query q, hs_circle c, double t)
{
    double px = (double)q.a.x + t * (double)q.d.x - (double)c.x;
    double py = (double)q.a.y + t * (double)q.d.y - (double)c.y;
    return sqrt(px * px + py * py);
}

/* The scale the kernels' rounding is relative to, and whether the pair lies in the band
 * where an FMA level may decide it differently (closest approach, or in boundary semantics
 * an end of the interval, within 1e-6 of the scale from the rim). */
static inline double bc_scale(hs_query q, hs_circle c)
{
    double dd = (double)q.d.x * q.d.x + (double)q.d.y * q.d.y;
    double R = (double)c.r + (double)q.q;
    double s = fmax(fmax(fabs(q.a.x), fabs(q.a.y)), fmax(fmax(fabs(c.x), fabs(c.y)), R));
    if (dd > 0) {
        double fx = (double)q.a.x - c.x, fy = (double)q.a.y - c.y;
        double tc = -(fx * q.d.x + fy * q.d.y) / dd;
        double t = fmin(fmax(tc, q.tmin), q.tmax);
        s = fmax(s, fabs(t) * sqrt(dd));
        if (isfinite(q.tmin))
            s = fmax(s, fabs((double)q.tmin) * sqrt(dd));
        if (isfinite(q.tmax))
            s = fmax(s, fabs((double)q.tmax) * sqrt(dd));
    }
    return s;
}

static inline int bc_in_band(hs_query q, hs_circle c, hs_semantics sem)
{
    double dd = (double)q.d.x * q.d.x + (double)q.d.y * q.d.y;
    /* + the absolute resolution narrow.h documents (squares underflow below 2^-149) */
    double R = (double)c.r + (double)q.q, tol = 1e-6 * bc_scale(q, c) + 0x1p-72;
    double t0 = q.tmin, t1 = q.tmax;
    if (!(dd > 0)) {
        t0 = t1 = fmin(fmax(0.0, q.tmin), q.tmax);
        return fabs(bc_dist_at(q, c, t0) - R) <= tol;
    }
    double fx = (double)q.a.x - c.x, fy = (double)q.a.y - c.y;
    double tc = fmin(fmax(-(fx * q.d.x + fy * q.d.y) / dd, t0), t1);
    if (fabs(bc_dist_at(q, c, tc) - R) <= tol)
        return 1;
    if (sem == HS_BOUNDARY)
        return (isfinite(t0) && fabs(bc_dist_at(q, c, t0) - R) <= tol) ||
               (isfinite(t1) && fabs(bc_dist_at(q, c, t1) - R) <= tol);
    return 0;
}

/* ---- one ISA level's answers ---------------------------------------------------------- */
typedef struct bc_answers {
    hs_status st[4];
    size_t invalid[4], first[4];
    uint32_t *idx;
    float *t, *px, *py, *nx, *ny;
    uint8_t *any;
    uint32_t *cnt;
    hs_hits all;
    /* all-hits again, into the caller's arrays (hs_*_all_into), and what its place saw */
    hs_status st_into;
    size_t into_count, into_total, into_places;
    hs_hits_into into;
} bc_answers;

/* hs_hits_place_fn: every member, from malloc (one entry more, so none is NULL). */
static inline int bc_place(void *ctx, size_t count, size_t total, hs_hits_into *dst)
{
    bc_answers *a = ctx;
    a->into_places++;
    a->into_count = count;
    a->into_total = total;
    dst->offsets = malloc((count + 1) * sizeof *dst->offsets);
    dst->query = malloc((total + 1) * sizeof *dst->query);
    dst->idx = malloc((total + 1) * sizeof *dst->idx);
    dst->t = malloc((total + 1) * sizeof *dst->t);
    a->into = *dst;
    return !dst->offsets || !dst->query || !dst->idx || !dst->t;
}

static inline void bc_answers_free(bc_answers *a)
{
    free(a->idx);
    free(a->t);
    free(a->px);
    free(a->py);
    free(a->nx);
    free(a->ny);
    free(a->any);
    free(a->cnt);
    hs_hits_free(&a->all);
    free(a->into.offsets);
    free(a->into.query);
    free(a->into.idx);
    free(a->into.t);
    memset(a, 0, sizeof *a);
}

/* Runs closest / any / count / all through the grid (g != NULL) or brute force. */
static inline int bc_run(const bc_input *in, const hs_circles *cs, const hs_grid *g, hs_isa isa,
                         hs_workspace *ws, bc_answers *a)
{
    const size_t m = in->qs.count;
    memset(a, 0, sizeof *a);
    a->idx = malloc((m + 1) * sizeof *a->idx);
    a->t = malloc((m + 1) * sizeof(float));
    a->px = malloc((m + 1) * sizeof(float));
    a->py = malloc((m + 1) * sizeof(float));
    a->nx = malloc((m + 1) * sizeof(float));
    a->ny = malloc((m + 1) * sizeof(float));
    a->any = malloc(m + 1);
    a->cnt = malloc((m + 1) * sizeof *a->cnt);
    if (!a->idx || !a->t || !a->px || !a->py || !a->nx || !a->ny || !a->any || !a->cnt)
        return 1;
    hs_batch_stats stats[4];
    hs_batch_opts o = hs_batch_opts_default();
    o.sem = in->sem;
    o.isa = isa;
    o.threads = in->threads;
    o.ws = ws;
    hs_closest_out out = {a->idx, a->t, a->px, a->py, a->nx, a->ny, NULL};
    o.stats = &stats[0];
    a->st[0] = g ? hs_grid_closest(g, &in->qs, &o, out) : hs_brute_closest(cs, &in->qs, &o, out);
    o.stats = &stats[1];
    a->st[1] = g ? hs_grid_any(g, &in->qs, &o, a->any) : hs_brute_any(cs, &in->qs, &o, a->any);
    o.stats = &stats[2];
    a->st[2] =
        g ? hs_grid_count_hits(g, &in->qs, &o, a->cnt) : hs_brute_count(cs, &in->qs, &o, a->cnt);
    o.stats = &stats[3];
    a->st[3] = g ? hs_grid_all(g, &in->qs, &o, &a->all) : hs_brute_all(cs, &in->qs, &o, &a->all);
    o.stats = NULL;
    a->st_into = g ? hs_grid_all_into(g, &in->qs, &o, bc_place, a)
                   : hs_brute_all_into(cs, &in->qs, &o, bc_place, a);
    for (int k = 0; k < 4; k++) {
        a->invalid[k] = stats[k].invalid;
        a->first[k] = stats[k].first_invalid;
    }
    return 0;
}

/* a == b bit for bit (workspace-held all-hits compared by content). */
static inline int bc_same_answers(const bc_answers *a, const bc_answers *b, size_t m,
                                  const char *what, char *msg, size_t cap)
{
    for (int k = 0; k < 4; k++)
        if (a->st[k] != b->st[k])
            BC_FAIL("%s: mode %d status %d vs %d", what, k, (int)a->st[k], (int)b->st[k]);
    if (a->st[3] != HS_OK && a->st[3] != HS_E_INVALID_QUERY)
        return 0;
    for (size_t i = 0; i < m; i++) {
        if (a->idx[i] != b->idx[i] || !bc_same_bits(a->t[i], b->t[i]) ||
            !bc_same_bits(a->px[i], b->px[i]) || !bc_same_bits(a->py[i], b->py[i]) ||
            !bc_same_bits(a->nx[i], b->nx[i]) || !bc_same_bits(a->ny[i], b->ny[i]))
            BC_FAIL("%s: closest of query %zu: %u t=%a vs %u t=%a", what, i, a->idx[i],
                    (double)a->t[i], b->idx[i], (double)b->t[i]);
        if (a->any[i] != b->any[i] || a->cnt[i] != b->cnt[i])
            BC_FAIL("%s: any/count of query %zu: %u/%u vs %u/%u", what, i, a->any[i], a->cnt[i],
                    b->any[i], b->cnt[i]);
    }
    if (a->all.count != m || b->all.count != m || a->all.total != b->all.total)
        BC_FAIL("%s: all-hits totals %zu vs %zu", what, a->all.total, b->all.total);
    for (size_t i = 0; i <= m; i++)
        if (a->all.offsets[i] != b->all.offsets[i])
            BC_FAIL("%s: all-hits offsets[%zu] %zu vs %zu", what, i, a->all.offsets[i],
                    b->all.offsets[i]);
    for (size_t e = 0; e < a->all.total; e++)
        if (a->all.idx[e] != b->all.idx[e] || !bc_same_bits(a->all.t[e], b->all.t[e]))
            BC_FAIL("%s: all-hits entry %zu: %u t=%a vs %u t=%a", what, e, a->all.idx[e],
                    (double)a->all.t[e], b->all.idx[e], (double)b->all.t[e]);
    return 0;
}

/* All-hits into the caller's arrays: the same status, and the CSR's hits with their queries. */
static inline int bc_into_matches(const bc_answers *a, const char *what, char *msg, size_t cap)
{
    const hs_hits *h = &a->all;
    const hs_hits_into *d = &a->into;
    if (a->st_into != a->st[3])
        BC_FAIL("%s: all-hits into returned %d, the CSR call %d", what, (int)a->st_into,
                (int)a->st[3]);
    if (a->st[3] != HS_OK && a->st[3] != HS_E_INVALID_QUERY)
        return 0;
    if (a->into_places != 1 || a->into_count != h->count || a->into_total != h->total)
        BC_FAIL("%s: all-hits into: place called %zu times with %zu / %zu, the CSR has %zu / %zu",
                what, a->into_places, a->into_count, a->into_total, h->count, h->total);
    for (size_t i = 0; i <= h->count; i++)
        if (d->offsets[i] != (int64_t)h->offsets[i])
            BC_FAIL("%s: all-hits into: offsets[%zu] %lld, the CSR's %zu", what, i,
                    (long long)d->offsets[i], h->offsets[i]);
    for (size_t i = 0; i < h->count; i++)
        for (size_t e = h->offsets[i]; e < h->offsets[i + 1]; e++)
            if (d->query[e] != (int64_t)i || d->idx[e] != (int64_t)h->idx[e] ||
                !bc_same_bits(d->t[e], h->t[e]) ||
                (d->t[e] == 0.0f && signbit(d->t[e]) != signbit(h->t[e])))
                BC_FAIL("%s: all-hits into: entry %zu (%lld, %lld, %a), the CSR's (%zu, %u, %a)",
                        what, e, (long long)d->query[e], (long long)d->idx[e], (double)d->t[e], i,
                        h->idx[e], (double)h->t[e]);
    return 0;
}

/* The answers of one call set against the statuses the reference implies and against their
 * own all-hits. */
static inline int bc_self_consistent(const bc_input *in, const bc_ref *ref, const bc_answers *a,
                                     const char *what, char *msg, size_t cap)
{
    const size_t m = in->qs.count;
    const hs_status want = ref->invalid ? HS_E_INVALID_QUERY : HS_OK;
    for (int k = 0; k < 4; k++) {
        if (a->st[k] != want)
            BC_FAIL("%s: mode %d returned %d, expected %d", what, k, (int)a->st[k], (int)want);
        if (a->invalid[k] != ref->invalid || a->first[k] != ref->first_invalid)
            BC_FAIL("%s: mode %d stats invalid %zu first %zu, expected %zu / %zu", what, k,
                    a->invalid[k], a->first[k], ref->invalid, ref->first_invalid);
    }
    const hs_hits *h = &a->all;
    if (h->count != m || h->offsets == NULL || h->offsets[0] != 0 || h->offsets[m] != h->total)
        BC_FAIL("%s: all-hits CSR malformed", what);
    for (size_t i = 0; i < m; i++) {
        size_t b = h->offsets[i], e = h->offsets[i + 1];
        if (e < b)
            BC_FAIL("%s: all-hits offsets decrease at %zu", what, i);
        for (size_t k = b; k + 1 < e; k++)
            if (!bc_hit_less(h->t[k], h->idx[k], h->t[k + 1], h->idx[k + 1]))
                BC_FAIL("%s: all-hits row %zu not ordered by (t, id)", what, i);
        if (a->cnt[i] != e - b)
            BC_FAIL("%s: count[%zu] = %u but all-hits has %zu", what, i, a->cnt[i], e - b);
        if (a->any[i] != (e > b))
            BC_FAIL("%s: any[%zu] = %u but all-hits has %zu", what, i, a->any[i], e - b);
        if (e == b) {
            if (a->idx[i] != HS_NONE || !isnan(a->t[i]) || !isnan(a->px[i]) || !isnan(a->nx[i]))
                BC_FAIL("%s: closest[%zu] = %u on a query without hits", what, i, a->idx[i]);
            continue;
        }
        if (a->idx[i] != h->idx[b] || !bc_same_bits(a->t[i], h->t[b]))
            BC_FAIL("%s: closest[%zu] = %u t=%a, all-hits' first %u t=%a", what, i, a->idx[i],
                    (double)a->t[i], h->idx[b], (double)h->t[b]);
        if (!isfinite(a->t[i]) || !isfinite(a->px[i]) || !isfinite(a->py[i]) ||
            fabsf(hypotf(a->nx[i], a->ny[i]) - 1.0f) > 1e-5f)
            BC_FAIL("%s: closest[%zu] t=%a point (%a, %a) normal (%a, %a)", what, i,
                    (double)a->t[i], (double)a->px[i], (double)a->py[i], (double)a->nx[i],
                    (double)a->ny[i]);
    }
    return 0;
}

/* The level's all-hits and closest against the scalar reference: exact, or (FMA levels)
 * differing only in the band. */
static inline int bc_vs_reference(const bc_input *in, const bc_ref *ref, const bc_answers *a,
                                  int exact, const char *what, char *msg, size_t cap)
{
    const size_t m = in->qs.count;
    const hs_hits *h = &a->all;
    for (size_t i = 0; i < m; i++) {
        size_t rb = ref->off[i], re = ref->off[i + 1], b = h->offsets[i], e = h->offsets[i + 1];
        hs_query q = bc_query_at(&in->qs, i);
        if (exact) {
            if (re - rb != e - b)
                BC_FAIL("%s: query %zu has %zu hits, the scalar calls %zu", what, i, e - b,
                        re - rb);
            for (size_t k = 0; k < e - b; k++)
                if (h->idx[b + k] != ref->id[rb + k] || !bc_same_bits(h->t[b + k], ref->t[rb + k]))
                    BC_FAIL("%s: query %zu hit %zu: %u t=%a, scalar call %u t=%a", what, i, k,
                            h->idx[b + k], (double)h->t[b + k], ref->id[rb + k],
                            (double)ref->t[rb + k]);
            if (e > b) {
                const hs_hit *r0 = &ref->hit[rb];
                if (!bc_same_bits(a->px[i], r0->point.x) || !bc_same_bits(a->py[i], r0->point.y) ||
                    !bc_same_bits(a->nx[i], r0->normal.x) || !bc_same_bits(a->ny[i], r0->normal.y))
                    BC_FAIL("%s: closest[%zu] point/normal differ from hs_intersect_circle", what,
                            i);
            }
            continue;
        }
        /* FMA level: every hit of one side that the other lacks is in the band; common hits'
         * entry t within the band's reach */
        for (int side = 0; side < 2; side++) {
            const uint32_t *xi = side ? ref->id + rb : h->idx + b;
            const float *xt = side ? ref->t + rb : h->t + b;
            size_t xn = side ? re - rb : e - b;
            const uint32_t *yi = side ? h->idx + b : ref->id + rb;
            const float *yt = side ? h->t + b : ref->t + rb;
            size_t yn = side ? e - b : re - rb;
            for (size_t k = 0; k < xn; k++) {
                hs_circle c = {in->x[xi[k]], in->y[xi[k]], in->r[xi[k]]};
                size_t u = 0;
                while (u < yn && yi[u] != xi[k])
                    u++;
                int band = bc_in_band(q, c, in->sem);
                if (u == yn) {
                    if (!band)
                        BC_FAIL("%s: query %zu: circle %u hit on one side only, outside the "
                                "tangency band",
                                what, i, xi[k]);
                    continue;
                }
                double len = hypot(q.d.x, q.d.y);
                double dt = fabs((double)xt[k] - (double)yt[u]) * len;
                if (dt > 3e-4 * bc_scale(q, c) + 0x1p-36 && !(band && in->sem == HS_BOUNDARY))
                    BC_FAIL("%s: query %zu circle %u: entry t %a vs scalar %a", what, i, xi[k],
                            (double)xt[k], (double)yt[u]);
            }
        }
    }
    return 0;
}

/* Every level this machine runs, scalar first. */
static inline int bc_levels(hs_isa *lv)
{
    int n = 0;
    for (int l = HS_ISA_SCALAR; l < HS_ISA_COUNT; l++)
        if (hs_isa_supported((hs_isa)l))
            lv[n++] = (hs_isa)l;
    return n;
}

/* Levels without FMA, and every level of a deterministic build (hitscan/version.h) */
static inline int bc_exact_level(hs_isa l)
{
    return HS_DETERMINISTIC || l == HS_ISA_SCALAR || l == HS_ISA_SSE4 || l == HS_ISA_NEON;
}

/* The whole check for one input against grid g (built by the caller, or NULL: built here
 * from the set). */
static inline int bc_check_grid(const bc_input *in, const hs_circles *cs, const hs_grid *g,
                                char *msg, size_t cap)
{
    bc_ref ref;
    int fail = 0;
    if (bc_ref_make(in, &ref)) {
        bc_ref_free(&ref);
        BC_FAIL("reference: out of memory");
    }
    hs_isa lv[HS_ISA_COUNT];
    int nl = bc_levels(lv);
    for (int l = 0; l < nl && !fail; l++) {
        bc_answers br, gr, gw;
        char what[64];
        memset(&gw, 0, sizeof gw);
        fail = bc_run(in, cs, NULL, lv[l], NULL, &br) || bc_run(in, cs, g, lv[l], NULL, &gr);
        if (!fail && in->ws)
            fail = bc_run(in, cs, g, lv[l], in->ws, &gw);
        if (fail)
            snprintf(msg, cap, "out of memory");
        snprintf(what, sizeof what, "brute %s", hs_isa_name(lv[l]));
        fail = fail || bc_self_consistent(in, &ref, &br, what, msg, cap);
        fail = fail || bc_into_matches(&br, what, msg, cap);
        snprintf(what, sizeof what, "grid %s", hs_isa_name(lv[l]));
        fail = fail || bc_into_matches(&gr, what, msg, cap);
        fail = fail || (in->ws && bc_into_matches(&gw, what, msg, cap));
        fail = fail || bc_vs_reference(in, &ref, &br, bc_exact_level(lv[l]), what, msg, cap);
        snprintf(what, sizeof what, "grid vs brute %s", hs_isa_name(lv[l]));
        fail = fail || bc_same_answers(&gr, &br, in->qs.count, what, msg, cap);
        snprintf(what, sizeof what, "grid with a workspace vs without, %s", hs_isa_name(lv[l]));
        fail = fail || (in->ws && bc_same_answers(&gw, &gr, in->qs.count, what, msg, cap));
        if (!fail && in->ws && gw.all.ws != in->ws && in->qs.count > 0)
            fail = 1, snprintf(msg, cap, "all-hits with a workspace: arrays not the workspace's");
        bc_answers_free(&br);
        bc_answers_free(&gr);
        bc_answers_free(&gw);
    }
    bc_ref_free(&ref);
    return fail;
}

/* Whether hs_grid_build may refuse cell side cell for circles x, y, r (grid.h: a level of
 * more than 16 cells a circle + 65536): a level lies within the circles' extent, so a refusal
 * needs more than 65536 cells of that side over it. */
static inline int bc_cell_refusable(const float *x, const float *y, const float *r, size_t n,
                                    float cell)
{
    /* the extent by comparisons: gcc 12's aarch64 vectoriser fails on an fmin / fmax
     * reduction here (an internal compiler error) */
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t j = 0; j < n; j++) {
        const double lx = (double)x[j] - r[j], hx = (double)x[j] + r[j];
        const double ly = (double)y[j] - r[j], hy = (double)y[j] + r[j];
        x0 = lx < x0 ? lx : x0, x1 = hx > x1 ? hx : x1;
        y0 = ly < y0 ? ly : y0, y1 = hy > y1 ? hy : y1;
    }
    const double h = cell;
    return h > 0.0 && n > 0 &&
           (floor((x1 - x0) / h) + 1.0) * (floor((y1 - y0) / h) + 1.0) > 65536.0;
}

/* hs_grid_build of cs with cell side cell on threads: a side it refuses (bc_cell_refusable
 * must hold) is replaced by the grid's own choice, so that the checks still run; 0 and *g, or
 * 1 with msg. */
static inline int bc_build(const hs_circles *cs, const float *x, const float *y, const float *r,
                           size_t n, float cell, int threads, hs_grid **g, char *msg, size_t cap)
{
    hs_grid_opts go = {.cell_size = cell, .threads = threads};
    hs_status s = hs_grid_build(cs, &go, g);
    if (s == HS_E_RANGE && bc_cell_refusable(x, y, r, n, cell)) {
        go.cell_size = 0.0f;
        s = hs_grid_build(cs, &go, g);
    }
    if (s != HS_OK) {
        snprintf(msg, cap, "hs_grid_build returned %d (cell side %a)", (int)s, (double)cell);
        return 1;
    }
    return 0;
}

/* Creates the set (checking its validation against hs_circle_validate) and the grid, then
 * bc_check_grid. */
static inline int bc_check(const bc_input *in, char *msg, size_t cap)
{
    hs_circles *cs = NULL;
    size_t bad = (size_t)-1;
    hs_status s = hs_circles_create(in->x, in->y, in->r, in->mask, in->n, &cs, &bad);
    size_t want_bad = (size_t)-1;
    hs_status want = HS_OK;
    for (size_t j = 0; j < in->n && want == HS_OK; j++) {
        hs_circle c = {in->x[j], in->y[j], in->r[j]};
        want = hs_circle_validate(c);
        want_bad = j;
    }
    if (s != want)
        BC_FAIL("hs_circles_create returned %d, hs_circle_validate says %d", (int)s, (int)want);
    if (s != HS_OK) {
        if (bad != want_bad)
            BC_FAIL("hs_circles_create: bad_index %zu, expected %zu", bad, want_bad);
        return 0;
    }
    hs_grid *g = NULL;
    if (bc_build(cs, in->x, in->y, in->r, in->n, in->cell, in->threads, &g, msg, cap)) {
        hs_circles_destroy(cs);
        return 1;
    }
    int fail = bc_check_grid(in, cs, g, msg, cap);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return fail;
}

/* ---- pairs and disc overlap against brute force in double ----------------------------- */
static inline int bc_discs_touch(float xa, float ya, float ra, float xb, float yb, float rb)
{
    /* exact for floats: products of doubles holding float differences are exact to 2^-53
     * relative, far below the spacing of any decision the float inputs can make */
    double dx = (double)xa - xb, dy = (double)ya - yb, s = (double)ra + rb;
    return dx * dx + dy * dy <= s * s;
}

static inline int bc_check_pairs(const float *x, const float *y, const float *r, size_t n,
                                 const hs_grid *g, int threads, char *msg, size_t cap)
{
    hs_pairs p;
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    hs_status s = hs_grid_pairs(g, &o, &p);
    if (s != HS_OK)
        BC_FAIL("hs_grid_pairs returned %d", (int)s);
    size_t k = 0;
    int fail = 0;
    for (size_t i = 0; i < n && !fail; i++)
        for (size_t j = i + 1; j < n && !fail; j++) {
            if (!bc_discs_touch(x[i], y[i], r[i], x[j], y[j], r[j]))
                continue;
            if (k >= p.count || p.i[k] != i || p.j[k] != j) {
                snprintf(msg, cap, "pairs: expected (%zu, %zu) at %zu, got %s", i, j, k,
                         k < p.count ? "another pair" : "the end");
                fail = 1;
            }
            k++;
        }
    if (!fail && k != p.count) {
        snprintf(msg, cap, "pairs: %zu reported, %zu expected", p.count, k);
        fail = 1;
    }
    hs_pairs_free(&p);
    return fail;
}

/* One probe: status as hs_circle_validate, the found set as brute force, the cap smallest. */
static inline int bc_check_overlap(const float *x, const float *y, const float *r,
                                   const uint32_t *mask, size_t n, const hs_grid *g, hs_circle c,
                                   uint32_t qmask, size_t cap_idx, char *msg, size_t cap)
{
    uint32_t *idx = malloc((cap_idx + 1) * sizeof *idx);
    if (idx == NULL)
        BC_FAIL("out of memory");
    size_t found = 12345;
    hs_status s = hs_grid_overlap_circle(g, c, qmask, idx, cap_idx, &found);
    hs_status want = hs_circle_validate(c);
    int fail = 0;
    if (s != want) {
        snprintf(msg, cap, "overlap (%a, %a, %a): status %d, expected %d", (double)c.x, (double)c.y,
                 (double)c.r, (int)s, (int)want);
        fail = 1;
    } else if (s == HS_OK) {
        size_t k = 0;
        for (size_t j = 0; j < n && !fail; j++) {
            if (!bc_mask_passes(mask, j, qmask))
                continue;
            if (!bc_discs_touch(c.x, c.y, c.r, x[j], y[j], r[j]))
                continue;
            if (k < cap_idx && idx[k] != j) {
                snprintf(msg, cap, "overlap (%a, %a, %a): entry %zu is %u, expected %zu",
                         (double)c.x, (double)c.y, (double)c.r, k, idx[k], j);
                fail = 1;
            }
            k++;
        }
        if (!fail && k != found) {
            snprintf(msg, cap, "overlap (%a, %a, %a): found %zu, expected %zu", (double)c.x,
                     (double)c.y, (double)c.r, found, k);
            fail = 1;
        }
    } else if (found != 0) {
        snprintf(msg, cap, "overlap: found = %zu on an invalid probe", found);
        fail = 1;
    }
    free(idx);
    return fail;
}

#undef BC_FAIL
#endif
