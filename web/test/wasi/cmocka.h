/* SPDX-License-Identifier: MIT */
/* A stand-in for the few cmocka calls of tests/test_golden_hash.c, so that the test compiles
 * unchanged as a WASI command (cmocka is not built for wasm32). A failed check prints where and
 * ends the program with status 1. */
#ifndef HITSCAN_WASI_CMOCKA_H
#define HITSCAN_WASI_CMOCKA_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline void hs_wasi_check(int ok, const char *what, const char *file, int line)
{
    if (!ok) {
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
        exit(1);
    }
}
#define assert_int_equal(a, b)                                                                     \
    hs_wasi_check((intmax_t)(a) == (intmax_t)(b), #a " == " #b, __FILE__, __LINE__)
#define assert_non_null(p) hs_wasi_check((p) != NULL, #p " != NULL", __FILE__, __LINE__)
#define print_message(...) printf(__VA_ARGS__)
#define print_error(...) fprintf(stderr, __VA_ARGS__)

struct CMUnitTest {
    const char *name;
    void (*test)(void **state);
};
#define cmocka_unit_test(f)                                                                        \
    {                                                                                              \
#f, f                                                                                      \
    }

static inline int hs_wasi_run(const char *group, const struct CMUnitTest *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        printf("[ RUN      ] %s.%s\n", group, t[i].name);
        t[i].test(NULL);
        printf("[       OK ] %s.%s\n", group, t[i].name);
    }
    return 0;
}
#define cmocka_run_group_tests_name(group, tests, setup, teardown)                                 \
    hs_wasi_run(group, tests, sizeof(tests) / sizeof((tests)[0]))

#endif
