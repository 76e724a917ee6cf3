/* SPDX-License-Identifier: MIT */
/* Internal: cache-line prefetch hints (no-ops where the compiler has none). */
#ifndef HITSCAN_PREFETCH_H
#define HITSCAN_PREFETCH_H

/* The line holding p, for reading. */
static inline void hs_prefetch(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* The line holding p, for writing. */
static inline void hs_prefetch_write(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1);
#else
    (void)p;
#endif
}

#endif
