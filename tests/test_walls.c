/* SPDX-License-Identifier: MIT */
/* Wall sets (hitscan/walls.h): copy / borrow, validation with the offending index, optional
 * thickness and mask, empty sets, padding. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "accuracy_ref.h"
#include "test_util.h"
#include "hitscan/narrow.h"
#include "hitscan/walls.h"
#include "circles.h"
#include "walls.h"
#include "walls_ref.h"

#define N_W 40

static float AX[N_W], AY[N_W], BX[N_W], BY[N_W], W[N_W];
static uint32_t M[N_W];

static void fill(void)
{
    for (size_t i = 0; i < N_W; i++) {
        AX[i] = (float)i - 20.0f;
        AY[i] = 1e6f - (float)i;
        BX[i] = AX[i] + (float)(i % 3); /* includes zero-length walls */
        BY[i] = AY[i] - 0.5f;
        W[i] = (float)(i % 4) * 0.25f; /* includes thin walls */
        M[i] = 1u << (i % 32);
    }
}

static void test_create_copies_and_pads(void **state)
{
    (void)state;
    fill();
    for (size_t n = 0; n <= N_W; n++) {
        for (int opt = 0; opt < 4; opt++) {
            const float *w = (opt & 1) ? W : NULL;
            const uint32_t *m = (opt & 2) ? M : NULL;
            hs_walls *ws = NULL;
            size_t bad = 0;
            assert_int_equal(hs_walls_create(AX, AY, BX, BY, w, m, n, &ws, &bad), HS_OK);
            assert_non_null(ws);
            assert_true(bad == (size_t)-1);
            assert_int_equal(hs_walls_count(ws), n);
            const float *arr[4] = {ws->ax, ws->ay, ws->bx, ws->by};
            const float *src[4] = {AX, AY, BX, BY};
            for (int j = 0; j < 4; j++) {
                assert_true((uintptr_t)arr[j] % HS_ALIGN == 0);
                assert_memory_equal(arr[j], src[j], n * sizeof(float));
                for (size_t i = n; i < n + HS_PAD_FLOATS; i++)
                    assert_true(isnan(arr[j][i]));
            }
            if (w) {
                assert_true((uintptr_t)ws->w % HS_ALIGN == 0);
                assert_memory_equal(ws->w, W, n * sizeof(float));
                assert_true(isnan(ws->w[n]));
            } else {
                assert_null(ws->w);
            }
            if (m) {
                assert_memory_equal(ws->mask, M, n * sizeof(uint32_t));
                assert_int_equal(ws->mask[n], 0);
            } else {
                assert_null(ws->mask);
            }
            assert_non_null(ws->owned);
            hs_walls_destroy(ws);
        }
    }
}

static void test_borrow_keeps_arrays(void **state)
{
    (void)state;
    fill();
    hs_walls *ws = NULL;
    assert_int_equal(hs_walls_borrow(AX, AY, BX, BY, W, M, N_W, &ws, NULL), HS_OK);
    assert_ptr_equal(ws->ax, AX);
    assert_ptr_equal(ws->by, BY);
    assert_ptr_equal(ws->w, W);
    assert_ptr_equal(ws->mask, M);
    assert_null(ws->owned);
    assert_int_equal(hs_walls_count(ws), N_W);
    hs_walls_destroy(ws);
    assert_int_equal(hs_walls_borrow(AX, AY, BX, BY, NULL, NULL, N_W, &ws, NULL), HS_OK);
    assert_null(ws->w);
    hs_walls_destroy(ws);
}

/* every array, every kind of bad value, each at a given index: that code and that index,
 * from both constructors, and *out NULL */
