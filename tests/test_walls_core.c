/* SPDX-License-Identifier: MIT */
/* The query-vs-wall pair test (src/wall_core.h): the exact sign of sums of float products,
 * degenerate configurations against exact integer arithmetic, adversarial cases, zero-length
 * walls against the circle test, and random walls at several scales against a long double
 * reference. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "accuracy_ref.h"
#include "core.h"
#include "hitscan/narrow.h"
#include "wall_core.h"
#include "walls_ref.h"

/* Tangency band of the random test: hit / miss must match the reference when the distance
 * differs from R by more than WALL_BAND times M (walls_ref.h's scale). */
#define WALL_BAND 0x1p-46
/* Entry t, for pairs the reference puts at least 2^-20 M inside: |t - t_ref| |d| within
 * WALL_T_TOL M (float rounding of t and of the inputs' differences, amplified at grazing). */
#define WALL_T_TOL 0x1p-22

static hs_kq kq_of(float ax, float ay, float dx, float dy, float tmin, float tmax, float q)
{
    hs_query qu = {{ax, ay}, {dx, dy}, tmin, tmax, q};
    assert_int_equal(hs_query_validate(qu), HS_OK);
    return hs_kq_make(qu, HS_SOLID, ~0u);
}

static int hits(hs_kq k, float px, float py, float bx, float by, float w, hs_wall_hit *o)
{
    hs_kwall wl = {px, py, bx, by, w};
    return hs_wall_hits(&k, &wl, o);
}

/* ---- the exact sign ---- */

static void test_terms_sign(void **state)
{
    (void)state;
    hs_terms s = {.n = 0};
    assert_int_equal(hs_terms_sign(&s), 0);
    /* (1 + 2^-23)^2 - 1 - 2^-22 - 2^-46 = 0 exactly, each piece exact, naive order loses it */
    float u = 1.0f + 0x1p-23f;
    hs_terms_2(&s, 0, u, u);
    hs_terms_2(&s, 1, 1.0f, 1.0f);
    hs_terms_2(&s, 1, 0x1p-22f, 1.0f);
    assert_int_equal(hs_terms_sign(&s), 1);
    hs_terms_2(&s, 1, 0x1p-23f, 0x1p-23f);
    assert_int_equal(hs_terms_sign(&s), 0);
    /* a three-product whose low part decides: u^3 - (hi of u^3) */
    hs_terms t = {.n = 0};
    float v = 1.0f + 0x1p-20f;
    hs_terms_3(&t, 0, v, v, v);
    double hi = (double)v * v * v;
    t.v[t.n++] = -hi;
    int expect = fma((double)v * v, v, -hi) > 0 ? 1 : (fma((double)v * v, v, -hi) < 0 ? -1 : 0);
    assert_int_equal(hs_terms_sign(&t), expect);
    /* huge cancelling terms around a tiny one */
    hs_terms h = {.n = 0};
    hs_terms_2(&h, 0, 1e18f, 1e18f);
    hs_terms_3(&h, 0, 0x1p-100f, 0x1p-100f, 0x1p-100f);
    hs_terms_2(&h, 1, 1e18f, 1e18f);
    assert_int_equal(hs_terms_sign(&h), 1);
}

/* hs_wall_g at the rounded root t of g, against 128-bit integers: inputs that are integers
 * times 2^-31 below 2^10, so every term is an integer times 2^-93 and the sum fits in 127 bits.
 * A naive double sum gets such signs wrong. */
#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 i128;

static float rand_float(acc_rng *g)
{
    float v = (float)acc_pow10(g, -2.3, 2.3);
    return acc_next(g) % 2 ? v : -v;
}

static i128 fx31(float v) { return (i128)(int64_t)ldexp(v, 31); }

/* v is an integer times 2^-31 with |v| < 2^10 */
static int ok31(float v)
{
    double s = ldexp(v, 31);
    return s == floor(s) && fabs(s) < 0x1p41;
}

