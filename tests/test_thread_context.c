/* SPDX-License-Identifier: MIT */
/* The grid's calls on threads the library does not own: a thread with a 64 KB stack (a job
 * system's fiber, musl's small default stacks) and the caller's own OpenMP team calling with
 * one thread each. Every mode at every ISA level, the build, the rebuilds and the pair and
 * overlap calls must give the answers they give on the main thread, and not touch memory
 * outside their own; each call's own stack use is measured against grid.h's bound. */
#define _XOPEN_SOURCE 700 /* pthread_attr_setstack, posix_memalign */
#include <pthread.h>
#include <setjmp.h>
#include <unistd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>
#include <omp.h>

#include "hitscan/grid.h"
#include "hitscan/scene.h"
#include "test_util.h"

enum { NC = 20000, NQ = 3000 };
/* 64 KB, or the system's least when that is more (128 KB on AArch64 Linux, whose pages may be
 * 64 KB); the sanitizers' redzones grow every frame several times over, so there the thread
 * gets 512 KB (the test then checks the answers, not the bound) */
#define SMALL_STACK ((size_t)(HS_SANITIZED ? 512 : 64) * 1024)
static size_t small_stack(void)
{
    const long least = sysconf(_SC_THREAD_STACK_MIN);
    return least > 0 && (size_t)least > SMALL_STACK ? (size_t)least : SMALL_STACK;
}

/* One call of each mode: the answers, to compare between contexts. */
typedef struct answers {
    uint32_t idx[NQ];
    float t[NQ];
    uint8_t hit[NQ];
    uint32_t count[NQ];
    hs_hits all;
    hs_status st[4];
} answers;

typedef struct job {
    const hs_grid *g;
    const hs_queries *qs;
    hs_isa isa;
    answers *out;
} job;

static void run_modes(const job *j)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.isa = j->isa;
    o.threads = 1;
    answers *a = j->out;
    const hs_closest_out co = {a->idx, a->t, NULL, NULL, NULL, NULL, NULL};
    a->st[0] = hs_grid_closest(j->g, j->qs, &o, co);
    a->st[1] = hs_grid_any(j->g, j->qs, &o, a->hit);
    a->st[2] = hs_grid_count_hits(j->g, j->qs, &o, a->count);
    a->st[3] = hs_grid_all(j->g, j->qs, &o, &a->all);
}

static void *run_job(void *arg)
{
    run_modes(arg);
    return NULL;
}

static void assert_same(const answers *got, const answers *want)
{
    for (int k = 0; k < 4; k++)
        assert_int_equal(got->st[k], HS_OK);
    assert_memory_equal(got->idx, want->idx, sizeof want->idx);
    assert_memory_equal(got->t, want->t, sizeof want->t);
    assert_memory_equal(got->hit, want->hit, sizeof want->hit);
    assert_memory_equal(got->count, want->count, sizeof want->count);
    assert_hits_equal(&got->all, &want->all);
}

typedef struct fixture {
    scene s;
    float ax[NQ], ay[NQ], dx[NQ], dy[NQ];
    hs_queries qs;
    hs_grid *g;
} fixture;

static int setup(void **state)
{
    fixture *f = xcalloc(1, sizeof *f);
    scene_alloc(&f->s, NC);
    assert_int_equal(hs_scene_circles(HS_SCENE_MIXED, NC, 7, f->s.x, f->s.y, f->s.r), HS_OK);
    assert_int_equal(hs_scene_segments(HS_SCENE_MIXED, NC, NQ, 8, f->ax, f->ay, f->dx, f->dy),
                     HS_OK);
    /* a few rays and lines too: they take the per-query walk */
    for (size_t i = 0; i < NQ; i += 97) {
        f->dx[i] *= 40.0f;
        f->dy[i] *= 40.0f;
    }
    assert_int_equal(hs_circles_create(f->s.x, f->s.y, f->s.r, NULL, NC, &f->s.cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(f->s.cs, NULL, &f->g), HS_OK);
    f->qs = hs_queries_segments(f->ax, f->ay, f->dx, f->dy, NQ);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    hs_grid_destroy(f->g);
    scene_free(&f->s);
    free(f);
    return 0;
}

/* Every mode on a thread whose whole stack is 64 KB equals the main thread's answers. */
static void test_small_stack_thread(void **state)
{
    fixture *f = *state;
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        answers *want = xcalloc(1, sizeof *want), *got = xcalloc(1, sizeof *got);
        const job jw = {f->g, &f->qs, (hs_isa)isa, want}, jg = {f->g, &f->qs, (hs_isa)isa, got};
        run_modes(&jw);
        pthread_attr_t attr;
        pthread_t th;
        assert_int_equal(pthread_attr_init(&attr), 0);
        assert_int_equal(pthread_attr_setstacksize(&attr, small_stack()), 0);
        assert_int_equal(pthread_create(&th, &attr, run_job, (void *)&jg), 0);
        assert_int_equal(pthread_join(th, NULL), 0);
        pthread_attr_destroy(&attr);
        assert_same(got, want);
        hs_hits_free(&want->all);
        hs_hits_free(&got->all);
        free(want);
        free(got);
    }
}

