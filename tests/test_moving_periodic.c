/* SPDX-License-Identifier: MIT */
/* Tests for queries against moving circles in a periodic box (hs_batch_opts.disp_x / disp_y on
 * a grid with hs_grid_opts.periodic): every mode against an O(N M) reference in double over
 * the images of the box (the first t in [0, 1] at which the query point lies in an image of
 * the moving disc; a circle met through two images counts twice, as standing ones do), the
 * modes against each other, a circle that crosses the box's edge, the same answers as
 * without the box when nothing comes near an edge, every level and thread count alike, and
 * rays refused. Tolerance: as test_moving.c, a disagreement must lie in the tangency band. */
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
#include "test_util.h"

#define BAND 256.0
#define T_TOL 1e-4

/* The first t in [0, 1] with |a + t (d - di) - c| <= R, or -1 (test_moving.c's reference). */
static double ref_entry(double ax, double ay, double dx, double dy, double cx, double cy, double R)
{
    const double fx = ax - cx, fy = ay - cy;
    const double A = dx * dx + dy * dy, B = fx * dx + fy * dy, C = fx * fx + fy * fy - R * R;
    if (C <= 0.0)
        return 0.0;
    if (A == 0.0)
        return -1.0;
    const double disc = B * B - A * C;
    if (disc < 0.0)
        return -1.0;
    const double t = (-B - sqrt(disc)) / A;
    return t >= 0.0 && t <= 1.0 ? t : -1.0;
}

/* How far (relative to the pair's magnitude) the query passes from touching the image. */
static double ref_gap(double ax, double ay, double dx, double dy, double cx, double cy, double R)
{
    const double fx = ax - cx, fy = ay - cy, A = dx * dx + dy * dy;
    double t = A > 0.0 ? -(fx * dx + fy * dy) / A : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    const double px = fx + t * dx, py = fy + t * dy;
    const double mag = fabs(ax) + fabs(ay) + fabs(cx) + fabs(cy) + R + sqrt(A);
    return fabs(sqrt(px * px + py * py) - R) / mag;
}

typedef struct pscene {
    size_t n, m;
    float L;
    float *x, *y, *r, *ddx, *ddy, *ax, *ay, *dx, *dy;
    hs_circles *cs;
    hs_grid *g;
    hs_queries qs;
} pscene;

/* n circles in the box [0, L)^2 moving up to dmax, m segments up to len long from around it. */
static void ps_make(pscene *p, size_t n, size_t m, float L, float dmax, float len)
{
    p->n = n;
    p->m = m;
    p->L = L;
    float **arrs[] = {&p->x, &p->y, &p->r, &p->ddx, &p->ddy};
    for (size_t k = 0; k < 5; k++)
        *arrs[k] = xcalloc(n, sizeof(float));
    float **qa[] = {&p->ax, &p->ay, &p->dx, &p->dy};
    for (size_t k = 0; k < 4; k++)
        *qa[k] = xcalloc(m, sizeof(float));
    for (size_t j = 0; j < n; j++) {
        p->x[j] = frange(0, L * 0.999f);
        p->y[j] = frange(0, L * 0.999f);
        p->r[j] = frange(0.3, 1.5);
        p->ddx[j] = frange(-dmax, dmax);
        p->ddy[j] = frange(-dmax, dmax);
    }
    for (size_t i = 0; i < m; i++) {
        p->ax[i] = frange(-0.2 * L, 1.2 * L);
        p->ay[i] = frange(-0.2 * L, 1.2 * L);
        p->dx[i] = frange(-len, len);
        p->dy[i] = frange(-len, len);
    }
    assert_int_equal(hs_circles_create(p->x, p->y, p->r, NULL, n, &p->cs, NULL), HS_OK);
    hs_grid_opts o = {.periodic = HS_PERIODIC_XY};
    o.box.max.x = L;
    o.box.max.y = L;
    assert_int_equal(hs_grid_build(p->cs, &o, &p->g), HS_OK);
    p->qs = hs_queries_segments(p->ax, p->ay, p->dx, p->dy, m);
}

static void ps_free(pscene *p)
{
    hs_grid_destroy(p->g);
    hs_circles_destroy(p->cs);
    float *f[] = {p->x, p->y, p->r, p->ddx, p->ddy, p->ax, p->ay, p->dx, p->dy};
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        free(f[k]);
}

static hs_batch_opts ps_opts(const pscene *p, hs_isa isa, int threads)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.isa = isa;
    o.threads = threads;
    o.disp_x = p->ddx;
    o.disp_y = p->ddy;
    return o;
}

