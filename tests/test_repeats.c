/* SPDX-License-Identifier: MIT */
/* Tests for the repeats (src/grid/repeats.c): circles equal in x, y, r and mask to one of a
 * smaller index, which a build sets apart in a level of their own when a cell holds enough of
 * them. The level holds exactly those circles, and only where they are equal bit for bit; it
 * comes and goes with rebuilds; closest and any still answer the group's smallest index, or its
 * next when a query ignores the first, at every level; a wall grid keeps equal walls. Every
 * mode against brute force on such scenes is test_ignore's and test_suite_scenes' (point). */
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
#include "hitscan/walls.h"
#include "grid/layout.h"
#include "test_util.h"

enum { N = 3000, SPOT_A = 5, SPOT_B = 11 };

/* N circles at random in 2000 x 2000 (a query through a spot meets nothing else), then: from 100
 * on, every 4th a copy of circle SPOT_A; from 102 on, every 8th a copy of SPOT_B with mask 1 or 2
 * by turns (SPOT_B's own mask 1); from 101 on, every 16th circle SPOT_A moved by one more ulp in x
 * (equal to no other). */
typedef struct crowd {
    float x[N], y[N], r[N];
    uint32_t mask[N];
    size_t copies_a, copies_b;
} crowd;

static void scene_make(crowd *s)
{
    rng_state = 0x2e9ea7;
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < N; i++) {
        s->x[i] = frange(0.0, 2000.0);
        s->y[i] = frange(0.0, 2000.0);
        s->r[i] = frange(0.3, 1.2);
        s->mask[i] = 1u + irand(3);
    }
    s->mask[SPOT_A] = 1u;
    s->mask[SPOT_B] = 1u;
    for (size_t i = 100; i < N; i += 4, s->copies_a++) {
        s->x[i] = s->x[SPOT_A];
        s->y[i] = s->y[SPOT_A];
        s->r[i] = s->r[SPOT_A];
        s->mask[i] = 1u;
    }
    for (size_t i = 102, k = 0; i < N; i += 8, k++, s->copies_b++) {
        s->x[i] = s->x[SPOT_B];
        s->y[i] = s->y[SPOT_B];
        s->r[i] = s->r[SPOT_B];
        s->mask[i] = 1u + (uint32_t)(k & 1u);
    }
    float next = s->x[SPOT_A];
    for (size_t i = 101; i < N; i += 16) {
        next = nextafterf(next, INFINITY);
        s->x[i] = next;
        s->y[i] = s->y[SPOT_A];
        s->r[i] = s->r[SPOT_A];
        s->mask[i] = 1u;
    }
}

/* The repeats' level of g (NULL: none) and how many levels claim to be it. */
static const hs_glevel *repeats_level(const hs_grid *g, int *count)
{
    const hs_glevel *found = NULL;
    *count = 0;
    for (int l = 0; l < g->nlevels; l++)
        if (g->lv[l].repeats) {
            found = &g->lv[l];
            ++*count;
        }
    return found;
}

/* Every circle of the level equals one of a smaller index outside it, bit for bit. */
static void check_level_holds_repeats(const hs_grid *g, const crowd *s)
{
    int count;
    const hs_glevel *L = repeats_level(g, &count);
    assert_int_equal(count, 1);
    const size_t l = (size_t)(L - g->lv);
    const uint32_t b = g->cell_start[L->cell0];
    const uint32_t e = l + 1 < (size_t)g->nlevels ? g->cell_start[g->lv[l + 1].cell0] : g->n;
    assert_int_equal(e - b, L->n);
    for (uint32_t p = b; p < e; p++) {
        const uint32_t id = g->id[p];
        const size_t first = s->x[id] == s->x[SPOT_A] && s->y[id] == s->y[SPOT_A] ? SPOT_A
                             : s->mask[id] == 1u                                  ? SPOT_B
                                                                                  : 110;
        assert_true(first < id);
        assert_memory_equal(&s->x[first], &s->x[id], sizeof(float));
        assert_memory_equal(&s->y[first], &s->y[id], sizeof(float));
        assert_memory_equal(&s->r[first], &s->r[id], sizeof(float));
        assert_int_equal(s->mask[first], s->mask[id]);
    }
}

