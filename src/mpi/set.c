/* SPDX-License-Identifier: MIT */
/* Distributed circle sets: decomposition, moving circles to their owners, local grids. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/narrow.h"
#include "mpi_internal.h"

/* Centres sampled for the decomposition, over all ranks: the cut follows the sample's
 * quantiles, so the counts are balanced to about 1 / sqrt(sample / ranks). */
#define HS_MPI_SAMPLE 65536u

/* A moved circle: x, y, r, mask, id (4 bytes each), then the payload. */
#define HS_REC_HEAD 20u

static void rec_put(const hs_mpi_set *s, unsigned char *dst, float x, float y, float r,
                    uint32_t mask, uint32_t id, const void *payload)
{
    memcpy(dst, &x, 4);
    memcpy(dst + 4, &y, 4);
    memcpy(dst + 8, &r, 4);
    memcpy(dst + 12, &mask, 4);
    memcpy(dst + 16, &id, 4);
    if (s->opts.payload_size)
        memcpy(dst + HS_REC_HEAD, payload, s->opts.payload_size);
}

static int reserve_owned(hs_mpi_set *s, size_t n)
{
    if (n <= s->cap)
        return 1;
    size_t c = n + n / 8 + 16;
    float *x = realloc(s->x, c * sizeof *x);
    if (x == NULL)
        return 0;
    s->x = x;
    float *y = realloc(s->y, c * sizeof *y);
    if (y == NULL)
        return 0;
    s->y = y;
    float *r = realloc(s->r, c * sizeof *r);
    if (r == NULL)
        return 0;
    s->r = r;
    uint32_t *id = realloc(s->id, c * sizeof *id);
    if (id == NULL)
        return 0;
    s->id = id;
    if (s->has_mask) {
        uint32_t *m = realloc(s->mask, c * sizeof *m);
        if (m == NULL)
            return 0;
        s->mask = m;
    }
    if (s->opts.payload_size) {
        unsigned char *p = realloc(s->payload, c * s->opts.payload_size);
        if (p == NULL)
            return 0;
        s->payload = p;
    }
    s->cap = c;
    return 1;
}

typedef struct id_pos {
    uint32_t id, pos;
} id_pos;

static int cmp_id_pos(const void *a, const void *b)
{
    const id_pos *p = a, *q = b;
    return (p->id > q->id) - (p->id < q->id);
}

/* Appends n received records to the owned arrays (which hold `keep` circles sorted by id)
 * and restores the id order: the arrivals are sorted, then merged with the kept ones. */
static hs_status merge_arrivals(hs_mpi_set *s, size_t keep, const unsigned char *rec, size_t n)
{
    const size_t total = keep + n, ps = s->opts.payload_size;
    if (!reserve_owned(s, total))
        return HS_E_NOMEM;
    if (n == 0) {
        s->count = keep;
        return HS_OK;
    }
    id_pos *o = malloc(n * sizeof *o);
    /* the merged order built into fresh arrays, then swapped in */
    float *x = malloc((total + 1) * sizeof *x), *y = malloc((total + 1) * sizeof *y);
    float *r = malloc((total + 1) * sizeof *r);
    uint32_t *id = malloc((total + 1) * sizeof *id);
    uint32_t *m = s->has_mask ? malloc((total + 1) * sizeof *m) : NULL;
    unsigned char *pl = ps ? malloc((total + 1) * ps) : NULL;
    if (o == NULL || x == NULL || y == NULL || r == NULL || id == NULL ||
        (s->has_mask && m == NULL) || (ps && pl == NULL)) {
        free(o), free(x), free(y), free(r), free(id), free(m), free(pl);
        return HS_E_NOMEM;
    }
    const size_t rs = s->rec_size;
    for (size_t k = 0; k < n; k++) {
        memcpy(&o[k].id, rec + k * rs + 16, 4);
        o[k].pos = (uint32_t)k;
    }
    qsort(o, n, sizeof *o, cmp_id_pos);
    size_t a = 0, b = 0;
    for (size_t k = 0; k < total; k++) {
        if (b >= n || (a < keep && s->id[a] < o[b].id)) {
            x[k] = s->x[a];
            y[k] = s->y[a];
            r[k] = s->r[a];
            id[k] = s->id[a];
            if (m)
                m[k] = s->mask[a];
            if (ps)
                memcpy(pl + k * ps, s->payload + a * ps, ps);
            a++;
        } else {
            const unsigned char *src = rec + (size_t)o[b].pos * rs;
            memcpy(&x[k], src, 4);
            memcpy(&y[k], src + 4, 4);
            memcpy(&r[k], src + 8, 4);
            if (m)
                memcpy(&m[k], src + 12, 4);
            memcpy(&id[k], src + 16, 4);
            if (ps)
                memcpy(pl + k * ps, src + HS_REC_HEAD, ps);
            b++;
        }
    }
    free(o);
    free(s->x), free(s->y), free(s->r), free(s->id), free(s->mask), free(s->payload);
    s->x = x, s->y = y, s->r = r, s->id = id, s->mask = m, s->payload = pl;
    s->cap = total + 1;
    s->count = total;
    return HS_OK;
}

