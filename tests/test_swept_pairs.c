/* SPDX-License-Identifier: MIT */
/* Tests for hs_grid_swept_pairs (moving circles): the pairs against an O(N^2) reference in
 * double, the entry times against hs_intersect_circle bit for bit, zero displacement against
 * hs_grid_pairs, tunnelling, fast movers, thread counts and ISA levels, the range limits and
 * bad input.
 *
 * Tolerances, from the float arithmetic of the segment test (hs_intersect_circle):
 * - the pair set: a pair the reference and the library disagree on must lie in the tangency
 *   band, its closest approach within BAND_ULPS * 2^-24 of the pair's magnitude (its largest
 *   |coordinate|, r_i + r_j or |d_i - d_j| in the 1-norm) of touching;
 * - t: within T_ULPS * 2^-24 * magnitude / (normal approach speed) of the reference entry time
 *   (a rounding of the positions moves the contact by that much), and 1e-6 at least. */
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
#include "hitscan/scene.h"
#include "test_util.h"

#define BAND_ULPS 8.0
#define T_ULPS 8.0

static int quick;
static size_t scale(size_t full) { return quick ? (full / 4 > 8 ? full / 4 : 8) : full; }

/* Circles and their displacements, and the grid of the circles. */
typedef struct swept_scene {
    scene s;
    float *dx, *dy;
    hs_grid *g;
} swept_scene;

static void sw_alloc(swept_scene *w, size_t n)
{
    scene_alloc(&w->s, n);
    w->dx = xcalloc(n, sizeof(float));
    w->dy = xcalloc(n, sizeof(float));
    w->g = NULL;
}

static void sw_build(swept_scene *w)
{
    assert_int_equal(hs_circles_create(w->s.x, w->s.y, w->s.r, NULL, w->s.n, &w->s.cs, NULL),
                     HS_OK);
    assert_int_equal(hs_grid_build(w->s.cs, NULL, &w->g), HS_OK);
}

/* The grid again, after the circles changed. */
static void sw_rebuild(swept_scene *w)
{
    hs_grid_destroy(w->g);
    hs_circles_destroy(w->s.cs);
    w->s.cs = NULL;
    sw_build(w);
}

static void sw_free(swept_scene *w)
{
    hs_grid_destroy(w->g);
    scene_free(&w->s);
    free(w->dx);
    free(w->dy);
}

/* A scene of `kind` with its centres scaled by squeeze (denser), displacements of uniform
 * direction and length uniform in [0, mean radius]; a fraction `fast` of the circles moves
 * 20 mean radii instead. */
static void sw_scene(swept_scene *w, hs_scene_kind kind, size_t n, uint64_t seed, float squeeze,
                     double fast)
{
    sw_alloc(w, n);
    assert_int_equal(hs_scene_circles(kind, n, seed, w->s.x, w->s.y, w->s.r), HS_OK);
    double rsum = 0.0;
    for (size_t i = 0; i < n; i++) {
        w->s.x[i] *= squeeze;
        w->s.y[i] *= squeeze;
        rsum += w->s.r[i];
    }
    const double rmean = rsum / (double)n;
    rng_state = seed * 7919u + 1u;
    for (size_t i = 0; i < n; i++) {
        const double a = 6.283185307179586 * urand();
        const double len = urand() < fast ? 20.0 * rmean : rmean * urand();
        w->dx[i] = (float)(len * cos(a));
        w->dy[i] = (float)(len * sin(a));
    }
    sw_build(w);
}

/* Where pair (i, j) is in p (fails when it is not). */
static size_t find_pair(const hs_swept_pairs *p, uint32_t i, uint32_t j)
{
    size_t k = 0;
    while (k < p->count && !(p->i[k] == i && p->j[k] == j))
        k++;
    if (k == p->count)
        fail_msg("pair (%u, %u) not reported", i, j);
    return k;
}

static hs_swept_pairs sw_run(const swept_scene *w, int threads, hs_isa isa)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    o.isa = isa;
    hs_swept_pairs p;
    assert_int_equal(hs_grid_swept_pairs(w->g, w->dx, w->dy, &o, &p), HS_OK);
    return p;
}