static void test_g_sign_exact(void **state)
{
    (void)state;
    acc_rng g = {99};
    long n_zero = 0, n_checked = 0;
    for (int it = 0; it < 200000; it++) {
        float ax = rand_float(&g), ay = rand_float(&g), dx = rand_float(&g), dy = rand_float(&g);
        float px = rand_float(&g), py = rand_float(&g), bx = rand_float(&g), by = rand_float(&g);
        if (it % 11 == 0) { /* all on the line through 0 along p: g is 0 for every t */
            bx = px * 2.0f;
            by = py * 2.0f;
            ax = px * 0.5f;
            ay = py * 0.5f;
            dx = px * -4.0f;
            dy = py * -4.0f;
        }
        double ex = (double)bx - px, ey = (double)by - py;
        double num = -(ex * ((double)ay - py) - ey * ((double)ax - px)), den = ex * dy - ey * dx;
        float t = (float)(num / den);
        if (it % 7 == 0 || it % 11 == 0)
            t = (float)acc_uniform(&g, -3, 3); /* off the root, and the collinear cases */
        if (!(ok31(ax) && ok31(ay) && ok31(dx) && ok31(dy) && ok31(px) && ok31(py) && ok31(bx) &&
              ok31(by) && ok31(t)))
            continue;
        i128 Ax = fx31(ax), Ay = fx31(ay), Dx = fx31(dx), Dy = fx31(dy);
        i128 Px = fx31(px), Py = fx31(py), Bx = fx31(bx), By = fx31(by), T = fx31(t);
        i128 sc = (i128)1 << 31;
        i128 v = ((Bx - Px) * (Ay - Py) - (By - Py) * (Ax - Px)) * sc +
                 ((Bx - Px) * Dy - (By - Py) * Dx) * T;
        int want = (v > 0) - (v < 0);
        hs_kq k = kq_of(ax, ay, dx, dy, -INFINITY, INFINITY, 0.0f);
        hs_kwall wl = {px, py, bx, by, 0.0f};
        assert_int_equal(hs_wall_g(&k, &wl, t), want);
        n_zero += want == 0;
        n_checked++;
    }
    print_message("%ld signs checked, %ld exact zeros\n", n_checked, n_zero);
    assert_true(n_checked > 100000 && n_zero > 10000);
}
#else
static void test_g_sign_exact(void **state)
{
    (void)state;
    skip();
}
#endif

/* ---- degenerate configurations, decided exactly ---- */

/* thin segments with small integer coordinates, every sign exact in int64: touching,
 * collinear and parallel cases are frequent. Scaled by a power of two, the answer is the same. */
static int int_orient(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy)
{
    int64_t v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    return (v > 0) - (v < 0);
}

static int int_on(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy)
{ /* c on segment [a, b], given collinear */
    return (cx >= (ax < bx ? ax : bx)) && (cx <= (ax < bx ? bx : ax)) &&
           (cy >= (ay < by ? ay : by)) && (cy <= (ay < by ? by : ay));
}

static int int_seg_seg(const int64_t *u, const int64_t *v)
{
    int o1 = int_orient(u[0], u[1], u[2], u[3], v[0], v[1]);
    int o2 = int_orient(u[0], u[1], u[2], u[3], v[2], v[3]);
    int o3 = int_orient(v[0], v[1], v[2], v[3], u[0], u[1]);
    int o4 = int_orient(v[0], v[1], v[2], v[3], u[2], u[3]);
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return 1;
    return (o1 == 0 && int_on(u[0], u[1], u[2], u[3], v[0], v[1])) ||
           (o2 == 0 && int_on(u[0], u[1], u[2], u[3], v[2], v[3])) ||
           (o3 == 0 && int_on(v[0], v[1], v[2], v[3], u[0], u[1])) ||
           (o4 == 0 && int_on(v[0], v[1], v[2], v[3], u[2], u[3]));
}

