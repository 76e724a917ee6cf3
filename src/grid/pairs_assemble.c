/* SPDX-License-Identifier: MIT */
/* hs_grid_pairs' assembly: the pairs found block by block into (i, j) order. A total order,
 * so the output does not depend on the thread count, the schedule or the lists.
 *
 * Two counting sorts on i instead of one: the pairs first go to buckets of 2^BUCKET_BITS
 * consecutive indices (each thread writes a few hundred sequential streams into the output,
 * at offsets from per-thread histograms), then each bucket is sorted on its own inside L2:
 * copied to the thread's scratch, counted and placed back by index, and each index's partners
 * sorted. One counting sort over all n indices would read, increment and write a random
 * counter and a random output slot per pair, out of cache at 10^6 circles; up to a bucket's
 * worth of circles it is what the assembly does (a bucket per index), without the scratch. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grid/discs.h"
#include "grid/pairs_assemble.h"
#include "grid/storage.h"
#include "invariant.h"
#include "tuning.h"

/* Partner lists longer than this are sorted by radix, a byte at a time (a big circle among
 * particles has thousands of partners); shorter ones by insertion sort. */
enum { RADIX_FROM = 64 };

/* Insertion sort of v, w moved along when not NULL. */
static void sort_insertion_u32(uint32_t *v, uint32_t *w, size_t n)
{
    for (size_t a = 1; a < n; a++) {
        const uint32_t x = v[a], y = w ? w[a] : 0u;
        size_t b = a;
        while (b > 0 && v[b - 1] > x) {
            v[b] = v[b - 1];
            if (w)
                w[b] = w[b - 1];
            b--;
        }
        v[b] = x;
        if (w)
            w[b] = y;
    }
}

/* Stable LSD radix sort of v through tmp (n entries each; w, when not NULL, moved along through
 * the second half of tmp); bytes on which every value agrees are skipped. */
static void sort_radix_u32(uint32_t *v, uint32_t *w, uint32_t *tmp, size_t n)
{
    uint32_t *src = v, *dst = tmp, *wsrc = w, *wdst = w ? tmp + n : NULL;
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
        for (size_t k = 0; k < n; k++) {
            const size_t a = cnt[(src[k] >> sh) & 255u]++;
            dst[a] = src[k];
            if (w)
                wdst[a] = wsrc[k];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
        t = wsrc;
        wsrc = wdst;
        wdst = t;
    }
    if (src != v) {
        memcpy(v, src, n * sizeof *v);
        if (w)
            memcpy(w, wsrc, n * sizeof *w);
    }
}

/* Sorts one circle's partners, and their words when w is not NULL; *tmp (of *tmp_cap entries)
 * is the thread's radix buffer, grown here. Without memory for it, insertion sort (a rare
 * path: only when the buffer cannot be had). */
static void sort_partners(uint32_t *v, uint32_t *w, size_t n, uint32_t **tmp, size_t *tmp_cap)
{
    if (n <= RADIX_FROM) {
        sort_insertion_u32(v, w, n);
        return;
    }
    size_t k = 1;
    while (k < n && v[k - 1] <= v[k])
        k++;
    if (k == n) /* already in order, as a dense cell's partners often come */
        return;
    const size_t need = w ? 2 * n : n;
    if (*tmp_cap < need) {
        free(*tmp);
        *tmp = malloc(need * sizeof **tmp);
        *tmp_cap = *tmp ? need : 0;
    }
    if (*tmp != NULL)
        sort_radix_u32(v, w, *tmp, n);
    else if (w == NULL)
        qsort(v, n, sizeof *v, hs_cmp_u32);
    else
        sort_insertion_u32(v, w, n);
}

enum { BUCKET_BITS = 12, BUCKET_SIZE = 1 << BUCKET_BITS };

/* The lists taken as one sequence of entries: list index and offset of entry e0. */
static void seek(const hs_pair_list *lists, size_t nl, size_t e0, size_t *l, size_t *k)
{
    *l = 0;
    while (*l < nl && e0 >= lists[*l].len && e0 > 0) {
        e0 -= lists[*l].len;
        ++*l;
    }
    *k = e0;
}