/* ---- the reference ----------------------------------------------------------------------- */
typedef struct ref_pair {
    int hit;
    double t;     /* first contact */
    double gap;   /* closest approach over [0, 1] minus r_i + r_j: <= 0 touches */
    double speed; /* |n . (d_i - d_j)| at t, n the unit normal there */
    double mag;   /* the pair's magnitude: largest |coordinate|, r_i + r_j, |d_i - d_j|_1 */
} ref_pair;

static double maxd(double a, double b) { return a > b ? a : b; }

/* The reference for pair (i, j); a pair farther than the tangency band from touching only gets
 * hit = 0 and gap = +inf (most pairs of a scene: no square root for them). */
static ref_pair reference(const swept_scene *w, size_t i, size_t j)
{
    const float *x = w->s.x, *y = w->s.y, *r = w->s.r;
    const double fx = (double)x[i] - x[j], fy = (double)y[i] - y[j];
    const double Dx = (double)w->dx[i] - w->dx[j], Dy = (double)w->dy[i] - w->dy[j];
    const double R = (double)r[i] + r[j];
    const double a = Dx * Dx + Dy * Dy, b = fx * Dx + fy * Dy, c = fx * fx + fy * fy - R * R;
    ref_pair p;
    p.mag = maxd(maxd(maxd(fabs(x[i]), fabs(y[i])), maxd(fabs(x[j]), fabs(y[j]))),
                 maxd(R, fabs(Dx) + fabs(Dy)));
    double tc = a > 0.0 ? -b / a : 0.0;
    tc = tc < 0.0 ? 0.0 : tc > 1.0 ? 1.0 : tc;
    const double hx = fx + tc * Dx, hy = fy + tc * Dy, far = R + BAND_ULPS * 0x1p-24 * p.mag;
    p.hit = 0;
    p.gap = INFINITY;
    p.t = p.speed = 0.0;
    if (hx * hx + hy * hy > far * far)
        return p;
    p.gap = hypot(hx, hy) - R;
    p.hit = p.gap <= 0.0;
    if (c > 0.0 && p.hit) {
        const double disc = maxd(b * b - a * c, 0.0);
        p.t = c / (-b + sqrt(disc)); /* b < 0: approaching */
    }
    const double ex = fx + p.t * Dx, ey = fy + p.t * Dy, el = hypot(ex, ey);
    p.speed = el > 0.0 ? fabs(ex * Dx + ey * Dy) / el : sqrt(a);
    return p;
}

typedef struct check_stats {
    size_t ref_hits, got, band_misses, band_extra, t_checked, overlapping;
    double worst_t; /* largest |t - t_ref| over its tolerance */
} check_stats;

