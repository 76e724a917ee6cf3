/* SPDX-License-Identifier: MIT */
/* Query masks against circle sets without masks: such a set counts as every mask bit set, so
 * a query hits circle i only when (~0 & m) != 0, and a query mask of 0 hits nothing. Every
 * engine and path answers it alike: brute force, the grid (short and long queries), the
 * periodic box, moving circles, and overlap queries; such a query is a miss, not an invalid
 * one. The same set given all-ones masks must give the same answers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "hitscan/grid.h"
#include "test_util.h"

enum { NC = 3, NQ = 6 };
static const float cx[NC] = {10.0f, 20.0f, 15.0f}, cy[NC] = {0.0f, 0.0f, 4.0f},
                   cr[NC] = {1.0f, 2.0f, 1.0f};
static const uint32_t ones[NC] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};

/* The segment (0, 0) -> (30, 0) six times, with masks 0, 1, 0, ~0, 0, 0 (or the batch's). */
static const float qax[NQ] = {0, 0, 0, 0, 0, 0}, qay[NQ] = {0, 0, 0, 0, 0, 0};
static const float qdx[NQ] = {30, 30, 30, 30, 30, 30}, qdy[NQ] = {0, 0, 0, 0, 0, 0};
static const uint32_t qmask[NQ] = {0u, 1u, 0u, UINT32_MAX, 0u, 0u};

/* The answers of every mode for one engine. */
typedef struct answers {
    hs_status st[4];
    uint32_t idx[NQ];
    float t[NQ];
    uint8_t hit[NQ];
    uint32_t count[NQ];
    hs_hits all;
    size_t invalid;
} answers;

typedef enum engine { BRUTE, GRID, PERIODIC, MOVING, ENGINES } engine;

static hs_queries make_batch(int per_query_masks, uint32_t mask_all)
{
    hs_queries qs = hs_queries_segments(qax, qay, qdx, qdy, NQ);
    if (per_query_masks)
        qs.mask = qmask;
    qs.mask_all = mask_all;
    return qs;
}

