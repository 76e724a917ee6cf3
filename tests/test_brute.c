/* SPDX-License-Identifier: MIT */
/* Tests for brute-force batch queries: every ISA level vs the scalar narrowphase, thread-count
 * independence, invalid queries, masks, ties, edge sizes. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hitscan/batch.h"
#include "hitscan/narrow.h"
#include "test_util.h"

/* ---- scenes and batches ------------------------------------------------------------------ */
/* World [0, 100]^2, radii in [0.2, 6] with some points (r = 0) and exact duplicates (ties). */
static scene make_scene(size_t n, int with_mask)
{
    scene s;
    scene_alloc(&s, n);
    s.mask = with_mask ? xcalloc(n, sizeof(uint32_t)) : NULL;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = rnd() % 20;
        if (k == 0 && i > 0) { /* duplicate of the previous circle: an exact tie in t */
            s.x[i] = s.x[i - 1];
            s.y[i] = s.y[i - 1];
            s.r[i] = s.r[i - 1];
        } else {
            s.x[i] = unif(0.0f, 100.0f);
            s.y[i] = unif(0.0f, 100.0f);
            s.r[i] = k == 1 ? 0.0f : unif(0.2f, 6.0f);
        }
        if (with_mask)
            s.mask[i] = 1u << (rnd() % 4);
    }
    assert_int_equal(hs_circles_create(s.x, s.y, s.r, s.mask, n, &s.cs, NULL), HS_OK);
    return s;
}

/* Every query kind the driver must handle: segments, finite and infinite rays, lines, thick
 * queries, zero-length ones, starts inside a circle, axis-parallel and grazing queries. */
static batch make_batch(const scene *s, size_t m, int with_mask)
{
    batch b;
    batch_alloc_arrays(&b, m, with_mask);
    for (size_t i = 0; i < m; i++) {
        float ang = unif(0.0f, 6.2831853f), len = unif(1.0f, 60.0f);
        b.ax[i] = unif(-10.0f, 110.0f);
        b.ay[i] = unif(-10.0f, 110.0f);
        b.dx[i] = len * cosf(ang);
        b.dy[i] = len * sinf(ang);
        b.tmin[i] = 0.0f;
        b.tmax[i] = 1.0f;
        b.q[i] = 0.0f;
        switch (rnd() % 10) {
        case 0: b.tmax[i] = unif(0.0f, 3.0f); break; /* finite ray */
        case 1: b.tmax[i] = INFINITY; break;         /* infinite ray */
        case 2:
            b.tmin[i] = -INFINITY;
            b.tmax[i] = INFINITY;
            break;                                /* line */
        case 3: b.q[i] = unif(0.0f, 3.0f); break; /* capsule */
        case 4:
            b.dx[i] = b.dy[i] = 0.0f;
            b.q[i] = unif(0.0f, 2.0f);
            break; /* point / disc */
        case 5:
            if (s->n) { /* start inside (or on) some circle */
                size_t c = rnd() % s->n;
                b.ax[i] = s->x[c] + unif(-0.5f, 0.5f) * s->r[c];
                b.ay[i] = s->y[c] + unif(-0.5f, 0.5f) * s->r[c];
            }
            break;
        case 6:
            if (rnd() & 1)
                b.dx[i] = 0.0f;
            else
                b.dy[i] = 0.0f;
            break; /* axis-parallel */
        case 7:
            if (s->n) { /* grazing: the line passes at distance r from a centre */
                size_t c = rnd() % s->n;
                float ux = cosf(ang), uy = sinf(ang);
                b.ax[i] = s->x[c] - uy * s->r[c] - ux * len * 0.5f;
                b.ay[i] = s->y[c] + ux * s->r[c] - uy * len * 0.5f;
            }
            break;
        case 8:
            b.tmin[i] = unif(-1.0f, 0.5f);
            b.tmax[i] = b.tmin[i] + unif(0.0f, 2.0f);
            break;
        default: break;
        }
        if (with_mask)
            b.mask[i] = (uint32_t)(rnd() % 16);
    }
    b.qs.ax = b.ax;
    b.qs.ay = b.ay;
    b.qs.dx = b.dx;
    b.qs.dy = b.dy;
    b.qs.tmin = b.tmin;
    b.qs.tmax = b.tmax;
    b.qs.q = b.q;
    b.qs.mask = b.mask;
    b.qs.mask_all = UINT32_MAX;
    b.qs.count = m;
    return b;
}

static hs_query query_of(const batch *b, size_t i)
{
    hs_query q = {{b->ax[i], b->ay[i]}, {b->dx[i], b->dy[i]}, b->tmin[i], b->tmax[i], b->q[i]};
    return q;
}

/* ---- results of one batch call per mode --------------------------------------------------- */
typedef struct results {
    uint32_t *idx;
    float *t, *px, *py, *nx, *ny;
    uint8_t *any;
    uint32_t *cnt;
    hs_hits all;
    hs_batch_stats st[4];
    hs_status rc[4];
} results;

