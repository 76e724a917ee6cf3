/* SPDX-License-Identifier: MIT */
/* Tests for periodic boxes (hs_grid_opts.periodic): pairs, cutoff pairs, their shifts and
 * contacts against every pair tested under the minimum image in double; swept pairs against
 * the segment test of each pair's touching image; the wrap of the centres; pairs that touch
 * only across an edge or a corner; thread counts; the box's errors. */
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
#include "periodic_ref.h"

static int quick;
static size_t scale(size_t full) { return quick ? (full / 4 > 8 ? full / 4 : 8) : full; }

static hs_pairs run_pairs(const hs_grid *g, float skin, unsigned outputs, int threads)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    const hs_pair_opts po = {skin, outputs};
    hs_pairs p;
    assert_int_equal(hs_grid_pairs_ex(g, &po, &o, &p), HS_OK);
    return p;
}

/* Every pair i < j against p, in (i, j) order: within ri + rj + skin under the minimum image,
 * with its shift and contact bit for bit. Returns how many cross an edge. */
static size_t check_pairs(const pbox *b, double skin, const hs_pairs *p)
{
    const size_t n = b->s.n;
    const float *r = b->s.r;
    size_t k = 0, across = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double ex, ey;
            int sx, sy;
            ref_image(b, i, j, &ex, &ey, &sx, &sy);
            const double R = ((double)r[i] + (double)r[j]) + skin;
            const int want = ex * ex + ey * ey <= R * R;
            const int got = k < p->count && p->i[k] == i && p->j[k] == j;
            if (want != got)
                fail_msg("pair (%zu, %zu): reported %d, reference %d (shift %d %d)", i, j, got,
                         want, sx, sy);
            if (!got)
                continue;
            if (p->sx) {
                assert_int_equal(p->sx[k], sx);
                assert_int_equal(p->sy[k], sy);
            }
            if (p->nx) {
                const double d = sqrt(ex * ex + ey * ey);
                assert_true(p->distance[k] == (float)d);
                assert_true(p->gap[k] == (float)(d - ((double)r[i] + (double)r[j])));
                assert_true(p->nx[k] == (d > 0.0 ? (float)(ex / d) : 1.0f));
                assert_true(p->ny[k] == (d > 0.0 ? (float)(ey / d) : 0.0f));
            }
            across += (size_t)(sx != 0 || sy != 0);
            k++;
        }
    if (k != p->count)
        fail_msg("pair %zu of %zu out of (i, j) order or repeated", k, p->count);
    return across;
}

static void assert_pairs_equal(const hs_pairs *a, const hs_pairs *b)
{
    assert_int_equal(a->count, b->count);
    if (a->count == 0)
        return;
    assert_memory_equal(a->i, b->i, a->count * sizeof *a->i);
    assert_memory_equal(a->j, b->j, a->count * sizeof *a->j);
    if (a->sx && b->sx) {
        assert_memory_equal(a->sx, b->sx, a->count);
        assert_memory_equal(a->sy, b->sy, a->count);
    }
    if (a->nx && b->nx) {
        assert_memory_equal(a->nx, b->nx, a->count * sizeof(float));
        assert_memory_equal(a->ny, b->ny, a->count * sizeof(float));
        assert_memory_equal(a->distance, b->distance, a->count * sizeof(float));
        assert_memory_equal(a->gap, b->gap, a->count * sizeof(float));
    }
}

/* Random boxes periodic in x, y, both and neither (a plain grid), circles near the edges and
 * corners and outside the box, a big level, with and without skin: the reference's pairs,
 * shifts and contacts; the same pairs without the outputs, on 1 and 3 threads. */