/* One reported pair: t and the normal against the reference and hs_intersect_circle. */
static void check_one(const swept_scene *w, const hs_swept_pairs *p, size_t k, const ref_pair *rf,
                      check_stats *st)
{
    const uint32_t i = p->i[k], j = p->j[k];
    const float t = p->t[k], nx = p->nx[k], ny = p->ny[k];
    const float *x = w->s.x, *y = w->s.y, *r = w->s.r;
    const int ov = (double)((double)x[i] - x[j]) * ((double)x[i] - x[j]) +
                       ((double)y[i] - y[j]) * ((double)y[i] - y[j]) <=
                   ((double)r[i] + r[j]) * ((double)r[i] + r[j]);
    assert_int_equal(p->overlapping[k], ov);
    st->overlapping += (size_t)ov;
    assert_true(t >= 0.0f && t <= 1.0f);
    if (ov)
        assert_true(t == 0.0f);
    /* unit, and from i towards j at t */
    assert_true(fabs(hypot(nx, ny) - 1.0) < 1e-6);
    const float Dx = w->dx[i] - w->dx[j], Dy = w->dy[i] - w->dy[j];
    const double vx = ((double)x[j] - x[i]) - (double)t * Dx,
                 vy = ((double)y[j] - y[i]) - (double)t * Dy;
    if (hypot(vx, vy) > 1e-3 * rf->mag)
        assert_true(nx * vx + ny * vy > 0.9 * hypot(vx, vy));
    /* the segment query's own answer, bit for bit */
    if (!ov && Dx * Dx + Dy * Dy >= FLT_MIN) {
        hs_query q = {{x[i], y[i]}, {Dx, Dy}, 0.0f, 1.0f, 0.0f};
        hs_circle c = {x[j], y[j], r[i] + r[j]};
        hs_hit h;
        assert_int_equal(hs_intersect_circle(q, c, HS_SOLID, &h), 1);
        if (memcmp(&h.t, &t, sizeof t) != 0 || h.normal.x != -nx || h.normal.y != -ny)
            fail_msg("pair (%u, %u): t %a normal (%a, %a), the segment query: t %a normal -(%a, "
                     "%a)",
                     i, j, (double)t, (double)nx, (double)ny, (double)h.t, (double)h.normal.x,
                     (double)h.normal.y);
    }
    if (rf->hit) {
        const double tol = maxd(1e-6, T_ULPS * 0x1p-24 * rf->mag / rf->speed);
        const double e = fabs((double)t - rf->t) / tol;
        st->worst_t = maxd(st->worst_t, e);
        st->t_checked++;
        if (e > 1.0)
            fail_msg("pair (%u, %u): t %.9g, reference %.9g (tolerance %.3g)", i, j, (double)t,
                     rf->t, tol);
    }
}

/* Every pair of the scene against the reference: p must hold the reference's pairs, in (i, j)
 * order, but for pairs in the tangency band. */
static check_stats check_reference(const swept_scene *w, const hs_swept_pairs *p)
{
    check_stats st;
    memset(&st, 0, sizeof st);
    st.got = p->count;
    size_t k = 0;
    const size_t n = w->s.n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const int reported = k < p->count && p->i[k] == i && p->j[k] == j;
            const ref_pair rf = reference(w, i, j);
            st.ref_hits += (size_t)rf.hit;
            if (reported != rf.hit) {
                if (!(fabs(rf.gap) <= BAND_ULPS * 0x1p-24 * rf.mag))
                    fail_msg("pair (%zu, %zu): reported %d, reference %d (gap %.3g, magnitude "
                             "%.3g)",
                             i, j, reported, rf.hit, rf.gap, rf.mag);
                *(reported ? &st.band_extra : &st.band_misses) += 1;
            }
            if (reported)
                check_one(w, p, k++, &rf, &st);
        }
    if (k != p->count)
        fail_msg("pair %zu (%u, %u) out of (i, j) order or repeated", k, p->i[k], p->j[k]);
    return st;
}

static void report(const char *what, const swept_scene *w, const check_stats *st)
{
    print_message("%-28s n %6zu: %7zu pairs (%zu overlapping at t = 0), reference %zu, "
                  "tangency band %zu missed %zu extra; t checked %zu, worst %.3f of tolerance\n",
                  what, w->s.n, st->got, st->overlapping, st->ref_hits, st->band_misses,
                  st->band_extra, st->t_checked, st->worst_t);
}

static void test_scenes_match_reference(void **state)
{
    (void)state;
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++) {
        swept_scene w;
        sw_scene(&w, (hs_scene_kind)kind, scale(3000), 11u + (uint64_t)kind, 0.3f, 0.0);
        hs_swept_pairs p = sw_run(&w, 0, HS_ISA_AUTO);
        const check_stats st = check_reference(&w, &p);
        report(hs_scene_kind_name((hs_scene_kind)kind), &w, &st);
        /* motion adds pairs: more than at t = 0, and the scene has contacts */
        assert_true(st.got > st.overlapping && st.overlapping > 0);
        hs_swept_pairs_free(&p);
        sw_free(&w);
    }
}

/* 1 % of the circles move 20 mean radii, among slow ones: they find their partners alone
 * (the slow ones' search does not grow with them), and pairs of two of them come from a search
 * of their own, so 5 % in a dense cluster (plenty of such pairs) too. Large enough for several
 * blocks of the search. */
