/* SPDX-License-Identifier: MIT */
/* cmocka tests of the small predicates in geom.h, including the common pitfalls: a fixed
 * tolerance, parallel lines, a segment wholly inside a rectangle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>

#include "hitscan/geom.h"

static hs_vec2 v2(float x, float y)
{
    hs_vec2 v = {x, y};
    return v;
}

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.9g, want %.9g (tol %.3g)", what, got, want, tol);
}

/* ---- point in circle ---- */

static void point_in_circle_closed_disc(void **state)
{
    (void)state;
    hs_circle c = {1.0f, 2.0f, 3.0f};
    assert_int_equal(hs_point_in_circle(v2(1.0f, 2.0f), c), 1);
    assert_int_equal(hs_point_in_circle(v2(4.0f, 2.0f), c), 1); /* on the rim counts */
    assert_int_equal(hs_point_in_circle(v2(1.0f, -1.0f), c), 1);
    assert_int_equal(hs_point_in_circle(v2(nextafterf(4.0f, 5.0f), 2.0f), c), 0);
    assert_int_equal(hs_point_in_circle(v2(3.2f, 4.2f), c), 0); /* 2.2*sqrt2 = 3.11 > 3 */
}

static void point_in_circle_zero_radius(void **state)
{
    (void)state;
    hs_circle c = {5.0f, -5.0f, 0.0f};
    assert_int_equal(hs_point_in_circle(v2(5.0f, -5.0f), c), 1);
    assert_int_equal(hs_point_in_circle(v2(5.0f, nextafterf(-5.0f, 0.0f)), c), 0);
}

static void point_in_circle_huge_coordinates_tiny_radius(void **state)
{
    (void)state;
    /* 1e6 coordinates, 1e-3 radius: the float grid there is 0.0625, so only the centre itself
     * is inside; a neighbour one ulp away is 62 radii out. */
    hs_circle c = {1.0e6f, -1.0e6f, 1.0e-3f};
    assert_int_equal(hs_point_in_circle(v2(1.0e6f, -1.0e6f), c), 1);
    assert_int_equal(hs_point_in_circle(v2(nextafterf(1.0e6f, 2e6f), -1.0e6f), c), 0);
    /* r^2 would overflow in float here; the answer must still be right */
    hs_circle big = {0.0f, 0.0f, 1.0e20f};
    assert_int_equal(hs_point_in_circle(v2(9.0e19f, 0.0f), big), 1);
    assert_int_equal(hs_point_in_circle(v2(9.0e19f, 9.0e19f), big), 0);
}

static void point_in_circle_invalid(void **state)
{
    (void)state;
    hs_circle c = {0.0f, 0.0f, 1.0f};
    assert_int_equal(hs_point_in_circle(v2(NAN, 0.0f), c), HS_E_NONFINITE);
    assert_int_equal(hs_point_in_circle(v2(0.0f, INFINITY), c), HS_E_NONFINITE);
    c.r = NAN;
    assert_int_equal(hs_point_in_circle(v2(0.0f, 0.0f), c), HS_E_NONFINITE);
    c.r = -1.0f;
    assert_int_equal(hs_point_in_circle(v2(0.0f, 0.0f), c), HS_E_NEG_RADIUS);
    c.r = 1.0f;
    c.x = -INFINITY;
    assert_int_equal(hs_point_in_circle(v2(0.0f, 0.0f), c), HS_E_NONFINITE);
}

/* ---- point on segment (scale-aware tolerance, not a fixed 0.1 buffer) ---- */