/* Each thread of the caller's own OpenMP team calls with threads = 1: the library opens no
 * team of its own then, and each call must use its own per-thread state (thread 0's), not
 * the caller's thread number. */
static void test_inside_callers_team(void **state)
{
    fixture *f = *state;
    enum { TEAM = 3 };
    answers *want = xcalloc(1, sizeof *want), *got = xcalloc(TEAM, sizeof *got);
    const job jw = {f->g, &f->qs, HS_ISA_AUTO, want};
    run_modes(&jw);
    int ran = 0;
#pragma omp parallel num_threads(TEAM) reduction(+ : ran)
    {
        const int k = omp_get_thread_num();
        const job jg = {f->g, &f->qs, HS_ISA_AUTO, &got[k]};
        run_modes(&jg);
        ran = 1;
    }
    for (int k = 0; k < ran; k++) {
        assert_same(&got[k], want);
        hs_hits_free(&got[k].all);
    }
    hs_hits_free(&want->all);
    free(want);
    free(got);
}

/* ---- the build, the rebuilds, pairs and overlaps ---------------------------------------- */

/* What the calls that build or search the grid give, on one thread (threads = 1). */
typedef struct grid_job {
    const fixture *f;
    const float *mx, *my; /* per circle: the displacements for swept pairs */
    hs_grid *g;
    hs_pairs pairs;
    hs_swept_pairs swept;
    hs_overlaps ov;
    answers *q; /* closest / any / count / all on the rebuilt grid (NULL: not asked) */
    hs_status st[6];
} grid_job;

static void run_grid_calls(grid_job *j)
{
    const fixture *f = j->f;
    hs_grid_opts go = {.cell_size = 0.0f, .threads = 1, .periodic = 0};
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    j->st[0] = hs_grid_build(f->s.cs, &go, &j->g);
    if (j->st[0] != HS_OK)
        return;
    j->st[1] = hs_grid_rebuild(j->g, f->s.cs);
    j->st[2] = hs_grid_rebuild_from(j->g, f->s.x, f->s.y, f->s.r, NULL, NC, NULL);
    j->st[3] = hs_grid_pairs(j->g, &o, &j->pairs);
    j->st[4] = hs_grid_swept_pairs(j->g, j->mx, j->my, &o, &j->swept);
    j->st[5] = hs_grid_overlap_discs(j->g, f->ax, f->ay, NULL, NULL, NQ, &o, &j->ov);
    if (j->q) {
        const job q = {j->g, &f->qs, HS_ISA_AUTO, j->q};
        run_modes(&q);
    }
}

static void *run_grid_job(void *arg)
{
    run_grid_calls(arg);
    return NULL;
}

static void grid_job_free(grid_job *j)
{
    hs_pairs_free(&j->pairs);
    hs_swept_pairs_free(&j->swept);
    hs_overlaps_free(&j->ov);
    if (j->q)
        hs_hits_free(&j->q->all);
    hs_grid_destroy(j->g);
}

/* Per circle, a displacement of about a radius, and a few fast ones. */
static void displacements(float *mx, float *my)
{
    rng_state = 41;
    for (size_t i = 0; i < NC; i++) {
        const float s = i % 211 == 0 ? 50.0f : 1.0f;
        mx[i] = s * unif(-1.0f, 1.0f);
        my[i] = s * unif(-1.0f, 1.0f);
    }
}

/* The build, both rebuilds, pairs, swept pairs, overlaps and every query mode on a thread
 * whose whole stack is 64 KB equal the main thread's. */
