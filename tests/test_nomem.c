/* SPDX-License-Identifier: MIT */
/* Allocation failure: every allocation the library makes, failing in turn, gives HS_E_NOMEM and
 * leaves things usable. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "batch/all_hits.h"
#include "batch/parallel.h"
#include "hitscan/hitscan.h"
#include "test_util.h"
#include "tuning.h"

#include "nomem_util.h"

/* ---- scenes ----------------------------------------------------------------------------- */
typedef struct world {
    scene s;
    float *ax, *ay, *dx, *dy;
    size_t m;
    hs_queries qs;
} world;

static void world_make(world *w, size_t n, size_t m, uint64_t seed)
{
    scene_alloc(&w->s, n);
    w->s.mask = xcalloc(n, sizeof(uint32_t));
    float side = n ? hs_scene_side(n) : 1.0f;
    if (n)
        assert_int_equal(hs_scene_circles(HS_SCENE_MIXED, n, seed, w->s.x, w->s.y, w->s.r), HS_OK);
    for (size_t i = 0; i < n; i++)
        w->s.mask[i] = 1u << (i % 3);
    w->m = m;
    w->ax = xcalloc(m, sizeof(float));
    w->ay = xcalloc(m, sizeof(float));
    w->dx = xcalloc(m, sizeof(float));
    w->dy = xcalloc(m, sizeof(float));
    assert_int_equal(
        hs_scene_segments(HS_SCENE_MIXED, n ? n : 1, m, seed, w->ax, w->ay, w->dx, w->dy), HS_OK);
    for (size_t i = 0; i < m; i += 37) { /* a few lines across the world, and an invalid one */
        w->dx[i] = side;
        w->dy[i] = side * 0.25f;
    }
    if (m > 5)
        w->ax[5] = NAN;
    w->qs = hs_queries_segments(w->ax, w->ay, w->dx, w->dy, m);
    w->qs.mask_all = 3u;
    assert_int_equal(hs_circles_create(w->s.x, w->s.y, w->s.r, w->s.mask, n, &w->s.cs, NULL),
                     HS_OK);
}

/* Every third circle from the third on a copy of the first (its mask too): enough equal
 * circles in one cell for the build to set them apart, with a second pass of its own. */
static void world_crowd(world *w)
{
    scene *sc = &w->s;
    for (size_t i = 3; i < sc->n; i += 3) {
        sc->x[i] = sc->x[0];
        sc->y[i] = sc->y[0];
        sc->r[i] = sc->r[0];
        sc->mask[i] = sc->mask[0];
    }
    hs_circles_destroy(sc->cs);
    assert_int_equal(hs_circles_create(sc->x, sc->y, sc->r, sc->mask, sc->n, &sc->cs, NULL), HS_OK);
}

static void world_free(world *w)
{
    scene_free(&w->s);
    free(w->ax);
    free(w->ay);
    free(w->dx);
    free(w->dy);
}

/* ---- circle sets, workspaces ------------------------------------------------------------ */
typedef struct set_ctx {
    world *w;
    int borrow;
    hs_circles *out;
} set_ctx;

static hs_status set_op(void *p)
{
    set_ctx *c = p;
    c->out = (hs_circles *)(uintptr_t)0x1234; /* must come back NULL on failure */
    const scene *s = &c->w->s;
    return (c->borrow ? hs_circles_borrow : hs_circles_create)(s->x, s->y, s->r, s->mask, s->n,
                                                               &c->out, NULL);
}

static void set_check(void *p, hs_status s, int failed)
{
    set_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        assert_null(c->out);
        return;
    }
    const scene *sc = &c->w->s;
    assert_int_equal(hs_circles_count(c->out), sc->n);
    if (sc->n)
        assert_memory_equal(hs_circles_x(c->out), sc->x, sc->n * sizeof(float));
    hs_circles_destroy(c->out);
}

static hs_status ws_op(void *p) { return hs_workspace_create((hs_workspace **)p); }
static void ws_check(void *p, hs_status s, int failed)
{
    hs_workspace **ws = p;
    (void)failed;
    if (s != HS_OK) {
        assert_null(*ws);
        return;
    }
    hs_workspace_destroy(*ws);
}

