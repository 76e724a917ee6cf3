/* SPDX-License-Identifier: MIT */
/* The locality order (order.h). A large grid does not fit in cache, and queries in the
 * caller's order touch random cells, so each query would wait on memory for most of its
 * cells. Large batches against large grids are therefore answered in a locality order: a
 * counting sort of the queries by the Z-order (Morton) index of the coarse cell (2^HS_SORT_BITS
 * on a side over the grid) holding their start; on a grid of several leaves (partition.h),
 * by leaf first, then by the coarse cells of the leaf's own level. The grid's own cells are
 * row-major; within a coarse cell that is close enough. Answers go to the caller's positions, so
 * the caller sees its order; the order itself is a pure function of the queries, so results stay
 * independent of the thread count. */
#include "grid/order.h"

#include <math.h>
#include <string.h>

#include "grid/vectorize.h"
#include "invariant.h"
#include "prefetch.h"
#include "tuning.h"

static uint32_t spread8(uint32_t v)
{
    v &= 0xffu;
    v = (v | (v << 4)) & 0x0f0fu;
    v = (v | (v << 2)) & 0x3333u;
    v = (v | (v << 1)) & 0x5555u;
    return v;
}

static int want_order(const hs_grid *g, const hs_queries *qs)
{
    return g->nlevels > 0 && g->n >= HS_SORT_MIN_CIRCLES && qs != NULL &&
           qs->count >= HS_SORT_MIN_QUERIES && qs->count <= HS_MAX_COUNT && qs->ax && qs->ay &&
           qs->dx && qs->dy;
}

/* Keys lo .. hi-1 (the coarse cell of each query's start, Z-order), with tmin[i] or tall as
 * the start's t; kp: origin x, y, scale x, y, last coarse cell. Float with no branch, so the
 * loop vectorises, and as HS_GRID_CLONES; any pure function of the query is a valid key, so
 * the clones' FMA contractions do not matter, and non-finite starts get some key (a
 * non-finite t counts as 0, NaN coordinates as cell 0). */
static inline uint32_t order_key(float ax, float ay, float dx, float dy, float t, const float kp[5])
{
    t = t - t == 0.0f ? t : 0.0f;
    float fx = (ax + t * dx - kp[0]) * kp[2], fy = (ay + t * dy - kp[1]) * kp[3];
    fx = fx > 0.0f ? fx : 0.0f;
    fy = fy > 0.0f ? fy : 0.0f;
    fx = fx < kp[4] ? fx : kp[4];
    fy = fy < kp[4] ? fy : kp[4];
    return spread8((uint32_t)(int32_t)fx) | (spread8((uint32_t)(int32_t)fy) << 1);
}

HS_GRID_CLONES
static void order_keys(const float *restrict ax, const float *restrict ay, const float *restrict dx,
                       const float *restrict dy, const float *restrict tmin, float tall,
                       const float kp[5], size_t lo, size_t hi, uint32_t *restrict key)
{
    if (tmin)
        for (size_t i = lo; i < hi; i++)
            key[i] = order_key(ax[i], ay[i], dx[i], dy[i], tmin[i], kp);
    else
        for (size_t i = lo; i < hi; i++)
            key[i] = order_key(ax[i], ay[i], dx[i], dy[i], tall, kp);
}

/* The keys of a grid partitioned into several leaves (partition.h): a leaf's queries are kept
 * together, each leaf's in the Z-order of its own level's box, so that a cluster far from the
 * others gets the same locality as one alone. The tree's leaves cut the plane into regions
 * x0 <= x < x1, y0 <= y < y1 (one per leaf: the bottom positions under a leaf planned higher
 * up have empty regions, cut at +inf); a start is keyed by the region holding it (region 0
 * when none, NaN), clamped to its leaf's coarse cells. Regions are tried one after the other
 * over a chunk of starts, so that every loop vectorises. */
#define LEAF_CHUNK 64
typedef struct leaf_keys {
    int n; /* regions */
    float x0[HS_PART_LEAVES], y0[HS_PART_LEAVES], x1[HS_PART_LEAVES], y1[HS_PART_LEAVES];
    float ox[HS_PART_LEAVES], oy[HS_PART_LEAVES], sx[HS_PART_LEAVES], sy[HS_PART_LEAVES];
    uint32_t base[HS_PART_LEAVES]; /* the leaf's first bucket */
    float last;
} leaf_keys;

