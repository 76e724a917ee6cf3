/* SPDX-License-Identifier: MIT */
/* Distributed particle pairs: ghost copies and the owner rule.
 *
 * If discs i and j overlap, |c_i - c_j| <= r_i + r_j, so j's centre lies within r_j plus the
 * largest radius owned by i's owner of that owner's domain (which holds c_i). Sending every
 * circle to each rank whose domain it lies that close to (with a rounding pad) puts every
 * partner of every owned circle in its owner's pair grid; the pair is kept only by the owner
 * of its smaller id, so it is reported once. The overlap test is hs_grid_pairs' own, on the
 * circles' own floats, so the set is the single-process one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

#define GREC 16u /* x, y, r, id */

static int ghost_of(const hs_mpi_set *s, int p, float x, float y, float r)
{
    if (p == s->rank || s->rmax[p] < 0.0f)
        return 0;
    const hs_dbox *b = &s->rcb.domain[p];
    const double X = x, Y = y, reach = (double)r + (double)s->rmax[p];
    const double ex = fmax(fmax(b->lo[0] - X, X - b->hi[0]), 0.0);
    const double ey = fmax(fmax(b->lo[1] - Y, Y - b->hi[1]), 0.0);
    const double lim = reach + hs_mx_pad(fabs(X) + fabs(Y) + reach);
    return ex * ex + ey * ey <= lim * lim;
}

static int cmp_rec_id(const void *a, const void *b)
{
    uint32_t x, y;
    memcpy(&x, (const unsigned char *)a + 12, 4);
    memcpy(&y, (const unsigned char *)b + 12, 4);
    return (x > y) - (x < y);
}

static hs_status reserve_pairs_set(hs_mpi_set *s, size_t n)
{
    if (n <= s->pcap)
        return HS_OK;
    size_t c = n + n / 8 + 16;
    float *x = realloc(s->px, c * sizeof *x);
    if (x == NULL)
        return HS_E_NOMEM;
    s->px = x;
    float *y = realloc(s->py, c * sizeof *y);
    if (y == NULL)
        return HS_E_NOMEM;
    s->py = y;
    float *r = realloc(s->pr, c * sizeof *r);
    if (r == NULL)
        return HS_E_NOMEM;
    s->pr = r;
    uint32_t *id = realloc(s->pid, c * sizeof *id);
    if (id == NULL)
        return HS_E_NOMEM;
    s->pid = id;
    uint8_t *o = realloc(s->powned, c);
    if (o == NULL)
        return HS_E_NOMEM;
    s->powned = o;
    s->pcap = c;
    return HS_OK;
}

/* Owned circles and the ghosts in s->rbuf (nghost records) merged by id into the pair set. */
static hs_status assemble(hs_mpi_set *s, size_t ng)
{
    hs_status st = reserve_pairs_set(s, s->count + ng);
    if (st != HS_OK)
        return st;
    unsigned char *g = s->rbuf.p;
    qsort(g, ng, GREC, cmp_rec_id);
    size_t a = 0, b = 0, k = 0;
    while (a < s->count || b < ng) {
        uint32_t gid = 0;
        if (b < ng)
            memcpy(&gid, g + b * GREC + 12, 4);
        if (b >= ng || (a < s->count && s->id[a] < gid)) {
            s->px[k] = s->x[a];
            s->py[k] = s->y[a];
            s->pr[k] = s->r[a];
            s->pid[k] = s->id[a];
            s->powned[k] = 1;
            a++;
        } else {
            memcpy(&s->px[k], g + b * GREC, 4);
            memcpy(&s->py[k], g + b * GREC + 4, 4);
            memcpy(&s->pr[k], g + b * GREC + 8, 4);
            s->pid[k] = gid;
            s->powned[k] = 0;
            b++;
        }
        k++;
    }
    s->pcount = k;
    hs_circles_destroy(s->pcs);
    s->pcs = NULL;
    st = hs_circles_borrow(s->px, s->py, s->pr, NULL, k, &s->pcs, NULL);
    if (st != HS_OK)
        return st;
    if (s->pgrid && hs_grid_rebuild(s->pgrid, s->pcs) == HS_OK)
        return HS_OK;
    hs_grid_destroy(s->pgrid);
    s->pgrid = NULL;
    hs_grid_opts go = {.cell_size = s->opts.cell_size, .threads = s->opts.threads};
    return hs_grid_build(s->pcs, &go, &s->pgrid);
}

