/* SPDX-License-Identifier: MIT */
/* Allocation failure in periodic boxes and batched overlaps: every allocation of the build
 * (with circles to wrap), pairs with shifts and contacts, swept pairs with shifts, many-disc
 * overlaps and queries that wrap around, failing in turn, gives HS_E_NOMEM with the outputs
 * empty, and the same answers when it does not fail. */
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
#include "nomem_util.h"

/* Circles in the box [0, 200) x [0, 100), periodic in x and y, a fifth given outside it. */
typedef struct pworld {
    scene s;
    hs_grid_opts o;
    hs_grid *g;
} pworld;

static void pworld_make(pworld *w, size_t n, uint64_t seed)
{
    rng_state = seed;
    scene_alloc(&w->s, n);
    for (size_t i = 0; i < n; i++) {
        w->s.x[i] = unif(0.0f, 200.0f) + (i % 5 == 0 ? 400.0f : 0.0f);
        w->s.y[i] = unif(0.0f, 100.0f);
        w->s.r[i] = unif(0.2f, 1.2f);
    }
    memset(&w->o, 0, sizeof w->o);
    w->o.periodic = HS_PERIODIC_XY;
    w->o.box.max.x = 200.0f;
    w->o.box.max.y = 100.0f;
    assert_int_equal(hs_circles_create(w->s.x, w->s.y, w->s.r, NULL, n, &w->s.cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(w->s.cs, &w->o, &w->g), HS_OK);
}

static void pworld_free(pworld *w)
{
    hs_grid_destroy(w->g);
    scene_free(&w->s);
}

/* ---- the build --------------------------------------------------------------------------- */
typedef struct build_ctx {
    pworld *w;
    hs_grid *out;
    hs_pairs ref;
} build_ctx;

static hs_status build_op(void *p)
{
    build_ctx *c = p;
    c->out = (hs_grid *)(uintptr_t)0x1234; /* must come back NULL on failure */
    return hs_grid_build(c->w->s.cs, &c->w->o, &c->out);
}

static void build_check(void *p, hs_status s, int failed)
{
    build_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        assert_null(c->out);
        return;
    }
    hs_pairs q;
    assert_int_equal(hs_grid_pairs(c->out, NULL, &q), HS_OK);
    assert_int_equal(q.count, c->ref.count);
    assert_memory_equal(q.i, c->ref.i, q.count * sizeof(uint32_t));
    hs_pairs_free(&q);
    hs_grid_destroy(c->out);
}

/* ---- pairs with shifts and contacts ------------------------------------------------------- */
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
    const hs_pair_opts po = {0.5f, HS_PAIRS_SHIFTS | HS_PAIRS_CONTACTS};
    return hs_grid_pairs_ex(c->g, &po, &o, &c->out);
}

static void pairs_check(void *p, hs_status s, int failed)
{
    pairs_ctx *c = p;
    (void)failed;
    const hs_pairs *o = &c->out, *r = &c->ref;
    if (s != HS_OK) {
        assert_true(!o->i && !o->j && !o->sx && !o->sy && !o->nx && !o->ny && !o->distance &&
                    !o->gap && o->count == 0);
        return;
    }
    const size_t k = r->count;
    assert_int_equal(o->count, k);
    assert_memory_equal(o->i, r->i, k * sizeof(uint32_t));
    assert_memory_equal(o->j, r->j, k * sizeof(uint32_t));
    assert_memory_equal(o->sx, r->sx, k);
    assert_memory_equal(o->sy, r->sy, k);
    assert_memory_equal(o->gap, r->gap, k * sizeof(float));
    assert_memory_equal(o->nx, r->nx, k * sizeof(float));
    hs_pairs_free(&c->out);
}

/* ---- swept pairs with shifts ---------------------------------------------------------------- */
typedef struct swept_ctx {
    const hs_grid *g;
    const float *dx, *dy;
    hs_swept_pairs out, ref;
} swept_ctx;

static hs_status swept_op(void *p)
{
    swept_ctx *c = p;
    memset(&c->out, 0xAB, sizeof c->out);
    return hs_grid_swept_pairs(c->g, c->dx, c->dy, NULL, &c->out);
}

static void swept_check(void *p, hs_status s, int failed)
{
    swept_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        assert_true(!c->out.i && !c->out.t && !c->out.sx && !c->out.sy && c->out.count == 0);
        return;
    }
    const size_t k = c->ref.count;
    assert_int_equal(c->out.count, k);
    assert_memory_equal(c->out.j, c->ref.j, k * sizeof(uint32_t));
    assert_memory_equal(c->out.t, c->ref.t, k * sizeof(float));
    assert_memory_equal(c->out.sx, c->ref.sx, k);
    assert_memory_equal(c->out.sy, c->ref.sy, k);
    hs_swept_pairs_free(&c->out);
}

/* ---- many discs' overlaps -------------------------------------------------------------------- */
typedef struct discs_ctx {
    const hs_grid *g;
    const float *x, *y, *r;
    size_t m;
    int threads;
    hs_overlaps out, ref;
} discs_ctx;

static hs_status discs_op(void *p)
{
    discs_ctx *c = p;
    memset(&c->out, 0xAB, sizeof c->out);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = c->threads;
    return hs_grid_overlap_discs(c->g, c->x, c->y, c->r, NULL, c->m, &o, &c->out);
}