HS_GRID_CLONES
static void order_keys_leaves(const float *restrict ax, const float *restrict ay,
                              const float *restrict dx, const float *restrict dy,
                              const float *restrict tmin, float tall, const leaf_keys *restrict lk,
                              size_t lo, size_t hi, uint32_t *restrict key)
{
    float px[LEAF_CHUNK], py[LEAF_CHUNK], ox[LEAF_CHUNK], oy[LEAF_CHUNK], sx[LEAF_CHUNK],
        sy[LEAF_CHUNK];
    uint32_t base[LEAF_CHUNK];
    for (size_t c = lo; c < hi; c += LEAF_CHUNK) {
        const size_t m = hi - c < LEAF_CHUNK ? hi - c : LEAF_CHUNK;
        for (size_t u = 0; u < m; u++) {
            float t = tmin ? tmin[c + u] : tall;
            t = t - t == 0.0f ? t : 0.0f;
            px[u] = ax[c + u] + t * dx[c + u];
            py[u] = ay[c + u] + t * dy[c + u];
            ox[u] = lk->ox[0];
            oy[u] = lk->oy[0];
            sx[u] = lk->sx[0];
            sy[u] = lk->sy[0];
            base[u] = lk->base[0];
        }
        for (int f = 1; f < lk->n; f++) {
            const float x0 = lk->x0[f], y0 = lk->y0[f], x1 = lk->x1[f], y1 = lk->y1[f];
            const float fox = lk->ox[f], foy = lk->oy[f], fsx = lk->sx[f], fsy = lk->sy[f];
            const uint32_t fb = lk->base[f];
            for (size_t u = 0; u < m; u++) {
                const int in = (px[u] >= x0) & (px[u] < x1) & (py[u] >= y0) & (py[u] < y1);
                ox[u] = in ? fox : ox[u];
                oy[u] = in ? foy : oy[u];
                sx[u] = in ? fsx : sx[u];
                sy[u] = in ? fsy : sy[u];
                base[u] = in ? fb : base[u];
            }
        }
        for (size_t u = 0; u < m; u++) {
            float fx = (px[u] - ox[u]) * sx[u], fy = (py[u] - oy[u]) * sy[u];
            fx = fx > 0.0f ? fx : 0.0f;
            fy = fy > 0.0f ? fy : 0.0f;
            fx = fx < lk->last ? fx : lk->last;
            fy = fy < lk->last ? fy : lk->last;
            key[c + u] =
                base[u] | spread8((uint32_t)(int32_t)fx) | (spread8((uint32_t)(int32_t)fy) << 1);
        }
    }
}

/* lk's regions: the bottom positions of the tree below node k (at depth d), whose region is
 * [b[0], b[2]) x [b[1], b[3]). */
static void leaf_regions(const hs_gpart *P, unsigned k, int d, const float b[4], leaf_keys *lk,
                         const float (*kp)[5])
{
    if (!(b[0] < b[2] && b[1] < b[3]))
        return;
    if (d == HS_PART_DEPTH) {
        const int f = lk->n++, leaf = P->leaf[k - HS_PART_INNER];
        lk->x0[f] = b[0];
        lk->y0[f] = b[1];
        lk->x1[f] = b[2];
        lk->y1[f] = b[3];
        lk->ox[f] = kp[leaf][0];
        lk->oy[f] = kp[leaf][1];
        lk->sx[f] = kp[leaf][2];
        lk->sy[f] = kp[leaf][3];
        lk->base[f] = (uint32_t)leaf << (2 * HS_SORT_BITS);
        return;
    }
    const int a = P->axis[k];
    float lo[4] = {b[0], b[1], b[2], b[3]}, hi[4] = {b[0], b[1], b[2], b[3]};
    lo[2 + a] = P->cut[k] < lo[2 + a] ? P->cut[k] : lo[2 + a];
    hi[a] = P->cut[k] > hi[a] ? P->cut[k] : hi[a];
    leaf_regions(P, 2u * k + 1u, d + 1, lo, lk, kp);
    leaf_regions(P, 2u * k + 2u, d + 1, hi, lk, kp);
}