/* Sends every owned circle (from `first` on) whose owner is another rank to it, keeps the
 * rest in order, and merges in what arrives. The owned arrays must be sorted by id. */
static hs_status move_to_owners(hs_mpi_set *s, hs_status st)
{
    const int K = s->ranks;
    int *scnt = NULL, *rcnt = NULL, *rdsp = NULL;
    int *dest = NULL, *fill = NULL;
    const size_t n = s->count, rs = s->rec_size;
    if (st == HS_OK) {
        scnt = calloc((size_t)K, sizeof *scnt);
        rcnt = calloc((size_t)K, sizeof *rcnt);
        rdsp = calloc((size_t)K, sizeof *rdsp);
        fill = calloc((size_t)K, sizeof *fill);
        dest = malloc((n ? n : 1) * sizeof *dest);
        if (!scnt || !rcnt || !rdsp || !fill || !dest)
            st = HS_E_NOMEM;
    }
    size_t out = 0;
    if (st == HS_OK) {
        for (size_t i = 0; i < n; i++) {
            dest[i] = hs_rcb_owner(&s->rcb, s->x[i], s->y[i]);
            if (dest[i] != s->rank) {
                scnt[dest[i]]++;
                out++;
            }
        }
        if (!hs_mbuf_reserve(&s->sbuf, out * rs + 1))
            st = HS_E_NOMEM;
    }
    if (st == HS_OK) {
        int acc = 0;
        for (int p = 0; p < K; p++) {
            fill[p] = acc;
            acc += scnt[p];
        }
        unsigned char *sb = s->sbuf.p;
        size_t keep = 0;
        for (size_t i = 0; i < n; i++) {
            if (dest[i] == s->rank) {
                /* compacts the stayers in place, in order */
                s->x[keep] = s->x[i];
                s->y[keep] = s->y[i];
                s->r[keep] = s->r[i];
                s->id[keep] = s->id[i];
                if (s->has_mask)
                    s->mask[keep] = s->mask[i];
                if (s->opts.payload_size)
                    memmove(s->payload + keep * s->opts.payload_size,
                            s->payload + i * s->opts.payload_size, s->opts.payload_size);
                keep++;
            } else {
                rec_put(s, sb + (size_t)fill[dest[i]]++ * rs, s->x[i], s->y[i], s->r[i],
                        s->has_mask ? s->mask[i] : UINT32_MAX, s->id[i],
                        s->opts.payload_size ? s->payload + i * s->opts.payload_size : NULL);
            }
        }
        s->count = keep;
    }
    size_t rtotal = 0;
    uint64_t dummy = 0;
    st = hs_mx_exchange(s, st, s->sbuf.p, scnt, rs, rcnt, rdsp, &rtotal, &s->info.build_bytes_sent,
                        &dummy);
    if (st == HS_OK) {
        s->info.moved_out = out;
        s->info.moved_in = rtotal;
        st = merge_arrivals(s, s->count, s->rbuf.p, rtotal);
    }
    free(scnt), free(rcnt), free(rdsp), free(fill), free(dest);
    return st;
}

