/* SPDX-License-Identifier: MIT */
/* Internal: the one way the library runs work on several threads. Every parallel loop of the
 * library goes through hs_par_team or hs_par_for; nothing else starts a thread.
 *
 * A team call runs fn(ctx, slot) on the calling thread (slot 0) and on the helpers that join
 * it (slots 1 .. threads - 1, each at most once). fn takes its work from shared atomic claims
 * (hs_par_for's counter, batch/worksteal.h's shares), so that the calling thread alone
 * finishes everything no helper has claimed: the call returns when fn has returned on every
 * thread that joined, and it never waits for a helper that has not started. Per-thread state
 * is indexed by slot, never by the OS thread. Results must not depend on which slots ran or
 * on what each claimed (callers write each block's results by the block's index).
 *
 * Helpers come from, in this order:
 *   - the caller's task system (hs_batch_opts.tasks / hs_grid_opts.tasks): the team is split
 *     into at most tasks->workers tasks; one runs on the calling thread, the others are
 *     enqueued and finished before the call returns;
 *   - otherwise the library's own pool of helper threads (started on first use, asleep
 *     when idle; parallel.c says why not an OpenMP team);
 *   - a team of one (threads <= 1, or a build without threads such as WebAssembly) runs
 *     fn(ctx, 0) on the calling thread with no synchronisation at all. */
#ifndef HITSCAN_BATCH_PARALLEL_H
#define HITSCAN_BATCH_PARALLEL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "batch/tally.h"
#include "hitscan/batch.h"

/* Slots per call at most (per-slot state is sized by the team, never beyond this). */
#define HS_PAR_MAX_SLOTS 64
/* hs_par_range's ranges per slot */
#define HS_PAR_RANGES_PER_SLOT 8

typedef struct hs_par {
    int threads;                 /* slots: 1 .. HS_PAR_MAX_SLOTS */
    const hs_task_system *tasks; /* NULL: the library's pool */
} hs_par;

typedef void hs_par_team_fn(void *ctx, int slot);
typedef void hs_par_block_fn(void *ctx, size_t block, int slot);

/* The team size a call asks for: threads if > 0, else tasks->workers with a task system, else
 * the processors this process may run on; clamped to 1 .. HS_PAR_MAX_SLOTS. */
int hs_par_threads(int threads, const hs_task_system *tasks);
static inline hs_par hs_par_make(int threads, const hs_task_system *tasks)
{
    const hs_par p = {hs_par_threads(threads, tasks), tasks};
    return p;
}
/* The same team with at most `threads` slots (at least 1). */
static inline hs_par hs_par_cap(hs_par p, int threads)
{
    p.threads = threads < 1 ? 1 : (threads < p.threads ? threads : p.threads);
    return p;
}

void hs_par_team(const hs_par *p, hs_par_team_fn *fn, void *ctx);
/* fn(ctx, b, slot) once for every b in [0, nblocks), blocks claimed one at a time from a
 * shared counter in increasing order. */
void hs_par_for(const hs_par *p, size_t nblocks, hs_par_block_fn *fn, void *ctx);

/* The next of n items from a shared counter (start it at 0), or -1 when all are taken: how a
 * team's slots share a loop. */
static inline ptrdiff_t hs_par_claim(_Atomic size_t *next, size_t n)
{
    const size_t k = atomic_fetch_add_explicit(next, 1, memory_order_relaxed);
    return k < n ? (ptrdiff_t)k : -1;
}

/* fn(ctx, lo, hi, slot) over consecutive ranges that tile [0, n): HS_PAR_RANGES_PER_SLOT
 * per slot, each at least `grain` long (so a late helper strands little work). */
typedef void hs_par_range_fn(void *ctx, size_t lo, size_t hi, int slot);
void hs_par_range(const hs_par *p, size_t n, size_t grain, hs_par_range_fn *fn, void *ctx);

/* Parts a team splits a fixed-slice step into (per-part state is sized by it): 1 for one
 * thread, else HS_PAR_RANGES_PER_SLOT per slot. */
static inline size_t hs_par_parts(const hs_par *p)
{
    return p->threads > 1 ? (size_t)p->threads * HS_PAR_RANGES_PER_SLOT : 1;
}

/* A tally the slots of a team add their parts to (integer sums and a minimum: the total does
 * not depend on the order). */
typedef struct hs_par_tally {
    _Atomic uint64_t tests;
    _Atomic size_t invalid, first;
} hs_par_tally;

static inline void hs_par_tally_init(hs_par_tally *s)
{
    atomic_init(&s->tests, 0);
    atomic_init(&s->invalid, 0);
    atomic_init(&s->first, SIZE_MAX);
}
static inline void hs_par_tally_add(hs_par_tally *s, const hs_tally *t)
{
    atomic_fetch_add_explicit(&s->tests, t->tests, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->invalid, t->invalid, memory_order_relaxed);
    size_t f = atomic_load_explicit(&s->first, memory_order_relaxed);
    while (t->first < f && !atomic_compare_exchange_weak_explicit(
                               &s->first, &f, t->first, memory_order_relaxed, memory_order_relaxed))
        ;
}
static inline hs_tally hs_par_tally_get(hs_par_tally *s)
{
    const hs_tally t = {atomic_load(&s->tests), atomic_load(&s->invalid), atomic_load(&s->first)};
    return t;
}
/* *m = max(*m, v) for v >= 0 held as its bits (which order non-negative doubles as their
 * values); start from 0. */
static inline void hs_par_max_nonneg(_Atomic uint64_t *m, double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    uint64_t c = atomic_load_explicit(m, memory_order_relaxed);
    while (b > c && !atomic_compare_exchange_weak_explicit(m, &c, b, memory_order_relaxed,
                                                           memory_order_relaxed))
        ;
}
static inline double hs_par_max_get(_Atomic uint64_t *m)
{
    const uint64_t b = atomic_load(m);
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

#endif
