/* SPDX-License-Identifier: MIT */
/* Tests for segment queries in periodic boxes (hitscan/grid.h): closest (with hit points and
 * normals), any, count, all and all-into against brute force over the images of the box, each
 * image the query moved by whole periods (its origin rounded to float as grid.h says), for
 * segments that wrap around, capsules, every semantics, rays and lines where they are
 * bounded; the queries that meet too many images; thread counts and ISA levels. */
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
#include "test_util.h"
#include "periodic_ref.h"

static int quick;
static size_t scale(size_t full) { return quick ? (full / 4 > 8 ? full / 4 : 8) : full; }

/* Shifts the reference tries on each periodic axis: -K .. K (the queries are shorter). */
enum { K = 3 };

/* The reference of one batch: every image's hits, from hs_brute_all on the wrapped circles
 * with the batch moved by -(sx Lx, sy Ly), merged per query (t then index). */
typedef struct ref_hits {
    size_t *n;            /* hits per query */
    uint32_t (*idx)[128]; /* each query's hits (at most 128) */
    float (*t)[128];
    uint32_t *best; /* closest: index or HS_NONE */
    float *bt, *px, *py, *nx, *ny;
} ref_hits;

static int cmp_ht(const void *a, const void *b)
{
    const float *x = a, *y = b; /* (t, index as float bits) pairs sorted by t then index */
    uint32_t i, j;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    memcpy(&i, &x[1], 4);
    memcpy(&j, &y[1], 4);
    return (i > j) - (i < j);
}

static ref_hits reference(const pbox *b, hs_circles *cs, const batch *q, hs_semantics sem,
                          hs_isa isa)
{
    const size_t m = q->m;
    ref_hits r = {
        xcalloc(m, sizeof(size_t)),   xcalloc(m, sizeof *r.idx), xcalloc(m, sizeof *r.t),
        xcalloc(m, sizeof(uint32_t)), xcalloc(m, sizeof(float)), xcalloc(m, sizeof(float)),
        xcalloc(m, sizeof(float)),    xcalloc(m, sizeof(float)), xcalloc(m, sizeof(float))};
    for (size_t i = 0; i < m; i++)
        r.best[i] = HS_NONE;
    float *ax = xcalloc(m, sizeof(float)), *ay = xcalloc(m, sizeof(float));
    uint32_t *ci = xcalloc(m, sizeof(uint32_t));
    float *ct = xcalloc(m, sizeof(float)), *g[4];
    for (int k = 0; k < 4; k++)
        g[k] = xcalloc(m, sizeof(float));
    hs_batch_opts o = hs_batch_opts_default();
    o.sem = sem;
    o.isa = isa; /* the levels agree to the last bit only in the deterministic build */
    const int kx = b->L[0] > 0.0 ? K : 0, ky = b->L[1] > 0.0 ? K : 0;
    for (int sy = -ky; sy <= ky; sy++)
        for (int sx = -kx; sx <= kx; sx++) {
            const double ox = sx * b->L[0], oy = sy * b->L[1];
            for (size_t i = 0; i < m; i++) {
                ax[i] = (float)((double)q->ax[i] - ox);
                ay[i] = (float)((double)q->ay[i] - oy);
            }
            hs_queries qs = q->qs;
            qs.ax = ax;
            qs.ay = ay;
            hs_hits h;
            assert_int_equal(hs_brute_all(cs, &qs, &o, &h), HS_OK);
            const hs_closest_out co = {ci, ct, g[0], g[1], g[2], g[3], NULL};
            assert_int_equal(hs_brute_closest(cs, &qs, &o, co), HS_OK);
            for (size_t i = 0; i < m; i++) {
                for (size_t k = h.offsets[i]; k < h.offsets[i + 1]; k++, r.n[i]++)
                    if (r.n[i] < 128) { /* more only for unbounded queries (not compared) */
                        r.idx[i][r.n[i]] = h.idx[k];
                        r.t[i][r.n[i]] = h.t[k];
                    }
                if (ci[i] != HS_NONE && (r.best[i] == HS_NONE || ct[i] < r.bt[i] ||
                                         (ct[i] == r.bt[i] && ci[i] < r.best[i]))) {
                    r.best[i] = ci[i];
                    r.bt[i] = ct[i];
                    r.px[i] = (float)((double)g[0][i] + ox);
                    r.py[i] = (float)((double)g[1][i] + oy);
                    r.nx[i] = g[2][i];
                    r.ny[i] = g[3][i];
                }
            }
            hs_hits_free(&h);
        }
    for (size_t i = 0; i < m; i++) { /* each row ordered by (t, index) */
        float pairs[256];
        r.n[i] = r.n[i] < 128 ? r.n[i] : 128;
        for (size_t k = 0; k < r.n[i]; k++) {
            pairs[2 * k] = r.t[i][k];
            memcpy(&pairs[2 * k + 1], &r.idx[i][k], 4);
        }
        qsort(pairs, r.n[i], 2 * sizeof(float), cmp_ht);
        for (size_t k = 0; k < r.n[i]; k++) {
            r.t[i][k] = pairs[2 * k];
            memcpy(&r.idx[i][k], &pairs[2 * k + 1], 4);
        }
    }
    free(ax);
    free(ay);
    free(ci);
    free(ct);
    for (int k = 0; k < 4; k++)
        free(g[k]);
    return r;
}