static hs_status exchange_ghosts(hs_mpi_set *s)
{
    const int K = s->ranks;
    int *scnt = calloc((size_t)K, sizeof *scnt), *fill = calloc((size_t)K, sizeof *fill);
    int *rcnt = calloc((size_t)K, sizeof *rcnt), *rdsp = calloc((size_t)K, sizeof *rdsp);
    hs_status st = scnt && fill && rcnt && rdsp ? HS_OK : HS_E_NOMEM;
    size_t ns = 0;
    if (st == HS_OK) {
        for (size_t i = 0; i < s->count; i++)
            for (int p = 0; p < K; p++)
                if (ghost_of(s, p, s->x[i], s->y[i], s->r[i])) {
                    scnt[p]++;
                    ns++;
                }
        if (!hs_mbuf_reserve(&s->sbuf, ns * GREC + 1))
            st = HS_E_NOMEM;
    }
    if (st == HS_OK) {
        int acc = 0;
        for (int p = 0; p < K; p++) {
            fill[p] = acc;
            acc += scnt[p];
        }
        unsigned char *sb = s->sbuf.p;
        for (size_t i = 0; i < s->count; i++)
            for (int p = 0; p < K; p++)
                if (ghost_of(s, p, s->x[i], s->y[i], s->r[i])) {
                    unsigned char *d = sb + (size_t)fill[p]++ * GREC;
                    memcpy(d, &s->x[i], 4);
                    memcpy(d + 4, &s->y[i], 4);
                    memcpy(d + 8, &s->r[i], 4);
                    memcpy(d + 12, &s->id[i], 4);
                }
    }
    size_t ng = 0;
    uint64_t sent = 0, received = 0;
    st = hs_mx_exchange(s, st, s->sbuf.p, scnt, GREC, rcnt, rdsp, &ng, &sent, &received);
    if (st == HS_OK) {
        s->info.ghost_bytes_sent = (size_t)sent;
        st = assemble(s, ng);
        s->info.ghosts = ng;
    }
    free(scnt), free(fill), free(rcnt), free(rdsp);
    st = hs_mx_agree(s->comm, st);
    s->ghosts_valid = st == HS_OK;
    return st;
}

hs_status hs_mpi_pairs(hs_mpi_set *s, const hs_batch_opts *opts, hs_pairs *out)
{
    if (s == NULL)
        return HS_E_NULL;
    hs_status st = hs_mx_agree(s->comm, out == NULL ? HS_E_NULL : HS_OK);
    if (st != HS_OK)
        return st;
    memset(out, 0, sizeof *out);
    if (!s->ghosts_valid) {
        st = exchange_ghosts(s);
        if (st != HS_OK)
            return st;
    }
    hs_pairs lp;
    memset(&lp, 0, sizeof lp);
    st = hs_grid_pairs(s->pgrid, opts, &lp);
    size_t keep = 0;
    if (st == HS_OK) {
        for (size_t k = 0; k < lp.count; k++)
            keep += s->powned[lp.i[k]];
        out->i = malloc((keep + 1) * sizeof *out->i);
        out->j = malloc((keep + 1) * sizeof *out->j);
        if (out->i == NULL || out->j == NULL)
            st = HS_E_NOMEM;
    }
    if (st == HS_OK) {
        /* local order is id order: (i, j) order carries over */
        size_t w = 0;
        for (size_t k = 0; k < lp.count; k++)
            if (s->powned[lp.i[k]]) {
                out->i[w] = s->pid[lp.i[k]];
                out->j[w] = s->pid[lp.j[k]];
                w++;
            }
        out->count = w;
    }
    hs_pairs_free(&lp);
    st = hs_mx_agree(s->comm, st);
    if (st != HS_OK)
        hs_pairs_free(out);
    return st;
}
