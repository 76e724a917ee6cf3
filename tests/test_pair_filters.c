/* SPDX-License-Identifier: MIT */
/* Tests for the filters of grid.h (Box2D's category and mask bits): hs_grid_pairs_filtered,
 * hs_grid_swept_pairs_filtered, hs_grid_overlap_discs_filtered and
 * hs_grid_overlap_circle_filtered, against a brute force in double (plain grids) and against
 * the unfiltered call's answer with the filter applied afterwards (every grid: the same pairs
 * in the same order, with the same values), with random filters, at several thread counts
 * and on every ISA level the machine has. */
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

/* Circles in [0, 100)^2: radii 0.2 .. 1.2, a few up to 6 (the grid's level of big ones), a
 * few duplicated centres; categories of one or two bits among four, or 0; collide bits of
 * the same kind. masked: the set has categories (else every bit). */
typedef struct fscene {
    size_t n;
    float *x, *y, *r;
    uint32_t *cat, *col;
    int masked;
    hs_grid *g;
} fscene;

static uint32_t random_bits(void)
{
    const unsigned k = irand(10);
    return k == 0 ? 0u : k < 6 ? 1u << irand(4) : (1u << irand(4)) | (1u << irand(4));
}

static void fscene_make(fscene *f, size_t n, uint64_t seed, int masked, unsigned periodic)
{
    rng_state = seed;
    memset(f, 0, sizeof *f);
    f->n = n;
    f->masked = masked;
    f->x = xcalloc(n, sizeof(float));
    f->y = xcalloc(n, sizeof(float));
    f->r = xcalloc(n, sizeof(float));
    f->cat = xcalloc(n, sizeof(uint32_t));
    f->col = xcalloc(n, sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && irand(50) == 0) {
            const size_t k = irand((unsigned)i);
            f->x[i] = f->x[k];
            f->y[i] = f->y[k];
        } else {
            f->x[i] = frange(0.0, 99.99);
            f->y[i] = frange(0.0, 99.99);
        }
        f->r[i] = irand(100) == 0 ? frange(3.0, 6.0) : frange(0.2, 1.2);
        f->cat[i] = random_bits();
        f->col[i] = random_bits();
    }
    hs_circles *cs = NULL;
    assert_int_equal(hs_circles_create(f->x, f->y, f->r, masked ? f->cat : NULL, n, &cs, NULL),
                     HS_OK);
    hs_grid_opts o = {.periodic = periodic};
    o.box.max.x = 100.0f;
    o.box.max.y = 100.0f;
    assert_int_equal(hs_grid_build(cs, &o, &f->g), HS_OK);
    hs_circles_destroy(cs);
}

static void fscene_free(fscene *f)
{
    hs_grid_destroy(f->g);
    free(f->x);
    free(f->y);
    free(f->r);
    free(f->cat);
    free(f->col);
}

/* The filter of grid.h, written out: the set's categories (every bit without them). */
static int passes(const fscene *f, size_t i, size_t j)
{
    const uint32_t ci = f->masked ? f->cat[i] : UINT32_MAX, cj = f->masked ? f->cat[j] : UINT32_MAX;
    return (ci & f->col[j]) != 0 && (cj & f->col[i]) != 0;
}

static hs_batch_opts threads_opts(int threads)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    return o;
}

/* Plain grid: every pair i < j within skin that passes, in order, by brute force in double. */
static void check_brute(const fscene *f, const hs_pairs *p, double skin)
{
    size_t k = 0;
    for (size_t i = 0; i < f->n; i++)
        for (size_t j = i + 1; j < f->n; j++) {
            const double dx = (double)f->x[i] - f->x[j], dy = (double)f->y[i] - f->y[j];
            const double s = ((double)f->r[i] + f->r[j]) + skin;
            if (dx * dx + dy * dy > s * s || !passes(f, i, j))
                continue;
            if (k >= p->count || p->i[k] != i || p->j[k] != j)
                fail_msg("pair (%zu, %zu) missing or out of order at %zu", i, j, k);
            k++;
        }
    assert_int_equal(k, p->count);
}

/* got holds exactly the pairs of all that pass, in the same order, with the same outputs. */
static void check_subset(const fscene *f, const hs_pairs *all, const hs_pairs *got)
{
    size_t k = 0;
    for (size_t a = 0; a < all->count; a++) {
        if (!passes(f, all->i[a], all->j[a]))
            continue;
        assert_true(k < got->count);
        assert_int_equal(got->i[k], all->i[a]);
        assert_int_equal(got->j[k], all->j[a]);
        if (all->sx) {
            assert_int_equal(got->sx[k], all->sx[a]);
            assert_int_equal(got->sy[k], all->sy[a]);
        }
        if (all->nx) {
            assert_memory_equal(&got->nx[k], &all->nx[a], sizeof(float));
            assert_memory_equal(&got->ny[k], &all->ny[a], sizeof(float));
            assert_memory_equal(&got->distance[k], &all->distance[a], sizeof(float));
            assert_memory_equal(&got->gap[k], &all->gap[a], sizeof(float));
        }
        k++;
    }
    assert_int_equal(k, got->count);
}

