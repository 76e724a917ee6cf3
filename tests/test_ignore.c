/* SPDX-License-Identifier: MIT */
/* Tests for hs_queries.ignore (per query, one circle never reported): every mode and engine
 * (the grid, moving circles, a periodic box, both, a grid with walls, brute force) against
 * the same call's all-hits without it, the ignored circle taken out: closest is the least
 * (t, index) left (walls win only strictly earlier), any whether one is left, count how many,
 * all the list without it, in order. Ignored: the query's closest circle half the time, a
 * random circle, an index past the set, HS_NONE. Every level, one and two threads, solid,
 * skip-start and boundary, with and without masks and thickness. */
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
#include "test_util.h"

enum {
    ENGINE_PLAIN,
    ENGINE_MOVING,
    ENGINE_PERIODIC,
    ENGINE_PERIODIC_MOVING,
    ENGINE_WALLS,
    ENGINE_BRUTE,
    ENGINE_COUNT
};

typedef struct env {
    int engine;
    size_t n, m;
    float L;
    float *x, *y, *r, *ddx, *ddy, *ax, *ay, *dx, *dy, *q;
    uint32_t *cmask, *qmask, *ign;
    hs_circles *cs;
    hs_walls *ws;
    hs_grid *g;
    hs_queries qs;
} env;

static void env_make(env *e, int engine, size_t n, size_t m, int masks, int thick, int crowd)
{
    memset(e, 0, sizeof *e);
    e->engine = engine;
    e->n = n;
    e->m = m;
    e->L = 40.0f;
    float **ca[] = {&e->x, &e->y, &e->r, &e->ddx, &e->ddy};
    for (size_t k = 0; k < 5; k++)
        *ca[k] = xcalloc(n, sizeof(float));
    float **qa[] = {&e->ax, &e->ay, &e->dx, &e->dy, &e->q};
    for (size_t k = 0; k < 5; k++)
        *qa[k] = xcalloc(m, sizeof(float));
    e->ign = xcalloc(m, sizeof(uint32_t));
    e->cmask = masks ? xcalloc(n, sizeof(uint32_t)) : NULL;
    e->qmask = masks ? xcalloc(m, sizeof(uint32_t)) : NULL;
    for (size_t j = 0; j < n; j++) {
        e->x[j] = frange(0, e->L * 0.999);
        e->y[j] = frange(0, e->L * 0.999);
        e->r[j] = frange(0.2, 1.6);
        e->ddx[j] = frange(-1.0, 1.0);
        e->ddy[j] = frange(-1.0, 1.0);
        if (masks)
            e->cmask[j] = 1u + irand(7);
    }
    /* a few circles on one spot: ties in t between the ignored one and others */
    for (size_t j = 1; j < n / 8; j += 7) {
        e->x[j] = e->x[j - 1];
        e->y[j] = e->y[j - 1];
        e->r[j] = e->r[j - 1];
    }
    /* crowd: every other circle from n / 8 on equal to circle 2 but for its motion (and mask):
     * enough for the grid to set them apart (its repeats), where closest and any must still
     * find the next one of a group whose first is ignored */
    for (size_t j = n / 8; crowd && j < n; j += 2) {
        e->x[j] = e->x[2];
        e->y[j] = e->y[2];
        e->r[j] = e->r[2];
    }
    for (size_t i = 0; i < m; i++) {
        const double a = urand() * 6.283185307179586, len = 2.0 + 20.0 * urand();
        e->ax[i] = frange(0, e->L);
        e->ay[i] = frange(0, e->L);
        /* some queries start on a circle's centre: the shooter inside its own circle */
        if (i % 5 == 0) {
            const size_t j = irand((unsigned)n);
            e->ax[i] = e->x[j];
            e->ay[i] = e->y[j];
        }
        e->dx[i] = (float)(len * cos(a));
        e->dy[i] = (float)(len * sin(a));
        e->q[i] = thick ? frange(0.0, 0.5) : 0.0f;
        if (masks)
            e->qmask[i] = irand(4) == 0 ? ~0u : 1u + irand(7);
    }
    assert_int_equal(hs_circles_create(e->x, e->y, e->r, e->cmask, n, &e->cs, NULL), HS_OK);
    e->qs = hs_queries_capsules(e->ax, e->ay, e->dx, e->dy, e->q, m);
    e->qs.mask = e->qmask;
    if (engine == ENGINE_BRUTE)
        return;
    hs_grid_opts go;
    memset(&go, 0, sizeof go);
    if (engine == ENGINE_PERIODIC || engine == ENGINE_PERIODIC_MOVING) {
        go.periodic = HS_PERIODIC_XY;
        go.box = (hs_aabb){{0.0f, 0.0f}, {e->L, e->L}};
    }
    if (engine == ENGINE_WALLS) {
        const size_t k = 60;
        float *w[4];
        for (size_t c = 0; c < 4; c++)
            w[c] = xcalloc(k, sizeof(float));
        for (size_t j = 0; j < k; j++) {
            w[0][j] = frange(0, e->L);
            w[1][j] = frange(0, e->L);
            w[2][j] = w[0][j] + frange(-4, 4);
            w[3][j] = w[1][j] + frange(-4, 4);
        }
        assert_int_equal(hs_walls_create(w[0], w[1], w[2], w[3], NULL, NULL, k, &e->ws, NULL),
                         HS_OK);
        for (size_t c = 0; c < 4; c++)
            free(w[c]);
        go.walls = e->ws;
    }
    assert_int_equal(hs_grid_build(e->cs, &go, &e->g), HS_OK);
}