/* Cuts the domains from a sample of the owned centres (every rank computes the same cut). */
static hs_status decompose(hs_mpi_set *s)
{
    const int K = s->ranks;
    unsigned long long n = s->count, total = 0;
    MPI_Allreduce(&n, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, s->comm);
    s->total = (size_t)total;
    const size_t stride =
        total > HS_MPI_SAMPLE ? (size_t)((total + HS_MPI_SAMPLE - 1) / HS_MPI_SAMPLE) : 1;
    const size_t mine = (s->count + stride - 1) / stride;
    int *cnt = calloc((size_t)K, sizeof *cnt), *dsp = calloc((size_t)K, sizeof *dsp);
    float *loc = malloc((2 * mine + 1) * sizeof *loc);
    hs_status st = hs_mx_agree(s->comm, cnt && dsp && loc ? HS_OK : HS_E_NOMEM);
    float *pts = NULL, *px = NULL, *py = NULL;
    if (st == HS_OK) {
        int mi = (int)mine * 2;
        for (size_t k = 0; k < mine; k++) {
            loc[2 * k] = s->x[k * stride];
            loc[2 * k + 1] = s->y[k * stride];
        }
        MPI_Allgather(&mi, 1, MPI_INT, cnt, 1, MPI_INT, s->comm);
        size_t sum = 0;
        for (int p = 0; p < K; p++) {
            dsp[p] = (int)sum;
            sum += (size_t)cnt[p];
        }
        const size_t np = sum / 2;
        pts = malloc((sum + 1) * sizeof *pts);
        px = malloc((np + 1) * sizeof *px);
        py = malloc((np + 1) * sizeof *py);
        st = hs_mx_agree(s->comm, pts && px && py ? HS_OK : HS_E_NOMEM);
        if (st == HS_OK) {
            MPI_Allgatherv(loc, mi, MPI_FLOAT, pts, cnt, dsp, MPI_FLOAT, s->comm);
            s->info.build_bytes_sent += (uint64_t)mi * sizeof(float) * (uint64_t)(K - 1);
            for (size_t k = 0; k < np; k++) {
                px[k] = pts[2 * k];
                py[k] = pts[2 * k + 1];
            }
            hs_rcb_free(&s->rcb);
            st = hs_mx_agree(s->comm, hs_rcb_cut(&s->rcb, K, px, py, np));
        }
    }
    free(cnt), free(dsp), free(loc), free(pts), free(px), free(py);
    return st;
}

static hs_status validate_owned(const hs_mpi_set *s)
{
    for (size_t i = 0; i < s->count; i++) {
        hs_circle c = {s->x[i], s->y[i], s->r[i]};
        hs_status v = hs_circle_validate(c);
        if (v != HS_OK)
            return v;
    }
    return HS_OK;
}

static hs_status build_grid(hs_mpi_set *s)
{
    hs_circles_destroy(s->cs);
    s->cs = NULL;
    hs_status st =
        hs_circles_borrow(s->x, s->y, s->r, s->has_mask ? s->mask : NULL, s->count, &s->cs, NULL);
    if (st != HS_OK)
        return st;
    if (s->grid) {
        st = hs_grid_rebuild(s->grid, s->cs);
        if (st == HS_OK)
            return st;
        hs_grid_destroy(s->grid);
        s->grid = NULL;
    }
    hs_grid_opts go = {.cell_size = s->opts.cell_size, .threads = s->opts.threads};
    return hs_grid_build(s->cs, &go, &s->grid);
}

hs_status hs_mpi_refresh(hs_mpi_set *s)
{
    const int K = s->ranks;
    double mine[5] = {INFINITY, INFINITY, -INFINITY, -INFINITY, -1.0};
    for (size_t i = 0; i < s->count; i++) {
        double x = s->x[i], y = s->y[i], r = s->r[i];
        mine[0] = fmin(mine[0], x - r);
        mine[1] = fmin(mine[1], y - r);
        mine[2] = fmax(mine[2], x + r);
        mine[3] = fmax(mine[3], y + r);
        mine[4] = fmax(mine[4], r);
    }
    double *all = malloc((size_t)K * 5 * sizeof *all);
    hs_status st = hs_mx_agree(s->comm, all == NULL ? HS_E_NOMEM : HS_OK);
    if (st != HS_OK) {
        free(all);
        return st;
    }
    MPI_Allgather(mine, 5, MPI_DOUBLE, all, 5, MPI_DOUBLE, s->comm);
    for (int p = 0; p < K; p++) {
        hs_dbox b = {{all[5 * p], all[5 * p + 1]}, {all[5 * p + 2], all[5 * p + 3]}};
        s->reach[p] = b;
        s->rmax[p] = (float)all[5 * p + 4];
    }
    free(all);
    s->ghosts_valid = 0;
    s->info.ghosts = 0;
    return HS_OK;
}

