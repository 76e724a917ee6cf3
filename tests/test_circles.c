/* SPDX-License-Identifier: MIT */
/* Tests for circle sets: copy / borrow, validation errors with the offending index, empty sets,
 * alignment and padding. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hitscan/batch.h"
#include "hitscan/narrow.h"
#include "circles.h"
#include "core.h"

#define N_BIG 3000 /* crosses the validator's 1024-circle blocks */

static float X[N_BIG], Y[N_BIG], R[N_BIG];
static uint32_t M[N_BIG];

static void fill(size_t n)
{
    for (size_t i = 0; i < n; i++) {
        X[i] = (float)i * 0.5f - 100.0f;
        Y[i] = 1e6f - (float)i;
        R[i] = (float)(i % 7) * 0.25f; /* includes r = 0 (points) */
        M[i] = 1u << (i % 32);
    }
}

static void test_create_copies_and_pads(void **state)
{
    (void)state;
    for (size_t n = 0; n <= 40; n++) {
        fill(n);
        hs_circles *cs = NULL;
        size_t bad = 0;
        assert_int_equal(hs_circles_create(X, Y, R, M, n, &cs, &bad), HS_OK);
        assert_non_null(cs);
        assert_true(bad == (size_t)-1); /* success clears the index */
        assert_int_equal(hs_circles_count(cs), n);
        const float *x = hs_circles_x(cs), *y = hs_circles_y(cs), *r = hs_circles_r(cs);
        const uint32_t *m = hs_circles_mask(cs);
        assert_non_null(x);
        assert_non_null(m);
        assert_true(x != X && m != M);
        assert_int_equal((uintptr_t)x % HS_ALIGN, 0);
        assert_int_equal((uintptr_t)y % HS_ALIGN, 0);
        assert_int_equal((uintptr_t)r % HS_ALIGN, 0);
        assert_int_equal((uintptr_t)m % HS_ALIGN, 0);
        assert_memory_equal(x, X, n * sizeof *x);
        assert_memory_equal(y, Y, n * sizeof *y);
        assert_memory_equal(r, R, n * sizeof *r);
        assert_memory_equal(m, M, n * sizeof *m);
        /* padding up to the next full 16-float vector past n: never hits, filtered out */
        size_t end = (n + HS_PAD_FLOATS - 1) / HS_PAD_FLOATS * HS_PAD_FLOATS + HS_PAD_FLOATS;
        for (size_t i = n; i < end; i++) {
            assert_true(isnan(x[i]) && isnan(y[i]) && isnan(r[i]));
            assert_int_equal(m[i], 0);
            /* and the reference hit test agrees that such a lane cannot hit */
            hs_kq k = hs_kq_make(hs_line((hs_vec2){0, 0}, (hs_vec2){1, 0}), HS_SOLID, ~0u);
            assert_int_equal(hs_pair_hits(&k, x[i], y[i], r[i]), 0);
        }
        /* a copy: later changes to the caller's arrays do not leak in */
        if (n) {
            X[0] = 12345.0f;
            assert_true(x[0] != 12345.0f);
        }
        hs_circles_destroy(cs);
    }
}

static void test_create_without_mask(void **state)
{
    (void)state;
    fill(100);
    hs_circles *cs = NULL;
    assert_int_equal(hs_circles_create(X, Y, R, NULL, 100, &cs, NULL), HS_OK);
    assert_null(hs_circles_mask(cs));
    assert_int_equal((uintptr_t)hs_circles_r(cs) % HS_ALIGN, 0);
    assert_int_equal(hs_circles_count(cs), 100);
    hs_circles_destroy(cs);
}

static void test_borrow_keeps_pointers(void **state)
{
    (void)state;
    fill(N_BIG);
    hs_circles *cs = NULL;
    /* deliberately misaligned by one float: borrowing accepts any alignment */
    assert_int_equal(hs_circles_borrow(X + 1, Y + 1, R + 1, M + 1, N_BIG - 1, &cs, NULL), HS_OK);
    assert_ptr_equal(hs_circles_x(cs), X + 1);
    assert_ptr_equal(hs_circles_y(cs), Y + 1);
    assert_ptr_equal(hs_circles_r(cs), R + 1);
    assert_ptr_equal(hs_circles_mask(cs), M + 1);
    assert_int_equal(hs_circles_count(cs), N_BIG - 1);
    hs_circles_destroy(cs);
}

typedef hs_status (*maker)(const float *, const float *, const float *, const uint32_t *, size_t,
                           hs_circles **, size_t *);

/* Poisons one field of one circle and checks status and index, for both constructors. */
static void expect_bad(maker mk, size_t n, size_t at, int field, float v, hs_status want)
{
    fill(n);
    float *arr = field == 0 ? X : field == 1 ? Y : R;
    arr[at] = v;
    static char poison;
    hs_circles *cs = (hs_circles *)(void *)&poison; /* must be reset to NULL on failure */
    size_t bad = 0;
    assert_int_equal(mk(X, Y, R, M, n, &cs, &bad), want);
    assert_null(cs);
    assert_int_equal(bad, at);
    /* bad_index is optional */
    assert_int_equal(mk(X, Y, R, M, n, &cs, NULL), want);
}

