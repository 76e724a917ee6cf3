/* SPDX-License-Identifier: MIT */
/* The grid build's sort pass (build.h): the circles into storage cell by cell, cell_start as
 * CSR. How it is shaped, and why:
 * - A circle's cell comes from hs_cells_block (cells.h: branch-free, vectorised, cloned for
 *   AVX-512 and AVX2, bit-identical to hs_gcell) and is recomputed in each pass: cheaper than
 *   storing it (4 more bytes per circle of memory and traffic). On a partition of several
 *   leaves, where a cell takes the circle's slot, its level and that level's shape, pass 1
 *   keeps each circle's cell for pass 2 in the spill array.
 * - Up to HS_GRID_DIRECT circles (sort_direct): one stable counting sort (cells stored once,
 *   counts in cell_start, scatter backwards from the input); it all fits in L2.
 * - Above, a two-pass radix sort in named passes, run by one team:
 *     count_chunks   counts each chunk of the input per sub-band (2^sh consecutive cells);
 *     plan_bands     groups sub-bands into bands of at most `cap` circles, whose ranges in
 *                    the final arrays follow from the counts (rows are contiguous in storage);
 *     move_chunks    moves every circle into its band's range: a few dozen sequential write
 *                    streams per array instead of random writes, each gathered a cache
 *                    line at a time in L1 and stored whole, past the cache;
 *     sort_bands     sorts each band inside L2 (sort_band_in_buffer: cells from the band,
 *                    counts straight into cell_start, 16-byte records scattered into a
 *                    per-thread buffer with the lines requested ahead, copied back field by
 *                    field; sort_band_spill for a band larger than the buffer).
 * - Determinism: chunk c's circles of a band follow those of chunks < c, in input order, and
 *   every sort is stable (backwards from end positions), so each position depends on the
 *   input alone and the grid is identical for every team size.
 * - Memory (kept for rebuilds): cell_start, small per-sub-band tables, per-thread band buffers
 *   within 4 bytes per circle, and only when a band outgrows its buffer (thousands of circles
 *   in a few cells) or the grid has several leaves one index per circle (spill). */
#include <stdlib.h>
#include <string.h>

#include "batch/parallel.h"

#include <simde/x86/sse2.h>

#include "grid/build.h"
#include "grid/storage.h"
#include "grid/cells.h"
#include "grid/vectorize.h"
#include "memory.h"
#include "prefetch.h"
#include "tuning.h"

/* The passes stay separate functions: inlined into the team function that runs them,
 * their loops would share one register allocation and spill their pointers. */
#if defined(__GNUC__) || defined(__clang__)
#define HS_PASS __attribute__((noinline))
#else
#define HS_PASS
#endif

/* Turns the counts in cs[c0 .. c1) into end positions (from base): a backward scatter that
 * pre-decrements them then leaves each cell's start there, and is stable. */
static void counts_to_ends(uint32_t *cs, size_t c0, size_t c1, uint32_t base)
{
    uint32_t run = base;
    for (size_t c = c0; c < c1; c++) {
        run += cs[c];
        cs[c] = run;
    }
}

/* Small sets: one stable counting sort, cells computed once into scratch, scattered backwards
 * from the input (everything is in L2). */
static hs_status sort_direct(hs_grid *g, const hs_circles *cs, const hs_cellfn *F)
{
    const size_t n = cs->n, ncells = g->ncells;
    const float *X = cs->x, *Y = cs->y, *Rr = cs->r;
    const uint32_t *M = cs->mask;
    float *gx = g->x, *gy = g->y, *gr = g->r;
    uint32_t *gm = g->mask, *gid = g->id, *cs_ = g->cell_start;
    if (g->scratch_bytes < n * sizeof(uint32_t)) {
        free(g->scratch);
        g->scratch = hs_grid_alloc_lines(n, sizeof(uint32_t));
        g->scratch_bytes = g->scratch ? hs_lines_bytes(n * sizeof(uint32_t)) : 0;
        if (g->scratch == NULL)
            return HS_E_NOMEM;
    }
    uint32_t *cb = g->scratch;
    for (size_t i = 0; i < n; i += HS_GRID_BLOCK)
        hs_cells_block(F, X + i, Y + i, Rr + i, F->slot_of ? F->slot_of + i : NULL,
                       n - i < HS_GRID_BLOCK ? n - i : HS_GRID_BLOCK, cb + i);
    memset(cs_, 0, ncells * sizeof *cs_);
    for (size_t i = 0; i < n; i++)
        cs_[cb[i]]++;
    counts_to_ends(cs_, 0, ncells, 0);
    for (size_t i = n; i-- > 0;) {
        uint32_t d = --cs_[cb[i]];
        gx[d] = X[i];
        gy[d] = Y[i];
        gr[d] = Rr[i];
        gid[d] = (uint32_t)i;
        if (gm)
            gm[d] = M[i];
    }
    cs_[ncells] = (uint32_t)n;
    return HS_OK;
}

