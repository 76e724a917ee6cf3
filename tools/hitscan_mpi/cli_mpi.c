/* SPDX-License-Identifier: MIT */
/* hitscan_mpi: MPI start-up, the distributed set, and answers gathered from every rank. */
#include <stdlib.h>
#include <string.h>

#include "cli_mpi.h"
#include "hitscan/mpi.h"

/* The tool's one distributed set (a tool-level global: the library itself keeps none). */
static hs_mpi_set *g_set;
static int g_rank, g_ranks;

int hitscan_main(int argc, char **argv);

int hscli_mpi_root(void) { return g_rank == 0; }

int hscli_mpi_ranks(void) { return g_ranks; }

static void slice(size_t n, size_t *lo, size_t *hi)
{
    *lo = n * (size_t)g_rank / (size_t)g_ranks;
    *hi = n * (size_t)(g_rank + 1) / (size_t)g_ranks;
}

hs_status hscli_mpi_build(const float *x, const float *y, const float *r, size_t n,
                          const hs_grid_opts *go)
{
    size_t lo, hi;
    slice(n, &lo, &hi);
    hs_mpi_opts mo = {go->cell_size, go->threads, 0};
    return hs_mpi_build(MPI_COMM_WORLD, x + lo, y + lo, r + lo, NULL, NULL, NULL, hi - lo, &mo,
                        &g_set);
}

void hscli_mpi_print_build(FILE *h, double build_ms)
{
    hs_mpi_info in;
    hs_mpi_get_info(g_set, &in);
    fprintf(h, "  build  %10.3f ms  distributed grids on %d ranks (rank 0 owns %zu circles)\n",
            build_ms, g_ranks, in.owned);
}

/* Every rank's slice [lo, hi) of a whole-batch array of elem-byte elements, gathered on all. */
static void gather(void *base, size_t m, size_t elem)
{
    int *cnt = malloc((size_t)g_ranks * sizeof *cnt), *dsp = malloc((size_t)g_ranks * sizeof *dsp);
    for (int p = 0; p < g_ranks; p++) {
        size_t lo = m * (size_t)p / (size_t)g_ranks, hi = m * (size_t)(p + 1) / (size_t)g_ranks;
        cnt[p] = (int)((hi - lo) * elem);
        dsp[p] = (int)(lo * elem);
    }
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, base, cnt, dsp, MPI_BYTE, MPI_COMM_WORLD);
    free(cnt), free(dsp);
}

/* The slice's CSR hits gathered into the whole batch's CSR, on every rank. */
static hs_status gather_all(const hs_hits *mine, size_t m, size_t lo, hs_hits *all)
{
    size_t hi = lo + mine->count;
    uint32_t *per = calloc(m + 1, sizeof *per);
    size_t *off = calloc(m + 1, sizeof *off);
    if (per == NULL || off == NULL) {
        free(per), free(off);
        return HS_E_NOMEM;
    }
    for (size_t i = lo; i < hi; i++)
        per[i] = (uint32_t)(mine->offsets[i - lo + 1] - mine->offsets[i - lo]);
    gather(per, m, sizeof *per);
    for (size_t i = 0; i < m; i++)
        off[i + 1] = off[i] + per[i];
    const size_t total = off[m];
    uint32_t *idx = malloc((total + 1) * sizeof *idx);
    float *t = malloc((total + 1) * sizeof *t);
    int *cnt = malloc((size_t)g_ranks * sizeof *cnt), *dsp = malloc((size_t)g_ranks * sizeof *dsp);
    hs_status st = idx && t && cnt && dsp ? HS_OK : HS_E_NOMEM;
    if (st == HS_OK) {
        for (int p = 0; p < g_ranks; p++) {
            size_t a = m * (size_t)p / (size_t)g_ranks, b = m * (size_t)(p + 1) / (size_t)g_ranks;
            cnt[p] = (int)(off[b] - off[a]);
            dsp[p] = (int)off[a];
        }
        memcpy(idx + off[lo], mine->idx, mine->total * sizeof *idx);
        memcpy(t + off[lo], mine->t, mine->total * sizeof *t);
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_UINT32_T, idx, cnt, dsp, MPI_UINT32_T, MPI_COMM_WORLD);
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_FLOAT, t, cnt, dsp, MPI_FLOAT, MPI_COMM_WORLD);
        all->offsets = off;
        all->idx = idx;
        all->t = t;
        all->count = m;
        all->total = total;
        all->ws = NULL;
        off = NULL, idx = NULL, t = NULL;
    }
    free(per), free(off), free(idx), free(t), free(cnt), free(dsp);
    return st;
}