static void point_on_segment_basic(void **state)
{
    (void)state;
    float tol = HS_DEFAULT_REL_TOL;
    assert_int_equal(hs_point_on_segment(v2(1.0f, 1.0f), v2(0.0f, 0.0f), v2(2.0f, 2.0f), tol), 1);
    assert_int_equal(hs_point_on_segment(v2(0.0f, 0.0f), v2(0.0f, 0.0f), v2(2.0f, 2.0f), tol), 1);
    assert_int_equal(hs_point_on_segment(v2(2.0f, 2.0f), v2(0.0f, 0.0f), v2(2.0f, 2.0f), tol), 1);
    /* on the line but beyond either end: not on the segment */
    assert_int_equal(hs_point_on_segment(v2(3.0f, 3.0f), v2(0.0f, 0.0f), v2(2.0f, 2.0f), tol), 0);
    assert_int_equal(hs_point_on_segment(v2(-0.01f, -0.01f), v2(0.0f, 0.0f), v2(2.0f, 2.0f), tol),
                     0);
    /* a fixed 0.1 buffer would accept this point 0.05 off the segment; we do not */
    assert_int_equal(hs_point_on_segment(v2(1.0f, 1.05f), v2(0.0f, 1.0f), v2(2.0f, 1.0f), tol), 0);
    /* a point the float rounding put just off the segment is accepted */
    float y = 0.1f * 3.0f; /* not exactly 0.3f */
    assert_int_equal(hs_point_on_segment(v2(3.0f, y), v2(0.0f, 0.0f), v2(10.0f, 1.0f), tol), 1);
}

static void check_scaled(float s)
{
    float tol = HS_DEFAULT_REL_TOL;
    hs_vec2 a = v2(-1.0f * s, 2.0f * s), b = v2(3.0f * s, -2.0f * s); /* x + y = s */
    hs_vec2 mid = v2(1.0f * s, 0.0f * s);
    hs_vec2 q1 = v2(0.25f * s, 0.75f * s);
    /* one part in a thousand of the scene off the segment: clearly off at every scale */
    hs_vec2 off = v2(1.0f * s, 1.0e-3f * s);
    hs_vec2 beyond = v2(3.0f * s + 1.0e-3f * s, -2.0f * s - 1.0e-3f * s);
    if (hs_point_on_segment(mid, a, b, tol) != 1 || hs_point_on_segment(q1, a, b, tol) != 1)
        fail_msg("scale %g: a point on the segment was rejected", (double)s);
    if (hs_point_on_segment(off, a, b, tol) != 0 || hs_point_on_segment(beyond, a, b, tol) != 0)
        fail_msg("scale %g: a point off the segment was accepted", (double)s);
}

static void point_on_segment_scale_aware(void **state)
{
    (void)state;
    /* The same scene at 1e-6, 1, 1e6 (and beyond) gives the same answers: a fixed buffer like
     * a fixed 0.1 accepts everything at 1e-6 and nothing off-grid at 1e6. */
    const float scales[] = {1e-6f, 1e-3f, 1.0f, 1e3f, 1e6f, 1e12f, 1e-12f};
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++)
        check_scaled(scales[i]);
    /* at 1e-6 scale a 0.1 buffer is 1e5 times the scene; ours rejects a point one tenth of
     * the scene away */
    assert_int_equal(hs_point_on_segment(v2(0.5e-6f, 0.1e-6f), v2(0.0f, 0.0f), v2(1e-6f, 0.0f),
                                         HS_DEFAULT_REL_TOL),
                     0);
    /* at 1e6 the float grid is 0.0625 wide: a point one grid step off a diagonal is within a
     * few ulps of the scene and accepted, one 1000 steps off is not */
    assert_int_equal(hs_point_on_segment(v2(1.5e6f, 1.5e6f + 0.125f), v2(1e6f, 1e6f),
                                         v2(2e6f, 2e6f), HS_DEFAULT_REL_TOL),
                     1);
    assert_int_equal(hs_point_on_segment(v2(1.5e6f, 1.5e6f + 125.0f), v2(1e6f, 1e6f),
                                         v2(2e6f, 2e6f), HS_DEFAULT_REL_TOL),
                     0);
}

