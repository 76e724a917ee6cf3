/* SPDX-License-Identifier: MIT */
/* The accepted range at its edges: huge and tiny scenes through every call, engine and ISA level.
 */
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

#include "batch_check.h"
#include "hitscan/hitscan.h"
#include "test_util.h"

#define MAXC HS_MAX_COORD

static void assert_unit(hs_vec2 n)
{
    assert_true(isfinite(n.x) && isfinite(n.y));
    assert_true(fabsf(hypotf(n.x, n.y) - 1.0f) < 1e-6f);
}

/* |d| (r + q) far above 1.8e19: the entry time used to come from sqrt(|d|^2 disc), which
 * overflowed to +inf and clamped the entry to the query's start (or -inf for lines). */
static void test_entry_time_with_huge_product(void **state)
{
    (void)state;
    hs_circle c = {0.0f, 0.0f, 10.0f};
    hs_hit h;
    hs_query seg = hs_segment((hs_vec2){-MAXC, 0.0f}, (hs_vec2){MAXC, 0.0f});
    assert_int_equal(hs_query_validate(seg), HS_OK);
    assert_int_equal(hs_intersect_circle(seg, c, HS_SOLID, &h), 1);
    assert_true(fabsf(h.t - 0.5f) <= 1e-6f);
    assert_true(fabsf(h.t_exit - 0.5f) <= 1e-6f);
    assert_true(fabsf(h.point.x) <= 1e12f && h.point.y == 0.0f); /* one ulp of 1e18 is 1.1e11 */
    assert_unit(h.normal);
    assert_int_equal(h.flags, 0);

    hs_query line = hs_line((hs_vec2){-MAXC, 0.0f}, (hs_vec2){MAXC, 0.0f});
    assert_int_equal(hs_intersect_circle(line, c, HS_SOLID, &h), 1);
    assert_true(fabsf(h.t - 0.5f) <= 1e-6f && isfinite(h.t_exit));
    assert_unit(h.normal);
    assert_int_equal(hs_intersect_circle(line, c, HS_BOUNDARY, &h), 1);
    assert_true(fabsf(h.t - 0.5f) <= 1e-6f);
    assert_unit(h.normal);

    /* the largest direction validation accepts, with radius and thickness at the limit */
    hs_query ray = hs_ray((hs_vec2){-MAXC, -MAXC}, (hs_vec2){1.8e19f, 0.0f}, INFINITY);
    ray.q = MAXC;
    assert_int_equal(hs_query_validate(ray), HS_OK);
    hs_circle big = {MAXC, MAXC, MAXC};
    assert_int_equal(hs_intersect_circle(ray, big, HS_SOLID, &h), 1);
    /* touches where x = 1e18 (t = 2e18 / 1.8e19), the rims meeting from below */
    assert_true(fabs((double)h.t - 2.0 / 18.0) <= 1e-6);
    assert_unit(h.normal);
    hs_contact ct;
    assert_int_equal(hs_contact_circle(ray, big, &ct), 1);
    assert_true(isfinite(ct.t) && isfinite(ct.distance) && isfinite(ct.depth));

    /* the smallest direction: |d|^2 just above FLT_MIN */
    hs_query tiny = hs_ray((hs_vec2){-1.0f, 0.0f}, (hs_vec2){1.1e-19f, 0.0f}, INFINITY);
    assert_int_equal(hs_query_validate(tiny), HS_OK);
    assert_int_equal(hs_intersect_circle(tiny, (hs_circle){0.0f, 0.0f, 0.5f}, HS_SOLID, &h), 1);
    assert_true(fabs((double)h.t * 1.1e-19 - 0.5) <= 1e-6);
}

/* A valid query whose interval lies far past the float range (tmin = tmax = FLT_MAX): its
 * closest point overflows to infinities, and the contact normal used to come out NaN (found
 * by fuzz_scalar). The direction of the overflowed vector is kept. */
static void test_contact_normal_past_the_float_range(void **state)
{
    (void)state;
    hs_query q = {{-0.25f, -0.25f}, {-11.75f, 11.75f}, FLT_MAX, FLT_MAX, 1.0f};
    assert_int_equal(hs_query_validate(q), HS_OK);
    hs_contact ct;
    assert_int_equal(hs_contact_circle(q, (hs_circle){0.0f, 0.0f, 0.0f}, &ct), 0);
    assert_unit(ct.normal);
    assert_true(ct.normal.x > 0.7f && ct.normal.y < -0.7f); /* from P(t) back towards the centre */
    assert_true(ct.depth < 0.0f);
}

