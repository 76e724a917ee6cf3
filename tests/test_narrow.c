/* SPDX-License-Identifier: MIT */
/* cmocka tests of the scalar narrowphase (narrow.h): seed lessons, semantics, degenerate and
 * invalid input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <string.h>

#include "hitscan/narrow.h"

static hs_vec2 v2(float x, float y)
{
    hs_vec2 v = {x, y};
    return v;
}

static hs_circle circ(float x, float y, float r)
{
    hs_circle c = {x, y, r};
    return c;
}

static const hs_circle unit = {0.0f, 0.0f, 1.0f};

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.9g, want %.9g (tol %.3g)", what, got, want, tol);
}

/* Every hit must carry a unit normal pointing from the centre towards the hit point (when
 * they differ) and the point must be P(t). */
static void check_hit_geometry(hs_query q, hs_circle c, const hs_hit *h)
{
    double nl = hypot(h->normal.x, h->normal.y);
    near(nl, 1.0, 4e-7, "|normal|");
    double tdx = (double)h->t * q.d.x, tdy = (double)h->t * q.d.y;
    near(h->point.x, q.a.x + tdx, 1e-6 * (1.0 + fabs(q.a.x) + fabs(tdx)), "point.x = P(t)");
    near(h->point.y, q.a.y + tdy, 1e-6 * (1.0 + fabs(q.a.y) + fabs(tdy)), "point.y = P(t)");
    /* direction centre -> P(t) from the float t, in double; the normal is computed in float
     * from f + t*d, so allow a few ulps of that sum's magnitude relative to its length */
    double fx = (double)q.a.x - c.x, fy = (double)q.a.y - c.y;
    double vx = fx + tdx, vy = fy + tdy, vl = hypot(vx, vy);
    double mag = fabs(fx) + fabs(fy) + fabs(tdx) + fabs(tdy);
    if (vl > 1e-4 * mag) {
        double tol = 1e-6 + 8.0 * FLT_EPSILON * mag / vl;
        near(h->normal.x, vx / vl, tol, "normal.x along centre->point");
        near(h->normal.y, vy / vl, tol, "normal.y along centre->point");
    }
    assert_true(h->t <= h->t_exit);
    assert_true(h->t >= q.tmin && h->t_exit <= q.tmax);
}

/* hit and check everything common; returns the hit */
static hs_hit expect_hit(hs_query q, hs_circle c, hs_semantics sem, double t, double t_exit,
                         uint32_t flags)
{
    hs_hit h;
    memset(&h, 0xAB, sizeof h);
    int r = hs_intersect_circle(q, c, sem, &h);
    if (r != 1)
        fail_msg("expected a hit (sem %d), got %d", (int)sem, r);
    assert_int_equal(hs_query_hits_circle(q, c, sem), 1);
    assert_int_equal(hs_intersect_circle(q, c, sem, NULL), 1);
    near(h.t, t, 4e-7 * (1.0 + fabs(t)), "t");
    if (!isnan(t_exit))
        near(h.t_exit, t_exit, 4e-7 * (1.0 + fabs(t_exit)), "t_exit");
    assert_int_equal(h.flags, flags);
    check_hit_geometry(q, c, &h);
    return h;
}

static void expect_miss(hs_query q, hs_circle c, hs_semantics sem)
{
    hs_hit h, before;
    memset(&h, 0x5A, sizeof h);
    before = h;
    int r = hs_intersect_circle(q, c, sem, &h);
    if (r != 0)
        fail_msg("expected a miss (sem %d), got %d (t = %g)", (int)sem, r, (double)h.t);
    assert_int_equal(hs_query_hits_circle(q, c, sem), 0);
    assert_memory_equal(&h, &before, sizeof h); /* out untouched on a miss */
}

static void expect_both_miss(hs_query q, hs_circle c)
{
    expect_miss(q, c, HS_SOLID);
    expect_miss(q, c, HS_BOUNDARY);
}

/* ---- the six cases of the quadratic, segment [0, 1] vs the unit circle ---- */

static void impale(void **state)
{
    (void)state;
    hs_query q = hs_segment(v2(-2, 0), v2(2, 0));
    hs_hit h = expect_hit(q, unit, HS_SOLID, 0.25, 0.75, 0u);
    near(h.point.x, -1.0, 1e-6, "point.x");
    near(h.normal.x, -1.0, 1e-7, "normal.x");
    expect_hit(q, unit, HS_BOUNDARY, 0.25, 0.75, 0u);
    /* and off-axis: a chord at height 0.6 enters at x = -0.8 */
    hs_query q2 = hs_segment(v2(-2, 0.6f), v2(2, 0.6f));
    hs_hit h2 = expect_hit(q2, unit, HS_SOLID, 0.3, 0.7, 0u);
    near(h2.normal.x, -0.8, 1e-6, "normal.x");
    near(h2.normal.y, 0.6, 1e-6, "normal.y");
    expect_hit(q2, unit, HS_BOUNDARY, 0.3, 0.7, 0u);
}

