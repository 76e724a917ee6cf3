/* SPDX-License-Identifier: MIT */
/* All-hits into the caller's arrays (hs_grid_all_into, hs_brute_all_into): the members the
 * place function asks for and no other, the CSR's hits in the CSR's order on a scene of many
 * hits per query, a place that gives up, the empty batch, and the argument errors. (Every
 * differential check of batch_check.h also compares the full form with the CSR.) */
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
#include "test_util.h"

#define N_CIRCLES 4000
#define N_QUERIES 6000

typedef struct world {
    float x[N_CIRCLES], y[N_CIRCLES], r[N_CIRCLES];
    float ax[N_QUERIES], ay[N_QUERIES], dx[N_QUERIES], dy[N_QUERIES];
    hs_circles *cs;
    hs_grid *g;
    hs_queries qs;
} world;

/* The mixed scene with segments 8 times as long: rows of tens of hits. */
static world *world_make(void)
{
    world *s = calloc(1, sizeof *s);
    assert_non_null(s);
    assert_int_equal(hs_scene_circles(HS_SCENE_MIXED, N_CIRCLES, 7, s->x, s->y, s->r), HS_OK);
    assert_int_equal(
        hs_scene_segments(HS_SCENE_MIXED, N_CIRCLES, N_QUERIES, 8, s->ax, s->ay, s->dx, s->dy),
        HS_OK);
    for (size_t i = 0; i < N_QUERIES; i++) {
        s->dx[i] *= 8.0f;
        s->dy[i] *= 8.0f;
    }
    assert_int_equal(hs_circles_create(s->x, s->y, s->r, NULL, N_CIRCLES, &s->cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(s->cs, NULL, &s->g), HS_OK);
    s->qs = hs_queries_segments(s->ax, s->ay, s->dx, s->dy, N_QUERIES);
    return s;
}

static void world_free(world *s)
{
    hs_grid_destroy(s->g);
    hs_circles_destroy(s->cs);
    free(s);
}

/* What a place function is asked for and hands out: the members in `want` (bits 1 offsets,
 * 2 query, 4 idx, 8 t) from malloc, each with a guard entry past its end. */
#define GUARD INT64_C(0x5a5a5a5a5a5a5a5a)
typedef struct placed {
    unsigned want;
    int refuse;
    size_t calls, count, total;
    int entry_null; /* every member was NULL when place was called */
    hs_hits_into d;
} placed;

static int place(void *ctx, size_t count, size_t total, hs_hits_into *dst)
{
    placed *p = ctx;
    p->calls++;
    p->count = count;
    p->total = total;
    p->entry_null = !dst->offsets && !dst->query && !dst->idx && !dst->t;
    if (p->refuse)
        return 1;
    if (p->want & 1u) {
        dst->offsets = malloc((count + 2) * sizeof(int64_t));
        dst->offsets[count + 1] = GUARD;
    }
    if (p->want & 2u) {
        dst->query = malloc((total + 1) * sizeof(int64_t));
        dst->query[total] = GUARD;
    }
    if (p->want & 4u) {
        dst->idx = malloc((total + 1) * sizeof(int64_t));
        dst->idx[total] = GUARD;
    }
    if (p->want & 8u) {
        dst->t = malloc((total + 1) * sizeof(float));
        dst->t[total] = -3.5f;
    }
    p->d = *dst;
    return 0;
}

static void placed_free(placed *p)
{
    free(p->d.offsets);
    free(p->d.query);
    free(p->d.idx);
    free(p->d.t);
    memset(&p->d, 0, sizeof p->d);
}

/* p's arrays equal the CSR h, member by member, and nothing is written past them. */
static void check_against(const placed *p, const hs_hits *h)
{
    assert_int_equal(p->calls, 1);
    assert_true(p->entry_null);
    assert_int_equal(p->count, h->count);
    assert_int_equal(p->total, h->total);
    if (p->d.offsets) {
        for (size_t i = 0; i <= h->count; i++)
            assert_true(p->d.offsets[i] == (int64_t)h->offsets[i]);
        assert_true(p->d.offsets[h->count + 1] == GUARD);
    }
    for (size_t i = 0; i < h->count; i++)
        for (size_t e = h->offsets[i]; e < h->offsets[i + 1]; e++) {
            if (p->d.query)
                assert_true(p->d.query[e] == (int64_t)i);
            if (p->d.idx)
                assert_true(p->d.idx[e] == (int64_t)h->idx[e]);
            if (p->d.t)
                assert_memory_equal(&p->d.t[e], &h->t[e], sizeof(float));
        }
    if (p->d.query)
        assert_true(p->d.query[h->total] == GUARD);
    if (p->d.idx)
        assert_true(p->d.idx[h->total] == GUARD);
    if (p->d.t)
        assert_true(p->d.t[h->total] == -3.5f);
}

/* Every subset of the members (four of them in a quick run), grid and brute force, one and
 * two threads, with and without a workspace: the CSR's answer. */
static void test_members_match_csr(void **state)
{
    (void)state;
    world *s = world_make();
    hs_workspace *ws = NULL;
    assert_int_equal(hs_workspace_create(&ws), HS_OK);
    /* brute force's subsets are the same C at every level: natively only */
    for (int brute = 0; brute < (test_emulated() ? 1 : 2); brute++)
        for (int threads = 1; threads <= 2; threads++)
            for (int use_ws = 0; use_ws < 2; use_ws++) {
                hs_batch_opts o = hs_batch_opts_default();
                o.threads = threads;
                o.ws = use_ws ? ws : NULL;
                hs_hits h;
                hs_batch_opts plain = o;
                plain.ws = NULL; /* the reference stays valid across the calls below */
                assert_int_equal(brute ? hs_brute_all(s->cs, &s->qs, &plain, &h)
                                       : hs_grid_all(s->g, &s->qs, &plain, &h),
                                 HS_OK);
                assert_true(h.total > 10 * h.count); /* rows of many hits */
                assert_true(h.total > 65536);        /* a large output: stored past the cache */
                for (unsigned want = 0; want < 16; want += test_quick() ? 5 : 1) {
                    placed p = {.want = want};
                    hs_status st = brute ? hs_brute_all_into(s->cs, &s->qs, &o, place, &p)
                                         : hs_grid_all_into(s->g, &s->qs, &o, place, &p);
                    assert_int_equal(st, HS_OK);
                    check_against(&p, &h);
                    placed_free(&p);
                }
                hs_hits_free(&h);
            }
    hs_workspace_destroy(ws);
    world_free(s);
}

/* A place that gives up: HS_E_NOMEM, called once; the next call works. An empty batch: place
 * is still called, with 0 queries and 0 hits, and offsets gets its one entry. */
static void test_refusal_and_empty(void **state)
{
    (void)state;
    world *s = world_make();
    placed p = {.want = 15, .refuse = 1};
    assert_int_equal(hs_grid_all_into(s->g, &s->qs, NULL, place, &p), HS_E_NOMEM);
    assert_int_equal(p.calls, 1);
    assert_int_equal(hs_brute_all_into(s->cs, &s->qs, NULL, place, &p), HS_E_NOMEM);
    assert_int_equal(p.calls, 2);
    placed ok = {.want = 15};
    assert_int_equal(hs_grid_all_into(s->g, &s->qs, NULL, place, &ok), HS_OK);
    assert_true(ok.total > 0);
    placed_free(&ok);

    hs_queries none = hs_queries_segments(s->ax, s->ay, s->dx, s->dy, 0);
    placed e = {.want = 15};
    assert_int_equal(hs_grid_all_into(s->g, &none, NULL, place, &e), HS_OK);
    assert_int_equal(e.calls, 1);
    assert_int_equal(e.count, 0);
    assert_int_equal(e.total, 0);
    assert_true(e.d.offsets[0] == 0 && e.d.offsets[1] == GUARD);
    placed_free(&e);
    world_free(s);
}

/* Invalid queries: answered as misses and counted, as hs_grid_all does. NULL arguments. */
static void test_invalid_and_null(void **state)
{
    (void)state;
    world *s = world_make();
    s->ax[5] = NAN;
    hs_batch_stats stats;
    hs_batch_opts o = hs_batch_opts_default();
    o.stats = &stats;
    hs_hits h;
    assert_int_equal(hs_grid_all(s->g, &s->qs, &o, &h), HS_E_INVALID_QUERY);
    placed p = {.want = 15};
    assert_int_equal(hs_grid_all_into(s->g, &s->qs, &o, place, &p), HS_E_INVALID_QUERY);
    assert_int_equal(stats.invalid, 1);
    assert_int_equal(stats.first_invalid, 5);
    check_against(&p, &h);
    assert_true(p.d.offsets[5] == p.d.offsets[6]);
    placed_free(&p);
    hs_hits_free(&h);

    placed q = {.want = 15};
    assert_int_equal(hs_grid_all_into(NULL, &s->qs, NULL, place, &q), HS_E_NULL);
    assert_int_equal(hs_grid_all_into(s->g, &s->qs, NULL, NULL, &q), HS_E_NULL);
    assert_int_equal(hs_brute_all_into(NULL, &s->qs, NULL, place, &q), HS_E_NULL);
    assert_int_equal(hs_brute_all_into(s->cs, &s->qs, NULL, NULL, &q), HS_E_NULL);
    assert_int_equal(q.calls, 0);
    world_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members_match_csr),
        cmocka_unit_test(test_refusal_and_empty),
        cmocka_unit_test(test_invalid_and_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