static void test_fast_movers(void **state)
{
    (void)state;
    const struct {
        hs_scene_kind kind;
        size_t n;
        float squeeze;
        double fast;
        const char *name;
    } cases[] = {
        {HS_SCENE_MIXED, scale(3000), 0.5f, 0.01, "mixed, 1 % fast"},
        {HS_SCENE_UNIFORM, quick ? 6000 : 12000, 0.5f, 0.01, "uniform, 1 % fast"},
        {HS_SCENE_CLUSTERED, scale(4000), 0.3f, 0.05, "clustered, 5 % fast"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        swept_scene w;
        sw_scene(&w, cases[c].kind, cases[c].n, 40u + (uint64_t)c, cases[c].squeeze, cases[c].fast);
        hs_swept_pairs p = sw_run(&w, 0, HS_ISA_AUTO);
        const check_stats st = check_reference(&w, &p);
        report(cases[c].name, &w, &st);
        assert_true(st.got > st.overlapping);
        hs_swept_pairs_free(&p);
        sw_free(&w);
    }
}

/* Cells far wider than the circles, as a user's cell size or a cluster in a wide world makes
 * them: the search cuts the crowded cells into sub-cells, and a slow circle's search must still
 * meet the later circles in sub-cells below its own, in the cells to its right. */
static void test_crowded_cells(void **state)
{
    (void)state;
    swept_scene w;
    sw_scene(&w, HS_SCENE_UNIFORM, scale(3000), 77u, 0.3f, 0.01);
    hs_grid_destroy(w.g);
    const hs_grid_opts o = {.cell_size = 24.0f};
    assert_int_equal(hs_grid_build(w.s.cs, &o, &w.g), HS_OK);
    hs_swept_pairs p = sw_run(&w, 0, HS_ISA_AUTO);
    const check_stats st = check_reference(&w, &p);
    report("uniform, cells of 24", &w, &st);
    assert_true(st.got > st.overlapping && st.overlapping > 0);
    hs_swept_pairs_free(&p);
    sw_free(&w);
}

/* Zero displacement, and the same displacement for every circle, give hs_grid_pairs' pairs
 * with t = 0 and overlapping set; touching exactly counts. */
static void test_zero_displacement(void **state)
{
    (void)state;
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++) {
        swept_scene w;
        sw_scene(&w, (hs_scene_kind)kind, scale(4000), 60u + (uint64_t)kind, 0.3f, 0.0);
        /* a few exact contacts and coincident centres */
        w.s.x[1] = w.s.x[0] + w.s.r[0] + w.s.r[1];
        w.s.y[1] = w.s.y[0];
        w.s.x[3] = w.s.x[2];
        w.s.y[3] = w.s.y[2];
        sw_rebuild(&w);
        hs_pairs ref;
        assert_int_equal(hs_grid_pairs(w.g, NULL, &ref), HS_OK);
        assert_true(ref.count > 0);
        for (int same = 0; same < 2; same++) {
            for (size_t i = 0; i < w.s.n; i++) {
                w.dx[i] = same ? 3.25f : 0.0f;
                w.dy[i] = same ? -7.5f : 0.0f;
            }
            hs_swept_pairs p = sw_run(&w, 2, HS_ISA_AUTO);
            assert_int_equal(p.count, ref.count);
            assert_memory_equal(p.i, ref.i, ref.count * sizeof *ref.i);
            assert_memory_equal(p.j, ref.j, ref.count * sizeof *ref.j);
            for (size_t k = 0; k < p.count; k++) {
                assert_true(p.t[k] == 0.0f && p.overlapping[k] == 1);
                assert_true(fabs(hypot(p.nx[k], p.ny[k]) - 1.0) < 1e-6);
            }
            /* coincident centres without relative motion: (1, 0) */
            const size_t k = find_pair(&p, 2, 3);
            assert_true(p.nx[k] == 1.0f && p.ny[k] == 0.0f);
            hs_swept_pairs_free(&p);
        }
        hs_pairs_free(&ref);
        sw_free(&w);
    }
}

