/* SPDX-License-Identifier: MIT */
/* Tests for the uniform grid: every query mode equals brute force (all ISA levels, 1/2/3 threads,
 * awkward geometries), pairs, overlap, rebuild, scenes. */
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
#include "batch/workspace.h"
#include "grid/layout.h"
#include "grid/pair_list.h"
#include "grid/subcells.h"
#include "memory.h"
#include "tuning.h"
#include "batch_check.h"
#include "test_util.h"

/* 1 in a Release run, smaller under sanitizers or HS_TEST_QUICK, smaller still under emulation */
static int quick;
static size_t scale(size_t full)
{
    const size_t part = full / (test_emulated() ? 16 : 4);
    return quick ? (part > 8 ? part : 8) : full;
}

/* ---- scenes -------------------------------------------------------------------------------- */
static void scene_finish(scene *s, int with_mask)
{
    if (with_mask) {
        s->mask = xcalloc(s->n, sizeof(uint32_t));
        for (size_t i = 0; i < s->n; i++)
            s->mask[i] = 1u << (rnd() % 4);
    }
    assert_int_equal(hs_circles_create(s->x, s->y, s->r, s->mask, s->n, &s->cs, NULL), HS_OK);
}

static void scene_kind(scene *s, hs_scene_kind kind, size_t n, uint64_t seed, int with_mask)
{
    scene_alloc(s, n);
    assert_int_equal(hs_scene_circles(kind, n, seed, s->x, s->y, s->r), HS_OK);
    scene_finish(s, with_mask);
}

/* ---- query batches --------------------------------------------------------------------------- */
/* Segments by default: t in [0, 1], q = 0, every mask bit. */
static void batch_alloc(batch *b, size_t m)
{
    batch_alloc_arrays(b, m, 1);
    for (size_t i = 0; i < m; i++) {
        b->tmax[i] = 1.0f;
        b->mask[i] = UINT32_MAX;
    }
}

static void batch_finish(batch *b)
{
    b->qs = hs_queries_segments(b->ax, b->ay, b->dx, b->dy, b->m);
    b->qs.tmin = b->tmin;
    b->qs.tmax = b->tmax;
    b->qs.q = b->q;
    b->qs.mask = b->mask;
}

/* A mix of every query shape over the world [lo, hi]^2 (cell edges from the grid). */
static void set_query(batch *b, size_t i, int kind, float lo, float hi, float ox, float oy, float h,
                      int masks)
{
    float w = hi - lo;
    float ang = unif(0.0f, 6.2831853f);
    float len = unif(0.5f, 0.2f * w + 5.0f);
    b->ax[i] = unif(lo - 0.1f * w, hi + 0.1f * w);
    b->ay[i] = unif(lo - 0.1f * w, hi + 0.1f * w);
    b->dx[i] = len * cosf(ang);
    b->dy[i] = len * sinf(ang);
    b->tmin[i] = 0.0f;
    b->tmax[i] = 1.0f;
    b->q[i] = 0.0f;
    switch (kind) {
    case 0: /* plain segment */ break;
    case 1: /* finite ray */ b->tmax[i] = unif(0.0f, 4.0f); break;
    case 2: /* infinite ray */ b->tmax[i] = INFINITY; break;
    case 3: /* line */
        b->tmin[i] = -INFINITY;
        b->tmax[i] = INFINITY;
        break;
    case 4: /* axis-parallel, often exactly on a cell edge */
        if (rnd() & 1) {
            b->dy[i] = 0.0f;
            if (rnd() & 1)
                b->ay[i] = oy + h * (float)(rnd() % 64);
        } else {
            b->dx[i] = 0.0f;
            if (rnd() & 1)
                b->ax[i] = ox + h * (float)(rnd() % 64);
        }
        if (rnd() & 1) {
            b->tmin[i] = -INFINITY;
            b->tmax[i] = INFINITY;
        }
        break;
    case 5: /* zero-length: a point or a disc */
        b->dx[i] = b->dy[i] = 0.0f;
        b->tmin[i] = unif(-2.0f, 0.5f);
        b->tmax[i] = b->tmin[i] + unif(0.0f, 2.0f);
        break;
    case 6: /* from well outside the grid, across it, ending outside */
        b->ax[i] = lo - unif(1.0f, 0.5f * w);
        b->ay[i] = unif(lo - w, hi + w);
        b->dx[i] = unif(w, 3.0f * w);
        b->dy[i] = unif(-w, w);
        if (rnd() & 1) {
            b->ax[i] = lo + hi - b->ax[i];
            b->dx[i] = -b->dx[i];
        }
        break;
    case 7: /* a sub-interval, sometimes starting before a */
        b->tmin[i] = unif(-0.5f, 0.5f);
        b->tmax[i] = b->tmin[i] + unif(0.0f, 1.5f);
        break;
    default: /* a cell diagonal through lattice corners */
        b->ax[i] = ox + h * (float)(rnd() % 32);
        b->ay[i] = oy + h * (float)(rnd() % 32);
        b->dx[i] = h * (float)(1 + rnd() % 5) * ((rnd() & 1) ? 1.0f : -1.0f);
        b->dy[i] = fabsf(b->dx[i]) * ((rnd() & 1) ? 1.0f : -1.0f);
        break;
    }
    if (rnd() % 3 == 0)
        b->q[i] = (rnd() & 1) ? unif(0.0f, 0.1f * h + 0.5f) : unif(0.0f, 8.0f);
    if (masks && (rnd() & 1))
        b->mask[i] = (uint32_t)(rnd() & 15);
}

static void batch_mixed(batch *b, size_t m, float lo, float hi, const hs_grid *g, int masks)
{
    batch_alloc(b, m);
    float ox = g->nlevels ? (float)g->lv[0].ox : 0.0f, oy = g->nlevels ? (float)g->lv[0].oy : 0.0f;
    float h = g->nlevels ? (float)g->lv[0].h : 1.0f;
    for (size_t i = 0; i < m; i++) {
        set_query(b, i, (int)(rnd() % 9), lo, hi, ox, oy, h, masks);
        if (g->n && rnd() % 8 == 0) { /* from a circle's rim, as a reflection starts */
            const size_t k = (size_t)(rnd() % g->n);
            const float ang = unif(0.0f, 6.2831853f);
            const float t0 = isfinite(b->tmin[i]) ? b->tmin[i] : 0.0f;
            b->ax[i] = g->x[k] + (g->r[k] + b->q[i]) * cosf(ang) - t0 * b->dx[i];
            b->ay[i] = g->y[k] + (g->r[k] + b->q[i]) * sinf(ang) - t0 * b->dy[i];
        }
    }
    batch_finish(b);
}

/* ---- grid == brute force ------------------------------------------------------------------- */
static int same_float(float a, float b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static size_t total_hits_seen;

/* Every mode, every supported ISA level, threads 1, 2, 3, both semantics: identical results. */
static void check_against_brute(const hs_grid *g, const hs_circles *cs, const batch *b)
{
    const size_t m = b->m;
    hs_workspace *ws = NULL; /* the 2-thread grid calls share one, as a frame loop would */
    assert_int_equal(hs_workspace_create(&ws), HS_OK);
    uint32_t *bi = xcalloc(m, 4), *gi = xcalloc(m, 4), *bc = xcalloc(m, 4), *gc = xcalloc(m, 4);
    float *bt = xcalloc(m, 4), *gt = xcalloc(m, 4);
    float *bpx = xcalloc(m, 4), *gpx = xcalloc(m, 4), *bny = xcalloc(m, 4), *gny = xcalloc(m, 4);
    uint8_t *ba = xcalloc(m, 1), *ga = xcalloc(m, 1);
    /* The exact levels answer in the same bytes (bc_exact_level; test_kernels holds them to
     * it): their brute force is computed once per semantics, at the fastest of them. */
    hs_isa exact_ref = HS_ISA_SCALAR;
    for (int l = HS_ISA_SCALAR; l < HS_ISA_COUNT; l++)
        if (hs_isa_supported((hs_isa)l) && bc_exact_level((hs_isa)l))
            exact_ref = (hs_isa)l;
    for (int sem = HS_SOLID; sem <= HS_BOUNDARY_SKIP_START; sem++) {
        hs_hits bh = {0};
        int have_ref = 0, ref_exact = 0;
        for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
            if (!test_isa_on((hs_isa)isa))
                continue;
            const int exact = bc_exact_level((hs_isa)isa);
            hs_batch_opts bo = hs_batch_opts_default();
            bo.sem = (hs_semantics)sem;
            bo.isa = exact ? exact_ref : (hs_isa)isa;
            bo.threads = 1;
            if (!have_ref || !exact || !ref_exact) {
                if (have_ref)
                    hs_hits_free(&bh);
                hs_closest_out bout = {bi, bt, bpx, NULL, NULL, bny, NULL};
                assert_int_equal(hs_brute_closest(cs, &b->qs, &bo, bout), HS_OK);
                assert_int_equal(hs_brute_any(cs, &b->qs, &bo, ba), HS_OK);
                assert_int_equal(hs_brute_count(cs, &b->qs, &bo, bc), HS_OK);
                assert_int_equal(hs_brute_all(cs, &b->qs, &bo, &bh), HS_OK);
                total_hits_seen += bh.total;
                have_ref = 1;
                ref_exact = exact;
            }
            bo.isa = (hs_isa)isa;
            /* skip-start changes which pairs hit, not how threads share the work: its two
             * values run on 2 threads only (the shared workspace), which keeps the test's time */
            const int th0 = sem & HS_SKIP_START ? 2 : 1, th1 = sem & HS_SKIP_START ? 2 : 3;
            for (int th = th0; th <= th1; th++) {
                hs_batch_opts go = bo;
                go.threads = th;
                go.ws = th == 2 ? ws : NULL;
                hs_batch_stats st;
                go.stats = &st;
                hs_closest_out gout = {gi, gt, gpx, NULL, NULL, gny, NULL};
                assert_int_equal(hs_grid_closest(g, &b->qs, &go, gout), HS_OK);
                for (size_t i = 0; i < m; i++) {
                    if (gi[i] != bi[i] || !same_float(gt[i], bt[i]) ||
                        !same_float(gpx[i], bpx[i]) || !same_float(gny[i], bny[i]))
                        fail_msg(
                            "closest differs: isa %s sem %d threads %d query %zu: grid %u t=%a, "
                            "brute %u t=%a (a=(%a,%a) d=(%a,%a) t=[%a,%a] q=%a)",
                            hs_isa_name((hs_isa)isa), sem, th, i, gi[i], (double)gt[i], bi[i],
                            (double)bt[i], (double)b->ax[i], (double)b->ay[i], (double)b->dx[i],
                            (double)b->dy[i], (double)b->tmin[i], (double)b->tmax[i],
                            (double)b->q[i]);
                }
                assert_int_equal(hs_grid_any(g, &b->qs, &go, ga), HS_OK);
                for (size_t i = 0; i < m; i++)
                    if (ga[i] != ba[i])
                        fail_msg("any differs: isa %s threads %d query %zu: grid %d brute %d",
                                 hs_isa_name((hs_isa)isa), th, i, ga[i], ba[i]);
                assert_int_equal(hs_grid_count_hits(g, &b->qs, &go, gc), HS_OK);
                for (size_t i = 0; i < m; i++)
                    if (gc[i] != bc[i])
                        fail_msg("count differs: isa %s threads %d query %zu: grid %u brute %u",
                                 hs_isa_name((hs_isa)isa), th, i, gc[i], bc[i]);
                hs_hits gh;
                assert_int_equal(hs_grid_all(g, &b->qs, &go, &gh), HS_OK);
                assert_true(gh.ws == go.ws);
                assert_hits_equal(&gh, &bh);
                hs_hits_free(&gh);
            }
        }
        if (have_ref)
            hs_hits_free(&bh);
    }
    hs_workspace_destroy(ws);
    free(bi);
    free(gi);
    free(bc);
    free(gc);
    free(bt);
    free(gt);
    free(bpx);
    free(gpx);
    free(bny);
    free(gny);
    free(ba);
    free(ga);
}

