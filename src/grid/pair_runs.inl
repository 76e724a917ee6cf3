/* SPDX-License-Identifier: MIT */
/* Internal to the pair search: one circle's tests against a run of candidates (consecutive
 * storage positions), the pairs they keep, and the runs of a box across cut cells. Included
 * by pairs_scan.c and pairs_fine.c (which keeps the pairs as emit does); every function is
 * inlined into each clone of its caller (HS_CLONE_INLINE), so the loops are compiled for the
 * clone's instruction set and a run (a cell's few circles) costs no call. */
#ifndef HITSCAN_GRID_PAIR_RUNS_INL
#define HITSCAN_GRID_PAIR_RUNS_INL

typedef struct pair_scan {
    const hs_pair_search *s;
    uint32_t pos;  /* storage position of the circle whose partners are collected */
    uint32_t i;    /* its caller's index */
    float x, y, r; /* its tested disc */
    uint32_t fast;
    uint32_t cat, col; /* its category and collide bits, when the search is filtered */
    hs_pair_list *B;   /* (i, j) with j > i; swept: every pair the circle keeps */
    hs_pair_list *X;   /* big circle against level 0: (j, i) for j < i */
} pair_scan;

/* Candidates per chunk of a run: written to small buffers that stay in L1, whose lengths
 * only advance over the kept ones, then copied out. Without branches: whether a neighbour has
 * the larger index is a coin toss, and a branch on it mispredicted about every other
 * candidate (and writing every candidate to the list instead made dense clusters bound by
 * memory writes). */
enum { CH = 64 };

/* Candidates per vector of run_lanes: whole vectors over the storage's padding
 * (HS_PAD_FLOATS past the last circle), the lanes past the run masked off after. */
enum { LANES = 16 };
_Static_assert(LANES <= HS_PAD_FLOATS, "a run's last vector stays in the padding");

/* Everything a block's scan calls is inlined into each clone of scan_block (HS_CLONE_INLINE),
 * so that the overlap loop is compiled for its instruction set and a run (a cell's few
 * circles) costs no call. The functions taking `filt` are instantiated twice, filt a constant:
 * a search without a filter runs the same instructions as before filters existed. */

/* Overlap of the disc of p with candidates [c0, c0 + m), m <= CH, as 0/1 words: a loop
 * without branches or data-dependent stores, vectorised in the AVX2 and AVX-512 clones of
 * scan_block (floats widened to double; the same bits on every clone). A big circle's runs
 * are long enough for it. */
HS_CLONE_INLINE void overlap_mask(const pair_scan *p, uint32_t c0, uint32_t m,
                                  uint32_t *restrict ov)
{
    const float *restrict x = p->s->tx + c0, *restrict y = p->s->ty + c0,
                          *restrict r = p->s->tr + c0;
    const float px = p->x, py = p->y, pr = p->r;
    const double skin = p->s->skin;
    for (uint32_t k = 0; k < m; k++)
        ov[k] = (uint32_t)hs_discs_within(px, py, pr, x[k], y[k], r[k], skin);
}

/* The filter of p's circle against candidates [c0, c0 + m), m <= CH, as 0/1 words, and
 * whether any passes: a loop without branches, vectorised like overlap_mask, so a big
 * circle's long runs are filtered a vector of lanes at a time and a chunk that none passes
 * skips the distance test. */
HS_CLONE_INLINE uint32_t filter_lanes(const pair_scan *p, uint32_t c0, uint32_t m,
                                      uint32_t *restrict fl)
{
    const uint32_t *restrict cat = p->s->fcat + c0, *restrict col = p->s->fcol + c0;
    const uint32_t pc = p->cat, pm = p->col;
    uint32_t any = 0;
    for (uint32_t k = 0; k < m; k++) {
        fl[k] = hs_filter_pass(pc, pm, cat[k], col[k]);
        any |= fl[k];
    }
    return any;
}

/* The candidates at storage positions keep[0 .. nk) that the circle of p keeps, as overlap
 * pairs (i, j), i < j, in B. */
HS_CLONE_INLINE int emit_pairs(pair_scan *p, const uint32_t *keep, size_t nk)
{
    hs_pair_list *B = p->B;
    const uint32_t *id = p->s->g->id, i = p->i;
    if (B->cap - B->len < nk && !hs_pair_list_reserve(B, nk))
        return 1;
    for (size_t k = 0; k < nk; k++) {
        const uint32_t j = id[keep[k]];
        B->i[B->len + k] = i < j ? i : j;
        B->j[B->len + k] = i < j ? j : i;
    }
    B->len += nk;
    return 0;
}

