/* SPDX-License-Identifier: MIT */
/* Tests for the work-stealing chunk schedule (src/batch/worksteal.h): every chunk exactly once for
 * any team and slot count, owners sweep forward, thieves take from the back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <omp.h>

#include "batch/worksteal.h"

/* Runs the schedule for `chunks` chunks set up for `slots` threads on a team of `team`
 * threads and checks each chunk was taken once and each thread's own share came in order. */
static void run_once(size_t chunks, int slots, int team)
{
    hs_sched sc;
    hs_sched_init(&sc, chunks, slots);
    _Atomic int *taken = calloc(chunks + 1, sizeof *taken);
    assert_non_null(taken);
    int bad_order = 0;
#pragma omp parallel num_threads(team) reduction(+ : bad_order)
    {
        const unsigned home = hs_sched_home(&sc, omp_get_thread_num());
        ptrdiff_t last_own = -1;
        const size_t lo = chunks * home / sc.n, hi = chunks * (home + 1) / sc.n;
        for (ptrdiff_t c; (c = hs_sched_next(&sc, home)) >= 0;) {
            atomic_fetch_add(&taken[c], 1);
            /* only this thread takes its share's front when it is the slot's only owner */
            if ((unsigned)omp_get_num_threads() <= sc.n && (size_t)c >= lo && (size_t)c < hi &&
                c < last_own)
                bad_order++;
            if ((size_t)c >= lo && (size_t)c < hi && c > last_own)
                last_own = c;
        }
    }
    for (size_t c = 0; c < chunks; c++)
        assert_int_equal(atomic_load(&taken[c]), 1);
    assert_int_equal(bad_order, 0);
    free(taken);
}

static void test_every_chunk_once(void **state)
{
    (void)state;
    const size_t chunks[] = {0, 1, 2, 3, 63, 64, 65, 977, 4096};
    const int teams[] = {1, 2, 3, 5, 8};
    for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++)
        for (size_t j = 0; j < sizeof teams / sizeof *teams; j++) {
            run_once(chunks[i], teams[j], teams[j]);
            /* a team smaller than the slots: unowned shares are only reachable by stealing */
            run_once(chunks[i], teams[j] * 3, teams[j]);
            /* more threads than slots share them */
            run_once(chunks[i], teams[j] > 1 ? teams[j] / 2 : 1, teams[j]);
            /* more slots asked for than there are (capped at HS_SCHED_SLOTS) */
            run_once(chunks[i], HS_SCHED_SLOTS + 7, teams[j]);
        }
}

/* Deterministic stealing: thread 0 takes nothing until thread 1 has run dry, so thread 1 must
 * have taken thread 0's whole share, from the back (descending), after its own (ascending). */
static void test_steals_from_the_back(void **state)
{
    (void)state;
    const size_t chunks = 100;
    hs_sched sc;
    hs_sched_init(&sc, chunks, 2);
    ptrdiff_t got[100];
    size_t ngot = 0;
    atomic_int done1 = 0;
    int team = 0;
    ptrdiff_t first0 = 0;
#pragma omp parallel num_threads(2)
    {
        const unsigned home = hs_sched_home(&sc, omp_get_thread_num());
        if (omp_get_thread_num() == 1) {
            team = omp_get_num_threads();
            for (ptrdiff_t c; (c = hs_sched_next(&sc, home)) >= 0;)
                got[ngot++] = c;
            atomic_store(&done1, 1);
        } else {
            while (omp_get_num_threads() == 2 && !atomic_load(&done1))
                ;
            first0 = hs_sched_next(&sc, home);
        }
    }
    if (team != 2)
        skip(); /* OpenMP gave one thread: nothing to steal from */
    assert_int_equal(first0, -1);
    assert_int_equal(ngot, chunks);
    for (size_t k = 0; k < 50; k++)
        assert_int_equal(got[k], 50 + (ptrdiff_t)k); /* own share, front to back */
    for (size_t k = 50; k < 100; k++)
        assert_int_equal(got[k], 99 - (ptrdiff_t)k); /* the other's, back to front */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_chunk_once),
        cmocka_unit_test(test_steals_from_the_back),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
