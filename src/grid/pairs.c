/* Every overlapping pair of circles (particle contacts), hs_grid_pairs.
 *
 * Circles are visited in storage order (cell by cell), so a circle's neighbourhood is the one
 * its predecessor just touched (in caller order every circle would cost a few cache misses).
 * Each overlapping pair is found from both of its circles (the
 * search box of a circle is grown by the largest radius of the other level, so it holds every
 * partner) and kept from the side with the smaller caller index. The pairs found are then put
 * in (i, j) order by a counting sort on i and a sort of each i's few partners: a total order,
 * so the output does not depend on the thread count or the schedule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "batch/prefix_sums.h"
#include "batch/worksteal.h"
#include "grid/layout.h"
#include "grid/overlap.h"
#include "tuning.h"

/* Pairs found by one block of storage positions. */
typedef struct pair_block {
    uint32_t *i, *j;
    size_t len, cap;
    int oom;
} pair_block;

typedef struct pair_scan {
    const hs_grid *g;
    uint32_t i; /* caller's index of the circle whose partners are collected */
    float x, y, r;
    pair_block *B;
} pair_scan;

static int pair_grow(pair_block *B, size_t need)
{
    size_t c = B->cap ? B->cap * 2 : 1024;
    while (c - B->len < need)
        c *= 2;
    uint32_t *pi = realloc(B->i, c * sizeof *pi);
    if (pi == NULL)
        return 0;
    B->i = pi;
    uint32_t *pj = realloc(B->j, c * sizeof *pj);
    if (pj == NULL)
        return 0;
    B->j = pj;
    B->cap = c;
    return 1;
}

static int pair_run(void *st, uint32_t b, uint32_t e)
{
    pair_scan *p = st;
    const hs_grid *g = p->g;
    pair_block *B = p->B;
    const uint32_t i = p->i, *id = g->id;
    /* Without branches: whether a neighbour has the larger index is a coin toss, and the
     * branch on it mispredicted about every other candidate. Every candidate is written to a
     * small buffer that stays in L1, whose length only advances over the kept ones; the kept
     * ones are then copied out (writing every candidate to the block's buffer instead made
     * dense clusters bound by memory writes). */
    enum { CH = 64 };
    uint32_t keep_j[CH];
    for (uint32_t c0 = b; c0 < e; c0 += CH) {
        const uint32_t c1 = e - c0 > CH ? c0 + CH : e;
        size_t nk = 0;
        for (uint32_t k = c0; k < c1; k++) {
            int keep = (id[k] > i) & hs_discs_overlap(p->x, p->y, p->r, g->x[k], g->y[k], g->r[k]);
            keep_j[nk] = id[k];
            nk += (size_t)keep;
        }
        if (nk == 0)
            continue;
        if (B->cap - B->len < nk && !pair_grow(B, nk)) {
            B->oom = 1;
            return 1;
        }
        for (size_t k = 0; k < nk; k++) {
            B->i[B->len + k] = i;
            B->j[B->len + k] = keep_j[k];
        }
        B->len += nk;
    }
    return 0;
}

/* Sorts one circle's partners in place: insertion sort for the usual handful, qsort for a
 * circle that covers many others (a big one among particles). */
static void sort_small_u32(uint32_t *v, size_t n)
{
    if (n > 32) {
        qsort(v, n, sizeof *v, hs_cmp_u32);
        return;
    }
    for (size_t a = 1; a < n; a++) {
        uint32_t x = v[a];
        size_t b = a;
        while (b > 0 && v[b - 1] > x) {
            v[b] = v[b - 1];
            b--;
        }
        v[b] = x;
    }
}

/* The partners of the circle at storage position pos with a larger caller index, appended to
 * B: every level's box around it, grown by that level's largest radius. */
static void find_partners(const hs_grid *g, size_t pos, pair_block *B)
{
    pair_scan ps = {g, g->id[pos], g->x[pos], g->y[pos], g->r[pos], B};
    for (int l = 0; l < g->nlevels && !B->oom; l++) {
        const hs_glevel *L = &g->lv[l];
        double reach = (double)ps.r + (double)L->rmax;
        reach += hs_gpad(L->mag + fabs((double)ps.x) + fabs((double)ps.y), reach);
        hs_grid_box(g, L, ps.x - reach, ps.y - reach, ps.x + reach, ps.y + reach, pair_run, &ps);
    }
}

/* Every block of HS_PAIR_BLOCK storage positions scanned on the team. Blocks are consecutive
 * storage positions, so neighbours in space: each thread keeps a contiguous share of them
 * (batch/worksteal.h). Returns 1 if an allocation failed. */