/* The same with a record: overlap pairs with their contacts, or swept pairs, each tested
 * exactly and kept when the two touch; oriented from the smaller index (cross pairs come in
 * either order, swept pairs from either circle). */
HS_CLONE_INLINE int emit_carried(pair_scan *p, const uint32_t *keep, size_t nk)
{
    const hs_pair_search *s = p->s;
    const hs_grid *g = s->g;
    hs_pair_list *B = p->B;
    if (B->cap - B->len < nk && !hs_pair_list_reserve(B, nk))
        return 1;
    for (size_t k = 0; k < nk; k++) {
        uint32_t a = p->pos, b = keep[k];
        if (g->id[a] > g->id[b]) {
            a = keep[k];
            b = p->pos;
        }
        B->i[B->len] = g->id[a];
        B->j[B->len] = g->id[b];
        if (s->dx == NULL) {
            B->rec[B->len++].contact =
                hs_pair_contact_of((double)g->x[b] - (double)g->x[a],
                                   (double)g->y[b] - (double)g->y[a], g->r[a], g->r[b]);
            continue;
        }
        const hs_moving ca = {g->x[a], g->y[a], g->r[a], s->dx[a], s->dy[a]};
        const hs_moving cb = {g->x[b], g->y[b], g->r[b], s->dx[b], s->dy[b]};
        B->len += (size_t)hs_swept_test(&ca, &cb, &B->rec[B->len].swept);
    }
    return 0;
}

/* keep: storage positions. */
HS_CLONE_INLINE int emit(pair_scan *p, const uint32_t *keep, size_t nk)
{
    return p->s->dx || p->s->contacts ? emit_carried(p, keep, nk) : emit_pairs(p, keep, nk);
}

/* Whether the swept disc of p may meet (x, y, r): in float, with the sum of the radii grown
 * by 2^-20 (more than the roundings of the test) and every distance whose square is
 * subnormal taken as meeting, so never false for discs that meet. A candidate only: the
 * exact test decides. */
HS_CLONE_INLINE int swept_discs_meet(const pair_scan *p, float x, float y, float r)
{
    const float dx = p->x - x, dy = p->y - y, s = (p->r + r) * (1.0f + 0x1p-20f);
    return dx * dx + dy * dy <= s * s + 0x1p-126f;
}

/* ov[k], k < LANES: -1 (all bits) when the disc (px, py, pr) may be within skin of
 * (x[k], y[k], r[k]), else 0. In float as swept_discs_meet, with skin rounded up to skin_up:
 * never 0 for discs within skin; the exact test decides the rest. One vector of LANES floats
 * where the compiler has vector types (each clone at its own width), else a loop. */
#if defined(__GNUC__) || defined(__clang__)
typedef float lanes_f __attribute__((vector_size(LANES * sizeof(float))));
typedef int32_t lanes_i __attribute__((vector_size(LANES * sizeof(int32_t))));
HS_CLONE_INLINE void lanes_meet(float px, float py, float pr, float skin_up, const float *x,
                                const float *y, const float *r, int32_t *ov)
{
    lanes_f xv, yv, rv;
    memcpy(&xv, x, sizeof xv);
    memcpy(&yv, y, sizeof yv);
    memcpy(&rv, r, sizeof rv);
    const lanes_f dx = px - xv, dy = py - yv, t = ((pr + rv) + skin_up) * (1.0f + 0x1p-20f);
    /* a <= b by the sign of b - a, exact in IEEE arithmetic (neither side is NaN or both
     * infinite): an integer shift, where a vector compare wider than the clone's registers
     * would be split lane by lane */
    const lanes_f gap = (t * t + 0x1p-126f) - (dx * dx + dy * dy);
    lanes_i g;
    memcpy(&g, &gap, sizeof g);
    g = ~g >> 31;
    memcpy(ov, &g, sizeof g);
}
#else
HS_CLONE_INLINE void lanes_meet(float px, float py, float pr, float skin_up, const float *x,
                                const float *y, const float *r, int32_t *ov)
{
    for (uint32_t k = 0; k < LANES; k++) {
        const float dx = px - x[k], dy = py - y[k], t = ((pr + r[k]) + skin_up) * (1.0f + 0x1p-20f);
        ov[k] = -(int32_t)(dx * dx + dy * dy <= t * t + 0x1p-126f);
    }
}
#endif

/* The partners of the circle of p in the run [b, e) of its own level, b after it: LANES
 * candidates a vector through lanes_meet; a vector none of whose lanes passes (the usual one)
 * costs no more, the others are tested exactly. */
