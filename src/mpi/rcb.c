/* SPDX-License-Identifier: MIT */
/* Recursive coordinate bisection of circle centres into one axis-aligned domain per rank.
 *
 * Why bisection and not a space-filling curve: its domains are boxes, so whether a query's
 * capsule reaches a domain, and where it enters it, is one slab test; a curve's domains are
 * ragged unions of cells, which a box test over-covers (more forwarded queries) or which need
 * a walk of the curve's cells per query. Bisection also splits any rank count, not just
 * powers of two, in proportion (k / 2 ranks get that share of the centres). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

typedef struct rcb_pt {
    float c[2];
    uint32_t seq; /* position in the input: makes the order total, so every rank agrees */
} rcb_pt;

static int cmp_x(const void *a, const void *b)
{
    const rcb_pt *p = a, *q = b;
    if (p->c[0] != q->c[0])
        return p->c[0] < q->c[0] ? -1 : 1;
    if (p->c[1] != q->c[1])
        return p->c[1] < q->c[1] ? -1 : 1;
    return (p->seq > q->seq) - (p->seq < q->seq);
}

static int cmp_y(const void *a, const void *b)
{
    const rcb_pt *p = a, *q = b;
    if (p->c[1] != q->c[1])
        return p->c[1] < q->c[1] ? -1 : 1;
    if (p->c[0] != q->c[0])
        return p->c[0] < q->c[0] ? -1 : 1;
    return (p->seq > q->seq) - (p->seq < q->seq);
}

typedef struct rcb_ctx {
    hs_rcb *d;
    int32_t next; /* next free node */
} rcb_ctx;

static int32_t cut(rcb_ctx *C, rcb_pt *pt, size_t n, int rank0, int k, hs_dbox box)
{
    const int32_t me = C->next++;
    hs_rcb_node *nd = &C->d->node[me];
    if (k == 1) {
        nd->rank = rank0;
        nd->axis = 0;
        nd->split = 0.0f;
        nd->child[0] = nd->child[1] = -1;
        C->d->domain[rank0] = box;
        return me;
    }
    /* the longer side of the points' bounds (of the region when there are no points) */
    int axis;
    if (n > 0) {
        float lo[2] = {pt[0].c[0], pt[0].c[1]}, hi[2] = {lo[0], lo[1]};
        for (size_t i = 1; i < n; i++)
            for (int a = 0; a < 2; a++) {
                lo[a] = fminf(lo[a], pt[i].c[a]);
                hi[a] = fmaxf(hi[a], pt[i].c[a]);
            }
        axis = (double)hi[1] - lo[1] > (double)hi[0] - lo[0];
    } else {
        double w0 = box.hi[0] - box.lo[0], w1 = box.hi[1] - box.lo[1];
        axis = !(w0 >= w1); /* infinite widths compare equal: x */
    }
    const int k0 = k / 2;
    float split;
    size_t n0 = 0;
    if (n > 0) {
        qsort(pt, n, sizeof *pt, axis ? cmp_y : cmp_x);
        size_t m = (size_t)((unsigned long long)n * (unsigned)k0 / (unsigned)k);
        split = pt[m].c[axis];
        while (n0 < n && pt[n0].c[axis] < split)
            n0++;
    } else {
        /* no points: halve the region where it is finite, else cut at its finite side or 0 */
        double lo = box.lo[axis], hi = box.hi[axis];
        double s = isfinite(lo) && isfinite(hi) ? 0.5 * (lo + hi)
                   : isfinite(lo)               ? lo
                   : isfinite(hi)               ? hi
                                                : 0.0;
        split = (float)s;
        if ((double)split < lo)
            split = nextafterf(split, INFINITY);
        if ((double)split > hi)
            split = nextafterf(split, -INFINITY);
    }
    nd->rank = -1;
    nd->axis = axis;
    nd->split = split;
    hs_dbox b0 = box, b1 = box;
    b0.hi[axis] = split;
    b1.lo[axis] = split;
    int32_t c0 = cut(C, pt, n0, rank0, k0, b0);
    int32_t c1 = cut(C, pt + n0, n - n0, rank0 + k0, k - k0, b1);
    nd->child[0] = c0;
    nd->child[1] = c1;
    return me;
}

hs_status hs_rcb_cut(hs_rcb *d, int ranks, const float *px, const float *py, size_t n)
{
    memset(d, 0, sizeof *d);
    d->node = malloc((size_t)(2 * ranks - 1) * sizeof *d->node);
    d->domain = malloc((size_t)ranks * sizeof *d->domain);
    rcb_pt *pt = malloc((n ? n : 1) * sizeof *pt);
    if (d->node == NULL || d->domain == NULL || pt == NULL) {
        free(pt);
        hs_rcb_free(d);
        return HS_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        pt[i].c[0] = px[i];
        pt[i].c[1] = py[i];
        pt[i].seq = (uint32_t)i;
    }
    d->ranks = ranks;
    rcb_ctx C = {d, 0};
    hs_dbox all = {{-INFINITY, -INFINITY}, {INFINITY, INFINITY}};
    cut(&C, pt, n, 0, ranks, all);
    free(pt);
    return HS_OK;
}

void hs_rcb_free(hs_rcb *d)
{
    free(d->node);
    free(d->domain);
    memset(d, 0, sizeof *d);
}