static void poke(void **state)
{
    (void)state;
    hs_query q = hs_segment(v2(-2, 0), v2(0, 0)); /* enters at t = 0.5, second root 1.5 */
    expect_hit(q, unit, HS_SOLID, 0.5, 1.0, 0u);
    expect_hit(q, unit, HS_BOUNDARY, 0.5, 1.0, 0u);
}

static void exit_wound(void **state)
{
    (void)state;
    hs_query q = hs_segment(v2(0, 0), v2(2, 0)); /* starts at the centre, leaves at t = 0.5 */
    hs_hit s = expect_hit(q, unit, HS_SOLID, 0.0, 0.5, HS_HIT_INSIDE);
    /* the solid hit is at the centre itself: the normal falls back to -d */
    near(s.normal.x, -1.0, 0.0, "solid normal.x at the centre");
    near(s.normal.y, 0.0, 0.0, "solid normal.y at the centre");
    hs_hit b = expect_hit(q, unit, HS_BOUNDARY, 0.5, 0.5, HS_HIT_INSIDE);
    near(b.point.x, 1.0, 1e-6, "exit point");
    near(b.normal.x, 1.0, 1e-6, "exit normal points outwards");
    /* off-centre start, diagonal exit: from (0.3, -0.2) to (3, 4) */
    hs_query q2 = hs_segment(v2(0.3f, -0.2f), v2(3.0f, 4.0f));
    double fx = 0.3, fy = -0.2, dx = 2.7, dy = 4.2;
    double a = dx * dx + dy * dy, bb = fx * dx + fy * dy, c = fx * fx + fy * fy - 1.0;
    double t1 = (-bb + sqrt(bb * bb - a * c)) / a;
    expect_hit(q2, unit, HS_SOLID, 0.0, t1, HS_HIT_INSIDE);
    expect_hit(q2, unit, HS_BOUNDARY, t1, t1, HS_HIT_INSIDE);
}

static void fall_short(void **state)
{
    (void)state;
    expect_both_miss(hs_segment(v2(-3, 0), v2(-2, 0)), unit);
    expect_both_miss(hs_segment(v2(-3, 0.5f), v2(-1.5f, 0.5f)), unit);
}

static void past(void **state)
{
    (void)state;
    expect_both_miss(hs_segment(v2(2, 0), v2(3, 0)), unit);
    expect_both_miss(hs_segment(v2(1.5f, -0.5f), v2(4, -0.5f)), unit);
}

static void completely_inside(void **state)
{
    (void)state;
    hs_query q = hs_segment(v2(-0.5f, 0), v2(0.5f, 0));
    hs_hit h = expect_hit(q, unit, HS_SOLID, 0.0, 1.0, HS_HIT_INSIDE);
    near(h.normal.x, -1.0, 1e-7, "normal.x");
    expect_miss(q, unit, HS_BOUNDARY); /* boundary semantics: only the rim counts */
}

/* ---- a laser is a ray, not a line: nothing behind its start ---- */

static void asteroid_behind_ship_ray_misses(void **state)
{
    (void)state;
    hs_vec2 ship = v2(0, 0), dir = v2(1, 0);
    hs_circle behind = circ(-10.0f, 0.0f, 2.0f);
    /* the seed checks only b^2 - 4ac >= 0, which is true here */
    expect_both_miss(hs_ray(ship, dir, INFINITY), behind);
    expect_both_miss(hs_ray(ship, dir, 100.0f), behind);
    /* diagonal: behind and to the side */
    expect_both_miss(hs_ray(v2(5, 5), v2(0.6f, 0.8f), INFINITY), circ(2.0f, 1.0f, 1.5f));
}

static void line_hits_asteroid_behind(void **state)
{
    (void)state;
    hs_circle behind = circ(-10.0f, 0.0f, 2.0f);
    hs_query line = hs_line(v2(0, 0), v2(1, 0));
    expect_hit(line, behind, HS_SOLID, -12.0, -8.0, 0u);
    expect_hit(line, behind, HS_BOUNDARY, -12.0, -8.0, 0u);
}

static void ray_hits_asteroid_ahead(void **state)
{
    (void)state;
    hs_circle ahead = circ(10.0f, 0.0f, 2.0f);
    expect_hit(hs_ray(v2(0, 0), v2(1, 0), INFINITY), ahead, HS_SOLID, 8.0, 12.0, 0u);
    /* t is in units of |dir| */
    expect_hit(hs_ray(v2(0, 0), v2(2, 0), INFINITY), ahead, HS_SOLID, 4.0, 6.0, 0u);
    /* a finite ray that stops short misses, one that stops inside hits */
    expect_both_miss(hs_ray(v2(0, 0), v2(1, 0), 7.5f), ahead);
    expect_hit(hs_ray(v2(0, 0), v2(1, 0), 9.0f), ahead, HS_BOUNDARY, 8.0, 9.0, 0u);
    /* the ship inside an asteroid: solid hits at 0, boundary at the exit */
    expect_hit(hs_ray(v2(0, 0), v2(1, 0), INFINITY), circ(0.5f, 0.0f, 2.0f), HS_SOLID, 0.0, 2.5,
               HS_HIT_INSIDE);
    expect_hit(hs_ray(v2(0, 0), v2(1, 0), INFINITY), circ(0.5f, 0.0f, 2.0f), HS_BOUNDARY, 2.5, 2.5,
               HS_HIT_INSIDE);
}