HS_CLONE_INLINE int run_lanes(pair_scan *p, uint32_t b, uint32_t e, float skin_up)
{
    const hs_pair_search *s = p->s;
    const float *x = s->tx, *y = s->ty, *r = s->tr;
    const float px = p->x, py = p->y, pr = p->r;
    uint32_t keep[LANES];
    for (uint32_t v = b; v < e; v += LANES) {
        int32_t ov[LANES];
        lanes_meet(px, py, pr, skin_up, x + v, y + v, r + v, ov);
        uint64_t w[LANES / 2], any = 0;
        memcpy(w, ov, sizeof w);
        for (int k = 0; k < LANES / 2; k++)
            any |= w[k];
        if (any == 0)
            continue;
        /* the exact test on every lane of the run, without branches: where one lane passes,
         * many may (a dense cluster), and a branch per lane would mispredict */
        const uint32_t m = e - v < LANES ? e - v : LANES;
        uint32_t exact[LANES];
        overlap_mask(p, v, m, exact);
        size_t nk = 0;
        for (uint32_t k = 0; k < m; k++) {
            keep[nk] = v + k;
            nk += exact[k];
        }
        if (nk != 0 && emit(p, keep, nk))
            return 1;
    }
    return 0;
}

/* A run of the circle's own level against it, one candidate at a time: the runs of a box
 * across cut cells (a few sub-cells of a circle or two each) and of the searches that
 * scan_cells and scan_cut_cells do not take (a filter, fast circles).
 * A filter is one more 0/1 term of the keep mask, without a branch (a separate pass over the
 * run's filter, or the filter before the distance test, cost more than the test it saves on
 * such runs). A pair of two slow circles (every circle of an overlap search) is found by the
 * one earlier in storage (see the top); of a slow and a fast one, by the fast one (the slow
 * one's reach may not hold it); two fast ones are not the search's (pairs.h). */
HS_CLONE_INLINE int pair_run(pair_scan *p, uint32_t b, uint32_t e, const int filt)
{
    const hs_pair_search *s = p->s;
    const float *x = s->tx, *y = s->ty, *r = s->tr;
    const uint8_t *fast = s->fast;
    const uint32_t *fcat = s->fcat, *fcol = s->fcol, pc = p->cat, pm = p->col;
    uint32_t keep[CH];
    if (!p->fast && b <= p->pos) /* only the circles after it (a fast one: every circle) */
        b = p->pos + 1;
    for (uint32_t c0 = b; c0 < e; c0 += CH) {
        const uint32_t c1 = e - c0 > CH ? c0 + CH : e;
        size_t nk = 0;
        if (fast) {
            for (uint32_t k = c0; k < c1; k++) {
                const uint32_t mine = fast[k] == 0; /* a slow searcher's run starts after it */
                const uint32_t pass = filt ? hs_filter_pass(pc, pm, fcat[k], fcol[k]) : 1u;
                keep[nk] = k;
                nk += (size_t)(mine & pass & (uint32_t)swept_discs_meet(p, x[k], y[k], r[k]));
            }
        } else {
            const float px = p->x, py = p->y, pr = p->r;
            const double skin = s->skin;
            for (uint32_t k = c0; k < c1; k++) {
                const uint32_t pass = filt ? hs_filter_pass(pc, pm, fcat[k], fcol[k]) : 1u;
                keep[nk] = k;
                nk +=
                    (size_t)(pass & (uint32_t)hs_discs_within(px, py, pr, x[k], y[k], r[k], skin));
            }
        }
        if (nk != 0 && emit(p, keep, nk))
            return 1;
    }
    return 0;
}

/* A big circle against a run of small ones: every overlapping one is kept, in the big
 * circle's list when its index is larger, else in the cross list (swept: each as it is
 * oriented, and none when both are fast). */