static void test_circles_and_workspace(void **state)
{
    (void)state;
    world w;
    world_make(&w, 100, 10, 1);
    set_ctx c = {&w, 0, NULL};
    assert_true(each_failure("circles_create", set_op, set_check, &c) >= 1);
    c.borrow = 1;
    assert_true(each_failure("circles_borrow", set_op, set_check, &c) >= 1);
    hs_workspace *ws = NULL;
    assert_true(each_failure("workspace_create", ws_op, ws_check, &ws) >= 1);
    world_free(&w);
}

/* ---- grid build and rebuild --------------------------------------------------------------- */
/* The grid answers as brute force does (closest by scalar reference of the same set). */
static void assert_grid_answers(const hs_grid *g, const world *w)
{
    const size_t m = w->m;
    uint32_t *gi = xcalloc(m, sizeof *gi), *bi = xcalloc(m, sizeof *bi);
    float *gt = xcalloc(m, sizeof *gt), *bt = xcalloc(m, sizeof *bt);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    hs_closest_out go = {gi, gt, NULL, NULL, NULL, NULL, NULL},
                   bo = {bi, bt, NULL, NULL, NULL, NULL, NULL};
    hs_status sg = hs_grid_closest(g, &w->qs, &o, go),
              sb = hs_brute_closest(w->s.cs, &w->qs, &o, bo);
    assert_int_equal(sg, sb);
    assert_memory_equal(gi, bi, m * sizeof *gi);
    free(gi);
    free(bi);
    free(gt);
    free(bt);
}

typedef struct build_ctx {
    world *w;
    int threads;
    hs_grid *g;
} build_ctx;

static hs_status build_op(void *p)
{
    build_ctx *c = p;
    c->g = (hs_grid *)(uintptr_t)0x1234;
    hs_grid_opts go = {.cell_size = 0.0f, .threads = c->threads};
    return hs_grid_build(c->w->s.cs, &go, &c->g);
}

static void build_check(void *p, hs_status s, int failed)
{
    build_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        assert_null(c->g);
        return;
    }
    assert_int_equal(hs_grid_circle_count(c->g), c->w->s.n);
    assert_grid_answers(c->g, c->w);
    hs_grid_destroy(c->g);
}

typedef struct rebuild_ctx {
    world *from, *to;
    int threads;
    hs_grid *g;
} rebuild_ctx;

static hs_status rebuild_op(void *p)
{
    rebuild_ctx *c = p;
    return hs_grid_rebuild(c->g, c->to->s.cs);
}

/* A failed rebuild leaves an empty, valid grid; either way the grid is rebuilt from `from`
 * for the next round, and rebuilding to `to` afterwards works. */
static void rebuild_check(void *p, hs_status s, int failed)
{
    rebuild_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        assert_int_equal(hs_grid_circle_count(c->g), 0);
        uint8_t *hit = xcalloc(c->to->m, 1);
        hs_batch_opts o = hs_batch_opts_default();
        hs_status st = hs_grid_any(c->g, &c->to->qs, &o, hit);
        assert_true(st == HS_OK || st == HS_E_INVALID_QUERY);
        for (size_t i = 0; i < c->to->m; i++)
            assert_int_equal(hit[i], 0);
        free(hit);
        assert_int_equal(hs_grid_rebuild(c->g, c->to->s.cs), HS_OK);
    }
    assert_int_equal(hs_grid_circle_count(c->g), c->to->s.n);
    assert_grid_answers(c->g, c->to);
    assert_int_equal(hs_grid_rebuild(c->g, c->from->s.cs), HS_OK);
}

static void test_grid_build_and_rebuild(void **state)
{
    (void)state;
    world small, big, other, crowd;
    world_make(&small, 1000, 200, 2);
    world_make(&big, 40000, 200, 3); /* > 32768: the per-thread band buffers */
    world_make(&other, 3000, 200, 4);
    world_make(&crowd, 3000, 200, 5);
    world_crowd(&crowd);
    for (int threads = 1; threads <= 2; threads++) {
        build_ctx b = {&small, threads, NULL};
        each_failure("grid_build small", build_op, build_check, &b);
        b.w = &big;
        each_failure("grid_build big", build_op, build_check, &b);
        b.w = &crowd; /* the repeats set apart: without memory for it, the grid as first built */
        each_failure("grid_build crowd", build_op, build_check, &b);
        hs_grid_opts go = {.cell_size = 0.0f, .threads = threads};
        rebuild_ctx r = {&small, &big, threads, NULL};
        assert_int_equal(hs_grid_build(small.s.cs, &go, &r.g), HS_OK);
        each_failure("grid_rebuild grow", rebuild_op, rebuild_check, &r);
        r.from = &big;
        r.to = &other;
        assert_int_equal(hs_grid_rebuild(r.g, big.s.cs), HS_OK);
        each_failure("grid_rebuild shrink", rebuild_op, rebuild_check, &r);
        hs_grid_destroy(r.g);
    }
    world_free(&small);
    world_free(&big);
    world_free(&other);
    world_free(&crowd);
}

