/* SPDX-License-Identifier: MIT */
/* Large buffers on 2 MB pages (memory.h). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1 /* posix_memalign, madvise */
#endif
#include "memory.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HS_HUGE_PAGE ((size_t)2 << 20)

void *hs_alloc_lines(size_t bytes)
{
    if (bytes > SIZE_MAX - 63)
        return NULL;
    const size_t b = bytes == 0 ? 64 : hs_lines_bytes(bytes);
#if defined(MADV_HUGEPAGE)
    if (b >= HS_HUGE_PAGE / 2) {
        /* a last page at least half used, or of a buffer of 8 pages or more, is taken whole:
         * its 4 KB faults would cost more than the memory */
        const size_t tail = b & (HS_HUGE_PAGE - 1);
        const size_t whole = tail > 0 && (tail >= HS_HUGE_PAGE / 2 || b >= 8 * HS_HUGE_PAGE) &&
                                     b <= SIZE_MAX - HS_HUGE_PAGE
                                 ? b - tail + HS_HUGE_PAGE
                                 : b - tail;
        void *p = NULL;
        if (posix_memalign(&p, HS_HUGE_PAGE, whole > b ? whole : b) != 0)
            return NULL;
        (void)madvise(p, whole, MADV_HUGEPAGE);
        return p;
    }
#endif
    return aligned_alloc(64, b);
}

int hs_alloc_is_lazy(void)
{
#if defined(MADV_HUGEPAGE)
    return 1;
#else
    return 0;
#endif
}

void hs_advise_huge(void *p, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t a = (uintptr_t)p, mask = (uintptr_t)HS_HUGE_PAGE - 1;
    if (p == NULL || bytes < HS_HUGE_PAGE || a > UINTPTR_MAX - bytes)
        return;
    const uintptr_t lo = (a + mask) & ~mask, hi = (a + bytes) & ~mask;
    if (hi > lo)
        (void)madvise((void *)lo, (size_t)(hi - lo), MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
