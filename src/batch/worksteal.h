/* SPDX-License-Identifier: MIT */
/* Internal: a locality-keeping work-stealing schedule for the chunks of a parallel loop (each
 * thread sweeps its own contiguous share, then takes from the far end of others'). Every
 * slot of a team (batch/parallel.h) runs
 *     const unsigned home = hs_sched_home(&sc, slot);
 *     for (ptrdiff_t k; (k = hs_sched_next(&sc, home)) >= 0;) { chunk k }  */
#ifndef HS_WORKSTEAL_H
#define HS_WORKSTEAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Why not schedule(dynamic): the grid answers queries in a locality order, so consecutive
 * chunks read the same cells. Dealt out one at a time, two threads would each get every other
 * chunk and each core's cache would fetch the cells of the whole order. Plain halves (static)
 * keep the locality but wait for the slower thread, and on a shared host one core is often
 * slower for a while. So each slot owns a contiguous share of the chunks and takes them from the
 * front; a thread whose share is done takes single chunks from the back of the share with the most
 * left. Front and back of a share live in one 64-bit word so that an owner and a thief can
 * never take the same chunk (compare-exchange on both).
 *
 * Which thread answers which chunk changes from run to run; callers write each chunk's
 * results by its index, so nothing else does. A team smaller than the slots (helpers that never
 * join) is fine: unowned shares are taken by stealing. */
#define HS_SCHED_SLOTS 64

typedef struct hs_sched_slot {
    _Alignas(64) _Atomic uint64_t span; /* front in the low 32 bits, back (exclusive) above */
} hs_sched_slot;

typedef struct hs_sched {
    hs_sched_slot s[HS_SCHED_SLOTS];
    unsigned n; /* slots in use */
} hs_sched;

/* nchunks < 2^32 (callers' chunks hold >= 1 query and counts are <= HS_MAX_COUNT) */
static inline void hs_sched_init(hs_sched *sc, size_t nchunks, int threads)
{
    unsigned n = threads < 1 ? 1u : (threads > HS_SCHED_SLOTS ? HS_SCHED_SLOTS : (unsigned)threads);
    sc->n = n;
    for (unsigned k = 0; k < n; k++) {
        const uint64_t lo = (uint64_t)nchunks * k / n, hi = (uint64_t)nchunks * (k + 1) / n;
        atomic_init(&sc->s[k].span, lo | hi << 32);
    }
}

/* The home share of a team's slot (batch/parallel.h; teams larger than the shares share
 * them). */
static inline unsigned hs_sched_home(const hs_sched *sc, int slot)
{
    return (unsigned)slot % sc->n;
}

/* The next chunk for a thread whose home slot is `home`, or -1 when every chunk is taken.
 * Relaxed order: the chunks are independent and the team's end (batch/parallel.h) publishes
 * their results. */
static inline ptrdiff_t hs_sched_next(hs_sched *sc, unsigned home)
{
    _Atomic uint64_t *own = &sc->s[home].span;
    uint64_t v = atomic_load_explicit(own, memory_order_relaxed);
    while ((uint32_t)v < (uint32_t)(v >> 32))
        if (atomic_compare_exchange_weak_explicit(own, &v, v + 1, memory_order_relaxed,
                                                  memory_order_relaxed))
            return (ptrdiff_t)(uint32_t)v;
    for (;;) { /* steal from the back of the largest share left */
        unsigned best = sc->n;
        uint32_t most = 0;
        for (unsigned k = 0; k < sc->n; k++) {
            const uint64_t w = atomic_load_explicit(&sc->s[k].span, memory_order_relaxed);
            const uint32_t f = (uint32_t)w, b = (uint32_t)(w >> 32);
            if (f < b && b - f > most) {
                most = b - f;
                best = k;
            }
        }
        if (best == sc->n)
            return -1;
        _Atomic uint64_t *vic = &sc->s[best].span;
        uint64_t w = atomic_load_explicit(vic, memory_order_relaxed);
        while ((uint32_t)w < (uint32_t)(w >> 32))
            if (atomic_compare_exchange_weak_explicit(vic, &w, w - ((uint64_t)1 << 32),
                                                      memory_order_relaxed, memory_order_relaxed))
                return (ptrdiff_t)(uint32_t)((w >> 32) - 1);
    }
}

#endif
