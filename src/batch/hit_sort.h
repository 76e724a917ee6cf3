/* SPDX-License-Identifier: MIT */
/* Internal: one query's hits sorted by (t, id) in place, without allocating (all_hits.c sorts
 * each query's hits in its thread's buffer with it). */
#ifndef HITSCAN_BATCH_HIT_SORT_H
#define HITSCAN_BATCH_HIT_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- One query's hits, sorted ------------------------------------------------------------- */

static inline int hit_less(float ta, uint32_t ia, float tb, uint32_t ib)
{
    return ta < tb || (ta == tb && ia < ib);
}

static inline void sift_down(uint32_t *id, float *t, size_t root, size_t n)
{
    for (;;) {
        size_t c = 2 * root + 1;
        if (c >= n)
            return;
        if (c + 1 < n && hit_less(t[c], id[c], t[c + 1], id[c + 1]))
            c++;
        if (!hit_less(t[root], id[root], t[c], id[c]))
            return;
        uint32_t ti = id[root];
        id[root] = id[c];
        id[c] = ti;
        float tt = t[root];
        t[root] = t[c];
        t[c] = tt;
        root = c;
    }
}

/* (t, id) as one unsigned key with the same order: t's bits made monotone (negatives
 * flipped, -0 folded into +0 first, as the float compare treats them as equal), id below. */
static inline uint64_t hit_key(float t, uint32_t id)
{
    float z = t + 0.0f;
    uint32_t u;
    memcpy(&u, &z, sizeof u);
    u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
    return ((uint64_t)u << 32) | id;
}

/* n <= w <= 8 hits by rank: each hit's slot is the number of smaller keys. w x w compares and
 * no branch on the data; the slots past n hold padding keys, which rank after every hit. A
 * query has a few hits, in the order the walk met them, so each comparison of an insertion
 * sort would be a coin toss for the branch predictor. */
#if defined(__GNUC__) || defined(__clang__)
#define HS_RANK_INLINE inline __attribute__((always_inline)) /* one copy per constant w */
#else
#define HS_RANK_INLINE inline
#endif
static HS_RANK_INLINE void rank_sort(uint32_t *id, float *t, size_t n, size_t w)
{
    uint64_t k[8];
    uint32_t in_id[8];
    float in_t[8];
    for (size_t i = 0; i < w; i++) { /* past n: the last hit again, ranked last */
        const size_t from = i < n ? i : n - 1;
        in_id[i] = id[from];
        in_t[i] = t[from];
        k[i] = i < n ? hit_key(in_t[i], in_id[i]) : UINT64_MAX;
    }
    /* each hit stored straight to its rank: a copy through a ranked scratch array would read
     * back with wide loads what narrow stores had just written, which stalls (no forwarding) */
    for (size_t i = 0; i < n; i++) {
        size_t r = 0;
        for (size_t j = 0; j < w; j++)
            r += k[j] < k[i];
        id[r] = in_id[i];
        t[r] = in_t[i];
    }
}

/* Sorts one query's hits by (t, id) in place, allocation-free: by rank up to 8 (the usual
 * handful), insertion sort up to 24, heapsort (O(n log n) worst case) for lines through
 * dense scenes. Entry times of valid queries are finite, and ids are distinct, so the order
 * is total: the result is unique and therefore the same whatever order the hits came in. */
static inline void sort_hits(uint32_t *id, float *t, size_t n)
{
    if (n <= 1)
        return;
    if (n <= 4) {
        rank_sort(id, t, n, 4);
        return;
    }
    if (n <= 8) {
        rank_sort(id, t, n, 8);
        return;
    }
    if (n <= 24) {
        for (size_t i = 1; i < n; i++) {
            uint32_t ki = id[i];
            float kt = t[i];
            size_t j = i;
            while (j > 0 && hit_less(kt, ki, t[j - 1], id[j - 1])) {
                id[j] = id[j - 1];
                t[j] = t[j - 1];
                j--;
            }
            id[j] = ki;
            t[j] = kt;
        }
        return;
    }
    for (size_t i = n / 2; i-- > 0;)
        sift_down(id, t, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        uint32_t ti = id[0];
        id[0] = id[end];
        id[end] = ti;
        float tt = t[0];
        t[0] = t[end];
        t[end] = tt;
        sift_down(id, t, 0, end);
    }
}

#endif