/* The key parameters of level L: origin x, y, scale x, y, last coarse cell. */
static void level_key_params(const hs_glevel *L, float kp[5])
{
    kp[0] = (float)L->ox;
    kp[1] = (float)L->oy;
    kp[2] = (float)((double)(1u << HS_SORT_BITS) / fmax(L->bx1 - L->ox, L->h));
    kp[3] = (float)((double)(1u << HS_SORT_BITS) / fmax(L->by1 - L->oy, L->h));
    kp[4] = (float)((1 << HS_SORT_BITS) - 1);
}

/* The counts of the (bucket, thread) pairs turned into each pair's first position, summed
 * bucket-major: thread u's queries of a bucket follow those of threads < u. */
static void bucket_starts(size_t *hist, size_t nb, size_t nthr)
{
    size_t sum = 0;
    for (size_t b = 0; b < nb; b++)
        for (size_t u = 0; u < nthr; u++) {
            size_t c = hist[u * nb + b];
            hist[u * nb + b] = sum;
            sum += c;
        }
}

/* One thread's slice lo .. hi-1 scattered into its runs of the buckets (h: its bucket
 * cursors): the 16-byte record (a, d), perm when not NULL and, with stage, the position over
 * key[i] (which is read first), which becomes inv[i]. Four queries at a time: a 4 x 4
 * transpose stores each record in one piece. Each record's bucket is requested HS_ORD_AHEAD
 * floats ahead: a bucket's next line was last touched long ago, and a store miss holds up the
 * in-order commit of every later store. (Portable x86-64 code has no PRFCHW: it is emitted as
 * a read.) */
static void scatter_slice(const hs_queries *qs, size_t lo, size_t hi, size_t *h, uint32_t *key,
                          uint32_t *perm, float *rec, int stage)
{
    size_t i = lo;
    for (; i + 4 <= hi; i += 4) {
        size_t k[4];
        for (int u = 0; u < 4; u++) {
            k[u] = h[key[i + u]]++;
            if (perm)
                perm[k[u]] = (uint32_t)(i + u);
            if (stage)
                key[i + u] = (uint32_t)k[u];
            hs_prefetch_write(rec + 4 * k[u] + HS_ORD_AHEAD);
        }
        hs_transpose4(qs->ax + i, qs->ay + i, qs->dx + i, qs->dy + i, rec + 4 * k[0],
                      rec + 4 * k[1], rec + 4 * k[2], rec + 4 * k[3]);
    }
    for (; i < hi; i++) {
        const size_t k = h[key[i]]++;
        if (perm)
            perm[k] = (uint32_t)i;
        if (stage)
            key[i] = (uint32_t)k;
        float *r = rec + 4 * k;
        r[0] = qs->ax[i];
        r[1] = qs->ay[i];
        r[2] = qs->dx[i];
        r[3] = qs->dy[i];
    }
}

/* A stable counting sort run by the team in two steps over a fixed number of slices (not
 * threads: a slice may be done by any slot): each slice of the batch is keyed and counted,
 * the (bucket, slice) counts are summed bucket-major, and each slice is scattered into its own
 * run of every bucket. Slices are in order and a slice keeps its order inside a bucket, so the
 * permutation is the serial stable sort's whatever the team. What moves is one 16-byte record
 * (a, d) per query, and the index when perm is made: one or two write streams per bucket, and
 * the walk then reads a and d in order. */
typedef struct order_call {
    const hs_queries *qs;
    size_t m, nb, parts;
    const float *kp;
    const leaf_keys *leaves; /* several leaves: keyed per leaf (order_keys_leaves) */
    uint32_t *key, *perm;
    size_t *hist;
    float *rec;
    int stage;
} order_call;

static void slice_of(const order_call *c, size_t t, size_t *lo, size_t *hi)
{
    const size_t m = c->m, nt = c->parts;
    *lo = m / nt * t + (t < m % nt ? t : m % nt);
    *hi = *lo + m / nt + (t < m % nt ? 1 : 0);
}