/* ---- centre on the segment, zero-length segment: defined answers ---- */

static void centre_on_segment_contact(void **state)
{
    (void)state;
    hs_contact k;
    hs_query q = hs_segment(v2(0, 0), v2(4, 0));
    assert_int_equal(hs_contact_circle(q, circ(2.0f, 0.0f, 1.0f), &k), 1);
    near(k.t, 0.5, 0.0, "t");
    near(k.closest.x, 2.0, 0.0, "closest.x");
    near(k.closest.y, 0.0, 0.0, "closest.y");
    near(k.distance, 0.0, 0.0, "distance");
    near(k.depth, 1.0, 0.0, "depth = r");
    /* the seed raises here; we give the left-hand perpendicular of d */
    near(k.normal.x, 0.0, 0.0, "normal.x");
    near(k.normal.y, 1.0, 0.0, "normal.y");

    /* diagonal segment (0,0)-(3,4) through the centre (1.5, 2): normal (-4, 3)/5 */
    hs_query q2 = hs_segment(v2(0, 0), v2(3, 4));
    assert_int_equal(hs_contact_circle(q2, circ(1.5f, 2.0f, 0.5f), &k), 1);
    near(k.t, 0.5, 1e-7, "t");
    near(hypot(k.normal.x, k.normal.y), 1.0, 2e-7, "|normal|");
    near(k.depth, 0.5, 1e-6, "depth");
    near(k.normal.x, -0.8, 1e-6, "normal.x");
    near(k.normal.y, 0.6, 1e-6, "normal.y");

    /* the hit query through the centre is defined too */
    expect_hit(q, circ(2.0f, 0.0f, 1.0f), HS_SOLID, 0.25, 0.75, 0u);
}

static void collision_response(void **state)
{
    (void)state;
    hs_contact k;
    hs_query q = hs_segment(v2(0, 0), v2(4, 0));
    /* overlapping: push the circle up by depth along +normal */
    assert_int_equal(hs_contact_circle(q, circ(2.0f, 0.5f, 1.0f), &k), 1);
    near(k.distance, 0.5, 0.0, "distance");
    near(k.depth, 0.5, 0.0, "depth");
    near(k.normal.x, 0.0, 0.0, "normal.x");
    near(k.normal.y, 1.0, 0.0, "normal.y (closest -> centre)");
    /* touching counts */
    assert_int_equal(hs_contact_circle(q, circ(2.0f, -1.0f, 1.0f), &k), 1);
    near(k.depth, 0.0, 0.0, "depth touching");
    near(k.normal.y, -1.0, 0.0, "normal.y");
    /* separated: negative depth, closest at the end cap */
    assert_int_equal(hs_contact_circle(q, circ(7.0f, 4.0f, 1.0f), &k), 0);
    near(k.t, 1.0, 0.0, "t clamped to the end");
    near(k.distance, 5.0, 1e-6, "distance");
    near(k.depth, -4.0, 1e-6, "depth");
    near(k.normal.x, 0.6, 1e-6, "normal.x");
    near(k.normal.y, 0.8, 1e-6, "normal.y");
    /* NULL out is allowed */
    assert_int_equal(hs_contact_circle(q, circ(7.0f, 4.0f, 1.0f), NULL), 0);
    /* capsule: thickness adds to the radius */
    assert_int_equal(
        hs_contact_circle(hs_capsule(v2(0, 0), v2(4, 0), 4.5f), circ(7.0f, 4.0f, 1.0f), &k), 1);
    near(k.depth, 0.5, 1e-6, "capsule depth");
}