static void run_pairs(unsigned periodic, int masked, uint64_t seed)
{
    fscene f;
    fscene_make(&f, test_quick() ? 1500 : 4000, seed, masked, periodic);
    const int threads[3] = {1, 3, 0};
    for (int t = 0; t < 3; t++) {
        const hs_batch_opts o = threads_opts(threads[t]);
        for (int skin10 = 0; skin10 <= 5; skin10 += 5) {
            const hs_pair_opts po = {(float)skin10 / 10.0f, HS_PAIRS_SHIFTS | HS_PAIRS_CONTACTS};
            hs_pairs all, got, bare;
            assert_int_equal(hs_grid_pairs_ex(f.g, &po, &o, &all), HS_OK);
            assert_int_equal(hs_grid_pairs_filtered(f.g, &po, f.col, &o, &got), HS_OK);
            check_subset(&f, &all, &got);
            assert_int_equal(hs_grid_pairs_filtered(f.g, NULL, f.col, &o, &bare), HS_OK);
            if (!periodic && skin10 == 0)
                check_brute(&f, &bare, 0.0);
            hs_pairs_free(&all);
            hs_pairs_free(&got);
            hs_pairs_free(&bare);
        }
    }
    fscene_free(&f);
}

static void test_pairs_plain(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        run_pairs(0u, 1, seed);
        run_pairs(0u, 0, seed + 100);
    }
}

static void test_pairs_periodic(void **state)
{
    (void)state;
    run_pairs(HS_PERIODIC_XY, 1, 7);
    run_pairs(HS_PERIODIC_X, 1, 8);
    run_pairs(HS_PERIODIC_Y, 0, 9);
}

/* Within skin on a plain grid, by brute force, on every ISA level (pairs have no kernel of
 * their own, but the level must not matter). */
static void test_pairs_skin_brute(void **state)
{
    (void)state;
    fscene f;
    fscene_make(&f, 2500, 11, 1, 0u);
    const hs_pair_opts po = {0.7f, 0u};
    for (int isa = 0; isa < (int)HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        hs_batch_opts o = threads_opts(2);
        o.isa = (hs_isa)isa;
        hs_pairs p;
        assert_int_equal(hs_grid_pairs_filtered(f.g, &po, f.col, &o, &p), HS_OK);
        check_brute(&f, &p, 0.7);
        hs_pairs_free(&p);
    }
    fscene_free(&f);
}

/* No collide bits: the unfiltered call, bit for bit, whatever the categories. Collide bits
 * of every bit on a set without categories: the same again. Collide bits 0: no pair. */
static void test_pairs_no_filter(void **state)
{
    (void)state;
    fscene f;
    fscene_make(&f, 2000, 21, 1, 0u);
    const hs_batch_opts o = threads_opts(2);
    hs_pairs a, b;
    assert_int_equal(hs_grid_pairs(f.g, &o, &a), HS_OK);
    assert_int_equal(hs_grid_pairs_filtered(f.g, NULL, NULL, &o, &b), HS_OK);
    assert_true(a.count > 0);
    assert_int_equal(a.count, b.count);
    assert_memory_equal(a.i, b.i, a.count * sizeof(uint32_t));
    assert_memory_equal(a.j, b.j, a.count * sizeof(uint32_t));
    hs_pairs_free(&b);
    for (size_t i = 0; i < f.n; i++)
        f.col[i] = 0u;
    assert_int_equal(hs_grid_pairs_filtered(f.g, NULL, f.col, &o, &b), HS_OK);
    assert_int_equal(b.count, 0);
    hs_pairs_free(&b);
    fscene_free(&f);
    fscene_make(&f, 2000, 21, 0, 0u);
    for (size_t i = 0; i < f.n; i++)
        f.col[i] = UINT32_MAX;
    assert_int_equal(hs_grid_pairs_filtered(f.g, NULL, f.col, &o, &b), HS_OK);
    assert_int_equal(a.count, b.count);
    assert_memory_equal(a.i, b.i, a.count * sizeof(uint32_t));
    assert_memory_equal(a.j, b.j, a.count * sizeof(uint32_t));
    hs_pairs_free(&a);
    hs_pairs_free(&b);
    fscene_free(&f);
}

/* Swept pairs: the unfiltered answer with the filter applied afterwards, every field; with a
 * few fast movers (their own search) and in a periodic box. */