static void test_small_stack_build(void **state)
{
    fixture *f = *state;
    float *mx = xcalloc(NC, sizeof *mx), *my = xcalloc(NC, sizeof *my);
    displacements(mx, my);
    answers *qa = xcalloc(1, sizeof *qa), *qb = xcalloc(1, sizeof *qb);
    grid_job want = {.f = f, .mx = mx, .my = my, .q = qa},
             got = {.f = f, .mx = mx, .my = my, .q = qb};
    run_grid_calls(&want);
    pthread_attr_t attr;
    pthread_t th;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, small_stack()), 0);
    assert_int_equal(pthread_create(&th, &attr, run_grid_job, &got), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    pthread_attr_destroy(&attr);
    for (int k = 0; k < 6; k++)
        assert_int_equal(got.st[k], HS_OK);
    assert_true(want.pairs.count > 0 && want.swept.count > want.pairs.count);
    assert_int_equal(got.pairs.count, want.pairs.count);
    assert_memory_equal(got.pairs.i, want.pairs.i, want.pairs.count * sizeof(uint32_t));
    assert_memory_equal(got.pairs.j, want.pairs.j, want.pairs.count * sizeof(uint32_t));
    assert_int_equal(got.swept.count, want.swept.count);
    assert_memory_equal(got.swept.j, want.swept.j, want.swept.count * sizeof(uint32_t));
    assert_memory_equal(got.swept.t, want.swept.t, want.swept.count * sizeof(float));
    assert_int_equal(got.ov.total, want.ov.total);
    assert_memory_equal(got.ov.idx, want.ov.idx, want.ov.total * sizeof(uint32_t));
    assert_same(qb, qa);
    grid_job_free(&want);
    grid_job_free(&got);
    free(qa);
    free(qb);
    free(mx);
    free(my);
}

/* ---- stack use, measured ------------------------------------------------------------------ */

typedef struct stack_run {
    void (*fn)(void *);
    void *arg;
} stack_run;

static void *stack_tramp(void *arg)
{
    const stack_run *r = arg;
    if (r->fn)
        r->fn(r->arg);
    return NULL;
}

/* The bytes of its stack a thread running fn(arg) touched: the thread gets a painted stack of
 * its own, large enough for any call, and the deepest byte no longer painted tells. */
static size_t stack_touched(void (*fn)(void *), void *arg)
{
    enum { SZ = 1024 * 1024, PAINT = 0xa5 };
    unsigned char *mem = NULL;
    assert_int_equal(posix_memalign((void **)&mem, 65536, SZ), 0);
    memset(mem, PAINT, SZ);
    pthread_attr_t attr;
    pthread_t th;
    stack_run r = {fn, arg};
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstack(&attr, mem, SZ), 0);
    assert_int_equal(pthread_create(&th, &attr, stack_tramp, &r), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    pthread_attr_destroy(&attr);
    size_t k = 0;
    while (k < SZ && mem[k] == PAINT)
        k++;
    free(mem);
    return SZ - k;
}

static void grid_calls_fn(void *arg) { run_grid_calls(arg); }
static void modes_fn(void *arg) { run_modes(arg); }

/* Every call keeps at most HS_STACK_BOUND bytes on the caller's stack (grid.h): the build, the
 * rebuilds, pairs, swept pairs, overlaps and every query mode at every ISA level. Measured
 * above a thread that calls nothing (the C library's own frames and the thread's TLS). */
#define HS_STACK_BOUND (32 * 1024)
static void test_stack_bound(void **state)
{
    fixture *f = *state;
    const size_t base = stack_touched(NULL, NULL);
    float *mx = xcalloc(NC, sizeof *mx), *my = xcalloc(NC, sizeof *my);
    displacements(mx, my);
    answers *qa = xcalloc(1, sizeof *qa);
    grid_job j = {.f = f, .mx = mx, .my = my, .q = NULL};
    const size_t build = stack_touched(grid_calls_fn, &j) - base;
    for (int k = 0; k < 6; k++)
        assert_int_equal(j.st[k], HS_OK);
    grid_job_free(&j);
    size_t worst = build;
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        const job q = {f->g, &f->qs, (hs_isa)isa, qa};
        const size_t used = stack_touched(modes_fn, (void *)&q) - base;
        hs_hits_free(&qa->all);
        worst = used > worst ? used : worst;
    }
    printf(
        "stack: build, rebuilds, pairs and overlaps %zu bytes, worst call %zu bytes (bound %d)\n",
        build, worst, HS_STACK_BOUND);
    if (!HS_SANITIZED) /* redzones grow every frame */
        assert_true(worst <= HS_STACK_BOUND);
    free(qa);
    free(mx);
    free(my);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_stack_thread),
        cmocka_unit_test(test_inside_callers_team),
        cmocka_unit_test(test_small_stack_build),
        cmocka_unit_test(test_stack_bound),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