static results run_modes(const hs_circles *cs, const hs_queries *qs, hs_isa isa, hs_semantics sem,
                         int threads)
{
    results r;
    size_t m = qs->count;
    r.idx = xcalloc(m, sizeof(uint32_t));
    r.t = xcalloc(m, sizeof(float));
    r.px = xcalloc(m, sizeof(float));
    r.py = xcalloc(m, sizeof(float));
    r.nx = xcalloc(m, sizeof(float));
    r.ny = xcalloc(m, sizeof(float));
    r.any = xcalloc(m, 1);
    r.cnt = xcalloc(m, sizeof(uint32_t));
    hs_batch_opts o = hs_batch_opts_default();
    o.isa = isa;
    o.sem = sem;
    o.threads = threads;
    hs_closest_out co = {r.idx, r.t, r.px, r.py, r.nx, r.ny, NULL};
    o.stats = &r.st[0];
    r.rc[0] = hs_brute_closest(cs, qs, &o, co);
    o.stats = &r.st[1];
    r.rc[1] = hs_brute_any(cs, qs, &o, r.any);
    o.stats = &r.st[2];
    r.rc[2] = hs_brute_count(cs, qs, &o, r.cnt);
    o.stats = &r.st[3];
    r.rc[3] = hs_brute_all(cs, qs, &o, &r.all);
    return r;
}

static void free_results(results *r)
{
    free(r->idx);
    free(r->t);
    free(r->px);
    free(r->py);
    free(r->nx);
    free(r->ny);
    free(r->any);
    free(r->cnt);
    hs_hits_free(&r->all);
}

/* Bitwise equality: what thread-count independence means. */
static void assert_same_results(const results *a, const results *b, size_t m)
{
    assert_memory_equal(a->idx, b->idx, m * sizeof(uint32_t));
    assert_memory_equal(a->t, b->t, m * sizeof(float));
    assert_memory_equal(a->px, b->px, m * sizeof(float));
    assert_memory_equal(a->py, b->py, m * sizeof(float));
    assert_memory_equal(a->nx, b->nx, m * sizeof(float));
    assert_memory_equal(a->ny, b->ny, m * sizeof(float));
    assert_memory_equal(a->any, b->any, m);
    assert_memory_equal(a->cnt, b->cnt, m * sizeof(uint32_t));
    assert_int_equal(a->all.count, b->all.count);
    assert_int_equal(a->all.total, b->all.total);
    assert_memory_equal(a->all.offsets, b->all.offsets, (m + 1) * sizeof(size_t));
    if (a->all.total) {
        assert_memory_equal(a->all.idx, b->all.idx, a->all.total * sizeof(uint32_t));
        assert_memory_equal(a->all.t, b->all.t, a->all.total * sizeof(float));
    }
    for (int k = 0; k < 4; k++) {
        assert_int_equal(a->rc[k], b->rc[k]);
        assert_int_equal(a->st[k].invalid, b->st[k].invalid);
        assert_int_equal(a->st[k].first_invalid, b->st[k].first_invalid);
        assert_int_equal(a->st[k].pair_tests, b->st[k].pair_tests);
    }
}

/* ---- the reference: a plain loop over the scalar narrowphase ------------------------------ */

/* Inputs this close to tangency (in squared distance, relative to the magnitudes that went
 * into it) may round either way between the scalar reference and a kernel that contracts to
 * FMA. 1e-5 is ~100 ulps of the largest term: generous, so failures are real disagreements,
 * and it is checked only where the two actually disagree. The count of such excused cases
 * is printed per level: that is the measured band. */
static int near_tangent(hs_query q, float cx, float cy, float r)
{
    double fx = (double)q.a.x - cx, fy = (double)q.a.y - cy, dx = q.d.x, dy = q.d.y;
    double R = (double)r + q.q, R2 = R * R, dd = dx * dx + dy * dy;
    double lo = q.tmin, hi = q.tmax;
    if (dd == 0.0)
        lo = hi = fmin(fmax(0.0, lo), hi);
    double tc = dd > 0 ? -(fx * dx + fy * dy) / dd : lo;
    double ts[3] = {fmin(fmax(tc, lo), hi), lo, hi};
    for (int k = 0; k < 3; k++) {
        if (!isfinite(ts[k]))
            continue;
        double px = fx + ts[k] * dx, py = fy + ts[k] * dy;
        double scale = fx * fx + fy * fy + ts[k] * ts[k] * dd + R2 + 1e-30;
        if (fabs(px * px + py * py - R2) <= 1e-5 * scale)
            return 1;
    }
    return 0;
}

static int t_close(float a, float b, hs_query q)
{
    double len = sqrt((double)q.d.x * q.d.x + (double)q.d.y * q.d.y);
    double span = len > 0 ? 200.0 / len : 0.0; /* world size in units of t */
    return fabs((double)a - b) <= 1e-5 * (1.0 + fabs((double)a) + span);
}

