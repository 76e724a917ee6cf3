/* SPDX-License-Identifier: MIT */
/* The grid's batch calls on threads the library does not own: a thread with a 64 KB stack (a
 * job system's fiber, musl's small default stacks) and the caller's own OpenMP team calling
 * with one thread each. Every mode at every ISA level must give the answers it gives on the
 * main thread, and not touch memory outside its own. */
#include <pthread.h>
#include <setjmp.h>
#include <unistd.h>
#include <stdarg.h>
#include <stddef.h>

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
    const hs_closest_out co = {a->idx, a->t, NULL, NULL, NULL, NULL};
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_stack_thread),
        cmocka_unit_test(test_inside_callers_team),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