static void test_validation_errors(void **state)
{
    (void)state;
    maker makers[2] = {hs_circles_create, hs_circles_borrow};
    for (int k = 0; k < 2; k++) {
        maker mk = makers[k];
        expect_bad(mk, 10, 5, 0, NAN, HS_E_NONFINITE);
        expect_bad(mk, 10, 0, 1, INFINITY, HS_E_NONFINITE);
        expect_bad(mk, 10, 9, 0, -INFINITY, HS_E_NONFINITE);
        expect_bad(mk, 10, 7, 2, -1.0f, HS_E_NEG_RADIUS);
        expect_bad(mk, 10, 3, 2, -1e-30f, HS_E_NEG_RADIUS);
        expect_bad(mk, 10, 3, 2, NAN, HS_E_NONFINITE);
        expect_bad(mk, 10, 3, 2, INFINITY, HS_E_NONFINITE);
        expect_bad(mk, 10, 3, 2, -INFINITY, HS_E_NONFINITE);
        /* in a later validation block, and the very last circle */
        expect_bad(mk, N_BIG, 1500, 1, NAN, HS_E_NONFINITE);
        expect_bad(mk, N_BIG, N_BIG - 1, 2, -2.0f, HS_E_NEG_RADIUS);
        expect_bad(mk, N_BIG, 1024, 0, INFINITY, HS_E_NONFINITE);

        /* the first bad circle wins, whatever its kind */
        fill(N_BIG);
        R[2000] = -1.0f;
        X[2500] = NAN;
        Y[1200] = NAN;
        hs_circles *cs = NULL;
        size_t bad = 0;
        assert_int_equal(mk(X, Y, R, M, N_BIG, &cs, &bad), HS_E_NONFINITE);
        assert_int_equal(bad, 1200);
        Y[1200] = 0.0f;
        assert_int_equal(mk(X, Y, R, M, N_BIG, &cs, &bad), HS_E_NEG_RADIUS);
        assert_int_equal(bad, 2000);

        /* r = 0 and r = -0 are valid points */
        fill(4);
        R[0] = 0.0f;
        R[1] = -0.0f;
        assert_int_equal(mk(X, Y, R, M, 4, &cs, &bad), HS_OK);
        hs_circles_destroy(cs);
    }
}

static void test_argument_errors(void **state)
{
    (void)state;
    maker makers[2] = {hs_circles_create, hs_circles_borrow};
    fill(8);
    for (int k = 0; k < 2; k++) {
        maker mk = makers[k];
        hs_circles *cs = NULL;
        size_t bad = 0;
        assert_int_equal(mk(X, Y, R, M, 8, NULL, &bad), HS_E_NULL);
        assert_int_equal(mk(NULL, Y, R, M, 8, &cs, &bad), HS_E_NULL);
        assert_int_equal(mk(X, NULL, R, M, 8, &cs, &bad), HS_E_NULL);
        assert_int_equal(mk(X, Y, NULL, M, 8, &cs, &bad), HS_E_NULL);
        assert_null(cs);
        assert_true(bad == (size_t)-1);
        /* too many is refused before anything is read or allocated */
        assert_int_equal(mk(X, Y, R, M, HS_MAX_COUNT + 1, &cs, &bad), HS_E_TOO_MANY);
        assert_int_equal(mk(X, Y, R, M, SIZE_MAX, &cs, &bad), HS_E_TOO_MANY);
        assert_null(cs);
    }
}

static void test_empty_sets(void **state)
{
    (void)state;
    maker makers[2] = {hs_circles_create, hs_circles_borrow};
    for (int k = 0; k < 2; k++) {
        hs_circles *cs = NULL;
        assert_int_equal(makers[k](NULL, NULL, NULL, NULL, 0, &cs, NULL), HS_OK);
        assert_non_null(cs);
        assert_int_equal(hs_circles_count(cs), 0);
        hs_circles_destroy(cs);
        fill(1);
        assert_int_equal(makers[k](X, Y, R, M, 0, &cs, NULL), HS_OK);
        assert_int_equal(hs_circles_count(cs), 0);
        hs_circles_destroy(cs);
    }
    /* NULL-tolerant accessors and destroy */
    hs_circles_destroy(NULL);
    assert_int_equal(hs_circles_count(NULL), 0);
    assert_null(hs_circles_x(NULL));
    assert_null(hs_circles_mask(NULL));
}

/* Every status code has its own words; anything else is "unknown status". */
static void test_status_strings(void **state)
{
    (void)state;
    const hs_status all[] = {HS_OK,           HS_E_NULL,        HS_E_NONFINITE,
                             HS_E_NEG_RADIUS, HS_E_RANGE,       HS_E_TOO_MANY,
                             HS_E_NOMEM,      HS_E_UNSUPPORTED, HS_E_INVALID_QUERY,
                             HS_E_BUSY,       HS_E_BOX};
    const size_t k = sizeof all / sizeof all[0];
    for (size_t i = 0; i < k; i++) {
        const char *s = hs_status_string(all[i]);
        assert_non_null(s);
        assert_true(strlen(s) > 1);
        assert_string_not_equal(s, "unknown status");
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, hs_status_string(all[j]));
    }
    assert_string_equal(hs_status_string(HS_OK), "ok");
    assert_string_equal(hs_status_string((hs_status)1), "unknown status");
    assert_string_equal(hs_status_string((hs_status)-100), "unknown status");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_copies_and_pads), cmocka_unit_test(test_create_without_mask),
        cmocka_unit_test(test_borrow_keeps_pointers),  cmocka_unit_test(test_validation_errors),
        cmocka_unit_test(test_argument_errors),        cmocka_unit_test(test_empty_sets),
        cmocka_unit_test(test_status_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