typedef struct ref_hit {
    uint32_t id;
    float t;
} ref_hit;

static int ref_cmp(const void *pa, const void *pb)
{
    const ref_hit *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Compares one level's results with the reference query by query. Returns the number of
 * disagreements excused by the tangency band (each one checked to be near-tangent). */
static size_t check_vs_reference(const scene *s, const batch *b, hs_semantics sem, const results *r,
                                 int exact)
{
    size_t excused = 0;
    ref_hit *hits = xcalloc(s->n, sizeof(ref_hit));
    int *hit_of = xcalloc(s->n, sizeof(int));
    float *t_of = xcalloc(s->n, sizeof(float));
    for (size_t i = 0; i < b->m; i++) {
        hs_query q = query_of(b, i);
        uint32_t qm = b->mask ? b->mask[i] : UINT32_MAX;
        size_t nh = 0;
        uint32_t best = HS_NONE;
        float best_t = INFINITY;
        for (size_t c = 0; c < s->n; c++) {
            hit_of[c] = 0;
            if (s->mask && (s->mask[c] & qm) == 0)
                continue;
            hs_hit h;
            int res = hs_intersect_circle(q, (hs_circle){s->x[c], s->y[c], s->r[c]}, sem, &h);
            assert_true(res >= 0);
            if (res) {
                hit_of[c] = 1;
                t_of[c] = h.t;
                hits[nh].id = (uint32_t)c;
                hits[nh].t = h.t;
                nh++;
                if (h.t < best_t) {
                    best_t = h.t;
                    best = (uint32_t)c;
                }
            }
        }
        qsort(hits, nh, sizeof *hits, ref_cmp);

        /* all: sorted by (t, id); same set; same times */
        size_t o0 = r->all.offsets[i], o1 = r->all.offsets[i + 1];
        assert_true(o0 <= o1 && o1 <= r->all.total);
        for (size_t k = o0 + 1; k < o1; k++)
            assert_true(r->all.t[k - 1] < r->all.t[k] ||
                        (r->all.t[k - 1] == r->all.t[k] && r->all.idx[k - 1] < r->all.idx[k]));
        size_t seen = 0;
        for (size_t k = o0; k < o1; k++) {
            uint32_t c = r->all.idx[k];
            assert_true(c < s->n);
            hs_circle cc = {s->x[c], s->y[c], s->r[c]};
            if (hit_of[c] == 1) {
                hit_of[c] = 2;
                seen++;
                if (exact)
                    assert_true(r->all.t[k] == t_of[c]);
                else if (!t_close(r->all.t[k], t_of[c], q) && !near_tangent(q, cc.x, cc.y, cc.r))
                    fail_msg("query %zu circle %u: t %.9g vs reference %.9g", i, c,
                             (double)r->all.t[k], (double)t_of[c]);
            } else {
                assert_int_equal(hit_of[c], 0); /* reported twice otherwise */
                assert_false(exact);
                if (!near_tangent(q, cc.x, cc.y, cc.r))
                    fail_msg("query %zu: extra hit on circle %u", i, c);
                assert_true(!s->mask || (s->mask[c] & qm) != 0);
                hit_of[c] = 3;
                excused++;
            }
        }
        for (size_t k = 0; k < nh; k++)
            if (hit_of[hits[k].id] == 1) {
                uint32_t c = hits[k].id;
                assert_false(exact);
                if (!near_tangent(q, s->x[c], s->y[c], s->r[c]))
                    fail_msg("query %zu: missed circle %u", i, c);
                excused++;
            }
        if (exact) {
            assert_int_equal(o1 - o0, nh);
            for (size_t k = 0; k < nh; k++) {
                assert_int_equal(r->all.idx[o0 + k], hits[k].id);
                assert_true(r->all.t[o0 + k] == hits[k].t);
            }
        }

        /* count and any agree with this level's own all-hits exactly (one hit decision) */
        assert_int_equal(r->cnt[i], o1 - o0);
        assert_int_equal(r->any[i], o1 > o0);
        if (exact)
            assert_int_equal(r->cnt[i], nh);

        /* closest */
        if (r->idx[i] == HS_NONE) {
            assert_true(isnan(r->t[i]) && isnan(r->px[i]) && isnan(r->nx[i]));
            assert_int_equal(o1, o0);
        } else {
            /* the first entry of this level's all-hits: same decision and tie rule */
            assert_true(o1 > o0);
            assert_int_equal(r->idx[i], r->all.idx[o0]);
            assert_true(r->t[i] == r->all.t[o0]);
            uint32_t c = r->idx[i];
            hs_hit h;
            hs_query qq = q;
            hs_circle cc = {s->x[c], s->y[c], s->r[c]};
            if (hs_intersect_circle(qq, cc, sem, &h) == 1 && h.t == r->t[i]) {
                /* geometry from the same t: the scalar reference's, bit for bit */
                assert_true(h.point.x == r->px[i] && h.point.y == r->py[i]);
                assert_true(h.normal.x == r->nx[i] && h.normal.y == r->ny[i]);
            } else {
                double nl = hypot(r->nx[i], r->ny[i]);
                assert_true(fabs(nl - 1.0) < 1e-5);
            }
        }
        if (exact) {
            assert_int_equal(r->idx[i], best);
            if (best != HS_NONE)
                assert_true(r->t[i] == best_t);
        } else if (r->idx[i] != best) {
            /* acceptable only through a near-tangent circle or a tie within rounding */
            uint32_t a = r->idx[i];
            int ok = (a != HS_NONE && near_tangent(q, s->x[a], s->y[a], s->r[a])) ||
                     (best != HS_NONE && near_tangent(q, s->x[best], s->y[best], s->r[best])) ||
                     (a != HS_NONE && best != HS_NONE && t_close(r->t[i], best_t, q));
            if (!ok)
                fail_msg("query %zu: closest %u (t %.9g) vs reference %u (t %.9g)", i, a,
                         (double)r->t[i], best, (double)best_t);
            excused++;
        }
    }
    free(hits);
    free(hit_of);
    free(t_of);
    return excused;
}

static uint64_t lanes(hs_isa isa, size_t n)
{
    uint64_t w = (uint64_t)hs_isa_width(isa);
    return (n + w - 1) / w * w;
}

/* ---- tests -------------------------------------------------------------------------------- */

/* Random scenes vs the scalar narrowphase on every level, for both semantics, with masks, at
 * several tail lengths; and the same outputs for 1, 2 and 3 threads. */
static void test_random_vs_reference(void **state)
{
    (void)state;
    const size_t sizes_full[] = {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 65, 1000};
    const size_t big = test_quick() ? 200 : 1000;
    const size_t m_small = test_quick() ? 40 : 200, m_big = test_quick() ? 300 : 1000;
    uint64_t pairs = 0;
    size_t excused[HS_ISA_COUNT] = {0};
    for (size_t si = 0; si < sizeof sizes_full / sizeof *sizes_full; si++) {
        size_t n = sizes_full[si] == 1000 ? big : sizes_full[si];
        size_t m = sizes_full[si] == 1000 ? m_big : m_small;
        for (int with_mask = 0; with_mask < 2; with_mask++) {
            rng_state = 1000u * n + (uint64_t)with_mask;
            scene s = make_scene(n, with_mask);
            batch b = make_batch(&s, m, with_mask);
            for (int sem = HS_SOLID; sem <= HS_BOUNDARY_SKIP_START; sem++) {
                for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
                    if (!hs_isa_supported((hs_isa)isa))
                        continue;
                    results r2 = run_modes(s.cs, &b.qs, (hs_isa)isa, (hs_semantics)sem, 2);
                    /* a query of mask 0 passes no circle: answered without a test */
                    size_t tested = 0;
                    for (size_t i = 0; i < m; i++)
                        tested += !b.mask || b.mask[i] != 0;
                    for (int k = 0; k < 4; k++) {
                        assert_int_equal(r2.rc[k], HS_OK);
                        assert_int_equal(r2.st[k].invalid, 0);
                        assert_true(r2.st[k].first_invalid == (size_t)-1);
                        assert_int_equal(r2.st[k].pair_tests,
                                         (uint64_t)tested * lanes((hs_isa)isa, n));
                    }
                    excused[isa] +=
                        check_vs_reference(&s, &b, (hs_semantics)sem, &r2, isa == HS_ISA_SCALAR);
                    if (isa == HS_ISA_SCALAR) /* scalar is always there */
                        pairs += (uint64_t)n * m;
                    /* skip-start: against the reference on 2 threads (the thread checks
                     * are the other semantics') */
                    for (int th = 1; th <= 3 && !(sem & HS_SKIP_START); th += 2) {
                        results rt = run_modes(s.cs, &b.qs, (hs_isa)isa, (hs_semantics)sem, th);
                        assert_same_results(&r2, &rt, m);
                        free_results(&rt);
                    }
                    free_results(&r2);
                }
            }
            batch_free(&b);
            scene_free(&s);
        }
    }
    printf("brute vs scalar narrowphase: %s scale, %llu pairs per level checked\n",
           test_quick() ? "quick" : "full", (unsigned long long)pairs);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++)
        if (hs_isa_supported((hs_isa)isa))
            printf("  %-7s tangency-band disagreements excused: %zu\n", hs_isa_name((hs_isa)isa),
                   excused[isa]);
}