/* Every mode against the reference over the images, and against each other. */
static void test_reference(void **state)
{
    (void)state;
    pscene p;
    ps_make(&p, test_quick() ? 300 : 900, test_quick() ? 300 : 700, 30.0f, 2.0f, 10.0f);
    const size_t m = p.m, n = p.n;
    hs_batch_opts o = ps_opts(&p, HS_ISA_AUTO, 2);
    uint32_t *idx = xcalloc(m, 4), *cnt = xcalloc(m, 4);
    float *t = xcalloc(m, 4);
    uint8_t *any = xcalloc(m, 1);
    assert_int_equal(hs_grid_closest(p.g, &p.qs, &o, (hs_closest_out){.idx = idx, .t = t}), HS_OK);
    assert_int_equal(hs_grid_count_hits(p.g, &p.qs, &o, cnt), HS_OK);
    assert_int_equal(hs_grid_any(p.g, &p.qs, &o, any), HS_OK);
    hs_hits all;
    assert_int_equal(hs_grid_all(p.g, &p.qs, &o, &all), HS_OK);
    size_t total = 0, outside = 0;
    for (size_t i = 0; i < m; i++) {
        size_t ref_n = 0, band = 0, got_n = all.offsets[i + 1] - all.offsets[i];
        double best = INFINITY;
        for (size_t j = 0; j < n; j++)
            for (int sx = -2; sx <= 2; sx++)
                for (int sy = -2; sy <= 2; sy++) {
                    const double cx = p.x[j] + sx * (double)p.L, cy = p.y[j] + sy * (double)p.L;
                    const double ddx = (double)p.dx[i] - p.ddx[j], ddy = (double)p.dy[i] - p.ddy[j];
                    const double R = p.r[j];
                    band += ref_gap(p.ax[i], p.ay[i], ddx, ddy, cx, cy, R) <= BAND * 0x1p-24;
                    const double te = ref_entry(p.ax[i], p.ay[i], ddx, ddy, cx, cy, R);
                    if (te < 0.0)
                        continue;
                    ref_n++;
                    outside += sx != 0 || sy != 0;
                    best = te < best ? te : best;
                }
        total += ref_n;
        /* the count may differ from the reference's only by pairs in the tangency band */
        assert_true(got_n <= ref_n + band && ref_n <= got_n + band);
        assert_int_equal(cnt[i], got_n);
        assert_int_equal(any[i], got_n != 0);
        if (got_n == 0) {
            assert_int_equal(idx[i], HS_NONE);
            continue;
        }
        assert_int_equal(idx[i], all.idx[all.offsets[i]]);
        assert_true(t[i] == all.t[all.offsets[i]]);
        if (isfinite(best) && band == 0)
            assert_true(fabs((double)t[i] - best) <= T_TOL);
    }
    print_message("moving periodic: %zu reference hits, %zu through an image\n", total, outside);
    assert_true(total > m / 4 && outside > total / 20);
    hs_hits_free(&all);
    free(idx);
    free(cnt);
    free(t);
    free(any);
    ps_free(&p);
}

/* A circle just left of the right edge moving right crosses it: a query just right of the
 * left edge meets its image halfway, and no query meets it without the motion. */
static void test_across_the_edge(void **state)
{
    (void)state;
    const float x[] = {19.0f, 10.0f}, y[] = {5.0f, 15.0f}, r[] = {0.5f, 0.5f};
    const float ddx[] = {4.0f, 0.0f}, ddy[] = {0.0f, 0.0f};
    hs_circles *cs;
    hs_grid *g;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 2, &cs, NULL), HS_OK);
    hs_grid_opts go = {.periodic = HS_PERIODIC_XY};
    go.box.max.x = 20.0f;
    go.box.max.y = 20.0f;
    assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
    /* the query stands at (1, 2) -> (1, 8): the circle's image is at x = -1 + 4 t, y = 5 */
    const float ax = 1.0f, ay = 2.0f, dx = 0.0f, dy = 6.0f;
    const hs_queries qs = hs_queries_segments(&ax, &ay, &dx, &dy, 1);
    uint32_t idx, cnt;
    float t;
    hs_batch_opts o = hs_batch_opts_default();
    assert_int_equal(hs_grid_closest(g, &qs, &o, (hs_closest_out){.idx = &idx, .t = &t}), HS_OK);
    assert_int_equal(idx, HS_NONE);
    o.disp_x = ddx;
    o.disp_y = ddy;
    assert_int_equal(hs_grid_closest(g, &qs, &o, (hs_closest_out){.idx = &idx, .t = &t}), HS_OK);
    assert_int_equal(idx, 0);
    /* |(1, 2 + 6t) - (-1 + 4t, 5)| = 0.5: (2 - 4t)^2 + (6t - 3)^2 = 0.25 */
    const double A = 52.0, B = -2.0 * (8.0 + 18.0), C = 4.0 + 9.0 - 0.25;
    const double te = (-B - sqrt(B * B - 4.0 * A * C)) / (2.0 * A);
    assert_true(fabs(t - te) < 1e-5);
    assert_int_equal(hs_grid_count_hits(g, &qs, &o, &cnt), HS_OK);
    assert_int_equal(cnt, 1);
    /* a ray has no finite interval: invalid against moving circles */
    const hs_queries rq = {.ax = &ax,
                           .ay = &ay,
                           .dx = &dx,
                           .dy = &dy,
                           .count = 1,
                           .tmax_all = INFINITY,
                           .mask_all = ~0u};
    assert_int_equal(hs_grid_count_hits(g, &rq, &o, &cnt), HS_E_INVALID_QUERY);
    assert_int_equal(cnt, 0);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