static void run_swept(unsigned periodic, uint64_t seed)
{
    fscene f;
    fscene_make(&f, test_quick() ? 1500 : 4000, seed, 1, periodic);
    float *dx = xcalloc(f.n, sizeof(float)), *dy = xcalloc(f.n, sizeof(float));
    for (size_t i = 0; i < f.n; i++) {
        const double len = irand(40) == 0 ? 12.0 : 1.0;
        dx[i] = frange(-len, len);
        dy[i] = frange(-len, len);
    }
    const int threads[2] = {1, 4};
    for (int t = 0; t < 2; t++) {
        const hs_batch_opts o = threads_opts(threads[t]);
        hs_swept_pairs all, got;
        assert_int_equal(hs_grid_swept_pairs(f.g, dx, dy, &o, &all), HS_OK);
        assert_int_equal(hs_grid_swept_pairs_filtered(f.g, dx, dy, f.col, &o, &got), HS_OK);
        size_t k = 0;
        for (size_t a = 0; a < all.count; a++) {
            if (!passes(&f, all.i[a], all.j[a]))
                continue;
            assert_true(k < got.count);
            assert_int_equal(got.i[k], all.i[a]);
            assert_int_equal(got.j[k], all.j[a]);
            assert_memory_equal(&got.t[k], &all.t[a], sizeof(float));
            assert_memory_equal(&got.nx[k], &all.nx[a], sizeof(float));
            assert_memory_equal(&got.ny[k], &all.ny[a], sizeof(float));
            assert_int_equal(got.overlapping[k], all.overlapping[a]);
            if (all.sx) {
                assert_int_equal(got.sx[k], all.sx[a]);
                assert_int_equal(got.sy[k], all.sy[a]);
            }
            k++;
        }
        assert_int_equal(k, got.count);
        assert_true(got.count < all.count);
        hs_swept_pairs_free(&all);
        hs_swept_pairs_free(&got);
    }
    free(dx);
    free(dy);
    fscene_free(&f);
}

static void test_swept(void **state)
{
    (void)state;
    run_swept(0u, 31);
    run_swept(HS_PERIODIC_XY, 32);
}

/* Overlap queries: disc q (category cq, mask mq) meets circle k when they overlap, the set's
 * category of k meets mq and k's collide bits meet cq; by brute force, both calls. */
static void test_overlaps(void **state)
{
    (void)state;
    fscene f;
    fscene_make(&f, 3000, 41, 1, 0u);
    enum { M = 300 };
    float x[M], y[M], r[M];
    uint32_t mq[M], cq[M];
    for (size_t q = 0; q < M; q++) {
        x[q] = frange(-5.0, 105.0);
        y[q] = frange(-5.0, 105.0);
        r[q] = irand(10) == 0 ? 0.0f : frange(0.0, 8.0);
        mq[q] = irand(4) == 0 ? UINT32_MAX : random_bits();
        cq[q] = random_bits();
    }
    hs_overlaps o;
    const hs_batch_opts bo = threads_opts(3);
    assert_int_equal(hs_grid_overlap_discs_filtered(f.g, x, y, r, mq, cq, f.col, M, &bo, &o),
                     HS_OK);
    uint32_t *buf = xcalloc(f.n, sizeof(uint32_t));
    size_t total = 0;
    for (size_t q = 0; q < M; q++) {
        size_t at = o.offsets[q];
        for (size_t k = 0; k < f.n; k++) {
            const double ex = (double)x[q] - f.x[k], ey = (double)y[q] - f.y[k];
            const double s = (double)r[q] + f.r[k];
            const int pass = (f.cat[k] & mq[q]) != 0 && (f.col[k] & cq[q]) != 0;
            if (!pass || ex * ex + ey * ey > s * s)
                continue;
            if (at >= o.offsets[q + 1] || o.idx[at] != k)
                fail_msg("disc %zu: circle %zu missing or out of order", q, k);
            at++;
        }
        assert_int_equal(at, o.offsets[q + 1]);
        total += at - o.offsets[q];
        size_t found = 0;
        const hs_circle c = {x[q], y[q], r[q]};
        assert_int_equal(
            hs_grid_overlap_circle_filtered(f.g, c, mq[q], cq[q], f.col, buf, f.n, &found), HS_OK);
        assert_int_equal(found, o.offsets[q + 1] - o.offsets[q]);
        if (found)
            assert_memory_equal(buf, o.idx + o.offsets[q], found * sizeof(uint32_t));
    }
    assert_true(total > 0);
    hs_overlaps_free(&o);
    /* collide NULL: the plain calls */
    hs_overlaps a, b;
    assert_int_equal(hs_grid_overlap_discs(f.g, x, y, r, mq, M, &bo, &a), HS_OK);
    assert_int_equal(hs_grid_overlap_discs_filtered(f.g, x, y, r, mq, cq, NULL, M, &bo, &b), HS_OK);
    assert_int_equal(a.total, b.total);
    assert_memory_equal(a.offsets, b.offsets, (M + 1) * sizeof(size_t));
    if (a.total)
        assert_memory_equal(a.idx, b.idx, a.total * sizeof(uint32_t));
    hs_overlaps_free(&a);
    hs_overlaps_free(&b);
    free(buf);
    fscene_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_plain),
        cmocka_unit_test(test_pairs_periodic),
        cmocka_unit_test(test_pairs_skin_brute),
        cmocka_unit_test(test_pairs_no_filter),
        cmocka_unit_test(test_swept),
        cmocka_unit_test(test_overlaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
