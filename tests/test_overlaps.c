/* SPDX-License-Identifier: MIT */
/* Tests for the disc overlap queries: hs_grid_overlap_discs (many discs, CSR out) and
 * hs_grid_overlap_circle, in plain and periodic grids, against every circle tested in double
 * (in a periodic box at its image nearest to the disc's centre); masks, points, invalid discs,
 * thread counts. */
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

/* Discs around the box (some far outside it, by several periods), radii up to rmax, a tenth
 * of them points; masks of one bit among four, on circles and discs. */
typedef struct discs {
    size_t m;
    float *x, *y, *r;
    uint32_t *mask;
} discs;

static discs make_discs(const pbox *b, size_t m, double rmax)
{
    discs d = {m, xcalloc(m, sizeof(float)), xcalloc(m, sizeof(float)), xcalloc(m, sizeof(float)),
               xcalloc(m, sizeof(uint32_t))};
    for (size_t q = 0; q < m; q++) {
        const double wx = b->b[2] - b->b[0], wy = b->b[3] - b->b[1];
        const double far = urand() < 0.2 ? 3.0 : 1.2;
        d.x[q] = (float)(b->b[0] + wx * (far * urand() - 0.5 * (far - 1.0)));
        d.y[q] = (float)(b->b[1] + wy * (far * urand() - 0.5 * (far - 1.0)));
        d.r[q] = urand() < 0.1 ? 0.0f : (float)(rmax * urand());
        d.mask[q] = 1u << irand(4);
    }
    return d;
}

static void discs_free(discs *d)
{
    free(d->x);
    free(d->y);
    free(d->r);
    free(d->mask);
}

static double wrap_d(double v, double lo, double L)
{
    return L > 0.0 ? v - floor((v - lo) / L) * L : v;
}

static int disc_overlap(float xa, float ya, float ra, float xb, float yb, float rb)
{
    const double dx = (double)xa - xb, dy = (double)ya - yb, s = (double)ra + rb;
    return dx * dx + dy * dy <= s * s;
}

/* Whether circle k overlaps disc q: in a periodic box at its image nearest to the disc's
 * centre wrapped into the box, in double. */
static int ref_overlap(const pbox *b, const discs *d, size_t q, size_t k, int periodic)
{
    const float rq = d->r[q];
    if (!periodic)
        return disc_overlap(d->x[q], d->y[q], rq, b->wx[k], b->wy[k], b->s.r[k]);
    const double cx = wrap_d(d->x[q], b->b[0], b->L[0]), cy = wrap_d(d->y[q], b->b[1], b->L[1]);
    const double sx = b->L[0] > 0.0 ? round((cx - (double)b->wx[k]) / b->L[0]) : 0.0;
    const double sy = b->L[1] > 0.0 ? round((cy - (double)b->wy[k]) / b->L[1]) : 0.0;
    const double ex = ((double)b->wx[k] + sx * b->L[0]) - cx;
    const double ey = ((double)b->wy[k] + sy * b->L[1]) - cy;
    const double R = (double)rq + (double)b->s.r[k];
    return ex * ex + ey * ey <= R * R;
}

/* Every row against every circle. */
static size_t check_rows(const pbox *b, const discs *d, const hs_overlaps *o, int periodic,
                         int masked)
{
    assert_int_equal(o->count, d->m);
    assert_int_equal(o->offsets[0], 0);
    size_t total = 0;
    for (size_t q = 0; q < d->m; q++) {
        size_t at = o->offsets[q];
        for (size_t k = 0; k < b->s.n; k++) {
            const int pass = !masked || (b->s.mask[k] & d->mask[q]) != 0;
            if (!pass || !ref_overlap(b, d, q, k, periodic))
                continue;
            if (at >= o->offsets[q + 1] || o->idx[at] != k)
                fail_msg("disc %zu: circle %zu missing or out of order", q, k);
            at++;
        }
        if (at != o->offsets[q + 1])
            fail_msg("disc %zu: %zu circles more than the reference", q, o->offsets[q + 1] - at);
        total += at - o->offsets[q];
    }
    assert_int_equal(total, o->total);
    return total;
}

static void run_case(unsigned axes, uint64_t seed, int masked)
{
    pbox b;
    pbox_make(&b, axes, scale(3000), seed, 2.0, 12.0, 0.3, 0.2);
    if (masked) {
        b.s.mask = xcalloc(b.s.n, sizeof(uint32_t));
        for (size_t k = 0; k < b.s.n; k++)
            b.s.mask[k] = (uint32_t)irand(16);
    }
    const hs_grid_opts o = pbox_opts(&b, 0);
    /* a plain grid holds the wrapped circles as they are */
    assert_int_equal(hs_circles_create(axes ? b.s.x : b.wx, axes ? b.s.y : b.wy, b.s.r, b.s.mask,
                                       b.s.n, &b.s.cs, NULL),
                     HS_OK);
    assert_int_equal(hs_grid_build(b.s.cs, &o, &b.g), HS_OK);
    discs d = make_discs(&b, scale(2000), 25.0);
    hs_batch_opts bo = hs_batch_opts_default();
    hs_overlaps res[2];
    for (int t = 0; t < 2; t++) {
        bo.threads = t ? 3 : 1;
        assert_int_equal(
            hs_grid_overlap_discs(b.g, d.x, d.y, d.r, masked ? d.mask : NULL, d.m, &bo, &res[t]),
            HS_OK);
    }
    const size_t total = check_rows(&b, &d, &res[0], axes != 0, masked);
    print_message("axes %u%s: %zu discs, %zu overlaps\n", axes, masked ? ", masks" : "", d.m,
                  total);
    assert_true(total > d.m);
    assert_memory_equal(res[0].offsets, res[1].offsets, (d.m + 1) * sizeof(size_t));
    assert_memory_equal(res[0].idx, res[1].idx, total * sizeof(uint32_t));
    /* the one-disc call gives each row */
    uint32_t *row = xcalloc(b.s.n, sizeof(uint32_t));
    for (size_t q = 0; q < d.m; q += 7) {
        size_t found = 0;
        const hs_circle c = {d.x[q], d.y[q], d.r[q]};
        assert_int_equal(
            hs_grid_overlap_circle(b.g, c, masked ? d.mask[q] : UINT32_MAX, row, b.s.n, &found),
            HS_OK);
        assert_int_equal(found, res[0].offsets[q + 1] - res[0].offsets[q]);
        if (found)
            assert_memory_equal(row, res[0].idx + res[0].offsets[q], found * sizeof *row);
    }
    free(row);
    hs_overlaps_free(&res[0]);
    hs_overlaps_free(&res[1]);
    discs_free(&d);
    pbox_free(&b);
}