static void zero_length_segment(void **state)
{
    (void)state;
    hs_contact k;
    hs_query p = hs_segment(v2(1, 1), v2(1, 1));
    assert_int_equal(hs_query_validate(p), HS_OK);
    /* inside: solid hits at t = 0 from inside; boundary misses (no rim crossing) */
    expect_hit(p, circ(1.5f, 1.0f, 1.0f), HS_SOLID, 0.0, 0.0, HS_HIT_INSIDE);
    expect_miss(p, circ(1.5f, 1.0f, 1.0f), HS_BOUNDARY);
    /* on the rim: both */
    expect_hit(p, circ(2.0f, 1.0f, 1.0f), HS_BOUNDARY, 0.0, 0.0, HS_HIT_INSIDE);
    expect_both_miss(p, circ(3.0f, 1.0f, 1.0f));
    /* contact of a point: the seed raises; we answer */
    assert_int_equal(hs_contact_circle(p, circ(1.0f, 3.0f, 1.0f), &k), 0);
    near(k.t, 0.0, 0.0, "t");
    near(k.distance, 2.0, 0.0, "distance");
    near(k.depth, -1.0, 0.0, "depth");
    near(k.normal.y, 1.0, 0.0, "normal.y");
    /* point exactly at the centre: normal (1, 0), depth r */
    assert_int_equal(hs_contact_circle(p, circ(1.0f, 1.0f, 0.25f), &k), 1);
    near(k.normal.x, 1.0, 0.0, "normal.x");
    near(k.normal.y, 0.0, 0.0, "normal.y");
    near(k.depth, 0.25, 0.0, "depth");
    /* hit at the centre with d = 0: normal (-1, 0) */
    hs_hit h = expect_hit(p, circ(1.0f, 1.0f, 0.25f), HS_SOLID, 0.0, 0.0, HS_HIT_INSIDE);
    near(h.normal.x, -1.0, 0.0, "normal.x");
    near(h.normal.y, 0.0, 0.0, "normal.y");
}

/* ---- a line through P and Q with P == Q: no division by |PQ| ---- */

static void line_p_equals_q(void **state)
{
    (void)state;
    hs_vec2 P = v2(3.0f, -2.0f);
    hs_query l = hs_line(P, P);
    assert_int_equal(hs_query_validate(l), HS_OK);
    /* no division by |PQ|: a point query answered at t = 0 */
    expect_hit(l, circ(3.5f, -2.0f, 1.0f), HS_SOLID, 0.0, 0.0, HS_HIT_INSIDE);
    expect_both_miss(l, circ(10.0f, 10.0f, 1.0f));
    expect_hit(l, circ(4.0f, -2.0f, 1.0f), HS_BOUNDARY, 0.0, 0.0, HS_HIT_INSIDE);
    hs_contact k;
    assert_int_equal(hs_contact_circle(l, circ(3.0f, 2.0f, 1.0f), &k), 0);
    near(k.distance, 4.0, 0.0, "distance");
    near(k.closest.x, 3.0, 0.0, "closest.x");
    near(k.closest.y, -2.0, 0.0, "closest.y");
    /* a nearly degenerate line (Q one ulp from P) still works as a line */
    hs_query l2 = hs_line(P, v2(nextafterf(3.0f, 4.0f), -2.0f));
    assert_int_equal(hs_query_validate(l2), HS_OK);
    assert_int_equal(hs_query_hits_circle(l2, circ(100.0f, -2.5f, 1.0f), HS_SOLID), 1);
    assert_int_equal(hs_query_hits_circle(l2, circ(100.0f, -3.5f, 1.0f), HS_SOLID), 0);
}

/* A zero-length query with an interval not containing 0 reports the t closest to 0. */
static void zero_length_query_interval(void **state)
{
    (void)state;
    hs_query q = {v2(0, 0), v2(0, 0), 2.0f, 5.0f, 0.0f};
    expect_hit(q, unit, HS_SOLID, 2.0, 2.0, HS_HIT_INSIDE);
    q.tmin = -5.0f;
    q.tmax = -2.0f;
    expect_hit(q, unit, HS_SOLID, -2.0, -2.0, HS_HIT_INSIDE);
}

/* ---- thickness: capsules and swept circles ---- */

static void capsule_tangent_side(void **state)
{
    (void)state;
    /* half-width 1 passing at distance 2 from a unit circle: touches at t = 0.5 */
    hs_query q = hs_capsule(v2(-5, 2), v2(5, 2), 1.0f);
    hs_hit h = expect_hit(q, unit, HS_SOLID, 0.5, 0.5, 0u);
    near(h.point.y, 2.0, 0.0, "point is on the centre line");
    near(h.normal.y, 1.0, 1e-7, "normal.y");
    expect_hit(q, unit, HS_BOUNDARY, 0.5, 0.5, 0u);
    expect_both_miss(hs_capsule(v2(-5, 2.0f), v2(5, 2.0f), 0.99f), unit);
    expect_both_miss(hs_capsule(v2(-5, 2.5f), v2(5, 2.5f), 1.0f), unit);
}

