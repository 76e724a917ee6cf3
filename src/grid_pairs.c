/* Grid-based circle-circle overlap: all overlapping pairs (particle contacts) and disc / point overlap queries. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "grid_impl.h"

/* The overlap predicate shared by pairs and disc queries (touching counts). Symmetric in its
 * two circles, bit for bit, so (i, j) and (j, i) always agree. */
static inline int discs_overlap(float xa, float ya, float ra, float xb, float yb, float rb)
{
    float dx = xa - xb, dy = ya - yb, s = ra + rb;
    return dx * dx + dy * dy <= s * s;
}

typedef struct u32vec {
    uint32_t *v;
    size_t len, cap;
} u32vec;

static int u32_push(u32vec *a, uint32_t x)
{
    if (a->len == a->cap) {
        size_t c = a->cap ? a->cap * 2 : 64;
        uint32_t *p = realloc(a->v, c * sizeof *p);
        if (p == NULL)
            return 0;
        a->v = p;
        a->cap = c;
    }
    a->v[a->len++] = x;
    return 1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* ---- pairs --------------------------------------------------------------------------------- */

typedef struct pair_scan {
    const hs_grid *g;
    uint32_t i;      /* caller's index of the circle whose partners are collected */
    float x, y, r;
    u32vec *js;
    int oom;
} pair_scan;

static int pair_run(void *st, uint32_t b, uint32_t e)
{
    pair_scan *p = st;
    const hs_grid *g = p->g;
    for (uint32_t k = b; k < e; k++) {
        if (g->id[k] > p->i && discs_overlap(p->x, p->y, p->r, g->x[k], g->y[k], g->r[k]) &&
            !u32_push(p->js, g->id[k])) {
            p->oom = 1;
            return 1;
        }
    }
    return 0;
}

/* Pairs of one block of caller indices, in (i, j) order. */
typedef struct pair_block {
    uint32_t *i, *j;
    size_t len, cap;
} pair_block;

#define HS_PAIR_BLOCK 4096

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
    uint32_t *inv = malloc(n * sizeof *inv);
    size_t nb = (n + HS_PAIR_BLOCK - 1) / HS_PAIR_BLOCK;
    pair_block *blocks = calloc(nb, sizeof *blocks);
    if (inv == NULL || blocks == NULL) {
        free(inv);
        free(blocks);
        return HS_E_NOMEM;
    }
    for (size_t p = 0; p < n; p++)
        inv[g->id[p]] = (uint32_t)p;
    int oom = 0;
    /* each block of caller indices is answered on its own and the blocks are concatenated in
     * order, so the output is the same for every thread count */
#pragma omp parallel num_threads(threads) reduction(| : oom)
    {
        u32vec js = {NULL, 0, 0};
#pragma omp for schedule(dynamic, 1)
        for (ptrdiff_t bb = 0; bb < (ptrdiff_t)nb; bb++) {
            pair_block *B = &blocks[bb];
            size_t i0 = (size_t)bb * HS_PAIR_BLOCK, i1 = i0 + HS_PAIR_BLOCK < n ? i0 + HS_PAIR_BLOCK : n;
            for (size_t i = i0; i < i1 && !oom; i++) {
                uint32_t pos = inv[i];
                pair_scan ps = {g, (uint32_t)i, g->x[pos], g->y[pos], g->r[pos], &js, 0};
                js.len = 0;
                for (int l = 0; l < g->nlevels && !ps.oom; l++) {
                    const hs_glevel *L = &g->lv[l];
                    double Re = (double)ps.r + (double)L->rmax;
                    Re += hs_gpad(L->mag + fabs((double)ps.x) + fabs((double)ps.y), Re);
                    hs_grid_box(g, L, ps.x - Re, ps.y - Re, ps.x + Re, ps.y + Re, pair_run, &ps);
                }
                if (ps.oom) {
                    oom = 1;
                    break;
                }
                if (js.len == 0)
                    continue;
                qsort(js.v, js.len, sizeof *js.v, cmp_u32);
                if (B->cap - B->len < js.len) {
                    size_t c = B->cap ? B->cap : 256;
                    while (c - B->len < js.len)
                        c *= 2;
                    uint32_t *pi = realloc(B->i, c * sizeof *pi);
                    if (pi)
                        B->i = pi;
                    uint32_t *pj = pi ? realloc(B->j, c * sizeof *pj) : NULL;
                    if (pj)
                        B->j = pj;
                    if (pi == NULL || pj == NULL) {
                        oom = 1;
                        break;
                    }
                    B->cap = c;
                }
                for (size_t k = 0; k < js.len; k++) {
                    B->i[B->len + k] = (uint32_t)i;
                    B->j[B->len + k] = js.v[k];
                }
                B->len += js.len;
            }
        }
        free(js.v);
    }
    hs_status s = HS_OK;
    size_t total = 0;
    for (size_t b = 0; b < nb; b++)
        total += blocks[b].len;
    if (!oom && total > 0) {
        out->i = malloc(total * sizeof *out->i);
        out->j = malloc(total * sizeof *out->j);
        if (out->i == NULL || out->j == NULL) {
            oom = 1;
        } else {
            size_t at = 0;
            for (size_t b = 0; b < nb; b++) {
                memcpy(out->i + at, blocks[b].i, blocks[b].len * sizeof *out->i);
                memcpy(out->j + at, blocks[b].j, blocks[b].len * sizeof *out->j);
                at += blocks[b].len;
            }
            out->count = total;
        }
    }
    if (oom) {
        hs_pairs_free(out);
        s = HS_E_NOMEM;
    }
    for (size_t b = 0; b < nb; b++) {
        free(blocks[b].i);
        free(blocks[b].j);
    }
    free(blocks);
    free(inv);
    return s;
}