static void test_scenes_match_brute(void **state)
{
    (void)state;
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++) {
        for (int masks = 0; masks <= 1; masks++) {
            rng_state = 1000u + (uint64_t)kind * 10u + (uint64_t)masks;
            size_t n = scale(6000);
            scene s;
            scene_kind(&s, (hs_scene_kind)kind, n, 7u + (uint64_t)kind, masks);
            hs_grid *g = NULL;
            hs_grid_opts go = {.cell_size = 0.0f, .threads = 2};
            assert_int_equal(hs_grid_build(s.cs, &go, &g), HS_OK);
            assert_int_equal(hs_grid_circle_count(g), n);
            float side = hs_scene_world_side((hs_scene_kind)kind, n);
            batch b;
            batch_mixed(&b, scale(1500), 0.0f, side, g, masks);
            check_against_brute(g, s.cs, &b);
            if (kind == HS_SCENE_MIXED)
                assert_int_equal(g->nlevels, 2); /* the asteroids got their own level */
            batch_free(&b);
            hs_grid_destroy(g);
            scene_free(&s);
        }
    }
    /* the benchmark's own segments on the benchmark's scenes, given cell sizes included */
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++) {
        size_t n = scale(10000), m = scale(1500);
        scene s;
        scene_kind(&s, (hs_scene_kind)kind, n, 99u, 0);
        batch b;
        batch_alloc(&b, m);
        assert_int_equal(hs_scene_segments((hs_scene_kind)kind, n, m, 5u, b.ax, b.ay, b.dx, b.dy),
                         HS_OK);
        batch_finish(&b);
        const float cells[3] = {0.0f, 1.0f, 13.0f};
        for (int c = 0; c < 3; c++) {
            hs_grid *g = NULL;
            hs_grid_opts go = {.cell_size = cells[c], .threads = 0};
            const hs_status st = hs_grid_build(s.cs, &go, &g);
            if (st == HS_E_RANGE) { /* refused, never enlarged: only when that many cells */
                const double side = hs_scene_world_side((hs_scene_kind)kind, n);
                assert_true(cells[c] > 0.0f &&
                            side * side / ((double)cells[c] * cells[c]) > 16.0 * (double)n);
                assert_null(g);
                continue;
            }
            assert_int_equal(st, HS_OK);
            check_against_brute(g, s.cs, &b);
            hs_grid_destroy(g);
        }
        batch_free(&b);
        scene_free(&s);
    }
    print_message("scenes: %zu brute-force hits compared (scale %s)\n", total_hits_seen,
                  quick ? "quick" : "full");
}

/* Scenes far from the origin (the block walk's set-up is computed in float), every circle of
 * the same radius (so every graze is at the level's inflation radius), centres one float step
 * below a cell edge, and axis-parallel segments grazing them from the other side of that edge:
 * a set-up whose rounding reached past its pad would drop the row or column holding the hit.
 * (Checked by mutation: with the set-up's radius 1% short, test_awkward_geometry fails; this
 * test does not, since here the pad is 3% or more of the radius; with no pad at all every test
 * still passes, the float set-up being exact on these inputs. So it guards agreement far from
 * the origin, and the pad is a margin, not a measured necessity.) */
static void test_far_from_origin(void **state)
{
    (void)state;
    const float offsets[3] = {1.0e3f, 3.0e4f, 2.5e5f};
    for (int o = 0; o < 3; o++) {
        rng_state = 4242u + (uint64_t)o;
        const size_t n = 3000, m = scale(2400);
        const float side = 60.0f, h = 2.0f, r = 0.5f;
        const float x0 = offsets[o], y0 = -0.5f * offsets[o];
        scene s;
        scene_alloc(&s, n);
        s.x[0] = x0, s.y[0] = y0, s.r[0] = r; /* the grid's lower corner: cell edges at x0 + k h */
        for (size_t i = 1; i < n; i++) {
            s.x[i] = x0 + unif(0.0f, side);
            s.y[i] = y0 + unif(0.0f, side);
            s.r[i] = r;
            if (i % 2) { /* just below a cell edge, in x or in y */
                const float k = h * (float)(1 + rnd() % 29);
                if (rnd() & 1)
                    s.x[i] = nextafterf(x0 + k, -INFINITY);
                else
                    s.y[i] = nextafterf(y0 + k, -INFINITY);
            }
        }
        scene_finish(&s, 0);
        hs_grid *g = NULL;
        hs_grid_opts go = {.cell_size = h, .threads = 0};
        assert_int_equal(hs_grid_build(s.cs, &go, &g), HS_OK);
        assert_true(hs_grid_cell_size(g) == h && g->lv[0].ox == (double)x0 &&
                    g->lv[0].oy == (double)y0);
        batch b;
        batch_alloc(&b, m);
        for (size_t i = 0; i < m; i++) {
            const size_t c = 1 + 2 * ((size_t)rnd() % (n / 2 - 1)); /* an edge circle */
            const float len = unif(0.1f, 6.0f), sgn = (rnd() & 1) ? 1.0f : -1.0f;
            const int xedge =
                fabsf(s.x[c] - nextafterf(x0 + h * roundf((s.x[c] - x0) / h), -INFINITY)) == 0.0f;
            if (xedge) { /* vertical, grazing from the right of the edge */
                b.ax[i] = s.x[c] + r;
                b.ay[i] = s.y[c] - 0.5f * sgn * len;
                b.dx[i] = 0.0f;
                b.dy[i] = sgn * len;
            } else { /* horizontal, grazing from above the edge */
                b.ax[i] = s.x[c] - 0.5f * sgn * len;
                b.ay[i] = s.y[c] + r;
                b.dx[i] = sgn * len;
                b.dy[i] = 0.0f;
            }
        }
        batch_finish(&b);
        check_against_brute(g, s.cs, &b);
        batch_free(&b);
        hs_grid_destroy(g);
        scene_free(&s);
    }
}

/* A lattice of touching circles on integer points: every query meets exact tangencies, exact
 * ties in t between neighbours, and runs along cell edges. */
static void test_awkward_geometry(void **state)
{
    (void)state;
    rng_state = 77;
    scene s;
    const int side = 24;
    scene_alloc(&s, (size_t)side * side + 3);
    size_t k = 0;
    for (int yy = 0; yy < side; yy++)
        for (int xx = 0; xx < side; xx++, k++) {
            s.x[k] = (float)xx;
            s.y[k] = (float)yy;
            s.r[k] = (k % 7 == 0) ? 0.0f : 0.5f;
        }
    /* duplicates: equal t, ids decide */
    s.x[k] = 3.0f, s.y[k] = 3.0f, s.r[k] = 0.5f, k++;
    s.x[k] = 3.0f, s.y[k] = 3.0f, s.r[k] = 0.5f, k++;
    s.x[k] = 10.0f, s.y[k] = 11.0f, s.r[k] = 9.0f, k++; /* one big circle */
    scene_finish(&s, 0);
    const float cells[4] = {0.0f, 1.0f, 0.5f, 2.0f};
    for (int c = 0; c < 4; c++) {
        hs_grid *g = NULL;
        hs_grid_opts go = {.cell_size = cells[c], .threads = 3};
        assert_int_equal(hs_grid_build(s.cs, &go, &g), HS_OK);
        batch b;
        size_t m = 0;
        batch_alloc(&b, 64 + scale(1200));
        float h = (float)g->lv[0].h;
        /* explicit cases */
        const float ex[][7] = {
            /* ax, ay, dx, dy, tmin, tmax, q */
            {-5.0f, 0.0f, 40.0f, 0.0f, 0.0f, 1.0f, 0.0f},     /* along a row of centres */
            {-5.0f, 0.5f, 40.0f, 0.0f, 0.0f, 1.0f, 0.0f},     /* along the tangents */
            {0.5f, -5.0f, 0.0f, 40.0f, 0.0f, 1.0f, 0.0f},     /* vertical tangent */
            {30.0f, 0.5f, -1.0f, 0.0f, 0.0f, INFINITY, 0.0f}, /* infinite ray, from outside */
            {0.0f, 2.0f * h, 1.0f, 0.0f, -INFINITY, INFINITY, 0.0f}, /* line on a cell edge */
            {2.0f * h, 0.0f, 0.0f, -1.0f, -INFINITY, INFINITY, 0.0f},
            {-3.0f, -3.0f, 1.0f, 1.0f, 0.0f, INFINITY, 0.0f},       /* diagonal through centres */
            {5.0f, 5.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f},             /* zero-length on a centre */
            {5.5f, 5.5f, 0.0f, 0.0f, 0.0f, 1.0f, 0.2f},             /* disc between four */
            {3.0f, 3.0f, 2.0f, 0.0f, 0.0f, 1.0f, 0.0f},             /* starts inside the twins */
            {-100.0f, 7.0f, 1.0f, 0.0f, 0.0f, 50.0f, 0.0f},         /* ends before the grid */
            {100.0f, 7.0f, 1.0f, 0.0f, 0.0f, 50.0f, 0.0f},          /* starts after it */
            {-10.0f, -10.0f, 60.0f, 61.0f, 0.0f, 1.0f, 3.0f},       /* thick diagonal */
            {12.0f, 12.0f, 0.3f, -0.1f, -INFINITY, INFINITY, 1.5f}, /* thick line */
            {7.0f, 7.0f, 1e-3f, 0.0f, 0.0f, 1.0f, 0.0f},            /* very short */
            {0.0f, 23.5f, 23.0f, 0.0f, 0.0f, 1.0f, 0.0f},           /* along the top edge */
        };
        for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++, m++) {
            b.ax[m] = ex[e][0];
            b.ay[m] = ex[e][1];
            b.dx[m] = ex[e][2];
            b.dy[m] = ex[e][3];
            b.tmin[m] = ex[e][4];
            b.tmax[m] = ex[e][5];
            b.q[m] = ex[e][6];
        }
        for (; m < b.m; m++) {
            set_query(&b, m, (int)(rnd() % 9), -2.0f, (float)side + 2.0f, (float)g->lv[0].ox,
                      (float)g->lv[0].oy, h, 0);
            /* land many on the lattice's half-integers (tangents) and integers (centres) */
            if (rnd() % 3 == 0) {
                b.ax[m] = 0.5f * (float)(int)(rnd() % (2 * side + 8)) - 4.0f;
                b.ay[m] = 0.5f * (float)(int)(rnd() % (2 * side + 8)) - 4.0f;
                int dir = (int)(rnd() % 4);
                float L = (float)(1 + rnd() % 30);
                b.dx[m] = dir == 0 ? L : dir == 1 ? -L : 0.0f;
                b.dy[m] = dir == 2 ? L : dir == 3 ? -L : 0.0f;
            }
        }
        batch_finish(&b);
        check_against_brute(g, s.cs, &b);
        batch_free(&b);
        hs_grid_destroy(g);
    }
    scene_free(&s);
}

/* Each level's meet (which level any walks first) against its definition over every stored
 * circle, and the order it gives: on lasers most queries meet a small circle first, on mixed
 * (0.1 % of radius 50-150) a large one. */
static void test_level_meet(void **state)
{
    (void)state;
    const hs_scene_kind kinds[2] = {HS_SCENE_LASERS, HS_SCENE_MIXED};
    for (int c = 0; c < 2; c++) {
        scene s;
        scene_kind(&s, kinds[c], 200000, 5u, 0);
        hs_grid *g = NULL;
        assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
        assert_int_equal(g->nlevels, 2);
        for (int l = 0; l < 2; l++) {
            const hs_glevel *L = &g->lv[l];
            const size_t nc = (size_t)L->nx * (size_t)L->ny;
            double sr = 0.0, sr2 = 0.0;
            for (uint32_t i = g->cell_start[L->cell0]; i < g->cell_start[L->cell0 + nc]; i++) {
                sr += g->r[i];
                sr2 += (double)g->r[i] * g->r[i];
            }
            const double want = 2.0 * g->lv[0].h * sr + 3.14159265358979 * sr2;
            /* level 0 is sampled (1024 of 200 000), level 1 (about 200) taken whole */
            const double tol = l == 0 ? 0.05 : 1e-5;
            if (!(fabs(L->meet - want) <= tol * want))
                fail_msg("scene %d level %d: meet %g, over every circle %g", c, l, (double)L->meet,
                         want);
        }
        if (kinds[c] == HS_SCENE_LASERS)
            assert_true(g->lv[0].meet > g->lv[1].meet);
        else
            assert_true(g->lv[1].meet > g->lv[0].meet);
        hs_grid_destroy(g);
        scene_free(&s);
    }
}

/* Large batches on large grids are answered in a locality order (sorted by coarse cell) and
 * scattered back: the results must be those of the same queries asked in small batches
 * (which keep the caller's order), and brute force on a sample; invalid queries keep their
 * caller index in the stats. */
