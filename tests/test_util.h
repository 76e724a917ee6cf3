/* SPDX-License-Identifier: MIT */
/* Helpers shared by the randomized tests: sanitizer detection, quick scale, a reproducible PRNG,
 * checked calloc. */
#ifndef HS_TEST_UTIL_H
#define HS_TEST_UTIL_H

/* Include after <cmocka.h>: xcalloc asserts through it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/batch.h"
#include "hitscan/scene.h"
#include "test_scale.h"

/* The scene kinds before the distribution suite (uniform .. lasers): the tests that loop over
 * scenes at benchmark-like sizes take these; tests/test_suite_scenes.c covers the suite. */
#define HS_TEST_SCENES_CLASSIC ((int)HS_SCENE_LASERS + 1)

/* Under emulation (HS_TEST_UNDER_QEMU: the aarch64 stage runs the suite under qemu-user, tens
 * of host instructions to one), the largest differential tests shrink a further 4 times: the
 * same code paths, fewer items. */
static inline int test_emulated(void) { return getenv("HS_TEST_UNDER_QEMU") != NULL; }

/* The levels the grid's differential tests loop over: every level this build and CPU support,
 * or with HITSCAN_ISA naming one of them, that one alone (CI runs the suite again per level,
 * and under emulation at NEON alone); any other HITSCAN_ISA leaves every level. */
static inline int test_isa_on(hs_isa isa)
{
    if (!hs_isa_supported(isa))
        return 0;
    const char *env = getenv("HITSCAN_ISA");
    for (int l = HS_ISA_SCALAR; env != NULL && l < HS_ISA_COUNT; l++)
        if (strcmp(env, hs_isa_name((hs_isa)l)) == 0 && hs_isa_supported((hs_isa)l))
            return l == (int)isa;
    return 1;
}

/* splitmix64, our own so a seed means the same cases on every libc. A test reseeds by
 * assigning rng_state, so each case stays reproducible on its own. */
static uint64_t rng_state;
static inline uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* float in [lo, hi), 24 random bits */
static inline float unif(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd() >> 40) * 0x1p-24f;
}
/* double in [0, 1), 53 random bits */
static inline double urand(void) { return (double)(rnd() >> 11) * 0x1.0p-53; }
/* computed in double, then rounded to float */
static inline float frange(double lo, double hi) { return (float)(lo + (hi - lo) * urand()); }
static inline unsigned irand(unsigned n) { return (unsigned)(rnd() % n); }

static inline void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    assert_non_null(p);
    return p;
}

/* ---- circle sets and query batches as SoA arrays, the way the batch API takes them ---- */
typedef struct scene {
    size_t n;
    float *x, *y, *r;
    uint32_t *mask;
    hs_circles *cs;
} scene;

/* x, y, r zeroed; mask and cs left NULL for the caller. */
static inline void scene_alloc(scene *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->x = xcalloc(n, sizeof(float));
    s->y = xcalloc(n, sizeof(float));
    s->r = xcalloc(n, sizeof(float));
}

static inline void scene_free(scene *s)
{
    hs_circles_destroy(s->cs);
    free(s->x);
    free(s->y);
    free(s->r);
    free(s->mask);
    memset(s, 0, sizeof *s);
}

/* Two all-hits results are the same hits in the same order. */
static inline void assert_hits_equal(const hs_hits *got, const hs_hits *want)
{
    assert_int_equal(got->count, want->count);
    assert_int_equal(got->total, want->total);
    assert_memory_equal(got->offsets, want->offsets, (want->count + 1) * sizeof(size_t));
    if (want->total) {
        assert_memory_equal(got->idx, want->idx, want->total * sizeof(uint32_t));
        assert_memory_equal(got->t, want->t, want->total * sizeof(float));
    }
}

typedef struct batch {
    size_t m;
    float *ax, *ay, *dx, *dy, *tmin, *tmax, *q;
    uint32_t *mask;
    hs_queries qs;
} batch;

/* Every array zeroed (mask NULL unless with_mask); qs left zeroed for the caller. */
static inline void batch_alloc_arrays(batch *b, size_t m, int with_mask)
{
    memset(b, 0, sizeof *b);
    b->m = m;
    b->ax = xcalloc(m, sizeof(float));
    b->ay = xcalloc(m, sizeof(float));
    b->dx = xcalloc(m, sizeof(float));
    b->dy = xcalloc(m, sizeof(float));
    b->tmin = xcalloc(m, sizeof(float));
    b->tmax = xcalloc(m, sizeof(float));
    b->q = xcalloc(m, sizeof(float));
    b->mask = with_mask ? xcalloc(m, sizeof(uint32_t)) : NULL;
}

static inline void batch_free(batch *b)
{
    free(b->ax);
    free(b->ay);
    free(b->dx);
    free(b->dy);
    free(b->tmin);
    free(b->tmax);
    free(b->q);
    free(b->mask);
    memset(b, 0, sizeof *b);
}

#endif