static void count_slice(void *ctx, size_t t, int slot)
{
    const order_call *c = (const order_call *)ctx;
    const hs_queries *qs = c->qs;
    size_t lo, hi, *h = c->hist + t * c->nb;
    (void)slot;
    slice_of(c, t, &lo, &hi);
    if (c->leaves)
        order_keys_leaves(qs->ax, qs->ay, qs->dx, qs->dy, qs->tmin, qs->tmin_all, c->leaves, lo, hi,
                          c->key);
    else
        order_keys(qs->ax, qs->ay, qs->dx, qs->dy, qs->tmin, qs->tmin_all, c->kp, lo, hi, c->key);
    for (size_t i = lo; i < hi; i++)
        h[c->key[i]]++;
}

static void scatter_part(void *ctx, size_t t, int slot)
{
    const order_call *c = (const order_call *)ctx;
    size_t lo, hi;
    (void)slot;
    slice_of(c, t, &lo, &hi);
    scatter_slice(c->qs, lo, hi, c->hist + t * c->nb, c->key, c->perm, c->rec,
                  c->stage != HS_STAGE_NONE);
}

int hs_qorder_make(const hs_grid *g, const hs_queries *qs, const hs_par *par, int stage,
                   hs_workspace *ws, hs_qorder *o)
{
    const int perm_asked = (stage & HS_STAGE_PERM) != 0;
    stage &= ~HS_STAGE_PERM;
    o->perm = NULL;
    o->rec = NULL;
    o->inv = NULL;
    o->geo = NULL;
    if (!want_order(g, qs))
        return 0;
    const size_t m = qs->count;
    /* several leaves (partition.h): each its own run of buckets */
    const int nleaves = g->nsmall > 1 && g->part.nleaves > 1 ? g->part.nleaves : 1;
    const size_t nb = (size_t)nleaves << (2 * HS_SORT_BITS);
    /* a few slices per slot: one a late helper claims holds up the others less */
    const size_t parts = par->threads > 1 && m >= 2 * HS_PAR_LIGHT_STEP
                             ? (size_t)par->threads * HS_ORD_SLICES_PER_SLOT
                             : 1;
    /* perm is one more write stream per bucket: only made when something reads it */
    const int want_perm = perm_asked || stage == HS_STAGE_NONE || qs->tmin || qs->tmax || qs->q ||
                          qs->mask || qs->ignore;
    uint32_t *key = hs_ws_get(ws, HS_WS_ORD_KEY, m * sizeof *key);
    size_t *hist = hs_ws_get(ws, HS_WS_ORD_HIST, parts * nb * sizeof *hist);
    uint32_t *perm = want_perm ? hs_ws_get(ws, HS_WS_ORD_PERM, m * sizeof *perm) : NULL;
    float *rec = hs_ws_get(ws, HS_WS_ORD_REC, m * 4 * sizeof *rec);
    float *geo =
        stage == HS_STAGE_GEOMETRY ? hs_ws_get(ws, HS_WS_ORD_GEO, m * 4 * sizeof *geo) : NULL;
    if (key == NULL || hist == NULL || (want_perm && perm == NULL) || rec == NULL ||
        (stage == HS_STAGE_GEOMETRY && geo == NULL))
        return -1; /* the workspace frees or keeps what it got */
    memset(hist, 0, parts * nb * sizeof *hist);
    /* the Z-order of the most populous level of small circles: where most queries are */
    const hs_glevel *L = &g->lv[0];
    for (int l = 1; l < g->nsmall; l++)
        L = g->lv[l].n > L->n ? &g->lv[l] : L;
    float kp[5];
    level_key_params(L, kp);
    leaf_keys lk = {.n = 0, .last = kp[4]};
    if (nleaves > 1) {
        float leaf_kp[HS_PART_LEAVES][5];
        for (int f = 0; f < nleaves; f++) {
            const int l = g->slot_level[f];
            level_key_params(l >= 0 ? &g->lv[l] : L, leaf_kp[f]);
        }
        const float all[4] = {-INFINITY, -INFINITY, INFINITY, INFINITY};
        leaf_regions(&g->part, 0, 0, all, &lk, (const float(*)[5])leaf_kp);
        HS_ASSERT(lk.n >= 1 && lk.n <= HS_PART_LEAVES);
    }
    const order_call c = {.qs = qs,
                          .m = m,
                          .nb = nb,
                          .parts = parts,
                          .kp = kp,
                          .leaves = nleaves > 1 ? &lk : NULL,
                          .key = key,
                          .perm = perm,
                          .hist = hist,
                          .rec = rec,
                          .stage = stage};
    hs_par_for(par, parts, count_slice, (void *)&c);
    bucket_starts(hist, nb, parts);
    hs_par_for(par, parts, scatter_part, (void *)&c);
    o->perm = perm;
    o->rec = rec;
    o->inv = stage != HS_STAGE_NONE ? key : NULL;
    o->geo = geo;
    return 0;
}