/* Coordinates, radii and directions drawn across the whole accepted range. */
static float wide(int emax)
{
    if (irand(60) == 0) /* now and then beyond the limit: refused, or answered as a miss */
        return ldexpf(unif(1.0f, 2.0f), 60 + (int)irand(67));
    switch (irand(6)) {
    case 0: return 0.0f;
    case 1: return (irand(2) ? 1.0f : -1.0f) * MAXC * (irand(4) ? 1.0f : unif(0.0f, 1.0f));
    case 2: return (irand(2) ? 1.0f : -1.0f) * ldexpf(1.0f, (int)irand(120) - 60);
    case 3: return unif(-10.0f, 10.0f);
    default:
        return (irand(2) ? 1.0f : -1.0f) * ldexpf(unif(1.0f, 2.0f), (int)irand((unsigned)emax));
    }
}

typedef struct limits_case {
    float x[24], y[24], r[24];
    uint32_t mask[24];
    float ax[40], ay[40], dx[40], dy[40], t0[40], t1[40], q[40];
    size_t n, m;
} limits_case;

static void fill_case(limits_case *c, double scale)
{
    c->n = 1 + irand(24);
    c->m = 1 + irand(40);
    for (size_t j = 0; j < c->n; j++) {
        if (scale > 0) {
            c->x[j] = (float)(scale * (urand() * 2 - 1));
            c->y[j] = (float)(scale * (urand() * 2 - 1));
            c->r[j] = irand(3) ? (float)(scale * urand() * 0.3) : 0.0f;
        } else {
            c->x[j] = wide(59);
            c->y[j] = wide(59);
            c->r[j] = fabsf(wide(59));
        }
        c->mask[j] = 1u << irand(4);
    }
    for (size_t i = 0; i < c->m; i++) {
        size_t j = irand((unsigned)c->n); /* aimed near a circle, or anywhere */
        if (scale > 0) {
            c->ax[i] = (float)(scale * (urand() * 2 - 1));
            c->ay[i] = (float)(scale * (urand() * 2 - 1));
            c->dx[i] = (float)((double)c->x[j] - c->ax[i]) * unif(0.5f, 2.5f);
            c->dy[i] = (float)((double)c->y[j] - c->ay[i]) * unif(0.5f, 2.5f);
            if (scale < 1e-30) { /* |d|^2 must be a normal float: a unit-size d, t scaled */
                double ex = (double)c->x[j] - c->ax[i], ey = (double)c->y[j] - c->ay[i];
                double e = hypot(ex, ey);
                if (!(e > 0.0))
                    ex = 1.0, ey = 0.0, e = 1.0;
                c->dx[i] = (float)(ex / e * unif(0.5f, 2.5f));
                c->dy[i] = (float)(ey / e * unif(0.5f, 2.5f));
            }
            c->q[i] = irand(3) ? 0.0f : (float)(scale * urand() * 0.1);
        } else {
            c->ax[i] = wide(59);
            c->ay[i] = wide(59);
            c->dx[i] = irand(2) ? wide(63) : (float)(((double)c->x[j] - c->ax[i]) * 1.5);
            c->dy[i] = irand(2) ? wide(63) : (float)(((double)c->y[j] - c->ay[i]) * 1.5);
            c->q[i] = irand(3) ? 0.0f : fabsf(wide(59));
        }
        switch (irand(6)) {
        case 5: /* zero length: the point at t0 */
            c->t0[i] = c->t1[i] = irand(2) ? 0.0f : unif(-1.0f, 1.0f);
            break;
        case 0:
            c->t0[i] = -INFINITY;
            c->t1[i] = INFINITY;
            break; /* line */
        case 1:
            c->t0[i] = 0.0f;
            c->t1[i] = INFINITY;
            break; /* ray */
        case 2:
            c->t0[i] = -unif(0.0f, 3.0f);
            c->t1[i] = unif(0.0f, 3.0f);
            break;
        default:
            c->t0[i] = 0.0f;
            c->t1[i] = 1.0f;
            break; /* segment */
        }
        if (scale > 0 && scale < 1e-30) { /* intervals of the scene's size along a unit d */
            c->t0[i] = isfinite(c->t0[i]) ? (float)(c->t0[i] * 4 * scale) : c->t0[i];
            c->t1[i] = isfinite(c->t1[i]) ? (float)(c->t1[i] * 4 * scale) : c->t1[i];
        }
    }
}

