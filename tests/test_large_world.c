/* SPDX-License-Identifier: MIT */
/* Large worlds: at 1e7 from the origin, float world coordinates put the hit point about half a
 * unit off; relative to an origin near the scene (hitscan/origin.h) it is within a few float
 * ulps of the local scale. Plus the origin API's validation and its batch path. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "far_ref.h"
#include "test_util.h"

static double ulp_at(double v) { return (double)nextafterf((float)fabs(v), INFINITY) - fabs(v); }

static void test_far_precision(void **state)
{
    (void)state;
    const double D = 1e7;
    rng_state = 19;
    double worst_plain = 0, worst_local_ulps = 0, worst_t_ulps = 0;
    size_t n = 0;
    for (int i = 0; i < 4000; i++) {
        far_case k = far_case_make(D, urand(), urand(), urand(), urand());
        const hs_dvec2 o = {floor(k.cx / 1024.0) * 1024.0, floor(k.cy / 1024.0) * 1024.0};
        far_err a = far_answer_plain(&k), b = far_answer_origin(&k, o);
        assert_true(b.hit); /* aimed well inside: no tangency band at the local scale */
        /* the local scale: the largest local coordinate the float work sees */
        double scale = fmax(fmax(fabs(k.ax - o.x), fabs(k.ay - o.y)),
                            fmax(fabs(k.bx - o.x), fabs(k.by - o.y)));
        scale = fmax(scale, fmax(fabs(k.cx - o.x), fabs(k.cy - o.y)) + k.r);
        const double ulps = b.point / ulp_at(scale), tulps = b.tdist / ulp_at(scale);
        worst_local_ulps = fmax(worst_local_ulps, ulps);
        worst_t_ulps = fmax(worst_t_ulps, tulps);
        if (a.hit) {
            worst_plain = fmax(worst_plain, a.point);
            n++;
        }
    }
    printf("  at 1e7: float world coordinates, worst hit point error %.3g (%zu hits); with an "
           "origin offset %.2f ulps of the local scale (t x |d|: %.2f ulps)\n",
           worst_plain, n, worst_local_ulps, worst_t_ulps);
    assert_true(worst_local_ulps <= 4.0);
    assert_true(worst_t_ulps <= 4.0);
    assert_true(worst_plain >= 0.25); /* float's ulp at 1e7 is 1: the offset is what helps */
    assert_true(n > 3000);
}

/* The batch path: a circle set built at an origin and rebased segments through the grid give
 * the scalar call's answers. */
