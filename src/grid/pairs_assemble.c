/* hs_grid_pairs' assembly: the pairs found block by block into (i, j) order, by a counting
 * sort on i and a sort of each i's partners. A total order, so the output does not depend on
 * the thread count or the schedule. */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "batch/prefix_sums.h"
#include "grid/overlap.h"
#include "grid/pairs.h"

int hs_pair_list_reserve(hs_pair_list *B, size_t need)
{
    if (B->cap - B->len >= need)
        return 1;
    size_t c = B->cap ? B->cap * 2 : 1024;
    while (c - B->len < need)
        c *= 2;
    uint32_t *pi = realloc(B->i, c * sizeof *pi);
    if (pi == NULL) {
        B->oom = 1;
        return 0;
    }
    B->i = pi;
    uint32_t *pj = realloc(B->j, c * sizeof *pj);
    if (pj == NULL) {
        B->oom = 1;
        return 0;
    }
    B->j = pj;
    B->cap = c;
    return 1;
}

void hs_pair_list_free(hs_pair_list *B)
{
    free(B->i);
    free(B->j);
    memset(B, 0, sizeof *B);
}

/* Partner lists longer than this are sorted by radix, a byte at a time (a big circle among
 * particles has thousands of partners); shorter ones by insertion sort. */
enum { RADIX_FROM = 64 };

static void sort_insertion_u32(uint32_t *v, size_t n)
{
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

/* Stable LSD radix sort of v through tmp (n entries each); bytes on which every value agrees
 * are skipped. */
static void sort_radix_u32(uint32_t *v, uint32_t *tmp, size_t n)
{
    uint32_t *src = v, *dst = tmp;
    for (unsigned sh = 0; sh < 32; sh += 8) {
        size_t cnt[256] = {0};
        for (size_t k = 0; k < n; k++)
            cnt[(src[k] >> sh) & 255u]++;
        if (cnt[(src[0] >> sh) & 255u] == n)
            continue;
        size_t at = 0;
        for (unsigned d = 0; d < 256; d++) {
            size_t c = cnt[d];
            cnt[d] = at;
            at += c;
        }
        for (size_t k = 0; k < n; k++)
            dst[cnt[(src[k] >> sh) & 255u]++] = src[k];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
}

/* Sorts one circle's partners; *tmp (of *tmp_cap entries) is the thread's radix buffer,
 * grown here. Without memory for it, qsort. */
static void sort_partners(uint32_t *v, size_t n, uint32_t **tmp, size_t *tmp_cap)
{
    if (n <= RADIX_FROM) {
        sort_insertion_u32(v, n);
        return;
    }
    if (*tmp_cap < n) {
        free(*tmp);
        *tmp = malloc(n * sizeof **tmp);
        *tmp_cap = *tmp ? n : 0;
    }
    if (*tmp == NULL)
        qsort(v, n, sizeof *v, hs_cmp_u32);
    else
        sort_radix_u32(v, *tmp, n);
}

static void count_list(const hs_pair_list *B, size_t *start)
{
    for (size_t k = 0; k < B->len; k++)
        start[B->i[k] + 1]++;
}

static void place_list(const hs_pair_list *B, size_t *start, uint32_t *out_i, uint32_t *out_j)
{
    for (size_t k = 0; k < B->len; k++) {
        const size_t at = start[B->i[k]]++;
        out_i[at] = B->i[k];
        out_j[at] = B->j[k];
    }
}

/* A cross list's pairs: their i may belong to any block, so on a team every counter update
 * is atomic (relaxed: the phases are ordered by the loops' barriers). */
static void count_cross(const uint32_t *id, const hs_pair_list *X, size_t *start, int shared)
{
    if (!shared) {
        for (size_t k = 0; k < X->len; k++)
            start[id[X->i[k]] + 1]++;
        return;
    }
    for (size_t k = 0; k < X->len; k++)
        __atomic_fetch_add(&start[id[X->i[k]] + 1], 1, __ATOMIC_RELAXED);
}

static void place_cross(const uint32_t *id, const hs_pair_list *X, size_t *start, int shared,
                        uint32_t *out_i, uint32_t *out_j)
{
    for (size_t k = 0; k < X->len; k++) {
        const uint32_t i = id[X->i[k]];
        const size_t at = shared ? __atomic_fetch_add(&start[i], 1, __ATOMIC_RELAXED) : start[i]++;
        out_i[at] = i;
        out_j[at] = X->j[k];
    }
}

/* The count and the placement of the lists run on the team with no atomics and no branch on
 * the data (a branch per entry to find runs would mispredict often enough to serialise the
 * random start[] misses): i's entries in the lists all lie in one list, handled by one
 * thread. The cross lists follow in loops of their own. A partner list's order of placement
 * does not matter: each is sorted at the end. */
void hs_pairs_assemble(const uint32_t *id, const hs_pair_list *lists, const hs_pair_list *cross,
                       size_t nb, size_t n, int threads, size_t *start, size_t *part,
                       uint32_t *out_i, uint32_t *out_j)
{
    const int shared = threads > 1;
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(dynamic, 1)
        for (ptrdiff_t bb = 0; bb < (ptrdiff_t)nb; bb++)
            count_list(&lists[bb], start);
#pragma omp for schedule(dynamic, 1)
        for (ptrdiff_t bb = 0; bb < (ptrdiff_t)nb; bb++)
            count_cross(id, &cross[bb], start, shared);
    }
    hs_prefix_sums(start, n, threads, part);
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(dynamic, 1)
        for (ptrdiff_t bb = 0; bb < (ptrdiff_t)nb; bb++)
            place_list(&lists[bb], start, out_i, out_j);
#pragma omp for schedule(dynamic, 1)
        for (ptrdiff_t bb = 0; bb < (ptrdiff_t)nb; bb++)
            place_cross(id, &cross[bb], start, shared, out_i, out_j);
    }
    /* start[i] is now the end of i's partners, i.e. the start of i + 1's */
#pragma omp parallel num_threads(threads)
    {
        uint32_t *tmp = NULL;
        size_t tmp_cap = 0;
#pragma omp for schedule(static)
        for (ptrdiff_t ii = 0; ii < (ptrdiff_t)n; ii++) {
            const size_t lo = ii ? start[ii - 1] : 0, hi = start[ii];
            if (hi - lo > 1)
                sort_partners(out_j + lo, hi - lo, &tmp, &tmp_cap);
        }
        free(tmp);
    }
}