static void point_on_segment_tolerance_and_degenerate(void **state)
{
    (void)state;
    /* rel_tol 0: exact test, done in double so a truly collinear float point is on it */
    assert_int_equal(hs_point_on_segment(v2(1.0f, 1.0f), v2(0.0f, 0.0f), v2(4.0f, 4.0f), 0.0f), 1);
    assert_int_equal(
        hs_point_on_segment(v2(1.0f, nextafterf(1.0f, 2.0f)), v2(0.0f, 0.0f), v2(4.0f, 4.0f), 0.0f),
        0);
    /* explicit tolerance: distance 0.5 from a scene of scale 10 */
    assert_int_equal(hs_point_on_segment(v2(5.0f, 0.5f), v2(0.0f, 0.0f), v2(10.0f, 0.0f), 0.05f),
                     1);
    assert_int_equal(hs_point_on_segment(v2(5.0f, 0.5f), v2(0.0f, 0.0f), v2(10.0f, 0.0f), 0.049f),
                     0);
    /* a == b: a point */
    assert_int_equal(hs_point_on_segment(v2(2.0f, 3.0f), v2(2.0f, 3.0f), v2(2.0f, 3.0f), 0.0f), 1);
    assert_int_equal(
        hs_point_on_segment(v2(2.0f, 3.5f), v2(2.0f, 3.0f), v2(2.0f, 3.0f), HS_DEFAULT_REL_TOL), 0);
    /* everything at the origin: scale floors at 1e-30, no 0 * inf */
    assert_int_equal(
        hs_point_on_segment(v2(0.0f, 0.0f), v2(0.0f, 0.0f), v2(0.0f, 0.0f), HS_DEFAULT_REL_TOL), 1);
}

static void point_on_segment_invalid(void **state)
{
    (void)state;
    assert_int_equal(hs_point_on_segment(v2(0, 0), v2(0, 0), v2(1, 0), -1e-6f), HS_E_RANGE);
    assert_int_equal(hs_point_on_segment(v2(0, 0), v2(0, 0), v2(1, 0), NAN), HS_E_NONFINITE);
    assert_int_equal(hs_point_on_segment(v2(0, 0), v2(0, 0), v2(1, 0), INFINITY), HS_E_NONFINITE);
    assert_int_equal(hs_point_on_segment(v2(NAN, 0), v2(0, 0), v2(1, 0), 0.0f), HS_E_NONFINITE);
    assert_int_equal(hs_point_on_segment(v2(0, 0), v2(0, INFINITY), v2(1, 0), 0.0f),
                     HS_E_NONFINITE);
    assert_int_equal(hs_point_on_segment(v2(0, 0), v2(0, 0), v2(-INFINITY, 0), 0.0f),
                     HS_E_NONFINITE);
}

/* ---- segment vs segment (parallel segments must not divide by zero) ---- */

static void segseg_crossing(void **state)
{
    (void)state;
    hs_segseg o;
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(4, 4), v2(0, 4), v2(4, 0), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_POINT);
    near(o.t0, 0.5, 1e-7, "t0");
    near(o.u0, 0.5, 1e-7, "u0");
    near(o.point.x, 2.0, 1e-6, "x");
    near(o.point.y, 2.0, 1e-6, "y");
    assert_true(o.t1 == o.t0 && o.u1 == o.u0);

    /* off-centre crossing: a at t = 0.25, b at u = 0.75 */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(8, 0), v2(2, -3), v2(2, 1), &o), 1);
    near(o.t0, 0.25, 1e-7, "t0");
    near(o.u0, 0.75, 1e-7, "u0");
    near(o.point.x, 2.0, 1e-6, "x");
    near(o.point.y, 0.0, 1e-6, "y");

    /* NULL out is allowed */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(4, 4), v2(0, 4), v2(4, 0), NULL), 1);
}

static void segseg_disjoint_and_touching(void **state)
{
    (void)state;
    hs_segseg o;
    /* lines cross but the segments stop short */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(1, 1), v2(0, 4), v2(1.9f, 2.1f), &o), 0);
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(4, 0), v2(5, -1), v2(5, 1), &o), 0);
    /* T junction: b's end exactly on a */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(4, 0), v2(1, 0), v2(1, 3), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_POINT);
    near(o.t0, 0.25, 0.0, "t0");
    near(o.u0, 0.0, 0.0, "u0");
    /* sharing an end point, not parallel */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(2, 0), v2(2, 0), v2(3, 5), &o), 1);
    near(o.t0, 1.0, 0.0, "t0");
    near(o.u0, 0.0, 0.0, "u0");
    /* an exact decision: b's end a hair above a's line does not touch */
    assert_int_equal(
        hs_segment_segment(v2(0, 0), v2(4, 0), v2(1, nextafterf(0.0f, 1.0f)), v2(1, 3), &o), 0);
}