/* Invalid queries are misses, counted, the first one named, HS_E_INVALID_QUERY returned; the
 * valid ones around them are answered normally. */
static void test_invalid_queries(void **state)
{
    (void)state;
    rng_state = 77;
    scene s = make_scene(50, 0);
    batch b = make_batch(&s, 12, 0);
    b.ax[2] = NAN;
    b.tmin[5] = 2.0f;
    b.tmax[5] = 1.0f; /* tmin > tmax */
    b.q[7] = -1.0f;
    b.dx[8] = INFINITY;
    b.tmin[11] = NAN;
    const size_t bad[] = {2, 5, 7, 8, 11};
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        for (int th = 1; th <= 3; th++) {
            results r = run_modes(s.cs, &b.qs, (hs_isa)isa, HS_SOLID, th);
            for (int k = 0; k < 4; k++) {
                assert_int_equal(r.rc[k], HS_E_INVALID_QUERY);
                assert_int_equal(r.st[k].invalid, 5);
                assert_int_equal(r.st[k].first_invalid, 2);
                assert_int_equal(r.st[k].pair_tests, 7u * lanes((hs_isa)isa, s.n));
            }
            for (size_t k = 0; k < 5; k++) {
                size_t i = bad[k];
                assert_int_equal(r.idx[i], HS_NONE);
                assert_true(isnan(r.t[i]) && isnan(r.px[i]) && isnan(r.py[i]));
                assert_true(isnan(r.nx[i]) && isnan(r.ny[i]));
                assert_int_equal(r.any[i], 0);
                assert_int_equal(r.cnt[i], 0);
                assert_int_equal(r.all.offsets[i], r.all.offsets[i + 1]);
            }
            /* the valid ones are answered as usual */
            for (size_t i = 0; i < b.m; i++) {
                hs_query q = query_of(&b, i);
                if (hs_query_validate(q) != HS_OK)
                    continue;
                uint32_t best = HS_NONE;
                float bt = INFINITY;
                uint32_t cnt = 0;
                for (size_t c = 0; c < s.n; c++) {
                    hs_hit h;
                    if (hs_intersect_circle(q, (hs_circle){s.x[c], s.y[c], s.r[c]}, HS_SOLID, &h) ==
                        1) {
                        cnt++;
                        if (h.t < bt) {
                            bt = h.t;
                            best = (uint32_t)c;
                        }
                    }
                }
                /* a far-from-tangent scene: counts match exactly unless a pair is marginal */
                int marginal = 0;
                for (size_t c = 0; c < s.n; c++)
                    marginal |= near_tangent(q, s.x[c], s.y[c], s.r[c]);
                if (!marginal) {
                    assert_int_equal(r.cnt[i], cnt);
                    assert_int_equal(r.idx[i], best);
                }
            }
            free_results(&r);
        }
    }
    /* opts with no stats: still the status */
    uint32_t cnt[12];
    assert_int_equal(hs_brute_count(s.cs, &b.qs, NULL, cnt), HS_E_INVALID_QUERY);
    batch_free(&b);
    scene_free(&s);
}