/* Bucket sizes of this thread's share of the entries, [e0, e1), into h: bucket i >> shift. */
static void count_share(const hs_pair_list *lists, size_t nl, size_t e0, size_t e1, unsigned shift,
                        size_t *h)
{
    size_t l, k;
    seek(lists, nl, e0, &l, &k);
    for (size_t left = e1 - e0; left > 0 && l < nl; l++, k = 0) {
        const hs_pair_list *B = &lists[l];
        const size_t m = B->len - k < left ? B->len - k : left;
        for (size_t q = k; q < k + m; q++)
            h[B->i[q] >> shift]++;
        left -= m;
    }
}

/* The same share written to its buckets' slices of the output (at[] the next slot of each),
 * with each entry's place in the sequence into out_w when it is not NULL. */
static void scatter_share(const hs_pair_list *lists, size_t nl, size_t e0, size_t e1,
                          unsigned shift, size_t *at, uint32_t *out_i, uint32_t *out_j,
                          uint32_t *out_w)
{
    size_t l, k, e = e0;
    seek(lists, nl, e0, &l, &k);
    for (size_t left = e1 - e0; left > 0 && l < nl; l++, k = 0) {
        const hs_pair_list *B = &lists[l];
        const size_t m = B->len - k < left ? B->len - k : left;
        for (size_t q = k; q < k + m; q++, e++) {
            const size_t a = at[B->i[q] >> shift]++;
            out_i[a] = B->i[q];
            out_j[a] = B->j[q];
            if (out_w)
                out_w[a] = (uint32_t)e;
        }
        left -= m;
    }
}

/* A bucket's scratch: its pairs (and words) while they are placed by index, and the count
 * per index (32 KB: on the heap, so the call fits a 64 KB thread stack). */
typedef struct bucket_scratch {
    uint32_t *si, *sj, *sw, *tmp;
    size_t tmp_cap;
    size_t *cnt; /* BUCKET_SIZE */
} bucket_scratch;

/* One bucket's slice [lo, hi) of the output, in any order, into (i, j) order (out_w moved
 * along when not NULL); sc holds hi - lo entries per array. */
static void sort_bucket(uint32_t *out_i, uint32_t *out_j, uint32_t *out_w, size_t lo, size_t hi,
                        uint32_t base, bucket_scratch *sc)
{
    enum { NB = BUCKET_SIZE };
    size_t *cnt = sc->cnt;
    const size_t m = hi - lo;
    uint32_t *si = sc->si, *sj = sc->sj, *sw = sc->sw;
    memcpy(si, out_i + lo, m * sizeof *si);
    memcpy(sj, out_j + lo, m * sizeof *sj);
    if (out_w)
        memcpy(sw, out_w + lo, m * sizeof *sw);
    memset(cnt, 0, NB * sizeof *cnt);
    for (size_t q = 0; q < m; q++)
        cnt[si[q] - base]++;
    size_t at = 0;
    for (size_t d = 0; d < NB; d++) {
        const size_t c = cnt[d];
        cnt[d] = at;
        at += c;
    }
    for (size_t q = 0; q < m; q++) {
        const size_t a = lo + cnt[si[q] - base]++;
        out_i[a] = si[q];
        out_j[a] = sj[q];
        if (out_w)
            out_w[a] = sw[q];
    }
    /* cnt[d] is now the end of index base + d's partners */
    for (size_t d = 0, s0 = 0; d < NB; d++) {
        if (cnt[d] - s0 > 1)
            sort_partners(out_j + lo + s0, out_w ? out_w + lo + s0 : NULL, cnt[d] - s0, &sc->tmp,
                          &sc->tmp_cap);
        s0 = cnt[d];
    }
}

/* The assembly's steps on the team: shares of the lists taken as one sequence (T of them,
 * fixed: the output does not depend on which slot took which), then buckets. */
typedef struct assemble_call {
    const hs_pair_list *lists;
    size_t nl, total, nbk, T, big;
    unsigned shift; /* BUCKET_BITS, or 0: a bucket per index */
    size_t *hist, *bstart;
    uint32_t *out_i, *out_j, *out_w;
    _Atomic size_t next;
    atomic_int oom;
} assemble_call;

static void count_one(void *ctx, size_t u, int slot)
{
    const assemble_call *a = (const assemble_call *)ctx;
    (void)slot;
    count_share(a->lists, a->nl, a->total * u / a->T, a->total * (u + 1) / a->T, a->shift,
                a->hist + u * a->nbk);
}

static void scatter_one(void *ctx, size_t u, int slot)
{
    const assemble_call *a = (const assemble_call *)ctx;
    (void)slot;
    scatter_share(a->lists, a->nl, a->total * u / a->T, a->total * (u + 1) / a->T, a->shift,
                  a->hist + u * a->nbk, a->out_i, a->out_j, a->out_w);
}