static hs_status finish_build(hs_mpi_set *s, hs_status st, double t0, double t1, double t2)
{
    if (st == HS_OK)
        st = build_grid(s);
    st = hs_mx_agree(s->comm, st);
    if (st == HS_OK)
        st = hs_mpi_refresh(s);
    double t3 = MPI_Wtime();
    s->info.build_decompose_s = t1 - t0;
    s->info.build_move_s = t2 - t1;
    s->info.build_grid_s = t3 - t2;
    return st;
}

hs_status hs_mpi_build(MPI_Comm comm, const float *x, const float *y, const float *r,
                       const uint32_t *mask, const uint32_t *ids, const void *payload, size_t n,
                       const hs_mpi_opts *opts, hs_mpi_set **out)
{
    if (out == NULL)
        return HS_E_NULL;
    *out = NULL;
    hs_mpi_opts o = {0.0f, 0, 0};
    if (opts)
        o = *opts;
    hs_status st = HS_OK;
    if (n > 0 && (x == NULL || y == NULL || r == NULL || (o.payload_size && payload == NULL)))
        st = HS_E_NULL;
    else if (n > HS_MAX_COUNT || o.payload_size > (1u << 20))
        st = HS_E_TOO_MANY;
    hs_mpi_set *s = calloc(1, sizeof *s);
    if (s == NULL)
        st = HS_E_NOMEM;
    /* agreement before anything else: every rank leaves together */
    int flags[2] = {mask != NULL, (int)st}, red[2] = {0, 0};
    MPI_Allreduce(&flags[0], &red[0], 1, MPI_INT, MPI_MAX, comm);
    MPI_Allreduce(&flags[1], &red[1], 1, MPI_INT, MPI_MIN, comm);
    if (red[1] < 0) {
        free(s);
        return (hs_status)red[1];
    }
    s->comm = MPI_COMM_NULL;
    MPI_Comm_dup(comm, &s->comm);
    MPI_Comm_rank(s->comm, &s->rank);
    MPI_Comm_size(s->comm, &s->ranks);
    s->opts = o;
    s->has_mask = red[0];
    s->rec_size = HS_REC_HEAD + (o.payload_size + 3u) / 4u * 4u;
    const int K = s->ranks;
    s->cnt = malloc((size_t)K * 4 * sizeof *s->cnt);
    s->reach = malloc((size_t)K * sizeof *s->reach);
    s->rmax = malloc((size_t)K * sizeof *s->rmax);
    if (s->cnt == NULL || s->reach == NULL || s->rmax == NULL || !reserve_owned(s, n))
        st = HS_E_NOMEM;

    double t0 = MPI_Wtime();
    /* ids: the caller's, or this rank's offset + local index */
    unsigned long long nn = n, off = 0;
    MPI_Exscan(&nn, &off, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, s->comm);
    if (s->rank == 0)
        off = 0;
    if (st == HS_OK) {
        for (size_t i = 0; i < n; i++) {
            s->x[i] = x[i];
            s->y[i] = y[i];
            s->r[i] = r[i];
            s->id[i] = ids ? ids[i] : (uint32_t)(off + i);
            if (s->has_mask)
                s->mask[i] = mask ? mask[i] : UINT32_MAX;
        }
        if (o.payload_size)
            memcpy(s->payload, payload, n * o.payload_size);
        s->count = n;
        st = validate_owned(s);
        for (size_t i = 0; st == HS_OK && ids && i < n; i++)
            if (ids[i] > HS_MAX_COUNT)
                st = HS_E_RANGE;
    }
    unsigned long long total = 0;
    MPI_Allreduce(&nn, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, s->comm);
    if (total > HS_MAX_COUNT && st == HS_OK)
        st = HS_E_TOO_MANY;
    st = hs_mx_agree(s->comm, st);
    if (st == HS_OK)
        st = decompose(s);
    double t1 = MPI_Wtime();
    if (st == HS_OK) {
        /* move_to_owners keeps the order of what stays: the input sorted by id first */
        int sorted = 1;
        for (size_t i = 1; i < n; i++)
            sorted &= s->id[i - 1] < s->id[i];
        if (!sorted) {
            unsigned char *tmp = malloc(n * s->rec_size + 1);
            if (tmp == NULL)
                st = HS_E_NOMEM;
            else {
                for (size_t i = 0; i < n; i++)
                    rec_put(s, tmp + i * s->rec_size, s->x[i], s->y[i], s->r[i],
                            s->has_mask ? s->mask[i] : UINT32_MAX, s->id[i],
                            o.payload_size ? s->payload + i * o.payload_size : NULL);
                st = merge_arrivals(s, 0, tmp, n);
                free(tmp);
            }
        }
        st = move_to_owners(s, st);
    }
    double t2 = MPI_Wtime();
    st = finish_build(s, st, t0, t1, t2);
    if (st != HS_OK) {
        hs_mpi_destroy(s);
        return st;
    }
    *out = s;
    return HS_OK;
}