static void test_integer_degenerate_exact(void **state)
{
    (void)state;
    acc_rng g = {12345};
    const int shifts[] = {-60, 0, 40};
    long n_hit = 0, n_total = 0;
    for (int si = 0; si < 3; si++) {
        float sc = ldexpf(1.0f, shifts[si]);
        for (int it = 0; it < 40000; it++) {
            int64_t u[4], v[4];
            for (int j = 0; j < 4; j++) {
                u[j] = (int64_t)(acc_next(&g) % 9) - 4;
                v[j] = (int64_t)(acc_next(&g) % 9) - 4;
            }
            /* the query as a + t d over [0, 1] (d = u1 - u0 is exact), or as the reversed
             * segment over [-1, 0] from u1, or over [0, 2] with half of d */
            int form = (int)(acc_next(&g) % 3);
            float ax = (float)u[0] * sc, ay = (float)u[1] * sc;
            float dx = (float)(u[2] - u[0]) * sc, dy = (float)(u[3] - u[1]) * sc;
            float tmin = 0.0f, tmax = 1.0f;
            if (form == 1) {
                ax = (float)u[2] * sc;
                ay = (float)u[3] * sc;
                tmin = -1.0f;
                tmax = 0.0f;
            } else if (form == 2) {
                dx *= 0.5f;
                dy *= 0.5f;
                tmax = 2.0f;
            }
            hs_kq k = kq_of(ax, ay, dx, dy, tmin, tmax, 0.0f);
            hs_wall_hit o;
            int got = hits(k, (float)v[0] * sc, (float)v[1] * sc, (float)v[2] * sc,
                           (float)v[3] * sc, 0.0f, &o);
            if (v[0] == v[2] && v[1] == v[3])
                continue; /* a point wall is a circle, decided as the circle test decides */
            int want = int_seg_seg(u, v);
            if (got != want)
                fail_msg("shift %d: query (%lld,%lld)-(%lld,%lld) wall (%lld,%lld)-(%lld,%lld) "
                         "form %d: got %d want %d",
                         shifts[si], (long long)u[0], (long long)u[1], (long long)u[2],
                         (long long)u[3], (long long)v[0], (long long)v[1], (long long)v[2],
                         (long long)v[3], form, got, want);
            n_hit += got;
            n_total++;
        }
    }
    assert_true(n_hit > n_total / 10 && n_hit < n_total * 9 / 10);
}

/* ---- adversarial cases with known answers ---- */