static void test_validation_names_index(void **state)
{
    (void)state;
    const struct {
        float v;
        hs_status want;
    } bad_vals[] = {{NAN, HS_E_NONFINITE},
                    {INFINITY, HS_E_NONFINITE},
                    {-INFINITY, HS_E_NONFINITE},
                    {2e18f, HS_E_RANGE},
                    {-2e18f, HS_E_RANGE}};
    float *arrs[5] = {AX, AY, BX, BY, W};
    for (int which = 0; which < 5; which++) {
        for (size_t b = 0; b < sizeof bad_vals / sizeof bad_vals[0]; b++) {
            if (which == 4 && bad_vals[b].v < 0 && isinf(bad_vals[b].v))
                continue; /* a thickness of -inf: NaN / inf checks come first, as for circles */
            for (int borrow = 0; borrow < 2; borrow++) {
                fill();
                size_t at = 7 + (size_t)which * 3;
                arrs[which][at] = bad_vals[b].v;
                arrs[which][at + 5] = NAN; /* a later bad wall is not the one named */
                hs_walls *ws = (hs_walls *)&ws;
                size_t bad = 0;
                hs_status s = borrow ? hs_walls_borrow(AX, AY, BX, BY, W, NULL, N_W, &ws, &bad)
                                     : hs_walls_create(AX, AY, BX, BY, W, NULL, N_W, &ws, &bad);
                hs_status want = bad_vals[b].want;
                if (which == 4 && bad_vals[b].v == -2e18f)
                    want = HS_E_NEG_RADIUS;
                assert_int_equal(s, want);
                assert_int_equal(bad, at);
                assert_null(ws);
            }
        }
    }
    fill();
    W[3] = -0.0f; /* negative zero is a thickness of zero */
    W[4] = -1e-30f;
    size_t bad = 0;
    hs_walls *ws = NULL;
    assert_int_equal(hs_walls_create(AX, AY, BX, BY, W, NULL, N_W, &ws, &bad), HS_E_NEG_RADIUS);
    assert_int_equal(bad, 4);
    /* thickness NULL: a bad coordinate is still found, and no thickness check applies */
    fill();
    BY[11] = NAN;
    assert_int_equal(hs_walls_create(AX, AY, BX, BY, NULL, NULL, N_W, &ws, &bad), HS_E_NONFINITE);
    assert_int_equal(bad, 11);
    assert_int_equal(hs_walls_borrow(AX, AY, BX, BY, NULL, NULL, 11, &ws, &bad), HS_OK);
    assert_true(bad == (size_t)-1);
    hs_walls_destroy(ws);
}

static void test_null_and_empty(void **state)
{
    (void)state;
    fill();
    hs_walls *ws = NULL;
    size_t bad = 0;
    assert_int_equal(hs_walls_create(AX, AY, BX, BY, NULL, NULL, 1, NULL, &bad), HS_E_NULL);
    assert_int_equal(hs_walls_create(AX, NULL, BX, BY, NULL, NULL, 1, &ws, &bad), HS_E_NULL);
    assert_null(ws);
    assert_int_equal(hs_walls_borrow(AX, AY, BX, NULL, NULL, NULL, 1, &ws, &bad), HS_E_NULL);
    assert_int_equal(hs_walls_create(AX, AY, BX, BY, NULL, NULL, HS_MAX_COUNT + 1, &ws, &bad),
                     HS_E_TOO_MANY);
    /* an empty set may have NULL arrays */
    assert_int_equal(hs_walls_create(NULL, NULL, NULL, NULL, NULL, NULL, 0, &ws, &bad), HS_OK);
    assert_int_equal(hs_walls_count(ws), 0);
    hs_walls_destroy(ws);
    assert_int_equal(hs_walls_borrow(NULL, NULL, NULL, NULL, NULL, NULL, 0, &ws, &bad), HS_OK);
    hs_walls_destroy(ws);
    hs_walls_destroy(NULL);
    assert_int_equal(hs_walls_count(NULL), 0);
}

/* Brute-force closest against the long double reference: a set of walls of mixed thickness
 * (some zero-length, some thin), random segment queries. A query with any wall in the
 * reference's tangency band is skipped; otherwise hit / miss must match, t must be the least
 * reference entry, and the wall found must enter there too (near-ties may pick either). */
#define NB 300

