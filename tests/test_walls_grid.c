/* SPDX-License-Identifier: MIT */
/* Walls in the grid (hs_grid_opts.walls): every mode against brute force over circles and
 * walls (the circles' brute force and the scalar wall test, wall by wall) at every ISA level
 * and thread count, every semantics, with and without masks, on scenes with long walls (many
 * pieces), thick and zero-length walls, rays and thick queries, queries starting on walls and
 * running along them; the large-batch path (sorted, staged) against batches of one; the wall
 * set's lifetime on the grid. */
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
#include "query_prep.h"
#include "grid/wall_cells.h"
#include "test_util.h"
#include "walk/walkers.h"
#include "wall_core.h"

typedef struct wscene {
    size_t n, k, m;
    float *cx, *cy, *cr;
    uint32_t *cm;
    float *ax, *ay, *bx, *by, *w;
    uint32_t *wm;
    float *qax, *qay, *qdx, *qdy, *qtmax, *qq;
    uint32_t *qm;
    int thin; /* queries of thickness 0 only: closest and any walk the walls' cells */
} wscene;

static float wunif(uint64_t *s, float lo, float hi)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((*s >> 40) * 0x1p-24);
}

/* Fewer variants and semantics under emulation (HS_TEST_QUICK): every path is still taken. */
static int quick(void) { return getenv("HS_TEST_QUICK") != NULL; }

static void *wcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    assert_non_null(p);
    return p;
}

/* n circles, k walls (short axis-aligned and diagonal ones, long ones, points, some thick),
 * m queries (segments, rays, thick ones, some from a wall's end or middle, some along one). */
static wscene wscene_make(uint64_t seed, size_t n, size_t k, size_t m, float world)
{
    wscene s;
    memset(&s, 0, sizeof s);
    s.n = n, s.k = k, s.m = m;
    s.cx = wcalloc(n, 4), s.cy = wcalloc(n, 4), s.cr = wcalloc(n, 4), s.cm = wcalloc(n, 4);
    s.ax = wcalloc(k, 4), s.ay = wcalloc(k, 4), s.bx = wcalloc(k, 4), s.by = wcalloc(k, 4);
    s.w = wcalloc(k, 4), s.wm = wcalloc(k, 4);
    s.qax = wcalloc(m, 4), s.qay = wcalloc(m, 4), s.qdx = wcalloc(m, 4), s.qdy = wcalloc(m, 4);
    s.qtmax = wcalloc(m, 4), s.qq = wcalloc(m, 4), s.qm = wcalloc(m, 4);
    uint64_t r = seed;
    for (size_t i = 0; i < n; i++) {
        s.cx[i] = wunif(&r, 0, world), s.cy[i] = wunif(&r, 0, world);
        s.cr[i] = wunif(&r, 0.1f, 0.8f);
        s.cm[i] = 1u << (i % 3);
    }
    for (size_t i = 0; i < k; i++) {
        const float x = floorf(wunif(&r, 0, world)), y = floorf(wunif(&r, 0, world));
        const int kind = (int)(i % 7);
        float len = kind == 6 ? wunif(&r, 0.3f, 0.9f) * world : floorf(wunif(&r, 1, 6));
        s.ax[i] = x, s.ay[i] = y;
        s.bx[i] = x + (kind % 3 == 0 ? len : kind % 3 == 1 ? 0.0f : len * 0.6f);
        s.by[i] = y + (kind % 3 == 1 ? len : kind % 3 == 2 ? len * 0.8f : 0.0f);
        if (i % 11 == 5) /* a point */
            s.bx[i] = s.ax[i], s.by[i] = s.ay[i];
        s.w[i] = i % 4 == 3 ? wunif(&r, 0.05f, 0.6f) : 0.0f;
        s.wm[i] = 1u << (i % 3);
    }
    for (size_t j = 0; j < m; j++) {
        const size_t wi = (size_t)wunif(&r, 0, (float)k) % k;
        const int kind = (int)(j % 8);
        float len = wunif(&r, 0, world * 0.4f), ang = wunif(&r, 0, 6.2831853f);
        s.qax[j] = wunif(&r, -2, world + 2), s.qay[j] = wunif(&r, -2, world + 2);
        s.qdx[j] = len * cosf(ang), s.qdy[j] = len * sinf(ang);
        s.qtmax[j] = 1.0f;
        if (kind == 1) /* a ray */
            s.qtmax[j] = INFINITY;
        if (kind == 2) /* from a wall's end */
            s.qax[j] = s.ax[wi], s.qay[j] = s.ay[wi];
        if (kind == 3) /* from a wall's middle, which a float may not hold exactly */
            s.qax[j] = 0.5f * (s.ax[wi] + s.bx[wi]), s.qay[j] = 0.5f * (s.ay[wi] + s.by[wi]);
        if (kind == 4) { /* along a wall, from before its start */
            s.qdx[j] = s.bx[wi] - s.ax[wi], s.qdy[j] = s.by[wi] - s.ay[wi];
            s.qax[j] = s.ax[wi] - 0.5f * s.qdx[j], s.qay[j] = s.ay[wi] - 0.5f * s.qdy[j];
        }
        if (kind == 5) /* ending on a wall's end */
            s.qdx[j] = s.bx[wi] - s.qax[j], s.qdy[j] = s.by[wi] - s.qay[j];
        s.qq[j] = kind == 6 || kind == 7 ? wunif(&r, 0.0f, 0.7f) : 0.0f;
        s.qm[j] = j % 5 == 0 ? 0u : 1u + (uint32_t)(j % 7);
    }
    return s;
}

static void wscene_free(wscene *s)
{
    void *p[] = {s->cx, s->cy,  s->cr,  s->cm,  s->ax,  s->ay,    s->bx, s->by, s->w,
                 s->wm, s->qax, s->qay, s->qdx, s->qdy, s->qtmax, s->qq, s->qm};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
}

static hs_queries wscene_queries(const wscene *s, int masks)
{
    hs_queries qs =
        hs_queries_capsules(s->qax, s->qay, s->qdx, s->qdy, s->thin ? NULL : s->qq, s->m);
    qs.tmax = s->qtmax;
    qs.mask = masks ? s->qm : NULL;
    return qs;
}

/* The walls of s query i hits, brute force with the scalar test: the least (t, index) in
 * *best / *bt, their number returned, the hits (t, index) appended to ts / ids. */
static uint32_t walls_brute(const wscene *s, const hs_queries *qs, size_t i, hs_semantics sem,
                            int masks, uint32_t *best, float *bt, float *ts, uint32_t *ids)
{
    hs_kq k;
    *best = HS_NONE;
    *bt = INFINITY;
    if (!hs_prep_query(qs, i, sem, &k))
        return 0;
    uint32_t c = 0;
    for (size_t w = 0; w < s->k; w++) {
        if (((masks ? s->wm[w] : ~0u) & k.mask) == 0u)
            continue;
        const hs_kwall wl = {s->ax[w], s->ay[w], s->bx[w], s->by[w], s->w[w]};
        hs_wall_hit h;
        if (!hs_wall_hits(&k, &wl, &h))
            continue;
        if (ts) {
            ts[c] = h.t;
            ids[c] = (uint32_t)w;
        }
        c++;
        if (h.t + 0.0f < *bt + 0.0f || *best == HS_NONE) {
            *bt = h.t;
            *best = (uint32_t)w;
        }
    }
    return c;
}

