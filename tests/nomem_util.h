/* SPDX-License-Identifier: MIT */
/* The allocation-failure tests' interposed allocator and their loop over every allocation a
 * call makes (test_nomem.c, test_nomem_periodic.c). Include after <cmocka.h>. */
#ifndef HS_NOMEM_UTIL_H
#define HS_NOMEM_UTIL_H

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "hitscan/types.h"

/* ---- the interposed allocator ----------------------------------------------------------
 * Linked with -Wl,--wrap=malloc,... against the static library (tests/CMakeLists.txt), so
 * every allocation the library's objects make comes here; libc, OpenMP and cmocka keep their
 * own. While armed, the call numbered fail_at (counted from 0 across all threads) fails. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t sz);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t al, size_t n);
int __real_posix_memalign(void **p, size_t al, size_t n);

static atomic_int armed;
static atomic_long calls, injected;
static long fail_at = -1;

static int fail_now(void)
{
    if (!atomic_load(&armed))
        return 0;
    if (atomic_fetch_add(&calls, 1) != fail_at)
        return 0;
    atomic_fetch_add(&injected, 1);
    return 1;
}

void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t sz) { return fail_now() ? NULL : __real_calloc(n, sz); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t al, size_t n)
{
    return fail_now() ? NULL : __real_aligned_alloc(al, n);
}
int __wrap_posix_memalign(void **p, size_t al, size_t n)
{
    return fail_now() ? ENOMEM : __real_posix_memalign(p, al, n);
}

static void arm(long k)
{
    atomic_store(&calls, 0);
    atomic_store(&injected, 0);
    fail_at = k;
    atomic_store(&armed, 1);
}

static int disarm(void)
{
    atomic_store(&armed, 0);
    return atomic_load(&injected) > 0;
}

/* Runs op with allocation k failing, for k = 0, 1, ... until a run makes no allocation k:
 * each allocation of the call has then failed once. check sees the status and whether a
 * failure was injected. Returns the number of allocation points. */
typedef hs_status (*op_fn)(void *ctx);
typedef void (*check_fn)(void *ctx, hs_status s, int failed);
static long each_failure(const char *name, op_fn op, check_fn check, void *ctx)
{
    long k = 0;
    for (;; k++) {
        arm(k);
        hs_status s = op(ctx);
        int failed = disarm();
        if (failed && s != HS_E_NOMEM && s != HS_OK) {
            fprintf(stderr, "%s: allocation %ld failed, status %d\n", name, k, (int)s);
            fail();
        }
        check(ctx, s, failed);
        if (!failed)
            break;
        assert_true(k < 100000);
    }
    if (getenv("HS_TEST_VERBOSE"))
        printf("%s: %ld allocation points\n", name, k);
    return k;
}

#endif