static void ask(engine e, const uint32_t *masks, const hs_queries *qs, answers *a)
{
    hs_circles *cs = NULL;
    assert_int_equal(hs_circles_create(cx, cy, cr, masks, NC, &cs, NULL), HS_OK);
    hs_grid *g = NULL;
    if (e != BRUTE) {
        hs_grid_opts go = {.cell_size = 0.0f, .threads = 1, .periodic = 0};
        if (e == PERIODIC) {
            go.periodic = HS_PERIODIC_XY;
            go.box = (hs_aabb){{-50.0f, -50.0f}, {50.0f, 50.0f}};
        }
        assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
    }
    hs_batch_stats stats;
    hs_batch_opts o = hs_batch_opts_default();
    o.stats = &stats;
    const float dx[NC] = {0.0f, 0.5f, 0.0f}, dy[NC] = {0.0f, 0.0f, -0.25f};
    if (e == MOVING) {
        o.disp_x = dx;
        o.disp_y = dy;
    }
    const hs_closest_out co = {.idx = a->idx, .t = a->t};
    if (e == BRUTE) {
        a->st[0] = hs_brute_closest(cs, qs, &o, co);
        a->st[1] = hs_brute_any(cs, qs, &o, a->hit);
        a->st[2] = hs_brute_count(cs, qs, &o, a->count);
        a->st[3] = hs_brute_all(cs, qs, &o, &a->all);
    } else {
        a->st[0] = hs_grid_closest(g, qs, &o, co);
        a->st[1] = hs_grid_any(g, qs, &o, a->hit);
        a->st[2] = hs_grid_count_hits(g, qs, &o, a->count);
        a->st[3] = hs_grid_all(g, qs, &o, &a->all);
    }
    a->invalid = stats.invalid;
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

/* Query i misses everything when its mask is 0, and hits circles 0 (closest, at t = 0.3 or
 * sooner for moving ones) and 1 otherwise; no query is invalid. */
static void check(const answers *a, const hs_queries *qs)
{
    for (int k = 0; k < 4; k++)
        assert_int_equal(a->st[k], HS_OK);
    assert_int_equal(a->invalid, 0);
    for (size_t i = 0; i < NQ; i++) {
        const uint32_t m = qs->mask ? qs->mask[i] : qs->mask_all;
        if (m == 0) {
            assert_int_equal(a->idx[i], HS_NONE);
            assert_true(isnan(a->t[i]));
            assert_int_equal(a->hit[i], 0);
            assert_int_equal(a->count[i], 0);
            assert_int_equal(a->all.offsets[i + 1] - a->all.offsets[i], 0);
        } else {
            assert_int_equal(a->idx[i], 0);
            assert_int_equal(a->hit[i], 1);
            assert_int_equal(a->count[i], 2);
            assert_int_equal(a->all.offsets[i + 1] - a->all.offsets[i], 2);
        }
    }
}

static void same(const answers *a, const answers *b)
{
    assert_memory_equal(a->idx, b->idx, sizeof a->idx);
    assert_memory_equal(a->hit, b->hit, sizeof a->hit);
    assert_memory_equal(a->count, b->count, sizeof a->count);
    assert_int_equal(a->all.total, b->all.total);
    assert_memory_equal(a->all.offsets, b->all.offsets, (NQ + 1) * sizeof(size_t));
    assert_memory_equal(a->all.idx, b->all.idx, a->all.total * sizeof(uint32_t));
    for (size_t i = 0; i < NQ; i++)
        assert_true(a->t[i] == b->t[i] || (isnan(a->t[i]) && isnan(b->t[i])));
}

/* The report's case on every engine: a set without masks answers as one whose masks are all
 * ones, with per-query masks and with one mask for the batch (0 and ~0). */
static void test_unmasked_set_is_all_ones(void **state)
{
    (void)state;
    for (int e = 0; e < ENGINES; e++) {
        for (int form = 0; form < 3; form++) {
            const hs_queries qs = make_batch(form == 0, form == 1 ? 0u : UINT32_MAX);
            answers none, all_ones;
            memset(&none, 0, sizeof none);
            memset(&all_ones, 0, sizeof all_ones);
            ask((engine)e, NULL, &qs, &none);
            ask((engine)e, ones, &qs, &all_ones);
            check(&none, &qs);
            check(&all_ones, &qs);
            same(&none, &all_ones);
            hs_hits_free(&none.all);
            hs_hits_free(&all_ones.all);
        }
    }
}

/* Overlap queries: a disc of mask 0 finds nothing, with or without circle masks, and a plain
 * and a periodic grid alike. */
static void test_overlap_mask_zero(void **state)
{
    (void)state;
    for (int periodic = 0; periodic <= 1; periodic++)
        for (int masked = 0; masked <= 1; masked++) {
            hs_circles *cs = NULL;
            assert_int_equal(hs_circles_create(cx, cy, cr, masked ? ones : NULL, NC, &cs, NULL),
                             HS_OK);
            hs_grid_opts go = {.cell_size = 0.0f, .threads = 1, .periodic = 0};
            if (periodic) {
                go.periodic = HS_PERIODIC_XY;
                go.box = (hs_aabb){{-50.0f, -50.0f}, {50.0f, 50.0f}};
            }
            hs_grid *g = NULL;
            assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
            uint32_t idx[NC];
            size_t found = 99;
            const hs_circle disc = {15.0f, 0.0f, 10.0f};
            assert_int_equal(hs_grid_overlap_circle(g, disc, 0u, idx, NC, &found), HS_OK);
            assert_int_equal(found, 0);
            assert_int_equal(hs_grid_overlap_circle(g, disc, 1u, idx, NC, &found), HS_OK);
            assert_int_equal(found, 3);
            const float x[2] = {15.0f, 15.0f}, y[2] = {0.0f, 0.0f}, r[2] = {10.0f, 10.0f};
            const uint32_t m[2] = {0u, 4u};
            hs_overlaps ov;
            assert_int_equal(hs_grid_overlap_discs(g, x, y, r, m, 2, NULL, &ov), HS_OK);
            assert_int_equal(ov.offsets[1], 0);
            assert_int_equal(ov.offsets[2], 3);
            hs_overlaps_free(&ov);
            hs_grid_destroy(g);
            hs_circles_destroy(cs);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unmasked_set_is_all_ones),
        cmocka_unit_test(test_overlap_mask_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