/* Every mode of g against brute force over cs and s's walls, under opts. */
static void check_modes(const hs_grid *g, const hs_circles *cs, const wscene *s, int masks,
                        const hs_batch_opts *opts)
{
    const hs_queries qs = wscene_queries(s, masks);
    const size_t m = s->m;
    uint32_t *gi = wcalloc(m, 4), *bi = wcalloc(m, 4), *gc = wcalloc(m, 4), *bc = wcalloc(m, 4);
    float *gt = wcalloc(m, 4), *btc = wcalloc(m, 4), *nx = wcalloc(m, 4), *ny = wcalloc(m, 4);
    uint8_t *gk = wcalloc(m, 1), *ga = wcalloc(m, 1);
    hs_batch_opts bo = *opts;
    /* the circles' answers are the brute-force kernels' at the same level (FMA may differ) */
    bo.threads = 1;
    hs_status s0 = hs_brute_closest(cs, &qs, &bo, (hs_closest_out){.idx = bi, .t = btc});
    hs_status sg = hs_grid_closest(
        g, &qs, opts, (hs_closest_out){.idx = gi, .t = gt, .nx = nx, .ny = ny, .kind = gk});
    assert_int_equal(sg, s0);
    assert_int_equal(hs_brute_count(cs, &qs, &bo, bc), s0);
    assert_int_equal(hs_grid_count_hits(g, &qs, opts, gc), s0);
    assert_int_equal(hs_grid_any(g, &qs, opts, ga), s0);
    hs_hits ha, hb;
    assert_int_equal(hs_grid_all(g, &qs, opts, &ha), s0);
    assert_int_equal(hs_brute_all(cs, &qs, &bo, &hb), s0);
    assert_non_null(ha.kind);
    float *wts = wcalloc(s->k, 4);
    uint32_t *wids = wcalloc(s->k, 4);
    size_t walls_hit = 0;
    for (size_t i = 0; i < m; i++) {
        uint32_t wb;
        float wt;
        const uint32_t nw = walls_brute(s, &qs, i, opts->sem, masks, &wb, &wt, wts, wids);
        walls_hit += nw != 0;
        /* closest: circles before walls at equal t */
        const int wall = wb != HS_NONE && (bi[i] == HS_NONE || wt + 0.0f < btc[i] + 0.0f);
        if (gi[i] != (wall ? wb : bi[i]) || gk[i] != (wall ? HS_KIND_WALL : HS_KIND_CIRCLE))
            fail_msg("query %zu: closest %u kind %u, brute %u kind %d", i, gi[i], gk[i],
                     wall ? wb : bi[i], wall);
        if (gi[i] != HS_NONE)
            assert_true(memcmp(&gt[i], wall ? &wt : &btc[i], 4) == 0);
        if (wall) /* a unit normal */
            assert_true(fabsf(nx[i] * nx[i] + ny[i] * ny[i] - 1.0f) < 1e-4f);
        assert_int_equal(gc[i], bc[i] + nw);
        assert_int_equal(ga[i], gc[i] != 0);
        /* all: the circles' then the walls' hits, each in (t, index) order, merged */
        const size_t a0 = ha.offsets[i], b0 = hb.offsets[i];
        assert_int_equal(ha.offsets[i + 1] - a0, hb.offsets[i + 1] - b0 + nw);
        size_t cb = b0, used = 0;
        for (size_t h = a0; h < ha.offsets[i + 1]; h++) {
            if (ha.kind[h] == HS_KIND_CIRCLE) {
                assert_int_equal(ha.idx[h], hb.idx[cb]);
                if (!(ha.t[h] == hb.t[cb]))
                    fail_msg("q %zu hit %zu: %a vs %a id %u vs %u isa %d sem %d", i, h - a0,
                             ha.t[h], hb.t[cb], ha.idx[h], hb.idx[cb], (int)opts->isa,
                             (int)opts->sem);
                cb++;
            } else {
                size_t f = 0;
                while (f < nw && wids[f] != ha.idx[h])
                    f++;
                assert_true(f < nw);
                assert_true(ha.t[h] == wts[f]);
                used++;
            }
            if (h > a0)
                assert_true(ha.t[h - 1] + 0.0f <= ha.t[h] + 0.0f);
        }
        assert_int_equal(used, nw);
    }
    assert_true(walls_hit > m / 20); /* the wscene does test walls */
    hs_hits_free(&ha);
    hs_hits_free(&hb);
    free(wts), free(wids), free(gi), free(bi), free(gc), free(bc), free(gt), free(btc);
    free(nx), free(ny), free(gk), free(ga);
}

static void test_modes_against_brute_force(void **state)
{
    (void)state;
    for (int variant = 0; variant < 6; variant += quick() ? 3 : 1) {
        const int masks = variant & 1;
        wscene s = wscene_make(11 + (uint64_t)variant, 400, 300, 700, variant < 2 ? 60.0f : 200.0f);
        if (variant >= 4) /* far from the origin, where a float's step is 1/128 */
            for (float *a[] = {s.cx, s.cy, s.ax, s.ay, s.bx, s.by, s.qax, s.qay}, **p = a;
                 p < a + 8; p++)
                for (size_t i = 0, n = p < a + 2 ? s.n : p < a + 6 ? s.k : s.m; i < n; i++)
                    (*p)[i] += 1e5f;
        hs_circles *cs;
        hs_walls *ws;
        assert_int_equal(hs_circles_create(s.cx, s.cy, s.cr, masks ? s.cm : NULL, s.n, &cs, NULL),
                         HS_OK);
        assert_int_equal(
            hs_walls_create(s.ax, s.ay, s.bx, s.by, s.w, masks ? s.wm : NULL, s.k, &ws, NULL),
            HS_OK);
        hs_grid_opts go = {0};
        go.walls = ws;
        hs_grid *g;
        assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
        hs_walls_destroy(ws); /* the grid keeps its own copy */
        assert_int_equal(hs_grid_wall_count(g), s.k);
        const hs_semantics sems[] = {HS_SOLID, HS_BOUNDARY, HS_SOLID_SKIP_START,
                                     HS_BOUNDARY_SKIP_START};
        for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
            if (!test_isa_on((hs_isa)isa))
                continue;
            for (int si = 0; si < 4; si += quick() ? 3 : 1) {
                hs_batch_opts o = hs_batch_opts_default();
                o.isa = (hs_isa)isa;
                o.sem = sems[si];
                o.threads = 1 + (si & 1);
                for (s.thin = 0; s.thin < 2; s.thin++)
                    check_modes(g, cs, &s, masks, &o);
            }
        }
        hs_grid_destroy(g);
        hs_circles_destroy(cs);
        wscene_free(&s);
    }
}

/* A batch large enough to be sorted and staged, against the same queries one by one. */
static void test_large_batch_against_single_queries(void **state)
{
    (void)state;
    wscene s = wscene_make(5, 100, quick() ? 12000 : 40000, 6000, 1000.0f);
    hs_circles *cs;
    hs_walls *ws;
    assert_int_equal(hs_circles_create(s.cx, s.cy, s.cr, NULL, s.n, &cs, NULL), HS_OK);
    assert_int_equal(hs_walls_create(s.ax, s.ay, s.bx, s.by, s.w, NULL, s.k, &ws, NULL), HS_OK);
    hs_grid *g;
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    assert_int_equal(hs_grid_set_walls(g, ws), HS_OK);
    hs_walls_destroy(ws);
    uint32_t *gi = wcalloc(s.m, 4), *gc = wcalloc(s.m, 4);
    float *gt = wcalloc(s.m, 4);
    uint8_t *gk = wcalloc(s.m, 1), *ga = wcalloc(s.m, 1);
    for (s.thin = 0; s.thin < 2; s.thin++) { /* thin: the walls' cells, staged in the order */
        hs_queries qs = wscene_queries(&s, 0);
        assert_int_equal(
            hs_grid_closest(g, &qs, NULL, (hs_closest_out){.idx = gi, .t = gt, .kind = gk}), HS_OK);
        assert_int_equal(hs_grid_count_hits(g, &qs, NULL, gc), HS_OK);
        assert_int_equal(hs_grid_any(g, &qs, NULL, ga), HS_OK);
        size_t walls = 0;
        const size_t step = quick() ? 61 : 7;
        for (size_t i = 0; i < s.m; i += step) {
            hs_queries one = qs;
            one.ax += i, one.ay += i, one.dx += i, one.dy += i, one.tmax += i;
            if (one.q != NULL)
                one.q += i;
            one.count = 1;
            uint32_t idx, cnt;
            float t;
            uint8_t kind, any;
            assert_int_equal(hs_grid_closest(g, &one, NULL,
                                             (hs_closest_out){.idx = &idx, .t = &t, .kind = &kind}),
                             HS_OK);
            assert_int_equal(hs_grid_count_hits(g, &one, NULL, &cnt), HS_OK);
            assert_int_equal(hs_grid_any(g, &one, NULL, &any), HS_OK);
            assert_int_equal(idx, gi[i]);
            assert_int_equal(kind, gk[i]);
            assert_int_equal(cnt, gc[i]);
            assert_int_equal(any, ga[i]);
            assert_int_equal(any, cnt != 0);
            if (idx != HS_NONE)
                assert_true(memcmp(&t, &gt[i], 4) == 0);
            walls += kind == HS_KIND_WALL;
        }
        assert_true(walls > s.m / step / 4);
    }
    free(gi), free(gc), free(gt), free(gk), free(ga);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    wscene_free(&s);
}