/* ---- batch calls -------------------------------------------------------------------------- */
/* M_ALL_INTO: all-hits into the caller's arrays (hs_*_all_into), checked against the CSR */
enum { M_CLOSEST, M_ANY, M_COUNT, M_ALL, M_ALL_INTO, M_MODES };

typedef struct batch_ctx {
    const world *w;
    const hs_grid *g; /* NULL: brute force */
    int mode;
    int cold; /* trim the workspace before each call */
    hs_batch_opts o;
    /* outputs, pre-filled with 0xAB before each call */
    uint32_t *idx, *cnt;
    float *t, *px, *ny;
    uint8_t *hit;
    hs_hits all;
    hs_hits_into into; /* M_ALL_INTO's arrays, from the test's own malloc */
    size_t into_places;
    /* the answers without failures */
    uint32_t *ref_idx, *ref_cnt;
    float *ref_t, *ref_px, *ref_ny;
    uint8_t *ref_hit;
    hs_hits ref_all;
    hs_status ref_status;
} batch_ctx;

/* Its allocations are failure points too: a place that gives up frees what it got. */
static int place_into(void *ctx, size_t count, size_t total, hs_hits_into *dst)
{
    batch_ctx *c = ctx;
    c->into_places++;
    hs_hits_into d = {calloc(count + 1, sizeof *d.offsets), calloc(total + 1, sizeof *d.query),
                      calloc(total + 1, sizeof *d.idx), calloc(total + 1, sizeof *d.t), NULL};
    if (!d.offsets || !d.query || !d.idx || !d.t) {
        free(d.offsets);
        free(d.query);
        free(d.idx);
        free(d.t);
        return 1;
    }
    *dst = d;
    c->into = d;
    return 0;
}

static void into_free(batch_ctx *c)
{
    free(c->into.offsets);
    free(c->into.query);
    free(c->into.idx);
    free(c->into.t);
    memset(&c->into, 0, sizeof c->into);
    c->into_places = 0;
}

static hs_status batch_call(batch_ctx *c, uint32_t *idx, float *t, float *px, float *ny,
                            uint8_t *hit, uint32_t *cnt, hs_hits *all)
{
    const hs_queries *qs = &c->w->qs;
    hs_closest_out out = {idx, t, px, NULL, NULL, ny, NULL};
    switch (c->mode) {
    case M_CLOSEST:
        return c->g ? hs_grid_closest(c->g, qs, &c->o, out)
                    : hs_brute_closest(c->w->s.cs, qs, &c->o, out);
    case M_ANY:
        return c->g ? hs_grid_any(c->g, qs, &c->o, hit) : hs_brute_any(c->w->s.cs, qs, &c->o, hit);
    case M_COUNT:
        return c->g ? hs_grid_count_hits(c->g, qs, &c->o, cnt)
                    : hs_brute_count(c->w->s.cs, qs, &c->o, cnt);
    case M_ALL_INTO:
        if (all == &c->ref_all) /* the reference is the CSR */
            break;
        into_free(c);
        return c->g ? hs_grid_all_into(c->g, qs, &c->o, place_into, c)
                    : hs_brute_all_into(c->w->s.cs, qs, &c->o, place_into, c);
    default: break;
    }
    return c->g ? hs_grid_all(c->g, qs, &c->o, all) : hs_brute_all(c->w->s.cs, qs, &c->o, all);
}

static void fill_outputs(batch_ctx *c)
{
    const size_t m = c->w->m;
    memset(c->idx, 0xAB, m * sizeof *c->idx);
    memset(c->t, 0xAB, m * sizeof *c->t);
    memset(c->px, 0xAB, m * sizeof *c->px);
    memset(c->ny, 0xAB, m * sizeof *c->ny);
    memset(c->hit, 0xAB, m);
    memset(c->cnt, 0xAB, m * sizeof *c->cnt);
    memset(&c->all, 0xAB, sizeof c->all);
}