HS_CLONE_INLINE int cross_run(pair_scan *p, uint32_t b, uint32_t e, const int filt)
{
    hs_pair_list *B = p->B, *X = p->X;
    const uint32_t i = p->i, *id = p->s->g->id;
    uint32_t ov[CH], fl[CH];
    uint32_t keep_j[CH], keep_s[CH];
    for (uint32_t c0 = b; c0 < e; c0 += CH) {
        const uint32_t m = e - c0 > CH ? CH : e - c0;
        if (filt && !filter_lanes(p, c0, m, fl))
            continue;
        overlap_mask(p, c0, m, ov);
        if (filt)
            for (uint32_t k = 0; k < m; k++)
                ov[k] &= fl[k];
        if (p->s->dx || p->s->contacts) {
            static const uint8_t slow[CH];
            const uint8_t *fast = p->s->fast ? p->s->fast + c0 : slow;
            size_t nk = 0;
            for (uint32_t k = 0; k < m; k++) {
                keep_j[nk] = c0 + k;
                nk += ov[k] & !(p->fast & fast[k]);
            }
            if (nk != 0 && emit(p, keep_j, nk))
                return 1;
            continue;
        }
        size_t nk = 0, nx = 0;
        for (uint32_t k = 0; k < m; k++) {
            const uint32_t j = id[c0 + k];
            const int up = j > i;
            keep_j[nk] = j;
            nk += (size_t)(ov[k] & up);
            keep_s[nx] = j;
            nx += (size_t)(ov[k] & !up);
        }
        if (!hs_pair_list_reserve(B, nk) || !hs_pair_list_reserve(X, nx))
            return 1;
        for (size_t k = 0; k < nk; k++) {
            B->i[B->len + k] = i;
            B->j[B->len + k] = keep_j[k];
        }
        B->len += nk;
        for (size_t k = 0; k < nx; k++) {
            X->i[X->len + k] = keep_s[k];
            X->j[X->len + k] = i;
        }
        X->len += nx;
    }
    return 0;
}

HS_CLONE_INLINE int run(pair_scan *p, uint32_t b, uint32_t e, int cross, const int filt)
{
    return cross ? cross_run(p, b, e, filt) : pair_run(p, b, e, filt);
}

/* A run of bx's for sub_runs: lanes (a constant), the circle's own level in an overlap search
 * without a filter or fast circles, LANES candidates a vector after the circle (run_lanes,
 * skin_up the skin rounded up to float); else one at a time (run). */
HS_CLONE_INLINE int box_run(pair_scan *p, uint32_t b, uint32_t e, int cross, const int filt,
                            const int lanes, float skin_up)
{
    if (lanes)
        return run_lanes(p, b > p->pos ? b : p->pos + 1, e, skin_up);
    return run(p, b, e, cross, filt);
}

/* The runs of bx's rows in a level with cut cells: a cut cell's sub-cells that meet box
 * (x0, y0, x1, y1; y0 before the search raises it to the circle's own row, as sub-cells of one
 * row of cells are not in storage order by y), runs that follow each other in storage merged
 * into one, each tested as box_run does. */
HS_CLONE_INLINE int sub_runs(pair_scan *p, const hs_glevel *L, const hs_gbox *bx,
                             const double box[4], int cross, const int filt, const int lanes,
                             float skin_up)
{
    HS_ASSERT(!lanes || (!cross && !filt && p->s->fast == NULL));
    const uint32_t *sub = p->s->g->sub;
    /* the box's sides in cells, as hs_gcell and hs_subcell_of take them */
    const double fx0 = (box[0] - L->ox) * L->inv_h, fx1 = (box[2] - L->ox) * L->inv_h,
                 fy0 = (box[1] - L->oy) * L->inv_h, fy1 = (box[3] - L->oy) * L->inv_h;
    const int32_t row0 = hs_gcell_at(fy0, L->ny);
    for (int32_t row = bx->r0; row <= bx->r1; row++) {
        const uint32_t *c = bx->cs + (size_t)row * bx->nx;
        uint32_t rb = c[bx->c0], re = rb;
        for (int32_t col = bx->c0; col <= bx->c1; col++) {
            const uint32_t b = c[col], e = c[col + 1], k = hs_subcell_k(L, e - b);
            if (k < 2) { /* the whole cell */
                if (b != re) {
                    if (rb != re && box_run(p, rb, re, cross, filt, lanes, skin_up))
                        return 1;
                    rb = b;
                }
                re = e;
                continue;
            }
            const uint32_t sx0 = col == bx->c0 ? hs_subcell_at(fx0, col, k) : 0,
                           sx1 = col == bx->c1 ? hs_subcell_at(fx1, col, k) : k - 1,
                           sy0 = row == row0 ? hs_subcell_at(fy0, row, k) : 0,
                           sy1 = row == bx->r1 ? hs_subcell_at(fy1, row, k) : k - 1;
            for (uint32_t sy = sy0; sy <= sy1; sy++) {
                const uint32_t s0 = sy * k + sx0, s1 = sy * k + sx1 + 1;
                const uint32_t sb = sub[b + s0], se = s1 < k * k ? sub[b + s1] : e;
                if (sb != re) {
                    if (rb != re && box_run(p, rb, re, cross, filt, lanes, skin_up))
                        return 1;
                    rb = sb;
                }
                re = se;
            }
        }
        if (rb != re && box_run(p, rb, re, cross, filt, lanes, skin_up))
            return 1;
    }
    return 0;
}

#endif