/* A grid of k walls (with thickness w and masks wmask, or none) and no circle. */
static hs_grid *grid_of_walls(const float *ax, const float *ay, const float *bx, const float *by,
                              const float *w, const uint32_t *wmask, size_t k)
{
    hs_circles *none;
    hs_walls *ws;
    assert_int_equal(hs_circles_create(NULL, NULL, NULL, NULL, 0, &none, NULL), HS_OK);
    assert_int_equal(hs_walls_create(ax, ay, bx, by, w, wmask, k, &ws, NULL), HS_OK);
    hs_grid_opts go = {0};
    go.walls = ws;
    hs_grid *g;
    assert_int_equal(hs_grid_build(none, &go, &g), HS_OK);
    hs_walls_destroy(ws); /* the grid keeps its own copies of both sets */
    hs_circles_destroy(none);
    return g;
}

/* A grid of s's walls (with the wall masks wmask, or none) and no circle. */
static hs_grid *walls_only_grid(const wscene *s, const uint32_t *wmask)
{
    return grid_of_walls(s->ax, s->ay, s->bx, s->by, s->w, wmask, s->k);
}

/* A grid of walls and no circle: closest (with its point, normal and kind) and any against
 * the walls' brute force, at every level and on one thread and two, in a batch large enough
 * to be sorted and staged and in a small one; invalid queries are misses, counted in the
 * stats and the status as with circles, and the stats count the walls' tests. */
static void test_walls_alone(void **state)
{
    (void)state;
    wscene s = wscene_make(9, 0, quick() ? 12000 : 40000, 6000, 1000.0f);
    s.thin = 1;
    const size_t bad[] = {17, 2000, 5000};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
        s.qax[bad[b]] = NAN;
    hs_grid *g = walls_only_grid(&s, NULL);
    const size_t m = s.m;
    uint32_t *gi = wcalloc(m, 4);
    float *gt = wcalloc(m, 4), *px = wcalloc(m, 4), *py = wcalloc(m, 4);
    float *nx = wcalloc(m, 4), *ny = wcalloc(m, 4);
    uint8_t *gk = wcalloc(m, 1), *ga = wcalloc(m, 1);
    uint32_t *bw = wcalloc(m, 4);
    float *bt = wcalloc(m, 4);
    const hs_semantics sems[] = {HS_SOLID, HS_BOUNDARY_SKIP_START};
    const size_t step = quick() ? 7 : 3; /* the queries checked against brute force */
    for (int si = 0; si < 2; si += quick() ? 2 : 1) {
        hs_queries qs = wscene_queries(&s, 0);
        size_t walls = 0;
        for (size_t i = 0; i < m; i += step)
            walls += walls_brute(&s, &qs, i, sems[si], 0, &bw[i], &bt[i], NULL, NULL) != 0;
        assert_true(walls > m / step / 4);
        for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
            if (!test_isa_on((hs_isa)isa))
                continue;
            for (int run = 0; run < 4; run++) {
                hs_batch_stats st;
                hs_batch_opts o = hs_batch_opts_default();
                o.isa = (hs_isa)isa;
                o.sem = sems[si];
                o.threads = 1 + (run & 1);
                o.stats = &st;
                qs.count = run < 2 ? m : 100; /* the small batch: no order */
                const size_t nbad = run < 2 ? 3 : 1;
                memset(&st, 0xff, sizeof st);
                assert_int_equal(
                    hs_grid_closest(g, &qs, &o, (hs_closest_out){gi, gt, px, py, nx, ny, gk}),
                    HS_E_INVALID_QUERY);
                assert_int_equal(st.invalid, nbad);
                assert_int_equal(st.first_invalid, bad[0]);
                assert_true(st.pair_tests > 0 && st.pair_tests < (uint64_t)qs.count * s.k);
                memset(&st, 0xff, sizeof st);
                assert_int_equal(hs_grid_any(g, &qs, &o, ga), HS_E_INVALID_QUERY);
                assert_int_equal(st.invalid, nbad);
                assert_int_equal(st.first_invalid, bad[0]);
                for (size_t i = 0; i < qs.count; i += step) {
                    const int hit = bw[i] != HS_NONE;
                    if (gi[i] != bw[i] || ga[i] != hit)
                        fail_msg("query %zu level %d: closest %u any %u, brute %u", i, isa, gi[i],
                                 ga[i], bw[i]);
                    assert_int_equal(gk[i], hit ? HS_KIND_WALL : HS_KIND_CIRCLE);
                    if (!hit) {
                        assert_true(isnan(gt[i]) && isnan(px[i]) && isnan(py[i]) && isnan(nx[i]) &&
                                    isnan(ny[i]));
                        continue;
                    }
                    assert_true(memcmp(&gt[i], &bt[i], 4) == 0);
                    assert_true(px[i] == s.qax[i] + gt[i] * s.qdx[i]);
                    assert_true(fabsf(nx[i] * nx[i] + ny[i] * ny[i] - 1.0f) < 1e-4f);
                }
            }
        }
    }
    free(gi), free(gt), free(px), free(py), free(nx), free(ny), free(gk), free(ga), free(bw);
    free(bt);
    hs_grid_destroy(g);
    wscene_free(&s);
}

/* Thin queries without per-query arrays (the batch's tmax and mask: on AVX-512 the packets of
 * 16 queries) against the walls' brute force: segments and rays, masked walls with a batch
 * mask that passes all or some of them, every level, one thread and two. */
static void test_walls_batch_values(void **state)
{
    (void)state;
    wscene s = wscene_make(23, 0, 3000, quick() ? 3000 : 8000, 300.0f);
    hs_grid *g = walls_only_grid(&s, s.wm);
    const size_t m = s.m;
    uint32_t *gi = wcalloc(m, 4), *bw = wcalloc(m, 4);
    float *gt = wcalloc(m, 4), *bt = wcalloc(m, 4);
    uint8_t *ga = wcalloc(m, 1);
    const float tmaxes[] = {1.0f, INFINITY};
    const uint32_t masks[] = {~0u, 1u | 4u};
    for (int v = 0; v < 4; v++) {
        hs_queries qs = hs_queries_segments(s.qax, s.qay, s.qdx, s.qdy, m);
        qs.tmax_all = tmaxes[v & 1];
        qs.mask_all = masks[v >> 1];
        const hs_semantics sem = v == 3 ? HS_SOLID_SKIP_START : HS_SOLID;
        size_t hits = 0;
        for (size_t i = 0; i < m; i++)
            hits += walls_brute(&s, &qs, i, sem, 1, &bw[i], &bt[i], NULL, NULL) != 0;
        assert_true(hits > m / 8);
        for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
            if (!test_isa_on((hs_isa)isa))
                continue;
            for (int threads = 1; threads <= 2; threads++) {
                hs_batch_opts o = hs_batch_opts_default();
                o.isa = (hs_isa)isa;
                o.sem = sem;
                o.threads = threads;
                assert_int_equal(hs_grid_closest(g, &qs, &o, (hs_closest_out){.idx = gi, .t = gt}),
                                 HS_OK);
                assert_int_equal(hs_grid_any(g, &qs, &o, ga), HS_OK);
                for (size_t i = 0; i < m; i++) {
                    if (gi[i] != bw[i] || ga[i] != (bw[i] != HS_NONE))
                        fail_msg("query %zu variant %d level %d: closest %u any %u, brute %u", i, v,
                                 isa, gi[i], ga[i], bw[i]);
                    if (bw[i] != HS_NONE)
                        assert_true(memcmp(&gt[i], &bt[i], 4) == 0);
                }
            }
        }
    }
    free(gi), free(bw), free(gt), free(bt), free(ga);
    hs_grid_destroy(g);
    wscene_free(&s);
}