static hs_status batch_op(void *p)
{
    batch_ctx *c = p;
    if (c->cold && c->o.ws) /* frees only: every round starts from an empty workspace */
        assert_int_equal(hs_workspace_trim(c->o.ws), HS_OK);
    return batch_call(c, c->idx, c->t, c->px, c->ny, c->hit, c->cnt, &c->all);
}

static int untouched(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < bytes; i++)
        if (b[i] != 0xAB)
            return 0;
    return 1;
}

static void assert_same_as_reference(batch_ctx *c, hs_status s)
{
    const size_t m = c->w->m;
    assert_int_equal(s, c->ref_status);
    switch (c->mode) {
    case M_CLOSEST:
        assert_memory_equal(c->idx, c->ref_idx, m * sizeof *c->idx);
        assert_memory_equal(c->t, c->ref_t, m * sizeof *c->t);
        assert_memory_equal(c->px, c->ref_px, m * sizeof *c->px);
        assert_memory_equal(c->ny, c->ref_ny, m * sizeof *c->ny);
        break;
    case M_ANY: assert_memory_equal(c->hit, c->ref_hit, m); break;
    case M_COUNT: assert_memory_equal(c->cnt, c->ref_cnt, m * sizeof *c->cnt); break;
    case M_ALL_INTO:
        assert_int_equal(c->into_places, 1);
        for (size_t i = 0; i <= m; i++)
            assert_true(c->into.offsets[i] == (int64_t)c->ref_all.offsets[i]);
        for (size_t i = 0; i < m; i++)
            for (size_t e = c->ref_all.offsets[i]; e < c->ref_all.offsets[i + 1]; e++) {
                assert_true(c->into.query[e] == (int64_t)i);
                assert_true(c->into.idx[e] == (int64_t)c->ref_all.idx[e]);
                assert_memory_equal(&c->into.t[e], &c->ref_all.t[e], sizeof(float));
            }
        into_free(c);
        break;
    default:
        assert_int_equal(c->all.count, m);
        assert_int_equal(c->all.total, c->ref_all.total);
        assert_memory_equal(c->all.offsets, c->ref_all.offsets, (m + 1) * sizeof(size_t));
        if (c->all.total) {
            assert_memory_equal(c->all.idx, c->ref_all.idx, c->all.total * sizeof(uint32_t));
            assert_memory_equal(c->all.t, c->ref_all.t, c->all.total * sizeof(float));
        }
        hs_hits_free(&c->all);
    }
}

/* Failure: closest / any / count outputs untouched, all-hits' struct cleared (nothing to
 * free); then the same call, without failures, gives the reference answers (the workspace,
 * if any, is still usable). Success: the reference answers. */
static void batch_check(void *p, hs_status s, int failed)
{
    batch_ctx *c = p;
    const size_t m = c->w->m;
    (void)failed;
    if (s == HS_E_NOMEM) {
        switch (c->mode) {
        case M_CLOSEST:
            assert_true(untouched(c->idx, m * sizeof *c->idx) && untouched(c->t, m * sizeof *c->t));
            assert_true(untouched(c->px, m * sizeof *c->px) && untouched(c->ny, m * sizeof *c->ny));
            break;
        case M_ANY: assert_true(untouched(c->hit, m)); break;
        case M_COUNT: assert_true(untouched(c->cnt, m * sizeof *c->cnt)); break;
        case M_ALL_INTO: /* the library failed before placing, or the place gave up */
            assert_true(c->into_places <= 1);
            assert_null(c->into.offsets);
            assert_null(c->into.query);
            break;
        default:
            assert_null(c->all.offsets);
            assert_null(c->all.idx);
            assert_null(c->all.t);
            assert_int_equal(c->all.total, 0);
        }
        fill_outputs(c);
        s = batch_op(c);
    }
    assert_same_as_reference(c, s);
    fill_outputs(c);
}