static void test_adversarial(void **state)
{
    (void)state;
    hs_wall_hit o;
    const float below1 = nextafterf(1.0f, 0.0f);
    for (int big = 0; big < 2; big++) {
        const float X = big ? 1048576.0f : 0.0f; /* the same cases translated to 2^20 */
        /* the query ends exactly on a wall's interior: a hit at t = 1; one ulp short misses */
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 1, 0), X + 1, -1, X + 1, 1, 0, &o), 1);
        assert_true(o.t == 1.0f && o.normal.x == -1.0f && o.normal.y == 0.0f);
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, below1, 0), X + 1, -1, X + 1, 1, 0, &o), 0);
        /* touching endpoints: the query's end on the wall's end, either end of the wall */
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 1, 0), X + 1, 0, X + 1, 1, 0, &o), 1);
        assert_true(o.t == 1.0f);
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 1, 0), X + 2, 1, X + 1, 0, 0, &o), 1);
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, below1, 0), X + 1, 0, X + 1, 1, 0, &o), 0);
        /* the wall's end on the query's start: inside at tmin */
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 1, 0), X, 0, X - 1, 5, 0, &o), 1);
        assert_true(o.t == 0.0f && (o.flags & HS_HIT_INSIDE));
        /* a diagonal query ending on a diagonal wall's midpoint, not axis-aligned */
        assert_int_equal(hits(kq_of(X + 1, 1, 3, 7, 0, 1, 0), X + 2, 9, X + 6, 7, 0, &o), 1);
        assert_true(o.t == 1.0f);
        assert_int_equal(hits(kq_of(X + 1, 1, 3, 7, 0, below1, 0), X + 2, 9, X + 6, 7, 0, &o), 0);
        /* collinear overlap, both wall orientations; from before, from inside, short of it */
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 3, 0), X + 2, 0, X + 5, 0, 0, &o), 1);
        assert_true(o.t == 2.0f && !(o.flags & HS_HIT_INSIDE));
        assert_true(o.normal.x == -1.0f && o.normal.y == 0.0f);
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 3, 0), X + 5, 0, X + 2, 0, 0, &o), 1);
        assert_true(o.t == 2.0f);
        assert_int_equal(hits(kq_of(X + 3, 0, 1, 0, 0, 3, 0), X + 5, 0, X + 2, 0, 0, &o), 1);
        assert_true(o.t == 0.0f && (o.flags & HS_HIT_INSIDE));
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 1.5f, 0), X + 2, 0, X + 5, 0, 0, &o), 0);
        assert_int_equal(hits(kq_of(X + 6, 0, 1, 0, 0, 3, 0), X + 2, 0, X + 5, 0, 0, &o), 0);
        /* collinear, the query's end on the wall's end */
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 2, 0), X + 2, 0, X + 5, 0, 0, &o), 1);
        assert_true(o.t == 2.0f);
        /* parallel, not collinear: a thin query misses a wall 2^-100 away; thickness 2^-100
         * (of the query or of the wall) touches it */
        const float e = 0x1p-100f;
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 3, 0), X + 1, e, X + 2, e, 0, &o), 0);
        if (!big) { /* at 2^20 the offset is below the coordinates' resolution: band */
            assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 3, e), X + 1, e, X + 2, e, 0, &o), 1);
            assert_true(o.t == 1.0f);
            assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 3, 0), X + 1, e, X + 2, e, e, &o), 1);
        }
        /* a thick query just reaching a wall's end cap, and one just short of it */
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, 1, 0.5f), X + 1.5f, 0, X + 1.5f, -4, 0, &o), 1);
        assert_true(o.t == 1.0f);
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, below1, 0.5f), X + 1.5f, 0, X + 1.5f, -4, 0, &o),
                         0);
        /* exact tangency of thick pairs (the distance equals R in the float inputs): a hit,
         * and one ulp further a miss; a wall's side, and an end cap on a 3-4-5 triangle */
        const float above = nextafterf(X + 2.5f, INFINITY) - X;
        assert_int_equal(hits(kq_of(X - 3, 2.5f, 1, 0, 0, 9, 1.5f), X, 0, X + 4, 0, 1, &o), 1);
        assert_true(o.t == 3.0f);
        assert_int_equal(hits(kq_of(X - 3, above, 1, 0, 0, 9, 1.5f), X, 0, X + 4, 0, 1, &o), 0);
        assert_int_equal(hits(kq_of(X + 5, 2.5f, -4, 3, 0, 1, 2), X - 3, -4, X, 0, 3, &o), 1);
        assert_true(o.t == 0.5f);
        assert_int_equal(
            hits(kq_of(X + 5, 2.5f, -4, 3, 0, 1, 2), X - 3, -4, X, 0, nextafterf(3, 0), &o), 0);
        /* lines and rays with infinite ends */
        assert_int_equal(
            hits(kq_of(X, 0, 1, 0, -INFINITY, INFINITY, 0), X - 7, -1, X - 8, 1, 0, &o), 1);
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, INFINITY, 0), X - 7, -1, X - 8, 1, 0, &o), 0);
        assert_int_equal(hits(kq_of(X, 0, 1, 0, -INFINITY, INFINITY, 0), X - 7, 1, X - 8, 1, 0, &o),
                         0);
        assert_int_equal(hits(kq_of(X, 0, 1, 0, -INFINITY, INFINITY, 0), X - 7, 0, X - 8, 0, 0, &o),
                         1); /* collinear line: the whole wall */
        assert_int_equal(hits(kq_of(X, 0, 1, 0, 0, INFINITY, 1), X + 9, 3, X + 10, 0.5f, 0, &o), 1);
        /* a point query on the wall, beside it, and within thickness of it */
        assert_int_equal(hits(kq_of(X + 1, 1, 0, 0, 0, 1, 0), X, 0, X + 2, 2, 0, &o), 1);
        assert_int_equal(hits(kq_of(X + 3, 3, 0, 0, 0, 1, 0), X, 0, X + 2, 2, 0, &o), 0);
        assert_int_equal(hits(kq_of(X + 1, 2, 0, 0, 0, 1, 0), X, 0, X + 2, 2, 0.75f, &o), 1);
        assert_int_equal(hits(kq_of(X + 1, 2, 0, 0, 0, 1, 0), X, 0, X + 2, 2, 0.7f, &o), 0);
    }
}