hs_status hs_mpi_rebuild(hs_mpi_set *s, int rebalance)
{
    if (s == NULL)
        return HS_E_NULL;
    double t0 = MPI_Wtime();
    s->info.build_bytes_sent = 0;
    hs_status st = hs_mx_agree(s->comm, validate_owned(s));
    if (st == HS_OK && rebalance)
        st = decompose(s);
    double t1 = MPI_Wtime();
    if (st == HS_OK)
        st = move_to_owners(s, st);
    double t2 = MPI_Wtime();
    return finish_build(s, st, t0, t1, t2);
}

void hs_mpi_destroy(hs_mpi_set *s)
{
    if (s == NULL)
        return;
    hs_grid_destroy(s->grid);
    hs_circles_destroy(s->cs);
    hs_grid_destroy(s->pgrid);
    hs_circles_destroy(s->pcs);
    free(s->x), free(s->y), free(s->r), free(s->mask), free(s->id), free(s->payload);
    free(s->px), free(s->py), free(s->pr), free(s->pid), free(s->powned);
    free(s->reach), free(s->rmax), free(s->cnt);
    hs_mbuf_free(&s->sbuf);
    hs_mbuf_free(&s->rbuf);
    for (int k = 0; k < HS_MQ_COUNT; k++)
        hs_mbuf_free(&s->qkeep[k]);
    hs_rcb_free(&s->rcb);
    if (s->comm != MPI_COMM_NULL)
        MPI_Comm_free(&s->comm);
    free(s);
}

hs_mpi_owned hs_mpi_owned_circles(hs_mpi_set *s)
{
    hs_mpi_owned o;
    memset(&o, 0, sizeof o);
    if (s == NULL)
        return o;
    o.x = s->x;
    o.y = s->y;
    o.r = s->r;
    o.mask = s->has_mask ? s->mask : NULL;
    o.id = s->id;
    o.payload = s->opts.payload_size ? s->payload : NULL;
    o.count = s->count;
    return o;
}

const hs_grid *hs_mpi_local_grid(const hs_mpi_set *s) { return s ? s->grid : NULL; }

void hs_mpi_get_info(const hs_mpi_set *s, hs_mpi_info *info)
{
    if (s == NULL || info == NULL)
        return;
    *info = s->info;
    info->rank = s->rank;
    info->ranks = s->ranks;
    info->owned = s->count;
    info->total = s->total;
    const hs_dbox *d = &s->rcb.domain[s->rank], *r = &s->reach[s->rank];
    info->domain.min.x = (float)d->lo[0];
    info->domain.min.y = (float)d->lo[1];
    info->domain.max.x = (float)d->hi[0];
    info->domain.max.y = (float)d->hi[1];
    info->reach.min.x = (float)r->lo[0];
    info->reach.min.y = (float)r->lo[1];
    info->reach.max.x = (float)r->hi[0];
    info->reach.max.y = (float)r->hi[1];
}