static void run_batch_case(const char *name, const world *w, const hs_grid *g, int mode,
                           int threads, hs_workspace *ws, int cold)
{
    const size_t m = w->m;
    batch_ctx c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.g = g;
    c.mode = mode;
    c.cold = cold;
    c.o = hs_batch_opts_default();
    c.o.threads = threads;
    c.o.ws = ws;
    c.idx = xcalloc(m, sizeof *c.idx);
    c.cnt = xcalloc(m, sizeof *c.cnt);
    c.t = xcalloc(m, sizeof *c.t);
    c.px = xcalloc(m, sizeof *c.px);
    c.ny = xcalloc(m, sizeof *c.ny);
    c.hit = xcalloc(m, 1);
    c.ref_idx = xcalloc(m, sizeof *c.ref_idx);
    c.ref_cnt = xcalloc(m, sizeof *c.ref_cnt);
    c.ref_t = xcalloc(m, sizeof *c.ref_t);
    c.ref_px = xcalloc(m, sizeof *c.ref_px);
    c.ref_ny = xcalloc(m, sizeof *c.ref_ny);
    c.ref_hit = xcalloc(m, 1);
    /* the reference goes to the caller-owned form (no workspace) so it survives the calls */
    c.o.ws = NULL;
    c.ref_status =
        batch_call(&c, c.ref_idx, c.ref_t, c.ref_px, c.ref_ny, c.ref_hit, c.ref_cnt, &c.ref_all);
    assert_true(c.ref_status == HS_E_INVALID_QUERY); /* query 5 is invalid */
    c.o.ws = ws;
    fill_outputs(&c);
    char full[128];
    snprintf(full, sizeof full, "%s %s mode %d threads %d%s", name, g ? "grid" : "brute", mode,
             threads, ws ? (cold ? " empty ws" : " warm ws") : "");
    long points = each_failure(full, batch_op, batch_check, &c);
    if ((!ws || cold) && (mode >= M_ALL || (g && w->m >= 4096))) /* else none may be needed */
        assert_true(points >= 1);
    hs_hits_free(&c.ref_all);
    free(c.idx);
    free(c.cnt);
    free(c.t);
    free(c.px);
    free(c.ny);
    free(c.hit);
    free(c.ref_idx);
    free(c.ref_cnt);
    free(c.ref_t);
    free(c.ref_px);
    free(c.ref_ny);
    free(c.ref_hit);
}

static void test_batch_calls(void **state)
{
    (void)state;
    world small, big;
    /* brute and grid, parallel by work; fewer circles and queries under the sanitizers, where
     * brute force at every failure point is most of this suite's time */
    world_make(&small, test_quick() ? 800 : 2000, test_quick() ? 1000 : 3000, 5);
    world_make(&big, 40000, 6000, 6); /* the grid's locality order (>= 4096 on >= 32768) */
    hs_grid *gs, *gb;
    assert_int_equal(hs_grid_build(small.s.cs, NULL, &gs), HS_OK);
    assert_int_equal(hs_grid_build(big.s.cs, NULL, &gb), HS_OK);
    for (int threads = 1; threads <= 2; threads++)
        for (int mode = 0; mode < M_MODES; mode++)
            for (int with_ws = 0; with_ws < 2; with_ws++) {
                hs_workspace *ws = NULL;
                if (with_ws)
                    assert_int_equal(hs_workspace_create(&ws), HS_OK);
                /* with a workspace: from empty each time (every allocation fails in turn),
                 * then warm (grown by the calls before) */
                for (int warm = 0; warm <= with_ws; warm++) {
                    run_batch_case("small", &small, NULL, mode, threads, ws, !warm);
                    run_batch_case("small", &small, gs, mode, threads, ws, !warm);
                    run_batch_case("big", &big, gb, mode, threads, ws, !warm);
                }
                hs_workspace_destroy(ws);
            }
    hs_grid_destroy(gs);
    hs_grid_destroy(gb);
    world_free(&small);
    world_free(&big);
}

/* ---- pairs and overlap -------------------------------------------------------------------- */
typedef struct pairs_ctx {
    const hs_grid *g;
    int threads;
    hs_pairs out, ref;
} pairs_ctx;

static hs_status pairs_op(void *p)
{
    pairs_ctx *c = p;
    memset(&c->out, 0xAB, sizeof c->out);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = c->threads;
    return hs_grid_pairs(c->g, &o, &c->out);
}

static void pairs_check(void *p, hs_status s, int failed)
{
    pairs_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        assert_null(c->out.i);
        assert_null(c->out.j);
        assert_int_equal(c->out.count, 0);
        return;
    }
    assert_int_equal(c->out.count, c->ref.count);
    assert_memory_equal(c->out.i, c->ref.i, c->ref.count * sizeof(uint32_t));
    assert_memory_equal(c->out.j, c->ref.j, c->ref.count * sizeof(uint32_t));
    hs_pairs_free(&c->out);
}