static void check_case(limits_case *c, hs_workspace *ws)
{
    hs_queries qs = hs_queries_segments(c->ax, c->ay, c->dx, c->dy, c->m);
    qs.tmin = c->t0;
    qs.tmax = c->t1;
    qs.q = c->q;
    char msg[512];
    for (int sem = 0; sem < 2; sem++) {
        if (irand(3) == 0)
            qs.mask_all = 1u << irand(4);
        bc_input in = {c->x, c->y, c->r, irand(2) ? c->mask : NULL, c->n, qs, (hs_semantics)sem,
                       0.0f, 1,    ws};
        if (bc_check(&in, msg, sizeof msg)) {
            fprintf(stderr, "limits case, %s semantics: %s\ncircles (x y r mask):\n",
                    sem ? "boundary" : "solid", msg);
            for (size_t j = 0; j < c->n; j++)
                fprintf(stderr, "  %zu: %a %a %a %u\n", j, (double)c->x[j], (double)c->y[j],
                        (double)c->r[j], in.mask ? c->mask[j] : ~0u);
            fprintf(stderr, "queries (ax ay dx dy tmin tmax q), mask_all %u:\n", qs.mask_all);
            for (size_t i = 0; i < c->m; i++)
                fprintf(stderr, "  %zu: %a %a %a %a %a %a %a\n", i, (double)c->ax[i],
                        (double)c->ay[i], (double)c->dx[i], (double)c->dy[i], (double)c->t0[i],
                        (double)c->t1[i], (double)c->q[i]);
            fail();
        }
    }
}

/* Every mode through brute force and the grid at every level, with and without a
 * workspace, against the scalar calls: the whole range, and scenes at 1e18 down to 1e-44
 * (cells below FLT_MIN, whose float inverse is infinite: the kernels' squared distances
 * underflow there, so every circle near the query is a hit and the walk must visit it). */
static void test_every_path_at_the_limits(void **state)
{
    (void)state;
    hs_workspace *ws = NULL;
    assert_int_equal(hs_workspace_create(&ws), HS_OK);
    const int cases = test_quick() ? 150 : 600;
    const double scales[] = {0.0, 1e18, 1e-30, 1e-19, 1.0, 1e-39, 1e-44};
    for (size_t s = 0; s < sizeof scales / sizeof *scales; s++) {
        rng_state = 0x11aa + s;
        for (int k = 0; k < cases; k++) {
            limits_case c;
            fill_case(&c, scales[s]);
            check_case(&c, ws);
        }
    }
    /* the reported segment, line and ray among others, through every path */
    limits_case c;
    memset(&c, 0, sizeof c);
    c.n = 2;
    c.x[1] = MAXC;
    c.y[1] = MAXC;
    c.r[0] = 10.0f;
    c.r[1] = MAXC;
    c.mask[0] = c.mask[1] = 1;
    c.m = 3;
    c.ax[0] = c.ax[1] = -MAXC;
    c.dx[0] = c.dx[1] = 2 * MAXC;
    c.t1[0] = 1.0f;
    c.t0[1] = -INFINITY;
    c.t1[1] = INFINITY;
    c.ax[2] = c.ay[2] = -MAXC;
    c.dx[2] = 1.8e19f;
    c.t1[2] = INFINITY;
    c.q[2] = MAXC;
    check_case(&c, ws);
    hs_workspace_destroy(ws);
}

/* A probe beyond HS_MAX_COORD is refused as a circle would be: its squared distances used to
 * overflow, and inf <= inf reported the circles at the origin. */