/* Exact tangency off the axes, on Pythagorean triples (the distance is exactly R in the
 * float inputs): a side grazed by a parallel query and an end cap by a tangent query hit, and
 * with R one ulp smaller miss, translated and scaled while the band (2^-46 M) stays below
 * R's ulp. */
/* A wall from a point of a line to a point 10^-26 beside it, whose slant b - p rounds away in
 * double: the line crosses it at its end p, t = 0 (the lines' formula, parallel in double,
 * gave -inf); and the same with b on the line. A third wall whose end lies at t = -1.25 is
 * then the first hit. */
static void test_crossing_at_an_end_of_a_rounded_slant(void **state)
{
    (void)state;
    hs_wall_hit o;
    const float tiny = 0x1.c028cp-87f;
    const hs_kq line = kq_of(-20.0f, -20.0f, -20.0f, -20.0f, -INFINITY, INFINITY, 0.0f);
    assert_int_equal(hits(line, -20.0f, -20.0f, tiny, 0.0f, 0.0f, &o), 1);
    assert_true(o.t == 0.0f);
    assert_int_equal(hits(line, tiny, 0.0f, -20.0f, -20.0f, 0.0f, &o), 1);
    assert_true(o.t == 0.0f);
    assert_int_equal(hits(line, 5.0f, 5.0f, -0x1.61616p-30f, -20.0f, 0.0f, &o), 1);
    assert_true(o.t == -1.25f);
}

static void test_tangency_triples(void **state)
{
    (void)state;
    const float tri[][3] = {{3, 4, 5}, {5, 12, 13}, {8, 15, 17}, {20, 21, 29}, {119, 120, 169}};
    const float shifts[] = {0.0f, 1024.0f, -65536.0f};
    const float scales[] = {0x1p-6f, 1.0f, 0x1p12f};
    hs_wall_hit o;
    for (int i = 0; i < 5; i++)
        for (int si = 0; si < 3; si++)
            for (int ci = 0; ci < 3; ci++) {
                const float u = tri[i][0] * scales[ci], v = tri[i][1] * scales[ci];
                const float R = tri[i][2] * scales[ci], X = shifts[si], Y = -0.5f * shifts[si];
                const float Rm = nextafterf(R, 0.0f), w = R * 0.25f;
                /* side: the wall from (X, Y) along (u, v); the query along it, offset by
                 * (-v, u) (length R), from behind the wall's start to past its middle */
                hs_kq k = kq_of(X - v - u, Y + u - v, u, v, 0, 1.5f, R - w);
                assert_int_equal(hits(k, X, Y, X + 2 * u, Y + 2 * v, w, &o), 1);
                assert_true(o.t == 1.0f);
                k = kq_of(X - v - u, Y + u - v, u, v, 0, 1.5f, Rm - w);
                assert_int_equal(hits(k, X, Y, X + 2 * u, Y + 2 * v, w, &o), 0);
                /* cap: tangent at (X, Y) + (u, v) to the disc about the wall's end (X, Y),
                 * the wall pointing away; the query along (-v, u) through the tangent point */
                k = kq_of(X + u + v, Y + v - u, -v, u, 0, 2, R - w);
                assert_int_equal(hits(k, X, Y, X - u, Y - v, w, &o), 1);
                assert_true(o.t == 1.0f);
                k = kq_of(X + u + v, Y + v - u, -v, u, 0, 2, Rm - w);
                assert_int_equal(hits(k, X, Y, X - u, Y - v, w, &o), 0);
            }
}