static void parallel_lines(void **state)
{
    (void)state;
    hs_segseg o = {HS_SEGSEG_OVERLAP, -1, -1, -1, -1, {-1, -1}};
    /* parallel, distinct: the seed's denominator is 0 and it returns NaN comparisons */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(4, 2), v2(0, 1), v2(4, 3), &o), 0);
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(4, 0), v2(0, 1e-30f), v2(4, 1e-30f), &o), 0);
    /* parallel at huge coordinates, one float step (at 2e6) apart */
    assert_int_equal(hs_segment_segment(v2(1e6f, 1e6f), v2(2e6f, 2e6f), v2(1e6f, 1e6f + 0.125f),
                                        v2(2e6f, 2e6f + 0.125f), &o),
                     0);
    /* collinear but disjoint */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(1, 1), v2(2, 2), v2(3, 3), &o), 0);
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(1, 0), v2(-3, 0), v2(-0.5f, 0), &o), 0);
}

static void collinear_overlap(void **state)
{
    (void)state;
    hs_segseg o;
    /* b = [2, 6] on a = [0, 8] along the diagonal */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(8, 8), v2(2, 2), v2(6, 6), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_OVERLAP);
    near(o.t0, 0.25, 1e-7, "t0");
    near(o.t1, 0.75, 1e-7, "t1");
    near(o.u0, 0.0, 1e-7, "u0");
    near(o.u1, 1.0, 1e-7, "u1");
    near(o.point.x, 2.0, 1e-6, "x");

    /* partial overlap with b reversed: common part a(0.5)..a(1) = b(1)..b(0.5) */
    assert_int_equal(hs_segment_segment(v2(0, 1), v2(4, 1), v2(6, 1), v2(2, 1), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_OVERLAP);
    near(o.t0, 0.5, 1e-7, "t0");
    near(o.t1, 1.0, 1e-7, "t1");
    near(o.u0, 1.0, 1e-7, "u0");
    near(o.u1, 0.5, 1e-7, "u1");
    assert_true(o.t0 <= o.t1);

    /* collinear, touching at one end only: a point, not an overlap */
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(2, 0), v2(2, 0), v2(5, 0), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_POINT);
    near(o.t0, 1.0, 0.0, "t0");
    near(o.u0, 0.0, 0.0, "u0");

    /* identical segments, and a inside b */
    assert_int_equal(hs_segment_segment(v2(1, 2), v2(3, 7), v2(1, 2), v2(3, 7), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_OVERLAP);
    near(o.t0, 0.0, 0.0, "t0");
    near(o.t1, 1.0, 0.0, "t1");
    assert_int_equal(hs_segment_segment(v2(1, 1), v2(2, 2), v2(0, 0), v2(4, 4), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_OVERLAP);
    near(o.t0, 0.0, 0.0, "t0");
    near(o.t1, 1.0, 0.0, "t1");
    near(o.u0, 0.25, 1e-7, "u0");
    near(o.u1, 0.5, 1e-7, "u1");

    /* collinear at 1e6 with tiny overlap, exactly on the float grid */
    assert_int_equal(hs_segment_segment(v2(1e6f, 5.0f), v2(1e6f + 1.0f, 5.0f),
                                        v2(1e6f + 0.5f, 5.0f), v2(1e6f + 8.0f, 5.0f), &o),
                     1);
    assert_int_equal(o.kind, HS_SEGSEG_OVERLAP);
    near(o.t0, 0.5, 1e-7, "t0");
    near(o.t1, 1.0, 1e-7, "t1");
}

static void segseg_zero_length(void **state)
{
    (void)state;
    hs_segseg o;
    /* point on segment / off it / at its end */
    assert_int_equal(hs_segment_segment(v2(1, 1), v2(1, 1), v2(0, 0), v2(4, 4), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_POINT);
    near(o.t0, 0.0, 0.0, "t0");
    near(o.u0, 0.25, 1e-7, "u0");
    assert_int_equal(hs_segment_segment(v2(1, 1.5f), v2(1, 1.5f), v2(0, 0), v2(4, 4), &o), 0);
    assert_int_equal(hs_segment_segment(v2(5, 5), v2(5, 5), v2(0, 0), v2(4, 4), &o), 0);
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(4, 4), v2(4, 4), v2(4, 4), &o), 1);
    near(o.t0, 1.0, 0.0, "t0");
    near(o.u0, 0.0, 0.0, "u0");
    /* two points */
    assert_int_equal(hs_segment_segment(v2(3, 3), v2(3, 3), v2(3, 3), v2(3, 3), &o), 1);
    assert_int_equal(o.kind, HS_SEGSEG_POINT);
    assert_int_equal(hs_segment_segment(v2(3, 3), v2(3, 3), v2(3, 4), v2(3, 4), &o), 0);
}