static void test_sorted_batches(void **state)
{
    (void)state;
    rng_state = 2024;
    /* under emulation every other scene: the order is the same C at every level */
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind += test_emulated() ? 2 : 1) {
        /* above / below the sorting limits */
        const size_t n = 40000, m = test_emulated() ? 5000 : 9000, piece = 1000;
        scene s;
        scene_kind(&s, (hs_scene_kind)kind, n, 17u, kind == HS_SCENE_MIXED);
        hs_grid *g = NULL;
        assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
        batch b;
        batch_mixed(&b, m, 0.0f, hs_scene_world_side((hs_scene_kind)kind, n), g,
                    kind == HS_SCENE_MIXED);
        b.ax[m - 7] = NAN; /* invalid ones, late in the caller's order */
        b.q[m - 3] = -1.0f;
        /* queries from a circle's centre: the normal at t = 0 has no length, so the staged
         * answer takes the fallback direction (-d) as the one-at-a-time answer does */
        for (size_t k = 0; k < 8; k++) {
            b.ax[100 + k] = s.x[997 * k];
            b.ay[100 + k] = s.y[997 * k];
            b.dx[100 + k] = 3.0f;
            b.dy[100 + k] = -1.0f - (float)k;
            b.tmin[100 + k] = 0.0f;
            b.tmax[100 + k] = 1.0f;
            b.mask[100 + k] = UINT32_MAX;
        }
        uint32_t *i1 = xcalloc(m, 4), *i2 = xcalloc(m, 4), *c1 = xcalloc(m, 4), *c2 = xcalloc(m, 4);
        float *t1 = xcalloc(m, 4), *t2 = xcalloc(m, 4), *p1 = xcalloc(m, 4), *p2 = xcalloc(m, 4);
        /* the other coordinate of the point and the normal, both batch forms */
        float *geo1 = xcalloc(3 * m, 4), *geo2 = xcalloc(3 * m, 4);
        uint8_t *a1 = xcalloc(m, 1), *a2 = xcalloc(m, 1);
        hs_batch_stats st;
        hs_batch_opts o = hs_batch_opts_default();
        o.stats = &st;
        o.threads = 2;
        hs_closest_out out1 = {i1, t1, p1, geo1, geo1 + m, geo1 + 2 * m, NULL};
        assert_int_equal(hs_grid_closest(g, &b.qs, &o, out1), HS_E_INVALID_QUERY);
        assert_int_equal(st.invalid, 2);
        assert_int_equal(st.first_invalid, m - 7);
        /* only idx and t: answers are staged in the locality order, then read back in the
         * caller's (above, the points and normals were staged with them) */
        uint32_t *i3 = xcalloc(m, 4);
        float *t3 = xcalloc(m, 4);
        hs_closest_out out3 = {i3, t3, NULL, NULL, NULL, NULL, NULL};
        assert_int_equal(hs_grid_closest(g, &b.qs, &o, out3), HS_E_INVALID_QUERY);
        assert_int_equal(st.first_invalid, m - 7);
        assert_memory_equal(i1, i3, m * 4);
        for (size_t i = 0; i < m; i++)
            assert_true(same_float(t1[i], t3[i]));
        assert_int_equal(i3[m - 7], HS_NONE);
        assert_true(isnan(t3[m - 3]));
        o.threads = 1;
        memset(i3, 0, m * 4);
        assert_int_equal(hs_grid_closest(g, &b.qs, &o, out3), HS_E_INVALID_QUERY);
        assert_memory_equal(i1, i3, m * 4);
        o.threads = 2;
        free(i3);
        free(t3);
        assert_int_equal(hs_grid_any(g, &b.qs, &o, a1), HS_E_INVALID_QUERY);
        assert_int_equal(st.first_invalid, m - 7);
        assert_int_equal(hs_grid_count_hits(g, &b.qs, &o, c1), HS_E_INVALID_QUERY);
        hs_hits h1;
        assert_int_equal(hs_grid_all(g, &b.qs, &o, &h1), HS_E_INVALID_QUERY);
        assert_int_equal(st.first_invalid, m - 7);
        size_t total = 0;
        for (size_t at = 0; at < m; at += piece) {
            hs_queries q = b.qs;
            size_t k = m - at < piece ? m - at : piece;
            q.ax += at, q.ay += at, q.dx += at, q.dy += at;
            q.tmin += at, q.tmax += at, q.q += at, q.mask += at;
            q.count = k;
            hs_closest_out out2 = {i2 + at,       t2 + at,           p2 + at, geo2 + at,
                                   geo2 + m + at, geo2 + 2 * m + at, NULL};
            hs_grid_closest(g, &q, &o, out2);
            hs_grid_any(g, &q, &o, a2 + at);
            hs_grid_count_hits(g, &q, &o, c2 + at);
            hs_hits h2;
            hs_status st2 = hs_grid_all(g, &q, &o, &h2);
            assert_true(st2 == HS_OK || st2 == HS_E_INVALID_QUERY);
            for (size_t i = 0; i < k; i++) {
                size_t len = h2.offsets[i + 1] - h2.offsets[i];
                assert_int_equal(h1.offsets[at + i + 1] - h1.offsets[at + i], len);
                if (len) {
                    assert_memory_equal(h1.idx + h1.offsets[at + i], h2.idx + h2.offsets[i],
                                        len * 4);
                    assert_memory_equal(h1.t + h1.offsets[at + i], h2.t + h2.offsets[i], len * 4);
                }
            }
            total += h2.total;
            hs_hits_free(&h2);
        }
        assert_int_equal(total, h1.total);
        assert_memory_equal(i1, i2, m * 4);
        assert_memory_equal(a1, a2, m);
        assert_memory_equal(c1, c2, m * 4);
        for (size_t i = 0; i < m; i++)
            assert_true(same_float(t1[i], t2[i]) && same_float(p1[i], p2[i]));
        size_t geo_hits = 0;
        for (size_t i = 0; i < 3 * m; i++) {
            assert_true(same_float(geo1[i], geo2[i]));
            geo_hits += !isnan(geo1[i]);
        }
        assert_true(geo_hits > m / 2); /* the staged points and normals are really there */
        /* one thread unstages without a team: the same points and normals */
        o.threads = 1;
        memset(geo1, 0, 3 * m * 4);
        assert_int_equal(hs_grid_closest(g, &b.qs, &o, out1), HS_E_INVALID_QUERY);
        assert_memory_equal(geo1, geo2, 3 * m * 4);
        o.threads = 2;
        /* and brute force on a sample of the same queries */
        batch sb;
        batch_alloc(&sb, 600);
        for (size_t i = 0; i < sb.m; i++) {
            size_t j = (i * 7919u) % (m - 8);
            sb.ax[i] = b.ax[j], sb.ay[i] = b.ay[j], sb.dx[i] = b.dx[j], sb.dy[i] = b.dy[j];
            sb.tmin[i] = b.tmin[j], sb.tmax[i] = b.tmax[j], sb.q[i] = b.q[j],
            sb.mask[i] = b.mask[j];
        }
        batch_finish(&sb);
        uint32_t *bi = xcalloc(sb.m, 4);
        float *bt = xcalloc(sb.m, 4);
        hs_closest_out bo = {bi, bt, NULL, NULL, NULL, NULL, NULL};
        hs_batch_opts o1 = hs_batch_opts_default();
        assert_int_equal(hs_brute_closest(s.cs, &sb.qs, &o1, bo), HS_OK);
        for (size_t i = 0; i < sb.m; i++) {
            size_t j = (i * 7919u) % (m - 8);
            assert_int_equal(bi[i], i1[j]);
            assert_true(same_float(bt[i], t1[j]));
        }
        free(bi);
        free(bt);
        batch_free(&sb);
        hs_hits_free(&h1);
        free(i1), free(i2), free(c1), free(c2), free(t1), free(t2), free(p1), free(p2), free(a1),
            free(a2), free(geo1), free(geo2);
        batch_free(&b);
        hs_grid_destroy(g);
        scene_free(&s);
    }
}

/* Plain segments (no per-query tmin, tmax, q or mask arrays) in a large batch: the order
 * then keeps no permutation (answers are staged by position), so invalid and zero-length
 * queries are prepared from the block's own copy and the first invalid index is found after
 * the walk. Answers and stats must be those of the same queries in small batches. */
static void test_sorted_segments(void **state)
{
    (void)state;
    rng_state = 77;
    const hs_scene_kind kinds[] = {HS_SCENE_UNIFORM, HS_SCENE_LASERS};
    for (size_t kk = 0; kk < sizeof kinds / sizeof kinds[0]; kk++) {
        const hs_scene_kind kind = kinds[kk];
        /* above / below the sorting limits */
        const size_t n = 40000, m = test_emulated() ? 5000 : 9000, piece = 1000;
        scene s;
        scene_kind(&s, kind, n, 5u, 0);
        hs_grid *g = NULL;
        assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
        batch b;
        batch_mixed(&b, m, 0.0f, hs_scene_world_side(kind, n), g, 0);
        /* zero-length queries (the slow lane of the prep), half from a circle's centre */
        for (size_t k = 0; k < 16; k++) {
            const size_t i = 200 + 37 * k;
            if (k % 2 == 0) {
                b.ax[i] = s.x[1009 * k];
                b.ay[i] = s.y[1009 * k];
            }
            b.dx[i] = b.dy[i] = 0.0f;
        }
        b.ax[m - 7] = NAN; /* invalid ones, late in the caller's order */
        b.dx[m - 3] = INFINITY;
        const hs_queries qs = hs_queries_segments(b.ax, b.ay, b.dx, b.dy, m);
        uint32_t *i1 = xcalloc(m, 4), *i2 = xcalloc(m, 4), *c1 = xcalloc(m, 4), *c2 = xcalloc(m, 4);
        float *t1 = xcalloc(m, 4), *t2 = xcalloc(m, 4), *geo1 = xcalloc(4 * m, 4),
              *geo2 = xcalloc(4 * m, 4);
        uint8_t *a1 = xcalloc(m, 1), *a2 = xcalloc(m, 1);
        hs_batch_stats st;
        hs_batch_opts o = hs_batch_opts_default();
        o.stats = &st;
        for (int threads = 1; threads <= 2; threads++) {
            o.threads = threads;
            for (int geo = 0; geo < 2; geo++) {
                hs_closest_out out1 = {i1, t1, NULL, NULL, NULL, NULL, NULL};
                if (geo)
                    out1 =
                        (hs_closest_out){i1, t1, geo1, geo1 + m, geo1 + 2 * m, geo1 + 3 * m, NULL};
                memset(i1, 0, m * 4);
                assert_int_equal(hs_grid_closest(g, &qs, &o, out1), HS_E_INVALID_QUERY);
                assert_int_equal(st.invalid, 2);
                assert_int_equal(st.first_invalid, m - 7);
                memset(i2, 0, m * 4);
                for (size_t at = 0; at < m; at += piece) {
                    hs_queries q = hs_queries_segments(b.ax + at, b.ay + at, b.dx + at, b.dy + at,
                                                       m - at < piece ? m - at : piece);
                    hs_closest_out out2 = {i2 + at, t2 + at, NULL, NULL, NULL, NULL, NULL};
                    if (geo)
                        out2 = (hs_closest_out){i2 + at,       t2 + at,           geo2 + at,
                                                geo2 + m + at, geo2 + 2 * m + at, geo2 + 3 * m + at,
                                                NULL};
                    hs_grid_closest(g, &q, &o, out2);
                    hs_grid_any(g, &q, &o, a2 + at);
                    hs_grid_count_hits(g, &q, &o, c2 + at);
                }
                assert_memory_equal(i1, i2, m * 4);
                for (size_t i = 0; i < m; i++)
                    assert_true(same_float(t1[i], t2[i]));
                if (geo)
                    for (size_t i = 0; i < 4 * m; i++)
                        assert_true(same_float(geo1[i], geo2[i]));
            }
            memset(a1, 7, m);
            assert_int_equal(hs_grid_any(g, &qs, &o, a1), HS_E_INVALID_QUERY);
            assert_int_equal(st.first_invalid, m - 7);
            assert_memory_equal(a1, a2, m);
            memset(c1, 7, m * 4);
            assert_int_equal(hs_grid_count_hits(g, &qs, &o, c1), HS_E_INVALID_QUERY);
            assert_int_equal(st.first_invalid, m - 7);
            assert_memory_equal(c1, c2, m * 4);
        }
        size_t hits = 0, zero_hits = 0;
        for (size_t i = 0; i < m; i++)
            hits += i1[i] != HS_NONE;
        for (size_t k = 0; k < 16; k++)
            zero_hits += i1[200 + 37 * k] != HS_NONE;
        assert_true(hits > m / 20);  /* the batch hits something */
        assert_true(zero_hits >= 8); /* a zero-length query at a centre hits at t = 0 */
        /* an invalid query first in the caller's order */
        b.ay[3] = -INFINITY;
        hs_closest_out out1 = {i1, t1, NULL, NULL, NULL, NULL, NULL};
        assert_int_equal(hs_grid_closest(g, &qs, &o, out1), HS_E_INVALID_QUERY);
        assert_int_equal(st.invalid, 3);
        assert_int_equal(st.first_invalid, 3);
        assert_int_equal(i1[3], HS_NONE);
        free(i1), free(i2), free(c1), free(c2), free(t1), free(t2), free(a1), free(a2), free(geo1),
            free(geo2);
        batch_free(&b);
        hs_grid_destroy(g);
        scene_free(&s);
    }
}