/* The band sort's shared state: its plan and tables (in g->scratch), read by every pass. */
typedef struct band_sort {
    hs_grid *g;
    const hs_circles *cs;
    hs_cellfn F;
    size_t n, ncells;
    size_t cap;             /* circles per band at most (and per thread buffer) */
    unsigned sh;            /* a sub-band is 2^sh consecutive cells */
    size_t nsb, nsbp;       /* sub-bands, and per-chunk table rows padded to 64 bytes */
    size_t K;               /* input chunks of passes 1 and 2 */
    size_t nb;              /* bands */
    uint32_t *hist;         /* [K][nsbp] sub-band counts per chunk */
    uint32_t *cur;          /* [K][nsbp] per chunk, each band's next free position */
    uint32_t *sb2b;         /* [nsbp] sub-band -> band */
    uint32_t *bpos;         /* [nb + 1] each band's first position */
    uint32_t *bsb;          /* [nb + 1] each band's first sub-band */
    uint32_t *cell_of;      /* a partition of several leaves: each input circle's cell, from
                             * pass 1 to pass 2 (g->spill); else NULL, computed in each */
    unsigned char *buffers; /* per thread: cells [cap], records [cap] (, masks [cap]) */
    size_t area;            /* bytes per thread buffer */
    int spill;              /* a band holds more than cap circles */
    hs_status st;
    _Atomic size_t next[3]; /* each pass's next chunk or band to claim (batch/parallel.h) */
} band_sort;

/* The band plan: sub-band = 2^sh consecutive cells; a band = consecutive sub-bands holding at
 * most `cap` circles (or one sub-band holding more: sorted by the spill path). `cap` is also
 * kept under n / (6 T) so the band buffers stay within 4 bytes per circle. Passes 1 and 2 work
 * on K contiguous chunks of the input, handed out dynamically, so a thread on a core the host
 * slows down does not hold up the other at both barriers; chunks are in input order whatever
 * K, so the grid does not depend on it. */
static hs_status band_sort_init(band_sort *S, hs_grid *g, const hs_circles *cs, int T)
{
    const size_t n = cs->n, ncells = g->ncells;
    S->g = g;
    S->cs = cs;
    hs_cellfn_init(&S->F, g);
    S->n = n;
    S->ncells = ncells;
    size_t cap = n / (6 * (size_t)T);
    cap = cap > HS_GRID_BAND ? HS_GRID_BAND : cap < 1024 ? 1024 : cap;
    size_t nsb_max = HS_GRID_SB_PER_BAND * (n / cap);
    nsb_max = nsb_max < 16 ? 16 : nsb_max > HS_GRID_SUBBANDS ? HS_GRID_SUBBANDS : nsb_max;
    unsigned sh = 0;
    while (((ncells - 1) >> sh) + 1 > nsb_max)
        sh++;
    S->cap = cap;
    S->sh = sh;
    S->nsb = ((ncells - 1) >> sh) + 1;
    S->nsbp = (S->nsb + 16) & ~(size_t)15;
    S->K = T == 1 ? 1 : (n / 4096 < 4 * (size_t)T ? (size_t)T : 4 * (size_t)T);
    /* scratch: sub-band histograms and band cursors [K][nsbp] each, sb -> band [nsbp], band
     * first position and first sub-band [nsbp + 1 each]; then the per-thread buffers */
    const size_t tab = hs_lines_bytes(((2 * S->K + 3) * S->nsbp + 2) * sizeof(uint32_t));
    S->area = hs_lines_bytes(cap * sizeof(uint32_t)) * (cs->mask ? 2 : 1) +
              hs_lines_bytes(cap * sizeof(hs_grec));
    if (g->scratch_bytes < tab + (size_t)T * S->area) {
        free(g->scratch);
        g->scratch = hs_grid_alloc_lines(tab + (size_t)T * S->area, 1);
        g->scratch_bytes = g->scratch ? tab + (size_t)T * S->area : 0;
        if (g->scratch == NULL)
            return HS_E_NOMEM;
    }
    unsigned char *sbase = g->scratch;
    S->hist = (uint32_t *)sbase;
    S->cur = S->hist + S->K * S->nsbp;
    S->sb2b = S->cur + S->K * S->nsbp;
    S->bpos = S->sb2b + S->nsbp;
    S->bsb = S->bpos + S->nsbp + 1;
    S->buffers = sbase + tab;
    S->cell_of = NULL;
    if (S->F.slot_of != NULL) {
        /* such a cell takes a slot, a level and its shape per circle: once is enough */
        uint32_t *c = hs_grid_grow(g->spill, &g->spill_cap, n, sizeof(uint32_t));
        if (c == NULL)
            return HS_E_NOMEM;
        g->spill = S->cell_of = c;
    }
    S->nb = 0;
    S->spill = 0;
    S->st = HS_OK;
    return HS_OK;
}

