/* SPDX-License-Identifier: MIT */
/* The distribution suite's scenes (hitscan/scene.h): each is what its documentation says beside
 * its twin, and on each the grid answers as brute force, bit for bit, in every mode at every ISA
 * level on 1 and 2 threads, and finds exactly the overlapping pairs of a double reference. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hitscan/hitscan.h"
#include "batch_check.h"
#include "scene_suite.h"
#include "test_util.h"

#define FIRST_SUITE ((int)HS_SCENE_OUTLIER)

static int quick;

typedef struct arrays {
    size_t n, m;
    float *x, *y, *r, *ax, *ay, *dx, *dy;
} arrays;

static void arrays_make(arrays *a, hs_scene_kind kind, size_t n, size_t m, uint64_t seed)
{
    a->n = n;
    a->m = m;
    a->x = xcalloc(n, 4);
    a->y = xcalloc(n, 4);
    a->r = xcalloc(n, 4);
    a->ax = xcalloc(m, 4);
    a->ay = xcalloc(m, 4);
    a->dx = xcalloc(m, 4);
    a->dy = xcalloc(m, 4);
    assert_int_equal(hs_scene_circles(kind, n, seed, a->x, a->y, a->r), HS_OK);
    assert_int_equal(hs_scene_segments(kind, n, m, seed + 1, a->ax, a->ay, a->dx, a->dy), HS_OK);
}

static void arrays_free(arrays *a)
{
    free(a->x);
    free(a->y);
    free(a->r);
    free(a->ax);
    free(a->ay);
    free(a->dx);
    free(a->dy);
}

static void test_names_and_twins(void **state)
{
    (void)state;
    for (int k = 0; k < (int)HS_SCENE_COUNT_; k++) {
        const hs_scene_kind kind = (hs_scene_kind)k;
        assert_int_equal(hs_scene_kind_from_name(hs_scene_kind_name(kind)), kind);
        const hs_scene_kind twin = hs_scene_twin(kind);
        if (twin != HS_SCENE_INVALID) /* a twin is a plain scene of its own */
            assert_int_equal(hs_scene_twin(twin), HS_SCENE_INVALID);
    }
    assert_int_equal(hs_scene_kind_from_name("twoclusters_near"), HS_SCENE_TWOCLUSTERS_NEAR);
    assert_int_equal(hs_scene_kind_from_name("point"), HS_SCENE_POINT);
    assert_int_equal(hs_scene_twin(HS_SCENE_OUTLIER), HS_SCENE_UNIFORM);
    assert_int_equal(hs_scene_twin(HS_SCENE_TWOCLUSTERS), HS_SCENE_TWOCLUSTERS_NEAR);
    assert_int_equal(hs_scene_twin(HS_SCENE_BLOB), HS_SCENE_BLOB_ALONE);
    assert_int_equal(hs_scene_twin(HS_SCENE_FILAMENT), HS_SCENE_FILAMENT_AXIS);
    assert_int_equal(hs_scene_twin(HS_SCENE_POWERLAW), HS_SCENE_CLUSTERED);
    assert_int_equal(hs_scene_twin(HS_SCENE_POINT), HS_SCENE_INVALID);
    assert_int_equal(hs_scene_twin(HS_SCENE_INVALID), HS_SCENE_INVALID);
    assert_string_equal(hs_scene_kind_name(HS_SCENE_COUNT_), "?");
    float v = 0.0f;
    assert_int_equal(hs_scene_circles(HS_SCENE_COUNT_, 1, 1, &v, &v, &v), HS_E_RANGE);
    assert_int_equal(hs_scene_segments(HS_SCENE_COUNT_, 1, 1, 1, &v, &v, &v, &v), HS_E_RANGE);
    assert_int_equal(hs_scene_circles(HS_SCENE_BLOB, 3, 1, NULL, &v, &v), HS_E_NULL);
}