static void test_empty_and_single(void **state)
{
    (void)state;
    rng_state = 5;
    /* empty */
    hs_circles *cs = NULL;
    float one = 1.0f;
    assert_int_equal(hs_circles_create(&one, &one, &one, NULL, 0, &cs, NULL), HS_OK);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    assert_int_equal(hs_grid_circle_count(g), 0);
    batch b;
    batch_alloc(&b, 40);
    for (size_t i = 0; i < b.m; i++)
        set_query(&b, i, (int)(i % 9), -5.0f, 5.0f, 0.0f, 0.0f, 1.0f, 0);
    batch_finish(&b);
    check_against_brute(g, cs, &b);
    hs_pairs pr;
    assert_int_equal(hs_grid_pairs(g, NULL, &pr), HS_OK);
    assert_int_equal(pr.count, 0);
    hs_pairs_free(&pr);
    size_t found = 7;
    assert_int_equal(hs_grid_overlap_circle(g, (hs_circle){0, 0, 100}, UINT32_MAX, NULL, 0, &found),
                     HS_OK);
    assert_int_equal(found, 0);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);

    /* one circle, and one point (r = 0) */
    for (int pt = 0; pt <= 1; pt++) {
        float x = 0.25f, y = -0.75f, r = pt ? 0.0f : 1.0f;
        assert_int_equal(hs_circles_create(&x, &y, &r, NULL, 1, &cs, NULL), HS_OK);
        assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
        assert_true(hs_grid_cell_size(g) > 0.0f);
        for (size_t i = 0; i < b.m; i++)
            set_query(&b, i, (int)(i % 9), -3.0f, 3.0f, x, y, 1.0f, 0);
        b.ax[0] = -5.0f, b.ay[0] = y, b.dx[0] = 10.0f, b.dy[0] = 0.0f; /* through the centre */
        b.tmin[0] = 0.0f, b.tmax[0] = 1.0f, b.q[0] = 0.0f;
        check_against_brute(g, cs, &b);
        uint32_t ids[2] = {9, 9};
        assert_int_equal(
            hs_grid_overlap_circle(g, (hs_circle){x + r + 1.0f, y, 1.0f}, 1u, ids, 2, &found),
            HS_OK);
        assert_int_equal(found, 1); /* touching counts */
        assert_int_equal(ids[0], 0);
        hs_grid_destroy(g);
        hs_circles_destroy(cs);
    }
    batch_free(&b);
}

/* ---- pairs and overlap ------------------------------------------------------------------------
 */
static int ref_overlap(const scene *s, size_t i, size_t j, float skin)
{
    (void)skin;
    float dx = s->x[i] - s->x[j], dy = s->y[i] - s->y[j], rr = s->r[i] + s->r[j];
    return dx * dx + dy * dy <= rr * rr;
}

/* hs_grid_pairs_within's definition, in double */
static int ref_within(const scene *s, size_t i, size_t j, float skin)
{
    double dx = (double)s->x[i] - (double)s->x[j], dy = (double)s->y[i] - (double)s->y[j];
    double d = ((double)s->r[i] + (double)s->r[j]) + (double)skin;
    return dx * dx + dy * dy <= d * d;
}

/* the sweep's keys: each circle's left end on x, x - r, in double */
static const double *sweep_lo;
static int by_lo(const void *a, const void *b)
{
    const uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    const double li = sweep_lo[i], lj = sweep_lo[j];
    return li < lj ? -1 : li > lj ? 1 : (i > j) - (i < j);
}
static int by_key(const void *a, const void *b)
{
    const uint64_t u = *(const uint64_t *)a, v = *(const uint64_t *)b;
    return (u > v) - (u < v);
}

/* The pairs (i < j) that `meets`, as keys i << 32 | j in increasing order (*out, malloc'd):
 * sweep and prune on x. The circles in order of their left ends x - r; each is tested against
 * those after it whose left end lies within its right end x + r + skin. Two circles that meet
 * overlap on x (x_j - r_j <= x_i + r_i + skin), so each such pair is tested from the one that
 * comes first. The right end has a margin of 1e-5 of the reach r_i + max r + skin, and of
 * 2^-40 of |x_i|: a pair further apart on x fails either predicate whatever its rounding.
 * Returns the count. */
static size_t ref_pairs(const scene *s, float skin,
                        int (*meets)(const scene *, size_t, size_t, float), uint64_t **out)
{
    const size_t n = s->n;
    uint32_t *order = xcalloc(n + 1, sizeof *order);
    double *lo = xcalloc(n + 1, sizeof *lo);
    float rmax = 0.0f;
    for (size_t i = 0; i < n; i++) {
        order[i] = (uint32_t)i;
        lo[i] = (double)s->x[i] - (double)s->r[i];
        rmax = s->r[i] > rmax ? s->r[i] : rmax;
    }
    sweep_lo = lo;
    qsort(order, n, sizeof *order, by_lo);
    size_t count = 0, cap = 1024;
    uint64_t *keys = xcalloc(cap, sizeof *keys);
    for (size_t a = 0; a < n; a++) {
        const uint32_t i = order[a];
        const double reach = (double)s->r[i] + (double)rmax + (double)skin;
        const double hi = (double)s->x[i] + (double)s->r[i] + (double)skin + 1e-5 * reach +
                          0x1p-40 * fabs((double)s->x[i]);
        for (size_t b = a + 1; b < n && lo[order[b]] <= hi; b++) {
            const uint32_t j = order[b];
            if (!meets(s, i, j, skin))
                continue;
            if (count == cap) {
                cap *= 2;
                keys = realloc(keys, cap * sizeof *keys);
                assert_non_null(keys);
            }
            keys[count++] = i < j ? (uint64_t)i << 32 | j : (uint64_t)j << 32 | i;
        }
    }
    qsort(keys, count, sizeof *keys, by_key);
    free(lo);
    free(order);
    *out = keys;
    return count;
}

/* hs_grid_pairs on 1 to 4 threads against the reference: every pair (i < j) in (i, j) order,
 * the same arrays for every team size. */
static void check_pairs(const scene *s, const hs_grid *g)
{
    uint64_t *keys;
    const size_t nref = ref_pairs(s, 0.0f, ref_overlap, &keys);
    for (int th = 1; th <= 4; th++) {
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = th;
        hs_pairs p;
        assert_int_equal(hs_grid_pairs(g, &o, &p), HS_OK);
        assert_int_equal(p.count, nref);
        for (size_t k = 0; k < nref; k++)
            if (p.i[k] != (uint32_t)(keys[k] >> 32) || p.j[k] != (uint32_t)keys[k])
                fail_msg("threads %d, pair %zu: got (%u, %u), want (%u, %u)", th, k, p.i[k], p.j[k],
                         (uint32_t)(keys[k] >> 32), (uint32_t)keys[k]);
        hs_pairs_free(&p);
    }
    free(keys);
}

/* A scene of `kind` with its centres scaled by `squeeze` (< 1: denser, more contacts) and its
 * grid. */
static hs_grid *dense_scene(scene *s, hs_scene_kind kind, size_t n, uint64_t seed, float squeeze)
{
    scene_kind(s, kind, n, seed, 0);
    for (size_t i = 0; i < n; i++) {
        s->x[i] *= squeeze;
        s->y[i] *= squeeze;
    }
    hs_circles_destroy(s->cs);
    assert_int_equal(hs_circles_create(s->x, s->y, s->r, NULL, n, &s->cs, NULL), HS_OK);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s->cs, NULL, &g), HS_OK);
    return g;
}

/* A scene of `kind` squeezed into a denser world than the benchmark's (plenty of contacts),
 * its pairs checked by check_pairs; returns how many there were. */
static size_t check_dense_pairs(hs_scene_kind kind, size_t n, uint64_t seed)
{
    scene s;
    hs_grid *g = dense_scene(&s, kind, n, seed, 0.3f);
    check_pairs(&s, g);
    hs_pairs p;
    assert_int_equal(hs_grid_pairs(g, NULL, &p), HS_OK);
    size_t count = p.count;
    hs_pairs_free(&p);
    hs_grid_destroy(g);
    scene_free(&s);
    return count;
}

static void test_pairs(void **state)
{
    (void)state;
    size_t total = 0;
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++)
        total += check_dense_pairs((hs_scene_kind)kind, scale(2500), 31u + (uint64_t)kind);
    /* more circles than one block of hs_grid_pairs (4096), whatever the test scale, so the
     * blocks are scanned by several threads and merged: mixed, for the two levels */
    total += check_dense_pairs(HS_SCENE_MIXED, 9000, 77u);
    /* several buckets of indices in the assembly (4096 each) and several blocks of big
     * circles (16 each), big circles with thousands of partners, whatever the test scale */
    if (!test_emulated()) { /* the assembly alone, which no ISA changes: natively only */
        total += check_dense_pairs(HS_SCENE_MIXED, 24000, 78u);
        total += check_dense_pairs(HS_SCENE_CLUSTERED, 16000, 79u);
        /* lists in their arena (HS_PAIR_ARENA_MIN circles on), and past it: a crowd of several
         * pairs a circle */
        total += check_dense_pairs(HS_SCENE_UNIFORM, HS_PAIR_ARENA_MIN + 4000, 80u);
    }
    /* exact touching, duplicates, points */
    scene s;
    scene_alloc(&s, 6);
    const float v[6][3] = {{0, 0, 1}, {2, 0, 1}, {2, 0, 1}, {5, 5, 0}, {5, 5, 0}, {4, 0, 0}};
    for (int i = 0; i < 6; i++)
        s.x[i] = v[i][0], s.y[i] = v[i][1], s.r[i] = v[i][2];
    scene_finish(&s, 0);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
    check_pairs(&s, g);
    hs_pairs p;
    assert_int_equal(hs_grid_pairs(g, NULL, &p), HS_OK);
    assert_int_equal(p.count, 4); /* 0-1, 0-2, 1-2, 3-4 (1-5 and 2-5 are 2 apart, r sum 1) */
    hs_pairs_free(&p);
    hs_grid_destroy(g);
    scene_free(&s);
    print_message("pairs: %zu contacts checked against the sweep\n", total);
}

/* Lists of a search sharing an arena: pairs appended one by one, in turn to each list, well
 * past the arena's room, all kept in order; lists in the arena while it lasts, then from
 * malloc; the last of them freed with the arena. */
static void test_pair_lists(void **state)
{
    (void)state;
    for (int carry = 0; carry <= 1; carry++) {
        const size_t n = HS_PAIR_ARENA_MIN, nl = 3, per = 8 * n; /* 8 pairs a circle */
        hs_pair_list *lists = hs_pair_lists_make(nl, n, carry);
        assert_non_null(lists);
        const int lazy = hs_alloc_is_lazy();
        for (size_t b = 0; b < nl; b++)
            assert_int_equal(lists[b].arena != NULL, lazy);
        int seen_in = 0, seen_out = 0;
        for (size_t k = 0; k < per; k++)
            for (size_t b = 0; b < nl; b++) {
                hs_pair_list *B = &lists[b];
                assert_true(hs_pair_list_reserve(B, 1));
                B->i[B->len] = (uint32_t)(k * nl + b);
                B->j[B->len] = (uint32_t)(k ^ b);
                if (carry)
                    B->rec[B->len].contact.gap = (float)k;
                B->len++;
                seen_in |= B->in_arena;
                seen_out |= !B->in_arena;
            }
        assert_int_equal(seen_in, lazy);
        assert_true(seen_out); /* the arena holds 3 pairs a circle, with copies */
        for (size_t b = 0; b < nl; b++) {
            const hs_pair_list *B = &lists[b];
            assert_int_equal(B->len, per);
            assert_int_equal(B->oom, 0);
            for (size_t k = 0; k < per; k++) {
                assert_int_equal(B->i[k], k * nl + b);
                assert_int_equal(B->j[k], k ^ b);
                if (carry)
                    assert_true(B->rec[k].contact.gap == (float)k);
            }
        }
        hs_pair_list_free(&lists[1]); /* one alone, then the rest with the arena */
        assert_int_equal(lists[1].len, 0);
        hs_pair_lists_free(lists, nl);
    }
}