/* Every mode of g (walls only, the k walls given) on batches of one and two copies of query 0
 * of qs, at every level, against the walls' brute force with the scalar test (walls_brute):
 * closest's wall and t bit for bit, count, any, and all's row length. */
static void check_walls_batches(const hs_grid *g, float *ax, float *ay, float *bx, float *by,
                                float *w, size_t k, hs_queries qs, hs_semantics sem)
{
    wscene s;
    memset(&s, 0, sizeof s);
    s.k = k, s.ax = ax, s.ay = ay, s.bx = bx, s.by = by;
    s.w = w ? w : wcalloc(k, 4);
    uint32_t want;
    float wt;
    const uint32_t nw = walls_brute(&s, &qs, 0, sem, 0, &want, &wt, NULL, NULL);
    assert_true(nw > 0);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!test_isa_on((hs_isa)isa))
            continue;
        for (size_t count = 1; count <= 2; count++) {
            qs.count = count;
            hs_batch_opts o = hs_batch_opts_default();
            o.isa = (hs_isa)isa;
            o.sem = sem;
            uint32_t idx[2], cnt[2];
            float t[2];
            uint8_t kind[2], any[2];
            hs_hits all;
            assert_int_equal(
                hs_grid_closest(g, &qs, &o, (hs_closest_out){.idx = idx, .t = t, .kind = kind}),
                HS_OK);
            assert_int_equal(hs_grid_count_hits(g, &qs, &o, cnt), HS_OK);
            assert_int_equal(hs_grid_any(g, &qs, &o, any), HS_OK);
            assert_int_equal(hs_grid_all(g, &qs, &o, &all), HS_OK);
            for (size_t i = 0; i < count; i++) {
                if (idx[i] != want || memcmp(&t[i], &wt, 4) != 0 || cnt[i] != nw || any[i] != 1u ||
                    all.offsets[i + 1] - all.offsets[i] != nw)
                    fail_msg("level %d, batch of %zu: closest %u t %a count %u any %u all %zu; "
                             "brute force %u t %a count %u",
                             isa, count, idx[i], (double)t[i], cnt[i], any[i],
                             all.offsets[i + 1] - all.offsets[i], want, (double)wt, nw);
                assert_int_equal(kind[i], HS_KIND_WALL);
            }
            hs_hits_free(&all);
        }
    }
    if (w == NULL)
        free(s.w);
}

/* One query: a + t d for t in [tmin, tmax], half-width q. */
typedef struct wquery {
    float ax, ay, dx, dy, tmin, tmax, q;
} wquery;

/* The k walls (thickness w; NULL: a set without thickness) alone in a grid against query q:
 * check_walls_batches on batches of one and two copies of it. */
static void check_walls_query(float *ax, float *ay, float *bx, float *by, float *w, size_t k,
                              wquery q, hs_semantics sem)
{
    hs_grid *g = grid_of_walls(ax, ay, bx, by, w, NULL, k);
    const float qa[2] = {q.ax, q.ax}, qb[2] = {q.ay, q.ay}, qc[2] = {q.dx, q.dx};
    const float qd[2] = {q.dy, q.dy};
    hs_queries qs = hs_queries_segments(qa, qb, qc, qd, 2);
    qs.tmin_all = q.tmin;
    qs.tmax_all = q.tmax;
    qs.q_all = q.q;
    check_walls_batches(g, ax, ay, bx, by, w, k, qs, sem);
    hs_grid_destroy(g);
}

/* A wall whose ends differ by 2^60 in y meets a thick query only within reach of its far end,
 * where a + 1 (b - a) rounds to another point (b - a is rounded): the grid of pieces must still
 * find it, in a batch of two (walked by the block) and of one, in every mode, every level. */
static void test_long_wall_met_at_its_end(void **state)
{
    (void)state;
    float ax[1] = {-10.0f}, ay[1] = {0x1.bc16d6p+59f}, bx[1] = {3.0f}, by[1] = {-7.0f};
    const float qax[2] = {-2432.0f, -2432.0f}, qay[2] = {-23.0f, -23.0f};
    const float qdx[2] = {0x1.bc16d6p+60f, 0x1.bc16d6p+60f}, qdy[2] = {25.0f, 25.0f};
    hs_grid *g = grid_of_walls(ax, ay, bx, by, NULL, NULL, 1);
    hs_queries qs = hs_queries_segments(qax, qay, qdx, qdy, 2);
    qs.q_all = 16.75f;
    hs_kq k;
    assert_true(hs_prep_query(&qs, 0, HS_SOLID, &k));
    const hs_kwall wl = {ax[0], ay[0], bx[0], by[0], 0.0f};
    hs_wall_hit h;
    assert_true(hs_wall_hits(&k, &wl, &h)); /* the reference: a hit near (3, -7) */
    assert_true(fabs((double)qax[0] + (double)h.t * qdx[0] - 3.0) < 24.0);
    check_walls_batches(g, ax, ay, bx, by, NULL, 1, qs, HS_SOLID);
    hs_grid_destroy(g);
}

/* A line along x = -24 from y = 2^34, its direction 2^-62 long: it touches three walls at
 * y = -20 .. -24, one of them (cut into two pieces) at its first end only. Its t is near 2^95:
 * from t divided by the float d.d, P(t) lay hundreds of units off, and the hit's place on the
 * wall with it, so the block counted the hit on the piece it never reaches. */
static void test_line_from_afar_touches_a_walls_end(void **state)
{
    (void)state;
    float ax[3] = {-24.0f, -24.0f, -24.0f}, ay[3] = {-24.0f, -24.0f, -24.0f};
    float bx[3] = {-24.0f, 27.0f, 0.0f}, by[3] = {-20.0f, 27.0f, 0.0f};
    const wquery q = {-24.0f, 0x1p+34f, 0.0f, -0x1.41414p-62f, -INFINITY, INFINITY, 0.0f};
    hs_queries qs = hs_queries_segments(&q.ax, &q.ay, &q.dx, &q.dy, 1);
    qs.tmin_all = q.tmin, qs.tmax_all = q.tmax;
    hs_kq k;
    assert_true(hs_prep_query(&qs, 0, HS_SOLID, &k));
    const hs_kwall wl = {ax[1], ay[1], bx[1], by[1], 0.0f};
    hs_wall_hit h;
    assert_true(hs_wall_hits(&k, &wl, &h));
    assert_true(h.s < 0x1p-20); /* at the wall's first end */
    check_walls_query(ax, ay, bx, by, NULL, 3, q, HS_SOLID);
}

/* A thick wall from x = 1e18 to (5.5, 0): a line through the origin passes 5.12 from its near
 * end, outside its thickness 5 but within the double test's error at the wall's magnitude
 * (walls.h), which takes it for a hit; the pieces' filter, which sees only the near piece's
 * small coordinates, must keep it: every mode as the test, batches of one and two. */
static void test_thick_long_wall_within_its_error(void **state)
{
    (void)state;
    float ax[1] = {0x1.bc16d6p+59f}, ay[1] = {-28.75f}, bx[1] = {5.5f}, by[1] = {0x1.0cp-28f};
    float w[1] = {5.0f};
    check_walls_query(ax, ay, bx, by, w, 1,
                      (wquery){0.0f, 0.0f, 4.0f, 10.25f, -INFINITY, INFINITY, 0.0f}, HS_SOLID);
}

