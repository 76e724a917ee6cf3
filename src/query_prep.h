/* SPDX-License-Identifier: MIT */
/* Internal: a batch's query i as the kernels' prepared query (hs_kq), with the one validity
 * test every engine and path shares. */
#ifndef HITSCAN_QUERY_PREP_H
#define HITSCAN_QUERY_PREP_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "hitscan/batch.h"
#include "hitscan/narrow.h"

/* A sufficient condition for hs_query_validate(q) == HS_OK, inlined: a call per query (a
 * 28-byte struct by value, nine branches) weighs on short grid queries. Anything it does not
 * accept goes to hs_query_validate itself, which stays the one definition of "valid". */
static inline int hs_query_surely_valid(hs_query q)
{
    const float big = HS_MAX_COORD;
    float dd = q.d.x * q.d.x + q.d.y * q.d.y;
    return fabsf(q.a.x) <= big && fabsf(q.a.y) <= big && q.q >= 0.0f && q.q <= big &&
           fabsf(q.d.x) <= big && fabsf(q.d.y) <= big && q.tmin <= q.tmax && q.tmin < INFINITY &&
           q.tmax > -INFINITY && dd <= FLT_MAX &&
           (dd >= FLT_MIN || (q.d.x == 0.0f && q.d.y == 0.0f));
}

/* hs_query_surely_valid's test of a and d alone, without a branch (so that a loop over a batch
 * vectorises), for a batch whose tmin, tmax and q pass hs_query_batch_surely_valid. */
static inline int hs_query_ad_surely_valid(float ax, float ay, float dx, float dy)
{
    const float big = HS_MAX_COORD, dd = dx * dx + dy * dy;
    return (fabsf(ax) <= big) & (fabsf(ay) <= big) & (fabsf(dx) <= big) & (fabsf(dy) <= big) &
           (dd <= FLT_MAX) & ((dd >= FLT_MIN) | ((dx == 0.0f) & (dy == 0.0f)));
}

/* Whether qs has no per-query tmin, tmax and q, and its batch values pass
 * hs_query_surely_valid's tests of them. */
static inline int hs_query_batch_surely_valid(const hs_queries *qs)
{
    const float big = HS_MAX_COORD, t0 = qs->tmin_all, t1 = qs->tmax_all;
    return !qs->tmin && !qs->tmax && !qs->q && qs->q_all >= 0.0f && qs->q_all <= big && t0 <= t1 &&
           t0 < INFINITY && t1 > -INFINITY;
}

/* Query i of a batch as an hs_query (NULL arrays replaced by the *_all fields). */
static inline hs_query hs_query_at(const hs_queries *qs, size_t i)
{
    hs_query q;
    q.a.x = qs->ax[i];
    q.a.y = qs->ay[i];
    q.d.x = qs->dx[i];
    q.d.y = qs->dy[i];
    q.tmin = qs->tmin ? qs->tmin[i] : qs->tmin_all;
    q.tmax = qs->tmax ? qs->tmax[i] : qs->tmax_all;
    q.q = qs->q ? qs->q[i] : qs->q_all;
    return q;
}

/* 1 and *kq filled when q (with its mask) is valid (every engine and path prepares queries
 * here, so they agree on what is valid). */
static inline int hs_prep_query_of(hs_query q, uint32_t mask, hs_semantics sem, hs_kq *kq)
{
    if (!hs_query_surely_valid(q) && hs_query_validate(q) != HS_OK)
        return 0;
    *kq = hs_kq_make(q, sem, mask);
    return 1;
}

/* Whether a query mask passes no circle: a circle set without masks counts as every bit set
 * ((mask[i] & m) != 0 with mask[i] = ~0), so a query mask of 0 hits nothing, whatever the
 * set. Every engine answers such a query as a miss (not an invalid one) without testing. */
static inline int hs_query_mask_none(uint32_t mask) { return mask == 0u; }

/* hs_prep_query_of for query i of qs. */
static inline int hs_prep_query(const hs_queries *qs, size_t i, hs_semantics sem, hs_kq *kq)
{
    if (!hs_prep_query_of(hs_query_at(qs, i), qs->mask ? qs->mask[i] : qs->mask_all, sem, kq))
        return 0;
    kq->ignore = qs->ignore ? qs->ignore[i] : HS_NONE;
    return 1;
}

#endif