static int find_pairs(const hs_grid *g, pair_block *blocks, size_t nb, int threads)
{
    const size_t n = g->n;
    int oom = 0;
    hs_sched sc;
    hs_sched_init(&sc, nb, threads);
#pragma omp parallel num_threads(threads) reduction(| : oom)
    {
        const unsigned home = hs_sched_home(&sc);
        for (ptrdiff_t k; (k = hs_sched_next(&sc, home)) >= 0;) {
            pair_block *B = &blocks[k];
            const size_t p0 = (size_t)k * HS_PAIR_BLOCK;
            const size_t p1 = p0 + HS_PAIR_BLOCK < n ? p0 + HS_PAIR_BLOCK : n;
            for (size_t pos = p0; pos < p1 && !B->oom; pos++)
                find_partners(g, pos, B);
            oom |= B->oom;
        }
    }
    return oom;
}

/* The blocks' pairs in (i, j) order into out (arrays allocated; start: n + 1 zeroed counters,
 * part: one per thread). A circle's partners are all found while its own position is
 * scanned, so caller index i owns one run of consecutive entries in exactly one block, and
 * its count and its slice of the output are written by one thread: the assembly runs on the
 * team, with no atomics and no branch on the data (a branch per entry to find runs would
 * mispredict often enough to serialise the random start[] misses). */
static void assemble_pairs(const pair_block *blocks, size_t nb, size_t n, int threads,
                           size_t *start, size_t *part, hs_pairs *out)
{
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (ptrdiff_t bb = 0; bb < (ptrdiff_t)nb; bb++)
        for (size_t k = 0; k < blocks[bb].len; k++)
            start[blocks[bb].i[k] + 1]++;
    hs_prefix_sums(start, n, threads, part);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (ptrdiff_t bb = 0; bb < (ptrdiff_t)nb; bb++) {
        const pair_block *B = &blocks[bb];
        for (size_t k = 0; k < B->len; k++) {
            const size_t at = start[B->i[k]]++;
            out->i[at] = B->i[k];
            out->j[at] = B->j[k];
        }
    }
    /* start[i] is now the end of i's partners, i.e. the start of i + 1's */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (ptrdiff_t ii = 0; ii < (ptrdiff_t)n; ii++) {
        const size_t lo = ii ? start[ii - 1] : 0, hi = start[ii];
        if (hi - lo > 1)
            sort_small_u32(out->j + lo, hi - lo);
    }
}

hs_status hs_grid_pairs(const hs_grid *g, const hs_batch_opts *opts, hs_pairs *out)
{
    if (g == NULL || out == NULL)
        return HS_E_NULL;
    memset(out, 0, sizeof *out);
    int threads = opts ? opts->threads : 0;
    if (threads < 0)
        return HS_E_RANGE;
    if (threads == 0)
        threads = omp_get_max_threads();
    const size_t n = g->n;
    if (n < 2)
        return HS_OK;
    const size_t nb = (n + HS_PAIR_BLOCK - 1) / HS_PAIR_BLOCK;
    if (nb < 2)
        threads = 1; /* one block: a team would only wait */
    pair_block *blocks = calloc(nb, sizeof *blocks);
    if (blocks == NULL)
        return HS_E_NOMEM;
    int oom = find_pairs(g, blocks, nb, threads);
    size_t total = 0;
    for (size_t b = 0; b < nb; b++)
        total += blocks[b].len;
    size_t *start = NULL, *part = NULL; /* start by caller index: counts, starts, ends */
    if (!oom && total > 0) {
        out->i = malloc(total * sizeof *out->i);
        out->j = malloc(total * sizeof *out->j);
        start = calloc(n + 1, sizeof *start);
        part = malloc((size_t)threads * sizeof *part);
        oom = out->i == NULL || out->j == NULL || start == NULL || part == NULL;
    }
    if (!oom && total > 0) {
        assemble_pairs(blocks, nb, n, threads, start, part, out);
        out->count = total;
    }
    free(part);
    free(start);
    for (size_t b = 0; b < nb; b++) {
        free(blocks[b].i);
        free(blocks[b].j);
    }
    free(blocks);
    if (oom) {
        hs_pairs_free(out);
        return HS_E_NOMEM;
    }
    return HS_OK;
}

void hs_pairs_free(hs_pairs *p)
{
    if (p == NULL)
        return;
    free(p->i);
    free(p->j);
    memset(p, 0, sizeof *p);
}
