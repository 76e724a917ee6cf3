/* SPDX-License-Identifier: MIT */
/* Routing of distributed queries: which ranks' domains a query reaches, and from which t. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/narrow.h"
#include "mpi_internal.h"

/* The larger of a and b, both finite (fmax is a library call where NaN is possible). */
static inline double finite_max(double a, double b) { return a > b ? a : b; }

/* Does the capsule (query inflated by q) reach box b, and from which t on? The box is grown
 * by q and by a pad above the kernels' rounding at this magnitude, so a circle of the box the
 * kernels call hit is never missed, and its entry t is never below *t_enter. A box that is not
 * empty has finite bounds (circles' extents). Most queries start inside the one box they reach
 * (entry: tmin, the smallest t there is) and have both ends beyond a side of the others: those
 * two cases need no division. Otherwise each slab's t comes from one reciprocal of d: its
 * rounding moves t by a few ulps, far less than the pad moves it. */
int hs_mpi_reach_entry(const hs_dbox *b, const float *qv, double *t_enter)
{
    if (!(b->lo[0] <= b->hi[0]))
        return 0;
    const double ax = qv[0], ay = qv[1], dx = qv[2], dy = qv[3], q = qv[6];
    double t0 = qv[4], t1 = qv[5];
    const double mag = finite_max(finite_max(fabs(b->lo[0]), fabs(b->hi[0])),
                                  finite_max(fabs(b->lo[1]), fabs(b->hi[1])));
    const double g = q + hs_mx_pad(mag + fabs(ax) + fabs(ay) + q);
    const double x0 = b->lo[0] - g, x1 = b->hi[0] + g, y0 = b->lo[1] - g, y1 = b->hi[1] + g;
    if (isfinite(t0) && isfinite(t1)) {
        /* without a division: a start inside enters at t0; ends both beyond one side miss */
        const double px = ax + t0 * dx, py = ay + t0 * dy, qx = ax + t1 * dx, qy = ay + t1 * dy;
        if (px >= x0 && px <= x1 && py >= y0 && py <= y1) {
            *t_enter = t0;
            return 1;
        }
        if ((px < x0 && qx < x0) || (px > x1 && qx > x1) || (py < y0 && qy < y0) ||
            (py > y1 && qy > y1))
            return 0;
    }
    const double a[2] = {ax, ay}, d[2] = {dx, dy};
    const double blo[2] = {x0, y0}, bhi[2] = {x1, y1};
    for (int k = 0; k < 2; k++) {
        const double lo = blo[k], hi = bhi[k];
        if (d[k] == 0.0) {
            if (a[k] < lo || a[k] > hi)
                return 0;
            continue;
        }
        const double inv = 1.0 / d[k];
        double ta = (lo - a[k]) * inv, tb = (hi - a[k]) * inv;
        if (ta > tb) {
            double tt = ta;
            ta = tb;
            tb = tt;
        }
        if (ta > t0)
            t0 = ta;
        if (tb < t1)
            t1 = tb;
        if (t0 > t1)
            return 0;
    }
    *t_enter = t0;
    return 1;
}

/* Query i packed into its wire record r; 1 when it is valid. */
int hs_mpi_pack_query(const hs_queries *qs, size_t i, float *r)
{
    r[0] = qs->ax[i];
    r[1] = qs->ay[i];
    r[2] = qs->dx[i];
    r[3] = qs->dy[i];
    r[4] = qs->tmin ? qs->tmin[i] : qs->tmin_all;
    r[5] = qs->tmax ? qs->tmax[i] : qs->tmax_all;
    r[6] = qs->q ? qs->q[i] : qs->q_all;
    uint32_t m = qs->mask ? qs->mask[i] : qs->mask_all;
    memcpy(&r[7], &m, 4);
    hs_query q = {{r[0], r[1]}, {r[2], r[3]}, r[4], r[5], r[6]};
    return hs_query_validate(q) == HS_OK;
}

/* The ranks whose reach the query r reaches, by (entry t, rank), into rank / t when they are
 * not NULL; returns how many. */
size_t hs_mpi_query_targets(const hs_mpi_set *s, const float *r, int32_t *rank, double *t)
{
    size_t nt = 0;
    for (int p = 0; p < s->ranks; p++) {
        double te;
        if (!hs_mpi_reach_entry(&s->reach[p], r, &te))
            continue;
        size_t j = nt++;
        if (rank == NULL)
            continue;
        /* insertion: ranks come in increasing order, so equal entries keep rank order */
        while (j > 0 && t[j - 1] > te) {
            t[j] = t[j - 1];
            rank[j] = rank[j - 1];
            j--;
        }
        t[j] = te;
        rank[j] = p;
    }
    return nt;
}

/* Validates and packs the batch, and lists every valid query's targets: a counting pass and
 * a filling pass, each spread over the threads (queries are independent). */
