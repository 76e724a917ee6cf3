/* SPDX-License-Identifier: MIT */
/* Tests for the grid's queries against moving circles (hs_batch_opts.disp_x / disp_y): every
 * mode against an O(N M) reference in double (the first t in [tmin, tmax] at which the query
 * point lies in the moving disc), the modes against each other, zero displacements against
 * the standing answers, a bullet that tunnels through a crossing crowd, fast movers, thread
 * counts and ISA levels, capsules and masks, and bad input.
 *
 * Tolerance: a (query, circle) pair the reference and the library disagree on must lie in the
 * tangency band: its closest approach within BAND * 2^-24 of the pair's magnitude (largest
 * |coordinate|, r + q, |d| + |d_i|) of touching; closest's t within T_TOL of the reference. */
#include <float.h>
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
#include "hitscan/grid.h"
#include "hitscan/narrow.h"
#include "test_util.h"

#define BAND 64.0
#define T_TOL 1e-4

/* Circles with displacements, segments, and the grid. */
typedef struct mscene {
    scene s;
    float *ddx, *ddy;
    batch b;
    hs_grid *g;
} mscene;

/* n circles in a square of side w, radii in [0.5, 1.5], displacements up to dmax (and a
 * fraction `fast` of them fast x 30), m segments of length up to len. */
static void ms_make(mscene *w, size_t n, size_t m, float side, float dmax, double fast, float len)
{
    scene_alloc(&w->s, n);
    w->ddx = xcalloc(n, sizeof(float));
    w->ddy = xcalloc(n, sizeof(float));
    for (size_t i = 0; i < n; i++) {
        w->s.x[i] = frange(0, side);
        w->s.y[i] = frange(0, side);
        w->s.r[i] = frange(0.5, 1.5);
        const float k = urand() < fast ? 30.0f : 1.0f;
        w->ddx[i] = k * frange(-dmax, dmax);
        w->ddy[i] = k * frange(-dmax, dmax);
    }
    batch_alloc_arrays(&w->b, m, 0);
    for (size_t i = 0; i < m; i++) {
        w->b.ax[i] = frange(0, side);
        w->b.ay[i] = frange(0, side);
        w->b.dx[i] = frange(-len, len);
        w->b.dy[i] = frange(-len, len);
        w->b.tmax[i] = 1.0f;
    }
    w->b.qs = hs_queries_segments(w->b.ax, w->b.ay, w->b.dx, w->b.dy, m);
    assert_int_equal(hs_circles_create(w->s.x, w->s.y, w->s.r, NULL, n, &w->s.cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(w->s.cs, NULL, &w->g), HS_OK);
}

static void ms_free(mscene *w)
{
    hs_grid_destroy(w->g);
    scene_free(&w->s);
    batch_free(&w->b);
    free(w->ddx);
    free(w->ddy);
}

/* The reference in double: the first t in [t0, t1] with |a + t (d - di) - c| <= R, or -1. */
static double ref_entry(double ax, double ay, double dx, double dy, double t0, double t1, double cx,
                        double cy, double R)
{
    const double fx = ax - cx, fy = ay - cy;
    const double A = dx * dx + dy * dy, B = fx * dx + fy * dy, C = fx * fx + fy * fy - R * R;
    const double f0 = C + t0 * (2.0 * B + t0 * A);
    if (f0 <= 0.0)
        return t0;
    if (A == 0.0)
        return -1.0;
    const double disc = B * B - A * C;
    if (disc < 0.0)
        return -1.0;
    const double t = (-B - sqrt(disc)) / A;
    return t >= t0 && t <= t1 ? t : -1.0;
}

/* How far (relative to the pair's magnitude) query i passes from touching circle j. */
static double ref_gap(const mscene *w, size_t i, size_t j, float q)
{
    const double dx = (double)w->b.dx[i] - w->ddx[j], dy = (double)w->b.dy[i] - w->ddy[j];
    const double fx = (double)w->b.ax[i] - w->s.x[j], fy = (double)w->b.ay[i] - w->s.y[j];
    const double A = dx * dx + dy * dy;
    double t = A > 0.0 ? -(fx * dx + fy * dy) / A : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    const double px = fx + t * dx, py = fy + t * dy;
    const double R = (double)w->s.r[j] + q;
    const double mag = fabs(w->b.ax[i]) + fabs(w->b.ay[i]) + fabs(w->s.x[j]) + fabs(w->s.y[j]) + R +
                       sqrt(A) + fabs(w->b.dx[i]) + fabs(w->b.dy[i]);
    return fabs(sqrt(px * px + py * py) - R) / mag;
}

static hs_batch_opts ms_opts(const mscene *w, int threads, hs_isa isa)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    o.isa = isa;
    o.disp_x = w->ddx;
    o.disp_y = w->ddy;
    return o;
}

