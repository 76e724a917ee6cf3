/* SPDX-License-Identifier: MIT */
/* Tests for large buffers on 2 MB pages (src/memory.h): alignment, contents, sizes at the
 * edges, and on Linux that the advice covers whole 2 MB pages inside the buffer and nothing
 * outside it (the kernel's VmFlags "hg" in /proc/self/smaps). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1 /* MADV_HUGEPAGE */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <cmocka.h>

#include "memory.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

/* Fills n bytes with a pattern of the position and checks it back. */
static void fill(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 131u + 7u);
}

static int intact(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(i * 131u + 7u))
            return 0;
    return 1;
}

static void test_alloc_lines_sizes(void **state)
{
    (void)state;
    const size_t sizes[] = {0, 1, 63, 64, 65, 4096, (2u << 20) - 1, 2u << 20, (5u << 20) + 3};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        unsigned char *p = hs_alloc_lines(sizes[k]);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 64, 0);
#if defined(MADV_HUGEPAGE)
        if (sizes[k] >= (2u << 20))
            assert_int_equal((uintptr_t)p % HUGE_PAGE, 0);
#endif
        fill(p, sizes[k] ? sizes[k] : 64); /* a zero-byte request still holds a line */
        assert_true(intact(p, sizes[k] ? sizes[k] : 64));
        free(p);
    }
    assert_null(hs_alloc_lines(SIZE_MAX));
    assert_null(hs_alloc_lines(SIZE_MAX - 62));
}

static void test_advise_keeps_contents(void **state)
{
    (void)state;
    hs_advise_huge(NULL, 8u << 20); /* nothing to advise: no crash */
    const size_t n = (9u << 20) + 17;
    unsigned char *p = malloc(n);
    assert_non_null(p);
    fill(p, n);
    hs_advise_huge(p + 1, n - 1); /* an unaligned start */
    hs_advise_huge(p, 100);       /* too small to hold a 2 MB page */
    hs_advise_huge(p, n);
    assert_true(intact(p, n));
    unsigned char *q = realloc(p, 2 * n); /* a grown buffer keeps its contents */
    assert_non_null(q);
    hs_advise_huge(q, 2 * n);
    assert_true(intact(q, n));
    free(q);
}

#if defined(__linux__) && defined(MADV_HUGEPAGE)
/* Of the ranges with VmFlags "hg" (advised) that overlap the window [w0, w1): the bytes inside
 * [lo, hi), returned, and those outside it, in *outside. -1: no smaps. */
static long advised_bytes(uintptr_t w0, uintptr_t w1, uintptr_t lo, uintptr_t hi, long *outside)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (f == NULL)
        return -1;
    char line[512];
    uintptr_t a = 0, b = 0;
    long inside = 0;
    *outside = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long x, y;
        if (sscanf(line, "%lx-%lx ", &x, &y) == 2) { /* a range's first line */
            a = (uintptr_t)x;
            b = (uintptr_t)y;
            continue;
        }
        if (strncmp(line, "VmFlags:", 8) != 0 || strstr(line, " hg") == NULL || b <= w0 || a >= w1)
            continue;
        const uintptr_t ca = a > lo ? a : lo, cb = b < hi ? b : hi;
        const long in = cb > ca ? (long)(cb - ca) : 0;
        inside += in;
        *outside += (long)(b - a) - in;
    }
    fclose(f);
    return inside;
}
#endif

static void test_advice_covers_whole_pages_inside(void **state)
{
    (void)state;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* a mapping of its own, 16 MB: a buffer from 1 MB + 5 bytes past its first 2 MB boundary
     * to 8 MB + 3 bytes past it, whose whole 2 MB pages are those of [2 MB, 8 MB) */
    const size_t len = 16u << 20;
    unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    const uintptr_t base = ((uintptr_t)m + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    unsigned char *buf = (unsigned char *)base + (1u << 20) + 5;
    const size_t n = (7u << 20) - 2;
    /* first the platform: does a direct madvise show in smaps? (not without transparent huge
     * pages in the kernel, nor under an emulator that drops the advice) */
    const int ok = madvise((void *)base, HUGE_PAGE, MADV_HUGEPAGE) == 0;
    long outside = 0;
    const long control =
        advised_bytes((uintptr_t)m, (uintptr_t)m + len, base, base + HUGE_PAGE, &outside);
    (void)madvise((void *)base, HUGE_PAGE, MADV_NOHUGEPAGE);
    if (!ok || control != (long)HUGE_PAGE) {
        munmap(m, len);
        skip();
    }
    hs_advise_huge(buf, n);
    const long inside = advised_bytes((uintptr_t)m, (uintptr_t)m + len, (uintptr_t)buf,
                                      (uintptr_t)buf + n, &outside);
    munmap(m, len);
    assert_int_equal(inside, 3 * (long)HUGE_PAGE);
    assert_int_equal(outside, 0);
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_lines_sizes),
        cmocka_unit_test(test_advise_keeps_contents),
        cmocka_unit_test(test_advice_covers_whole_pages_inside),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