/* The walk answers in the locality order, so answers written at the caller's index would be
 * stores to random lines, and x86 commits stores in order: a block's store misses would hold
 * up every later store. Read here in the caller's order instead, the random accesses are
 * loads, independent of each other, and the stores are sequential. A bucket's queries took
 * consecutive positions in the caller's order, so the reads are one sequential stream per
 * bucket: each is requested HS_ORD_AHEAD floats ahead, as the scatter's are.
 * Positions lo .. hi-1 of the caller's order, one loop per kind of answer, with the arrays in
 * locals: a store through hit (a char type) could otherwise alias o's pointers and the
 * answer kind, which would then be loaded again for every query. Closest's points and
 * normals come in a second pass: one loop reading both the records and the staged geometry
 * had twice the read streams and ran slower. The caller's arrays are not restrict: the API
 * does not forbid passing one array for two outputs. */
static void unstage_range(const hs_qorder *o, size_t lo, size_t hi, const hs_closest_out *co,
                          uint8_t *hit, uint32_t *count)
{
    const uint32_t *inv = o->inv;
    const float *rec = o->rec;
    if (co != NULL) {
        uint32_t *idx = co->idx;
        float *t = co->t;
        const float *geo = o->geo;
        float *px = co->px, *py = co->py, *nx = co->nx, *ny = co->ny;
        for (size_t i = lo; i < hi; i++) {
            const size_t k = inv[i];
            hs_prefetch(rec + 4 * k + HS_ORD_AHEAD);
            memcpy(&idx[i], rec + 4 * k + 2, sizeof *idx);
            memcpy(&t[i], rec + 4 * k + 3, sizeof *t);
        }
        if (geo)
            for (size_t i = lo; i < hi; i++) {
                const float *p = geo + 4 * (size_t)inv[i];
                hs_prefetch(p + HS_ORD_AHEAD);
                if (px)
                    px[i] = p[0];
                if (py)
                    py[i] = p[1];
                if (nx)
                    nx[i] = p[2];
                if (ny)
                    ny[i] = p[3];
            }
    } else if (count != NULL) {
        for (size_t i = lo; i < hi; i++) {
            const size_t k = inv[i];
            hs_prefetch(rec + 4 * k + HS_ORD_AHEAD);
            memcpy(&count[i], rec + 4 * k + 2, sizeof *count);
        }
    } else {
        for (size_t i = lo; i < hi; i++) {
            const size_t k = inv[i];
            hs_prefetch(rec + 4 * k + HS_ORD_AHEAD);
            uint32_t v;
            memcpy(&v, rec + 4 * k + 2, sizeof v);
            hit[i] = (uint8_t)v;
        }
    }
}

typedef struct unstage_call {
    const hs_qorder *o;
    const hs_closest_out *co;
    uint8_t *hit;
    uint32_t *count;
} unstage_call;

static void unstage_part(void *ctx, size_t lo, size_t hi, int slot)
{
    const unstage_call *u = (const unstage_call *)ctx;
    (void)slot;
    unstage_range(u->o, lo, hi, u->co, u->hit, u->count);
}

void hs_qorder_unstage(const hs_qorder *o, size_t m, const hs_par *par, const hs_closest_out *co,
                       uint8_t *hit, uint32_t *count)
{
    const unstage_call u = {o, co, hit, count};
    hs_par_range(par, m, HS_ORD_UNSTAGE_GRAIN, unstage_part, (void *)&u);
}