static void capsule_end_cap_and_inside(void **state)
{
    (void)state;
    /* a circle of radius 0.5 swept from (-5, 0) to (-1, 0) touches the unit circle at x = -1.5 */
    hs_query q = hs_capsule(v2(-5, 0), v2(-1, 0), 0.5f);
    expect_hit(q, unit, HS_SOLID, 0.875, 1.0, 0u);
    expect_hit(q, unit, HS_BOUNDARY, 0.875, 1.0, 0u);
    expect_both_miss(hs_capsule(v2(-5, 0), v2(-2, 0), 0.5f), unit);
    /* a swept circle that starts overlapping */
    expect_hit(hs_capsule(v2(-1.2f, 0), v2(-5, 0), 0.5f), unit, HS_SOLID, 0.0, 0.3 / 3.8,
               HS_HIT_INSIDE);
    expect_hit(hs_capsule(v2(-1.2f, 0), v2(-5, 0), 0.5f), unit, HS_BOUNDARY, 0.3 / 3.8, 0.3 / 3.8,
               HS_HIT_INSIDE);
    /* a fat capsule wholly inside a big circle: solid yes, boundary no */
    hs_query in = hs_capsule(v2(-1, 0), v2(1, 0), 2.0f);
    expect_hit(in, circ(0, 0, 10), HS_SOLID, 0.0, 1.0, HS_HIT_INSIDE);
    expect_miss(in, circ(0, 0, 10), HS_BOUNDARY);
    /* thickening a ray and a line */
    expect_hit(hs_query_thick(hs_ray(v2(-10, 3), v2(1, 0), INFINITY), 2.0f), unit, HS_SOLID, 10.0,
               10.0, 0u);
    expect_hit(hs_query_thick(hs_line(v2(0, 3), v2(1, 3)), 3.0f), unit, HS_SOLID, -sqrt(7.0),
               sqrt(7.0), 0u);
    /* thickness with r = 0: a capsule against a point */
    expect_hit(hs_capsule(v2(0, -1), v2(4, -1), 1.0f), circ(2, 0, 0), HS_SOLID, 0.5, 0.5, 0u);
}

/* ---- lines and infinite rays ---- */

static void lines_and_infinite_rays(void **state)
{
    (void)state;
    double w = sqrt(0.75);
    hs_query l = hs_line(v2(0, 0.5f), v2(1, 0.5f));
    assert_int_equal(hs_query_validate(l), HS_OK);
    expect_hit(l, unit, HS_SOLID, -w, w, 0u);
    expect_hit(l, unit, HS_BOUNDARY, -w, w, 0u); /* a line always crosses the rim */
    expect_both_miss(hs_line(v2(0, 1.5f), v2(1, 1.5f)), unit);
    /* tangent line: touching counts */
    expect_hit(hs_line(v2(-1, 1), v2(1, 1)), unit, HS_SOLID, 0.5, 0.5, 0u);
    /* vertical line (d.x = 0: inf * 0 must not poison the boundary test) */
    expect_hit(hs_line(v2(0.5f, 7), v2(0.5f, 8)), unit, HS_BOUNDARY, -7.0 - w, -7.0 + w, 0u);
    /* infinite rays */
    hs_query r = hs_ray(v2(-10, 0.5f), v2(1, 0), INFINITY);
    expect_hit(r, unit, HS_SOLID, 10.0 - w, 10.0 + w, 0u);
    expect_hit(r, unit, HS_BOUNDARY, 10.0 - w, 10.0 + w, 0u);
    hs_query up = hs_ray(v2(0, 0), v2(0, 1), INFINITY);
    expect_hit(up, unit, HS_SOLID, 0.0, 1.0, HS_HIT_INSIDE);
    hs_hit h = expect_hit(up, unit, HS_BOUNDARY, 1.0, 1.0, HS_HIT_INSIDE);
    near(h.normal.y, 1.0, 1e-7, "exit normal");
    expect_both_miss(hs_ray(v2(10, 0), v2(1, 0), INFINITY), unit);
    /* a custom interval: the part of a line from t = -1 on */
    hs_query part = {v2(0, 0), v2(1, 0), -1.0f, INFINITY, 0.0f};
    expect_hit(part, unit, HS_SOLID, -1.0, 1.0, HS_HIT_INSIDE);
    expect_hit(part, unit, HS_BOUNDARY, -1.0, 1.0, HS_HIT_INSIDE); /* starts on the rim */
}

/* ---- r = 0 ---- */

static void zero_radius_circle(void **state)
{
    (void)state;
    hs_circle pt = circ(0.0f, 0.0f, 0.0f);
    hs_query q = hs_segment(v2(-1, 0), v2(1, 0));
    hs_hit h = expect_hit(q, pt, HS_SOLID, 0.5, 0.5, 0u);
    near(h.normal.x, -1.0, 0.0, "normal falls back to -d");
    expect_hit(q, pt, HS_BOUNDARY, 0.5, 0.5, 0u);
    expect_both_miss(hs_segment(v2(-1, 0.1f), v2(1, 0.1f)), pt);
    expect_both_miss(hs_segment(v2(0.5f, 0), v2(1, 0)), pt);
    /* a segment starting at the point */
    expect_hit(hs_segment(v2(0, 0), v2(1, 0)), pt, HS_SOLID, 0.0, 0.0, HS_HIT_INSIDE);
    expect_hit(hs_segment(v2(0, 0), v2(1, 0)), pt, HS_BOUNDARY, 0.0, 0.0, HS_HIT_INSIDE);
    /* a point query at the point */
    expect_hit(hs_segment(v2(0, 0), v2(0, 0)), pt, HS_BOUNDARY, 0.0, 0.0, HS_HIT_INSIDE);
}