/* A slot's buckets, sorted in its own scratch (allocated once it has taken a bucket). */
static void sort_buckets(void *ctx, int slot)
{
    assemble_call *a = (assemble_call *)ctx;
    const size_t big = a->big;
    bucket_scratch sc = {NULL, NULL, NULL, NULL, 0, NULL};
    int have = 0;
    (void)slot;
    for (ptrdiff_t b; (b = hs_par_claim(&a->next, a->nbk)) >= 0;) {
        if (!have) { /* one after the other, none after a failure */
            have = 1;
            sc.cnt = malloc(BUCKET_SIZE * sizeof *sc.cnt);
            sc.si = sc.cnt && big > 0 ? malloc(big * sizeof *sc.si) : NULL;
            sc.sj = sc.si ? malloc(big * sizeof *sc.sj) : NULL;
            sc.sw = sc.sj && a->out_w ? malloc(big * sizeof *sc.sw) : NULL;
            if (sc.cnt == NULL ||
                (big > 0 && (sc.si == NULL || sc.sj == NULL || (a->out_w && sc.sw == NULL))))
                atomic_store(&a->oom, 1);
        }
        if (!atomic_load_explicit(&a->oom, memory_order_relaxed))
            sort_bucket(a->out_i, a->out_j, a->out_w, a->bstart[b], a->bstart[b + 1],
                        (uint32_t)b << BUCKET_BITS, &sc);
    }
    free(sc.cnt);
    free(sc.tmp);
    free(sc.sw);
    free(sc.sj);
    free(sc.si);
}

/* With a bucket per index the pairs are in i order once scattered: a slot's groups of
 * INDEX_GROUP indices, each index's partners sorted in place. */
enum { INDEX_GROUP = 256 };
static void sort_indices(void *ctx, int slot)
{
    assemble_call *a = (assemble_call *)ctx;
    uint32_t *tmp = NULL;
    size_t tmp_cap = 0;
    (void)slot;
    HS_ASSERT(a->shift == 0);
    const size_t ngroups = (a->nbk + INDEX_GROUP - 1) / INDEX_GROUP;
    for (ptrdiff_t u; (u = hs_par_claim(&a->next, ngroups)) >= 0;) {
        const size_t d1 =
            ((size_t)u + 1) * INDEX_GROUP < a->nbk ? ((size_t)u + 1) * INDEX_GROUP : a->nbk;
        for (size_t d = (size_t)u * INDEX_GROUP; d < d1; d++) {
            const size_t lo = a->bstart[d], m = a->bstart[d + 1] - lo;
            if (m > 1)
                sort_partners(a->out_j + lo, a->out_w ? a->out_w + lo : NULL, m, &tmp, &tmp_cap);
        }
    }
    free(tmp);
}

int hs_pairs_assemble(const hs_pair_list *lists, size_t nl, size_t n, const hs_par *par,
                      uint32_t *out_i, uint32_t *out_j, uint32_t *out_w)
{
    size_t total = 0;
    for (size_t l = 0; l < nl; l++)
        total += lists[l].len;
    /* up to a bucket's worth of indices, one counting sort on i: no bucket scratch */
    const unsigned shift = n <= BUCKET_SIZE ? 0u : (unsigned)BUCKET_BITS;
    const size_t nbk = ((n - 1) >> shift) + 1, T = (size_t)par->threads;
    /* hist[t * nbk + b]: pairs of bucket b in share t; then where t writes them */
    size_t *hist = calloc(T * nbk, sizeof *hist), *bstart = malloc((nbk + 1) * sizeof *bstart);
    int oom = hist == NULL || bstart == NULL;
    if (oom)
        goto done;
    assemble_call a = {lists, nl, total, nbk, T, 0, shift, hist, bstart, out_i, out_j, out_w, 0, 0};
    atomic_init(&a.next, 0);
    atomic_init(&a.oom, 0);
    const hs_par alone = hs_par_cap(*par, 1), *light = total < 2 * HS_PAR_LIGHT_STEP ? &alone : par;
    hs_par_for(light, T, count_one, &a);
    size_t at = 0;
    for (size_t b = 0; b < nbk; b++) {
        bstart[b] = at;
        for (size_t u = 0; u < T; u++) {
            const size_t c = hist[u * nbk + b];
            hist[u * nbk + b] = at;
            at += c;
        }
    }
    bstart[nbk] = at;
    hs_par_for(light, T, scatter_one, &a);
    for (size_t b = 0; shift != 0 && b < nbk; b++) /* the bucket path's scratch size */
        a.big = bstart[b + 1] - bstart[b] > a.big ? bstart[b + 1] - bstart[b] : a.big;
    hs_par_team(light, shift == 0 ? sort_indices : sort_buckets, &a);
    oom = atomic_load(&a.oom);
done:
    free(bstart);
    free(hist);
    return oom;
}