static void test_pairs_match_reference(void **state)
{
    (void)state;
    const unsigned axes[4] = {HS_PERIODIC_X, HS_PERIODIC_Y, HS_PERIODIC_XY, 0u};
    const double skins[2] = {0.0, 0.75};
    for (int c = 0; c < 16; c++) {
        pbox b;
        pbox_make(&b, axes[c % 4], scale(3000), 100u + (uint64_t)c, 2.0, c % 2 ? 9.0 : 2.0, 0.3,
                  0.1);
        pbox_build(&b, c % 2 ? 2 : 1);
        const float skin = (float)skins[(c / 4) % 2];
        hs_pairs p = run_pairs(b.g, skin, HS_PAIRS_SHIFTS | HS_PAIRS_CONTACTS, 0);
        const size_t across = check_pairs(&b, skin, &p);
        print_message("axes %u skin %.2f: %zu pairs, %zu across an edge\n", b.axes, (double)skin,
                      p.count, across);
        assert_true(b.axes ? across > 0 && across < p.count : across == 0);
        for (int t = 1; t <= 3; t += 2) {
            hs_pairs q = run_pairs(b.g, skin, t == 1 ? 0u : HS_PAIRS_CONTACTS, t);
            assert_null(q.sx);
            assert_true(t == 1 ? q.nx == NULL : q.nx != NULL);
            assert_pairs_equal(&q, &p);
            hs_pairs_free(&q);
        }
        hs_pairs plain;
        hs_batch_opts o = hs_batch_opts_default();
        assert_int_equal(hs_grid_pairs_within(b.g, skin, &o, &plain), HS_OK);
        assert_pairs_equal(&plain, &p);
        hs_pairs_free(&plain);
        hs_pairs_free(&p);
        pbox_free(&b);
    }
}