/* A laser skips its shooter: each query starts at the centre of circle i (inside it) and its
 * mask excludes circle i's category; without the mask, circle i itself is the closest hit. */
static void test_mask_skips_shooter(void **state)
{
    (void)state;
    enum { N = 64 };
    float x[N], y[N], r[N], ax[N], ay[N], dx[N], dy[N];
    uint32_t cm[N], qm[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 8) * 10.0f;
        y[i] = (float)(i / 8) * 10.0f;
        r[i] = 2.0f;
        cm[i] = 1u << (i % 32); /* each circle its own category (two per bit) */
        ax[i] = x[i];
        ay[i] = y[i];
        dx[i] = 25.0f; /* reaches two neighbours to the right */
        dy[i] = 0.0f;
        qm[i] = ~cm[i];
    }
    hs_circles *cs;
    assert_int_equal(hs_circles_create(x, y, r, cm, N, &cs, NULL), HS_OK);
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, N);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        uint32_t idx[N], cnt[N];
        float t[N];
        hs_batch_opts o = hs_batch_opts_default();
        o.isa = (hs_isa)isa;
        /* unfiltered: the shooter is hit at t = 0 */
        assert_int_equal(hs_brute_closest(cs, &qs, &o, (hs_closest_out){.idx = idx, .t = t}),
                         HS_OK);
        for (int i = 0; i < N; i++) {
            assert_int_equal(idx[i], (uint32_t)i);
            assert_true(t[i] == 0.0f);
        }
        qs.mask = qm;
        assert_int_equal(hs_brute_closest(cs, &qs, &o, (hs_closest_out){.idx = idx, .t = t}),
                         HS_OK);
        assert_int_equal(hs_brute_count(cs, &qs, &o, cnt), HS_OK);
        for (int i = 0; i < N; i++) {
            int col = i % 8;
            uint32_t want = col < 7 ? (uint32_t)i + 1 : HS_NONE;
            assert_int_equal(idx[i], want);
            if (want != HS_NONE)
                assert_true(fabsf(t[i] - 8.0f / 25.0f) < 1e-6f); /* 10 - r, over |d| = 25 */
            assert_int_equal(cnt[i], col < 6 ? 2u : col == 6 ? 1u : 0u);
        }
        /* mask_all = 0 with no per-query masks: nothing passes the filter */
        qs.mask = NULL;
        qs.mask_all = 0;
        assert_int_equal(hs_brute_count(cs, &qs, &o, cnt), HS_OK);
        for (int i = 0; i < N; i++)
            assert_int_equal(cnt[i], 0);
        qs.mask_all = UINT32_MAX;
    }
    hs_circles_destroy(cs);
}