static void env_free(env *e)
{
    hs_grid_destroy(e->g);
    hs_walls_destroy(e->ws);
    hs_circles_destroy(e->cs);
    float *fs[] = {e->x, e->y, e->r, e->ddx, e->ddy, e->ax, e->ay, e->dx, e->dy, e->q};
    for (size_t k = 0; k < sizeof fs / sizeof fs[0]; k++)
        free(fs[k]);
    free(e->cmask);
    free(e->qmask);
    free(e->ign);
}

static int moving(const env *e)
{
    return e->engine == ENGINE_MOVING || e->engine == ENGINE_PERIODIC_MOVING;
}

static hs_status call_all(const env *e, const hs_queries *qs, const hs_batch_opts *o, hs_hits *h)
{
    return e->engine == ENGINE_BRUTE ? hs_brute_all(e->cs, qs, o, h) : hs_grid_all(e->g, qs, o, h);
}

static hs_status call_closest(const env *e, const hs_queries *qs, const hs_batch_opts *o,
                              hs_closest_out out)
{
    return e->engine == ENGINE_BRUTE ? hs_brute_closest(e->cs, qs, o, out)
                                     : hs_grid_closest(e->g, qs, o, out);
}

static hs_status call_count(const env *e, const hs_queries *qs, const hs_batch_opts *o, uint32_t *c)
{
    return e->engine == ENGINE_BRUTE ? hs_brute_count(e->cs, qs, o, c)
                                     : hs_grid_count_hits(e->g, qs, o, c);
}

static hs_status call_any(const env *e, const hs_queries *qs, const hs_batch_opts *o, uint8_t *a)
{
    return e->engine == ENGINE_BRUTE ? hs_brute_any(e->cs, qs, o, a) : hs_grid_any(e->g, qs, o, a);
}

static int ok(hs_status s) { return s == HS_OK || s == HS_E_INVALID_QUERY; }

/* Hit k of query i in h is the ignored circle. */
static int is_ignored(const hs_hits *h, size_t k, uint32_t ign)
{
    return h->idx[k] == ign && (h->kind == NULL || h->kind[k] == HS_KIND_CIRCLE);
}

/* Every mode with ignore against the all-hits without it, at one level, thread count and
 * semantics. The ignored circles are chosen from the answers without ignore. */
static void check(env *e, hs_isa isa, int threads, hs_semantics sem)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.isa = isa;
    o.threads = threads;
    o.sem = sem;
    if (moving(e)) {
        o.disp_x = e->ddx;
        o.disp_y = e->ddy;
    }
    const size_t m = e->m;
    hs_hits base;
    assert_true(ok(call_all(e, &e->qs, &o, &base)));
    for (size_t i = 0; i < m; i++) {
        const size_t b = base.offsets[i], end = base.offsets[i + 1];
        uint32_t first = HS_NONE;
        float ft = INFINITY;
        for (size_t k = b; k < end; k++)
            if ((base.kind == NULL || base.kind[k] == HS_KIND_CIRCLE) &&
                (base.t[k] < ft || (base.t[k] == ft && base.idx[k] < first)))
                ft = base.t[k], first = base.idx[k];
        switch (irand(6)) {
        case 0:
        case 1:
        case 2: e->ign[i] = first != HS_NONE ? first : irand((unsigned)e->n); break;
        case 3: e->ign[i] = irand((unsigned)e->n); break;
        case 4: e->ign[i] = (uint32_t)e->n + irand(5); break;
        default: e->ign[i] = HS_NONE; break;
        }
    }
    hs_queries qi = e->qs;
    qi.ignore = e->ign;
    uint32_t *idx = xcalloc(m, sizeof *idx), *cnt = xcalloc(m, sizeof *cnt);
    float *t = xcalloc(m, sizeof *t);
    uint8_t *kind = xcalloc(m, 1), *any = xcalloc(m, 1);
    hs_closest_out out;
    memset(&out, 0, sizeof out);
    out.idx = idx;
    out.t = t;
    out.kind = kind;
    assert_true(ok(call_closest(e, &qi, &o, out)));
    assert_true(ok(call_count(e, &qi, &o, cnt)));
    assert_true(ok(call_any(e, &qi, &o, any)));
    hs_hits got;
    assert_true(ok(call_all(e, &qi, &o, &got)));
    size_t ignored_hits = 0, at = 0;
    for (size_t i = 0; i < m; i++) {
        const size_t b = base.offsets[i], end = base.offsets[i + 1];
        uint32_t want_n = 0, best = HS_NONE;
        uint8_t best_kind = HS_KIND_CIRCLE;
        float best_t = INFINITY;
        for (size_t k = b; k < end; k++) {
            if (is_ignored(&base, k, e->ign[i])) {
                ignored_hits++;
                continue;
            }
            const uint8_t kk = base.kind ? base.kind[k] : HS_KIND_CIRCLE;
            want_n++;
            /* closest: least t; at equal t a circle before a wall, then the least index */
            const int better = best == HS_NONE || base.t[k] < best_t ||
                               (base.t[k] == best_t &&
                                (kk < best_kind || (kk == best_kind && base.idx[k] < best)));
            if (better)
                best = base.idx[k], best_t = base.t[k], best_kind = kk;
            /* all: the same hits, in the same order, the ignored one left out */
            assert_true(at < got.total);
            assert_int_equal(got.idx[at], base.idx[k]);
            assert_memory_equal(&got.t[at], &base.t[k], sizeof(float));
            if (base.kind)
                assert_int_equal(got.kind[at], kk);
            at++;
        }
        assert_int_equal(got.offsets[i + 1], at);
        assert_int_equal(cnt[i], want_n);
        assert_int_equal(any[i], want_n > 0);
        assert_int_equal(idx[i], best);
        if (best != HS_NONE) {
            assert_memory_equal(&t[i], &best_t, sizeof(float));
            assert_int_equal(kind[i], best_kind);
        }
    }
    assert_int_equal(got.total, at);
    assert_true(ignored_hits > m / 10); /* the cases tested took circles out */
    hs_hits_free(&base);
    hs_hits_free(&got);
    free(idx);
    free(cnt);
    free(t);
    free(kind);
    free(any);
}