static float BAX[NB], BAY[NB], BBX[NB], BBY[NB], BW[NB];
static uint32_t BM[NB];

static void test_brute_closest(void **state)
{
    (void)state;
    const double S = 1e3;
    acc_rng g = {4242};
    for (size_t i = 0; i < NB; i++) {
        BAX[i] = (float)acc_uniform(&g, -S, S);
        BAY[i] = (float)acc_uniform(&g, -S, S);
        double l = i % 10 == 0 ? 0.0 : S * acc_uniform(&g, 0.001, 0.2);
        double an = acc_uniform(&g, 0, 6.283185307179586);
        BBX[i] = (float)(BAX[i] + l * cos(an));
        BBY[i] = (float)(BAY[i] + l * sin(an));
        BW[i] = i % 3 == 0 ? 0.0f : (float)(S * acc_pow10(&g, -4, -1.5));
        BM[i] = 1u << (i % 3);
    }
    hs_walls *ws = NULL;
    assert_int_equal(hs_walls_create(BAX, BAY, BBX, BBY, BW, BM, NB, &ws, NULL), HS_OK);
    long n_hit = 0, n_skip = 0, n_q = 0;
    /* under emulation (the aarch64 stage) a fifth: its long double is software there */
    const int iterations = test_emulated() ? 600 : 3000;
    for (int it = 0; it < iterations; it++) {
        float ax = (float)acc_uniform(&g, -S, S), ay = (float)acc_uniform(&g, -S, S);
        float dx = (float)acc_uniform(&g, -S, S), dy = (float)acc_uniform(&g, -S, S);
        float q = it % 2 ? 0.0f : (float)(S * acc_pow10(&g, -4, -2));
        uint32_t qm = it % 5 == 0 ? 1u : (it % 7 == 0 ? 0u : ~0u);
        hs_query qu = {{ax, ay}, {dx, dy}, 0.0f, 1.0f, q};
        hs_kq k = hs_kq_make(qu, HS_SOLID, qm);
        long double best = INFINITY, scale = 0;
        int amb = 0;
        for (size_t i = 0; i < NB; i++) {
            if ((BM[i] & qm) == 0u)
                continue;
            wr_result r = wr_query_wall(qu, BAX[i], BAY[i], BBX[i], BBY[i], BW[i]);
            int thin = (double)q + BW[i] == 0.0;
            if (BAX[i] == BBX[i] && BAY[i] == BBY[i] && thin)
                continue; /* a point: the circle test's band (test_walls_core covers it) */
            if (!(thin && r.margin == 0) && fabsl(r.margin) <= 0x1p-46L * r.scale)
                amb = 1;
            int hit = thin ? r.margin == 0 : r.margin < 0;
            if (hit && r.t < best)
                best = r.t;
            scale = r.scale > scale ? r.scale : scale;
        }
        if (amb) {
            n_skip++;
            continue;
        }
        n_q++;
        uint32_t idx = HS_NONE;
        hs_wall_hit h;
        int got = hs_walls_brute_closest(ws, &k, &idx, &h);
        assert_int_equal(got, best < INFINITY);
        if (!got)
            continue;
        n_hit++;
        assert_true((BM[idx] & qm) != 0u);
        double dl = hypot(dx, dy), tol = 0x1p-20 * (double)scale / dl;
        assert_true(fabs((double)h.t - (double)best) <= tol);
        wr_result r = wr_query_wall(qu, BAX[idx], BAY[idx], BBX[idx], BBY[idx], BW[idx]);
        assert_true(fabs((double)r.t - (double)best) <= tol);
    }
    print_message("%ld queries compared (%ld hits), %ld skipped in the band\n", n_q, n_hit, n_skip);
    assert_true(n_hit > iterations / 6 && n_q > iterations * 5 / 6);
    hs_walls_destroy(ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_copies_and_pads), cmocka_unit_test(test_borrow_keeps_arrays),
        cmocka_unit_test(test_validation_names_index), cmocka_unit_test(test_null_and_empty),
        cmocka_unit_test(test_brute_closest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