/* Two small fast circles passing through each other within the step (their positions at t = 0
 * and t = 1 overlap nothing) are found, with the entry time; among a field of slow ones. */
static void test_tunnelling(void **state)
{
    (void)state;
    swept_scene w;
    sw_scene(&w, HS_SCENE_UNIFORM, 2000, 70u, 1.0f, 0.0);
    const uint32_t a = 5, b = 9;
    const float side = hs_scene_world_side(HS_SCENE_UNIFORM, 2000);
    /* outside the field, so only the two meet: along y = side + 10 */
    w.s.x[a] = 0.0f, w.s.y[a] = side + 10.0f, w.s.r[a] = 0.1f;
    w.s.x[b] = 10.0f, w.s.y[b] = side + 10.0f, w.s.r[b] = 0.1f;
    w.dx[a] = 20.0f, w.dy[a] = 0.0f;
    w.dx[b] = -20.0f, w.dy[b] = 0.0f;
    sw_rebuild(&w);
    hs_swept_pairs p = sw_run(&w, 1, HS_ISA_AUTO);
    const size_t k = find_pair(&p, a, b);
    /* centres 10 apart close at 40 per step: contact at (10 - 0.2) / 40 */
    assert_true(fabs(p.t[k] - 9.8 / 40.0) < 1e-6);
    assert_int_equal(p.overlapping[k], 0);
    assert_true(p.nx[k] == 1.0f && p.ny[k] == 0.0f); /* b lies along +x from a */
    const check_stats st = check_reference(&w, &p);
    report("tunnelling", &w, &st);
    hs_swept_pairs_free(&p);

    /* head-on through coincident centres: at t = 0.5 they coincide; first contact earlier */
    swept_scene v;
    sw_alloc(&v, 2);
    v.s.x[0] = -1.0f, v.s.r[0] = 0.25f, v.dx[0] = 2.0f;
    v.s.x[1] = 1.0f, v.s.r[1] = 0.25f, v.dx[1] = -2.0f;
    sw_build(&v);
    p = sw_run(&v, 1, HS_ISA_AUTO);
    assert_int_equal(p.count, 1);
    assert_true(fabs(p.t[0] - 1.5 / 4.0) < 1e-6);
    assert_true(p.nx[0] == 1.0f && p.ny[0] == 0.0f);
    hs_swept_pairs_free(&p);
    /* overlapping at t = 0 with coincident centres: along the relative motion */
    v.s.x[1] = -1.0f;
    v.dx[1] = 0.0f, v.dy[1] = -3.0f;
    sw_rebuild(&v);
    p = sw_run(&v, 1, HS_ISA_AUTO);
    assert_int_equal(p.count, 1);
    assert_true(p.t[0] == 0.0f && p.overlapping[0] == 1);
    assert_true(fabs(p.nx[0] - 2.0 / sqrt(13.0)) < 1e-6 && fabs(p.ny[0] - 3.0 / sqrt(13.0)) < 1e-6);
    hs_swept_pairs_free(&p);
    sw_free(&v);
    sw_free(&w);
}

static void assert_same(const hs_swept_pairs *a, const hs_swept_pairs *b)
{
    assert_int_equal(a->count, b->count);
    if (a->count == 0)
        return;
    assert_memory_equal(a->i, b->i, a->count * sizeof *a->i);
    assert_memory_equal(a->j, b->j, a->count * sizeof *a->j);
    assert_memory_equal(a->t, b->t, a->count * sizeof *a->t);
    assert_memory_equal(a->nx, b->nx, a->count * sizeof *a->nx);
    assert_memory_equal(a->ny, b->ny, a->count * sizeof *a->ny);
    assert_memory_equal(a->overlapping, b->overlapping, a->count);
}