/* Exact ties in t go to the smaller index; all-hits lists them by index. Covers duplicates
 * (same entry t) and starts inside several circles (t = tmin for each). */
static void test_ties(void **state)
{
    (void)state;
    float x[] = {50, 10, 10, 30, 10, 0};
    float y[] = {0, 0, 0, 0, 0, 0};
    float r[] = {1, 2, 2, 1, 2, 5};
    float ax[] = {0, 10, -20}, ay[] = {0, 0, 0}, dx[] = {100, 100, 100}, dy[] = {0, 0, 0};
    hs_circles *cs;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 6, &cs, NULL), HS_OK);
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, 3);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        hs_batch_opts o = hs_batch_opts_default();
        o.isa = (hs_isa)isa;
        uint32_t idx[3];
        float t[3];
        assert_int_equal(hs_brute_closest(cs, &qs, &o, (hs_closest_out){.idx = idx, .t = t}),
                         HS_OK);
        assert_int_equal(idx[0], 5); /* starts inside circle 5 only */
        assert_true(t[0] == 0.0f);
        assert_int_equal(idx[1], 1); /* starts inside 1, 2 and 4 (t = 0 for each) */
        assert_true(t[1] == 0.0f);
        assert_int_equal(idx[2], 5); /* enters 5 first at t = 0.15 */
        hs_hits h;
        assert_int_equal(hs_brute_all(cs, &qs, &o, &h), HS_OK);
        assert_int_equal(h.count, 3);
        uint32_t want1[] = {1, 2, 4, 3, 0};
        assert_int_equal(h.offsets[2] - h.offsets[1], 5);
        for (int k = 0; k < 5; k++)
            assert_int_equal(h.idx[h.offsets[1] + k], want1[k]);
        uint32_t want2[] = {5, 1, 2, 4, 3, 0};
        assert_int_equal(h.offsets[3] - h.offsets[2], 6);
        for (int k = 0; k < 6; k++)
            assert_int_equal(h.idx[h.offsets[2] + k], want2[k]);
        assert_true(h.t[h.offsets[2] + 1] == h.t[h.offsets[2] + 2]); /* duplicates: same t */
        hs_hits_free(&h);
        assert_null(h.offsets);
    }
    hs_circles_destroy(cs);
}

/* Many hits per query (heapsort path, buffer growth well past its first size), many blocks. */
static void test_dense_all_hits(void **state)
{
    (void)state;
    const size_t n = 300, m = test_quick() ? 300 : 1200;
    float *x = xcalloc(n, sizeof(float)), *y = xcalloc(n, sizeof(float)),
          *r = xcalloc(n, sizeof(float));
    float *ax = xcalloc(m, sizeof(float)), *ay = xcalloc(m, sizeof(float));
    float *dx = xcalloc(m, sizeof(float)), *dy = xcalloc(m, sizeof(float));
    rng_state = 5;
    for (size_t i = 0; i < n; i++) {
        x[n - 1 - i] = (float)(rnd() % 100); /* many equal x: ties in t */
        y[i] = unif(-0.5f, 0.5f);
        r[i] = 1.0f;
    }
    for (size_t i = 0; i < m; i++) {
        ax[i] = -10.0f;
        ay[i] = unif(-0.2f, 0.2f);
        dx[i] = 120.0f;
        dy[i] = (i % 3) ? 0.0f : 0.001f;
    }
    hs_circles *cs;
    assert_int_equal(hs_circles_create(x, y, r, NULL, n, &cs, NULL), HS_OK);
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, m);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        hs_hits h1, h2;
        hs_batch_opts o = hs_batch_opts_default();
        o.isa = (hs_isa)isa;
        o.threads = 1;
        assert_int_equal(hs_brute_all(cs, &qs, &o, &h1), HS_OK);
        o.threads = 3;
        assert_int_equal(hs_brute_all(cs, &qs, &o, &h2), HS_OK);
        assert_int_equal(h1.total, n * m);
        assert_hits_equal(&h2, &h1);
        for (size_t i = 0; i < m; i++) {
            assert_int_equal(h1.offsets[i + 1] - h1.offsets[i], n);
            for (size_t k = h1.offsets[i] + 1; k < h1.offsets[i + 1]; k++)
                assert_true(h1.t[k - 1] < h1.t[k] ||
                            (h1.t[k - 1] == h1.t[k] && h1.idx[k - 1] < h1.idx[k]));
        }
        hs_hits_free(&h1);
        hs_hits_free(&h2);
    }
    hs_circles_destroy(cs);
    free(x), free(y), free(r), free(ax), free(ay), free(dx), free(dy);
}

