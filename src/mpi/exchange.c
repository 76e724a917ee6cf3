/* SPDX-License-Identifier: MIT */
/* All-to-all exchanges with failure agreement, and the growable buffers they use. */
#include <limits.h>
#include <stdlib.h>

#include "mpi_internal.h"

int hs_mbuf_reserve(hs_mbuf *b, size_t bytes)
{
    if (bytes <= b->cap)
        return 1;
    size_t c = b->cap ? b->cap : 4096;
    while (c < bytes)
        c = c / 2 * 3 + 64;
    void *p = realloc(b->p, c);
    if (p == NULL)
        return 0;
    b->p = p;
    b->cap = c;
    return 1;
}

void hs_mbuf_free(hs_mbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->cap = 0;
}

hs_status hs_mx_agree(MPI_Comm comm, hs_status local)
{
    int v = (int)local, all = 0;
    if (MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return HS_E_RANGE;
    return (hs_status)all;
}

hs_status hs_mx_exchange(hs_mpi_set *s, hs_status status, const void *send, const int *scnt,
                         size_t unit, int *rcnt, int *rdsp, size_t *rtotal, uint64_t *sent,
                         uint64_t *received)
{
    const int K = s->ranks;
    int *hdr = s->cnt, *sdsp = s->cnt + K; /* the counts sent, or the failure */
    for (int p = 0; p < K; p++)
        hdr[p] = status < 0 ? (int)status : scnt[p];
    if (MPI_Alltoall(hdr, 1, MPI_INT, rcnt, 1, MPI_INT, s->comm) != MPI_SUCCESS)
        return HS_E_RANGE;
    hs_status worst = status < 0 ? status : HS_OK;
    for (int p = 0; p < K; p++)
        if (rcnt[p] < 0 && rcnt[p] < (int)worst)
            worst = (hs_status)rcnt[p];
    /* displacements in units must fit an int: a rank over the limit reports it in the same
     * way, through the answer of the next exchange (it cannot take part in this one) */
    size_t rs = 0, ss = 0;
    if (worst == HS_OK) {
        for (int p = 0; p < K; p++) {
            if (rs > (size_t)INT_MAX || ss > (size_t)INT_MAX)
                break;
            rdsp[p] = (int)rs;
            sdsp[p] = (int)ss;
            rs += (size_t)rcnt[p];
            ss += (size_t)scnt[p];
        }
        if (rs > (size_t)INT_MAX || ss > (size_t)INT_MAX)
            worst = HS_E_TOO_MANY;
        else if (!hs_mbuf_reserve(&s->rbuf, rs * unit + 1))
            worst = HS_E_NOMEM;
    }
    /* a local failure found after the counts went out: every rank learns of it here */
    hs_status all = hs_mx_agree(s->comm, worst);
    if (all < 0)
        return all;
    MPI_Datatype t;
    MPI_Type_contiguous((int)unit, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    int rc = MPI_Alltoallv(send, scnt, sdsp, t, s->rbuf.p, rcnt, rdsp, t, s->comm);
    MPI_Type_free(&t);
    if (rc != MPI_SUCCESS)
        return HS_E_RANGE;
    for (int p = 0; p < K; p++)
        if (p != s->rank) {
            *sent += (uint64_t)scnt[p] * unit;
            *received += (uint64_t)rcnt[p] * unit;
        }
    *rtotal = rs;
    return HS_OK;
}
