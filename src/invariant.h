/* SPDX-License-Identifier: MIT */
/* Internal: HS_ASSERT states an invariant the code relies on. It is checked in builds without
 * NDEBUG (Debug, and the sanitizer builds, which define HS_CHECK_INVARIANTS) and compiles to
 * nothing in Release, so hot paths pay nothing for it. */
#ifndef HITSCAN_INVARIANT_H
#define HITSCAN_INVARIANT_H

#if !defined(NDEBUG) || defined(HS_CHECK_INVARIANTS)
#include <stdio.h>
#include <stdlib.h>
#define HS_ASSERT(cond)                                                                            \
    ((cond)                                                                                        \
         ? (void)0                                                                                 \
         : (fprintf(stderr, "hitscan: invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__), \
            abort()))
#else
#define HS_ASSERT(cond) ((void)0)
#endif

#endif