/* Every suite scene: reproducible, inside its world (outlier's last circle at its place). */
static void test_shapes(void **state)
{
    (void)state;
    const size_t n = 20000, m = 4000;
    for (int k = FIRST_SUITE; k < (int)HS_SCENE_COUNT_; k++) {
        const hs_scene_kind kind = (hs_scene_kind)k;
        arrays a, b;
        arrays_make(&a, kind, n, m, 42u);
        arrays_make(&b, kind, n, m, 42u);
        assert_memory_equal(a.x, b.x, n * 4);
        assert_memory_equal(a.y, b.y, n * 4);
        assert_memory_equal(a.r, b.r, n * 4);
        assert_memory_equal(a.ax, b.ax, m * 4);
        assert_memory_equal(a.dy, b.dy, m * 4);
        const float side = hs_scene_world_side(kind, n);
        for (size_t i = 0; i < n; i++) {
            if (kind == HS_SCENE_OUTLIER && i == n - 1) {
                assert_true(a.x[i] == HS_SCENE_OUTLIER_AT && a.y[i] == HS_SCENE_OUTLIER_AT);
                continue;
            }
            if (!(a.x[i] >= 0.0f && a.x[i] <= side && a.y[i] >= 0.0f && a.y[i] <= side))
                fail_msg("%s: circle %zu at (%g, %g) outside [0, %g]^2", hs_scene_kind_name(kind),
                         i, (double)a.x[i], (double)a.y[i], (double)side);
            assert_true(a.r[i] > 0.0f && a.r[i] <= 1.5f);
        }
        for (size_t i = 0; i < m; i++) {
            const double len = hypot(a.dx[i], a.dy[i]);
            assert_true(len > 0.1 && len <= 50.001);
        }
        arrays_free(&a);
        arrays_free(&b);
    }
}