/* The same bytes for 1, 2 and 3 threads and every ISA level the machine has. */
static void test_threads_and_isa(void **state)
{
    (void)state;
    const hs_scene_kind kinds[2] = {HS_SCENE_MIXED, HS_SCENE_CLUSTERED};
    for (int c = 0; c < 2; c++) {
        swept_scene w;
        sw_scene(&w, kinds[c], quick ? 12000 : 40000, 80u + (uint64_t)c, 0.4f, 0.01);
        hs_swept_pairs want = sw_run(&w, 1, HS_ISA_SCALAR);
        assert_true(want.count > 100000);
        for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
            if (!hs_isa_supported((hs_isa)isa))
                continue;
            for (int th = 1; th <= 3; th++) {
                hs_swept_pairs p = sw_run(&w, th, (hs_isa)isa);
                assert_same(&p, &want);
                hs_swept_pairs_free(&p);
            }
        }
        hs_swept_pairs_free(&want);
        sw_free(&w);
    }
}

/* Circles and displacements at the range limit (|c| = |d| = HS_MAX_COORD); a relative motion
 * whose |d|^2 is subnormal (rescaled); tiny scenes. */
static void test_range_limits(void **state)
{
    (void)state;
    swept_scene w;
    sw_alloc(&w, 6);
    const float M = HS_MAX_COORD;
    /* 0 and 1 meet head on from opposite ends of the range */
    w.s.x[0] = -M, w.s.y[0] = 0.0f, w.s.r[0] = 1e17f, w.dx[0] = M;
    w.s.x[1] = M, w.s.y[1] = 0.0f, w.s.r[1] = 1e17f, w.dx[1] = -M;
    /* 2 moves its full length diagonally past 3, missing it */
    w.s.x[2] = M, w.s.y[2] = M, w.s.r[2] = 1.0f, w.dx[2] = -0.7e18f, w.dy[2] = -0.7e18f;
    w.s.x[3] = M, w.s.y[3] = -M, w.s.r[3] = 1.0f;
    /* 4 and 5: 3e-21 apart, radii 1e-21, 4 moves 2e-21 towards 5 (|d|^2 subnormal) */
    w.s.x[4] = 0.0f, w.s.y[4] = 5e17f, w.s.r[4] = 1e-21f, w.dx[4] = 2e-21f;
    w.s.x[5] = 3e-21f, w.s.y[5] = 5e17f, w.s.r[5] = 1e-21f;
    sw_build(&w);
    hs_swept_pairs p = sw_run(&w, 1, HS_ISA_AUTO);
    assert_int_equal(p.count, 2);
    assert_true(p.i[0] == 0 && p.j[0] == 1);
    assert_true(fabs(p.t[0] - 0.9) < 1e-6); /* 2e18 apart, closing 2e18, contact at 2e17 */
    assert_true(p.nx[0] == 1.0f && p.ny[0] == 0.0f);
    assert_true(p.i[1] == 4 && p.j[1] == 5);
    assert_true(fabs(p.t[1] - 0.5) < 1e-3);
    assert_true(p.overlapping[0] == 0 && p.overlapping[1] == 0);
    hs_swept_pairs_free(&p);
    sw_free(&w);

    /* a scene a millionth of a millionth of the usual size */
    swept_scene v;
    sw_scene(&v, HS_SCENE_UNIFORM, scale(1500), 90u, 0.3f, 0.01);
    for (size_t i = 0; i < v.s.n; i++) {
        v.s.x[i] *= 1e-12f, v.s.y[i] *= 1e-12f, v.s.r[i] *= 1e-12f;
        v.dx[i] *= 1e-12f, v.dy[i] *= 1e-12f;
    }
    sw_rebuild(&v);
    p = sw_run(&v, 2, HS_ISA_AUTO);
    const check_stats st = check_reference(&v, &p);
    report("uniform, scaled by 1e-12", &v, &st);
    hs_swept_pairs_free(&p);
    sw_free(&v);
}

