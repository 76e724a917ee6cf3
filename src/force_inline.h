/* SPDX-License-Identifier: MIT */
/* Internal: whether the library forces inlining (HS_FORCE_INLINE_ON), which binds compile-time
 * flags in one body per combination: the grid walk's modes and semantics (kernels/simd.h's
 * HS_INLINE, which WebAssembly leaves to the compiler too), the pair scan's steps in each of its
 * instruction-set clones (grid/vectorize.h's HS_CLONE_INLINE). Off under AddressSanitizer,
 * where it only multiplies what is instrumented (the compile takes many times longer for the
 * same checks), in a build configured with HS_FORCE_INLINE=OFF (HS_NO_FORCE_INLINE), and in the
 * scalar walk beside a vector level (src/walk/CMakeLists.txt). The compiler decides there, with
 * the same arithmetic. */
#ifndef HITSCAN_FORCE_INLINE_H
#define HITSCAN_FORCE_INLINE_H

#if defined(__SANITIZE_ADDRESS__)
#define HS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HS_UNDER_ASAN 1
#endif
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(HS_UNDER_ASAN) &&                        \
    !defined(HS_NO_FORCE_INLINE)
#define HS_FORCE_INLINE_ON 1
#else
#define HS_FORCE_INLINE_ON 0
#endif

#endif
