/* SPDX-License-Identifier: MIT */
/* Tests for the grid's occupancy bits (a bit per cell of a mostly empty level): the bits match
 * the cells, they are kept only where most cells are empty, rebuilds keep them right, and
 * queries whose rows are trimmed and skipped by them answer as brute force does, in every mode,
 * at every ISA level and thread count. */
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
#include "hitscan/scene.h"
#include "grid/layout.h"
#include "test_util.h"

/* Every bit of every level that keeps them says whether its cell holds a circle; returns how
 * many levels keep them. */
static int check_bits(const hs_grid *g)
{
    int kept = 0;
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        if (L->occ == NULL)
            continue;
        kept++;
        const uint32_t *cs = g->cell_start + L->cell0;
        const size_t nc = (size_t)L->nx * (size_t)L->ny;
        size_t set = 0;
        for (size_t c = 0; c < nc; c++) {
            const int bit = (L->occ[c / 8] >> (c % 8)) & 1;
            if (bit != (cs[c + 1] != cs[c]))
                fail_msg("level %d cell %zu: bit %d, %u circles", l, c, bit, cs[c + 1] - cs[c]);
            set += (size_t)bit;
        }
        assert_true(set > 0);
        assert_true(2 * set <= nc + nc / 8); /* kept only when most cells are empty */
    }
    return kept;
}

static hs_grid *build_kind(scene *s, hs_scene_kind kind, size_t n, float cell)
{
    scene_alloc(s, n);
    assert_int_equal(hs_scene_circles(kind, n, 3u, s->x, s->y, s->r), HS_OK);
    assert_int_equal(hs_circles_create(s->x, s->y, s->r, NULL, n, &s->cs, NULL), HS_OK);
    hs_grid *g = NULL;
    hs_grid_opts go = {.cell_size = cell, .threads = 2};
    assert_int_equal(hs_grid_build(s->cs, &go, &g), HS_OK);
    return g;
}

/* Whether some level of g has occupancy bits (a sparse scene's levels are mostly empty). */
static int any_bits(const hs_grid *g)
{
    int with_bits = 0;
    for (int l = 0; l < g->nlevels; l++)
        with_bits |= g->lv[l].occ != NULL;
    return with_bits;
}

static void test_bits_match_cells(void **state)
{
    (void)state;
    /* sparse: the one-pass sort (6000 circles) and the band sort (50 000) */
    const size_t sizes[2] = {6000, 50000};
    for (int k = 0; k < 2; k++) {
        scene s;
        hs_grid *g = build_kind(&s, HS_SCENE_SPARSE, sizes[k], 0.0f);
        assert_true(any_bits(g));
        assert_int_equal(check_bits(g), 1);
        hs_grid_destroy(g);
        scene_free(&s);
    }
    /* uniform: about 4 circles a cell (cells are capped at one per 2 circles), nearly every cell
     * holds one: no bits */
    scene u;
    hs_grid *g = build_kind(&u, HS_SCENE_UNIFORM, 50000, 0.0f);
    assert_null(g->lv[0].occ);
    hs_grid_destroy(g);
    scene_free(&u);
    /* mixed: the big circles' level is mostly empty too */
    g = build_kind(&u, HS_SCENE_MIXED, 50000, 0.0f);
    assert_int_equal(g->nlevels, 2);
    (void)check_bits(g);
    hs_grid_destroy(g);
    scene_free(&u);
}

static void test_rebuild_bits(void **state)
{
    (void)state;
    scene sp, un;
    hs_grid *g = build_kind(&sp, HS_SCENE_SPARSE, 20000, 0.0f);
    assert_int_equal(check_bits(g), 1);
    hs_grid *gu = build_kind(&un, HS_SCENE_UNIFORM, 20000, 0.0f);
    hs_grid_destroy(gu);
    assert_int_equal(hs_grid_rebuild(g, un.cs), HS_OK); /* sparse -> uniform: bits dropped */
    assert_null(g->lv[0].occ);
    assert_int_equal(hs_grid_rebuild(g, sp.cs), HS_OK); /* and back: bits again, all right */
    assert_int_equal(check_bits(g), 1);
    hs_grid_destroy(g);
    scene_free(&sp);
    scene_free(&un);
}

/* Tight clusters in a wide empty world, and segments that start or end in empty space, cross
 * a cluster, pass between two, graze one from either side or cross empty rows between two:
 * the rows the bits trim at either end and skip inside must hold nothing any mode reports. */
static void make_clusters(scene *s, size_t n, float world)
{
    scene_alloc(s, n);
    const size_t nc = 12, per = n / nc;
    for (size_t i = 0; i < n; i++) {
        const size_t c = i / per < nc ? i / per : nc - 1;
        rng_state = 77u + c;
        const float cx = unif(0.1f * world, 0.9f * world), cy = unif(0.1f * world, 0.9f * world);
        rng_state = 1000u + i;
        s->x[i] = cx + unif(-30.0f, 30.0f);
        s->y[i] = cy + unif(-30.0f, 30.0f);
        s->r[i] = unif(0.5f, 1.5f);
    }
    assert_int_equal(hs_circles_create(s->x, s->y, s->r, NULL, n, &s->cs, NULL), HS_OK);
}