static void test_set_apart(void **state)
{
    (void)state;
    static crowd s;
    scene_make(&s);
    hs_circles *cs;
    assert_int_equal(hs_circles_create(s.x, s.y, s.r, s.mask, N, &cs, NULL), HS_OK);
    for (int threads = 1; threads <= 2; threads++) {
        hs_grid_opts go = {.threads = threads};
        hs_grid *g;
        assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
        int count;
        const hs_glevel *L = repeats_level(g, &count);
        assert_non_null(L);
        /* every copy but the first of each (position, mask) group: SPOT_B's copies of mask 2
         * have their own first */
        assert_int_equal(L->n, s.copies_a + s.copies_b - 1);
        check_level_holds_repeats(g, &s);
        /* rebuilt without repeats: no such level; with them again: the same one */
        hs_circles *spread;
        assert_int_equal(hs_circles_create(s.y, s.x, s.r, NULL, 100, &spread, NULL), HS_OK);
        assert_int_equal(hs_grid_rebuild(g, spread), HS_OK);
        assert_null(repeats_level(g, &count));
        assert_int_equal(count, 0);
        hs_circles_destroy(spread);
        assert_int_equal(hs_grid_rebuild(g, cs), HS_OK);
        L = repeats_level(g, &count);
        assert_non_null(L);
        assert_int_equal(L->n, s.copies_a + s.copies_b - 1);
        hs_grid_destroy(g);
    }
    hs_circles_destroy(cs);
}

/* Closest and any through each spot: the group's first index, the next one when the first is
 * ignored, the first of mask 2 for a query of mask 2; brute force agrees at every level. */
static void test_answers(void **state)
{
    (void)state;
    static crowd s;
    scene_make(&s);
    hs_circles *cs;
    assert_int_equal(hs_circles_create(s.x, s.y, s.r, s.mask, N, &cs, NULL), HS_OK);
    hs_grid *g;
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    enum { M = 6 };
    /* from 3 below each spot straight up through it */
    const size_t spot[M] = {SPOT_A, SPOT_A, SPOT_B, SPOT_B, SPOT_B, SPOT_A};
    const uint32_t qmask[M] = {1u, 1u, 1u, 2u, 1u, 2u};
    const uint32_t ignore[M] = {HS_NONE, SPOT_A, HS_NONE, HS_NONE, SPOT_B, HS_NONE};
    /* SPOT_B's copies alternate masks 1 and 2 from 102 on: the first of mask 2 is 110, the
     * second of mask 1 is 102 */
    const uint32_t want[M] = {SPOT_A, 100, SPOT_B, 110, 102, HS_NONE};
    float ax[M], ay[M], dx[M], dy[M];
    for (size_t i = 0; i < M; i++) {
        ax[i] = s.x[spot[i]];
        ay[i] = s.y[spot[i]] - 3.0f;
        dx[i] = 0.0f;
        dy[i] = 6.0f;
    }
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, M);
    qs.mask = qmask;
    qs.ignore = ignore;
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        for (int threads = 1; threads <= 2; threads++) {
            hs_batch_opts o = hs_batch_opts_default();
            o.isa = (hs_isa)isa;
            o.threads = threads;
            uint32_t idx[M], bidx[M];
            float t[M], bt[M];
            uint8_t any[M];
            hs_closest_out out = {.idx = idx, .t = t}, bout = {.idx = bidx, .t = bt};
            assert_int_equal(hs_grid_closest(g, &qs, &o, out), HS_OK);
            assert_int_equal(hs_brute_closest(cs, &qs, &o, bout), HS_OK);
            assert_int_equal(hs_grid_any(g, &qs, &o, any), HS_OK);
            for (size_t i = 0; i < M; i++) {
                if (want[i] != HS_NONE)
                    assert_int_equal(idx[i], want[i]);
                assert_int_equal(idx[i], bidx[i]);
                assert_memory_equal(&t[i], &bt[i], sizeof(float));
                assert_int_equal(any[i], idx[i] != HS_NONE);
            }
            /* an ignore array that ignores nothing: the answers without one */
            hs_queries none = qs;
            const uint32_t nothing[M] = {HS_NONE, HS_NONE, HS_NONE, HS_NONE, HS_NONE, HS_NONE};
            none.ignore = nothing;
            assert_int_equal(hs_grid_closest(g, &none, &o, out), HS_OK);
            assert_int_equal(hs_brute_closest(cs, &none, &o, bout), HS_OK);
            for (size_t i = 0; i < M; i++) {
                assert_int_equal(idx[i], bidx[i]);
                assert_memory_equal(&t[i], &bt[i], sizeof(float));
                if (ignore[i] == HS_NONE && want[i] != HS_NONE)
                    assert_int_equal(idx[i], want[i]);
            }
        }
    }
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

