/* SPDX-License-Identifier: MIT */
/* Distributed circle sets on MPI: queries and particle pairs across ranks, answered exactly as
 * one process answers them on the union of every rank's circles. */
#ifndef HITSCAN_MPI_H
#define HITSCAN_MPI_H

#include <mpi.h>

#include "hitscan/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The functions libhitscan_mpi exports (it is built with hidden visibility). */
#if defined(__GNUC__) || defined(__clang__)
#define HS_MPI_API __attribute__((visibility("default")))
#else
#define HS_MPI_API
#endif

/* A distributed set. Every call taking one is collective over its communicator: every rank
 * calls it, in the same order, each with its own arguments (a rank may pass no circles or no
 * queries). Calls return the same negative status on every rank when one rank fails (out of
 * memory, bad arguments, a bad circle), except HS_E_INVALID_QUERY, which is each rank's own.
 *
 * Layout. Space is cut by recursive coordinate bisection of the circle centres into one
 * axis-aligned domain per rank with equal circle counts (a rank's domain is half-open,
 * [lo, hi) on each axis; the outer ones reach to infinity). Each circle is owned by the rank
 * whose domain holds its centre, and each rank keeps a uniform grid (hs_grid) of the circles
 * it owns, sorted by global id, so a local index order is the global id order.
 *
 * Global ids. Circle k of rank p has id = (number of circles on ranks < p) + k, or ids[k] when
 * the caller gives ids (unique over all ranks, each <= HS_MAX_COUNT). Every answer names
 * circles by id: the same bytes as hs_grid_* on the union set whose circle `id` is that one.
 *
 * Masks. When no rank passes a mask the set has none (as a set without a mask: a query's
 * mask is ignored); when some do, a rank that passes NULL gives its circles every bit.
 *
 * hs_queries.ignore is not taken yet: every rank returns HS_E_UNSUPPORTED. */
typedef struct hs_mpi_set hs_mpi_set;

typedef struct hs_mpi_opts {
    float cell_size;     /* the local grids' cell side, as hs_grid_opts (0: automatic) */
    int threads;         /* local grid builds, as hs_grid_opts (0: OpenMP's default) */
    size_t payload_size; /* bytes of caller data carried with each circle when it changes
                          * owner (velocities, ...), 0 for none; the same on every rank */
} hs_mpi_opts;

/* Collective. Decomposes space, moves every circle to its owner and builds the local grids.
 * x, y, r: this rank's n circles (validated as hs_circles_create; the first bad one fails the
 * call on every rank). mask, ids and payload (n * payload_size bytes) may be NULL. */
HS_MPI_API hs_status hs_mpi_build(MPI_Comm comm, const float *x, const float *y, const float *r,
                                  const uint32_t *mask, const uint32_t *ids, const void *payload,
                                  size_t n, const hs_mpi_opts *opts, hs_mpi_set **out);
HS_MPI_API void hs_mpi_destroy(hs_mpi_set *s); /* local, not collective; NULL is a no-op */

/* The circles this rank owns, sorted by id, in arrays the set keeps. A frame loop writes new
 * positions (and radii, masks, payload) into x, y, r, mask, payload in place, then calls
 * hs_mpi_rebuild. Valid until the next hs_mpi_rebuild or hs_mpi_destroy. */
typedef struct hs_mpi_owned {
    float *x, *y, *r;
    uint32_t *mask; /* NULL when the set has no mask */
    const uint32_t *id;
    void *payload; /* count * payload_size bytes, NULL when payload_size is 0 */
    size_t count;
} hs_mpi_owned;
HS_MPI_API hs_mpi_owned hs_mpi_owned_circles(hs_mpi_set *s);

/* Collective. After the owned circles were updated in place: keeps the domains, sends only
 * the circles whose centre left this rank's domain to their new owner, and rebuilds the local
 * grid in place (hs_grid_rebuild). The owned arrays may move and change length: fetch them
 * again. With rebalance != 0 the domains are cut again from the current centres first (a full
 * rebuild: call it when the counts have drifted, see hs_mpi_info's owned counts). */
HS_MPI_API hs_status hs_mpi_rebuild(hs_mpi_set *s, int rebalance);

