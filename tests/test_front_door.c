/* SPDX-License-Identifier: MIT */
/* Tests of the grid calls' front door (src/grid/query.c) and the engines behind it:
 *   - queries against moving circles walk the grid itself: with a workspace that has served a
 *     call once, the next call of every mode allocates nothing (no grid of discs, no list of
 *     candidates per call);
 *   - every displacement 0 gives the standing answers, periodic box included (the engine is
 *     picked once, from the displacements' values);
 *   - a periodic box's all hits are laid out by the assembly every engine shares: with a
 *     workspace the result stays in it, as the plain call's does, with the same hits.
 * Linked with the interposed allocator (nomem_util.h) to count allocations. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hitscan/batch.h"
#include "hitscan/grid.h"
#include "nomem_util.h"
#include "test_util.h"

#define N 3000
#define M 500

typedef struct fscene {
    scene s;
    float *ddx, *ddy, *zero;
    batch b;
} fscene;

static void fs_make(fscene *w)
{
    scene_alloc(&w->s, N);
    w->ddx = xcalloc(N, sizeof(float));
    w->ddy = xcalloc(N, sizeof(float));
    w->zero = xcalloc(N, sizeof(float));
    for (size_t i = 0; i < N; i++) {
        w->s.x[i] = frange(0, 100);
        w->s.y[i] = frange(0, 100);
        w->s.r[i] = frange(0.5, 1.5);
        w->ddx[i] = frange(-1, 1);
        w->ddy[i] = frange(-1, 1);
    }
    batch_alloc_arrays(&w->b, M, 0);
    for (size_t i = 0; i < M; i++) {
        w->b.ax[i] = frange(0, 100);
        w->b.ay[i] = frange(0, 100);
        w->b.dx[i] = frange(-20, 20);
        w->b.dy[i] = frange(-20, 20);
    }
    w->b.qs = hs_queries_segments(w->b.ax, w->b.ay, w->b.dx, w->b.dy, M);
    assert_int_equal(hs_circles_create(w->s.x, w->s.y, w->s.r, NULL, N, &w->s.cs, NULL), HS_OK);
}

static void fs_free(fscene *w)
{
    scene_free(&w->s);
    batch_free(&w->b);
    free(w->ddx);
    free(w->ddy);
    free(w->zero);
}

/* The scene's circles in the box [0, 100]^2, periodic in x and y. */
static hs_grid *periodic_grid(const fscene *w)
{
    hs_grid_opts go;
    memset(&go, 0, sizeof go);
    go.periodic = HS_PERIODIC_XY;
    go.box = (hs_aabb){{0.0f, 0.0f}, {100.0f, 100.0f}};
    hs_grid *g;
    assert_int_equal(hs_grid_build(w->s.cs, &go, &g), HS_OK);
    return g;
}

/* The allocations one call of each mode makes (counted, none failed). */
static long count_allocs(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *o, int mode)
{
    static uint32_t idx[M], cnt[M];
    static float t[M];
    static uint8_t hit[M];
    const hs_closest_out co = {idx, t, NULL, NULL, NULL, NULL, NULL};
    hs_hits all;
    arm(-1);
    hs_status s = mode == 0   ? hs_grid_closest(g, qs, o, co)
                  : mode == 1 ? hs_grid_any(g, qs, o, hit)
                  : mode == 2 ? hs_grid_count_hits(g, qs, o, cnt)
                              : hs_grid_all(g, qs, o, &all);
    (void)disarm();
    assert_int_equal(s, HS_OK);
    if (mode == 3)
        hs_hits_free(&all);
    return atomic_load(&calls);
}

static void test_moving_allocates_nothing_with_a_workspace(void **state)
{
    (void)state;
    fscene w;
    fs_make(&w);
    hs_grid *g;
    assert_int_equal(hs_grid_build(w.s.cs, NULL, &g), HS_OK);
    hs_workspace *ws;
    assert_int_equal(hs_workspace_create(&ws), HS_OK);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    o.ws = ws;
    o.disp_x = w.ddx;
    o.disp_y = w.ddy;
    for (int mode = 0; mode < 4; mode++) {
        (void)count_allocs(g, &w.b.qs, &o, mode); /* grows the workspace */
        assert_int_equal(count_allocs(g, &w.b.qs, &o, mode), 0);
    }
    hs_workspace_destroy(ws);
    hs_grid_destroy(g);
    fs_free(&w);
}

static void test_zero_displacement_in_a_periodic_box(void **state)
{
    (void)state;
    fscene w;
    fs_make(&w);
    hs_grid *g = periodic_grid(&w);
    hs_batch_opts still = hs_batch_opts_default(), o = still;
    o.disp_x = o.disp_y = w.zero;
    uint32_t want[M], got[M], wid[M], gid[M];
    float wt[M], gt[M];
    assert_int_equal(hs_grid_count_hits(g, &w.b.qs, &still, want), HS_OK);
    assert_int_equal(hs_grid_count_hits(g, &w.b.qs, &o, got), HS_OK);
    assert_memory_equal(got, want, sizeof got);
    const hs_closest_out wc = {wid, wt, NULL, NULL, NULL, NULL, NULL},
                         gc = {gid, gt, NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(hs_grid_closest(g, &w.b.qs, &still, wc), HS_OK);
    assert_int_equal(hs_grid_closest(g, &w.b.qs, &o, gc), HS_OK);
    assert_memory_equal(gid, wid, sizeof gid);
    assert_memory_equal(gt, wt, sizeof gt);
    /* moving circles in the box: answered (test_moving_periodic.c checks how), closest and
     * count agreeing on which queries hit */
    o.disp_x = w.ddx;
    o.disp_y = w.ddy;
    assert_int_equal(hs_grid_count_hits(g, &w.b.qs, &o, got), HS_OK);
    assert_int_equal(hs_grid_closest(g, &w.b.qs, &o, gc), HS_OK);
    for (size_t i = 0; i < M; i++)
        assert_int_equal(gid[i] != HS_NONE, got[i] != 0);
    hs_grid_destroy(g);
    fs_free(&w);
}

static void test_periodic_all_in_the_workspace(void **state)
{
    (void)state;
    fscene w;
    fs_make(&w);
    hs_grid *g = periodic_grid(&w);
    hs_workspace *ws;
    assert_int_equal(hs_workspace_create(&ws), HS_OK);
    for (int threads = 1; threads <= 2; threads++) {
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = threads;
        hs_hits want, got;
        assert_int_equal(hs_grid_all(g, &w.b.qs, &o, &want), HS_OK);
        assert_null(want.ws);
        assert_true(want.total > M); /* the scene has hits, across the edges too */
        o.ws = ws;
        assert_int_equal(hs_grid_all(g, &w.b.qs, &o, &got), HS_OK);
        assert_ptr_equal(got.ws, ws); /* the workspace's, as the plain call's */
        assert_hits_equal(&got, &want);
        hs_hits_free(&got);
        hs_hits_free(&want);
    }
    hs_workspace_destroy(ws);
    hs_grid_destroy(g);
    fs_free(&w);
}

int main(void)
{
    (void)each_failure; /* nomem_util.h's loop: these tests count, they fail nothing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moving_allocates_nothing_with_a_workspace),
        cmocka_unit_test(test_zero_displacement_in_a_periodic_box),
        cmocka_unit_test(test_periodic_all_in_the_workspace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