static void run_engine(int engine)
{
    const size_t n = test_quick() ? 300 : 1500, m = test_quick() ? 300 : 1200;
    const hs_semantics sems[] = {HS_SOLID, HS_SKIP_START, HS_BOUNDARY};
    for (int variant = 0; variant < 4; variant++) {
        rng_state = 0x1600 + 97u * (uint64_t)engine + (uint64_t)variant;
        env e;
        env_make(&e, engine, n, m, variant & 1, (variant >> 1) & 1, variant == 1 || variant == 2);
        for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
            if (!hs_isa_supported((hs_isa)isa))
                continue;
            for (int threads = 1; threads <= 2; threads++)
                for (size_t s = 0; s < 3; s++) {
                    /* moving circles and skip-start: as the library takes them */
                    if (moving(&e) && sems[s] == HS_BOUNDARY)
                        continue;
                    check(&e, (hs_isa)isa, threads, sems[s]);
                }
        }
        env_free(&e);
    }
}

static void test_plain(void **st)
{
    (void)st;
    run_engine(ENGINE_PLAIN);
}

static void test_moving(void **st)
{
    (void)st;
    run_engine(ENGINE_MOVING);
}

static void test_periodic(void **st)
{
    (void)st;
    run_engine(ENGINE_PERIODIC);
}

static void test_periodic_moving(void **st)
{
    (void)st;
    run_engine(ENGINE_PERIODIC_MOVING);
}

static void test_walls(void **st)
{
    (void)st;
    run_engine(ENGINE_WALLS);
}

static void test_brute(void **st)
{
    (void)st;
    run_engine(ENGINE_BRUTE);
}

/* One query, one circle: ignoring it leaves a miss, ignoring another keeps the hit. */
static void test_single(void **st)
{
    (void)st;
    const float x = 5.0f, y = 0.0f, r = 1.0f, ax = 0.0f, ay = 0.0f, dx = 10.0f, dy = 0.0f;
    hs_circles *cs;
    assert_int_equal(hs_circles_create(&x, &y, &r, NULL, 1, &cs, NULL), HS_OK);
    hs_grid *g;
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    for (uint32_t ign = 0; ign < 2; ign++) {
        hs_queries qs = hs_queries_segments(&ax, &ay, &dx, &dy, 1);
        qs.ignore = &ign;
        uint32_t idx = 7, c = 7;
        float t = 0.0f;
        hs_closest_out out;
        memset(&out, 0, sizeof out);
        out.idx = &idx;
        out.t = &t;
        assert_int_equal(hs_grid_closest(g, &qs, NULL, out), HS_OK);
        assert_int_equal(hs_grid_count_hits(g, &qs, NULL, &c), HS_OK);
        assert_int_equal(idx, ign == 0 ? HS_NONE : 0u);
        assert_int_equal(c, ign == 0 ? 0u : 1u);
        assert_int_equal(hs_brute_closest(cs, &qs, NULL, out), HS_OK);
        assert_int_equal(idx, ign == 0 ? HS_NONE : 0u);
    }
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single),          cmocka_unit_test(test_plain),
        cmocka_unit_test(test_moving),          cmocka_unit_test(test_periodic),
        cmocka_unit_test(test_periodic_moving), cmocka_unit_test(test_walls),
        cmocka_unit_test(test_brute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