static void test_bad_input(void **state)
{
    (void)state;
    swept_scene w;
    sw_scene(&w, HS_SCENE_UNIFORM, 200, 100u, 0.3f, 0.0);
    hs_batch_opts o = hs_batch_opts_default();
    hs_swept_pairs p;
    const float M = HS_MAX_COORD;
    struct {
        float dx, dy;
        hs_status want;
    } cases[] = {
        {NAN, 0.0f, HS_E_NONFINITE},
        {0.0f, INFINITY, HS_E_NONFINITE},
        {-INFINITY, 1.0f, HS_E_NONFINITE},
        {2e18f, 0.0f, HS_E_RANGE},
        {0.0f, -1.5e18f, HS_E_RANGE},
        {0.8f * M, 0.8f * M, HS_E_RANGE}, /* each in range */
        {M, 0.0f, HS_OK},
        {0.7f * M, -0.7f * M, HS_OK},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const size_t at = 137;
        w.dx[at] = cases[c].dx;
        w.dy[at] = cases[c].dy;
        memset(&p, 0xab, sizeof p);
        assert_int_equal(hs_grid_swept_pairs(w.g, w.dx, w.dy, &o, &p), cases[c].want);
        if (cases[c].want != HS_OK)
            assert_true(p.count == 0 && p.i == NULL && p.j == NULL && p.t == NULL && p.nx == NULL &&
                        p.ny == NULL && p.overlapping == NULL);
        hs_swept_pairs_free(&p);
        w.dx[at] = w.dy[at] = 0.0f;
    }
    /* the first bad value decides */
    w.dx[3] = 3e18f;
    w.dy[9] = NAN;
    assert_int_equal(hs_grid_swept_pairs(w.g, w.dx, w.dy, &o, &p), HS_E_RANGE);
    w.dx[3] = 0.0f;
    w.dy[9] = 0.0f;
    memset(&p, 0xab, sizeof p);
    assert_int_equal(hs_grid_swept_pairs(w.g, NULL, w.dy, &o, &p), HS_E_NULL);
    assert_true(p.count == 0 && p.i == NULL);
    assert_int_equal(hs_grid_swept_pairs(w.g, w.dx, NULL, &o, &p), HS_E_NULL);
    assert_int_equal(hs_grid_swept_pairs(NULL, w.dx, w.dy, &o, &p), HS_E_NULL);
    assert_int_equal(hs_grid_swept_pairs(w.g, w.dx, w.dy, &o, NULL), HS_E_NULL);
    o.threads = -1;
    assert_int_equal(hs_grid_swept_pairs(w.g, w.dx, w.dy, &o, &p), HS_E_RANGE);
    assert_true(p.count == 0 && p.i == NULL);
    /* default options */
    assert_int_equal(hs_grid_swept_pairs(w.g, w.dx, w.dy, NULL, &p), HS_OK);
    assert_true(p.count > 0);
    hs_swept_pairs_free(&p);
    hs_swept_pairs_free(&p); /* cleared: a second free is a no-op */
    hs_swept_pairs_free(NULL);
    sw_free(&w);

    /* an empty grid and a single circle: no pairs, NULL arrays allowed when empty */
    swept_scene e;
    sw_alloc(&e, 1);
    sw_build(&e);
    assert_int_equal(hs_grid_swept_pairs(e.g, e.dx, e.dy, NULL, &p), HS_OK);
    assert_int_equal(p.count, 0);
    hs_swept_pairs_free(&p);
    hs_grid_destroy(e.g);
    hs_circles_destroy(e.s.cs);
    e.s.cs = NULL;
    assert_int_equal(hs_circles_create(NULL, NULL, NULL, NULL, 0, &e.s.cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(e.s.cs, NULL, &e.g), HS_OK);
    assert_int_equal(hs_grid_swept_pairs(e.g, NULL, NULL, NULL, &p), HS_OK);
    assert_int_equal(p.count, 0);
    sw_free(&e);
}

int main(void)
{
    quick = test_quick();
    printf("test_swept_pairs: %s scale\n", quick ? "quick (HS_TEST_QUICK or sanitizers)" : "full");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scenes_match_reference),
        cmocka_unit_test(test_fast_movers),
        cmocka_unit_test(test_crowded_cells),
        cmocka_unit_test(test_zero_displacement),
        cmocka_unit_test(test_tunnelling),
        cmocka_unit_test(test_threads_and_isa),
        cmocka_unit_test(test_range_limits),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