/* A thick query near the far end of a thin wall 2^60 long: the test, in double at the wall's
 * magnitude, takes it for a hit (walls.h), so the pieces' filter must keep it. */
static void test_thick_query_within_a_long_walls_error(void **state)
{
    (void)state;
    float ax[2] = {-0.25f, -10.0f}, ay[2] = {0.0f, 0x1.bc16d6p+59f};
    float bx[2] = {0x1p-115f, 3.0f}, by[2] = {-576.0f, -7.0f};
    check_walls_query(ax, ay, bx, by, NULL, 2,
                      (wquery){-1.0f, -27.75f, 10.75f, 21.75f, 0.0f, 1.0f, 3.75f},
                      HS_BOUNDARY_SKIP_START);
}

/* A ray starting 2^-116 from zero-length walls at the origin, in a scene 2^-86 wide: the
 * walls' cells' filter must keep what the test takes for a touch (an underflowing square). */
static void test_point_walls_in_a_tiny_scene(void **state)
{
    (void)state;
    float ax[4] = {0.0f, 0.0f, 0.0f, 0.0f}, ay[4] = {0.0f, 0.0f, 0.0f, 0x1p-95f};
    float bx[4] = {0.0f, 0.0f, 0.0f, 0x1.c028p-87f}, by[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    check_walls_query(
        ax, ay, bx, by, NULL, 4,
        (wquery){0x1.c008p-119f, 0.0f, 0x1.80318p-127f, 0x1.c048cp-55f, 0.0f, INFINITY, 0.0f},
        HS_SOLID);
}

/* A line passing 2^-116 from a wall of zero length: the exact test, as the circle test, takes
 * the underflowing squared distance for a touch, so the grid's filter of pieces must keep it
 * (it dropped it on relative margins alone): every mode, batches of one and two. */
static void test_point_wall_touched_by_underflow(void **state)
{
    (void)state;
    float ax[2] = {0.0f, 2.0f}, ay[2] = {0.0f, 0x1.80018p-127f};
    float bx[2] = {0.0f, 0.0f}, by[2] = {0.0f, -1.0f};
    const float qax[2] = {24.0f, 24.0f}, qay[2] = {0x1.83e18p-127f, 0x1.83e18p-127f};
    const float qdx[2] = {2.0f, 2.0f}, qdy[2] = {0x1.c1f8cp-119f, 0x1.c1f8cp-119f};
    hs_grid *g = grid_of_walls(ax, ay, bx, by, NULL, NULL, 2);
    hs_queries qs = hs_queries_segments(qax, qay, qdx, qdy, 2);
    qs.tmin_all = -INFINITY;
    hs_kq k;
    assert_true(hs_prep_query(&qs, 0, HS_SOLID, &k));
    hs_wall_hit h;
    const hs_kwall point = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    assert_true(hs_wall_hits(&k, &point, &h)); /* at t = -12, 2^-116 from the point */
    assert_true(h.t == -12.0f);
    check_walls_batches(g, ax, ay, bx, by, NULL, 2, qs, HS_SOLID);
    hs_grid_destroy(g);
}

/* A wall 1/100 long at the origin and a segment through it from 80,000 away: the float circle
 * test of the piece's proxy errs by 2^-24 of that distance, more than the proxy's radius, so a
 * batch (walked by the block) must not drop what the exact test takes. */
static void test_short_wall_met_from_afar(void **state)
{
    (void)state;
    float ax[1] = {0.0f}, ay[1] = {0.0f}, bx[1] = {-0x1.92f172p-8f}, by[1] = {0x1.3be18ap-8f};
    wquery q = {
        -0x1.73911p+14f, 0x1.2a5fe8p+16f, 0x1.73910ap+15f, -0x1.2a5fe6p+17f, 0.0f, 1.0f, 0.0f};
    check_walls_query(ax, ay, bx, by, NULL, 1, q, HS_SOLID);
    q.q = 0x1p-12f; /* a thick query takes the pieces in closest too */
    check_walls_query(ax, ay, bx, by, NULL, 1, q, HS_BOUNDARY);
}

/* A wall 2^-127 long and a thick query whose end lies well within reach of it: the pieces'
 * filter measured the wall's length from its square, which underflows, and dropped it. */
static void test_thick_query_near_a_subnormal_wall(void **state)
{
    (void)state;
    float ax[1] = {0.0f}, ay[1] = {0.0f}, bx[1] = {0.0f}, by[1] = {0x1.f8p-128f};
    check_walls_query(ax, ay, bx, by, NULL, 1,
                      (wquery){-12.0f, -25.75f, 0x1.a5bacap-109f, 21.75f, 0.0f, 1.0f, 13.0f},
                      HS_BOUNDARY);
}

/* A thick wall 15.75 from a line whose start lies 10^18 away: the test, in double at the
 * start's magnitude, takes it for a hit (within 2^-46 of it, walls.h), so the pieces' filter
 * must keep it too. */
static void test_thick_wall_within_a_far_starts_error(void **state)
{
    (void)state;
    float ax[1] = {27.25f}, ay[1] = {27.25f}, bx[1] = {15.75f}, by[1] = {-8.0f};
    float w[1] = {0x1.810b3ap-14f};
    check_walls_query(ax, ay, bx, by, w, 1,
                      (wquery){0.0f, -0x1.bc16d6p+59f, 0.0f, 4.0f, -INFINITY, INFINITY, 0.0f},
                      HS_SOLID_SKIP_START);
}

/* A thick query (q = 2^-126) starting 2^-121 from a zero-length wall, which the test touches at
 * t = 0 (the square underflows), and crossing a wall ending there at t > 0: closest's cut of
 * the pieces must not drop the first as beyond the proxy's radius. */
static void test_point_wall_first_for_a_thin_capsule(void **state)
{
    (void)state;
    float ax[2] = {-0.25f, 0.0f}, ay[2] = {-0.25f, 0.0f}, bx[2] = {0.0f, 0.0f},
          by[2] = {0.0f, 0.0f};
    check_walls_query(
        ax, ay, bx, by, NULL, 2,
        (wquery){0.0f, 0x1.4cc632p-121f, -30.5f, -24.75f, 0.0f, 1.0f, 0x1.80418p-127f},
        HS_BOUNDARY);
}

/* A segment grazing a zero-length wall of thickness r, within float's tangency band of the
 * circle (a, r): the scalar circle test takes the touch, the AVX2 one (FMA) does not (but in a
 * deterministic build, where every level answers as the scalar one). The wall answers as the
 * scalar circle at every level (walls.h), alone and in a batch: no level's own circle test may
 * decide a wall. */
static void test_point_wall_in_the_tangency_band(void **state)
{
    (void)state;
    float ax[1] = {0x1.675a8p+2f}, ay[1] = {-0x1.09cde4p+3f}, w[1] = {0x1.07d6ap+1f};
    const wquery q = {
        -0x1.524c3ep+2f, -0x1.fa5fe8p+0f, 0x1.742aecp+4f, -0x1.19a1d8p+3f, 0.0f, 1.0f, 0.0f};
    if (hs_isa_supported(HS_ISA_AVX2) && !HS_DETERMINISTIC) { /* in the band: AVX2's test misses */
        hs_circles *cs;
        assert_int_equal(hs_circles_create(ax, ay, w, NULL, 1, &cs, NULL), HS_OK);
        const hs_queries qs = hs_queries_segments(&q.ax, &q.ay, &q.dx, &q.dy, 1);
        hs_batch_opts o = hs_batch_opts_default();
        uint8_t hit[2];
        o.isa = HS_ISA_SCALAR;
        assert_int_equal(hs_brute_any(cs, &qs, &o, &hit[0]), HS_OK);
        o.isa = HS_ISA_AVX2;
        assert_int_equal(hs_brute_any(cs, &qs, &o, &hit[1]), HS_OK);
        assert_true(hit[0] == 1u && hit[1] == 0u);
        hs_circles_destroy(cs);
    }
    check_walls_query(ax, ay, ax, ay, w, 1, q, HS_SOLID);
}

/* A thin segment from 10^18 away passing 16 from a thick wall: the test, within 2^-46 of the
 * start's magnitude, takes it for a hit outside every cell listing the wall, so closest and
 * any must not take the walls' cells for such a query. */
static void test_thin_query_from_afar_and_a_thick_wall(void **state)
{
    (void)state;
    float ax[1] = {0x1.48p-44f}, ay[1] = {0x1.48p-44f}, bx[1] = {-0.25f}, by[1] = {-0.25f};
    float w[1] = {0.25f};
    check_walls_query(ax, ay, bx, by, w, 1,
                      (wquery){-0x1.bc16d6p+59f, 5.5f, 0x1.9cp+60f, 19.75f, 0.0f, 1.0f, 0.0f},
                      HS_BOUNDARY);
}

/* A line from 10^18 away crossing a thin wall beside point walls: the walls' cells it enters,
 * found in double from so far, lie 100 units off, so the cells' walk missed a crossing the
 * exact test sees. */
static void test_thin_line_from_afar_crosses_a_wall(void **state)
{
    (void)state;
    float ax[8] = {27.0f, 27.0f, 27.0f, -24.0f, -24.0f, -24.0f, -24.0f, -24.0f};
    float ay[8] = {27.0f, 27.0f, -24.0f, 0x1.4484cp-100f, -24.0f, -24.0f, -24.0f, -24.0f};
    float bx[8] = {27.0f, 27.0f, -24.0f, -24.0f, -24.0f, -24.0f, -24.0f, -24.0f};
    float by[8] = {27.0f, 27.0f, -24.0f, -24.0f, -24.0f, -24.0f, -24.0f, -24.0f};
    check_walls_query(
        ax, ay, bx, by, NULL, 8,
        (wquery){16.75f, -0x1.bc16d6p+59f, 0x1.82cp-127f, 512.25f, -INFINITY, INFINITY, 0.0f},
        HS_SOLID_SKIP_START);
}

/* A wall at the coordinates' limit beside zero-length ones at the origin: the walls' cells,
 * sized first by the tiny walls, would number past int32 (refused, not overflowed), and a
 * thin query still finds the far wall. */
static void test_far_wall_beside_tiny_ones(void **state)
{
    (void)state;
    float ax[10] = {0}, ay[10] = {0}, bx[10] = {0}, by[10] = {0};
    ax[0] = bx[0] = HS_MAX_COORD;
    ay[0] = 1e-45f;
    hs_grid *g = grid_of_walls(ax, ay, bx, by, NULL, NULL, 10);
    const float qax[2] = {0.5f * HS_MAX_COORD, 1.0f}, qay[2] = {0.0f, 1.0f};
    const float qdx[2] = {HS_MAX_COORD, -1.0f}, qdy[2] = {0.0f, -1.0f};
    const hs_queries qs = hs_queries_segments(qax, qay, qdx, qdy, 2);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!test_isa_on((hs_isa)isa))
            continue;
        hs_batch_opts o = hs_batch_opts_default();
        o.isa = (hs_isa)isa;
        uint32_t idx[2];
        float t[2];
        assert_int_equal(hs_grid_closest(g, &qs, &o, (hs_closest_out){.idx = idx, .t = t}), HS_OK);
        assert_int_equal(idx[0], 0u); /* the far wall's end, half way along the first query */
        assert_true(fabsf(t[0] - 0.5f) < 1e-6f);
        assert_int_equal(idx[1], 1u); /* the first point wall at the origin, at t = 1 */
        assert_true(t[1] == 1.0f);
    }
    hs_grid_destroy(g);
}