static int hits_sem(float ax, float ay, float dx, float dy, float tmax, float q, hs_semantics sem,
                    hs_wall_hit *o)
{
    hs_query qu = {{ax, ay}, {dx, dy}, 0.0f, tmax, q};
    hs_kq k = hs_kq_make(qu, sem, ~0u);
    hs_kwall wl = {0, 0, 4, 0, 1}; /* the capsule about y = 0, 0 <= x <= 4, radius 1 + q */
    return hs_wall_hits(&k, &wl, o);
}

/* boundary and skip-start on a thick wall and a thin one */
static void test_semantics(void **state)
{
    (void)state;
    hs_wall_hit o;
    /* wholly inside: solid hits at 0, inside; boundary misses */
    assert_int_equal(hits_sem(2, 0.5f, 1, 0, 1, 0, HS_SOLID, &o), 1);
    assert_true(o.t == 0.0f && o.t_exit == 1.0f && (o.flags & HS_HIT_INSIDE));
    assert_int_equal(hits_sem(2, 0.5f, 1, 0, 1, 0, HS_BOUNDARY, &o), 0);
    /* from inside out through the side: boundary reports the exit, at y = 1 */
    assert_int_equal(hits_sem(2, 0.5f, 0, 1, 2, 0, HS_BOUNDARY, &o), 1);
    assert_true(o.t == 0.5f && o.t_exit == 0.5f && (o.flags & HS_HIT_INSIDE));
    assert_true(o.normal.x == 0.0f && o.normal.y == 1.0f);
    /* through the end cap from outside: entry and exit on the disc about (4, 0) */
    assert_int_equal(hits_sem(4, 3, 0, -1, 9, 0, HS_BOUNDARY, &o), 1);
    assert_true(o.t == 2.0f && o.t_exit == 4.0f && !(o.flags & HS_HIT_INSIDE));
    assert_true(o.normal.x == 0.0f && o.normal.y == 1.0f);
    /* skip-start: on the rim heading out is ignored, heading in is not */
    assert_int_equal(hits_sem(2, 1, 0, 1, 5, 0, HS_SOLID_SKIP_START, &o), 0);
    assert_int_equal(hits_sem(2, 1, 0, 1, 5, 0, HS_SOLID, &o), 1);
    assert_int_equal(hits_sem(2, 1, 0, -1, 5, 0, HS_SOLID_SKIP_START, &o), 1);
    assert_true(o.t == 0.0f && o.t_exit == 2.0f && (o.flags & HS_HIT_INSIDE));
    assert_int_equal(hits_sem(2, 1, 0, -1, 5, 0, HS_BOUNDARY_SKIP_START, &o), 1);
    assert_true(o.t == 0.0f); /* on the rim, not strictly inside: the entry */
    /* a thin wall: a ray from its surface is ignored whichever way it heads */
    hs_query qu = {{2, 0}, {0, 1}, 0.0f, 5, 0};
    hs_kwall thin = {0, 0, 4, 0, 0};
    for (int s = 0; s < 2; s++) {
        qu.d.y = s ? -1.0f : 1.0f;
        hs_kq k = hs_kq_make(qu, HS_SOLID, ~0u);
        assert_int_equal(hs_wall_hits(&k, &thin, &o), 1);
        assert_true(o.t == 0.0f && (o.flags & HS_HIT_INSIDE));
        k = hs_kq_make(qu, HS_BOUNDARY, ~0u);
        assert_int_equal(hs_wall_hits(&k, &thin, &o), 1);
        k = hs_kq_make(qu, HS_SOLID_SKIP_START, ~0u);
        assert_int_equal(hs_wall_hits(&k, &thin, &o), 0);
    }
}