/* Every mode against the reference, and against each other; thickness q for every query. */
static void check_against_reference(mscene *w, float q)
{
    const size_t m = w->b.m, n = w->s.n;
    w->b.qs.q_all = q;
    hs_batch_opts o = ms_opts(w, 2, HS_ISA_AUTO);
    uint32_t *idx = xcalloc(m, 4), *cnt = xcalloc(m, 4);
    float *t = xcalloc(m, 4);
    uint8_t *any = xcalloc(m, 1);
    const hs_closest_out co = {idx, t, NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(hs_grid_closest(w->g, &w->b.qs, &o, co), HS_OK);
    assert_int_equal(hs_grid_count_hits(w->g, &w->b.qs, &o, cnt), HS_OK);
    assert_int_equal(hs_grid_any(w->g, &w->b.qs, &o, any), HS_OK);
    hs_hits all;
    assert_int_equal(hs_grid_all(w->g, &w->b.qs, &o, &all), HS_OK);
    size_t total_ref = 0, band = 0;
    for (size_t i = 0; i < m; i++) {
        double best = INFINITY;
        size_t ref_n = 0;
        for (size_t j = 0; j < n; j++) {
            const double te = ref_entry(w->b.ax[i], w->b.ay[i], (double)w->b.dx[i] - w->ddx[j],
                                        (double)w->b.dy[i] - w->ddy[j], 0.0, 1.0, w->s.x[j],
                                        w->s.y[j], (double)w->s.r[j] + q);
            int got = 0; /* is j among the library's hits of i? */
            for (size_t k = all.offsets[i]; k < all.offsets[i + 1]; k++)
                got |= all.idx[k] == j;
            if ((te >= 0.0) != got) {
                band++;
                assert_true(ref_gap(w, i, j, q) <= BAND * 0x1p-24);
            }
            if (te >= 0.0) {
                ref_n++;
                best = te < best ? te : best;
            }
        }
        total_ref += ref_n;
        /* the modes agree with each other exactly */
        assert_int_equal(cnt[i], all.offsets[i + 1] - all.offsets[i]);
        assert_int_equal(any[i], cnt[i] != 0);
        if (cnt[i] == 0) {
            assert_int_equal(idx[i], HS_NONE);
            assert_true(isnan(t[i]));
            continue;
        }
        assert_int_equal(idx[i], all.idx[all.offsets[i]]);
        assert_true(t[i] == all.t[all.offsets[i]]);
        for (size_t k = all.offsets[i] + 1; k < all.offsets[i + 1]; k++)
            assert_true(all.t[k - 1] < all.t[k] ||
                        (all.t[k - 1] == all.t[k] && all.idx[k - 1] < all.idx[k]));
        if (isfinite(best))
            assert_true(fabs((double)t[i] - best) <= T_TOL);
    }
    /* the scenes are meant to have many hits and the band to be rare */
    assert_true(total_ref > m / 4);
    assert_true(band * 100 <= total_ref + 100);
    hs_hits_free(&all);
    free(idx);
    free(cnt);
    free(t);
    free(any);
}

static void test_reference_segments(void **state)
{
    (void)state;
    mscene w;
    ms_make(&w, test_quick() ? 400 : 1500, test_quick() ? 300 : 800, 60.0f, 3.0f, 0.02, 8.0f);
    check_against_reference(&w, 0.0f);
    check_against_reference(&w, 0.75f); /* capsules */
    ms_free(&w);
}

/* Zero displacements give the standing answers, bit for bit. */
static void test_zero_displacement(void **state)
{
    (void)state;
    mscene w;
    ms_make(&w, 2000, 1000, 80.0f, 0.0f, 0.0, 10.0f);
    const size_t m = w.b.m;
    hs_batch_opts still = hs_batch_opts_default(), mov = ms_opts(&w, 2, HS_ISA_AUTO);
    uint32_t *i0 = xcalloc(m, 4), *i1 = xcalloc(m, 4);
    float *t0 = xcalloc(m, 4), *t1 = xcalloc(m, 4);
    assert_int_equal(hs_grid_closest(w.g, &w.b.qs, &still, (hs_closest_out){.idx = i0, .t = t0}),
                     HS_OK);
    assert_int_equal(hs_grid_closest(w.g, &w.b.qs, &mov, (hs_closest_out){.idx = i1, .t = t1}),
                     HS_OK);
    assert_memory_equal(i0, i1, m * 4);
    assert_memory_equal(t0, t1, m * 4);
    hs_hits a0, a1;
    assert_int_equal(hs_grid_all(w.g, &w.b.qs, &still, &a0), HS_OK);
    assert_int_equal(hs_grid_all(w.g, &w.b.qs, &mov, &a1), HS_OK);
    assert_hits_equal(&a1, &a0);
    hs_hits_free(&a0);
    hs_hits_free(&a1);
    free(i0);
    free(i1);
    free(t0);
    free(t1);
    ms_free(&w);
}

/* A bullet crossing the path of a circle that moves across it: standing still, neither the
 * circle's start nor its end is on the bullet's path; moving, the bullet meets it halfway. */
static void test_tunnelling(void **state)
{
    (void)state;
    const float x[] = {5.0f, 50.0f}, y[] = {-10.0f, 50.0f}, r[] = {1.0f, 1.0f};
    const float ddx[] = {0.0f, 0.0f}, ddy[] = {20.0f, 0.0f};
    hs_circles *cs;
    hs_grid *g;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 2, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    const float ax = 0.0f, ay = 0.0f, dx = 10.0f, dy = 0.0f;
    const hs_queries qs = hs_queries_segments(&ax, &ay, &dx, &dy, 1);
    uint32_t idx, cnt;
    float t, px, py, nx, ny;
    const hs_closest_out co = {&idx, &t, &px, &py, &nx, &ny, NULL};
    hs_batch_opts o = hs_batch_opts_default();
    assert_int_equal(hs_grid_closest(g, &qs, &o, co), HS_OK);
    assert_int_equal(idx, HS_NONE);
    o.disp_x = ddx;
    o.disp_y = ddy;
    assert_int_equal(hs_grid_closest(g, &qs, &o, co), HS_OK);
    assert_int_equal(idx, 0);
    /* the bullet at (10 t, 0), the circle at (5, -10 + 20 t): touching when
     * (10t - 5)^2 + (20t - 10)^2 = 1, t = 0.5 - 1 / sqrt(500) */
    assert_true(fabs(t - (0.5 - 1.0 / sqrt(500.0))) < 1e-6);
    assert_true(fabs(px - 10.0f * t) < 1e-5 && py == 0.0f);
    assert_true(fabs(nx * nx + ny * ny - 1.0f) < 1e-5 && nx < 0.0f && ny > 0.0f);
    assert_int_equal(hs_grid_count_hits(g, &qs, &o, &cnt), HS_OK);
    assert_int_equal(cnt, 1);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

/* The exact answer of query q against circle j moving by (ddx, ddy): hs_intersect_circle on the
 * relative motion (a relative |d|^2 below FLT_MIN is none), as batch.h defines it. */
static int rel_hit(hs_query q, float x, float y, float r, float ddx, float ddy, hs_semantics sem,
                   hs_hit *h)
{
    q.d.x -= ddx;
    q.d.y -= ddy;
    if (!(q.d.x * q.d.x + q.d.y * q.d.y >= FLT_MIN))
        q.d.x = q.d.y = 0.0f;
    const hs_circle c = {.x = x, .y = y, .r = r};
    return hs_intersect_circle(q, c, sem, h) == 1;
}

/* Every mode, semantics and level against hs_intersect_circle pair by pair, bit for bit:
 * short and long segments (the block's and the per-query walk's), points with an interval
 * around 0, intervals that do not start at 0, capsules, circle and query masks. */
static void test_exact_semantics(void **state)
{
    (void)state;
    const size_t n = test_quick() ? 600 : 2000, m = test_quick() ? 300 : 900;
    const float side = 100.0f;
    float *x = xcalloc(n, 4), *y = xcalloc(n, 4), *r = xcalloc(n, 4), *ddx = xcalloc(n, 4),
          *ddy = xcalloc(n, 4);
    uint32_t *cmask = xcalloc(n, 4), *qmask = xcalloc(m, 4);
    float *ax = xcalloc(m, 4), *ay = xcalloc(m, 4), *dx = xcalloc(m, 4), *dy = xcalloc(m, 4),
          *t0 = xcalloc(m, 4), *t1 = xcalloc(m, 4), *qq = xcalloc(m, 4);
    for (size_t j = 0; j < n; j++) {
        x[j] = frange(0, side);
        y[j] = frange(0, side);
        r[j] = frange(0.2, 2.0);
        ddx[j] = frange(-2, 2);
        ddy[j] = frange(-2, 2);
        cmask[j] = 1u << (j % 3);
    }
    for (size_t i = 0; i < m; i++) {
        const int kind = (int)(i % 5); /* short, long, point, shifted interval, capsule */
        const float len = kind == 1 ? 150.0f : 4.0f;
        ax[i] = frange(0, side);
        ay[i] = frange(0, side);
        dx[i] = kind == 2 ? 0.0f : frange(-len, len);
        dy[i] = kind == 2 ? 0.0f : frange(-len, len);
        t0[i] = kind == 2 || kind == 3 ? -0.5f : 0.0f;
        t1[i] = kind == 3 ? 0.75f : 1.0f;
        qq[i] = kind == 4 ? 0.5f : 0.0f;
        qmask[i] = i % 7 == 0 ? 0u : (uint32_t)(1 + i % 7);
    }
    hs_circles *cs;
    hs_grid *g;
    assert_int_equal(hs_circles_create(x, y, r, cmask, n, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    hs_queries qs = hs_queries_capsules(ax, ay, dx, dy, qq, m);
    qs.tmin = t0;
    qs.tmax = t1;
    qs.mask = qmask;
    uint32_t *idx = xcalloc(m, 4), *cnt = xcalloc(m, 4);
    float *t = xcalloc(m, 4), *px = xcalloc(m, 4), *py = xcalloc(m, 4), *nx = xcalloc(m, 4),
          *ny = xcalloc(m, 4);
    uint8_t *any = xcalloc(m, 1);
    const hs_semantics sems[] = {HS_SOLID, HS_BOUNDARY, HS_SOLID_SKIP_START,
                                 HS_BOUNDARY_SKIP_START};
    size_t hits = 0;
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        for (size_t k = 0; k < sizeof sems / sizeof sems[0]; k++) {
            hs_batch_opts o = hs_batch_opts_default();
            o.isa = (hs_isa)isa;
            o.sem = sems[k];
            o.threads = 1 + isa % 2;
            o.disp_x = ddx;
            o.disp_y = ddy;
            const hs_closest_out co = {.idx = idx, .t = t, .px = px, .py = py, .nx = nx, .ny = ny};
            assert_int_equal(hs_grid_closest(g, &qs, &o, co), HS_OK);
            assert_int_equal(hs_grid_count_hits(g, &qs, &o, cnt), HS_OK);
            assert_int_equal(hs_grid_any(g, &qs, &o, any), HS_OK);
            hs_hits all;
            assert_int_equal(hs_grid_all(g, &qs, &o, &all), HS_OK);
            for (size_t i = 0; i < m; i++) {
                const hs_query q = {{ax[i], ay[i]}, {dx[i], dy[i]}, t0[i], t1[i], qq[i]};
                uint32_t best = HS_NONE, c = 0;
                hs_hit bh = {0}, h;
                size_t at = all.offsets[i];
                for (uint32_t j = 0; j < n; j++) {
                    if (!(cmask[j] & qmask[i]) ||
                        !rel_hit(q, x[j], y[j], r[j], ddx[j], ddy[j], sems[k], &h))
                        continue;
                    c++;
                    if (best == HS_NONE || h.t < bh.t) {
                        best = j;
                        bh = h;
                    }
                    int found = 0; /* j among all's hits of i, with its t */
                    for (size_t a = all.offsets[i]; a < all.offsets[i + 1]; a++)
                        found |= all.idx[a] == j && all.t[a] == h.t;
                    assert_true(found);
                    at++;
                }
                assert_int_equal(at, all.offsets[i + 1]);
                assert_int_equal(cnt[i], c);
                assert_int_equal(any[i], c != 0);
                assert_int_equal(idx[i], best);
                hits += c;
                if (best == HS_NONE)
                    continue;
                assert_true(t[i] == bh.t);
                assert_true(px[i] == ax[i] + bh.t * dx[i] && py[i] == ay[i] + bh.t * dy[i]);
                assert_true(nx[i] == bh.normal.x && ny[i] == bh.normal.y);
            }
            hs_hits_free(&all);
        }
    }
    assert_true(hits > m); /* the scene has hits to compare */
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    void *bufs[] = {x,  y,  r,  ddx, ddy, cmask, qmask, ax, ay, dx, dy,
                    t0, t1, qq, idx, cnt, t,     px,    py, nx, ny, any};
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
        free(bufs[k]);
}

/* Every level and thread count gives the same bytes. */
static void test_levels_and_threads(void **state)
{
    (void)state;
    mscene w;
    ms_make(&w, 3000, 2000, 100.0f, 2.0f, 0.01, 12.0f);
    const size_t m = w.b.m;
    uint32_t *i0 = xcalloc(m, 4), *i1 = xcalloc(m, 4);
    float *t0 = xcalloc(m, 4), *t1 = xcalloc(m, 4);
    hs_batch_opts o = ms_opts(&w, 1, HS_ISA_SCALAR);
    assert_int_equal(hs_grid_closest(w.g, &w.b.qs, &o, (hs_closest_out){.idx = i0, .t = t0}),
                     HS_OK);
    hs_hits a0;
    assert_int_equal(hs_grid_all(w.g, &w.b.qs, &o, &a0), HS_OK);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!test_isa_on((hs_isa)isa))
            continue;
        for (int th = 1; th <= 3; th++) {
            o = ms_opts(&w, th, (hs_isa)isa);
            assert_int_equal(
                hs_grid_closest(w.g, &w.b.qs, &o, (hs_closest_out){.idx = i1, .t = t1}), HS_OK);
            assert_memory_equal(i0, i1, m * 4);
            assert_memory_equal(t0, t1, m * 4);
            hs_hits a1;
            assert_int_equal(hs_grid_all(w.g, &w.b.qs, &o, &a1), HS_OK);
            assert_hits_equal(&a1, &a0);
            hs_hits_free(&a1);
        }
    }
    hs_hits_free(&a0);
    free(i0);
    free(i1);
    free(t0);
    free(t1);
    ms_free(&w);
}

/* Bad input: NULL, NaN or too long displacements; unbounded queries are invalid (misses,
 * counted), the others still answered. */
static void test_bad_input(void **state)
{
    (void)state;
    mscene w;
    ms_make(&w, 200, 50, 30.0f, 1.0f, 0.0, 5.0f);
    uint32_t cnt[50];
    hs_batch_opts o = ms_opts(&w, 1, HS_ISA_AUTO);
    o.disp_y = NULL;
    assert_int_equal(hs_grid_count_hits(w.g, &w.b.qs, &o, cnt), HS_E_NULL);
    o = ms_opts(&w, 1, HS_ISA_AUTO);
    w.ddx[7] = NAN;
    assert_int_equal(hs_grid_count_hits(w.g, &w.b.qs, &o, cnt), HS_E_NONFINITE);
    w.ddx[7] = 1e30f;
    assert_int_equal(hs_grid_count_hits(w.g, &w.b.qs, &o, cnt), HS_E_RANGE);
    w.ddx[7] = 0.5f;
    uint32_t want[50];
    assert_int_equal(hs_grid_count_hits(w.g, &w.b.qs, &o, want), HS_OK);
    w.b.tmax[3] = INFINITY; /* a ray */
    w.b.qs.tmax = w.b.tmax;
    hs_batch_stats st;
    o.stats = &st;
    assert_int_equal(hs_grid_count_hits(w.g, &w.b.qs, &o, cnt), HS_E_INVALID_QUERY);
    assert_int_equal(st.invalid, 1);
    assert_int_equal(st.first_invalid, 3);
    assert_int_equal(cnt[3], 0);
    want[3] = 0;
    assert_memory_equal(cnt, want, sizeof cnt);
    /* a periodic box whose edges no query comes near: the answers without it */
    hs_grid_opts go;
    memset(&go, 0, sizeof go);
    go.periodic = HS_PERIODIC_XY;
    go.box = (hs_aabb){{-10.0f, -10.0f}, {40.0f, 40.0f}};
    hs_grid *pg;
    assert_int_equal(hs_grid_build(w.s.cs, &go, &pg), HS_OK);
    w.b.tmax[3] = 1.0f;
    assert_int_equal(hs_grid_count_hits(w.g, &w.b.qs, &o, want), HS_OK);
    assert_int_equal(hs_grid_count_hits(pg, &w.b.qs, &o, cnt), HS_OK);
    assert_memory_equal(cnt, want, sizeof cnt);
    hs_grid_destroy(pg);
    ms_free(&w);
}

/* Rays and lines have no finite interval: invalid whatever the displacements, all 0
 * included (a query's validity does not depend on their values); with every displacement 0
 * the segments keep their standing answers. */
static void test_unbounded_whatever_displacement(void **state)
{
    (void)state;
    mscene w;
    ms_make(&w, 200, 50, 30.0f, 1.0f, 0.0, 5.0f);
    w.b.tmax[3] = INFINITY;  /* a ray */
    w.b.tmin[9] = -INFINITY; /* a line */
    w.b.tmax[9] = INFINITY;
    w.b.qs.tmin = w.b.tmin;
    w.b.qs.tmax = w.b.tmax;
    float *zx = xcalloc(200, sizeof(float)), *zy = xcalloc(200, sizeof(float));
    for (int zero = 0; zero <= 1; zero++) {
        hs_batch_opts o = ms_opts(&w, 1, HS_ISA_AUTO);
        if (zero) {
            o.disp_x = zx;
            o.disp_y = zy;
        }
        hs_batch_stats st;
        o.stats = &st;
        uint32_t cnt[50], idx[50];
        float t[50];
        uint8_t hit[50];
        const hs_closest_out co = {.idx = idx, .t = t};
        assert_int_equal(hs_grid_count_hits(w.g, &w.b.qs, &o, cnt), HS_E_INVALID_QUERY);
        assert_int_equal(st.invalid, 2);
        assert_int_equal(st.first_invalid, 3);
        assert_int_equal(cnt[3], 0);
        assert_int_equal(cnt[9], 0);
        assert_int_equal(hs_grid_closest(w.g, &w.b.qs, &o, co), HS_E_INVALID_QUERY);
        assert_int_equal(idx[3], HS_NONE);
        assert_int_equal(idx[9], HS_NONE);
        assert_int_equal(hs_grid_any(w.g, &w.b.qs, &o, hit), HS_E_INVALID_QUERY);
        assert_int_equal(hit[3] | hit[9], 0);
        hs_hits all;
        assert_int_equal(hs_grid_all(w.g, &w.b.qs, &o, &all), HS_E_INVALID_QUERY);
        assert_int_equal(all.offsets[4] - all.offsets[3], 0);
        assert_int_equal(all.offsets[10] - all.offsets[9], 0);
        if (zero) { /* the others: the standing answers */
            hs_batch_opts still = ms_opts(&w, 1, HS_ISA_AUTO);
            still.disp_x = still.disp_y = NULL;
            uint32_t want[50];
            (void)hs_grid_count_hits(w.g, &w.b.qs, &still, want);
            want[3] = want[9] = 0;
            assert_memory_equal(cnt, want, sizeof cnt);
        }
        hs_hits_free(&all);
    }
    free(zx);
    free(zy);
    ms_free(&w);
}

/* No query: HS_OK with NULL outputs, as the standing calls answer. */
static void test_no_query_null_outputs(void **state)
{
    (void)state;
    mscene w;
    ms_make(&w, 50, 4, 30.0f, 1.0f, 0.0, 5.0f);
    hs_queries none = w.b.qs;
    none.count = 0;
    const hs_closest_out nul = {.idx = NULL, .t = NULL};
    for (int moving = 0; moving <= 1; moving++) {
        hs_batch_opts o = ms_opts(&w, 1, HS_ISA_AUTO);
        if (!moving)
            o.disp_x = o.disp_y = NULL;
        assert_int_equal(hs_grid_closest(w.g, &none, &o, nul), HS_OK);
        assert_int_equal(hs_grid_any(w.g, &none, &o, NULL), HS_OK);
        assert_int_equal(hs_grid_count_hits(w.g, &none, &o, NULL), HS_OK);
        /* with queries, a NULL output is still refused */
        assert_int_equal(hs_grid_closest(w.g, &w.b.qs, &o, nul), HS_E_NULL);
        assert_int_equal(hs_grid_any(w.g, &w.b.qs, &o, NULL), HS_E_NULL);
        assert_int_equal(hs_grid_count_hits(w.g, &w.b.qs, &o, NULL), HS_E_NULL);
        assert_int_equal(hs_grid_all(w.g, &none, &o, NULL), HS_E_NULL);
    }
    ms_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_segments),
        cmocka_unit_test(test_zero_displacement),
        cmocka_unit_test(test_tunnelling),
        cmocka_unit_test(test_levels_and_threads),
        cmocka_unit_test(test_exact_semantics),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_unbounded_whatever_displacement),
        cmocka_unit_test(test_no_query_null_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