/* Pass 1 (on the team): each chunk's circles counted per sub-band. */
static HS_PASS void count_chunks(band_sort *S, uint32_t *blk)
{
    const float *X = S->cs->x, *Y = S->cs->y, *Rr = S->cs->r;
    const hs_cellfn *F = &S->F;
    const size_t n = S->n, K = S->K, nsb = S->nsb, nsbp = S->nsbp;
    const unsigned sh = S->sh; /* a local: the counters' stores could alias S->sh */
    uint32_t *hist = S->hist;
    for (ptrdiff_t cc; (cc = hs_par_claim(&S->next[0], K)) >= 0;) {
        const size_t i0 = n * (size_t)cc / K, i1 = n * ((size_t)cc + 1) / K;
        uint32_t *h = hist + (size_t)cc * nsbp;
        memset(h, 0, nsb * sizeof *h);
        for (size_t i = i0; i < i1; i += HS_GRID_BLOCK) {
            size_t k = i1 - i < HS_GRID_BLOCK ? i1 - i : HS_GRID_BLOCK;
            uint32_t *cells = S->cell_of ? S->cell_of + i : blk;
            hs_cells_block(F, X + i, Y + i, Rr + i, F->slot_of ? F->slot_of + i : NULL, k, cells);
            for (size_t j = 0; j < k; j++)
                h[cells[j] >> sh]++;
        }
    }
}

/* Between the passes (one thread): greedy bands over the sub-band totals (the same for every
 * team size), each chunk's cursor in each band, and the spill buffer if a band needs it. */
static void plan_bands(band_sort *S)
{
    const size_t nsb = S->nsb, nsbp = S->nsbp, K = S->K, cap = S->cap;
    uint32_t *hist = S->hist, *cur = S->cur, *sb2b = S->sb2b, *bpos = S->bpos, *bsb = S->bsb;
    size_t nb = 0, run = 0, pos = 0;
    int spill = 0;
    bpos[0] = 0;
    bsb[0] = 0;
    for (size_t b = 0; b < nsb; b++) {
        size_t tot = 0;
        for (size_t u = 0; u < K; u++)
            tot += hist[u * nsbp + b];
        if (run > 0 && run + tot > cap) {
            nb++;
            bpos[nb] = (uint32_t)pos;
            bsb[nb] = (uint32_t)b;
            run = 0;
        }
        sb2b[b] = (uint32_t)nb;
        run += tot;
        pos += tot;
        spill |= tot > cap;
    }
    nb++;
    bpos[nb] = (uint32_t)S->n;
    bsb[nb] = (uint32_t)nsb;
    for (size_t b = 0; b < nb; b++) {
        uint32_t off = bpos[b];
        for (size_t u = 0; u < K; u++) {
            cur[u * nsbp + b] = off;
            for (size_t q = bsb[b]; q < bsb[b + 1]; q++)
                off += hist[u * nsbp + q];
        }
    }
    S->nb = nb;
    S->spill = spill;
    if (spill) {
        hs_grid *g = S->g;
        uint32_t *sp = hs_grid_grow(g->spill, &g->spill_cap, S->n, sizeof(uint32_t));
        if (sp == NULL)
            S->st = HS_E_NOMEM;
        else
            g->spill = sp;
    }
}