static void test_pairs_and_overlap(void **state)
{
    (void)state;
    world w;
    world_make(&w, 20000, 1, 7);
    hs_grid *g, *wide;
    assert_int_equal(hs_grid_build(w.s.cs, NULL, &g), HS_OK);
    /* cells of hundreds of circles, cut: their own pairs are the fine scan's */
    const hs_grid_opts cut = {.cell_size = 60.0f};
    assert_int_equal(hs_grid_build(w.s.cs, &cut, &wide), HS_OK);
    for (int threads = 1; threads <= 2; threads++) {
        hs_grid *grids[2] = {g, wide};
        for (int k = 0; k < 2; k++) {
            pairs_ctx c = {grids[k], threads, {0}, {0}};
            hs_batch_opts o = hs_batch_opts_default();
            o.threads = threads;
            assert_int_equal(hs_grid_pairs(grids[k], &o, &c.ref), HS_OK);
            assert_true(c.ref.count > 0);
            assert_true(each_failure("pairs", pairs_op, pairs_check, &c) >= 1);
            hs_pairs_free(&c.ref);
        }
    }
    hs_grid_destroy(wide);
    /* overlap queries allocate nothing: the caller's buffer is the heap */
    uint32_t idx[8];
    size_t found;
    arm(0);
    hs_status s =
        hs_grid_overlap_circle(g, (hs_circle){w.s.x[0], w.s.y[0], 30.0f}, ~0u, idx, 8, &found);
    assert_false(disarm());
    assert_int_equal(s, HS_OK);
    assert_true(found >= 1);
    hs_grid_destroy(g);
    world_free(&w);
}

/* ---- swept pairs -------------------------------------------------------------------------- */
typedef struct swept_ctx {
    const hs_grid *g;
    const float *dx, *dy;
    int threads;
    hs_swept_pairs out, ref;
} swept_ctx;

static hs_status swept_op(void *p)
{
    swept_ctx *c = p;
    memset(&c->out, 0xAB, sizeof c->out);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = c->threads;
    return hs_grid_swept_pairs(c->g, c->dx, c->dy, &o, &c->out);
}

static void swept_check(void *p, hs_status s, int failed)
{
    swept_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        assert_true(c->out.i == NULL && c->out.j == NULL && c->out.t == NULL && c->out.nx == NULL &&
                    c->out.ny == NULL && c->out.overlapping == NULL);
        assert_int_equal(c->out.count, 0);
        return;
    }
    const size_t k = c->ref.count;
    assert_int_equal(c->out.count, k);
    assert_memory_equal(c->out.i, c->ref.i, k * sizeof(uint32_t));
    assert_memory_equal(c->out.j, c->ref.j, k * sizeof(uint32_t));
    assert_memory_equal(c->out.t, c->ref.t, k * sizeof(float));
    assert_memory_equal(c->out.nx, c->ref.nx, k * sizeof(float));
    assert_memory_equal(c->out.ny, c->ref.ny, k * sizeof(float));
    assert_memory_equal(c->out.overlapping, c->ref.overlapping, k);
    hs_swept_pairs_free(&c->out);
}

/* Every allocation of hs_grid_swept_pairs failing in turn, with fast movers (their pairs come
 * from a grid of their own). */
static void test_swept_pairs(void **state)
{
    (void)state;
    world w;
    world_make(&w, 20000, 1, 8);
    float *dx = xcalloc(w.s.n, sizeof(float)), *dy = xcalloc(w.s.n, sizeof(float));
    for (size_t i = 0; i < w.s.n; i++) {
        dx[i] = unif(-1.0f, 1.0f) * (i % 50 == 0 ? 20.0f : 1.0f);
        dy[i] = unif(-1.0f, 1.0f) * (i % 50 == 0 ? 20.0f : 1.0f);
    }
    hs_grid *g;
    assert_int_equal(hs_grid_build(w.s.cs, NULL, &g), HS_OK);
    for (int threads = 1; threads <= 2; threads++) {
        swept_ctx c = {g, dx, dy, threads, {0}, {0}};
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = threads;
        assert_int_equal(hs_grid_swept_pairs(g, dx, dy, &o, &c.ref), HS_OK);
        assert_true(c.ref.count > 0);
        assert_true(each_failure("swept pairs", swept_op, swept_check, &c) >= 1);
        hs_swept_pairs_free(&c.ref);
    }
    hs_grid_destroy(g);
    free(dx);
    free(dy);
    world_free(&w);
}