/* hs_grid_pairs_within against the reference in double (the contract's formula), on 1 to 4
 * threads: every pair (i < j) in (i, j) order; skin = 0 is hs_grid_pairs exactly. */
static void check_pairs_within(const scene *s, const hs_grid *g, float skin)
{
    uint64_t *keys;
    const size_t nref = ref_pairs(s, skin, ref_within, &keys);
    for (int th = 1; th <= 4; th++) {
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = th;
        hs_pairs p;
        assert_int_equal(hs_grid_pairs_within(g, skin, &o, &p), HS_OK);
        assert_int_equal(p.count, nref);
        for (size_t k = 0; k < p.count; k++)
            if (p.i[k] != (uint32_t)(keys[k] >> 32) || p.j[k] != (uint32_t)keys[k])
                fail_msg("skin %g threads %d, pair %zu: got (%u, %u), want (%u, %u)", (double)skin,
                         th, k, p.i[k], p.j[k], (uint32_t)(keys[k] >> 32), (uint32_t)keys[k]);
        if (skin == 0.0f) {
            hs_pairs q;
            assert_int_equal(hs_grid_pairs(g, &o, &q), HS_OK);
            assert_int_equal(q.count, p.count);
            assert_memory_equal(q.i, p.i, p.count * sizeof *p.i);
            assert_memory_equal(q.j, p.j, p.count * sizeof *p.j);
            hs_pairs_free(&q);
        }
        hs_pairs_free(&p);
    }
    free(keys);
}

static void test_pairs_within(void **state)
{
    (void)state;
    const hs_scene_kind kinds[] = {HS_SCENE_UNIFORM, HS_SCENE_MIXED, HS_SCENE_CLUSTERED};
    const float skins[] = {0.0f, 0.5f, 2.0f, 9.0f};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        scene s;
        /* mixed: more than one block (4096), two levels */
        size_t n = k == 1 ? (test_emulated() ? 4500 : 9000) : scale(3000);
        hs_grid *g = dense_scene(&s, kinds[k], n, 41u + k, 0.5f);
        for (size_t q = 0; q < sizeof skins / sizeof skins[0]; q++)
            check_pairs_within(&s, g, skins[q]);
        hs_grid_destroy(g);
        scene_free(&s);
    }
    /* cells far wider than the circles (a user's cell size, a cluster in a wide world): the
     * crowded ones are cut into sub-cells, and the pieces of a box searched must hold every
     * partner, of small and big circles alike */
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        scene s;
        hs_grid *g = dense_scene(&s, kinds[k], scale(3000), 51u + k, 0.3f);
        hs_grid_destroy(g);
        const hs_grid_opts o = {.cell_size = 24.0f};
        assert_int_equal(hs_grid_build(s.cs, &o, &g), HS_OK);
        check_pairs(&s, g);
        check_pairs_within(&s, g, 2.0f);
        hs_grid_destroy(g);
        scene_free(&s);
    }
    /* a gap of exactly the skin counts */
    scene s;
    scene_alloc(&s, 4);
    const float v[4][3] = {{0, 0, 1}, {3, 0, 1}, {40, 0, 30}, {72, 0, 0}};
    for (int i = 0; i < 4; i++)
        s.x[i] = v[i][0], s.y[i] = v[i][1], s.r[i] = v[i][2];
    scene_finish(&s, 0);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
    hs_pairs p;
    assert_int_equal(hs_grid_pairs_within(g, 1.0f, NULL, &p), HS_OK);
    assert_int_equal(p.count, 1); /* 0-1: gap 1 */
    hs_pairs_free(&p);
    assert_int_equal(hs_grid_pairs_within(g, 2.0f, NULL, &p), HS_OK);
    assert_int_equal(p.count, 2); /* 0-1 (gap 1), 2-3 (gap 2) */
    hs_pairs_free(&p);
    for (size_t q = 0; q < 4; q++)
        check_pairs_within(&s, g, (float)q * 1.5f);
    /* bad skins: a clear code, an empty result */
    const struct {
        float skin;
        hs_status want;
    } bad[] = {{NAN, HS_E_NONFINITE},
               {INFINITY, HS_E_NONFINITE},
               {-1.0f, HS_E_NEG_RADIUS},
               {1e30f, HS_E_RANGE}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        p.count = 99;
        assert_int_equal(hs_grid_pairs_within(g, bad[k].skin, NULL, &p), bad[k].want);
        assert_int_equal(p.count, 0);
        assert_null(p.i);
    }
    assert_int_equal(hs_grid_pairs_within(NULL, 0.0f, NULL, &p), HS_E_NULL);
    hs_grid_destroy(g);
    scene_free(&s);
}

static void test_overlap_circle(void **state)
{
    (void)state;
    rng_state = 404;
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++) {
        scene s;
        size_t n = scale(5000);
        scene_kind(&s, (hs_scene_kind)kind, n, 3u, 1);
        hs_grid *g = NULL;
        assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
        float side = hs_scene_world_side((hs_scene_kind)kind, n);
        uint32_t *ref = xcalloc(n, 4), *got = xcalloc(n, 4);
        for (int qn = 0; qn < (int)scale(400); qn++) {
            hs_circle c = {unif(-10.0f, side + 10.0f), unif(-10.0f, side + 10.0f),
                           (qn % 4 == 0) ? 0.0f : unif(0.0f, 30.0f)};
            uint32_t m = (qn % 3 == 0) ? UINT32_MAX : (uint32_t)(rnd() & 15);
            size_t nref = 0;
            for (size_t i = 0; i < n; i++) {
                float dx = c.x - s.x[i], dy = c.y - s.y[i], rr = c.r + s.r[i];
                if ((s.mask[i] & m) != 0 && dx * dx + dy * dy <= rr * rr)
                    ref[nref++] = (uint32_t)i;
            }
            size_t found = 0;
            assert_int_equal(hs_grid_overlap_circle(g, c, m, got, n, &found), HS_OK);
            assert_int_equal(found, nref);
            if (nref)
                assert_memory_equal(got, ref, nref * sizeof(uint32_t));
            /* a short buffer gets the smallest indices, still in order */
            size_t cap = nref / 2;
            assert_int_equal(hs_grid_overlap_circle(g, c, m, got, cap, &found), HS_OK);
            assert_int_equal(found, nref);
            if (cap)
                assert_memory_equal(got, ref, cap * sizeof(uint32_t));
        }
        size_t found;
        assert_int_equal(hs_grid_overlap_circle(g, (hs_circle){0, 0, -1}, 1u, got, 1, &found),
                         HS_E_NEG_RADIUS);
        assert_int_equal(hs_grid_overlap_circle(g, (hs_circle){NAN, 0, 1}, 1u, got, 1, &found),
                         HS_E_NONFINITE);
        free(ref);
        free(got);
        hs_grid_destroy(g);
        scene_free(&s);
    }
}

/* ---- build: determinism, rebuild, memory ------------------------------------------------------
 */
static void assert_same_grid(const hs_grid *a, const hs_grid *b)
{
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->ncells, b->ncells);
    assert_int_equal(a->nlevels, b->nlevels);
    assert_memory_equal(a->cell_start, b->cell_start, (a->ncells + 1) * sizeof(uint32_t));
    if (a->n) {
        assert_memory_equal(a->x, b->x, a->n * sizeof(float));
        assert_memory_equal(a->y, b->y, a->n * sizeof(float));
        assert_memory_equal(a->r, b->r, a->n * sizeof(float));
        assert_memory_equal(a->id, b->id, a->n * sizeof(uint32_t));
        assert_int_equal(a->mask == NULL, b->mask == NULL);
        if (a->mask)
            assert_memory_equal(a->mask, b->mask, a->n * sizeof(uint32_t));
    }
}

/* The CSR invariants of g: cells sorted, each circle in its centre's cell, a cut cell's circles
 * in sub-cell order with the table naming each one's start, the sort's order kept within a
 * (sub-)cell. Returns the circles past the first sub-cell of a cut cell. */
static size_t check_cells(const hs_grid *g1)
{
    size_t cut = 0; /* circles past the first sub-cell of a cut cell */
    for (int l = 0; l < g1->nlevels; l++) {
        const hs_glevel *L = &g1->lv[l];
        for (int32_t cy = 0; cy < L->ny; cy++)
            for (int32_t cx = 0; cx < L->nx; cx++) {
                size_t c = L->cell0 + (size_t)cy * (size_t)L->nx + (size_t)cx;
                const uint32_t b = g1->cell_start[c], e = g1->cell_start[c + 1];
                const uint32_t k = hs_subcell_k(L, e - b);
                for (uint32_t p = b; p < e; p++) {
                    assert_int_equal(hs_gcell(g1->x[p], L->ox, L->inv_h, L->nx), cx);
                    assert_int_equal(hs_gcell(g1->y[p], L->oy, L->inv_h, L->ny), cy);
                    /* a cut cell: ordered by sub-cell, the table naming each one's start */
                    const uint32_t s = k < 2 ? 0
                                             : hs_subcell_of(g1->y[p], L->oy, L->inv_h, cy, k) * k +
                                                   hs_subcell_of(g1->x[p], L->ox, L->inv_h, cx, k);
                    if (k > 1) {
                        assert_true(g1->sub[b + s] <= p);
                        assert_true(s + 1 == k * k || p < g1->sub[b + s + 1]);
                        cut += s > 0;
                    }
                    if (p > b && (k < 2 || p > g1->sub[b + s]))
                        assert_true(g1->id[p] > g1->id[p - 1]);
                }
            }
    }
    return cut;
}

static void test_build_deterministic(void **state)
{
    (void)state;
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++) {
        scene s;
        /* more circles than HS_GRID_DIRECT even in a quick run (the band sort is what splits
         * work between threads); odd kinds with filter masks, which it moves with the circles */
        scene_kind(&s, (hs_scene_kind)kind, 50000, 11u, kind % 2);
        hs_grid *g1 = NULL;
        hs_grid_opts o = {.cell_size = 0.0f, .threads = 1};
        assert_int_equal(hs_grid_build(s.cs, &o, &g1), HS_OK);
        for (int th = 2; th <= 3; th++) {
            hs_grid *g = NULL;
            o.threads = th;
            assert_int_equal(hs_grid_build(s.cs, &o, &g), HS_OK);
            assert_same_grid(g1, g);
            hs_grid_destroy(g);
        }
        /* every input circle stored once, with its own coordinates and radius */
        unsigned char *seen = calloc(g1->n ? g1->n : 1, 1);
        assert_non_null(seen);
        assert_int_equal(g1->n, s.cs->n);
        for (size_t p = 0; p < g1->n; p++) {
            const uint32_t i = g1->id[p];
            assert_true(i < s.cs->n);
            assert_int_equal(seen[i], 0);
            seen[i] = 1;
            assert_true(g1->x[p] == s.cs->x[i] && g1->y[p] == s.cs->y[i] && g1->r[p] == s.cs->r[i]);
            if (kind % 2)
                assert_int_equal(g1->mask[p], s.mask[i]);
        }
        free(seen);
        const size_t cut = check_cells(g1);
        if (kind == HS_SCENE_SPARSE) /* its clusters crowd their cells */
            assert_true(cut > 0);
        hs_grid_destroy(g1);
        scene_free(&s);
    }
    /* cells of thousands of circles, more than a band of the sort holds (sorted in place, then
     * cut): the same pairs as on the automatic cells, for every team size */
    scene s;
    hs_grid *g = dense_scene(&s, HS_SCENE_UNIFORM, 40000, 13u, 0.3f);
    hs_pairs want;
    assert_int_equal(hs_grid_pairs(g, NULL, &want), HS_OK);
    hs_grid_destroy(g);
    for (int th = 1; th <= 2; th++) {
        const hs_grid_opts o = {.cell_size = 120.0f, .threads = th};
        assert_int_equal(hs_grid_build(s.cs, &o, &g), HS_OK);
        assert_true(check_cells(g) > 0);
        hs_pairs p;
        assert_int_equal(hs_grid_pairs(g, NULL, &p), HS_OK);
        assert_int_equal(p.count, want.count);
        assert_memory_equal(p.i, want.i, p.count * sizeof *p.i);
        assert_memory_equal(p.j, want.j, p.count * sizeof *p.j);
        hs_pairs_free(&p);
        hs_grid_destroy(g);
    }
    hs_pairs_free(&want);
    scene_free(&s);
}