/* Pass 2's write combining: a band's next line of each array, gathered in L1 and stored
 * whole, past the cache (pass 3 reads each band once, and a line's old contents are never
 * read: no read for ownership). A line the chunk's run of the band does not cover from its
 * first word is written word by word, as is the run's last, partial line. */
typedef struct move_wc {
    _Alignas(64) float x[16];
    float y[16], r[16];
    uint32_t id[16], mask[16];
} move_wc;

/* Positions f .. d (one line) of band w's buffer to the grid's arrays. */
static inline void move_wc_words(hs_grid *g, const move_wc *w, size_t f, size_t d)
{
    for (size_t k = f; k <= d; k++) {
        g->x[k] = w->x[k & 15];
        g->y[k] = w->y[k & 15];
        g->r[k] = w->r[k & 15];
        g->id[k] = w->id[k & 15];
        if (g->mask)
            g->mask[k] = w->mask[k & 15];
    }
}

/* One line of 16 words from src to dst (64-byte aligned: hs_grid_alloc_lines), past the
 * cache. */
static inline void move_wc_stream(void *dst, const void *src)
{
    simde__m128i *d = (simde__m128i *)dst;
    const simde__m128i *s = (const simde__m128i *)src;
    for (int u = 0; u < 4; u++)
        simde_mm_stream_si128(d + u, simde_mm_load_si128(s + u));
}

/* The buffered line of band w that position d completes (d % 16 == 15) to the grid's arrays:
 * whole when the run (from position first) covers it, else its positions first .. d. */
static inline void move_wc_line(hs_grid *g, const move_wc *w, size_t d, size_t first)
{
    if (d >= first + 15) {
        const size_t ks = d - 15;
        move_wc_stream(g->x + ks, w->x);
        move_wc_stream(g->y + ks, w->y);
        move_wc_stream(g->r + ks, w->r);
        move_wc_stream(g->id + ks, w->id);
        if (g->mask)
            move_wc_stream(g->mask + ks, w->mask);
    } else {
        move_wc_words(g, w, first, d);
    }
}

/* The cells of input circles [i, i + k): pass 1's, or computed into blk. */
static inline const uint32_t *move_cells(const band_sort *S, size_t i, size_t k, uint32_t *blk)
{
    const hs_cellfn *F = &S->F;
    if (S->cell_of != NULL)
        return S->cell_of + i;
    hs_cells_block(F, S->cs->x + i, S->cs->y + i, S->cs->r + i, F->slot_of ? F->slot_of + i : NULL,
                   k, blk);
    return blk;
}

/* Pass 2 (on the team): every circle into its band's range, chunk c's after those of chunks
 * < c, in input order: through the write-combining lines, which take the thread's band buffer
 * (pass 3 uses it later), or, with more bands than it holds lines for, straight. */