/* Empty batches (NULL arrays allowed), one-query batches, and empty circle sets. */
static void test_tiny_and_empty(void **state)
{
    (void)state;
    float x[] = {0}, y[] = {0}, r[] = {1};
    hs_circles *one, *none;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 1, &one, NULL), HS_OK);
    assert_int_equal(hs_circles_create(NULL, NULL, NULL, NULL, 0, &none, NULL), HS_OK);
    hs_queries empty = hs_queries_segments(NULL, NULL, NULL, NULL, 0);
    hs_batch_stats st;
    hs_batch_opts o = hs_batch_opts_default();
    o.stats = &st;
    assert_int_equal(hs_brute_closest(one, &empty, &o, (hs_closest_out){0}), HS_OK);
    assert_int_equal(hs_brute_any(one, &empty, &o, NULL), HS_OK);
    assert_int_equal(hs_brute_count(one, &empty, &o, NULL), HS_OK);
    assert_int_equal(st.pair_tests, 0);
    assert_true(st.first_invalid == (size_t)-1);
    hs_hits h;
    assert_int_equal(hs_brute_all(one, &empty, &o, &h), HS_OK);
    assert_int_equal(h.count, 0);
    assert_int_equal(h.total, 0);
    assert_non_null(h.offsets);
    assert_int_equal(h.offsets[0], 0);
    hs_hits_free(&h);

    float ax[] = {-2}, ay[] = {0}, dx[] = {4}, dy[] = {0};
    hs_queries q1 = hs_queries_segments(ax, ay, dx, dy, 1);
    uint32_t idx = 7, cnt = 7;
    float t = 0;
    uint8_t any = 7;
    assert_int_equal(hs_brute_closest(one, &q1, NULL, (hs_closest_out){.idx = &idx, .t = &t}),
                     HS_OK);
    assert_int_equal(idx, 0);
    assert_true(t == 0.25f);
    assert_int_equal(hs_brute_closest(none, &q1, &o, (hs_closest_out){.idx = &idx, .t = &t}),
                     HS_OK);
    assert_int_equal(idx, HS_NONE);
    assert_true(isnan(t));
    assert_int_equal(st.pair_tests, 0);
    assert_int_equal(hs_brute_any(none, &q1, &o, &any), HS_OK);
    assert_int_equal(any, 0);
    assert_int_equal(hs_brute_count(none, &q1, &o, &cnt), HS_OK);
    assert_int_equal(cnt, 0);
    assert_int_equal(hs_brute_all(none, &q1, &o, &h), HS_OK);
    assert_int_equal(h.total, 0);
    assert_int_equal(h.offsets[1], 0);
    hs_hits_free(&h);
    hs_circles_destroy(one);
    hs_circles_destroy(none);
}

/* Argument errors return before anything is written; NULL opts means defaults. */
static void test_argument_errors(void **state)
{
    (void)state;
    float x[] = {0}, y[] = {0}, r[] = {1};
    hs_circles *cs;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 1, &cs, NULL), HS_OK);
    float ax[] = {-2}, ay[] = {0}, dx[] = {4}, dy[] = {0};
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, 1);
    assert_true(qs.tmin_all == 0.0f && qs.tmax_all == 1.0f && qs.q_all == 0.0f);
    assert_int_equal(qs.mask_all, UINT32_MAX);
    hs_batch_opts d = hs_batch_opts_default();
    assert_int_equal(d.sem, HS_SOLID);
    assert_int_equal(d.isa, HS_ISA_AUTO);
    assert_int_equal(d.threads, 0);
    assert_null(d.stats);

    uint32_t idx = 7, cnt = 7;
    float t = 7;
    hs_hits h;
    hs_closest_out co = {.idx = &idx, .t = &t};
    assert_int_equal(hs_brute_closest(NULL, &qs, NULL, co), HS_E_NULL);
    assert_int_equal(hs_brute_closest(cs, NULL, NULL, co), HS_E_NULL);
    assert_int_equal(hs_brute_closest(cs, &qs, NULL, (hs_closest_out){0}), HS_E_NULL);
    assert_int_equal(hs_brute_any(cs, &qs, NULL, NULL), HS_E_NULL);
    assert_int_equal(hs_brute_count(cs, &qs, NULL, NULL), HS_E_NULL);
    assert_int_equal(hs_brute_all(cs, &qs, NULL, NULL), HS_E_NULL);
    assert_int_equal(hs_brute_all(NULL, &qs, NULL, &h), HS_E_NULL);
    assert_null(h.offsets);
    hs_queries bad = qs;
    bad.dy = NULL;
    assert_int_equal(hs_brute_count(cs, &bad, NULL, &cnt), HS_E_NULL);
    bad = qs;
    bad.count = HS_MAX_COUNT + 1;
    assert_int_equal(hs_brute_count(cs, &bad, NULL, &cnt), HS_E_TOO_MANY);

    hs_batch_opts o = hs_batch_opts_default();
    o.sem = (hs_semantics)4;
    assert_int_equal(hs_brute_count(cs, &qs, &o, &cnt), HS_E_RANGE);
    o = hs_batch_opts_default();
    o.threads = -1;
    assert_int_equal(hs_brute_count(cs, &qs, &o, &cnt), HS_E_RANGE);
    o = hs_batch_opts_default();
    o.isa = HS_ISA_COUNT;
    assert_int_equal(hs_brute_count(cs, &qs, &o, &cnt), HS_E_RANGE);
    assert_int_equal(hs_brute_all(cs, &qs, &o, &h), HS_E_RANGE);
    assert_null(h.offsets);
    assert_int_equal(cnt, 7); /* nothing answered */
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (hs_isa_supported((hs_isa)isa))
            continue;
        o.isa = (hs_isa)isa;
        assert_int_equal(hs_brute_count(cs, &qs, &o, &cnt), HS_E_UNSUPPORTED);
        assert_int_equal(hs_brute_closest(cs, &qs, &o, co), HS_E_UNSUPPORTED);
        assert_int_equal(cnt, 7);
        assert_int_equal(idx, 7);
    }
    /* NULL opts: solid, auto ISA */
    assert_int_equal(hs_brute_closest(cs, &qs, NULL, co), HS_OK);
    assert_int_equal(idx, 0);
    assert_true(t == 0.25f);
    hs_circles_destroy(cs);
}