static void test_rebuild(void **state)
{
    (void)state;
    rng_state = 9;
    scene s;
    size_t n = scale(8000);
    scene_kind(&s, HS_SCENE_MIXED, n, 12u, 1);
    hs_grid *g = NULL;
    hs_grid_opts o = {.cell_size = 0.0f, .threads = 2};
    assert_int_equal(hs_grid_build(s.cs, &o, &g), HS_OK);
    float side = hs_scene_side(n);
    for (int frame = 0; frame < 3; frame++) {
        /* particles move (some far outside the old bounds), and the count changes */
        size_t n2 = frame == 1 ? n / 2 : n;
        for (size_t i = 0; i < n2; i++) {
            s.x[i] += unif(-3.0f, 3.0f) + (i % 97 == 0 ? side : 0.0f);
            s.y[i] += unif(-3.0f, 3.0f);
        }
        hs_circles *cs2 = NULL;
        assert_int_equal(hs_circles_create(s.x, s.y, s.r, s.mask, n2, &cs2, NULL), HS_OK);
        size_t bytes_before = hs_grid_bytes(g);
        assert_int_equal(hs_grid_rebuild(g, cs2), HS_OK);
        if (frame != 0)
            assert_true(hs_grid_bytes(g) <= bytes_before + 64 * 1024); /* memory reused */
        assert_int_equal(hs_grid_circle_count(g), n2);
        hs_grid *fresh = NULL;
        assert_int_equal(hs_grid_build(cs2, &o, &fresh), HS_OK);
        assert_same_grid(g, fresh);
        hs_grid_destroy(fresh);
        batch b;
        batch_mixed(&b, scale(600), 0.0f, 2.0f * side, g, 1);
        check_against_brute(g, cs2, &b);
        batch_free(&b);
        hs_circles_destroy(cs2);
    }
    hs_grid_destroy(g);
    scene_free(&s);
}

static void test_bytes_per_circle(void **state)
{
    (void)state;
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++) {
        size_t n = scale(200000);
        scene s;
        scene_kind(&s, (hs_scene_kind)kind, n, 1u, 0);
        hs_grid *g = NULL;
        hs_grid_opts o = {.cell_size = 0.0f, .threads = 2};
        assert_int_equal(hs_grid_build(s.cs, &o, &g), HS_OK);
        double bpc = (double)hs_grid_bytes(g) / (double)n;
        print_message("%s N=%zu: %.2f bytes/circle, cell %.3f, %d level(s)\n",
                      hs_scene_kind_name((hs_scene_kind)kind), n, bpc, (double)hs_grid_cell_size(g),
                      g->nlevels);
        assert_true(bpc <= 32.0);
        hs_grid_destroy(g);
        scene_free(&s);
    }
}

/* A borrowed set whose arrays now hold a bad value (the frame-loop pattern: the caller moves
 * its own arrays, then rebuilds): every kind is refused with its code and index, nothing
 * hangs, and the grid still answers for its last good build. hs_grid_rebuild_from the same. */
/* A cell size the caller asks for is used as given, also where the automatic cap (N / 2 + 64
 * cells) would have grown it, or refused with HS_E_RANGE, the grid then unchanged. */
static void test_cell_size_as_given(void **state)
{
    (void)state;
    const size_t n = 1000;
    scene s;
    scene_kind(&s, HS_SCENE_UNIFORM, n, 3u, 0);
    const float side = hs_scene_world_side(HS_SCENE_UNIFORM, n);
    /* side / 2 per cell edge: 2500 cells for 1000 circles, past the automatic cap of 564 */
    const float h = side / 50.0f;
    hs_grid *g = NULL;
    hs_grid_opts go = {.cell_size = h, .threads = 1};
    assert_int_equal(hs_grid_build(s.cs, &go, &g), HS_OK);
    assert_true(hs_grid_cell_size(g) == h);
    batch b;
    batch_mixed(&b, 300, 0.0f, side, g, 0);
    check_against_brute(g, s.cs, &b);
    batch_free(&b);
    /* 16 n + 65536 cells at most: side / 400 per edge makes 160 000 */
    hs_grid *none = NULL;
    go.cell_size = side / 400.0f;
    assert_int_equal(hs_grid_build(s.cs, &go, &none), HS_E_RANGE);
    assert_null(none);
    /* a rebuild that would need more cells than that (the circles spread 100 times wider) is
     * refused too, and the grid keeps its circles and its cell size */
    float *wx = xcalloc(n, sizeof(float));
    for (size_t i = 0; i < n; i++)
        wx[i] = s.x[i] * 100.0f;
    size_t bad = 0;
    assert_int_equal(hs_grid_rebuild_from(g, wx, s.y, s.r, NULL, n, &bad), HS_E_RANGE);
    assert_true(bad == (size_t)-1);
    assert_int_equal(hs_grid_circle_count(g), n);
    assert_true(hs_grid_cell_size(g) == h);
    free(wx);
    hs_grid_destroy(g);
    scene_free(&s);
}