static void discs_check(void *p, hs_status s, int failed)
{
    discs_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        assert_true(!c->out.offsets && !c->out.idx && c->out.count == 0 && c->out.total == 0);
        return;
    }
    assert_int_equal(c->out.total, c->ref.total);
    assert_memory_equal(c->out.offsets, c->ref.offsets, (c->m + 1) * sizeof(size_t));
    assert_memory_equal(c->out.idx, c->ref.idx, c->ref.total * sizeof(uint32_t));
    hs_overlaps_free(&c->out);
}

/* ---- queries that wrap around ---------------------------------------------------------------- */
typedef struct query_ctx {
    const hs_grid *g;
    const hs_queries *qs;
    int all;
    uint32_t *idx, *ref_idx;
    float *t, *px, *py;
    hs_hits out, ref;
} query_ctx;

static hs_status query_op(void *p)
{
    query_ctx *c = p;
    if (c->all) {
        memset(&c->out, 0xAB, sizeof c->out);
        return hs_grid_all(c->g, c->qs, NULL, &c->out);
    }
    const hs_closest_out co = {c->idx, c->t, c->px, c->py, NULL, NULL, NULL};
    return hs_grid_closest(c->g, c->qs, NULL, co);
}

static void query_check(void *p, hs_status s, int failed)
{
    query_ctx *c = p;
    (void)failed;
    if (s != HS_OK) {
        if (c->all)
            assert_true(!c->out.offsets && !c->out.idx && !c->out.t);
        return;
    }
    if (!c->all) {
        assert_memory_equal(c->idx, c->ref_idx, c->qs->count * sizeof(uint32_t));
        return;
    }
    assert_int_equal(c->out.total, c->ref.total);
    assert_memory_equal(c->out.idx, c->ref.idx, c->ref.total * sizeof(uint32_t));
    hs_hits_free(&c->out);
}

static void test_periodic(void **state)
{
    (void)state;
    pworld w;
    pworld_make(&w, 6000, 3);
    /* the build, wrapping a fifth of the circles */
    build_ctx b = {&w, NULL, {0}};
    assert_int_equal(hs_grid_pairs(w.g, NULL, &b.ref), HS_OK);
    assert_true(each_failure("periodic build", build_op, build_check, &b) >= 2);
    hs_pairs_free(&b.ref);
    /* pairs with shifts and contacts, one and two threads */
    for (int threads = 1; threads <= 2; threads++) {
        pairs_ctx c = {w.g, threads, {0}, {0}};
        assert_int_equal(pairs_op(&c), HS_OK);
        c.ref = c.out;
        assert_true(c.ref.count > 0);
        assert_true(each_failure("periodic pairs", pairs_op, pairs_check, &c) >= 4);
        hs_pairs_free(&c.ref);
    }
    /* swept pairs with a few fast movers */
    float *dx = xcalloc(w.s.n, sizeof(float)), *dy = xcalloc(w.s.n, sizeof(float));
    for (size_t i = 0; i < w.s.n; i++) {
        dx[i] = unif(-1.0f, 1.0f) * (i % 40 == 0 ? 12.0f : 1.0f);
        dy[i] = unif(-1.0f, 1.0f) * (i % 40 == 0 ? 12.0f : 1.0f);
    }
    swept_ctx sw = {w.g, dx, dy, {0}, {0}};
    assert_int_equal(swept_op(&sw), HS_OK);
    sw.ref = sw.out;
    assert_true(each_failure("periodic swept pairs", swept_op, swept_check, &sw) >= 4);
    hs_swept_pairs_free(&sw.ref);
    /* many discs, around and across the box */
    discs_ctx d = {w.g, w.s.x, w.s.y, w.s.r, 3000, 2, {0}, {0}};
    assert_int_equal(discs_op(&d), HS_OK);
    d.ref = d.out;
    assert_true(each_failure("many discs", discs_op, discs_check, &d) >= 2);
    hs_overlaps_free(&d.ref);
    /* queries: displacements as segments from the circles' centres, some wrapping around */
    const size_t m = 5000;
    hs_queries qs = hs_queries_segments(w.s.x, w.s.y, dx, dy, m);
    qs.q_all = 0.5f;
    uint32_t *idx = xcalloc(m, sizeof(uint32_t)), *ref = xcalloc(m, sizeof(uint32_t));
    float *f = xcalloc(3 * m, sizeof(float));
    query_ctx q = {w.g, &qs, 0, idx, ref, f, f + m, f + 2 * m, {0}, {0}};
    const hs_closest_out co = {ref, f, NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(hs_grid_closest(w.g, &qs, NULL, co), HS_OK);
    assert_true(each_failure("periodic closest", query_op, query_check, &q) >= 2);
    q.all = 1;
    assert_int_equal(hs_grid_all(w.g, &qs, NULL, &q.ref), HS_OK);
    assert_true(q.ref.total > 0);
    assert_true(each_failure("periodic all", query_op, query_check, &q) >= 2);
    hs_hits_free(&q.ref);
    free(idx);
    free(ref);
    free(f);
    free(dx);
    free(dy);
    pworld_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_periodic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