static void segseg_invalid(void **state)
{
    (void)state;
    hs_segseg o;
    assert_int_equal(hs_segment_segment(v2(NAN, 0), v2(1, 1), v2(0, 1), v2(1, 0), &o),
                     HS_E_NONFINITE);
    assert_int_equal(hs_segment_segment(v2(0, 0), v2(1, 1), v2(0, 1), v2(INFINITY, 0), &o),
                     HS_E_NONFINITE);
}

/* ---- segment vs rectangle (a segment wholly inside counts) ---- */

static const hs_aabb box1 = {{1.0f, 1.0f}, {3.0f, 2.0f}};

static void segment_inside_rectangle(void **state)
{
    (void)state;
    float t0 = -1, t1 = -1;
    assert_int_equal(hs_segment_aabb(v2(1.5f, 1.2f), v2(2.5f, 1.8f), box1, &t0, &t1), 1);
    near(t0, 0.0, 0.0, "t_enter");
    near(t1, 1.0, 0.0, "t_exit");
    /* a zero-length segment (a point) inside, and on the edge */
    assert_int_equal(hs_segment_aabb(v2(2, 1.5f), v2(2, 1.5f), box1, &t0, &t1), 1);
    assert_int_equal(hs_segment_aabb(v2(3, 2), v2(3, 2), box1, &t0, &t1), 1);
    assert_int_equal(hs_segment_aabb(v2(3.5f, 2), v2(3.5f, 2), box1, &t0, &t1), 0);
}

static void segment_aabb_crossing(void **state)
{
    (void)state;
    float t0 = -1, t1 = -1;
    /* straight through along x: enters at x = 1 (t = 0.25), leaves at x = 3 (t = 0.75) */
    assert_int_equal(hs_segment_aabb(v2(0, 1.5f), v2(4, 1.5f), box1, &t0, &t1), 1);
    near(t0, 0.25, 1e-7, "t_enter");
    near(t1, 0.75, 1e-7, "t_exit");
    /* reversed direction */
    assert_int_equal(hs_segment_aabb(v2(4, 1.5f), v2(0, 1.5f), box1, &t0, &t1), 1);
    near(t0, 0.25, 1e-7, "t_enter");
    near(t1, 0.75, 1e-7, "t_exit");
    /* one end inside */
    assert_int_equal(hs_segment_aabb(v2(2, 1.5f), v2(2, 5.5f), box1, &t0, &t1), 1);
    near(t0, 0.0, 0.0, "t_enter");
    near(t1, 0.125, 1e-7, "t_exit");
    /* diagonal through a corner only: touches (3, 2) exactly */
    assert_int_equal(hs_segment_aabb(v2(2, 3), v2(4, 1), box1, &t0, &t1), 1);
    near(t0, 0.5, 1e-7, "t_enter");
    near(t1, 0.5, 1e-7, "t_exit");
    /* along an edge */
    assert_int_equal(hs_segment_aabb(v2(0, 2), v2(5, 2), box1, &t0, &t1), 1);
    near(t0, 0.2, 1e-7, "t_enter");
    near(t1, 0.6, 1e-7, "t_exit");
    /* NULL outputs allowed */
    assert_int_equal(hs_segment_aabb(v2(0, 1.5f), v2(4, 1.5f), box1, NULL, NULL), 1);
}

static void segment_aabb_miss(void **state)
{
    (void)state;
    float t0 = 7, t1 = 7;
    assert_int_equal(hs_segment_aabb(v2(0, 0), v2(0.9f, 5), box1, &t0, &t1), 0);
    assert_int_equal(hs_segment_aabb(v2(0, 0), v2(4, 0.5f), box1, &t0, &t1), 0);
    /* stops short of the box */
    assert_int_equal(hs_segment_aabb(v2(-5, 1.5f), v2(0.5f, 1.5f), box1, &t0, &t1), 0);
    /* diagonal passing just outside the corner (2, 3)-(4, 1) shifted up */
    assert_int_equal(hs_segment_aabb(v2(2, 3.01f), v2(4, 1.01f), box1, &t0, &t1), 0);
    /* axis-parallel outside the slab */
    assert_int_equal(hs_segment_aabb(v2(0, 2.5f), v2(5, 2.5f), box1, &t0, &t1), 0);
    assert_true(t0 == 7 && t1 == 7); /* untouched on a miss */
}