static void test_rebuild_bad_values(void **state)
{
    (void)state;
    enum { N = 4 };
    struct {
        int field; /* 0 x, 1 y, 2 r */
        float v;
        hs_status want;
    } bad[] = {{0, INFINITY, HS_E_NONFINITE}, {0, -INFINITY, HS_E_NONFINITE},
               {1, NAN, HS_E_NONFINITE},      {2, NAN, HS_E_NONFINITE},
               {2, INFINITY, HS_E_NONFINITE}, {0, 1e30f, HS_E_RANGE},
               {1, -1e30f, HS_E_RANGE},       {2, 1e30f, HS_E_RANGE},
               {2, -1.0f, HS_E_NEG_RADIUS},   {2, -0.0f, HS_OK}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (int from_arrays = 0; from_arrays < 2; from_arrays++) {
            float x[N] = {0, 5, 10, 15}, y[N] = {0, 0, 0, 0}, r[N] = {1, 1, 1, 1};
            hs_circles *cs = NULL;
            assert_int_equal(hs_circles_borrow(x, y, r, NULL, N, &cs, NULL), HS_OK);
            hs_grid *g = NULL;
            assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
            float *field = bad[k].field == 0 ? x : bad[k].field == 1 ? y : r;
            field[2] = bad[k].v;
            size_t at = 0;
            hs_status s = from_arrays ? hs_grid_rebuild_from(g, x, y, r, NULL, N, &at)
                                      : hs_grid_rebuild(g, cs);
            assert_int_equal(s, bad[k].want);
            if (from_arrays)
                assert_int_equal(at, bad[k].want == HS_OK ? (size_t)-1 : 2);
            assert_int_equal(hs_grid_circle_count(g), N);
            /* a laser along y = 0 from the left: the circle at x = 10 is still there and
             * still a unit circle when the rebuild was refused */
            float ax = -10, ay = 0, dx = 40, dy = 0;
            hs_queries qs = hs_queries_segments(&ax, &ay, &dx, &dy, 1);
            uint32_t cnt = 0;
            assert_int_equal(hs_grid_count_hits(g, &qs, NULL, &cnt), HS_OK);
            assert_int_equal(cnt, 4);
            if (bad[k].want != HS_OK) {
                float bx = 9.5f, by = 0.5f, ex = 0, ey = 0;
                hs_queries pt = hs_queries_segments(&bx, &by, &ex, &ey, 1);
                uint8_t hit = 0;
                assert_int_equal(hs_grid_any(g, &pt, NULL, &hit), HS_OK);
                assert_int_equal(hit, 1); /* the old circle 2 answers */
            }
            /* the value fixed, the next rebuild succeeds and sees the new positions */
            field[2] = bad[k].field == 2 ? 1.0f : 100.0f;
            assert_int_equal(hs_grid_rebuild(g, cs), HS_OK);
            assert_int_equal(hs_grid_count_hits(g, &qs, NULL, &cnt), HS_OK);
            assert_int_equal(cnt, bad[k].field == 2 ? 4u : 3u);
            hs_grid_destroy(g);
            hs_circles_destroy(cs);
        }
    }
    /* the array call's own argument checks */
    hs_grid *g = NULL;
    float one = 1.0f;
    hs_circles *cs = NULL;
    assert_int_equal(hs_circles_create(&one, &one, &one, NULL, 1, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    size_t at = 0;
    assert_int_equal(hs_grid_rebuild_from(NULL, &one, &one, &one, NULL, 1, &at), HS_E_NULL);
    assert_int_equal(hs_grid_rebuild_from(g, NULL, &one, &one, NULL, 1, &at), HS_E_NULL);
    assert_int_equal(hs_grid_rebuild_from(g, NULL, NULL, NULL, NULL, 0, &at), HS_OK);
    assert_int_equal(hs_grid_circle_count(g), 0);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

static void test_bad_input(void **state)
{
    (void)state;
    scene s;
    scene_kind(&s, HS_SCENE_UNIFORM, 100, 1u, 0);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(NULL, NULL, &g), HS_E_NULL);
    assert_int_equal(hs_grid_build(s.cs, NULL, NULL), HS_E_NULL);
    hs_grid_opts bad = {.cell_size = -1.0f, .threads = 0};
    assert_int_equal(hs_grid_build(s.cs, &bad, &g), HS_E_RANGE);
    bad.cell_size = NAN;
    assert_int_equal(hs_grid_build(s.cs, &bad, &g), HS_E_RANGE);
    assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
    assert_int_equal(hs_grid_rebuild(g, NULL), HS_E_NULL);
    /* invalid queries are misses, counted, first index reported */
    batch b;
    batch_alloc(&b, 4);
    b.ax[0] = 10, b.dx[0] = 5;
    b.ax[1] = NAN;
    b.ax[2] = 10, b.dx[2] = 1, b.tmin[2] = 2.0f, b.tmax[2] = 1.0f;
    b.ax[3] = 10, b.dx[3] = 1, b.q[3] = -1.0f;
    batch_finish(&b);
    hs_batch_stats st;
    hs_batch_opts o = hs_batch_opts_default();
    o.stats = &st;
    uint32_t idx[4];
    float t[4];
    hs_closest_out out = {idx, t, NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(hs_grid_closest(g, &b.qs, &o, out), HS_E_INVALID_QUERY);
    assert_int_equal(st.invalid, 3);
    assert_int_equal(st.first_invalid, 1);
    assert_int_equal(idx[1], HS_NONE);
    assert_int_equal(hs_grid_closest(NULL, &b.qs, &o, out), HS_E_NULL);
    hs_pairs p;
    assert_int_equal(hs_grid_pairs(NULL, NULL, &p), HS_E_NULL);
    batch_free(&b);
    hs_grid_destroy(g);
    hs_grid_destroy(NULL);
    assert_int_equal(hs_grid_circle_count(NULL), 0);
    assert_int_equal(hs_grid_bytes(NULL), 0);
    scene_free(&s);
}

/* ---- scenes -------------------------------------------------------------------------------- */
static void test_scene_generators(void **state)
{
    (void)state;
    assert_int_equal(hs_scene_kind_from_name("uniform"), HS_SCENE_UNIFORM);
    assert_int_equal(hs_scene_kind_from_name("clustered"), HS_SCENE_CLUSTERED);
    assert_int_equal(hs_scene_kind_from_name("mixed"), HS_SCENE_MIXED);
    assert_int_equal(hs_scene_kind_from_name("Uniform "), HS_SCENE_INVALID);
    assert_int_equal(hs_scene_kind_from_name(NULL), HS_SCENE_INVALID);
    assert_string_equal(hs_scene_kind_name(HS_SCENE_MIXED), "mixed");
    assert_float_equal(hs_scene_side(1000000), 4000.0f, 1e-3f);
    size_t n = 100000;
    float *x = xcalloc(n, 4), *y = xcalloc(n, 4), *r = xcalloc(n, 4);
    float *x2 = xcalloc(n, 4), *y2 = xcalloc(n, 4), *r2 = xcalloc(n, 4);
    assert_float_equal(hs_scene_world_side(HS_SCENE_SPARSE, n), 5.0f * hs_scene_side(n), 1e-3f);
    for (int kind = 0; kind < HS_TEST_SCENES_CLASSIC; kind++) {
        const float side = hs_scene_world_side((hs_scene_kind)kind, n);
        assert_int_equal(hs_scene_circles((hs_scene_kind)kind, n, 42u, x, y, r), HS_OK);
        assert_int_equal(hs_scene_circles((hs_scene_kind)kind, n, 42u, x2, y2, r2), HS_OK);
        assert_memory_equal(x, x2, n * 4); /* reproducible */
        assert_memory_equal(r, r2, n * 4);
        size_t big = 0;
        double mx = 0, my = 0;
        for (size_t i = 0; i < n; i++) {
            assert_true(x[i] >= 0.0f && x[i] <= side && y[i] >= 0.0f && y[i] <= side);
            if (r[i] > 1.5f) {
                assert_true((kind == HS_SCENE_MIXED && r[i] >= 50.0f && r[i] <= 150.0f) ||
                            (kind == HS_SCENE_LASERS && r[i] >= 10.0f && r[i] <= 40.0f));
                big++;
            } else {
                assert_true(r[i] >= 0.5f);
            }
            mx += x[i];
            my += y[i];
        }
        if (kind == HS_SCENE_MIXED || kind == HS_SCENE_LASERS)
            assert_true(big > n / 2000 && big < n / 500); /* about 0.1% */
        if (kind == HS_SCENE_UNIFORM) {
            assert_true(fabs(mx / (double)n - side / 2.0) < side * 0.01);
            assert_true(fabs(my / (double)n - side / 2.0) < side * 0.01);
        }
    }
    assert_int_equal(hs_scene_circles(HS_SCENE_MIXED, n, 43u, x2, y2, r2), HS_OK);
    assert_memory_not_equal(x, x2, n * 4); /* the seed matters */
    assert_int_equal(hs_scene_circles(HS_SCENE_INVALID, 1, 1u, x, y, r), HS_E_RANGE);
    assert_int_equal(hs_scene_circles(HS_SCENE_UNIFORM, 1, 1u, NULL, y, r), HS_E_NULL);
    /* segments: length in [5, 50], start in the world */
    assert_int_equal(hs_scene_segments(HS_SCENE_UNIFORM, n, n, 42u, x, y, x2, y2), HS_OK);
    double mean = 0;
    for (size_t i = 0; i < n; i++) {
        float len = sqrtf(x2[i] * x2[i] + y2[i] * y2[i]);
        assert_true(len >= 4.999f && len <= 50.001f);
        assert_true(x[i] >= 0.0f && x[i] <= hs_scene_side(n));
        mean += len;
    }
    assert_true(fabs(mean / (double)n - 27.5) < 0.5);
    /* lasers' segments are 1.6 times longer, sparse's span its larger world */
    const float len_lo[2] = {8.0f, 200.0f}, len_hi[2] = {80.0f, 1200.0f};
    const hs_scene_kind longer[2] = {HS_SCENE_LASERS, HS_SCENE_SPARSE};
    for (int k = 0; k < 2; k++) {
        const float side = hs_scene_world_side(longer[k], n);
        assert_int_equal(hs_scene_segments(longer[k], n, n, 42u, x, y, x2, y2), HS_OK);
        mean = 0;
        for (size_t i = 0; i < n; i++) {
            float len = sqrtf(x2[i] * x2[i] + y2[i] * y2[i]);
            assert_true(len >= len_lo[k] * 0.9999f && len <= len_hi[k] * 1.0001f);
            assert_true(x[i] >= 0.0f && x[i] <= side && y[i] >= 0.0f && y[i] <= side);
            mean += len;
        }
        assert_true(fabs(mean / (double)n - 0.5 * (len_lo[k] + len_hi[k])) < len_hi[k] * 0.01);
    }
    free(x);
    free(y);
    free(r);
    free(x2);
    free(y2);
    free(r2);
}

/* Workspaces: answers equal to calls without one over batches that grow, shrink and empty
 * (sorted and not), results owned by the workspace, a busy workspace refused, trim. */
static void test_workspace(void **state)
{
    (void)state;
    rng_state = 77;
    assert_int_equal(hs_workspace_create(NULL), HS_E_NULL);
    assert_int_equal(hs_workspace_trim(NULL), HS_E_NULL);
    assert_int_equal(hs_workspace_bytes(NULL), 0);
    hs_workspace_destroy(NULL);

    const size_t n = 34000; /* above HS_SORT_MIN_CIRCLES: big batches take the locality order */
    scene s;
    scene_kind(&s, HS_SCENE_UNIFORM, n, 5u, 1);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
    hs_workspace *ws = NULL;
    assert_int_equal(hs_workspace_create(&ws), HS_OK);
    const size_t base = hs_workspace_bytes(ws);
    const size_t sizes[] = {5000, 100, 6000, 0, 4500, 1};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        const size_t m = sizes[k];
        batch b;
        batch_mixed(&b, m, 0.0f, hs_scene_side(n), g, 1);
        const size_t mm = m ? m : 1;
        uint32_t *i1 = xcalloc(mm, 4), *i2 = xcalloc(mm, 4), *c1 = xcalloc(mm, 4),
                 *c2 = xcalloc(mm, 4);
        float *t1 = xcalloc(mm, 4), *t2 = xcalloc(mm, 4);
        hs_batch_opts o = hs_batch_opts_default(), ow = o;
        o.threads = ow.threads = 1 + (int)(k % 2);
        ow.ws = ws;
        hs_closest_out out1 = {i1, t1, NULL, NULL, NULL, NULL, NULL},
                       out2 = {i2, t2, NULL, NULL, NULL, NULL, NULL};
        assert_int_equal(hs_grid_closest(g, &b.qs, &o, out1), HS_OK);
        assert_int_equal(hs_grid_closest(g, &b.qs, &ow, out2), HS_OK);
        assert_memory_equal(i1, i2, m * 4);
        for (size_t i = 0; i < m; i++)
            assert_true(same_float(t1[i], t2[i]));
        assert_int_equal(hs_grid_count_hits(g, &b.qs, &o, c1), HS_OK);
        assert_int_equal(hs_grid_count_hits(g, &b.qs, &ow, c2), HS_OK);
        assert_memory_equal(c1, c2, m * 4);
        hs_hits h1, h2, h3;
        assert_int_equal(hs_grid_all(g, &b.qs, &o, &h1), HS_OK);
        assert_null(h1.ws);
        assert_int_equal(hs_grid_all(g, &b.qs, &ow, &h2), HS_OK);
        assert_true(h2.ws == ws);
        /* brute force on the small batches (test_scenes_match_brute covers large ones): a
         * second caller of the workspace either way */
        if (m <= 1000)
            assert_int_equal(hs_brute_all(s.cs, &b.qs, &ow, &h3), HS_OK);
        else
            assert_int_equal(hs_grid_all(g, &b.qs, &ow, &h3), HS_OK);
        /* h3 reused the workspace: h2's arrays may be gone; compare h1 with h3 and then the
         * grid again */
        assert_true(h3.ws == ws);
        assert_hits_equal(&h3, &h1);
        hs_hits_free(&h3); /* clears the struct; the memory stays the workspace's */
        assert_null(h3.offsets);
        assert_int_equal(hs_grid_all(g, &b.qs, &ow, &h2), HS_OK);
        assert_hits_equal(&h2, &h1);
        for (size_t i = 0; i < m; i++)
            assert_int_equal(h1.offsets[i + 1] - h1.offsets[i], c1[i]);
        hs_hits_free(&h1);
        hs_hits_free(&h2);
        free(i1), free(i2), free(c1), free(c2), free(t1), free(t2);
        batch_free(&b);
    }
    assert_true(hs_workspace_bytes(ws) > base + 6000 * 22); /* at least the largest order */
    { /* steady state: the same batch again and again holds the same memory (one thread:
       * with more, the dynamic schedule may hand a thread more hits than before, and its
       * buffer grows until it can hold what it gets) */
        batch b;
        batch_mixed(&b, 5000, 0.0f, hs_scene_side(n), g, 0);
        hs_batch_opts ow = hs_batch_opts_default();
        ow.ws = ws;
        ow.threads = 1;
        hs_hits h;
        size_t bytes = 0;
        for (int rep = 0; rep < 4; rep++) {
            assert_int_equal(hs_grid_all(g, &b.qs, &ow, &h), HS_OK);
            if (rep == 0)
                bytes = hs_workspace_bytes(ws);
        }
        assert_int_equal(hs_workspace_bytes(ws), bytes);
        batch_free(&b);
    }

    /* a workspace in use by another call (white box: the flag such a call holds) */
    batch b;
    batch_mixed(&b, 5000, 0.0f, hs_scene_side(n), g, 0);
    uint32_t *c = xcalloc(b.m, 4);
    hs_batch_opts ow = hs_batch_opts_default();
    ow.ws = ws;
    atomic_store(&ws->busy, 1);
    hs_hits h;
    memset(&h, 0xA5, sizeof h);
    assert_int_equal(hs_grid_all(g, &b.qs, &ow, &h), HS_E_BUSY);
    assert_null(h.offsets);
    memset(&h, 0xA5, sizeof h);
    assert_int_equal(hs_brute_all(s.cs, &b.qs, &ow, &h), HS_E_BUSY);
    assert_null(h.offsets);
    assert_int_equal(hs_grid_count_hits(g, &b.qs, &ow, c), HS_E_BUSY);
    assert_int_equal(hs_workspace_trim(ws), HS_E_BUSY);
    atomic_store(&ws->busy, 0);
    assert_int_equal(hs_grid_count_hits(g, &b.qs, &ow, c), HS_OK);
    assert_int_equal(atomic_load(&ws->busy), 0); /* released on return */
    assert_int_equal(hs_workspace_trim(ws), HS_OK);
    assert_int_equal(hs_workspace_bytes(ws), base);
    assert_int_equal(hs_grid_all(g, &b.qs, &ow, &h), HS_OK); /* usable after a trim */
    size_t sum = 0;
    for (size_t i = 0; i < b.m; i++)
        sum += c[i];
    assert_int_equal(h.total, sum);
    hs_hits_free(&h);
    free(c);
    batch_free(&b);
    hs_workspace_destroy(ws);
    hs_grid_destroy(g);
    scene_free(&s);
}

/* All hits of a batch large enough that each thread's hit buffer is sized from its first
 * queries' hit rate, against the same queries answered in small pieces (plain growth). */
/* Cells holding thousands of circles: a block's item list overflows (count / any / closest
 * test it and go on; all falls back to planning the block slot by slot), and a query whose
 * items alone overflow the list takes the per-query walk. */
static void test_dense_cells(void **state)
{
    (void)state;
    rng_state = 1234;
    const size_t n = quick ? 12000 : 40000;
    scene s;
    scene_alloc(&s, n);
    for (size_t i = 0; i < n; i++) {
        s.x[i] = unif(0.0f, 60.0f);
        s.y[i] = unif(0.0f, 60.0f);
        s.r[i] = unif(0.05f, 0.3f);
    }
    scene_finish(&s, 0);
    hs_grid *g = NULL;
    hs_grid_opts go = {.cell_size = 30.0f, .threads = 0};
    assert_int_equal(hs_grid_build(s.cs, &go, &g), HS_OK);
    batch b;
    batch_alloc(&b, 130);
    for (size_t m = 0; m < b.m; m++) {
        set_query(&b, m, m % 4 == 3 ? (int)(rnd() % 9) : 0, 0.0f, 60.0f, 0.0f, 0.0f, 30.0f, 0);
        if (m % 4 != 3) { /* short, most inside one or two cells */
            b.dx[m] = unif(-3.0f, 3.0f);
            b.dy[m] = unif(-3.0f, 3.0f);
        }
    }
    b.ax[0] = 25.0f, b.ay[0] = 25.0f, b.dx[0] = 10.0f, b.dy[0] = 10.0f; /* all four cells */
    batch_finish(&b);
    check_against_brute(g, s.cs, &b);
    batch_free(&b);
    hs_grid_destroy(g);
    scene_free(&s);
}

/* Closest-hit ties between t = -0 and t = +0 (equal as floats) go to the smaller index, which
 * keeps its own t. Along d = (-1, -0) from the origin, the unit circles at (0, -1) and (0, 1)
 * are both tangent at t = 0: the first gets +0, the second -0 (the sign of b = f . d). */
static void test_closest_signed_zero_tie(void **state)
{
    (void)state;
    scene s;
    scene_alloc(&s, 2);
    s.x[0] = 0.0f, s.y[0] = -1.0f, s.r[0] = 1.0f;
    s.x[1] = 0.0f, s.y[1] = 1.0f, s.r[1] = 1.0f;
    scene_finish(&s, 0);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
    batch b;
    batch_alloc(&b, 1);
    b.ax[0] = 0.0f, b.ay[0] = 0.0f, b.dx[0] = -1.0f, b.dy[0] = -0.0f;
    b.tmin[0] = -1.0f, b.tmax[0] = 1.0f, b.q[0] = 0.0f;
    batch_finish(&b);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!test_isa_on((hs_isa)isa))
            continue;
        hs_batch_opts bo = hs_batch_opts_default();
        bo.isa = (hs_isa)isa;
        uint32_t id = 7;
        float t = 7.0f;
        hs_closest_out out = {&id, &t, NULL, NULL, NULL, NULL, NULL};
        assert_int_equal(hs_brute_closest(s.cs, &b.qs, &bo, out), HS_OK);
        assert_int_equal(id, 0);
        assert_true(t == 0.0f && !signbit(t));
        id = 7, t = 7.0f;
        assert_int_equal(hs_grid_closest(g, &b.qs, &bo, out), HS_OK);
        assert_int_equal(id, 0);
        assert_true(t == 0.0f && !signbit(t));
    }
    /* d = (-1, +0): the other way round; the smaller index has -0 and keeps it */
    b.dy[0] = 0.0f;
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!test_isa_on((hs_isa)isa))
            continue;
        hs_batch_opts bo = hs_batch_opts_default();
        bo.isa = (hs_isa)isa;
        uint32_t id = 7;
        float t = 7.0f;
        hs_closest_out out = {&id, &t, NULL, NULL, NULL, NULL, NULL};
        assert_int_equal(hs_grid_closest(g, &b.qs, &bo, out), HS_OK);
        assert_int_equal(id, 0);
        assert_true(t == 0.0f && signbit(t));
    }
    check_against_brute(g, s.cs, &b);
    batch_free(&b);
    hs_grid_destroy(g);
    scene_free(&s);
}