hs_status hscli_mpi_run(int mode, const hs_circles *cs, const hs_queries *qs,
                        const hs_batch_opts *bo, hs_closest_out *cl, uint8_t *hit, uint32_t *count,
                        hs_hits *all)
{
    const size_t m = qs->count;
    size_t lo, hi;
    slice(m, &lo, &hi);
    hs_queries sub = *qs;
    sub.ax = qs->ax + lo, sub.ay = qs->ay + lo, sub.dx = qs->dx + lo, sub.dy = qs->dy + lo;
    sub.tmin = qs->tmin ? qs->tmin + lo : NULL;
    sub.tmax = qs->tmax ? qs->tmax + lo : NULL;
    sub.q = qs->q ? qs->q + lo : NULL;
    sub.mask = qs->mask ? qs->mask + lo : NULL;
    sub.count = hi - lo;
    hs_batch_stats st;
    memset(&st, 0, sizeof st);
    hs_batch_opts o = *bo;
    o.stats = &st;
    o.ws = NULL; /* all-hits' arrays are gathered into the caller's own */
    hs_status s = HS_E_RANGE;
    if (mode == 0) {
        hs_closest_out part = {cl->idx + lo, cl->t + lo,  cl->px + lo, cl->py + lo,
                               cl->nx + lo,  cl->ny + lo, NULL};
        s = cs ? hs_brute_closest(cs, &sub, &o, part) : hs_mpi_closest(g_set, &sub, &o, part);
    } else if (mode == 1)
        s = cs ? hs_brute_any(cs, &sub, &o, hit + lo) : hs_mpi_any(g_set, &sub, &o, hit + lo);
    else if (mode == 2)
        s = cs ? hs_brute_count(cs, &sub, &o, count + lo)
               : hs_mpi_count_hits(g_set, &sub, &o, count + lo);
    hs_hits mine;
    memset(&mine, 0, sizeof mine);
    if (mode == 3) {
        if (all->offsets)
            hs_hits_free(all);
        s = cs ? hs_brute_all(cs, &sub, &o, &mine) : hs_mpi_all(g_set, &sub, &o, &mine);
    }
    /* one outcome for all: the worst failure, else the whole batch's invalid queries */
    int bad = s < 0 && s != HS_E_INVALID_QUERY ? (int)s : 0, worst = 0;
    MPI_Allreduce(&bad, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (worst < 0) {
        hs_hits_free(&mine);
        return (hs_status)worst;
    }
    unsigned long long inv = st.invalid, inv_all = 0;
    unsigned long long first = st.invalid ? (unsigned long long)(lo + st.first_invalid) : ~0ull,
                       first_all = 0;
    unsigned long long tests = st.pair_tests, tests_all = 0;
    MPI_Allreduce(&inv, &inv_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&first, &first_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&tests, &tests_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (mode == 0) {
        gather(cl->idx, m, sizeof *cl->idx);
        float *f[5] = {cl->t, cl->px, cl->py, cl->nx, cl->ny};
        for (int k = 0; k < 5; k++)
            gather(f[k], m, sizeof(float));
    } else if (mode == 1)
        gather(hit, m, 1);
    else if (mode == 2)
        gather(count, m, sizeof *count);
    else {
        hs_status g = gather_all(&mine, m, lo, all);
        hs_hits_free(&mine);
        int gi = (int)g, gw = 0;
        MPI_Allreduce(&gi, &gw, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (gw < 0)
            return (hs_status)gw;
    }
    if (bo->stats) {
        bo->stats->invalid = (size_t)inv_all;
        bo->stats->first_invalid = inv_all ? (size_t)first_all : (size_t)-1;
        bo->stats->pair_tests = tests_all;
    }
    return inv_all ? HS_E_INVALID_QUERY : HS_OK;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
    /* one voice: the other ranks' messages and summaries would repeat rank 0's */
    if (g_rank != 0) {
        if (freopen("/dev/null", "w", stdout) == NULL || freopen("/dev/null", "w", stderr) == NULL)
            fputs("hitscan_mpi: cannot silence a rank\n", stderr);
    }
    int rc = hitscan_main(argc, argv);
    hs_mpi_destroy(g_set);
    g_set = NULL;
    MPI_Finalize();
    return rc;
}