/* What makes a scene its twin's: the same draws, put elsewhere. */
static void test_twins_share_draws(void **state)
{
    (void)state;
    const size_t n = 10000, m = 3000;
    arrays s, t;
    /* outlier: uniform but the last circle, the same segments */
    arrays_make(&s, HS_SCENE_OUTLIER, n, m, 5u);
    arrays_make(&t, HS_SCENE_UNIFORM, n, m, 5u);
    assert_memory_equal(s.x, t.x, (n - 1) * 4);
    assert_memory_equal(s.y, t.y, (n - 1) * 4);
    assert_memory_equal(s.r, t.r, n * 4);
    assert_memory_equal(s.ax, t.ax, m * 4);
    assert_memory_equal(s.dy, t.dy, m * 4);
    arrays_free(&s);
    arrays_free(&t);
    /* powerlaw: clustered's segments; cluster c drawn with probability 1 / ((c + 1)^2 S),
     * S = 1 + 1/4 + ... + 1/64^2, its sigma clustered's times sqrt(64 p_c) */
    arrays_make(&s, HS_SCENE_POWERLAW, n, m, 5u);
    arrays_make(&t, HS_SCENE_CLUSTERED, n, m, 5u);
    assert_memory_equal(s.ax, t.ax, m * 4);
    assert_memory_equal(s.dx, t.dx, m * 4);
    double total = 0.0;
    for (int c = 1; c <= HS_SUITE_CLUSTERS; c++)
        total += 1.0 / ((double)c * c);
    size_t count[HS_SUITE_CLUSTERS] = {0};
    const size_t draws = 200000;
    rng_state = 77;
    for (size_t i = 0; i < draws; i++) {
        double f;
        const int c = hs_suite_powerlaw_cluster(rnd(), &f);
        assert_true(c >= 0 && c < HS_SUITE_CLUSTERS);
        const double p = 1.0 / ((double)(c + 1) * (c + 1)) / total;
        assert_true(fabs(f - sqrt(64.0 * p)) < 1e-12);
        count[c]++;
    }
    for (int c = 0; c < 4; c++) {
        const double p = 1.0 / ((double)(c + 1) * (c + 1)) / total;
        assert_true(fabs((double)count[c] / (double)draws - p) < 0.01);
    }
    arrays_free(&s);
    arrays_free(&t);
    /* blob: blob_alone but the wide one in 200, the same radii there, blob-sized segments */
    arrays_make(&s, HS_SCENE_BLOB, n, m, 5u);
    arrays_make(&t, HS_SCENE_BLOB_ALONE, n, m, 5u);
    size_t wide = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 200 == 0) {
            wide++;
            assert_true(s.r[i] >= 0.5f && t.r[i] <= 0.075f);
            continue;
        }
        assert_true(s.x[i] == t.x[i] && s.y[i] == t.y[i] && s.r[i] == t.r[i]);
        assert_true(s.r[i] >= 0.025f && s.r[i] <= 0.075f);
    }
    assert_int_equal(wide, (n + 199) / 200);
    size_t same = 0;
    for (size_t i = 0; i < m; i++)
        same += s.ax[i] == t.ax[i] && s.dx[i] == t.dx[i];
    assert_true(same > m - m / 50 && same < m); /* the 0.5 % of starts in the wide world */
    arrays_free(&s);
    arrays_free(&t);
    /* twoclusters: twoclusters_near with the odd circles moved from (side, 0) to (1e6, 1e6) */
    arrays_make(&s, HS_SCENE_TWOCLUSTERS, n, m, 5u);
    arrays_make(&t, HS_SCENE_TWOCLUSTERS_NEAR, n, m, 5u);
    const double half = 0.5 * hs_scene_world_side(HS_SCENE_TWOCLUSTERS_NEAR, n);
    for (size_t i = 0; i < n; i++) {
        const double ox = i & 1 ? 1e6 - half : 0.0, oy = i & 1 ? 1e6 : 0.0;
        assert_true(fabs(s.x[i] - (t.x[i] + ox)) <= 0.07 && fabs(s.y[i] - (t.y[i] + oy)) <= 0.07);
        assert_true(s.r[i] == t.r[i]);
    }
    assert_memory_equal(s.dx, t.dx, m * 4);
    arrays_free(&s);
    arrays_free(&t);
    /* filament: filament_axis turned by 45 degrees about (0, 20), moved up, segments as well */
    arrays_make(&s, HS_SCENE_FILAMENT, n, m, 5u);
    arrays_make(&t, HS_SCENE_FILAMENT_AXIS, n, m, 5u);
    const double h = sqrt(0.5), tol = 1e-3 * (double)hs_scene_world_side(HS_SCENE_FILAMENT, n);
    for (size_t i = 0; i < n; i++) {
        const double x = (t.x[i] - t.y[i] + 20.0) * h, y = (t.x[i] + t.y[i]) * h;
        assert_true(fabs(s.x[i] - x) <= tol && fabs(s.y[i] - y) <= tol && s.r[i] == t.r[i]);
    }
    for (size_t i = 0; i < m; i++) {
        const double dx = (t.dx[i] - t.dy[i]) * h, dy = (t.dx[i] + t.dy[i]) * h;
        assert_true(fabs(s.dx[i] - dx) <= 1e-4 && fabs(s.dy[i] - dy) <= 1e-4);
    }
    arrays_free(&s);
    arrays_free(&t);
    /* point: every circle at one place with r = 1 */
    arrays_make(&s, HS_SCENE_POINT, n, m, 5u);
    for (size_t i = 0; i < n; i++)
        assert_true(s.x[i] == s.x[0] && s.y[i] == s.y[0] && s.r[i] == 1.0f);
    arrays_free(&s);
}

/* Grid against brute force (batch_check.h: every level, every mode, the double reference) and
 * pairs against the O(N^2) double reference, on 1 and 2 threads. */
