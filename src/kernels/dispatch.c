/* SPDX-License-Identifier: MIT */
/* ISA levels: names, CPU detection, HITSCAN_ISA (read once), and each level's pair kernel
 * table, made by kernels.inl in the kernels_<isa>.c translation units. The grid walkers of a
 * level sit a layer above (walk/walkers.c) and are picked by the same resolution. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/batch.h"
#include "kernels.h"

/* Which kernel TUs src/kernels/CMakeLists.txt compiled in (and the compiler agrees). */
#if defined(HS_KERNELS_X86) && (defined(__x86_64__) || defined(__i386__))
#define HS_HAS_X86 1
extern const hs_kernel_set hs_kernels_sse4, hs_kernels_avx2, hs_kernels_avx512;
#endif
#if defined(HS_KERNELS_NEON) && (defined(__aarch64__) || defined(_M_ARM64))
#define HS_HAS_NEON 1
extern const hs_kernel_set hs_kernels_neon;
#endif
#if defined(HS_KERNELS_WASM) && defined(__wasm_simd128__)
#define HS_HAS_WASM128 1
extern const hs_kernel_set hs_kernels_wasm128;
#endif
extern const hs_kernel_set hs_kernels_scalar;

static const char *const hs_isa_names[HS_ISA_COUNT] = {"auto",   "scalar", "sse4",   "avx2",
                                                       "avx512", "neon",   "wasm128"};

const char *hs_isa_name(hs_isa isa)
{
    if ((int)isa < 0 || isa >= HS_ISA_COUNT)
        return "?";
    return hs_isa_names[isa];
}

int hs_isa_width(hs_isa isa)
{
    switch (isa) {
    case HS_ISA_AUTO: return hs_isa_width(hs_isa_resolve(HS_ISA_AUTO));
    case HS_ISA_SCALAR: return 1;
    case HS_ISA_SSE4: return 4;
    case HS_ISA_AVX2: return 8;
    case HS_ISA_AVX512: return 16;
    case HS_ISA_NEON: return 4;
    case HS_ISA_WASM128: return 4;
    default: return 0;
    }
}

/* The tables compiled for a level, or NULL; says nothing about the CPU. */
static const hs_kernel_set *hs_kernels_compiled(hs_isa isa)
{
    switch (isa) {
    case HS_ISA_SCALAR: return &hs_kernels_scalar;
#ifdef HS_HAS_X86
    case HS_ISA_SSE4: return &hs_kernels_sse4;
    case HS_ISA_AVX2: return &hs_kernels_avx2;
    case HS_ISA_AVX512: return &hs_kernels_avx512;
#endif
#ifdef HS_HAS_NEON
    case HS_ISA_NEON: return &hs_kernels_neon;
#endif
#ifdef HS_HAS_WASM128
    case HS_ISA_WASM128: return &hs_kernels_wasm128;
#endif
    default: return NULL;
    }
}

/* __builtin_cpu_supports reads the model the runtime fills in from a constructor, so this
 * needs no state of its own. gcc and clang only report avx* / avx512* when the OS saves
 * those registers (XCR0), so a feature bit here is usable. */
static int hs_cpu_has(hs_isa isa)
{
#ifdef HS_HAS_X86
    __builtin_cpu_init(); /* no-op once done; needed if called before constructors ran */
#endif
    switch (isa) {
    case HS_ISA_SCALAR: return 1;
#ifdef HS_HAS_X86
    case HS_ISA_SSE4: return __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt");
    case HS_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               __builtin_cpu_supports("popcnt");
    case HS_ISA_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("fma") && __builtin_cpu_supports("popcnt");
#endif
#ifdef HS_HAS_NEON
    case HS_ISA_NEON: return 1; /* part of the AArch64 baseline */
#endif
#ifdef HS_HAS_WASM128
    case HS_ISA_WASM128: return 1; /* an engine without SIMD128 refuses the whole module */
#endif
    default: return 0;
    }
}

int hs_isa_supported(hs_isa isa)
{
    if (isa == HS_ISA_AUTO)
        return 1;
    return hs_kernels_compiled(isa) != NULL && hs_cpu_has(isa);
}

static hs_isa hs_isa_best(void)
{
    static const hs_isa order[] = {HS_ISA_AVX512, HS_ISA_AVX2, HS_ISA_NEON, HS_ISA_SSE4,
                                   HS_ISA_WASM128};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (hs_isa_supported(order[i]))
            return order[i];
    return HS_ISA_SCALAR;
}

hs_isa hs_isa_parse_env(const char *value, int warn)
{
    hs_isa best = hs_isa_best();
    if (value == NULL || value[0] == '\0' || strcmp(value, "auto") == 0)
        return best;
    for (int i = HS_ISA_SCALAR; i < HS_ISA_COUNT; i++) {
        if (strcmp(value, hs_isa_names[i]) != 0)
            continue;
        if (hs_isa_supported((hs_isa)i))
            return (hs_isa)i;
        if (warn)
            fprintf(stderr, "hitscan: HITSCAN_ISA=%s is not supported here; using %s\n", value,
                    hs_isa_names[best]);
        return best;
    }
    if (warn)
        fprintf(stderr,
                "hitscan: HITSCAN_ISA=%s is unknown (scalar|sse4|avx2|avx512|neon); using %s\n",
                value, hs_isa_names[best]);
    return best;
}

/* The one piece of process-wide state: the AUTO level, decided on first use. Racing
 * first callers all compute the same value; the compare-exchange lets exactly one of them
 * publish it, and only that one prints the warning (the loser's is suppressed by
 * computing it silently first). */
#if defined(__STDC_NO_ATOMICS__)
#error "hitscan needs C11 atomics for its one-time ISA selection"
#endif
#include <stdatomic.h>
static atomic_int hs_auto_isa = 0;

hs_isa hs_isa_resolve(hs_isa isa)
{
    if (isa != HS_ISA_AUTO)
        return isa;
    int v = atomic_load_explicit(&hs_auto_isa, memory_order_acquire);
    if (v != 0)
        return (hs_isa)v;
    const char *env = getenv("HITSCAN_ISA");
    int chosen = (int)hs_isa_parse_env(env, 0);
    int expected = 0;
    if (atomic_compare_exchange_strong_explicit(&hs_auto_isa, &expected, chosen,
                                                memory_order_acq_rel, memory_order_acquire)) {
        (void)hs_isa_parse_env(env, 1); /* the winner reports a bad value, once */
        return (hs_isa)chosen;
    }
    return (hs_isa)expected;
}

const hs_kernel_set *hs_kernels_get(hs_isa isa)
{
    isa = hs_isa_resolve(isa);
    if (!hs_isa_supported(isa) || isa == HS_ISA_AUTO)
        return NULL;
    return hs_kernels_compiled(isa);
}