/* ---- the inside flag ---- */

static void inside_flag(void **state)
{
    (void)state;
    /* strictly inside, on the rim (closed disc: inside), outside */
    expect_hit(hs_segment(v2(0.5f, 0), v2(3, 0)), unit, HS_SOLID, 0.0, 0.2, HS_HIT_INSIDE);
    expect_hit(hs_segment(v2(1, 0), v2(3, 0)), unit, HS_SOLID, 0.0, 0.0, HS_HIT_INSIDE);
    expect_hit(hs_segment(v2(1, 0), v2(3, 0)), unit, HS_BOUNDARY, 0.0, 0.0, HS_HIT_INSIDE);
    expect_hit(hs_segment(v2(1, 0), v2(-1, 0)), unit, HS_BOUNDARY, 0.0, 1.0, HS_HIT_INSIDE);
    expect_hit(hs_segment(v2(-3, 0), v2(3, 0)), unit, HS_SOLID, 1.0 / 3.0, 2.0 / 3.0, 0u);
    /* ending on the rim is not "inside" */
    expect_hit(hs_segment(v2(-3, 0), v2(-1, 0)), unit, HS_BOUNDARY, 1.0, 1.0, 0u);
}

/* ---- normals: unit, centre -> point, for many random hits ---- */

/* splitmix64 -> [lo, hi) */
static float frand(uint64_t *st, double lo, double hi)
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    double u = (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
    return (float)(lo + (hi - lo) * u);
}

static void normals_unit_and_outward_random(void **state)
{
    (void)state;
    int hits[2] = {0, 0};
    uint64_t st = 12345u;
    for (int i = 0; i < 20000; i++) {
        float ax = frand(&st, -10, 10), ay = frand(&st, -10, 10);
        hs_query q = hs_segment(v2(ax, ay), v2(frand(&st, -10, 10), frand(&st, -10, 10)));
        if (i % 3 == 0)
            q.q = frand(&st, 0, 1);
        float cx = frand(&st, -5, 5), cy = frand(&st, -5, 5);
        hs_circle c = circ(cx, cy, frand(&st, 0, 3));
        for (int s = 0; s < 2; s++) {
            hs_hit h;
            int r = hs_intersect_circle(q, c, (hs_semantics)s, &h);
            assert_true(r == 0 || r == 1);
            assert_int_equal(r, hs_query_hits_circle(q, c, (hs_semantics)s));
            if (r == 1) {
                hits[s]++;
                check_hit_geometry(q, c, &h);
                /* the point is on the inflated rim unless it is the start inside (solid) */
                double dist = hypot((double)h.point.x - c.x, (double)h.point.y - c.y);
                if (s == HS_BOUNDARY || !(h.flags & HS_HIT_INSIDE))
                    near(dist, (double)c.r + q.q, 1e-5, "on the rim");
            }
        }
    }
    /* a sanity floor so the loop cannot pass vacuously */
    assert_true(hits[0] > 2000 && hits[1] > 1000);
}

/* ---- invalid input ---- */