/* Circles equal where they stand but moving apart are not interchangeable: closest and any
 * against moving circles walk the repeats too, and agree with the least (t, index) of the
 * same call's all-hits (which walks every level), at every level. */
static void test_moving_kept(void **state)
{
    (void)state;
    static crowd s;
    static float ddx[N], ddy[N];
    scene_make(&s);
    for (size_t i = 0; i < N; i++) {
        ddx[i] = frange(-2.0, 2.0);
        ddy[i] = frange(-2.0, 2.0);
    }
    hs_circles *cs;
    assert_int_equal(hs_circles_create(s.x, s.y, s.r, s.mask, N, &cs, NULL), HS_OK);
    hs_grid *g;
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    int count;
    assert_non_null(repeats_level(g, &count));
    enum { M = 64 };
    float ax[M], ay[M], dx[M], dy[M];
    for (size_t i = 0; i < M; i++) { /* across SPOT_A or SPOT_B from 5 away, any direction */
        const size_t c = i & 1 ? SPOT_A : SPOT_B;
        const double a = 6.283185307179586 * (double)i / M;
        ax[i] = s.x[c] - 5.0f * (float)cos(a);
        ay[i] = s.y[c] - 5.0f * (float)sin(a);
        dx[i] = 10.0f * (float)cos(a);
        dy[i] = 10.0f * (float)sin(a);
    }
    const hs_queries qs = hs_queries_segments(ax, ay, dx, dy, M);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        hs_batch_opts o = hs_batch_opts_default();
        o.isa = (hs_isa)isa;
        o.threads = 1;
        o.disp_x = ddx;
        o.disp_y = ddy;
        uint32_t idx[M];
        float t[M];
        uint8_t any[M];
        hs_closest_out out = {.idx = idx, .t = t};
        assert_int_equal(hs_grid_closest(g, &qs, &o, out), HS_OK);
        assert_int_equal(hs_grid_any(g, &qs, &o, any), HS_OK);
        hs_hits all;
        assert_int_equal(hs_grid_all(g, &qs, &o, &all), HS_OK);
        size_t copies = 0;
        for (size_t i = 0; i < M; i++) {
            uint32_t best = HS_NONE;
            float bt = INFINITY;
            for (size_t k = all.offsets[i]; k < all.offsets[i + 1]; k++)
                if (all.t[k] < bt || (all.t[k] == bt && all.idx[k] < best))
                    best = all.idx[k], bt = all.t[k];
            assert_int_equal(idx[i], best);
            if (best != HS_NONE)
                assert_memory_equal(&t[i], &bt, sizeof(float));
            assert_int_equal(any[i], best != HS_NONE);
            copies += best != HS_NONE && best != SPOT_A && best != SPOT_B;
        }
        assert_true(copies > M / 2); /* the copies moving first were the answers */
        hs_hits_free(&all);
    }
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

/* A wall grid's proxies are not interchangeable: 200 equal walls stay in its levels. */
static void test_walls_kept(void **state)
{
    (void)state;
    enum { K = 200 };
    float ax[K], ay[K], bx[K], by[K];
    for (size_t i = 0; i < K; i++) {
        ax[i] = 1.0f;
        ay[i] = 1.0f;
        bx[i] = 1.5f;
        by[i] = 1.25f;
    }
    hs_walls *ws;
    assert_int_equal(hs_walls_create(ax, ay, bx, by, NULL, NULL, K, &ws, NULL), HS_OK);
    const float x = 50.0f, y = 50.0f, r = 1.0f;
    hs_circles *cs;
    assert_int_equal(hs_circles_create(&x, &y, &r, NULL, 1, &cs, NULL), HS_OK);
    hs_grid_opts go = {.walls = ws};
    hs_grid *g;
    assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
    assert_non_null(g->wall_grid);
    int count;
    assert_null(repeats_level(g->wall_grid, &count));
    assert_true(hs_grid_circle_count(g->wall_grid) >= K);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    hs_walls_destroy(ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_apart),
        cmocka_unit_test(test_answers),
        cmocka_unit_test(test_moving_kept),
        cmocka_unit_test(test_walls_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