static HS_PASS void move_chunks(band_sort *S, uint32_t *blk, unsigned char *area)
{
    const float *X = S->cs->x, *Y = S->cs->y, *Rr = S->cs->r;
    const uint32_t *M = S->cs->mask;
    hs_grid *g = S->g;
    float *gx = g->x, *gy = g->y, *gr = g->r;
    uint32_t *gm = g->mask, *gid = g->id;
    const size_t n = S->n, K = S->K, nsbp = S->nsbp, nb = S->nb;
    const unsigned sh = S->sh;
    const uint32_t *sb2b = S->sb2b;
    uint32_t *cur = S->cur;
    move_wc *wc = (move_wc *)(void *)area;
    uint32_t *first = (uint32_t *)(void *)(area + nb * sizeof(move_wc));
    const int combine = nb * (sizeof(move_wc) + sizeof(uint32_t)) <= S->area;
    for (ptrdiff_t cc; (cc = hs_par_claim(&S->next[1], K)) >= 0;) {
        const size_t i0 = n * (size_t)cc / K, i1 = n * ((size_t)cc + 1) / K;
        uint32_t *c = cur + (size_t)cc * nsbp;
        if (combine) {
            memcpy(first, c, nb * sizeof *first);
            for (size_t i = i0; i < i1; i += HS_GRID_BLOCK) {
                size_t k = i1 - i < HS_GRID_BLOCK ? i1 - i : HS_GRID_BLOCK;
                const uint32_t *cells = move_cells(S, i, k, blk);
                for (size_t j = 0; j < k; j++) {
                    const uint32_t b = sb2b[cells[j] >> sh];
                    const size_t d = c[b]++, p = d & 15;
                    move_wc *w = wc + b;
                    w->x[p] = X[i + j];
                    w->y[p] = Y[i + j];
                    w->r[p] = Rr[i + j];
                    w->id[p] = (uint32_t)(i + j);
                    if (M)
                        w->mask[p] = M[i + j];
                    if (p == 15)
                        move_wc_line(g, w, d, first[b]);
                }
            }
            for (size_t b = 0; b < nb; b++)
                if (c[b] != first[b] && (c[b] & 15) != 0) {
                    const size_t d = c[b] - 1, ks = d & ~(size_t)15;
                    move_wc_words(g, wc + b, ks > first[b] ? ks : first[b], d);
                }
            continue;
        }
        for (size_t i = i0; i < i1; i += HS_GRID_BLOCK) {
            size_t k = i1 - i < HS_GRID_BLOCK ? i1 - i : HS_GRID_BLOCK;
            const uint32_t *cells = move_cells(S, i, k, blk);
            for (size_t j = 0; j < k; j++)
                blk[j] = c[sb2b[cells[j] >> sh]]++;
            const float *xi = X + i, *yi = Y + i, *ri = Rr + i;
            for (size_t j = 0; j < k; j++) {
                uint32_t d = blk[j];
                gx[d] = xi[j];
                gy[d] = yi[j];
                gr[d] = ri[j];
                gid[d] = (uint32_t)(i + j);
            }
            if (gm)
                for (size_t j = 0; j < k; j++)
                    gm[blk[j]] = M[i + j];
        }
    }
    simde_mm_sfence();
}

/* The cell function of band cells [c0, c1): a band of one level's cells holds that level's
 * circles alone, whose cells need no radius or partition (*one holds it). */
static const hs_cellfn *band_fn(const band_sort *S, size_t c0, size_t c1, hs_cellfn *one)
{
    const int l = hs_cellfn_level_of(&S->F, S->g->nlevels, c0, c1);
    if (l < 0)
        return &S->F;
    hs_cellfn_one_level(one, &S->F, l);
    return one;
}

/* The cells of the k <= HS_GRID_BLOCK circles at storage positions [p, p + k): a partition of
 * several leaves looks up their slots by their input index, not down its tree again. */
static void stored_cells(const hs_cellfn *F, const hs_grid *g, size_t p, size_t k, uint32_t *out)
{
    uint8_t slot[HS_GRID_BLOCK];
    if (F->slot_of != NULL)
        for (size_t u = 0; u < k; u++)
            slot[u] = F->slot_of[g->id[p + u]];
    hs_cells_block(F, g->x + p, g->y + p, g->r + p, F->slot_of ? slot : NULL, k, out);
}

/* Band [p0, p0 + m) (cells [c0, c1)) sorted inside the thread's buffer: cells from the band in
 * place, destinations first (so that the scatter can ask for its lines ahead: a store that
 * misses L1 holds up every later one), records scattered into the buffer in cell order (one
 * random 16-byte store each, four at a time through a 4 x 4 transpose), then copied back. */