static void test_overlap_probe_beyond_the_limit(void **state)
{
    (void)state;
    float x[3] = {0.0f, 1.0f, -MAXC}, y[3] = {0.0f, 0.0f, MAXC}, r[3] = {1.0f, 0.0f, MAXC};
    hs_circles *cs;
    hs_grid *g;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 3, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    uint32_t idx[4];
    size_t found = 99;
    const hs_circle far[] = {
        {3e38f, 0.0f, 0.0f}, {0.0f, 1e19f, 0.0f}, {0.0f, 0.0f, 2e18f}, {-3e38f, 3e38f, 3e38f}};
    for (size_t k = 0; k < sizeof far / sizeof *far; k++) {
        found = 99;
        assert_int_equal(hs_grid_overlap_circle(g, far[k], ~0u, idx, 4, &found), HS_E_RANGE);
        assert_int_equal(found, 0);
    }
    char msg[256];
    const hs_circle edge[] = {{MAXC, MAXC, 0.0f},  {-MAXC, -MAXC, MAXC}, {0.0f, 0.0f, MAXC},
                              {MAXC, -MAXC, MAXC}, {-MAXC, MAXC, 0.0f},  {0.5f, 0.0f, 0.5f}};
    for (size_t k = 0; k < sizeof edge / sizeof *edge; k++)
        if (bc_check_overlap(x, y, r, NULL, 3, g, edge[k], ~0u, 4, msg, sizeof msg)) {
            fprintf(stderr, "%s\n", msg);
            fail();
        }
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

/* Points 1e-30 apart are apart: the squares of such separations underflow in float. */
static void test_tiny_separations_in_pairs_and_overlap(void **state)
{
    (void)state;
    float x[4] = {0.0f, 1e-30f, 5.0f, 5.0f + 2e-30f}, y[4] = {0.0f, 0.0f, 5.0f, 5.0f};
    float r[4] = {0.0f, 0.0f, 1e-30f, 1e-30f}; /* 2 and 3 touch exactly */
    hs_circles *cs;
    hs_grid *g;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 4, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    hs_pairs p;
    assert_int_equal(hs_grid_pairs(g, NULL, &p), HS_OK);
    assert_int_equal(p.count, 1);
    assert_int_equal(p.i[0], 2);
    assert_int_equal(p.j[0], 3);
    hs_pairs_free(&p);
    uint32_t idx[4];
    size_t found;
    assert_int_equal(hs_grid_overlap_circle(g, (hs_circle){0.0f, 0.0f, 0.0f}, ~0u, idx, 4, &found),
                     HS_OK);
    assert_int_equal(found, 1);
    assert_int_equal(idx[0], 0);
    assert_int_equal(
        hs_grid_overlap_circle(g, (hs_circle){5.0f + 1e-30f, 5.0f, 0.0f}, ~0u, idx, 4, &found),
        HS_OK);
    assert_int_equal(found, 2);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);

    /* random scenes at tiny and huge scales against brute force in double */
    char msg[256];
    rng_state = 0x7e57;
    for (int k = 0; k < (test_quick() ? 100 : 400); k++) {
        const double scale = k % 3 == 0 ? 1e-30 : k % 3 == 1 ? 1e18 : 1e-42;
        size_t n = 1 + irand(40);
        float xs[40], ys[40], rs[40];
        for (size_t j = 0; j < n; j++) {
            xs[j] = (float)(scale * (urand() * 2 - 1));
            ys[j] = irand(2) ? xs[j] : (float)(scale * (urand() * 2 - 1));
            rs[j] = irand(2) ? 0.0f : (float)(scale * urand());
        }
        if (n > 1 && irand(2)) /* an exact duplicate: distance 0 touches */
            xs[n - 1] = xs[0], ys[n - 1] = ys[0];
        assert_int_equal(hs_circles_create(xs, ys, rs, NULL, n, &cs, NULL), HS_OK);
        assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
        int bad = bc_check_pairs(xs, ys, rs, n, g, 1, msg, sizeof msg);
        for (int u = 0; u < 4 && !bad; u++) {
            hs_circle c = {xs[irand((unsigned)n)], ys[irand((unsigned)n)],
                           irand(2) ? 0.0f : (float)(scale * urand())};
            bad = bc_check_overlap(xs, ys, rs, NULL, n, g, c, ~0u, irand(3), msg, sizeof msg);
        }
        hs_grid_destroy(g);
        hs_circles_destroy(cs);
        if (bad) {
            fprintf(stderr, "scale %g, case %d: %s\n", scale, k, msg);
            fail();
        }
    }
}

/* All-hits by brute force on an empty set: no hit buffer is ever allocated, and clang's
 * UBSan reported the offset added to its NULL pointer. */