/* ---- a failure stops the walk at once ------------------------------------------------------ */

/* The pair search, one thread, with the allocation numbered k failing: the allocations made
 * after it when the call gave up (HS_E_NOMEM; a failure it works around, as a sort's scratch,
 * is not one). A search that stops at once makes at most one (the other of two arrays
 * allocated together): the failing block's lists are freed, the others never start; one that
 * went on would grow the lists of every block after. */
static long pairs_after_failure(const hs_grid *g, long k, int *failed)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    hs_pairs out;
    arm(k);
    hs_status s = hs_grid_pairs(g, &o, &out);
    const long made = atomic_load(&calls);
    *failed = disarm();
    if (s == HS_OK)
        hs_pairs_free(&out);
    return s == HS_E_NOMEM ? made - (k + 1) : 0;
}

static void test_pairs_stop_at_once(void **state)
{
    (void)state;
    world w;
    world_make(&w, 60000, 1, 9);
    hs_grid *g;
    assert_int_equal(hs_grid_build(w.s.cs, NULL, &g), HS_OK);
    int failed = 1;
    long points = 0;
    for (long k = 0; failed; k++, points++) {
        const long after = pairs_after_failure(g, k, &failed);
        if (after > 1) {
            fprintf(stderr, "pairs: allocation %ld failed, %ld made after it\n", k, after);
            fail();
        }
    }
    assert_true(points > 8); /* lists of several blocks grew */
    hs_grid_destroy(g);
    world_free(&w);
}

/* All hits on a team through hs_all_hits with an answer function of the test's: the first
 * call waits (up to a second) until another thread is in a call too, then fails as out of
 * memory; any other call waits for that failure, then answers no hits. Each thread may finish
 * the block it is in, then must stop: one call per thread, where a thread going on would
 * answer block after block of its share while the other runs through the rest. */
typedef struct stop_state {
    atomic_int first, failed, calls;
    int threads;
} stop_state;

typedef struct stop_ref {
    stop_state *st;
} stop_ref;

static double seconds_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static hs_status stop_answer(const void *ctx, size_t lo, size_t hi, int tid, hs_hitbuf *buf,
                             uint32_t *count, hs_tally *tally)
{
    stop_state *st = ((const stop_ref *)ctx)->st;
    (void)tid;
    (void)buf;
    (void)tally;
    atomic_fetch_add(&st->calls, 1);
    if (atomic_exchange(&st->first, 1) == 0) {
        const double until = seconds_now() + 1.0;
        while (atomic_load(&st->calls) < st->threads && seconds_now() < until)
            ;
        atomic_store(&st->failed, 1);
        return HS_E_NOMEM;
    }
    while (!atomic_load(&st->failed))
        ;
    for (size_t k = lo; k < hi; k++)
        count[k] = 0;
    return HS_OK;
}

static void test_all_hits_stop_at_once(void **state)
{
    (void)state;
    enum { N = 1024 * HS_ALL_BLOCK };
    for (int threads = 1; threads <= 2; threads++) {
        stop_state st;
        atomic_init(&st.first, 0);
        atomic_init(&st.failed, 0);
        atomic_init(&st.calls, 0);
        st.threads = threads;
        const stop_ref ref = {&st};
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = threads;
        hs_wsref w;
        assert_int_equal(hs_ws_open(&o, &w), HS_OK);
        const hs_batch_setup b = {.ks = NULL,
                                  .sem = HS_SOLID,
                                  .threads = threads,
                                  .par = hs_par_make(threads, NULL),
                                  .chunk = HS_ALL_BLOCK,
                                  .stats = NULL};
        hs_hits out;
        memset(&out, 0, sizeof out);
        assert_int_equal(hs_all_hits(&b, N, stop_answer, &ref, w.ws, NULL, &out, NULL), HS_E_NOMEM);
        hs_ws_close(&w);
        assert_true(atomic_load(&st.calls) <= threads);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_circles_and_workspace), cmocka_unit_test(test_grid_build_and_rebuild),
        cmocka_unit_test(test_batch_calls),           cmocka_unit_test(test_pairs_and_overlap),
        cmocka_unit_test(test_swept_pairs),           cmocka_unit_test(test_pairs_stop_at_once),
        cmocka_unit_test(test_all_hits_stop_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