static void test_grid_equals_brute(void **state)
{
    (void)state;
    /* under emulation smaller still: its long double reference is software there */
    const size_t n = quick ? (test_emulated() ? 600 : 1500) : 4000,
                 m = quick ? (test_emulated() ? 100 : 200) : 500;
    for (int k = FIRST_SUITE; k < (int)HS_SCENE_COUNT_; k++) {
        const hs_scene_kind kind = (hs_scene_kind)k;
        arrays a;
        arrays_make(&a, kind, n, m, 7u + (uint64_t)k);
        hs_circles *cs = NULL;
        assert_int_equal(hs_circles_create(a.x, a.y, a.r, NULL, n, &cs, NULL), HS_OK);
        for (int th = 1; th <= 2; th++) {
            hs_grid_opts go = {.cell_size = 0.0f, .threads = th};
            hs_grid *g = NULL;
            assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
            for (int sem = HS_SOLID; sem <= HS_BOUNDARY; sem++) {
                bc_input in = {a.x,
                               a.y,
                               a.r,
                               NULL,
                               n,
                               hs_queries_segments(a.ax, a.ay, a.dx, a.dy, m),
                               (hs_semantics)sem,
                               0.0f,
                               th,
                               NULL};
                char msg[512];
                if (bc_check_grid(&in, cs, g, msg, sizeof msg))
                    fail_msg("%s, %d thread(s), semantics %d: %s", hs_scene_kind_name(kind), th,
                             sem, msg);
            }
            char msg[512];
            if (bc_check_pairs(a.x, a.y, a.r, n, g, th, msg, sizeof msg))
                fail_msg("%s, %d thread(s): %s", hs_scene_kind_name(kind), th, msg);
            hs_grid_destroy(g);
        }
        hs_circles_destroy(cs);
        arrays_free(&a);
    }
}

/* Queries grazing the outermost circles of two clusters far apart (two levels): each block of
 * them lies outside its circles' level, within reach of one circle, so the block walk must not
 * set the level aside (hs_block_level_apart); some graze just inside, some just outside. */
static void test_grazing_level_edges(void **state)
{
    (void)state;
    const size_t per = 2000, n = 2 * per, m = 4 * 64;
    float *x = xcalloc(n, 4), *y = xcalloc(n, 4), *r = xcalloc(n, 4);
    for (size_t i = 0; i < n; i++) {
        const float off = i < per ? 0.0f : 10000.0f;
        x[i] = off + unif(0.0f, 100.0f);
        y[i] = off + unif(0.0f, 100.0f);
        r[i] = 1.5f;
    }
    /* the circles at the smallest and largest x of each cluster */
    size_t edge[4] = {0, 0, per, per};
    for (size_t i = 0; i < n; i++) {
        const int c = i < per ? 0 : 2;
        edge[c] = x[i] < x[edge[c]] ? i : edge[c];
        edge[c + 1] = x[i] > x[edge[c + 1]] ? i : edge[c + 1];
    }
    float *ax = xcalloc(m, 4), *ay = xcalloc(m, 4), *dx = xcalloc(m, 4), *dy = xcalloc(m, 4);
    for (size_t k = 0; k < m; k++) {
        const size_t e = edge[k / 64];
        const float side = (k / 64) % 2 ? 1.0f : -1.0f; /* left of the leftmost, right of ... */
        /* a vertical segment at 0.9 .. 1.1 times the radius from the centre */
        const float f = 0.9f + 0.2f * (float)(k % 64) / 63.0f;
        ax[k] = x[e] + side * f * r[e];
        ay[k] = y[e] - 1.0f;
        dx[k] = 0.0f;
        dy[k] = 2.0f;
    }
    hs_circles *cs = NULL;
    assert_int_equal(hs_circles_create(x, y, r, NULL, n, &cs, NULL), HS_OK);
    hs_grid *g = NULL;
    const hs_grid_opts go = {.cell_size = 0.0f, .threads = 1};
    assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
    bc_input in = {x,        y,    r, NULL, n, hs_queries_segments(ax, ay, dx, dy, m),
                   HS_SOLID, 0.0f, 1, NULL};
    char msg[512];
    if (bc_check_grid(&in, cs, g, msg, sizeof msg))
        fail_msg("%s", msg);
    /* the queries do hit: half of them, the ones within the radius */
    uint8_t *hit = xcalloc(m, 1);
    hs_batch_opts bo = {.threads = 1};
    assert_int_equal(hs_grid_any(g, &in.qs, &bo, hit), HS_OK);
    size_t nh = 0;
    for (size_t k = 0; k < m; k++)
        nh += hit[k];
    assert_true(nh > m / 3 && nh < m - m / 3);
    free(hit);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    free(x);
    free(y);
    free(r);
    free(ax);
    free(ay);
    free(dx);
    free(dy);
}

int main(void)
{
    quick = test_quick();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_twins),     cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_twins_share_draws),   cmocka_unit_test(test_grid_equals_brute),
        cmocka_unit_test(test_grazing_level_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