static void ref_free(ref_hits *r)
{
    free(r->n);
    free(r->idx);
    free(r->t);
    free(r->best);
    free(r->bt);
    free(r->px);
    free(r->py);
    free(r->nx);
    free(r->ny);
}

/* Segments from anywhere around the box, up to 1.5 periods long in any direction. */
static void make_batch(const pbox *b, batch *q, size_t m, float thickness, int kind)
{
    batch_alloc_arrays(q, m, 0);
    const double wx = b->b[2] - b->b[0], wy = b->b[3] - b->b[1];
    for (size_t i = 0; i < m; i++) {
        q->ax[i] = (float)(b->b[0] + wx * (1.6 * urand() - 0.3));
        q->ay[i] = (float)(b->b[1] + wy * (1.6 * urand() - 0.3));
        const double a = 6.283185307179586 * urand(), len = 1.5 * fmin(wx, wy) * urand();
        q->dx[i] = (float)(len * cos(a));
        q->dy[i] = (float)(len * sin(a));
        if (kind && urand() < 0.5) { /* along a non-periodic axis only: bounded */
            q->dx[i] = b->L[0] > 0.0 ? 0.0f : q->dx[i];
            q->dy[i] = b->L[1] > 0.0 ? 0.0f : q->dy[i];
        }
    }
    q->qs = hs_queries_segments(q->ax, q->ay, q->dx, q->dy, m);
    q->qs.q_all = thickness;
    if (kind > 0)
        q->qs.tmax_all = INFINITY;
    if (kind == 2)
        q->qs.tmin_all = -INFINITY;
}

/* Whether query i of q meets infinitely many images (invalid in the box). */
static int unbounded(const pbox *b, const batch *q, size_t i)
{
    const int inf = isinf(q->qs.tmin_all) || isinf(q->qs.tmax_all);
    return inf && ((b->L[0] > 0.0 && q->dx[i] != 0.0f) || (b->L[1] > 0.0 && q->dy[i] != 0.0f));
}

/* All-hits into the caller's arrays (hs_grid_all_into), kept here. */
typedef struct into {
    int64_t *off, *query, *idx;
    float *t;
} into;

static int place(void *ctx, size_t count, size_t total, hs_hits_into *dst)
{
    into *a = ctx;
    a->off = xcalloc(count + 1, sizeof(int64_t));
    a->query = xcalloc(total, sizeof(int64_t));
    a->idx = xcalloc(total, sizeof(int64_t));
    a->t = xcalloc(total, sizeof(float));
    dst->offsets = a->off;
    dst->query = a->query;
    dst->idx = a->idx;
    dst->t = a->t;
    return 0;
}