/* One wall across a query, and the set's lifetime: rebuilds keep the walls, set_walls
 * replaces or removes them, a periodic grid refuses them. */
static void test_walls_on_the_grid(void **state)
{
    (void)state;
    const float cx[1] = {50.0f}, cy[1] = {0.0f}, cr[1] = {1.0f};
    const float ax[1] = {10.0f}, ay[1] = {-5.0f}, bx[1] = {10.0f}, by[1] = {5.0f};
    hs_circles *cs;
    hs_walls *ws;
    assert_int_equal(hs_circles_create(cx, cy, cr, NULL, 1, &cs, NULL), HS_OK);
    assert_int_equal(hs_walls_create(ax, ay, bx, by, NULL, NULL, 1, &ws, NULL), HS_OK);
    hs_grid *g;
    hs_grid_opts go = {0};
    go.walls = ws;
    assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
    const float qx[1] = {0.0f}, qy[1] = {0.0f}, qdx[1] = {100.0f}, qdy[1] = {0.0f};
    hs_queries qs = hs_queries_segments(qx, qy, qdx, qdy, 1);
    uint32_t idx;
    float t, px, py, nx, ny;
    uint8_t kind;
    hs_closest_out co = {&idx, &t, &px, &py, &nx, &ny, &kind};
    assert_int_equal(hs_grid_closest(g, &qs, NULL, co), HS_OK);
    assert_int_equal(idx, 0);
    assert_int_equal(kind, HS_KIND_WALL);
    assert_true(t == 0.1f);
    assert_true(px == 10.0f && py == 0.0f && nx == -1.0f && ny == 0.0f);
    /* a rebuild of the circles keeps the walls */
    assert_int_equal(hs_grid_rebuild(g, cs), HS_OK);
    assert_int_equal(hs_grid_closest(g, &qs, NULL, co), HS_OK);
    assert_int_equal(kind, HS_KIND_WALL);
    /* removed: the circle is the first hit */
    assert_int_equal(hs_grid_set_walls(g, NULL), HS_OK);
    assert_int_equal(hs_grid_wall_count(g), 0);
    assert_int_equal(hs_grid_closest(g, &qs, NULL, co), HS_OK);
    assert_int_equal(kind, HS_KIND_CIRCLE);
    assert_true(t == 0.49f);
    hs_hits h;
    assert_int_equal(hs_grid_all(g, &qs, NULL, &h), HS_OK);
    assert_null(h.kind); /* no walls: every hit a circle's */
    hs_hits_free(&h);
    hs_grid_destroy(g);
    /* a periodic box refuses walls */
    hs_grid_opts po = {0};
    po.periodic = HS_PERIODIC_XY;
    po.box = (hs_aabb){{0.0f, -50.0f}, {100.0f, 50.0f}};
    po.walls = ws;
    g = (hs_grid *)1;
    assert_int_equal(hs_grid_build(cs, &po, &g), HS_E_RANGE);
    assert_null(g);
    hs_walls_destroy(ws);
    hs_circles_destroy(cs);
}

/* A dense maze (a wall on most unit cells' edges, some diagonal, ends shared) with segments
 * and rays: closest and count against brute force over a sample, and queries against moving
 * circles beside the walls (the walls stand still). */