typedef struct copy_lists {
    const hs_pair_list *lists;
    const size_t *base;
    hs_pair_rec *ans;
} copy_lists;

static void copy_list(void *ctx, size_t b, int slot)
{
    const copy_lists *c = (const copy_lists *)ctx;
    (void)slot;
    if (c->lists[b].len)
        memcpy(c->ans + c->base[b], c->lists[b].rec, c->lists[b].len * sizeof *c->ans);
}

int hs_pairs_assemble_carried(const hs_pair_list *lists, size_t nl, size_t total, size_t n,
                              const hs_par *par, uint32_t *out_i, uint32_t *out_j,
                              hs_pair_rec **ans, uint32_t **word)
{
    /* each list's records copied to their place in one array (the lists taken as one
     * sequence); then the pairs in (i, j) order with the place each came from */
    size_t *base = malloc((nl + 1) * sizeof *base);
    *ans = hs_grid_alloc_lines(total, sizeof **ans);
    *word = hs_grid_alloc_lines(total, sizeof(uint32_t));
    int oom = !base || !*ans || !*word;
    if (!oom) {
        base[0] = 0;
        for (size_t b = 0; b < nl; b++)
            base[b + 1] = base[b] + lists[b].len;
        const copy_lists c = {lists, base, *ans};
        const hs_par alone = hs_par_cap(*par, 1);
        hs_par_for(total < 2 * HS_PAR_LIGHT_STEP ? &alone : par, nl, copy_list, (void *)&c);
        oom = hs_pairs_assemble(lists, nl, n, par, out_i, out_j, *word);
    }
    free(base);
    if (oom) {
        free(*ans);
        free(*word);
        *ans = NULL;
        *word = NULL;
    }
    return oom;
}

/* Where pair (i, j) is in the (i, j) order out_i, out_j of total pairs (it is there). */
static size_t find_pair(const uint32_t *out_i, const uint32_t *out_j, size_t total, uint32_t i,
                        uint32_t j)
{
    size_t lo = 0, hi = total;
    while (lo < hi) { /* the first pair of i */
        const size_t mid = lo + (hi - lo) / 2;
        if (out_i[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    hi = total;
    while (lo < hi) { /* the first of i's partners not below j */
        const size_t mid = lo + (hi - lo) / 2;
        if (out_i[mid] == i && out_j[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

typedef struct shifts_call {
    const hs_pair_list *lists;
    const uint32_t *out_i, *out_j;
    size_t total;
    int8_t *sx, *sy;
} shifts_call;

static void list_shifts(void *ctx, size_t b, int slot)
{
    const shifts_call *c = (const shifts_call *)ctx;
    const hs_pair_list *B = &c->lists[b];
    (void)slot;
    for (size_t k = 0; k < B->sh_len; k++) {
        const hs_pair_shift *e = &B->sh[k];
        const size_t m = find_pair(c->out_i, c->out_j, c->total, e->i, e->j);
        if (m < c->total && c->out_i[m] == e->i && c->out_j[m] == e->j) {
            c->sx[m] = e->sx;
            c->sy[m] = e->sy;
        }
    }
}

int hs_pairs_shifts(const hs_pair_list *lists, size_t nl, const uint32_t *out_i,
                    const uint32_t *out_j, size_t total, const hs_par *par, int8_t **psx,
                    int8_t **psy)
{
    int8_t *sx = *psx = calloc(total, 1), *sy = *psy = calloc(total, 1);
    if (sx == NULL || sy == NULL)
        return 1;
    const shifts_call c = {lists, out_i, out_j, total, sx, sy};
    const hs_par alone = hs_par_cap(*par, 1);
    hs_par_for(total < 2 * HS_PAR_LIGHT_STEP ? &alone : par, nl, list_shifts, (void *)&c);
    return 0;
}