static void check_batch(const pbox *b, hs_circles *cs, const batch *q, hs_semantics sem,
                        int threads, hs_isa isa, size_t *hits, size_t *wrapped)
{
    const size_t m = q->m;
    ref_hits r = reference(b, cs, q, sem, isa);
    hs_batch_opts o = hs_batch_opts_default();
    o.sem = sem;
    o.threads = threads;
    o.isa = isa;
    hs_batch_stats st;
    o.stats = &st;
    uint32_t *idx = xcalloc(m, 4), *cnt = xcalloc(m, 4);
    float *t = xcalloc(m, 4), *px = xcalloc(m, 4), *py = xcalloc(m, 4), *nx = xcalloc(m, 4),
          *ny = xcalloc(m, 4);
    uint8_t *any = xcalloc(m, 1);
    size_t invalid = 0;
    for (size_t i = 0; i < m; i++)
        invalid += (size_t)unbounded(b, q, i);
    const hs_status want = invalid ? HS_E_INVALID_QUERY : HS_OK;
    const hs_closest_out co = {idx, t, px, py, nx, ny, NULL};
    assert_int_equal(hs_grid_closest(b->g, &q->qs, &o, co), want);
    assert_int_equal(st.invalid, invalid);
    assert_int_equal(hs_grid_any(b->g, &q->qs, &o, any), want);
    assert_int_equal(hs_grid_count_hits(b->g, &q->qs, &o, cnt), want);
    hs_hits h;
    assert_int_equal(hs_grid_all(b->g, &q->qs, &o, &h), want);
    into a = {NULL, NULL, NULL, NULL};
    assert_int_equal(hs_grid_all_into(b->g, &q->qs, &o, place, &a), want);
    for (size_t i = 0; i <= m; i++)
        assert_int_equal(a.off[i], h.offsets[i]);
    for (size_t k = 0; k < h.total; k++) {
        assert_true(a.idx[k] == h.idx[k] && a.t[k] == h.t[k]);
        assert_true(a.query[k] >= 0 && h.offsets[a.query[k]] <= k && k < h.offsets[a.query[k] + 1]);
    }
    free(a.off);
    free(a.query);
    free(a.idx);
    free(a.t);
    for (size_t i = 0; i < m; i++) {
        const size_t n = unbounded(b, q, i) ? 0 : r.n[i];
        assert_true(n < 128);
        assert_int_equal(cnt[i], n);
        assert_int_equal(any[i], n > 0);
        assert_int_equal(h.offsets[i + 1] - h.offsets[i], n);
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(h.idx[h.offsets[i] + k], r.idx[i][k]);
            assert_true(h.t[h.offsets[i] + k] == r.t[i][k]);
        }
        if (n == 0) {
            assert_int_equal(idx[i], HS_NONE);
            continue;
        }
        *hits += 1;
        *wrapped +=
            (size_t)(px[i] < b->b[0] || px[i] > b->b[2] || py[i] < b->b[1] || py[i] > b->b[3]);
        if (idx[i] != r.best[i] || t[i] != r.bt[i] || px[i] != r.px[i] || py[i] != r.py[i] ||
            nx[i] != r.nx[i] || ny[i] != r.ny[i])
            fail_msg("query %zu: closest %u t %a p (%a, %a), reference %u t %a p (%a, %a)", i,
                     idx[i], (double)t[i], (double)px[i], (double)py[i], r.best[i], (double)r.bt[i],
                     (double)r.px[i], (double)r.py[i]);
    }
    hs_hits_free(&h);
    free(idx);
    free(cnt);
    free(t);
    free(px);
    free(py);
    free(nx);
    free(ny);
    free(any);
    ref_free(&r);
}