static void test_maze(void **state)
{
    (void)state;
    const int S = 60;
    const size_t cap = (size_t)S * S;
    wscene s;
    memset(&s, 0, sizeof s);
    s.ax = wcalloc(cap, 4), s.ay = wcalloc(cap, 4), s.bx = wcalloc(cap, 4), s.by = wcalloc(cap, 4);
    s.w = wcalloc(cap, 4), s.wm = wcalloc(cap, 4);
    uint64_t r = 3;
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++, s.k++) {
            const float u = wunif(&r, 0, 1);
            s.ax[s.k] = (float)i, s.ay[s.k] = (float)j;
            s.bx[s.k] = (float)i + (u < 0.55f ? 1.0f : u < 0.9f ? 0.0f : 1.0f);
            s.by[s.k] = (float)j + (u < 0.55f ? 0.0f : 1.0f);
        }
    s.m = 3000;
    s.qax = wcalloc(s.m, 4), s.qay = wcalloc(s.m, 4), s.qdx = wcalloc(s.m, 4);
    s.qdy = wcalloc(s.m, 4), s.qtmax = wcalloc(s.m, 4), s.qq = wcalloc(s.m, 4),
    s.qm = wcalloc(s.m, 4);
    for (size_t k = 0; k < s.m; k++) {
        const float a = wunif(&r, 0, 6.2831853f), len = wunif(&r, 0.5f, 20.0f);
        s.qax[k] = k % 9 == 0 ? floorf(wunif(&r, 0, (float)S)) : wunif(&r, 0, (float)S);
        s.qay[k] = k % 9 == 0 ? floorf(wunif(&r, 0, (float)S)) : wunif(&r, 0, (float)S);
        s.qdx[k] = k % 7 == 0 ? len : len * cosf(a), s.qdy[k] = k % 7 == 0 ? 0.0f : len * sinf(a);
        s.qtmax[k] = k % 4 == 0 ? INFINITY : 1.0f;
    }
    s.n = 50;
    s.cx = wcalloc(s.n, 4), s.cy = wcalloc(s.n, 4), s.cr = wcalloc(s.n, 4), s.cm = wcalloc(s.n, 4);
    float *dx = wcalloc(s.n, 4), *dy = wcalloc(s.n, 4);
    for (size_t i = 0; i < s.n; i++) {
        s.cx[i] = wunif(&r, 0, (float)S), s.cy[i] = wunif(&r, 0, (float)S), s.cr[i] = 0.3f;
        dx[i] = wunif(&r, -1, 1), dy[i] = wunif(&r, -1, 1);
    }
    hs_circles *cs;
    hs_walls *ws;
    assert_int_equal(hs_circles_create(s.cx, s.cy, s.cr, NULL, s.n, &cs, NULL), HS_OK);
    assert_int_equal(hs_walls_create(s.ax, s.ay, s.bx, s.by, NULL, NULL, s.k, &ws, NULL), HS_OK);
    hs_grid_opts go = {0};
    go.walls = ws;
    hs_grid *g;
    assert_int_equal(hs_grid_build(cs, &go, &g), HS_OK);
    hs_batch_opts o = hs_batch_opts_default();
    check_modes(g, cs, &s, 0, &o);
    /* moving circles: segments only (rays are invalid against moving circles) */
    for (size_t k = 0; k < s.m; k++)
        s.qtmax[k] = 1.0f;
    const hs_queries qs = wscene_queries(&s, 0);
    uint32_t *gi = wcalloc(s.m, 4), *ci = wcalloc(s.m, 4), *gc = wcalloc(s.m, 4),
             *cc = wcalloc(s.m, 4);
    float *gt = wcalloc(s.m, 4), *ct = wcalloc(s.m, 4);
    uint8_t *gk = wcalloc(s.m, 1);
    hs_batch_opts mo = hs_batch_opts_default();
    mo.disp_x = dx, mo.disp_y = dy;
    assert_int_equal(hs_grid_closest(g, &qs, &mo, (hs_closest_out){.idx = gi, .t = gt, .kind = gk}),
                     HS_OK);
    assert_int_equal(hs_grid_count_hits(g, &qs, &mo, gc), HS_OK);
    hs_grid *gc_only;
    assert_int_equal(hs_grid_build(cs, NULL, &gc_only), HS_OK);
    assert_int_equal(hs_grid_closest(gc_only, &qs, &mo, (hs_closest_out){.idx = ci, .t = ct}),
                     HS_OK);
    assert_int_equal(hs_grid_count_hits(gc_only, &qs, &mo, cc), HS_OK);
    size_t moving_hits = 0;
    for (size_t i = 0; i < s.m; i++) {
        uint32_t wb;
        float wt;
        const uint32_t nw = walls_brute(&s, &qs, i, HS_SOLID, 0, &wb, &wt, NULL, NULL);
        const int wall = wb != HS_NONE && (ci[i] == HS_NONE || wt + 0.0f < ct[i] + 0.0f);
        assert_int_equal(gi[i], wall ? wb : ci[i]);
        assert_int_equal(gk[i], wall ? HS_KIND_WALL : HS_KIND_CIRCLE);
        assert_int_equal(gc[i], cc[i] + nw);
        moving_hits += cc[i] != 0;
    }
    assert_true(moving_hits > 0);
    free(gi), free(ci), free(gc), free(cc), free(gt), free(ct), free(gk), free(dx), free(dy);
    hs_grid_destroy(gc_only);
    hs_grid_destroy(g);
    hs_walls_destroy(ws);
    hs_circles_destroy(cs);
    wscene_free(&s);
}

/* Prepared query k on the cells c of ws against every wall's exact test, through the cells'
 * walk of every level this CPU has: closest bit for bit and any; returns the wall hit
 * (HS_NONE: none). */
static uint32_t check_cells_query(const hs_walls *ws, const hs_wcells *c, const hs_kq *k,
                                  const char *what, size_t j)
{
    uint32_t bw = HS_NONE;
    hs_wall_hit h;
    const int bf = hs_walls_brute_closest(ws, k, &bw, &h);
    int levels = 0;
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        const hs_grid_walkers *gw = hs_grid_walkers_get((hs_isa)isa);
        if (gw == NULL || !test_isa_on((hs_isa)isa))
            continue;
        uint32_t cw = HS_NONE;
        float ct = 0.0f;
        uint64_t tests = 0;
        const int cf = gw->wall_cells_closest(c, k, 0, &cw, &ct, &tests);
        if (bf != cf || (bf && (bw != cw || memcmp(&h.t, &ct, 4) != 0)))
            fail_msg("%s query %zu, level %d: brute %d %u %a, cells %d %u %a", what, j, isa, bf, bw,
                     bf ? h.t : 0.0f, cf, cw, cf ? ct : 0.0f);
        assert_int_equal(gw->wall_cells_closest(c, k, 1, &cw, &ct, &tests), bf);
        levels++;
    }
    assert_true(levels >= 1);
    return bf ? bw : HS_NONE;
}

/* The walls' cells alone (wall_cells.h) against every wall's test: segments, rays, lines,
 * points and queries along walls, from and onto wall ends, every semantics, masks, near the
 * origin and far from it, a maze whose walls lie on a lattice. */
static void test_wall_cells_against_brute_force(void **state)
{
    (void)state;
    for (int variant = 0; variant < 4; variant++) {
        wscene s = wscene_make(40 + (uint64_t)variant, 0, variant == 3 ? 2500 : 500, 1500,
                               variant == 1 ? 30.0f : 150.0f);
        if (variant == 2) /* far from the origin */
            for (float *a[] = {s.ax, s.ay, s.bx, s.by, s.qax, s.qay}, **p = a; p < a + 6; p++)
                for (size_t i = 0, n = p < a + 4 ? s.k : s.m; i < n; i++)
                    (*p)[i] += 3e5f;
        if (variant == 3) /* a lattice maze of thin walls */
            for (size_t i = 0; i < s.k; i++) {
                s.ax[i] = (float)(i % 50), s.ay[i] = (float)(i / 50), s.w[i] = 0.0f;
                s.bx[i] = s.ax[i] + (float)(i % 3 != 1), s.by[i] = s.ay[i] + (float)(i % 3 != 0);
            }
        hs_walls *ws;
        assert_int_equal(
            hs_walls_create(s.ax, s.ay, s.bx, s.by, s.w, variant & 1 ? s.wm : NULL, s.k, &ws, NULL),
            HS_OK);
        hs_wcells *c;
        assert_int_equal(hs_wcells_make(ws, &c), HS_OK);
        const float lines[1] = {-INFINITY};
        size_t hits = 0, sems_run = 0;
        for (int si = 0; si < 4; si += quick() ? 3 : 1, sems_run++) {
            const hs_semantics sems[] = {HS_SOLID, HS_BOUNDARY, HS_SOLID_SKIP_START,
                                         HS_BOUNDARY_SKIP_START};
            for (size_t j = 0; j < s.m; j++) {
                hs_queries qs = hs_queries_segments(s.qax + j, s.qay + j, s.qdx + j, s.qdy + j, 1);
                qs.tmax = s.qtmax + j;
                qs.mask_all = variant & 1 ? s.qm[j] : ~0u;
                if (j % 13 == 0) /* a line */
                    qs.tmin = lines, qs.tmax_all = INFINITY, qs.tmax = NULL;
                const float zero[1] = {0.0f};
                if (j % 17 == 0) /* a point */
                    qs.dx = zero, qs.dy = zero;
                hs_kq k;
                if (!hs_prep_query(&qs, 0, sems[si], &k))
                    continue;
                char what[40];
                snprintf(what, sizeof what, "variant %d sem %d", variant, si);
                hits += check_cells_query(ws, c, &k, what, j) != HS_NONE;
            }
        }
        assert_true(hits > sems_run * s.m / 8); /* a hit in 1 of 8 queries at least */
        hs_wcells_free(c);
        hs_walls_destroy(ws);
        wscene_free(&s);
    }
}