/* Circles given outside the box give the pairs of those wrapped by grid.h's formula. */
static void test_wrap(void **state)
{
    (void)state;
    pbox b;
    pbox_make(&b, HS_PERIODIC_XY, scale(2000), 7u, 2.5, 2.5, 0.2, 0.5);
    pbox_build(&b, 0);
    pbox w = b;
    w.s.x = b.wx;
    w.s.y = b.wy;
    w.s.cs = NULL;
    w.g = NULL;
    const hs_grid_opts o = pbox_opts(&b, 0);
    assert_int_equal(hs_circles_create(b.wx, b.wy, b.s.r, NULL, b.s.n, &w.s.cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(w.s.cs, &o, &w.g), HS_OK);
    hs_pairs p = run_pairs(b.g, 0.0f, HS_PAIRS_SHIFTS | HS_PAIRS_CONTACTS, 2);
    hs_pairs q = run_pairs(w.g, 0.0f, HS_PAIRS_SHIFTS | HS_PAIRS_CONTACTS, 2);
    assert_pairs_equal(&p, &q);
    check_pairs(&b, 0.0, &p);
    hs_pairs_free(&p);
    hs_pairs_free(&q);
    hs_grid_destroy(w.g);
    hs_circles_destroy(w.s.cs);
    /* the edge cases of the formula: the upper edge becomes the lower one */
    assert_true(ref_wrap(16.0f, 0.0, 16.0) == 0.0f);
    assert_true(ref_wrap(-16.0f, 0.0, 16.0) == 0.0f);
    assert_true(ref_wrap(-1e-9f, 0.0, 16.0) == 0.0f); /* 16 - 1e-9 rounds to 16 */
    assert_true(ref_wrap(33.5f, 0.0, 16.0) == 1.5f);
    pbox_free(&b);
}

/* Build a small periodic grid over (x, y, r) in the box [0, 16) x [0, 8). */
static hs_grid *small_grid(const float *x, const float *y, const float *r, size_t n, unsigned axes)
{
    hs_grid_opts o = {.cell_size = 0.0f, .threads = 1, .periodic = axes};
    o.box.max.x = 16.0f;
    o.box.max.y = 8.0f;
    hs_circles *cs;
    hs_grid *g;
    assert_int_equal(hs_circles_create(x, y, r, NULL, n, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, &o, &g), HS_OK);
    hs_circles_destroy(cs);
    return g;
}

/* Pairs that touch only across an edge, exactly (touching counts), or across a corner; and
 * none across an axis that is not periodic. */
static void test_across_edges(void **state)
{
    (void)state;
    /* 0-1: across x, touching exactly (15.5 + 0.5 - 16 = 0.5 - 0.5 + ...: distance 1);
     * 2-3: across the corner (0, 0) / (16, 8); 4-5: apart by 0.25 across y */
    const float x[6] = {0.5f, 15.5f, 0.25f, 15.75f, 8.0f, 8.0f};
    const float y[6] = {4.0f, 4.0f, 0.25f, 7.75f, 0.5f, 7.25f};
    const float r[6] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    hs_grid *g = small_grid(x, y, r, 6, HS_PERIODIC_XY);
    hs_pairs p = run_pairs(g, 0.0f, HS_PAIRS_SHIFTS | HS_PAIRS_CONTACTS, 1);
    assert_int_equal(p.count, 2);
    assert_true(p.i[0] == 0 && p.j[0] == 1 && p.sx[0] == -1 && p.sy[0] == 0);
    assert_true(p.distance[0] == 1.0f && p.gap[0] == 0.0f && p.nx[0] == -1.0f);
    assert_true(p.i[1] == 2 && p.j[1] == 3 && p.sx[1] == -1 && p.sy[1] == -1);
    hs_pairs_free(&p);
    /* with a skin of 0.25 the pair across y joins; in x only, it does not */
    p = run_pairs(g, 0.25f, HS_PAIRS_SHIFTS, 1);
    assert_int_equal(p.count, 3);
    assert_true(p.i[2] == 4 && p.j[2] == 5 && p.sx[2] == 0 && p.sy[2] == -1);
    hs_pairs_free(&p);
    hs_grid_destroy(g);
    g = small_grid(x, y, r, 6, HS_PERIODIC_X);
    p = run_pairs(g, 0.25f, HS_PAIRS_SHIFTS, 1);
    assert_int_equal(p.count, 1);
    assert_true(p.i[0] == 0 && p.j[0] == 1 && p.sx[0] == -1 && p.sy[0] == 0);
    hs_pairs_free(&p);
    hs_aabb box;
    assert_int_equal(hs_grid_periodic(g, &box), HS_PERIODIC_X);
    assert_true(box.min.x == 0.0f && box.max.x == 16.0f && box.max.y == 8.0f);
    hs_grid_destroy(g);
}

/* The reference of a swept pair in a box: the image of j whose circle i touches in the step,
 * tested as hs_grid_swept_pairs tests it (touching at t = 0 in double, else the segment query
 * against j, or for an image across an edge in the image's frame: from the separation in
 * double rounded once, against a circle at the origin); at most one image touches. */
typedef struct sw_ref {
    int hit, sx, sy, overlapping;
    float t;
} sw_ref;

static sw_ref swept_reference(const pbox *b, const float *dx, const float *dy, size_t i, size_t j)
{
    sw_ref f = {0, 0, 0, 0, 0.0f};
    const float *r = b->s.r;
    for (int sy = -1; sy <= 1; sy++)
        for (int sx = -1; sx <= 1; sx++) {
            if ((sx && b->L[0] == 0.0) || (sy && b->L[1] == 0.0))
                continue;
            const double ex = ((double)b->wx[j] - b->wx[i]) + sx * b->L[0];
            const double ey = ((double)b->wy[j] - b->wy[i]) + sy * b->L[1];
            const double R = (double)r[i] + r[j];
            const int ov = ex * ex + ey * ey <= R * R;
            float t = 0.0f;
            if (!ov) {
                const int across = sx || sy;
                const hs_query q = {
                    {across ? (float)-ex : b->wx[i], across ? (float)-ey : b->wy[i]},
                    {dx[i] - dx[j], dy[i] - dy[j]},
                    0.0f,
                    1.0f,
                    0.0f};
                const hs_circle c = {across ? 0.0f : b->wx[j], across ? 0.0f : b->wy[j],
                                     r[i] + r[j]};
                hs_hit h;
                if (hs_intersect_circle(q, c, HS_SOLID, &h) != 1)
                    continue;
                t = h.t;
            }
            assert_false(f.hit); /* one image at most */
            f = (sw_ref){1, sx, sy, ov, t};
        }
    return f;
}

/* Swept pairs in random boxes, with a few fast movers, against the reference; zero
 * displacements give the periodic pairs. */
static void test_swept(void **state)
{
    (void)state;
    const unsigned axes[3] = {HS_PERIODIC_XY, HS_PERIODIC_X, HS_PERIODIC_Y};
    for (int c = 0; c < 6; c++) {
        pbox b;
        const size_t n = scale(2500);
        pbox_make(&b, axes[c % 3], n, 300u + (uint64_t)c, 1.5, 9.0, 0.3, 0.05); /* big level */
        pbox_build(&b, 0);
        float *dx = xcalloc(n, sizeof(float)), *dy = xcalloc(n, sizeof(float));
        for (size_t i = 0; i < n; i++) {
            const double a = 6.283185307179586 * urand();
            double len = urand() < (c < 3 ? 0.02 : 0.3) ? 12.0 : 1.5 * urand() + 1e-3;
            len = b.s.r[i] > 1.5f ? 0.75 : len; /* the big ones slow: within half a period */
            dx[i] = (float)(len * cos(a));
            dy[i] = (float)(len * sin(a));
        }
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = 1 + c % 2;
        hs_swept_pairs p;
        assert_int_equal(hs_grid_swept_pairs(b.g, dx, dy, &o, &p), HS_OK);
        assert_non_null(p.sx);
        size_t k = 0, across = 0, fast_across = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                const sw_ref f = swept_reference(&b, dx, dy, i, j);
                const int got = k < p.count && p.i[k] == i && p.j[k] == j;
                if (got != f.hit)
                    fail_msg("pair (%zu, %zu): reported %d, reference %d", i, j, got, f.hit);
                if (!got)
                    continue;
                assert_int_equal(p.sx[k], f.sx);
                assert_int_equal(p.sy[k], f.sy);
                assert_int_equal(p.overlapping[k], f.overlapping);
                assert_true(memcmp(&p.t[k], &f.t, sizeof f.t) == 0);
                across += (size_t)(f.sx || f.sy);
                fast_across += (size_t)((f.sx || f.sy) && dx[i] * dx[i] + dy[i] * dy[i] > 100.0f &&
                                        dx[j] * dx[j] + dy[j] * dy[j] > 100.0f);
                k++;
            }
        assert_int_equal(k, p.count);
        print_message("swept, axes %u: %zu pairs, %zu across an edge (%zu of two fast ones)\n",
                      b.axes, p.count, across, fast_across);
        assert_true(across > 0);
        hs_swept_pairs_free(&p);
        /* zero displacement: the periodic pairs, overlapping, t = 0 */
        memset(dx, 0, n * sizeof *dx);
        memset(dy, 0, n * sizeof *dy);
        assert_int_equal(hs_grid_swept_pairs(b.g, dx, dy, &o, &p), HS_OK);
        hs_pairs q = run_pairs(b.g, 0.0f, HS_PAIRS_SHIFTS, 1);
        assert_int_equal(p.count, q.count);
        assert_memory_equal(p.i, q.i, q.count * sizeof *q.i);
        assert_memory_equal(p.j, q.j, q.count * sizeof *q.j);
        assert_memory_equal(p.sx, q.sx, q.count);
        assert_memory_equal(p.sy, q.sy, q.count);
        for (size_t m = 0; m < p.count; m++)
            assert_true(p.t[m] == 0.0f && p.overlapping[m] == 1);
        hs_pairs_free(&q);
        hs_swept_pairs_free(&p);
        free(dx);
        free(dy);
        pbox_free(&b);
    }
}