void hs_pairs_free(hs_pairs *p)
{
    if (p == NULL)
        return;
    free(p->i);
    free(p->j);
    memset(p, 0, sizeof *p);
}

/* ---- disc / point overlap -------------------------------------------------------------------- */

/* Keeps the cap smallest indices seen in a max-heap, so any number of results needs no memory
 * beyond the caller's buffer. */
typedef struct disc_scan {
    const hs_grid *g;
    float x, y, r;
    uint32_t mask;
    uint32_t *heap;
    size_t cap, len, found;
} disc_scan;

static void heap_sift_down(uint32_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && h[l] > h[m])
            m = l;
        if (l + 1 < n && h[l + 1] > h[m])
            m = l + 1;
        if (m == i)
            return;
        uint32_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void heap_add(disc_scan *d, uint32_t id)
{
    d->found++;
    if (d->cap == 0)
        return;
    if (d->len < d->cap) {
        size_t i = d->len++;
        d->heap[i] = id;
        while (i > 0) {
            size_t p = (i - 1) / 2;
            if (d->heap[p] >= d->heap[i])
                break;
            uint32_t t = d->heap[p];
            d->heap[p] = d->heap[i];
            d->heap[i] = t;
            i = p;
        }
    } else if (id < d->heap[0]) {
        d->heap[0] = id;
        heap_sift_down(d->heap, d->len, 0);
    }
}

static int disc_run(void *st, uint32_t b, uint32_t e)
{
    disc_scan *d = st;
    const hs_grid *g = d->g;
    for (uint32_t k = b; k < e; k++) {
        if (g->mask && (g->mask[k] & d->mask) == 0)
            continue;
        if (discs_overlap(d->x, d->y, d->r, g->x[k], g->y[k], g->r[k]))
            heap_add(d, g->id[k]);
    }
    return 0;
}

hs_status hs_grid_overlap_circle(const hs_grid *g, hs_circle c, uint32_t mask, uint32_t *idx,
                                 size_t cap, size_t *found)
{
    if (g == NULL || found == NULL || (idx == NULL && cap > 0))
        return HS_E_NULL;
    *found = 0;
    if (!isfinite(c.x) || !isfinite(c.y) || !isfinite(c.r))
        return HS_E_NONFINITE;
    if (c.r < 0.0f)
        return HS_E_NEG_RADIUS;
    disc_scan d = {g, c.x, c.y, c.r, mask, idx, cap, 0, 0};
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        double Re = (double)c.r + (double)L->rmax;
        Re += hs_gpad(L->mag + fabs((double)c.x) + fabs((double)c.y), Re);
        hs_grid_box(g, L, c.x - Re, c.y - Re, c.x + Re, c.y + Re, disc_run, &d);
    }
    if (d.len > 1)
        qsort(idx, d.len, sizeof *idx, cmp_u32);
    *found = d.found;
    return HS_OK;
}