static HS_PASS void sort_band_in_buffer(const band_sort *S, size_t p0, size_t m, size_t c0,
                                        size_t c1, unsigned char *a)
{
    hs_grid *g = S->g;
    float *gx = g->x, *gy = g->y, *gr = g->r;
    uint32_t *gm = g->mask, *gid = g->id, *cs_ = g->cell_start;
    const size_t cap = S->cap;
    uint32_t *cb = (uint32_t *)a;
    hs_grec *trec = (hs_grec *)(a + hs_lines_bytes(cap * sizeof(uint32_t)));
    uint32_t *tm = (uint32_t *)(a + hs_lines_bytes(cap * sizeof(uint32_t)) +
                                hs_lines_bytes(cap * sizeof(hs_grec)));
    hs_cellfn one;
    const hs_cellfn *F = band_fn(S, c0, c1, &one);
    for (size_t j = 0; j < m; j += HS_GRID_BLOCK)
        stored_cells(F, g, p0 + j, m - j < HS_GRID_BLOCK ? m - j : HS_GRID_BLOCK, cb + j);
    for (size_t j = 0; j < m; j++)
        cs_[cb[j]]++;
    counts_to_ends(cs_, c0, c1, 0);
    const float *sx = gx + p0, *sy = gy + p0, *sr = gr + p0;
    const uint32_t *sid = gid + p0, *sm = gm ? gm + p0 : NULL;
    for (size_t j = m; j-- > 0;)
        cb[j] = --cs_[cb[j]];
    size_t j = 0;
    for (; j + 4 <= m; j += 4) {
        if (j + HS_GRID_PREFETCH + 4 <= m) {
            hs_prefetch_write(trec + cb[j + HS_GRID_PREFETCH]);
            hs_prefetch_write(trec + cb[j + HS_GRID_PREFETCH + 1]);
            hs_prefetch_write(trec + cb[j + HS_GRID_PREFETCH + 2]);
            hs_prefetch_write(trec + cb[j + HS_GRID_PREFETCH + 3]);
        }
        hs_transpose4(sx + j, sy + j, sr + j, sid + j, trec + cb[j], trec + cb[j + 1],
                      trec + cb[j + 2], trec + cb[j + 3]);
        if (sm) {
            tm[cb[j]] = sm[j];
            tm[cb[j + 1]] = sm[j + 1];
            tm[cb[j + 2]] = sm[j + 2];
            tm[cb[j + 3]] = sm[j + 3];
        }
    }
    for (; j < m; j++) {
        uint32_t d = cb[j];
        hs_grec *e = trec + d;
        e->x = sx[j];
        e->y = sy[j];
        e->r = sr[j];
        e->id = sid[j];
        if (sm)
            tm[d] = sm[j];
    }
    for (size_t c = c0; c < c1; c++)
        cs_[c] += (uint32_t)p0;
    float *ox = gx + p0, *oy = gy + p0, *orr = gr + p0;
    uint32_t *oid = gid + p0;
    size_t q = 0;
    for (; q + 4 <= m; q += 4)
        hs_transpose4(trec + q, trec + q + 1, trec + q + 2, trec + q + 3, ox + q, oy + q, orr + q,
                      oid + q);
    for (; q < m; q++) {
        ox[q] = trec[q].x;
        oy[q] = trec[q].y;
        orr[q] = trec[q].r;
        oid[q] = trec[q].id;
    }
    if (gm)
        memcpy(gm + p0, tm, m * sizeof *tm);
    hs_grid_cut_band(g, c0, c1, p0, p0 + m, trec, gm ? tm : NULL, (uint8_t *)cb);
}

/* Band [p0, p1) (cells [c0, c1)) larger than the buffer (one sub-band of a dense cluster):
 * the indices scattered into the spill array, then the circles gathered from the input. */
static HS_PASS void sort_band_spill(const band_sort *S, size_t p0, size_t p1, size_t c0, size_t c1,
                                    uint32_t *blk)
{
    const float *X = S->cs->x, *Y = S->cs->y, *Rr = S->cs->r;
    const uint32_t *M = S->cs->mask;
    hs_grid *g = S->g;
    float *gx = g->x, *gy = g->y, *gr = g->r;
    uint32_t *gm = g->mask, *gid = g->id, *cs_ = g->cell_start;
    uint32_t *sp = g->spill;
    hs_cellfn one;
    const hs_cellfn *F = band_fn(S, c0, c1, &one);
    for (size_t j = p0; j < p1; j += HS_GRID_BLOCK) {
        size_t k = p1 - j < HS_GRID_BLOCK ? p1 - j : HS_GRID_BLOCK;
        stored_cells(F, g, j, k, blk);
        for (size_t u = 0; u < k; u++)
            cs_[blk[u]]++;
    }
    counts_to_ends(cs_, c0, c1, (uint32_t)p0);
    for (size_t j = p1; j > p0;) {
        size_t k = j - p0 < HS_GRID_BLOCK ? j - p0 : HS_GRID_BLOCK;
        j -= k;
        stored_cells(F, g, j, k, blk);
        for (size_t u = k; u-- > 0;)
            sp[--cs_[blk[u]]] = gid[j + u];
    }
    for (size_t q = p0; q < p1; q++) {
        if (q + HS_GRID_PREFETCH < p1) {
            uint32_t f = sp[q + HS_GRID_PREFETCH];
            hs_prefetch(X + f);
            hs_prefetch(Y + f);
            hs_prefetch(Rr + f);
        }
        uint32_t i = sp[q];
        gx[q] = X[i];
        gy[q] = Y[i];
        gr[q] = Rr[i];
        gid[q] = i;
        if (gm)
            gm[q] = M[i];
    }
}