/* Two small discs close to each other across an edge of a box whose period is not a round
 * float: their first contact comes from the separation in double, as contacts do. Rounding
 * the image's centre to float beside the period (an ulp of 233 is 1.5e-5) moved t by up to
 * 15 % here. */
static void test_swept_time_across_edge_in_double(void **state)
{
    (void)state;
    const float L = 233.35438537597656f, r = 1e-5f;
    double worst = 0.0;
    for (int k = 0; k < 64; k++)
        for (int axis = 0; axis < 2; axis++) {
            /* along the axis: i just below the edge at L moving towards it, j just above 0 */
            const float along[2] = {L - (float)(1e-4 + 1e-6 * k), (float)(2.1e-5 + 3e-7 * k)};
            const float across[2] = {100.0f, 100.0f}, rr[2] = {r, r}, v[2] = {2e-4f, 0.0f};
            const float still[2] = {0.0f, 0.0f};
            const float *x = axis == 0 ? along : across, *y = axis == 0 ? across : along;
            const float *dx = axis == 0 ? v : still, *dy = axis == 0 ? still : v;
            hs_grid_opts o = {.cell_size = 0.0f, .threads = 1, .periodic = HS_PERIODIC_XY};
            o.box.max.x = L;
            o.box.max.y = L;
            hs_circles *cs;
            hs_grid *g;
            assert_int_equal(hs_circles_create(x, y, rr, NULL, 2, &cs, NULL), HS_OK);
            assert_int_equal(hs_grid_build(cs, &o, &g), HS_OK);
            hs_swept_pairs p;
            assert_int_equal(hs_grid_swept_pairs(g, dx, dy, NULL, &p), HS_OK);
            assert_int_equal(p.count, 1);
            /* the gap along the axis, in double, closed at 2e-4 per step */
            const double sep = ((double)along[1] + (double)L) - (double)along[0];
            const double t = (sep - 2.0 * (double)r) / (double)v[0];
            assert_true(t > 0.0 && t < 1.0);
            assert_int_equal(axis == 0 ? p.sx[0] : p.sy[0], 1);
            const double e = fabs((double)p.t[0] - t) / t;
            worst = e > worst ? e : worst;
            hs_swept_pairs_free(&p);
            hs_grid_destroy(g);
            hs_circles_destroy(cs);
        }
    print_message("swept across an edge: worst relative error of t %.3g\n", worst);
    assert_true(worst < 1e-4);
}