static void test_queries_match_reference(void **state)
{
    (void)state;
    const unsigned axes[3] = {HS_PERIODIC_XY, HS_PERIODIC_X, HS_PERIODIC_Y};
    const hs_semantics sems[3] = {HS_SOLID, HS_BOUNDARY, HS_SOLID_SKIP_START};
    for (int c = 0; c < 9; c++) {
        pbox b;
        pbox_make(&b, axes[c % 3], scale(600), 500u + (uint64_t)c, 3.0, 8.0, 0.3, 0.1);
        pbox_build(&b, 0);
        hs_circles *wcs;
        assert_int_equal(hs_circles_create(b.wx, b.wy, b.s.r, NULL, b.s.n, &wcs, NULL), HS_OK);
        const int kind = c / 3; /* segments, rays, lines */
        batch q;
        make_batch(&b, &q, scale(400), c % 2 ? 0.75f : 0.0f, kind);
        size_t hits = 0, wrapped = 0;
        check_batch(&b, wcs, &q, sems[c % 3], c % 2 ? 3 : 1, HS_ISA_AUTO, &hits, &wrapped);
        for (int isa = HS_ISA_SCALAR; kind == 0 && isa < HS_ISA_COUNT; isa++) {
            size_t h2 = 0, w2 = 0; /* every level gives the reference's answers too */
            if (hs_isa_supported((hs_isa)isa))
                check_batch(&b, wcs, &q, sems[c % 3], 2, (hs_isa)isa, &h2, &w2);
        }
        print_message(
            "axes %u kind %d sem %d: %zu of %zu queries hit, %zu of them outside the box\n", b.axes,
            kind, (int)sems[c % 3], hits, q.m, wrapped);
        assert_true(kind ? hits > 0 : hits > q.m / 10);
        if (kind == 0)
            assert_true(wrapped > 0);
        batch_free(&q);
        hs_circles_destroy(wcs);
        pbox_free(&b);
    }
}

/* A segment twice as long as the period, through a circle: it meets it twice (count 2, two
 * rows of all), the second time a period later in x; a ray across the box is invalid. */
static void test_wrap_around(void **state)
{
    (void)state;
    const float x[1] = {8.0f}, y[1] = {4.0f}, r[1] = {1.0f};
    hs_grid_opts o = {.cell_size = 0.0f, .threads = 1, .periodic = HS_PERIODIC_XY};
    o.box.max.x = 16.0f;
    o.box.max.y = 8.0f;
    hs_circles *cs;
    hs_grid *g;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 1, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, &o, &g), HS_OK);
    /* from (0, 4) over 32 in x: enters the circle at x = 7 (t 7/32) and at x = 23 (t 23/32) */
    const float ax[2] = {0.0f, 0.0f}, ay[2] = {4.0f, 4.0f}, dx[2] = {32.0f, 1.0f},
                dy[2] = {0.0f, 0.0f};
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, 1);
    uint32_t c[2];
    assert_int_equal(hs_grid_count_hits(g, &qs, NULL, c), HS_OK);
    assert_int_equal(c[0], 2);
    hs_hits h;
    assert_int_equal(hs_grid_all(g, &qs, NULL, &h), HS_OK);
    assert_int_equal(h.total, 2);
    assert_true(h.t[0] == 7.0f / 32.0f && h.t[1] == 23.0f / 32.0f);
    hs_hits_free(&h);
    uint32_t idx[2];
    float t[2], px[2], py[2], nx[2], ny[2];
    const hs_closest_out co = {idx, t, px, py, nx, ny, NULL};
    /* starting at x = -9 (the circle's image at -8 first): the point in the query's frame */
    const float bx[1] = {-9.0f};
    qs.ax = bx;
    assert_int_equal(hs_grid_closest(g, &qs, NULL, co), HS_OK);
    assert_true(idx[0] == 0 && t[0] == 0.0f && px[0] == -9.0f); /* starts inside: t 0 */
    /* a ray along x meets infinitely many images: invalid, a miss */
    const float ex[2] = {1.0f, -0.5f};
    qs = hs_queries_segments(ax, ay, ex, dy, 2);
    qs.tmax_all = INFINITY;
    hs_batch_stats st;
    hs_batch_opts bo = hs_batch_opts_default();
    bo.stats = &st;
    assert_int_equal(hs_grid_closest(g, &qs, &bo, co), HS_E_INVALID_QUERY);
    assert_true(st.invalid == 2 && st.first_invalid == 0 && idx[0] == HS_NONE);
    /* more than HS_PERIODIC_MAX_IMAGES images: invalid too */
    const float far[1] = {16.0f * (HS_PERIODIC_MAX_IMAGES + 2)};
    qs = hs_queries_segments(ax, ay, far, dy, 1);
    assert_int_equal(hs_grid_any(g, &qs, &bo, (uint8_t *)c), HS_E_INVALID_QUERY);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

int main(void)
{
    quick = test_quick();
    printf("test_periodic_queries: %s scale\n",
           quick ? "quick (HS_TEST_QUICK or sanitizers)" : "full");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queries_match_reference),
        cmocka_unit_test(test_wrap_around),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