static void test_all_large_batch(void **state)
{
    (void)state;
    rng_state = 99;
    const size_t n = 34000, m = 40000, piece = 4000;
    scene s;
    scene_kind(&s, HS_SCENE_MIXED, n, 8u, 0);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
    batch b;
    batch_mixed(&b, m, 0.0f, hs_scene_side(n), g, 0);
    for (int th = 1; th <= 2; th++) {
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = th;
        hs_hits whole;
        assert_int_equal(hs_grid_all(g, &b.qs, &o, &whole), HS_OK);
        size_t at_hit = 0;
        for (size_t at = 0; at < m; at += piece) {
            hs_queries q = b.qs;
            q.ax += at, q.ay += at, q.dx += at, q.dy += at;
            q.tmin += at, q.tmax += at, q.q += at, q.mask += at;
            q.count = piece;
            hs_hits h;
            assert_int_equal(hs_grid_all(g, &q, &o, &h), HS_OK);
            for (size_t i = 0; i <= piece; i++)
                assert_int_equal(whole.offsets[at + i] - whole.offsets[at], h.offsets[i]);
            assert_memory_equal(whole.idx + at_hit, h.idx, h.total * sizeof(uint32_t));
            assert_memory_equal(whole.t + at_hit, h.t, h.total * sizeof(float));
            at_hit += h.total;
            hs_hits_free(&h);
        }
        assert_int_equal(at_hit, whole.total);
        assert_true(whole.total > 4 * m); /* lines through the scene: many hits each */
        hs_hits_free(&whole);
    }
    batch_free(&b);
    hs_grid_destroy(g);
    scene_free(&s);
}

/* A batch of one query is answered by the per-query walk (no block set-up): every mode, with
 * the hit geometry, semantics and skip-start, at every level, equal to the same query's
 * answer inside a whole batch. */
/* Count and closest of qs (a batch with invalid queries) on grid g of cs at level isa, against
 * brute force; query 0 counts want0 hits and, unless HS_NONE, its closest is circle first0. */
static void check_with_invalid_queries(const hs_circles *cs, const hs_grid *g, const hs_queries *qs,
                                       hs_isa isa, hs_semantics sem, uint32_t want0,
                                       uint32_t first0)
{
    if (!test_isa_on(isa))
        return;
    const size_t m = qs->count;
    hs_batch_opts o = hs_batch_opts_default();
    o.isa = isa;
    o.sem = sem;
    uint32_t *want = xcalloc(m, sizeof *want), *got = xcalloc(m, sizeof *got);
    uint32_t *idx = xcalloc(m, sizeof *idx), *bidx = xcalloc(m, sizeof *bidx);
    float *t = xcalloc(m, sizeof *t), *bt = xcalloc(m, sizeof *bt);
    assert_int_equal(hs_brute_count(cs, qs, &o, want), HS_E_INVALID_QUERY);
    assert_int_equal(hs_grid_count_hits(g, qs, &o, got), HS_E_INVALID_QUERY);
    assert_int_equal(hs_brute_closest(cs, qs, &o, (hs_closest_out){.idx = bidx, .t = bt}),
                     HS_E_INVALID_QUERY);
    assert_int_equal(hs_grid_closest(g, qs, &o, (hs_closest_out){.idx = idx, .t = t}),
                     HS_E_INVALID_QUERY);
    assert_int_equal(want[0], want0);
    if (first0 != HS_NONE)
        assert_int_equal(bidx[0], first0);
    for (size_t i = 0; i < m; i++) {
        assert_int_equal(got[i], want[i]);
        assert_int_equal(idx[i], bidx[i]);
    }
    free(want), free(got), free(idx), free(bidx), free(t), free(bt);
}

/* A segment through a large circle and a small one (two levels), then 31 invalid (NaN)
 * queries and a point near the small one: the block's box of its queries took min and max
 * lane by lane, which forget a lane's earlier ends at a NaN, so the box held the point alone
 * and the large circle's level was set aside: count and closest missed it, at every width. */
static void test_invalid_queries_keep_the_blocks_box(void **state)
{
    (void)state;
    const float cx[2] = {14.5f, -0.25f}, cy[2] = {-0x1.98272cp-41f, -0.25f};
    const float cr[2] = {10.75f, 0.25f};
    hs_circles *cs = NULL;
    assert_int_equal(hs_circles_create(cx, cy, cr, NULL, 2, &cs, NULL), HS_OK);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    enum { M = 33 };
    float ax[M], ay[M], dx[M], dy[M];
    for (size_t i = 1; i < M; i++)
        ax[i] = ay[i] = dx[i] = dy[i] = NAN;
    ax[0] = ay[0] = -0.25f, dx[0] = 20.5f, dy[0] = 0x1.48p-44f;
    ax[M - 1] = ay[M - 1] = dx[M - 1] = dy[M - 1] = 0x1.48p-44f;
    const hs_queries qs = hs_queries_segments(ax, ay, dx, dy, M);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++)
        for (int sem = 0; sem < 2; sem++)
            check_with_invalid_queries(cs, g, &qs, (hs_isa)isa, sem ? HS_BOUNDARY : HS_SOLID, 2u,
                                       HS_NONE);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

/* A thick segment near two circles, starting inside the small one's reach: under
 * HS_BOUNDARY it hits only the large one, on a level of its own. Invalid queries of NaN
 * thickness (and finite ends) and a point after them, in the thick one's lane at every width:
 * the block's largest thickness must not forget the thick query (min / max return their
 * second operand on NaN), or the large circle's level looks apart from the block. */
static void test_invalid_thickness_keeps_the_blocks_reach(void **state)
{
    (void)state;
    const float cx[2] = {0.0f, -24.5f}, cy[2] = {0.0f, 30.0f}, cr[2] = {1.0f, 27.75f};
    hs_circles *cs = NULL;
    assert_int_equal(hs_circles_create(cx, cy, cr, NULL, 2, &cs, NULL), HS_OK);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    enum { M = 33 };
    float ax[M], ay[M], dx[M], dy[M], q[M];
    for (size_t i = 0; i < M; i++)
        ax[i] = ay[i] = dx[i] = 0x1p-126f, dy[i] = -13.75f, q[i] = NAN;
    q[0] = 13.75f;
    dx[M - 1] = dy[M - 1] = 0.0f, q[M - 1] = 0.0f;
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, M);
    qs.q = q;
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++)
        check_with_invalid_queries(cs, g, &qs, (hs_isa)isa, HS_BOUNDARY, 1u, 1u);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

static void test_batches_of_one(void **state)
{
    (void)state;
    rng_state = 123;
    const size_t n = scale(6000), m = 300;
    scene s;
    scene_kind(&s, HS_SCENE_MIXED, n, 5u, 1);
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
    batch b;
    batch_mixed(&b, m, 0.0f, hs_scene_side(n), g, 1);
    uint32_t *idx = xcalloc(m, sizeof *idx), *cnt = xcalloc(m, sizeof *cnt);
    float *t = xcalloc(4 * m, sizeof *t), *px = t + m, *py = px + m, *nx = py + m;
    float *ny = xcalloc(m, sizeof *ny);
    uint8_t *hit = xcalloc(m, 1);
    const hs_semantics sems[] = {HS_SOLID, HS_BOUNDARY, HS_SOLID | HS_SKIP_START};
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!test_isa_on((hs_isa)isa))
            continue;
        for (size_t k = 0; k < sizeof sems / sizeof sems[0]; k++) {
            hs_batch_opts o = hs_batch_opts_default();
            o.isa = (hs_isa)isa;
            o.sem = sems[k];
            o.threads = 1;
            hs_closest_out whole = {idx, t, px, py, nx, ny, NULL};
            hs_status st = hs_grid_closest(g, &b.qs, &o, whole);
            assert_true(st == HS_OK || st == HS_E_INVALID_QUERY);
            (void)hs_grid_any(g, &b.qs, &o, hit);
            (void)hs_grid_count_hits(g, &b.qs, &o, cnt);
            hs_hits all;
            st = hs_grid_all(g, &b.qs, &o, &all);
            assert_true(st == HS_OK || st == HS_E_INVALID_QUERY);
            for (size_t i = 0; i < m; i++) {
                hs_queries q = b.qs;
                q.ax += i, q.ay += i, q.dx += i, q.dy += i;
                q.tmin += i, q.tmax += i, q.q += i, q.mask += i;
                q.count = 1;
                uint32_t i1, c1;
                float t1, p1[2], n1[2];
                uint8_t h1;
                (void)hs_grid_closest(g, &q, &o,
                                      (hs_closest_out){&i1, &t1, p1, p1 + 1, n1, n1 + 1, NULL});
                assert_int_equal(i1, idx[i]);
                assert_memory_equal(&t1, &t[i], sizeof t1);
                if (i1 != HS_NONE) {
                    const float g1[4] = {p1[0], p1[1], n1[0], n1[1]};
                    const float gw[4] = {px[i], py[i], nx[i], ny[i]};
                    assert_memory_equal(g1, gw, sizeof g1);
                }
                (void)hs_grid_any(g, &q, &o, &h1);
                (void)hs_grid_count_hits(g, &q, &o, &c1);
                assert_int_equal(h1, hit[i]);
                assert_int_equal(c1, cnt[i]);
                hs_hits one;
                (void)hs_grid_all(g, &q, &o, &one);
                const size_t at = all.offsets[i], len = all.offsets[i + 1] - at;
                assert_int_equal(one.total, len);
                if (len) {
                    assert_memory_equal(one.idx, all.idx + at, len * sizeof(uint32_t));
                    assert_memory_equal(one.t, all.t + at, len * sizeof(float));
                }
                hs_hits_free(&one);
            }
            hs_hits_free(&all);
        }
    }
    free(idx);
    free(cnt);
    free(t);
    free(ny);
    free(hit);
    batch_free(&b);
    hs_grid_destroy(g);
    scene_free(&s);
}

int main(void)
{
    quick = test_quick();
    printf("test_grid: %s scale\n", quick ? "quick (HS_TEST_QUICK or sanitizers)" : "full");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scene_generators),
        cmocka_unit_test(test_empty_and_single),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_build_deterministic),
        cmocka_unit_test(test_bytes_per_circle),
        cmocka_unit_test(test_awkward_geometry),
        cmocka_unit_test(test_far_from_origin),
        cmocka_unit_test(test_scenes_match_brute),
        cmocka_unit_test(test_sorted_batches),
        cmocka_unit_test(test_sorted_segments),
        cmocka_unit_test(test_level_meet),
        cmocka_unit_test(test_workspace),
        cmocka_unit_test(test_all_large_batch),
        cmocka_unit_test(test_closest_signed_zero_tie),
        cmocka_unit_test(test_batches_of_one),
        cmocka_unit_test(test_invalid_queries_keep_the_blocks_box),
        cmocka_unit_test(test_invalid_thickness_keeps_the_blocks_reach),
        cmocka_unit_test(test_dense_cells),
        cmocka_unit_test(test_pair_lists),
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_pairs_within),
        cmocka_unit_test(test_overlap_circle),
        cmocka_unit_test(test_rebuild),
        cmocka_unit_test(test_rebuild_bad_values),
        cmocka_unit_test(test_cell_size_as_given),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