/* hs_queries_capsules: segments with a half-width per query, answered as hs_capsule's
 * queries one by one. */
static void test_capsule_batch(void **state)
{
    (void)state;
    const float cx[3] = {10.0f, 20.0f, 15.0f}, cy[3] = {0.0f, 0.0f, 4.0f}, cr[3] = {1, 2, 1};
    hs_circles *cs;
    assert_int_equal(hs_circles_create(cx, cy, cr, NULL, 3, &cs, NULL), HS_OK);
    enum { M = 4 };
    const float ax[M] = {0, 0, 0, 15}, ay[M] = {2.5f, 2.5f, -5, 9};
    const float dx[M] = {30, 30, 0, 0}, dy[M] = {0, 0, 3, -3}, q[M] = {0.0f, 1.6f, 2.0f, 3.5f};
    const hs_queries qs = hs_queries_capsules(ax, ay, dx, dy, q, M);
    assert_ptr_equal(qs.q, q);
    assert_ptr_equal(qs.ax, ax);
    assert_int_equal(qs.count, M);
    assert_null(qs.tmin);
    assert_null(qs.tmax);
    assert_null(qs.mask);
    assert_true(qs.tmin_all == 0.0f && qs.tmax_all == 1.0f && qs.mask_all == UINT32_MAX);
    uint32_t idx[M], count[M];
    float t[M];
    uint8_t kind[M];
    memset(kind, 7, sizeof kind);
    const hs_closest_out out = {.idx = idx, .t = t, .kind = kind};
    assert_int_equal(hs_brute_closest(cs, &qs, NULL, out), HS_OK);
    assert_int_equal(hs_brute_count(cs, &qs, NULL, count), HS_OK);
    for (size_t i = 0; i < M; i++) {
        const hs_query c =
            hs_capsule((hs_vec2){ax[i], ay[i]}, (hs_vec2){ax[i] + dx[i], ay[i] + dy[i]}, q[i]);
        uint32_t best = HS_NONE, n = 0;
        float bt = INFINITY;
        for (uint32_t j = 0; j < 3; j++) {
            hs_hit h;
            if (hs_intersect_circle(c, (hs_circle){cx[j], cy[j], cr[j]}, HS_SOLID, &h) == 1) {
                n++;
                if (h.t < bt)
                    bt = h.t, best = j;
            }
        }
        assert_int_equal(idx[i], best);
        assert_int_equal(kind[i], HS_KIND_CIRCLE); /* hit or miss (hs_closest_out.kind) */
        assert_int_equal(count[i], n);
        if (best != HS_NONE)
            assert_true(t[i] == bt);
    }
    assert_int_equal(count[0], 0); /* the same line, thickness 0 and 1.6: 0 and 3 hits */
    assert_int_equal(count[1], 3);
    hs_circles_destroy(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_vs_reference), cmocka_unit_test(test_invalid_queries),
        cmocka_unit_test(test_mask_skips_shooter),  cmocka_unit_test(test_ties),
        cmocka_unit_test(test_dense_all_hits),      cmocka_unit_test(test_tiny_and_empty),
        cmocka_unit_test(test_argument_errors),     cmocka_unit_test(test_capsule_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