static void segment_aabb_degenerate_box_and_scale(void **state)
{
    (void)state;
    float t0, t1;
    /* a box that is a point, a box that is a line */
    hs_aabb pt = {{1, 1}, {1, 1}};
    assert_int_equal(hs_segment_aabb(v2(0, 0), v2(2, 2), pt, &t0, &t1), 1);
    near(t0, 0.5, 1e-7, "t_enter");
    near(t1, 0.5, 1e-7, "t_exit");
    hs_aabb ln = {{0, 1}, {4, 1}};
    assert_int_equal(hs_segment_aabb(v2(2, 0), v2(2, 4), ln, &t0, &t1), 1);
    near(t0, 0.25, 1e-7, "t_enter");
    /* huge coordinates, small box */
    hs_aabb far = {{1e6f, 1e6f}, {1e6f + 0.5f, 1e6f + 0.5f}};
    assert_int_equal(
        hs_segment_aabb(v2(1e6f - 10, 1e6f + 0.25f), v2(1e6f + 10, 1e6f + 0.25f), far, &t0, &t1),
        1);
    near(t0, 0.5, 1e-7, "t_enter");
    near(t1, 0.525, 1e-7, "t_exit");
    assert_int_equal(
        hs_segment_aabb(v2(1e6f - 10, 1e6f + 0.75f), v2(1e6f + 10, 1e6f + 0.75f), far, &t0, &t1),
        0);
    /* tiny scale */
    hs_aabb tiny = {{1e-6f, 1e-6f}, {2e-6f, 2e-6f}};
    assert_int_equal(hs_segment_aabb(v2(1.2e-6f, 1.2e-6f), v2(1.8e-6f, 1.7e-6f), tiny, &t0, &t1),
                     1);
    near(t0, 0.0, 0.0, "t_enter");
    near(t1, 1.0, 0.0, "t_exit");
}

static void segment_aabb_invalid(void **state)
{
    (void)state;
    hs_aabb bad = {{3, 1}, {1, 2}};
    assert_int_equal(hs_segment_aabb(v2(0, 0), v2(1, 1), bad, NULL, NULL), HS_E_RANGE);
    hs_aabb nan = {{NAN, 1}, {1, 2}};
    assert_int_equal(hs_segment_aabb(v2(0, 0), v2(1, 1), nan, NULL, NULL), HS_E_NONFINITE);
    assert_int_equal(hs_segment_aabb(v2(0, INFINITY), v2(1, 1), box1, NULL, NULL), HS_E_NONFINITE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(point_in_circle_closed_disc),
        cmocka_unit_test(point_in_circle_zero_radius),
        cmocka_unit_test(point_in_circle_huge_coordinates_tiny_radius),
        cmocka_unit_test(point_in_circle_invalid),
        cmocka_unit_test(point_on_segment_basic),
        cmocka_unit_test(point_on_segment_scale_aware),
        cmocka_unit_test(point_on_segment_tolerance_and_degenerate),
        cmocka_unit_test(point_on_segment_invalid),
        cmocka_unit_test(segseg_crossing),
        cmocka_unit_test(segseg_disjoint_and_touching),
        cmocka_unit_test(parallel_lines),
        cmocka_unit_test(collinear_overlap),
        cmocka_unit_test(segseg_zero_length),
        cmocka_unit_test(segseg_invalid),
        cmocka_unit_test(segment_inside_rectangle),
        cmocka_unit_test(segment_aabb_crossing),
        cmocka_unit_test(segment_aabb_miss),
        cmocka_unit_test(segment_aabb_degenerate_box_and_scale),
        cmocka_unit_test(segment_aabb_invalid),
    };
    return cmocka_run_group_tests_name("geom", tests, NULL, NULL);
}