static void test_batch_at_origin(void **state)
{
    (void)state;
    enum { N = 64, M = 256 };
    double cx[N], cy[N], ax[M], ay[M], bx[M], by[M];
    float r[N], lax[M], lay[M], ldx[M], ldy[M], lcx[N], lcy[N];
    const hs_dvec2 o = {7071067.0, 7071067.0};
    rng_state = 23;
    for (int i = 0; i < N; i++) {
        cx[i] = o.x + 500.0 * urand();
        cy[i] = o.y + 500.0 * urand();
        r[i] = unif(1.0f, 10.0f);
    }
    for (int i = 0; i < M; i++) {
        ax[i] = o.x + 500.0 * urand();
        ay[i] = o.y + 500.0 * urand();
        bx[i] = ax[i] + 200.0 * (urand() - 0.5);
        by[i] = ay[i] + 200.0 * (urand() - 0.5);
    }
    hs_circles *cs;
    assert_int_equal(hs_circles_create_at(cx, cy, r, NULL, N, o, &cs, NULL), HS_OK);
    assert_int_equal(hs_rebase_points(cx, cy, N, o, lcx, lcy, NULL), HS_OK);
    assert_int_equal(hs_rebase_segments(ax, ay, bx, by, M, o, lax, lay, ldx, ldy, NULL), HS_OK);
    hs_grid *g;
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    hs_queries qs = hs_queries_segments(lax, lay, ldx, ldy, M);
    uint32_t idx[M];
    float t[M], px[M], py[M];
    hs_closest_out co = {idx, t, px, py, NULL, NULL, NULL};
    hs_batch_opts bo = hs_batch_opts_default();
    bo.isa = HS_ISA_SCALAR; /* bit for bit with the scalar call */
    assert_int_equal(hs_grid_closest(g, &qs, &bo, co), HS_OK);
    size_t hits = 0;
    for (int i = 0; i < M; i++) {
        float bt = INFINITY;
        uint32_t bi = HS_NONE;
        for (int c = 0; c < N; c++) {
            hs_hit h;
            hs_query q = {{lax[i], lay[i]}, {ldx[i], ldy[i]}, 0.0f, 1.0f, 0.0f};
            if (hs_intersect_circle(q, (hs_circle){lcx[c], lcy[c], r[c]}, HS_SOLID, &h) == 1 &&
                h.t < bt)
                bt = h.t, bi = (uint32_t)c;
        }
        assert_int_equal(idx[i], bi);
        if (bi != HS_NONE) {
            assert_true(t[i] == bt);
            hs_dvec2 w = hs_point_to_world((hs_vec2){px[i], py[i]}, o);
            assert_true(fabs(w.x - (o.x + px[i])) == 0.0);
            hits++;
        }
    }
    assert_true(hits > M / 8);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

static void test_validation(void **state)
{
    (void)state;
    const hs_dvec2 o = {1e7, -1e7};
    double x[3] = {1e7, 1e7 + 1.5, NAN}, y[3] = {-1e7, -1e7 + 0.25, 0.0};
    float fx[3], fy[3];
    size_t bad = 99;
    assert_int_equal(hs_rebase_points(x, y, 2, o, fx, fy, &bad), HS_OK);
    assert_true(fx[0] == 0.0f && fy[0] == 0.0f && fx[1] == 1.5f && fy[1] == 0.25f);
    assert_int_equal(hs_rebase_points(x, y, 3, o, fx, fy, &bad), HS_E_NONFINITE);
    assert_int_equal(bad, 2);
    assert_int_equal(hs_rebase_points(NULL, y, 1, o, fx, fy, NULL), HS_E_NULL);
    assert_int_equal(hs_rebase_points(NULL, NULL, 0, o, NULL, NULL, NULL), HS_OK);
    assert_int_equal(hs_rebase_points(x, y, 1, (hs_dvec2){INFINITY, 0}, fx, fy, NULL),
                     HS_E_NONFINITE);
    double huge[1] = {1e19};
    assert_int_equal(hs_rebase_points(huge, y, 1, (hs_dvec2){0, -1e7}, fx, fy, &bad), HS_E_RANGE);
    assert_int_equal(bad, 0);
    double bx[1] = {1e7}, by[1] = {-1e7}; /* zero length: a point query, accepted */
    float dx[1], dy[1];
    assert_int_equal(hs_rebase_segments(x, y, bx, by, 1, o, fx, fy, dx, dy, NULL), HS_OK);
    assert_true(dx[0] == 0.0f && dy[0] == 0.0f);
    double tiny[1] = {1e7 + 1e-30};
    assert_int_equal(hs_rebase_segments(x, y, tiny, by, 1, o, fx, fy, dx, dy, NULL), HS_OK);
    double bigb[1] = {1e30};
    assert_int_equal(hs_rebase_segments(x, y, bigb, by, 1, o, fx, fy, dx, dy, &bad), HS_E_RANGE);
    assert_int_equal(hs_rebase_segments(x, y, NULL, by, 1, o, fx, fy, dx, dy, NULL), HS_E_NULL);
    hs_circles *cs = (hs_circles *)&bad;
    float r[3] = {1.0f, -1.0f, 1.0f};
    assert_int_equal(hs_circles_create_at(x, y, r, NULL, 2, o, &cs, &bad), HS_E_NEG_RADIUS);
    assert_null(cs);
    assert_int_equal(bad, 1);
    assert_int_equal(hs_circles_create_at(x, y, r, NULL, 1, o, NULL, NULL), HS_E_NULL);
    hs_dvec2 w = hs_point_to_world((hs_vec2){0.5f, -0.25f}, o);
    assert_true(w.x == 1e7 + 0.5 && w.y == -1e7 - 0.25);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_precision),
        cmocka_unit_test(test_batch_at_origin),
        cmocka_unit_test(test_validation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