/* Far from the edges, the box changes nothing: the answers of the same circles without it. */
static void test_inside_as_without_box(void **state)
{
    (void)state;
    const size_t n = 800, m = 600;
    float *x = xcalloc(n, 4), *y = xcalloc(n, 4), *r = xcalloc(n, 4), *ddx = xcalloc(n, 4),
          *ddy = xcalloc(n, 4), *ax = xcalloc(m, 4), *ay = xcalloc(m, 4), *dx = xcalloc(m, 4),
          *dy = xcalloc(m, 4);
    for (size_t j = 0; j < n; j++) {
        x[j] = frange(40, 60);
        y[j] = frange(40, 60);
        r[j] = frange(0.2, 0.8);
        ddx[j] = frange(-1, 1);
        ddy[j] = frange(-1, 1);
    }
    for (size_t i = 0; i < m; i++) {
        ax[i] = frange(42, 58);
        ay[i] = frange(42, 58);
        dx[i] = frange(-3, 3);
        dy[i] = frange(-3, 3);
    }
    hs_circles *cs;
    hs_grid *gp, *g0;
    assert_int_equal(hs_circles_create(x, y, r, NULL, n, &cs, NULL), HS_OK);
    hs_grid_opts go = {.periodic = HS_PERIODIC_XY};
    go.box.max.x = 100.0f;
    go.box.max.y = 100.0f;
    assert_int_equal(hs_grid_build(cs, &go, &gp), HS_OK);
    assert_int_equal(hs_grid_build(cs, NULL, &g0), HS_OK);
    const hs_queries qs = hs_queries_segments(ax, ay, dx, dy, m);
    uint32_t *i0 = xcalloc(m, 4), *i1 = xcalloc(m, 4);
    float *t0 = xcalloc(m, 4), *t1 = xcalloc(m, 4), *p0 = xcalloc(4 * m, 4),
          *p1 = xcalloc(4 * m, 4);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        hs_batch_opts o = hs_batch_opts_default();
        o.isa = (hs_isa)isa;
        o.threads = 1 + isa % 2;
        o.disp_x = ddx;
        o.disp_y = ddy;
        const hs_closest_out c0 = {i0, t0, p0, p0 + m, p0 + 2 * m, p0 + 3 * m, NULL};
        const hs_closest_out c1 = {i1, t1, p1, p1 + m, p1 + 2 * m, p1 + 3 * m, NULL};
        assert_int_equal(hs_grid_closest(g0, &qs, &o, c0), HS_OK);
        assert_int_equal(hs_grid_closest(gp, &qs, &o, c1), HS_OK);
        assert_memory_equal(i0, i1, m * 4);
        assert_memory_equal(t0, t1, m * 4);
        assert_memory_equal(p0, p1, 4 * m * 4);
        hs_hits a0, a1;
        assert_int_equal(hs_grid_all(g0, &qs, &o, &a0), HS_OK);
        assert_int_equal(hs_grid_all(gp, &qs, &o, &a1), HS_OK);
        assert_hits_equal(&a1, &a0);
        assert_true(a0.offsets[m] > m / 4);
        hs_hits_free(&a0);
        hs_hits_free(&a1);
    }
    hs_grid_destroy(gp);
    hs_grid_destroy(g0);
    hs_circles_destroy(cs);
    void *bufs[] = {x, y, r, ddx, ddy, ax, ay, dx, dy, i0, i1, t0, t1, p0, p1};
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
        free(bufs[k]);
}

/* Every level and thread count gives the same bytes. */
static void test_levels_and_threads(void **state)
{
    (void)state;
    pscene p;
    ps_make(&p, 1500, 800, 40.0f, 1.5f, 12.0f);
    const size_t m = p.m;
    uint32_t *i0 = xcalloc(m, 4), *i1 = xcalloc(m, 4);
    float *t0 = xcalloc(m, 4), *t1 = xcalloc(m, 4);
    hs_batch_opts o = ps_opts(&p, HS_ISA_SCALAR, 1);
    assert_int_equal(hs_grid_closest(p.g, &p.qs, &o, (hs_closest_out){.idx = i0, .t = t0}), HS_OK);
    hs_hits a0;
    assert_int_equal(hs_grid_all(p.g, &p.qs, &o, &a0), HS_OK);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        for (int th = 1; th <= 3; th += 2) {
            o = ps_opts(&p, (hs_isa)isa, th);
            assert_int_equal(hs_grid_closest(p.g, &p.qs, &o, (hs_closest_out){.idx = i1, .t = t1}),
                             HS_OK);
            assert_memory_equal(i0, i1, m * 4);
            assert_memory_equal(t0, t1, m * 4);
            hs_hits a1;
            assert_int_equal(hs_grid_all(p.g, &p.qs, &o, &a1), HS_OK);
            assert_hits_equal(&a1, &a0);
            hs_hits_free(&a1);
        }
    }
    hs_hits_free(&a0);
    free(i0);
    free(i1);
    free(t0);
    free(t1);
    ps_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference),
        cmocka_unit_test(test_across_the_edge),
        cmocka_unit_test(test_inside_as_without_box),
        cmocka_unit_test(test_levels_and_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