/* Collective batch queries. Each rank passes its own batch (any count, 0 too) and gets the
 * answers to its own queries, with the contracts and outputs of hs_grid_closest / _any /
 * _count_hits / _all (batch.h) on the union set: the same bytes for every rank count and
 * thread count. opts are the local grid calls' (sem must be the same on every rank; ws, when
 * given, serves the local grid calls); all-hits' arrays are the caller's: free them with
 * hs_hits_free. stats->invalid / first_invalid describe this rank's batch, stats->pair_tests
 * the circle tests this rank's grid made for every rank's queries. The set keeps the working
 * memory of its largest call until hs_mpi_destroy (120 to 180 bytes a query this rank submits
 * or answers, and the exchange buffers), which later calls reuse instead of faulting in fresh
 * memory (give opts->ws for the local grid calls' own).
 *
 * Routing. A valid query goes to the ranks whose reach (the box of the discs they own) its
 * capsule reaches; invalid ones are answered here as misses and sent nowhere. Count and all
 * ask every such rank at once. Closest and any visit them in order of the query's entry into
 * their reach, in rounds (1, 2, 4, ... ranks a round), and stop a query as soon as its best
 * hit lies before the next rank's entry (any: at its first hit), so a long ray is answered by
 * the ranks near its first hit, not by every rank it crosses. */
HS_MPI_API hs_status hs_mpi_closest(hs_mpi_set *s, const hs_queries *qs, const hs_batch_opts *opts,
                                    hs_closest_out out);
HS_MPI_API hs_status hs_mpi_any(hs_mpi_set *s, const hs_queries *qs, const hs_batch_opts *opts,
                                uint8_t *hit);
HS_MPI_API hs_status hs_mpi_count_hits(hs_mpi_set *s, const hs_queries *qs,
                                       const hs_batch_opts *opts, uint32_t *count);
HS_MPI_API hs_status hs_mpi_all(hs_mpi_set *s, const hs_queries *qs, const hs_batch_opts *opts,
                                hs_hits *out);

/* Collective. Overlapping pairs (touching counts) of the whole set as ids i < j: each pair is
 * returned by exactly one rank, the owner of i, ordered by i then j; the union over the ranks
 * is hs_grid_pairs on the union set. Copies every circle as a ghost to each rank whose domain
 * lies within its radius plus that rank's largest owned radius (so the owner of i holds every
 * partner j), kept until the next rebuild. Free with hs_pairs_free. */
HS_MPI_API hs_status hs_mpi_pairs(hs_mpi_set *s, const hs_batch_opts *opts, hs_pairs *out);

/* What decides scaling, for measurement (local, not collective). */
typedef struct hs_mpi_info {
    int rank, ranks;
    size_t owned;   /* circles owned here */
    size_t total;   /* circles over all ranks */
    size_t ghosts;  /* ghost copies held here (0 before the first hs_mpi_pairs) */
    hs_aabb domain; /* this rank's domain (infinite on the outer sides) */
    hs_aabb reach;  /* box of the owned discs (min > max when nothing is owned) */
    /* last build / rebuild */
    size_t moved_out, moved_in; /* circles sent to / received from other ranks */
    uint64_t build_bytes_sent;  /* bytes this rank sent to others (decomposition sample, moves) */
    double build_decompose_s, build_move_s, build_grid_s;
    size_t ghost_bytes_sent; /* last ghost exchange */
    /* last query call */
    size_t queries;      /* this rank's batch */
    size_t sends;        /* (query, rank) pairs this rank routed, itself included */
    size_t remote_sends; /* those to other ranks */
    size_t multi_rank;   /* queries sent to more than one rank */
    size_t answered;     /* queries this rank's grid answered, for every rank */
    int rounds;          /* exchange rounds */
    uint64_t bytes_sent; /* to other ranks: queries out, answers back */
    uint64_t bytes_received;
    double route_s, exchange_s, local_s, return_s; /* routing, query exchange, local grid
                                                    * calls, answer exchange + merge */
} hs_mpi_info;
HS_MPI_API void hs_mpi_get_info(const hs_mpi_set *s, hs_mpi_info *info);

/* The local grid of the owned circles (its indices are positions in hs_mpi_owned_circles). */
HS_MPI_API const hs_grid *hs_mpi_local_grid(const hs_mpi_set *s);

#ifdef __cplusplus
}
#endif
#endif