static void make_queries(batch *b, size_t m, const scene *s, float world)
{
    batch_alloc_arrays(b, m, 0);
    rng_state = 4242u;
    for (size_t i = 0; i < m; i++) {
        const size_t a = irand((unsigned)s->n), c = irand((unsigned)s->n);
        switch (i % 4) {
        case 0: /* empty space to empty space */
            b->ax[i] = unif(0.0f, world);
            b->ay[i] = unif(0.0f, world);
            b->dx[i] = unif(-600.0f, 600.0f);
            b->dy[i] = unif(-600.0f, 600.0f);
            break;
        case 1: /* from one circle to another (often in another cluster), either way */
            b->ax[i] = s->x[a];
            b->ay[i] = s->y[a];
            b->dx[i] = s->x[c] - s->x[a];
            b->dy[i] = s->y[c] - s->y[a];
            break;
        case 2: /* from empty space into a cluster, ending in it */
            b->ax[i] = s->x[a] + unif(-400.0f, 400.0f);
            b->ay[i] = s->y[a] + unif(-400.0f, 400.0f);
            b->dx[i] = s->x[a] - b->ax[i];
            b->dy[i] = s->y[a] - b->ay[i];
            break;
        default: /* grazing a circle: passing at its radius, plus or minus a little */
        {
            const float ang = unif(0.0f, 6.2831853f), len = unif(20.0f, 500.0f);
            const float ux = cosf(ang), uy = sinf(ang), off = s->r[a] * unif(0.98f, 1.02f);
            b->ax[i] = s->x[a] - ux * len * 0.5f - uy * off;
            b->ay[i] = s->y[a] - uy * len * 0.5f + ux * off;
            b->dx[i] = ux * len;
            b->dy[i] = uy * len;
        }
        }
        b->tmin[i] = 0.0f;
        b->tmax[i] = 1.0f;
        b->q[i] = (i % 7 == 0) ? unif(0.0f, 2.0f) : 0.0f;
    }
    b->qs = hs_queries_segments(b->ax, b->ay, b->dx, b->dy, m);
    b->qs.tmin = b->tmin;
    b->qs.tmax = b->tmax;
    b->qs.q = b->q;
}

static void test_trimmed_rows_match_brute(void **state)
{
    (void)state;
    const size_t n = test_quick() ? 6000 : 24000, m = test_quick() ? 2000 : 8000;
    const float world = 4000.0f;
    scene s;
    make_clusters(&s, n, world);
    batch b;
    make_queries(&b, m, &s, world);
    uint32_t *bi = xcalloc(m, 4), *gi = xcalloc(m, 4), *bc = xcalloc(m, 4), *gc = xcalloc(m, 4);
    float *bt = xcalloc(m, 4), *gt = xcalloc(m, 4);
    uint8_t *ba = xcalloc(m, 1), *ga = xcalloc(m, 1);
    /* the batch hits clusters and misses them too */
    hs_batch_opts bo = hs_batch_opts_default();
    assert_int_equal(hs_brute_count(s.cs, &b.qs, &bo, bc), HS_OK);
    size_t hits = 0, misses = 0;
    for (size_t i = 0; i < m; i++) {
        hits += bc[i];
        misses += bc[i] == 0;
    }
    assert_true(hits > m && misses > m / 8);
    const float cells[2] = {0.0f, 5.0f};
    for (int c = 0; c < 2; c++) {
        hs_grid *g = NULL;
        hs_grid_opts go = {.cell_size = cells[c], .threads = 0};
        assert_int_equal(hs_grid_build(s.cs, &go, &g), HS_OK);
        assert_true(any_bits(g));
        for (int isa = HS_ISA_SCALAR; isa <= HS_ISA_NEON; isa++) {
            if (!hs_isa_supported((hs_isa)isa))
                continue;
            /* brute force at the same level: entry times agree bit for bit within a level */
            hs_batch_opts bo = hs_batch_opts_default();
            bo.isa = (hs_isa)isa;
            hs_closest_out bco = {bi, bt, NULL, NULL, NULL, NULL, NULL};
            assert_int_equal(hs_brute_closest(s.cs, &b.qs, &bo, bco), HS_OK);
            assert_int_equal(hs_brute_any(s.cs, &b.qs, &bo, ba), HS_OK);
            assert_int_equal(hs_brute_count(s.cs, &b.qs, &bo, bc), HS_OK);
            hs_hits bh;
            assert_int_equal(hs_brute_all(s.cs, &b.qs, &bo, &bh), HS_OK);
            for (int th = 1; th <= 2; th++) {
                hs_batch_opts o = hs_batch_opts_default();
                o.isa = (hs_isa)isa;
                o.threads = th;
                hs_closest_out co = {gi, gt, NULL, NULL, NULL, NULL, NULL};
                assert_int_equal(hs_grid_closest(g, &b.qs, &o, co), HS_OK);
                assert_int_equal(hs_grid_any(g, &b.qs, &o, ga), HS_OK);
                assert_int_equal(hs_grid_count_hits(g, &b.qs, &o, gc), HS_OK);
                for (size_t i = 0; i < m; i++)
                    if (gi[i] != bi[i] || memcmp(&gt[i], &bt[i], 4) != 0 || ga[i] != ba[i] ||
                        gc[i] != bc[i])
                        fail_msg("isa %s threads %d cell %g query %zu: closest %u/%u t %a/%a, "
                                 "any %d/%d, count %u/%u (grid/brute)",
                                 hs_isa_name((hs_isa)isa), th, (double)cells[c], i, gi[i], bi[i],
                                 (double)gt[i], (double)bt[i], ga[i], ba[i], gc[i], bc[i]);
                hs_hits gh;
                assert_int_equal(hs_grid_all(g, &b.qs, &o, &gh), HS_OK);
                assert_hits_equal(&gh, &bh);
                hs_hits_free(&gh);
            }
            hs_hits_free(&bh);
        }
        hs_grid_destroy(g);
    }
    free(bi);
    free(gi);
    free(bc);
    free(gc);
    free(bt);
    free(gt);
    free(ba);
    free(ga);
    batch_free(&b);
    scene_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits_match_cells),
        cmocka_unit_test(test_rebuild_bits),
        cmocka_unit_test(test_trimmed_rows_match_brute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