/* Pass 3 (on the team): each band sorted by cell, stably, its cells' cell_start entries
 * left holding the CSR. */
static void sort_bands(band_sort *S, size_t t, uint32_t *blk)
{
    unsigned char *a = S->buffers + t * S->area;
    const size_t sh = S->sh, ncells = S->ncells;
    uint32_t *cs_ = S->g->cell_start;
    for (ptrdiff_t bb; (bb = hs_par_claim(&S->next[2], S->nb)) >= 0;) {
        const size_t b = (size_t)bb;
        const size_t p0 = S->bpos[b], p1 = S->bpos[b + 1], m = p1 - p0;
        const size_t c0 = (size_t)S->bsb[b] << sh;
        const size_t c1 =
            ((size_t)S->bsb[b + 1] << sh) < ncells ? (size_t)S->bsb[b + 1] << sh : ncells;
        memset(cs_ + c0, 0, (c1 - c0) * sizeof *cs_);
        if (m <= S->cap)
            sort_band_in_buffer(S, p0, m, c0, c1, a);
        else
            sort_band_spill(S, p0, p1, c0, c1, blk);
    }
}

/* The passes on the team: each slot claims chunks (bands) until none is left; slot t has
 * band buffer t. */
static void count_pass(void *ctx, int slot)
{
    uint32_t blk[HS_GRID_BLOCK];
    (void)slot;
    count_chunks((band_sort *)ctx, blk);
}

static void move_pass(void *ctx, int slot)
{
    band_sort *S = (band_sort *)ctx;
    uint32_t blk[HS_GRID_BLOCK];
    move_chunks(S, blk, S->buffers + (size_t)slot * S->area);
}

static void band_pass(void *ctx, int slot)
{
    uint32_t blk[HS_GRID_BLOCK];
    sort_bands((band_sort *)ctx, (size_t)slot, blk);
}

hs_status hs_grid_sort(hs_grid *g, const hs_circles *cs, const hs_par *par)
{
    const int T = par->threads;
    const size_t n = cs->n, ncells = g->ncells;
    uint32_t *cs_ = g->cell_start;
    if (n == 0 || ncells == 0) {
        for (size_t c = 0; c <= ncells; c++)
            cs_[c] = 0;
        return HS_OK;
    }
    if (n <= HS_GRID_DIRECT) {
        hs_cellfn F;
        hs_cellfn_init(&F, g);
        const hs_status st = sort_direct(g, cs, &F);
        return st == HS_OK ? hs_grid_cut_stored(g, 0, ncells) : st;
    }
    band_sort S;
    if (band_sort_init(&S, g, cs, T) != HS_OK)
        return HS_E_NOMEM;
    for (int k = 0; k < 3; k++)
        atomic_init(&S.next[k], 0);
    hs_par_team(par, count_pass, &S);
    plan_bands(&S);
    if (S.st == HS_OK) {
        hs_par_team(par, move_pass, &S);
        hs_par_team(par, band_pass, &S);
    }
    cs_[ncells] = (uint32_t)n;
    for (size_t b = 0; S.st == HS_OK && S.spill && b < S.nb; b++) /* bands sorted in place */
        if (S.bpos[b + 1] - S.bpos[b] > S.cap)
            S.st = hs_grid_cut_stored(
                g, (size_t)S.bsb[b] << S.sh,
                ((size_t)S.bsb[b + 1] << S.sh) < ncells ? (size_t)S.bsb[b + 1] << S.sh : ncells);
    return S.st;
}
