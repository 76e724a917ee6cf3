/* SPDX-License-Identifier: MIT */
/* Private state of a distributed circle set, shared by the hitscan_mpi sources. */
#ifndef HITSCAN_MPI_INTERNAL_H
#define HITSCAN_MPI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/mpi.h"

/* One node of the recursive coordinate bisection: a leaf names its rank, an inner node sends
 * a centre with coordinate[axis] < split to child[0], else to child[1]. */
typedef struct hs_rcb_node {
    int32_t rank; /* >= 0: leaf */
    int32_t axis;
    float split;
    int32_t child[2];
} hs_rcb_node;

/* A box in double: infinite sides are +-INFINITY; empty when lo > hi. */
typedef struct hs_dbox {
    double lo[2], hi[2];
} hs_dbox;

/* The decomposition: the same on every rank. */
typedef struct hs_rcb {
    hs_rcb_node *node; /* 2 * ranks - 1 nodes, root first */
    hs_dbox *domain;   /* per rank */
    int ranks;
} hs_rcb;

hs_status hs_rcb_cut(hs_rcb *d, int ranks, const float *px, const float *py, size_t n);
void hs_rcb_free(hs_rcb *d);
static inline int hs_rcb_owner(const hs_rcb *d, float x, float y)
{
    const hs_rcb_node *nd = d->node;
    int32_t k = 0;
    while (nd[k].rank < 0)
        k = nd[k].child[(nd[k].axis ? y : x) < nd[k].split ? 0 : 1];
    return nd[k].rank;
}

/* Growable byte buffer. */
typedef struct hs_mbuf {
    void *p;
    size_t cap;
} hs_mbuf;
int hs_mbuf_reserve(hs_mbuf *b, size_t bytes);
void hs_mbuf_free(hs_mbuf *b);

/* The query calls' kept arrays (hs_mpi_set.qkeep): the submitting side's records, validity,
 * target offsets, positions, targets (rank, entry t), round starts and send slots; the
 * answering side's unpacked queries, masks, and closest's answers. */
enum {
    HS_MQ_REC,
    HS_MQ_VALID,
    HS_MQ_OFF,
    HS_MQ_POS,
    HS_MQ_TG_RANK,
    HS_MQ_TG_T,
    HS_MQ_FROM,
    HS_MQ_SLOT,
    HS_MQ_FIELDS,
    HS_MQ_MASK,
    HS_MQ_IDX,
    HS_MQ_T,
    HS_MQ_COUNT
};

struct hs_mpi_set {
    MPI_Comm comm; /* a duplicate: the set's messages never meet the caller's */
    int rank, ranks;
    hs_mpi_opts opts;
    int has_mask;
    size_t rec_size; /* bytes of one moved circle: x, y, r, mask, id, payload (4-aligned) */
    hs_rcb rcb;

    /* owned circles, sorted by id */
    float *x, *y, *r;
    uint32_t *mask, *id;
    unsigned char *payload;
    size_t count, cap;
    size_t total;

    hs_circles *cs;
    hs_grid *grid;
    hs_dbox *reach; /* per rank: box of its owned discs */
    float *rmax;    /* per rank: largest owned radius (-1 when nothing is owned) */

    /* ghosts for pairs: owned and ghost circles together, sorted by id */
    int ghosts_valid;
    float *px, *py, *pr;
    uint32_t *pid;
    uint8_t *powned;
    size_t pcount, pcap;
    hs_circles *pcs;
    hs_grid *pgrid;

    hs_mbuf sbuf, rbuf; /* exchange buffers, kept between calls */
    /* a query call's own arrays (query.c), kept between calls too: a frame loop's calls then
     * fault no fresh memory in */
    hs_mbuf qkeep[HS_MQ_COUNT];
    int *cnt; /* 4 * ranks ints: send / receive counts and displacements */

    hs_mpi_info info;
};

/* One exchange among all ranks: Alltoall of the counts (in units of `unit` bytes) and
 * Alltoallv of the data. A rank passing status < 0 sends it instead of its counts, and every
 * rank then returns the lowest such status with nothing exchanged, so a failure on one rank
 * never leaves the others waiting. Received data lands in s->rbuf, its counts and
 * displacements (in units) in rcnt / rdsp; bytes sent to other ranks are added to *sent,
 * bytes received from them to *received. */
hs_status hs_mx_exchange(hs_mpi_set *s, hs_status status, const void *send, const int *scnt,
                         size_t unit, int *rcnt, int *rdsp, size_t *rtotal, uint64_t *sent,
                         uint64_t *received);
/* The lowest status over all ranks (an Allreduce). */
hs_status hs_mx_agree(MPI_Comm comm, hs_status local);

/* Per-rank reach and largest radius, gathered after every (re)build; and ghost invalidation. */
hs_status hs_mpi_refresh(hs_mpi_set *s);

/* Pad that covers float rounding in box tests at coordinates of magnitude mag. */
static inline double hs_mx_pad(double mag) { return mag * (1.0 / 65536.0) + 1e-30; }

/* Routing (route.c). A query's wire record is 8 floats: ax, ay, dx, dy, tmin, tmax, q, mask. */
/* Does the query's capsule reach box b, and from which t on (*t_enter)? 1 if it does. */
int hs_mpi_reach_entry(const hs_dbox *b, const float *qv, double *t_enter);
/* Query i of qs packed into its record r; 1 when it is valid. */
int hs_mpi_pack_query(const hs_queries *qs, size_t i, float *r);
/* The ranks record r reaches (rank / t may be NULL: only counted), by entry t then rank. */
size_t hs_mpi_query_targets(const hs_mpi_set *s, const float *r, int32_t *rank, double *t);

#endif