/* Queries whose line passes a wall's end by a few units in the last place, either side, and
 * through it: the cells' float filter must leave every such wall to an exact decision (a
 * grazed end is a miss, a touched one a hit), so the answers are the exact test's. */
static void test_wall_cells_grazing_ends(void **state)
{
    (void)state;
    enum { K = 300, M = 6000 };
    float ax[K], ay[K], bx[K], by[K];
    uint64_t r = 77;
    for (size_t i = 0; i < K; i++) { /* far from the origin, so a float's unit is coarse */
        ax[i] = wunif(&r, 1000, 3000), ay[i] = wunif(&r, 1000, 3000);
        bx[i] = ax[i] + wunif(&r, -40, 40), by[i] = ay[i] + wunif(&r, -40, 40);
    }
    hs_walls *ws;
    assert_int_equal(hs_walls_create(ax, ay, bx, by, NULL, NULL, K, &ws, NULL), HS_OK);
    hs_wcells *c;
    assert_int_equal(hs_wcells_make(ws, &c), HS_OK);
    size_t on = 0, off = 0;
    for (size_t j = 0; j < M; j++) {
        const size_t i = (size_t)wunif(&r, 0, K - 1);
        const float ex = j & 1 ? bx[i] : ax[i], ey = j & 1 ? by[i] : ay[i];
        const float ang = wunif(&r, 0, 6.2831853f), len = wunif(&r, 3000, 30000);
        const float dx = len * cosf(ang), dy = len * sinf(ang), s = wunif(&r, 0.2f, 0.8f);
        float qax = ex - s * dx, qay = ey - s * dy;
        const int ulps = (int)wunif(&r, -4, 4.99f); /* the line moved by a few units */
        for (int u = 0; u < abs(ulps); u++) {
            if (j & 2)
                qax = nextafterf(qax, ulps > 0 ? INFINITY : -INFINITY);
            else
                qay = nextafterf(qay, ulps > 0 ? INFINITY : -INFINITY);
        }
        hs_queries qs = hs_queries_segments(&qax, &qay, &dx, &dy, 1);
        hs_kq k;
        assert_true(hs_prep_query(&qs, 0, j % 3 ? HS_SOLID : HS_BOUNDARY, &k));
        const uint32_t w = check_cells_query(ws, c, &k, "grazing", j);
        on += (size_t)(w == i), off += (size_t)(w != i);
    }
    assert_true(on > M / 10 && off > M / 10); /* both ways past the grazed wall */
    hs_wcells_free(c);
    hs_walls_destroy(ws);
}

/* A ray along an axis from far outside the walls' box, through two walls either side of a
 * cell's edge and apart by less than a float's unit of t there: both hit at the same t, and
 * the answer is the smaller index, the wall beyond the edge. The walk must not stop at the
 * edge on the first one: its stop margin (t's error) holds for rays along an axis as for any
 * other. */
static void test_wall_cells_tie_across_an_edge(void **state)
{
    (void)state;
    enum { G = 20, K = G * G + 2 };
    float ax[K], ay[K], bx[K], by[K];
    for (size_t i = 2; i < K; i++) { /* a lattice of short walls, clear of x = 10.75 */
        ax[i] = (float)((i - 2) % G), ay[i] = (float)((i - 2) / G);
        bx[i] = ax[i] + 0.5f, by[i] = ay[i];
    }
    for (size_t i = 0; i < 2; i++) /* walls 0 and 1 across x = 10.75, placed below */
        ax[i] = 10.6f, bx[i] = 10.9f, ay[i] = by[i] = 5.0f;
    hs_walls *ws;
    hs_wcells *c;
    assert_int_equal(hs_walls_create(ax, ay, bx, by, NULL, NULL, K, &ws, NULL), HS_OK);
    assert_int_equal(hs_wcells_make(ws, &c), HS_OK);
    const double edge = c->oy + floor((8.0 - c->oy) / c->h) * c->h, h = c->h, oy = c->oy;
    assert_true(edge > 4.0 && edge < 12.0 && 0.004 > 4.0 * c->eps);
    hs_wcells_free(c);
    hs_walls_destroy(ws);
    ay[0] = by[0] = (float)(edge + 0.004); /* beyond the edge, the smaller index */
    ay[1] = by[1] = (float)(edge - 0.004);
    assert_int_equal(hs_walls_create(ax, ay, bx, by, NULL, NULL, K, &ws, NULL), HS_OK);
    assert_int_equal(hs_wcells_make(ws, &c), HS_OK);
    assert_true(c->oy == oy && c->h == h); /* the same cells: the box and lengths are */
    size_t ties = 0;
    for (int j = 0; j < 64; j++) {
        const float qax = 10.75f, qay = -1e6f - (float)j, qdx = 0.0f, qdy = 2e6f;
        hs_queries qs = hs_queries_segments(&qax, &qay, &qdx, &qdy, 1);
        hs_kq k;
        assert_true(hs_prep_query(&qs, 0, HS_SOLID, &k));
        ties += check_cells_query(ws, c, &k, "tie across an edge", (size_t)j) == 0;
    }
    assert_true(ties > 0); /* some starts round both hits to one t */
    hs_wcells_free(c);
    hs_walls_destroy(ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes_against_brute_force),
        cmocka_unit_test(test_large_batch_against_single_queries),
        cmocka_unit_test(test_walls_on_the_grid),
        cmocka_unit_test(test_walls_alone),
        cmocka_unit_test(test_walls_batch_values),
        cmocka_unit_test(test_maze),
        cmocka_unit_test(test_wall_cells_against_brute_force),
        cmocka_unit_test(test_wall_cells_grazing_ends),
        cmocka_unit_test(test_wall_cells_tie_across_an_edge),
        cmocka_unit_test(test_long_wall_met_at_its_end),
        cmocka_unit_test(test_far_wall_beside_tiny_ones),
        cmocka_unit_test(test_point_wall_touched_by_underflow),
        cmocka_unit_test(test_thick_long_wall_within_its_error),
        cmocka_unit_test(test_thick_query_within_a_long_walls_error),
        cmocka_unit_test(test_point_walls_in_a_tiny_scene),
        cmocka_unit_test(test_short_wall_met_from_afar),
        cmocka_unit_test(test_thick_query_near_a_subnormal_wall),
        cmocka_unit_test(test_thick_wall_within_a_far_starts_error),
        cmocka_unit_test(test_point_wall_first_for_a_thin_capsule),
        cmocka_unit_test(test_point_wall_in_the_tangency_band),
        cmocka_unit_test(test_thin_query_from_afar_and_a_thick_wall),
        cmocka_unit_test(test_thin_line_from_afar_crosses_a_wall),
        cmocka_unit_test(test_line_from_afar_touches_a_walls_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