static void test_brute_all_on_an_empty_set(void **state)
{
    (void)state;
    float ax[300], ay[300], dx[300], dy[300];
    for (int i = 0; i < 300; i++)
        ax[i] = ay[i] = (float)i, dx[i] = 1.0f, dy[i] = 0.5f;
    hs_circles *cs;
    float none = 0.0f;
    assert_int_equal(hs_circles_create(&none, &none, &none, NULL, 0, &cs, NULL), HS_OK);
    hs_workspace *ws;
    assert_int_equal(hs_workspace_create(&ws), HS_OK);
    for (int with_ws = 0; with_ws < 2; with_ws++)
        for (size_t m = 0; m <= 300; m += 150) {
            hs_queries qs = hs_queries_segments(ax, ay, dx, dy, m);
            hs_batch_opts o = hs_batch_opts_default();
            o.ws = with_ws ? ws : NULL;
            hs_hits h;
            assert_int_equal(hs_brute_all(cs, &qs, &o, &h), HS_OK);
            assert_int_equal(h.count, m);
            assert_int_equal(h.total, 0);
            for (size_t i = 0; i <= m; i++)
                assert_int_equal(h.offsets[i], 0);
            hs_hits_free(&h);
        }
    hs_workspace_destroy(ws);
    hs_circles_destroy(cs);
}

/* A query whose |d|^2 underflows is refused on every path, as one whose |d|^2 is subnormal
 * (types.h: refused, never clamped to a point): brute force, the grid, a periodic box and
 * moving circles count it invalid and answer it as a miss; d = 0 exactly is a point query. */
static void test_tiny_direction_refused_everywhere(void **state)
{
    (void)state;
    const float cx[2] = {0.0f, 5.0f}, cy[2] = {0.0f, 5.0f}, cr[2] = {1.0f, 1.0f};
    hs_circles *cs;
    assert_int_equal(hs_circles_create(cx, cy, cr, NULL, 2, &cs, NULL), HS_OK);
    const float ax[4] = {0, 0, 0, 0}, ay[4] = {0, 0, 0, 0};
    const float dx[4] = {1e-20f, 1e-30f, 0.0f, 1.0f}, dy[4] = {0, 0, 0, 0};
    const hs_queries qs = hs_queries_segments(ax, ay, dx, dy, 4);
    const float zx[2] = {0.0f, 0.5f}, zy[2] = {0.0f, 0.0f};
    for (int path = 0; path < 4; path++) {
        hs_grid *g = NULL;
        hs_grid_opts go = {.cell_size = 0.0f, .threads = 1, .periodic = 0};
        if (path == 2) {
            go.periodic = HS_PERIODIC_XY;
            go.box = (hs_aabb){{-10.0f, -10.0f}, {10.0f, 10.0f}};
        }
        if (path > 0)
            assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
        hs_batch_stats st;
        hs_batch_opts o = hs_batch_opts_default();
        o.stats = &st;
        if (path == 3) {
            o.disp_x = zx;
            o.disp_y = zy;
        }
        uint32_t idx[4], cnt[4];
        float t[4];
        const hs_closest_out co = {.idx = idx, .t = t};
        const hs_status s = g ? hs_grid_closest(g, &qs, &o, co) : hs_brute_closest(cs, &qs, &o, co);
        assert_int_equal(s, HS_E_INVALID_QUERY);
        assert_int_equal(st.invalid, 2);
        assert_int_equal(st.first_invalid, 0);
        assert_int_equal(idx[0], HS_NONE);
        assert_int_equal(idx[1], HS_NONE);
        assert_int_equal(idx[2], 0); /* a point inside circle 0 */
        assert_int_equal(idx[3], 0);
        assert_int_equal(g ? hs_grid_count_hits(g, &qs, &o, cnt) : hs_brute_count(cs, &qs, &o, cnt),
                         HS_E_INVALID_QUERY);
        assert_int_equal(cnt[1], 0);
        assert_int_equal(st.invalid, 2);
        hs_grid_destroy(g);
    }
    hs_circles_destroy(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_time_with_huge_product),
        cmocka_unit_test(test_contact_normal_past_the_float_range),
        cmocka_unit_test(test_every_path_at_the_limits),
        cmocka_unit_test(test_overlap_probe_beyond_the_limit),
        cmocka_unit_test(test_tiny_separations_in_pairs_and_overlap),
        cmocka_unit_test(test_brute_all_on_an_empty_set),
        cmocka_unit_test(test_tiny_direction_refused_everywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