static void test_plain(void **state)
{
    (void)state;
    run_case(0u, 1u, 0);
    run_case(0u, 2u, 1);
}

static void test_periodic(void **state)
{
    (void)state;
    run_case(HS_PERIODIC_XY, 3u, 0);
    run_case(HS_PERIODIC_X, 4u, 1);
    run_case(HS_PERIODIC_Y, 5u, 0);
    run_case(HS_PERIODIC_XY, 6u, 1);
}

/* A disc larger than the box meets each circle once; one across a corner meets those on the
 * far side. */
static void test_periodic_cases(void **state)
{
    (void)state;
    const float x[3] = {0.5f, 15.5f, 8.0f}, y[3] = {0.5f, 7.5f, 4.0f}, r[3] = {0.25f, 0.25f, 0.25f};
    hs_grid_opts o = {.cell_size = 0.0f, .threads = 1, .periodic = HS_PERIODIC_XY};
    o.box.max.x = 16.0f;
    o.box.max.y = 8.0f;
    hs_circles *cs;
    hs_grid *g;
    assert_int_equal(hs_circles_create(x, y, r, NULL, 3, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, &o, &g), HS_OK);
    uint32_t idx[4];
    size_t found;
    /* the corner (0, 0) = (16, 8) = (32, -8): both corner circles, 0.707 away */
    const float cx[3] = {0.0f, 16.0f, 32.0f}, cy[3] = {0.0f, 8.0f, -8.0f};
    for (int k = 0; k < 3; k++) {
        const hs_circle c = {cx[k], cy[k], 0.5f};
        assert_int_equal(hs_grid_overlap_circle(g, c, UINT32_MAX, idx, 4, &found), HS_OK);
        assert_int_equal(found, 2);
        assert_true(idx[0] == 0 && idx[1] == 1);
    }
    const hs_circle huge = {3.0f, 3.0f, 100.0f};
    assert_int_equal(hs_grid_overlap_circle(g, huge, UINT32_MAX, idx, 4, &found), HS_OK);
    assert_int_equal(found, 3);
    /* invalid discs: empty rows, counted */
    const float dx[3] = {1.0f, NAN, 2.0f}, dy[3] = {1.0f, 1.0f, 1.0f}, dr[3] = {1.0f, 1.0f, -1.0f};
    hs_batch_stats st;
    hs_batch_opts bo = hs_batch_opts_default();
    bo.stats = &st;
    hs_overlaps ov;
    assert_int_equal(hs_grid_overlap_discs(g, dx, dy, dr, NULL, 3, &bo, &ov), HS_E_INVALID_QUERY);
    assert_int_equal(st.invalid, 2);
    assert_int_equal(st.first_invalid, 1);
    assert_int_equal(ov.count, 3);
    assert_true(ov.offsets[1] == 1 && ov.idx[0] == 0 && ov.offsets[3] == 1);
    hs_overlaps_free(&ov);
    /* points (r NULL), an empty batch, errors */
    assert_int_equal(hs_grid_overlap_discs(g, x, y, NULL, NULL, 3, NULL, &ov), HS_OK);
    assert_int_equal(ov.total, 3);
    hs_overlaps_free(&ov);
    assert_int_equal(hs_grid_overlap_discs(g, NULL, NULL, NULL, NULL, 0, NULL, &ov), HS_OK);
    assert_true(ov.count == 0 && ov.offsets[0] == 0);
    hs_overlaps_free(&ov);
    assert_int_equal(hs_grid_overlap_discs(g, NULL, y, NULL, NULL, 3, NULL, &ov), HS_E_NULL);
    assert_int_equal(hs_grid_overlap_discs(NULL, x, y, NULL, NULL, 3, NULL, &ov), HS_E_NULL);
    bo.threads = -1;
    assert_int_equal(hs_grid_overlap_discs(g, x, y, NULL, NULL, 3, &bo, &ov), HS_E_RANGE);
    assert_null(ov.offsets);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

int main(void)
{
    quick = test_quick();
    printf("test_overlaps: %s scale\n", quick ? "quick (HS_TEST_QUICK or sanitizers)" : "full");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_periodic),
        cmocka_unit_test(test_periodic_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