static void invalid_query_error_codes(void **state)
{
    (void)state;
    hs_query ok = hs_segment(v2(0, 0), v2(1, 0));
    hs_hit h, before;
    memset(&h, 0x33, sizeof h);
    before = h;
    struct {
        hs_query q;
        int want;
    } cases[] = {
        {{v2(NAN, 0), v2(1, 0), 0, 1, 0}, HS_E_NONFINITE},
        {{v2(0, INFINITY), v2(1, 0), 0, 1, 0}, HS_E_NONFINITE},
        {{v2(0, 0), v2(NAN, 0), 0, 1, 0}, HS_E_NONFINITE},
        {{v2(0, 0), v2(1, -INFINITY), 0, 1, 0}, HS_E_NONFINITE},
        {{v2(0, 0), v2(1, 0), NAN, 1, 0}, HS_E_NONFINITE},
        {{v2(0, 0), v2(1, 0), 0, NAN, 0}, HS_E_NONFINITE},
        {{v2(0, 0), v2(1, 0), INFINITY, INFINITY, 0}, HS_E_NONFINITE},
        {{v2(0, 0), v2(1, 0), -INFINITY, -INFINITY, 0}, HS_E_NONFINITE},
        {{v2(0, 0), v2(1, 0), 0, 1, NAN}, HS_E_NONFINITE},
        {{v2(0, 0), v2(1, 0), 0, 1, INFINITY}, HS_E_NONFINITE},
        {{v2(0, 0), v2(1, 0), 0, 1, -0.5f}, HS_E_NEG_RADIUS},
        {{v2(0, 0), v2(1, 0), 1, 0, 0}, HS_E_RANGE},
        {{v2(0, 0), v2(1, 0), 2, -3, 0}, HS_E_RANGE},
        /* |d|^2 below FLT_MIN: subnormal, or 0 from a d that is not 0 (never a point) */
        {{v2(0, 0), v2(1e-20f, 0), 0, 1, 0}, HS_E_RANGE},
        {{v2(0, 0), v2(1e-30f, 0), 0, 1, 0}, HS_E_RANGE},
        {{v2(0, 0), v2(0, -1e-30f), 0, 1, 0}, HS_E_RANGE},
        {{v2(0, 0), v2(1e-45f, 1e-45f), 0, 1, 0}, HS_E_RANGE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(hs_query_validate(cases[i].q), cases[i].want);
        for (int s = 0; s < 2; s++) {
            assert_int_equal(hs_intersect_circle(cases[i].q, unit, (hs_semantics)s, &h),
                             cases[i].want);
            assert_int_equal(hs_query_hits_circle(cases[i].q, unit, (hs_semantics)s),
                             cases[i].want);
        }
        hs_contact k;
        assert_int_equal(hs_contact_circle(cases[i].q, unit, &k), cases[i].want);
    }
    assert_memory_equal(&h, &before, sizeof h);
    /* builders */
    assert_int_equal(hs_query_validate(hs_ray(v2(0, 0), v2(1, 0), -1.0f)), HS_E_RANGE);
    assert_int_equal(hs_query_validate(hs_capsule(v2(0, 0), v2(1, 0), -1.0f)), HS_E_NEG_RADIUS);
    assert_int_equal(hs_query_validate(hs_query_thick(ok, NAN)), HS_E_NONFINITE);
    assert_int_equal(hs_query_validate(hs_segment(v2(0, 0), v2(NAN, 0))), HS_E_NONFINITE);
    /* |d|^2 overflowing float is refused rather than answered wrongly */
    assert_true(hs_query_validate(hs_segment(v2(-3e19f, 0), v2(3e19f, 0))) < 0);
    /* an out-of-range semantics value */
    assert_int_equal(hs_intersect_circle(ok, unit, (hs_semantics)7, &h), HS_E_RANGE);
    assert_int_equal(hs_query_hits_circle(ok, unit, (hs_semantics)-1), HS_E_RANGE);
    assert_memory_equal(&h, &before, sizeof h);
}

static void invalid_circle_error_codes(void **state)
{
    (void)state;
    hs_query ok = hs_segment(v2(-2, 0), v2(2, 0));
    const struct {
        hs_circle c;
        int want;
    } cases[] = {
        {{NAN, 0, 1}, HS_E_NONFINITE},    {{0, INFINITY, 1}, HS_E_NONFINITE},
        {{0, 0, NAN}, HS_E_NONFINITE},    {{0, 0, INFINITY}, HS_E_NONFINITE},
        {{0, 0, -1.0f}, HS_E_NEG_RADIUS}, {{0, 0, -FLT_MIN}, HS_E_NEG_RADIUS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hs_hit h;
        hs_contact k;
        assert_int_equal(hs_circle_validate(cases[i].c), cases[i].want);
        assert_int_equal(hs_intersect_circle(ok, cases[i].c, HS_SOLID, &h), cases[i].want);
        assert_int_equal(hs_intersect_circle(ok, cases[i].c, HS_BOUNDARY, NULL), cases[i].want);
        assert_int_equal(hs_query_hits_circle(ok, cases[i].c, HS_SOLID), cases[i].want);
        assert_int_equal(hs_contact_circle(ok, cases[i].c, &k), cases[i].want);
    }
    assert_int_equal(hs_circle_validate(circ(0, 0, 0)), HS_OK);
    assert_int_equal(hs_circle_validate(circ(0, 0, -0.0f)), HS_OK);
}

static void builders(void **state)
{
    (void)state;
    hs_query s = hs_segment(v2(1, 2), v2(4, 6));
    assert_true(s.a.x == 1 && s.a.y == 2 && s.d.x == 3 && s.d.y == 4);
    assert_true(s.tmin == 0 && s.tmax == 1 && s.q == 0);
    hs_query r = hs_ray(v2(1, 2), v2(0, 5), INFINITY);
    assert_true(r.d.x == 0 && r.d.y == 5 && r.tmin == 0 && isinf(r.tmax) && r.tmax > 0);
    hs_query l = hs_line(v2(1, 2), v2(4, 6));
    assert_true(l.d.x == 3 && l.d.y == 4 && isinf(l.tmin) && l.tmin < 0 && isinf(l.tmax));
    hs_query c = hs_capsule(v2(1, 2), v2(4, 6), 0.5f);
    assert_true(c.d.x == 3 && c.tmin == 0 && c.tmax == 1 && c.q == 0.5f);
    hs_query t = hs_query_thick(l, 2.0f);
    assert_true(t.q == 2.0f && isinf(t.tmin));
    assert_int_equal(hs_query_validate(s), HS_OK);
    assert_int_equal(hs_query_validate(r), HS_OK);
    assert_int_equal(hs_query_validate(l), HS_OK);
    assert_int_equal(hs_query_validate(c), HS_OK);
    assert_int_equal(hs_query_validate(t), HS_OK);
}

/* Huge coordinates with a tiny radius: the robust form still hits what the float inputs say. */
/* r + q near 2e19 used to square to inf, and a far query then "hit" by inf <= inf: such
 * magnitudes are refused instead, and the largest accepted ones still answer correctly. */
static void out_of_range_magnitudes_refused(void **state)
{
    (void)state;
    hs_query far = hs_segment(v2(1e30f, 0), v2(1e30f, 1));
    assert_int_equal(hs_query_hits_circle(far, (hs_circle){0, 0, 2e19f}, HS_SOLID), HS_E_RANGE);
    assert_int_equal(hs_circle_validate((hs_circle){2e18f, 0, 1}), HS_E_RANGE);
    assert_int_equal(hs_query_validate(hs_capsule(v2(0, 0), v2(1, 0), 2e18f)), HS_E_RANGE);
    hs_query big = hs_segment(v2(-HS_MAX_COORD, 0), v2(HS_MAX_COORD, 0));
    hs_circle c = {HS_MAX_COORD, HS_MAX_COORD, HS_MAX_COORD};
    assert_int_equal(hs_query_hits_circle(big, c, HS_SOLID), 1);
    hs_query miss = hs_segment(v2(-HS_MAX_COORD, -HS_MAX_COORD), v2(HS_MAX_COORD, -HS_MAX_COORD));
    assert_int_equal(hs_query_hits_circle(miss, c, HS_SOLID), 0);
}

static void huge_coordinates_tiny_radius(void **state)
{
    (void)state;
    /* circle at (1e6, 1e6 + 0.5) radius 1e-3; a horizontal segment through its centre */
    hs_circle c = circ(1.0e6f, 1.0e6f + 0.5f, 1.0e-3f);
    hs_query q = hs_segment(v2(1.0e6f - 8.0f, 1.0e6f + 0.5f), v2(1.0e6f + 8.0f, 1.0e6f + 0.5f));
    expect_hit(q, c, HS_SOLID, 0.5 - 1.0e-3 / 16.0, 0.5 + 1.0e-3 / 16.0, 0u);
    /* one float step (0.0625) above: misses by 62 radii */
    hs_query q2 =
        hs_segment(v2(1.0e6f - 8.0f, 1.0e6f + 0.5625f), v2(1.0e6f + 8.0f, 1.0e6f + 0.5625f));
    expect_both_miss(q2, c);
    /* a long query (length 2e6) passing 0.5 from a circle: the answer is decided well outside
     * the tangency band (eps * 1e6 = 0.12, see test_accuracy.c) */
    hs_query q3 = hs_segment(v2(-1.0e6f, 0.5f), v2(1.0e6f, 0.5f));
    assert_int_equal(hs_query_hits_circle(q3, circ(0, 0, 1.0f), HS_SOLID), 1);
    assert_int_equal(hs_query_hits_circle(q3, circ(0, 0, 0.25f), HS_SOLID), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(impale),
        cmocka_unit_test(poke),
        cmocka_unit_test(exit_wound),
        cmocka_unit_test(fall_short),
        cmocka_unit_test(past),
        cmocka_unit_test(completely_inside),
        cmocka_unit_test(asteroid_behind_ship_ray_misses),
        cmocka_unit_test(line_hits_asteroid_behind),
        cmocka_unit_test(ray_hits_asteroid_ahead),
        cmocka_unit_test(centre_on_segment_contact),
        cmocka_unit_test(collision_response),
        cmocka_unit_test(zero_length_segment),
        cmocka_unit_test(line_p_equals_q),
        cmocka_unit_test(zero_length_query_interval),
        cmocka_unit_test(capsule_tangent_side),
        cmocka_unit_test(capsule_end_cap_and_inside),
        cmocka_unit_test(lines_and_infinite_rays),
        cmocka_unit_test(zero_radius_circle),
        cmocka_unit_test(inside_flag),
        cmocka_unit_test(normals_unit_and_outward_random),
        cmocka_unit_test(invalid_query_error_codes),
        cmocka_unit_test(invalid_circle_error_codes),
        cmocka_unit_test(builders),
        cmocka_unit_test(huge_coordinates_tiny_radius),
        cmocka_unit_test(out_of_range_magnitudes_refused),
    };
    return cmocka_run_group_tests_name("narrow", tests, NULL, NULL);
}