/* a zero-length wall is the circle (p, w): the same decision, t and normal */
static void test_zero_length_is_circle(void **state)
{
    (void)state;
    acc_rng g = {777};
    long agree_hits = 0;
    for (int it = 0; it < 20000; it++) {
        hs_query q;
        hs_circle c;
        acc_gen(&g, (acc_dist)(it % ACC_NDIST), &q, &c);
        if (hs_query_validate(q) != HS_OK || hs_circle_validate(c) != HS_OK)
            continue;
        hs_semantics sem = (hs_semantics)(it % 4);
        hs_kq k = hs_kq_make(q, sem, ~0u);
        hs_hit h;
        int want = hs_intersect_circle(q, c, sem, &h);
        hs_wall_hit o;
        int got = hits(k, c.x, c.y, c.x, c.y, c.r, &o);
        assert_int_equal(got, want);
        if (got) {
            assert_true(o.t == h.t && o.t_exit == h.t_exit && o.flags == h.flags);
            assert_true(o.normal.x == h.normal.x && o.normal.y == h.normal.y);
            agree_hits++;
        }
    }
    assert_true(agree_hits > 1000);
}

/* ---- random walls and queries against the long double reference ---- */

static void random_scale(double S, uint64_t seed)
{
    acc_rng g = {seed};
    long n_hit = 0, n_band = 0, n_t = 0;
    double worst_t = 0.0;
    for (int it = 0; it < 60000; it++) {
        float px = (float)acc_uniform(&g, -S, S), py = (float)acc_uniform(&g, -S, S);
        double ang = acc_uniform(&g, 0, 6.283185307179586), len = S * acc_uniform(&g, 0.01, 1);
        float bx = (float)(px + len * cos(ang)), by = (float)(py + len * sin(ang));
        float w = acc_next(&g) % 3 == 0 ? 0.0f : (float)(S * acc_pow10(&g, -4, -1));
        float ax = (float)acc_uniform(&g, -S, S), ay = (float)acc_uniform(&g, -S, S);
        /* aim at a point near the wall half of the time, so hits and grazes are common */
        double tx = acc_uniform(&g, -S, S), ty = acc_uniform(&g, -S, S);
        if (acc_next(&g) % 2) {
            double s = acc_uniform(&g, -0.2, 1.2);
            tx = px + s * (bx - px) + S * acc_uniform(&g, -0.05, 0.05);
            ty = py + s * (by - py) + S * acc_uniform(&g, -0.05, 0.05);
        }
        double sh = acc_uniform(&g, 0.3, 1.5);
        float dx = (float)((tx - ax) * sh), dy = (float)((ty - ay) * sh);
        float qq = acc_next(&g) % 2 ? 0.0f : (float)(S * acc_pow10(&g, -4, -1));
        int mode = (int)(acc_next(&g) % 4);
        double R = (double)qq + w;
        if (mode >= 2 && R > 0.0) { /* grazing: pass at R (1 + delta) from an end or a side */
            double delta = (acc_next(&g) % 2 ? 1 : -1) * acc_pow10(&g, -12, -2);
            double ux, uy, cx = acc_next(&g) % 2 ? px : bx, cy = cx == px ? py : by;
            if (mode == 2) {
                double a2 = acc_uniform(&g, 0, 6.283185307179586);
                ux = cos(a2);
                uy = sin(a2);
            } else { /* along the wall's side */
                ux = bx - px;
                uy = by - py;
                double l = hypot(ux, uy);
                ux /= l;
                uy /= l;
                double s = acc_uniform(&g, 0.1, 0.9);
                cx = px + s * (bx - px);
                cy = py + s * (by - py);
            }
            double off = R * (1 + delta), L = S * acc_uniform(&g, 0.1, 2);
            ax = (float)(cx - uy * off - ux * L * 0.5);
            ay = (float)(cy + ux * off - uy * L * 0.5);
            dx = (float)(ux * L);
            dy = (float)(uy * L);
        }
        hs_query q = {{ax, ay}, {dx, dy}, 0.0f, 1.0f, qq};
        if (hs_query_validate(q) != HS_OK || (dx == 0.0f && dy == 0.0f))
            continue;
        hs_kq k = hs_kq_make(q, HS_SOLID, ~0u);
        hs_wall_hit o;
        int got = hits(k, px, py, bx, by, w, &o);
        wr_result r = wr_query_wall(q, px, py, bx, by, w);
        /* thin pairs: the reference's distance is 0 exactly for crossing centre lines */
        int thin = (double)qq + w == 0.0;
        if (!(thin && r.margin == 0) && fabsl(r.margin) <= WALL_BAND * r.scale) {
            n_band++;
            continue;
        }
        int want = thin ? r.margin == 0 : r.margin < 0;
        if (got != want)
            fail_msg("scale %g it %d: got %d want %d (margin %Lg, M %Lg)", S, it, got, want,
                     r.margin, r.scale);
        /* boundary: a miss when both ends are strictly inside, else the exit from inside */
        const long double band = WALL_BAND * r.scale;
        if (!thin && fabsl(r.m0) > band && fabsl(r.m1) > band) {
            hs_kq kb = hs_kq_make(q, HS_BOUNDARY, ~0u);
            hs_wall_hit ob;
            int gb = hits(kb, px, py, bx, by, w, &ob);
            assert_int_equal(gb, want && !(r.m0 < 0 && r.m1 < 0));
            if (gb && r.m0 < 0)
                assert_true(ob.t == o.t_exit);
            else if (gb)
                assert_true(ob.t == o.t);
        }
        n_hit += got;
        if (got && r.margin < -0x1p-20 * r.scale) {
            double dl = sqrt((double)dx * dx + (double)dy * dy);
            double err = fabs((double)o.t - (double)r.t) * dl / (double)r.scale;
            worst_t = err > worst_t ? err : worst_t;
            if (err > WALL_T_TOL)
                fail_msg("scale %g it %d: t %.9g ref %.12Lg (err %g M)", S, it, o.t, r.t, err);
            err = fabs((double)o.t_exit - (double)r.t_exit) * dl / (double)r.scale;
            if (err > WALL_T_TOL)
                fail_msg("scale %g it %d: t_exit %.9g ref %.12Lg (err %g M)", S, it, o.t_exit,
                         r.t_exit, err);
            n_t++;
            /* unit normal */
            double nl = hypot(o.normal.x, o.normal.y);
            assert_true(fabs(nl - 1.0) < 1e-5);
        }
    }
    print_message("scale %g: %ld hits, %ld in the band, %ld t checked, worst t err %g M\n", S,
                  n_hit, n_band, n_t, worst_t);
    assert_true(n_hit > 5000);
}

static void test_random_scale_1(void **state)
{
    (void)state;
    random_scale(1.0, 1);
}

static void test_random_scale_1e3(void **state)
{
    (void)state;
    random_scale(1e3, 2);
}

static void test_random_scale_1e6(void **state)
{
    (void)state;
    random_scale(1e6, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terms_sign),
        cmocka_unit_test(test_g_sign_exact),
        cmocka_unit_test(test_integer_degenerate_exact),
        cmocka_unit_test(test_adversarial),
        cmocka_unit_test(test_crossing_at_an_end_of_a_rounded_slant),
        cmocka_unit_test(test_tangency_triples),
        cmocka_unit_test(test_semantics),
        cmocka_unit_test(test_zero_length_is_circle),
        cmocka_unit_test(test_random_scale_1),
        cmocka_unit_test(test_random_scale_1e3),
        cmocka_unit_test(test_random_scale_1e6),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