/* Two circles crossing the edge head-on: they meet across it, at the segment test's time. */
static void test_swept_across_edge(void **state)
{
    (void)state;
    const float x[2] = {1.0f, 15.0f}, y[2] = {4.0f, 4.0f}, r[2] = {0.25f, 0.25f};
    const float dx[2] = {-1.5f, 1.5f}, dy[2] = {0.0f, 0.0f};
    hs_grid *g = small_grid(x, y, r, 2, HS_PERIODIC_X);
    hs_swept_pairs p;
    assert_int_equal(hs_grid_swept_pairs(g, dx, dy, NULL, &p), HS_OK);
    assert_int_equal(p.count, 1);
    /* 2 apart, closing at 3 per step, touching at 0.5 apart: t = 0.5 */
    assert_true(p.i[0] == 0 && p.j[0] == 1 && p.sx[0] == -1 && p.sy[0] == 0);
    assert_true(fabsf(p.t[0] - 0.5f) < 1e-6f && p.nx[0] == -1.0f && p.overlapping[0] == 0);
    hs_swept_pairs_free(&p);
    hs_grid_destroy(g);
}

/* Bad boxes, circles the box refuses (the grid unchanged on a rebuild), reaches of half a
 * period, and options. */
static void test_errors(void **state)
{
    (void)state;
    const float x[3] = {1.0f, 5.0f, 9.0f}, y[3] = {1.0f, 2.0f, 3.0f}, r[3] = {1.0f, 1.0f, 1.0f};
    hs_circles *cs;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 3, &cs, NULL), HS_OK);
    hs_grid_opts o = {.cell_size = 0.0f, .threads = 1, .periodic = HS_PERIODIC_XY};
    o.box.max.x = 16.0f;
    o.box.max.y = 8.0f;
    hs_grid *g = NULL;
    const struct {
        float x0, y0, x1, y1, cell;
        unsigned axes;
        hs_status want;
    } bad[] = {
        {0.0f, 0.0f, 0.0f, 8.0f, 0.0f, HS_PERIODIC_XY, HS_E_RANGE}, /* empty period */
        {0.0f, 0.0f, 16.0f, NAN, 0.0f, HS_PERIODIC_X, HS_E_RANGE},  /* NaN */
        {0.0f, 0.0f, 2e18f, 8.0f, 0.0f, HS_PERIODIC_X, HS_E_RANGE}, /* beyond HS_MAX_COORD */
        {0.0f, 0.0f, 16.0f, 8.0f, 0.0f, 4u, HS_E_RANGE},            /* no such axis */
        {0.0f, 0.0f, 16.0f, 8.0f, 8.5f, HS_PERIODIC_X, HS_E_BOX},   /* fewer than two cells */
        {0.0f, 0.0f, 16.0f, 2.5f, 0.0f, HS_PERIODIC_X, HS_E_BOX},   /* y = 3 outside */
        {0.0f, 0.0f, 16.0f, 3.9f, 0.0f, HS_PERIODIC_XY, HS_E_BOX},  /* 2 r >= half of 3.9 */
        {0.0f, 0.0f, 4.0f, 3.0f, 0.0f, HS_PERIODIC_XY, HS_E_BOX},   /* exactly a quarter */
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        hs_grid_opts b = o;
        b.box.min.x = bad[c].x0;
        b.box.min.y = bad[c].y0;
        b.box.max.x = bad[c].x1;
        b.box.max.y = bad[c].y1;
        b.cell_size = bad[c].cell;
        b.periodic = bad[c].axes;
        assert_int_equal(hs_grid_build(cs, &b, &g), bad[c].want);
        assert_null(g);
    }
    assert_int_equal(hs_grid_build(cs, &o, &g), HS_OK);
    hs_pairs before = run_pairs(g, 0.0f, HS_PAIRS_SHIFTS, 1);
    /* a rebuild the box refuses leaves the grid as it was, and names the circle */
    const float big[3] = {1.0f, 2.0f, 1.0f}, far_y[3] = {1.0f, 2.0f, -3.0f};
    size_t bad_index = 0;
    assert_int_equal(hs_grid_rebuild_from(g, x, y, big, NULL, 3, &bad_index), HS_E_BOX);
    assert_int_equal(bad_index, 1);
    assert_int_equal(hs_grid_rebuild_from(g, x, far_y, r, NULL, 3, &bad_index), HS_OK);
    const float nan_r[3] = {1.0f, 1.0f, NAN};
    assert_int_equal(hs_grid_rebuild_from(g, x, y, nan_r, NULL, 3, &bad_index), HS_E_NONFINITE);
    assert_int_equal(bad_index, 2);
    assert_int_equal(hs_grid_rebuild_from(g, x, y, r, NULL, 3, &bad_index), HS_OK);
    hs_pairs after = run_pairs(g, 0.0f, HS_PAIRS_SHIFTS, 1);
    assert_pairs_equal(&before, &after);
    hs_pairs_free(&before);
    hs_pairs_free(&after);
    /* the reach: 2 r + skin must stay below half the smaller period, 4 */
    hs_pairs p;
    hs_pair_opts po = {1.9f, 0u};
    assert_int_equal(hs_grid_pairs_ex(g, &po, NULL, &p), HS_OK);
    hs_pairs_free(&p);
    po.skin = 2.0f;
    assert_int_equal(hs_grid_pairs_ex(g, &po, NULL, &p), HS_E_BOX);
    assert_int_equal(p.count, 0);
    assert_null(p.i);
    po.skin = 0.0f;
    po.outputs = 4u;
    assert_int_equal(hs_grid_pairs_ex(g, &po, NULL, &p), HS_E_RANGE);
    /* swept: the diameter plus the displacement */
    const float dx[3] = {0.0f, 1.5f, 0.0f}, dy[3] = {0.0f, 0.0f, 0.0f}, fast[3] = {0, 2.5f, 0};
    hs_swept_pairs sp;
    assert_int_equal(hs_grid_swept_pairs(g, dx, dy, NULL, &sp), HS_OK);
    hs_swept_pairs_free(&sp);
    assert_int_equal(hs_grid_swept_pairs(g, fast, dy, NULL, &sp), HS_E_BOX);
    assert_int_equal(sp.count, 0);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

int main(void)
{
    quick = test_quick();
    printf("test_periodic: %s scale\n", quick ? "quick (HS_TEST_QUICK or sanitizers)" : "full");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_match_reference),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_across_edges),
        cmocka_unit_test(test_swept),
        cmocka_unit_test(test_swept_across_edge),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_swept_time_across_edge_in_double),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
