/* Routing of distributed queries: which ranks' domains a query reaches, and from which t. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/narrow.h"
#include "mpi_internal.h"

/* Does the capsule (query inflated by q) reach box b, and from which t on? The box is grown
 * by q and by a pad above the kernels' rounding at this magnitude, so a circle of the box the
 * kernels call hit is never missed, and its entry t is never below *t_enter. */
int hs_mpi_reach_entry(const hs_dbox *b, const float *qv, double *t_enter)
{
    if (!(b->lo[0] <= b->hi[0]))
        return 0;
    const double ax = qv[0], ay = qv[1], dx = qv[2], dy = qv[3], q = qv[6];
    double t0 = qv[4], t1 = qv[5];
    const double mag =
        fmax(fmax(fabs(b->lo[0]), fabs(b->hi[0])), fmax(fabs(b->lo[1]), fabs(b->hi[1])));
    const double g = q + hs_mx_pad(mag + fabs(ax) + fabs(ay) + q);
    const double a[2] = {ax, ay}, d[2] = {dx, dy};
    for (int k = 0; k < 2; k++) {
        const double lo = b->lo[k] - g, hi = b->hi[k] + g;
        if (d[k] == 0.0) {
            if (a[k] < lo || a[k] > hi)
                return 0;
            continue;
        }
        double ta = (lo - a[k]) / d[k], tb = (hi - a[k]) / d[k];
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
