/* Internal: the grid traversal (row walk / slab-ordered DDA of the inflated query) compiled per ISA, so the kernel bodies inline into it; included by kernels_impl.h. */
#ifndef HS_KNAME
#error "include kernels_impl.h, not this file"
#endif

#include "../grid_impl.h"

/* Why per ISA: a query of the uniform 10^6 scene visits ~5 row runs of ~10 circles each, and a
 * kernel call through the table (query broadcast, dispatch on q / semantics / mask, tail) cost
 * ~15 ns each, more than the pair tests. Here the query is broadcast once, the best hit lives in
 * registers across rows, and runs are read straight from storage with masked tail loads (no
 * gather into a buffer). The per-pair arithmetic is the kernels' own (hs_v_block, hs_v_entry),
 * so results stay bit-identical to brute force at the same level. */

/* PLAN: no tests; the runs a short query needs become items of a block (see below). */
enum { HS_GW_ANY, HS_GW_COUNT, HS_GW_CLOSEST, HS_GW_ALL, HS_GW_PLAN };

/* ---- Blocks of short queries -----------------------------------------------------------
 * A query of the uniform 10^6 scene tests ~4 vectors spread over ~4 row runs. Walked one query
 * at a time, its time went to setting the walk up and to the branches around it, not to the
 * pair tests (planning every query twice added 41 ns to a 69 ns count query). So batches are
 * answered in blocks of HS_GB_Q consecutive queries:
 *   1. prep and set-up, HS_W queries per vector: validity, the prepared query, and for each
 *      level the box of rows and each row's clipped run as a linear function of the row
 *      (hs_gb_setup);
 *   2. plan: each query's row runs, cut into items of at most HS_W circles, go into one flat
 *      list. On AVX-512 (hs_gb_vemit) row k's run bounds are computed HS_W queries at a
 *      time, the runs of the whole block packed into full vectors and cell_start read for
 *      them through gathers; elsewhere, and for all-hits when the vector plan cannot hold
 *      the block, query by query (a short scalar loop per query);
 *   3. test: one loop over the listed items, no branch on the data; count / any fold the hit
 *      lanes into the query's slot; all computes every item's entry times and compresses the
 *      hit lanes' (t, id) into the hit buffer (moved to query order if the plan was not);
 *      closest lists the items that hit, then their hit lanes (on AVX-512 only their storage
 *      positions, whose circles hs_gb_entries gathers to compute the times HS_W hits at a
 *      time; elsewhere with the items' entry times), and folds the list into the slots' bests
 *      in one scalar loop with no branch. (All once listed the hit lanes and computed their
 *      times HS_W at a time through gathers: uniform 10^4, 7.6 against 12.1 M queries/s for
 *      the per-item times, warm allocator.)
 * On the vector plan, closest and any keep their early exit: row k of the whole block is
 * tested as soon as it is planned, any drops the queries that hit, closest those whose best t
 * lies before any later row can be entered (rows in the query's y direction, as the per-query
 * walk goes). On the scalar plan closest gives it up (~2x the tests, each far cheaper).
 * Whatever the vector set-up does not cover (zero-length queries, ends outside the
 * level, infinite intervals) is planned by the scalar walk's own row logic (HS_GW_PLAN);
 * long queries (over HS_GW_BOX_CELLS cells, where early exit matters) and queries whose items
 * do not fit in an empty block take the per-query walk. Items are whole-vector loads at any
 * run start: the grid's arrays are padded past the last circle (HS_PAD_FLOATS) and the lanes
 * past the item are masked off. Every path tests each candidate circle once with the kernels'
 * own pair arithmetic, so the answers are the per-query walk's, bit for bit. */
#define HS_GB_Q 64
/* AVX-512: the plan and closest's entry times work on lanes of different queries */
#if HS_W == 16 && defined(SIMDE_X86_AVX512F_NATIVE)
#define HS_GB_VEMIT 1
#define HS_GB_GROUPS (HS_GB_Q / HS_W)
#endif
#define HS_GB_ITEMS 2048
#define HS_GB_HITS 1024

typedef struct hs_gitem {
    uint32_t start; /* storage position of the item's first circle */
    uint16_t q;     /* the query's slot */
    uint16_t m;     /* its lanes, the first 1 .. HS_W, as bits (one mask load in the tests) */
} hs_gitem;

enum { HS_GB_LIVE, HS_GB_INVALID, HS_GB_DONE /* answered by the per-query walk */ };

/* One level's rows for each slot (hs_gb_setup): rows r0 .. r0 + nr - 1; row k's cells are
 * [clamp(P0 + k pstep + dlo, loa, lob), clamp(P0 + k pstep + dhi, hia, hib)], truncated.
 * nr < 0: not set up (the scalar plan decides). Floats: all are small integers or cell
 * coordinates, and hs_gb_setup's margin covers their rounding. */
typedef struct hs_grows {
    float r0[HS_GB_Q], nr[HS_GB_Q], P0[HS_GB_Q], pstep[HS_GB_Q], dlo[HS_GB_Q], dhi[HS_GB_Q];
    float loa[HS_GB_Q], lob[HS_GB_Q], hia[HS_GB_Q], hib[HS_GB_Q];
    float Re[HS_GB_Q]; /* the inflation, margin included (closest's early exit) */
} hs_grows;

typedef struct hs_gblock {
    size_t base, nq;  /* slot j is batch position base + j, the caller's query idx[j] */
    size_t out_from;  /* slots below are answered */
    size_t ni;        /* items */
    /* the slots' prepared queries (hs_kq field by field; ninv = -inv_dd) */
    float ax[HS_GB_Q], ay[HS_GB_Q], dx[HS_GB_Q], dy[HS_GB_Q], tmin[HS_GB_Q], tmax[HS_GB_Q];
    float q[HS_GB_Q], dd[HS_GB_Q], inv_dd[HS_GB_Q], ninv[HS_GB_Q];
    uint32_t kmask[HS_GB_Q];
    size_t idx[HS_GB_Q];
    uint8_t state[HS_GB_Q];
    /* closest: best (t, caller's id) as hs_gb_closest_reduce's key, its t's bits, storage
     * position */
    uint64_t bkey[HS_GB_Q];
    uint32_t btb[HS_GB_Q], bpos[HS_GB_Q];
    uint32_t cnt[HS_GB_Q]; /* count / any / all: hits */
    hs_grows rows[2];
    hs_gitem it[HS_GB_ITEMS + 1]; /* + 1: an empty run's item is written, not counted */
    uint16_t hit[HS_GB_ITEMS]; /* closest: the items with a hit, and their hit lanes */
    uint16_t hm[HS_GB_ITEMS];
    /* closest: hits listed for hs_gb_closest_reduce (+ HS_W: whole-vector stores) */
    float dt[HS_GB_HITS + HS_W];
    uint32_t dpos[HS_GB_HITS + HS_W], dq[HS_GB_HITS + HS_W];
#ifdef HS_GB_VEMIT
    uint64_t dkey[HS_GB_HITS + HS_W]; /* the hits' keys (hs_gb_closest_reduce) */
#else
    uint32_t did[HS_GB_HITS + HS_W]; /* the hits' caller ids (AVX-512 puts them in dkey) */
#endif
} hs_gblock;

/* Queries whose inflated bounding box spans at most this many cells are walked row by row
 * (one clipped run per row, rows in the query's y direction); longer ones take the slab walk,
 * which stops closest-hit earlier along x-dominant queries. */
#ifndef HS_GW_BOX_CELLS
#define HS_GW_BOX_CELLS 96
#endif
/* Columns per slab of an x-dominant long query (rows are contiguous in storage, columns not). */
#define HS_GW_BLOCK 4

typedef struct hs_gw {
    hs_vq Q;
    const hs_grid *g;
    uint64_t tests;
    float best_t;
    uint32_t best_id, best_pos;
    uint32_t count;
    int flags; /* thick * 4 + boundary * 2 + mask */
    hs_hitbuf *buf;
    hs_gblock *blk; /* PLAN: the block and the slot items go to */
    size_t slot;
    hs_status err;
} hs_gw;

/* PLAN: the run [b, e) as items of the query in slot w->slot; 1 if they do not fit. */
HS_INLINE int hs_gw_emit(hs_gw *w, uint32_t b, uint32_t e)
{
    hs_gblock *B = w->blk;
    size_t ni = B->ni;
    const size_t n = (size_t)(e - b);
    if ((n + HS_W - 1) / HS_W > HS_GB_ITEMS - ni)
        return 1;
    const uint16_t q = (uint16_t)w->slot;
    B->it[ni].start = b;
    B->it[ni].q = q;
    B->it[ni].m = (uint16_t)((1u << (n < (size_t)HS_W ? n : (size_t)HS_W)) - 1u);
    ni += n != 0;
    for (size_t s = HS_W; s < n; s += HS_W) { /* runs past one vector: rare */
        B->it[ni].start = b + (uint32_t)s;
        B->it[ni].q = q;
        B->it[ni].m = (uint16_t)((1u << (n - s < (size_t)HS_W ? n - s : (size_t)HS_W)) - 1u);
        ni++;
    }
    B->ni = ni;
    return 0;
}

/* Hit lanes of the k (1..HS_W) circles at i. With masked loads every vector, full or not,
 * takes the same path: a run is one or two vectors, so "is this the tail" would be a
 * mispredicted branch per row. */
HS_INLINE hs_vm hs_gw_block(const hs_vq *Q, const hs_run *run, size_t i, size_t k, hs_vc *c,
                            const int thick, const int boundary, const int usemask)
{
#ifdef HS_HAVE_MASKED_LOAD
    hs_vm f = hs_vm_first(k);
    c->cx = hs_vf_load_part(run->x + i, f);
    c->cy = hs_vf_load_part(run->y + i, f);
    c->r = hs_vf_load_part(run->r + i, f);
    hs_vm m = hs_vm_and(hs_v_hits(Q, *c, thick, boundary), f);
    if (usemask)
        m = hs_vm_and(m, hs_vm_test_i(hs_vi_load_part(run->mask + i, f), Q->kmask));
    return m;
#else
    return hs_v_block(Q, run, i, k, c, thick, boundary, usemask);
#endif
}

/* One storage run [b, e) of the grid through the pair test of `mode`, with the constant
 * parameters bound. Returns 1 to stop (any-hit found, allocation failed). */
HS_INLINE int hs_gw_body(hs_gw *w, const int mode, uint32_t b, uint32_t e, const int thick,
                         const int boundary, const int usemask)
{
    const hs_grid *g = w->g;
    hs_run run;
    run.x = g->x + b;
    run.y = g->y + b;
    run.r = g->r + b;
    run.mask = usemask ? g->mask + b : NULL;
    run.ids = g->id + b;
    run.n = e - b;
    run.base = b;
    const size_t n = run.n;
    hs_vc c;
    if (mode == HS_GW_CLOSEST) {
        float bt = w->best_t;
        uint32_t bid = w->best_id, bpos = w->best_pos;
        for (size_t i = 0; i < n; i += HS_W) {
            size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
            hs_vm m = hs_gw_block(&w->Q, &run, i, k, &c, thick, boundary, usemask);
            if (hs_vm_bits(m))
                hs_closest_vec(&w->Q, &run, i, k, m, c, &bt, &bid, &bpos, thick, boundary, 1);
        }
        w->best_t = bt;
        w->best_id = bid;
        w->best_pos = bpos;
        return 0;
    }
    if (mode == HS_GW_ANY) {
        for (size_t i = 0; i < n; i += HS_W) {
            size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
            if (hs_vm_bits(hs_gw_block(&w->Q, &run, i, k, &c, thick, boundary, usemask)))
                return 1;
        }
        return 0;
    }
    if (mode == HS_GW_COUNT) {
        uint32_t cnt = 0;
        for (size_t i = 0; i < n; i += HS_W) {
            size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
            cnt += (uint32_t)__builtin_popcount(
                hs_vm_bits(hs_gw_block(&w->Q, &run, i, k, &c, thick, boundary, usemask)));
        }
        w->count += cnt;
        return 0;
    }
    /* all: straight into the thread's hit buffer; room for the run plus one vector, so the
     * vector-wide compress stores never need the spill path */
    hs_hitbuf *buf = w->buf;
    if (buf->cap - buf->len < n + HS_W && hs_hitbuf_reserve(buf, n + HS_W) != HS_OK) {
        w->err = HS_E_NOMEM;
        return 1;
    }
    uint32_t *ids = buf->id + buf->len;
    float *ts = buf->t + buf->len;
    size_t found = 0;
    for (size_t i = 0; i < n; i += HS_W) {
        size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
        hs_vm m = hs_gw_block(&w->Q, &run, i, k, &c, thick, boundary, usemask);
        unsigned bits = hs_vm_bits(m);
        if (bits) {
            hs_all_vec(&w->Q, &run, i, k, m, c, ids, ts, n + HS_W, found, thick, boundary, 1);
            found += (size_t)__builtin_popcount(bits);
        }
    }
    buf->len += found;
    return 0;
}

HS_INLINE int hs_gw_run(hs_gw *w, const int mode, uint32_t b, uint32_t e)
{
    if (mode == HS_GW_PLAN)
        return hs_gw_emit(w, b, e);
    /* circle tests as the kernels make them: whole vectors, padding lanes included */
    w->tests += ((uint64_t)(e - b) + HS_W - 1u) / HS_W * HS_W;
    switch (w->flags) {
    case 0: return hs_gw_body(w, mode, b, e, 0, 0, 0);
    case 1: return hs_gw_body(w, mode, b, e, 0, 0, 1);
    case 2: return hs_gw_body(w, mode, b, e, 0, 1, 0);
    case 3: return hs_gw_body(w, mode, b, e, 0, 1, 1);
    case 4: return hs_gw_body(w, mode, b, e, 1, 0, 0);
    case 5: return hs_gw_body(w, mode, b, e, 1, 0, 1);
    case 6: return hs_gw_body(w, mode, b, e, 1, 1, 0);
    default: return hs_gw_body(w, mode, b, e, 1, 1, 1);
    }
}

/* hs_gcell without branches (the same value for every v, NaN included): the walk calls it
 * twice per row, and its two clamps were mispredicted near the grid's edges. */
static inline int32_t hs_gw_cell(double v, double o, double inv_h, int32_t n)
{
    double f = (v - o) * inv_h;
    f = f >= 0.0 ? f : 0.0;
    double top = (double)(n - 1);
    f = f < top ? f : top;
    return (int32_t)f;
}

static inline double hs_gw_min(double a, double b) { return a < b ? a : b; }
static inline double hs_gw_max(double a, double b) { return a > b ? a : b; }

/* Clips t in [*t0, *t1] to the slab lo <= a + t d <= hi; 0 if empty. */
static inline int hs_gw_clip(double a, double d, double lo, double hi, double *t0, double *t1)
{
    if (d == 0.0)
        return a >= lo && a <= hi;
    double inv = 1.0 / d;
    double ta = (lo - a) * inv, tb = (hi - a) * inv;
    if (ta > tb) {
        double s = ta;
        ta = tb;
        tb = s;
    }
    if (ta > *t0)
        *t0 = ta;
    if (tb < *t1)
        *t1 = tb;
    return *t0 <= *t1;
}

/* Walks level L for the query k. A circle of L can only be hit from a point of the query
 * within R = rmax + q of its centre, so the query is clipped to the centre bounds grown by R;
 * each visited row (or slab) gets the cells whose centres can lie within R of the part of the
 * query that is within R of it, in the order of t. Closest-hit stops after a row / slab when
 * the best t lies before the smallest t at which a circle of a later one could be entered.
 * Each cell is visited at most once, so count / all see every circle once. */
HS_INLINE int hs_gw_level(hs_gw *w, const int mode, const hs_kq *k, const hs_glevel *L)
{
    if (L->n == 0)
        return 0;
    const double R0 = (double)L->rmax + (double)k->q;
    const double ax = k->ax, ay = k->ay, dx = k->dx, dy = k->dy;
    const double amag = fabs(ax) + fabs(ay);
    /* inside the clipped interval |t d| <= |a| + |P(t)| <= amag + mag + R: one pad covers
     * the kernels' rounding at every point the walk looks at */
    const double Re = R0 + hs_gpad(2.0 * (L->mag + amag + R0), R0);
    double t0 = k->tmin, t1 = k->tmax;
    const uint32_t *cs = w->g->cell_start + L->cell0;
    const size_t nx = (size_t)L->nx;

    if (k->inv_dd == 0.0f) {
        /* zero-length: one point (t0 == t1 == the t closest to 0) */
        double px = ax + t0 * dx, py = ay + t0 * dy;
        double bx0 = px - Re, by0 = py - Re, bx1 = px + Re, by1 = py + Re;
        if (bx1 < L->ox || by1 < L->oy || bx0 > L->bx1 || by0 > L->by1)
            return 0;
        int32_t c0 = hs_gw_cell(bx0, L->ox, L->inv_h, L->nx), c1 = hs_gw_cell(bx1, L->ox, L->inv_h, L->nx);
        int32_t r0 = hs_gw_cell(by0, L->oy, L->inv_h, L->ny), r1 = hs_gw_cell(by1, L->oy, L->inv_h, L->ny);
        for (int32_t row = r0; row <= r1; row++) {
            size_t base = (size_t)row * nx;
            uint32_t b = cs[base + (size_t)c0], e = cs[base + (size_t)c1 + 1];
            if (b != e && hs_gw_run(w, mode, b, e))
                return 1;
        }
        return 0;
    }

    {
        /* clipping to the level's bounds only matters for queries that leave them; checking
         * the ends first saves two divisions on the others (most queries) */
        const double ex0 = ax + t0 * dx, ex1 = ax + t1 * dx, ey0 = ay + t0 * dy, ey1 = ay + t1 * dy;
        const double bx0 = L->ox - Re, bx1 = L->bx1 + Re, by0 = L->oy - Re, by1 = L->by1 + Re;
        const int inside = ex0 >= bx0 && ex0 <= bx1 && ex1 >= bx0 && ex1 <= bx1 && ey0 >= by0 &&
                           ey0 <= by1 && ey1 >= by0 && ey1 <= by1;
        if (!inside && (!hs_gw_clip(ax, dx, bx0, bx1, &t0, &t1) ||
                        !hs_gw_clip(ay, dy, by0, by1, &t0, &t1)))
            return 0;
    }
    if (mode == HS_GW_CLOSEST && w->best_t < t0)
        return 0; /* nothing in this level can be entered before the best so far */

    {
        /* A short query: walk the rows of its inflated bounding box in the query's y direction,
         * each row's run clipped to the part of the query within Re of the row's band. */
        double x0 = ax + t0 * dx, x1 = ax + t1 * dx, y0 = ay + t0 * dy, y1 = ay + t1 * dy;
        const double xmin = hs_gw_min(x0, x1), xmax = hs_gw_max(x0, x1);
        const double ymin = hs_gw_min(y0, y1), ymax = hs_gw_max(y0, y1);
        int32_t c0 = hs_gw_cell(xmin - Re, L->ox, L->inv_h, L->nx);
        int32_t c1 = hs_gw_cell(xmax + Re, L->ox, L->inv_h, L->nx);
        int32_t r0 = hs_gw_cell(ymin - Re, L->oy, L->inv_h, L->ny);
        int32_t r1 = hs_gw_cell(ymax + Re, L->oy, L->inv_h, L->ny);
        if ((int64_t)(c1 - c0 + 1) * (int64_t)(r1 - r0 + 1) <= HS_GW_BOX_CELLS) {
            const int up = dy >= 0.0;
            const int32_t rstep = up ? 1 : -1;
            /* x along the query as a function of y, when that is well conditioned; else (near
             * horizontal) every row sees the whole query: the box's columns */
            const int clip = c1 > c0 && fabs(dy) > fabs(dx) * 1e-12;
            const double inv_dy = dy != 0.0 ? 1.0 / dy : 0.0;
            const double h = L->h;
            /* Each row's run: the part of the query within Re of the row's band, i.e. x between
             * its values at y = band bottom - Re and band top + Re (clamped to the query's ends,
             * which clamps y too as x is monotone in y), grown by Re, as cells. All of it is
             * linear in the row, so in cell units one row's bounds are the previous row's plus a
             * constant, and the clamps (query ends, grid, box) fold into one clamp per bound:
             * a handful of operations per row instead of two cell conversions. Rounding differs
             * from evaluating each row directly by far less than the pad in Re. */
            const double ih = L->inv_h, re = Re * ih;
            double P = 0.0, pstep = 0.0, dlo = 0.0, dhi = 0.0;
            double loa = (double)c0, lob = (double)c0, hia = (double)c1, hib = (double)c1;
            if (clip) {
                const double sx = dx * inv_dy, sh = sx * ih;
                const int32_t rfirst = up ? r0 : r1;
                /* x at the bottom edge of the first row's band, in cell units */
                P = (ax + (L->oy + (double)rfirst * h - ay) * sx - L->ox) * ih;
                pstep = (up ? h : -h) * sh;
                const double ea = -Re * sh, eb = (h + Re) * sh;
                dlo = hs_gw_min(ea, eb) - re;
                dhi = hs_gw_max(ea, eb) + re;
                const double pmin = (xmin - L->ox) * ih, pmax = (xmax - L->ox) * ih;
                loa = hs_gw_min(hs_gw_max(pmin - re, (double)c0), (double)c1);
                lob = hs_gw_min(hs_gw_max(pmax - re, (double)c0), (double)c1);
                hia = hs_gw_min(hs_gw_max(pmin + re, (double)c0), (double)c1);
                hib = hs_gw_min(hs_gw_max(pmax + re, (double)c0), (double)c1);
            }
            /* Two passes: first every row's run (the cell_start loads are independent, and the
             * runs' first lines are requested), then the pair tests. In one pass each row's
             * loads waited for the previous row's tests: cell_start and circle loads were the
             * hottest instructions of the walk. */
            const int32_t nr = r1 - r0 + 1; /* <= HS_GW_BOX_CELLS */
            uint32_t rb[HS_GW_BOX_CELLS], rend[HS_GW_BOX_CELLS];
            for (int32_t j = 0, row = up ? r0 : r1; j < nr; j++, row += rstep) {
                /* non-negative, so truncation is floor */
                const int32_t ca = (int32_t)hs_gw_min(hs_gw_max(P + dlo, loa), lob);
                const int32_t cb = (int32_t)hs_gw_min(hs_gw_max(P + dhi, hia), hib);
                P += pstep;
                uint32_t b = 0, e = 0;
                if (ca <= cb) {
                    const size_t base = (size_t)row * nx;
                    b = cs[base + (size_t)ca];
                    e = cs[base + (size_t)cb + 1];
                }
                rb[j] = b;
                rend[j] = e;
#if defined(__GNUC__) || defined(__clang__)
                __builtin_prefetch(w->g->x + b);
                __builtin_prefetch(w->g->y + b);
                __builtin_prefetch(w->g->r + b);
                /* all reads ids for every vector that hits; closest only for the few vectors
                 * that hit, and its walk measured faster without this prefetch */
                if (mode == HS_GW_ALL)
                    __builtin_prefetch(w->g->id + b);
#endif
            }
            for (int32_t j = 0, row = up ? r0 : r1;; j++, row += rstep) {
                if (rb[j] != rend[j] && hs_gw_run(w, mode, rb[j], rend[j]))
                    return 1;
                if (j == nr - 1)
                    break;
                if (mode == HS_GW_CLOSEST && w->best_id != HS_NONE && dy != 0.0) {
                    /* centres of later rows lie beyond this row's edge: entering one needs a
                     * point of the query within Re of it */
                    double bv = up ? L->oy + (double)(row + 1) * h - Re : L->oy + (double)row * h + Re;
                    if ((double)w->best_t < (bv - ay) * inv_dy)
                        break;
                }
            }
            return 0;
        }
    }

    if (mode == HS_GW_PLAN)
        return 2; /* long: the per-query walk */
    const int xdom = fabs(dx) >= fabs(dy);
    /* u: dominant axis (slabs across it), v: the other */
    const double au = xdom ? ax : ay, av = xdom ? ay : ax;
    const double du = xdom ? dx : dy, dv = xdom ? dy : dx;
    const double ou = xdom ? L->ox : L->oy, ov = xdom ? L->oy : L->ox;
    const int32_t nu = xdom ? L->nx : L->ny, nv = xdom ? L->ny : L->nx;
    const double h = L->h, inv_h = L->inv_h;
    const double slope = dv / du, inv_du = 1.0 / du;
    const double u0 = au + t0 * du, u1 = au + t1 * du;
    const double umin = hs_gw_min(u0, u1), umax = hs_gw_max(u0, u1);
    const int step = du > 0.0 ? 1 : -1;
    const int32_t kfirst = hs_gw_cell(step > 0 ? umin - Re : umax + Re, ou, inv_h, nu);
    const int32_t klast = hs_gw_cell(step > 0 ? umax + Re : umin - Re, ou, inv_h, nu);

    if (!xdom) {
        /* slabs are rows: the cells of a row that the query can reach are one contiguous run */
        for (int32_t s = kfirst;; s += step) {
            double lo = hs_gw_max(ou + (double)s * h - Re, umin);
            double hi = hs_gw_min(ou + (double)(s + 1) * h + Re, umax);
            if (lo <= hi) {
                double va = av + (lo - au) * slope, vb = av + (hi - au) * slope;
                int32_t j0 = hs_gw_cell(hs_gw_min(va, vb) - Re, ov, inv_h, nv);
                int32_t j1 = hs_gw_cell(hs_gw_max(va, vb) + Re, ov, inv_h, nv);
                size_t base = (size_t)s * nx;
                uint32_t b = cs[base + (size_t)j0], e = cs[base + (size_t)j1 + 1];
                if (b != e && hs_gw_run(w, mode, b, e))
                    return 1;
            }
            if (s == klast)
                break;
            if (mode == HS_GW_CLOSEST && w->best_id != HS_NONE) {
                /* centres of later slabs lie beyond this boundary */
                double bu = step > 0 ? ou + (double)(s + 1) * h - Re : ou + (double)s * h + Re;
                if ((double)w->best_t < (bu - au) * inv_du)
                    break;
            }
        }
        return 0;
    }

    /* x-dominant: slabs are blocks of HS_GW_BLOCK columns; inside a block each row the query
     * can reach gets one contiguous run of columns, found from the part of the query that lies
     * in the row's band (grown by Re) and in the block's span (grown by Re). */
    const int tiny_dv = !(fabs(dv) > fabs(du) * 1e-12);
    const double inv_slope = tiny_dv ? 0.0 : du / dv;
    for (int32_t s = kfirst;; s += step * HS_GW_BLOCK) {
        /* the block's columns [sa, sb], clamped to the grid */
        int32_t sa = step > 0 ? s : s - (HS_GW_BLOCK - 1), sb = step > 0 ? s + (HS_GW_BLOCK - 1) : s;
        if (sa < 0)
            sa = 0;
        if (sb > nu - 1)
            sb = nu - 1;
        double lo = hs_gw_max(ou + (double)sa * h - Re, umin);
        double hi = hs_gw_min(ou + (double)(sb + 1) * h + Re, umax);
        if (lo <= hi) {
            double va = av + (lo - au) * slope, vb = av + (hi - au) * slope;
            int32_t j0 = hs_gw_cell(hs_gw_min(va, vb) - Re, ov, inv_h, nv);
            int32_t j1 = hs_gw_cell(hs_gw_max(va, vb) + Re, ov, inv_h, nv);
            int32_t jstep = dv >= 0.0 ? 1 : -1, j = jstep > 0 ? j0 : j1, jend = jstep > 0 ? j1 : j0;
            for (;; j += jstep) {
                double ulo = lo, uhi = hi;
                if (!tiny_dv) {
                    double ua = au + (ov + (double)j * h - Re - av) * inv_slope;
                    double ub = au + (ov + (double)(j + 1) * h + Re - av) * inv_slope;
                    ulo = hs_gw_max(ulo, hs_gw_min(ua, ub));
                    uhi = hs_gw_min(uhi, hs_gw_max(ua, ub));
                }
                if (ulo <= uhi) {
                    int32_t ca = hs_gw_cell(ulo - Re, ou, inv_h, nu), cb = hs_gw_cell(uhi + Re, ou, inv_h, nu);
                    if (ca < sa)
                        ca = sa;
                    if (cb > sb)
                        cb = sb;
                    if (ca <= cb) {
                        size_t base = (size_t)j * nx;
                        uint32_t b = cs[base + (size_t)ca], e = cs[base + (size_t)cb + 1];
                        if (b != e && hs_gw_run(w, mode, b, e))
                            return 1;
                    }
                }
                if (j == jend)
                    break;
            }
        }
        if (step > 0 ? sb >= klast : sa <= klast)
            break;
        if (mode == HS_GW_CLOSEST && w->best_id != HS_NONE) {
            double bu = step > 0 ? ou + (double)(sb + 1) * h - Re : ou + (double)sa * h + Re;
            if ((double)w->best_t < (bu - au) * inv_du)
                break;
        }
    }
    return 0;
}

HS_INLINE void hs_gw_init(hs_gw *w, const hs_grid *g, const hs_kq *kq)
{
    w->Q = hs_vq_make(kq);
    w->g = g;
    w->tests = 0;
    w->best_t = INFINITY;
    w->best_id = HS_NONE;
    w->best_pos = HS_NONE;
    w->count = 0;
    w->flags = (kq->q != 0.0f) * 4 + (kq->sem == HS_BOUNDARY) * 2 + (g->mask != NULL);
    w->buf = NULL;
    w->blk = NULL;
    w->err = HS_OK;
}

static int HS_FN(grid_any)(const hs_grid *g, const hs_kq *kq, uint64_t *tests)
{
    hs_gw w;
    hs_gw_init(&w, g, kq);
    int hit = 0;
    for (int l = 0; l < g->nlevels && !hit; l++)
        hit = hs_gw_level(&w, HS_GW_ANY, kq, &g->lv[l]);
    *tests += w.tests;
    return hit;
}

static uint32_t HS_FN(grid_count)(const hs_grid *g, const hs_kq *kq, uint64_t *tests)
{
    hs_gw w;
    hs_gw_init(&w, g, kq);
    for (int l = 0; l < g->nlevels; l++)
        hs_gw_level(&w, HS_GW_COUNT, kq, &g->lv[l]);
    *tests += w.tests;
    return w.count;
}

static int HS_FN(grid_closest)(const hs_grid *g, const hs_kq *kq, uint32_t *id, float *t,
                               hs_circle *circle, uint64_t *tests)
{
    hs_gw w;
    hs_gw_init(&w, g, kq);
    for (int l = 0; l < g->nlevels; l++)
        hs_gw_level(&w, HS_GW_CLOSEST, kq, &g->lv[l]);
    *tests += w.tests;
    if (w.best_id == HS_NONE)
        return 0;
    *id = w.best_id;
    *t = w.best_t;
    circle->x = g->x[w.best_pos];
    circle->y = g->y[w.best_pos];
    circle->r = g->r[w.best_pos];
    return 1;
}

static hs_status HS_FN(grid_all)(const hs_grid *g, const hs_kq *kq, hs_hitbuf *buf,
                                 uint64_t *tests)
{
    hs_gw w;
    hs_gw_init(&w, g, kq);
    w.buf = buf;
    for (int l = 0; l < g->nlevels; l++)
        if (hs_gw_level(&w, HS_GW_ALL, kq, &g->lv[l]))
            break;
    *tests += w.tests;
    return w.err;
}

/* ---- Block answering (see hs_gblock above) ------------------------------------------------ */

HS_INLINE hs_kq hs_gb_kq(const hs_gblock *B, size_t j, hs_semantics sem)
{
    hs_kq k;
    k.ax = B->ax[j];
    k.ay = B->ay[j];
    k.dx = B->dx[j];
    k.dy = B->dy[j];
    k.tmin = B->tmin[j];
    k.tmax = B->tmax[j];
    k.q = B->q[j];
    k.dd = B->dd[j];
    k.inv_dd = B->inv_dd[j];
    k.mask = B->kmask[j];
    k.sem = sem;
    return k;
}

HS_INLINE void hs_gb_put_kq(hs_gblock *B, size_t j, const hs_kq *k)
{
    B->ax[j] = k->ax;
    B->ay[j] = k->ay;
    B->dx[j] = k->dx;
    B->dy[j] = k->dy;
    B->tmin[j] = k->tmin;
    B->tmax[j] = k->tmax;
    B->q[j] = k->q;
    B->dd[j] = k->dd;
    B->inv_dd[j] = k->inv_dd;
    B->ninv[j] = -k->inv_dd;
    B->kmask[j] = k->mask;
}

HS_INLINE hs_vf hs_gb_ld(const float *p, size_t k)
{
    return k == (size_t)HS_W ? hs_vf_loadu(p) : hs_vf_load_part_n(p, k);
}

/* A sorted block's queries: a and d from the order's records (in order), the rest through
 * the permutation, into the slots' arrays (the vector prep then reads them there). */
HS_INLINE void hs_gb_gather(hs_gblock *B, const hs_queries *qs, const hs_qorder *ord, size_t lo,
                            size_t n)
{
    const uint32_t *perm = ord->perm + lo;
    const float *rec = ord->rec + 4 * lo;
    for (size_t j = 0; j < n; j++) {
        B->idx[j] = perm[j];
        B->ax[j] = rec[4 * j];
        B->ay[j] = rec[4 * j + 1];
        B->dx[j] = rec[4 * j + 2];
        B->dy[j] = rec[4 * j + 3];
    }
    if (qs->tmin || qs->tmax || qs->q || qs->mask)
        for (size_t j = 0; j < n; j++) {
            const size_t i = perm[j];
            B->tmin[j] = qs->tmin ? qs->tmin[i] : qs->tmin_all;
            B->tmax[j] = qs->tmax ? qs->tmax[i] : qs->tmax_all;
            B->q[j] = qs->q ? qs->q[i] : qs->q_all;
            B->kmask[j] = qs->mask ? qs->mask[i] : qs->mask_all;
        }
}

/* Slots 0 .. n-1 from positions lo .. lo+n-1 (ord's queries, or lo ..): hs_prep_query's answer,
 * HS_W queries at a time. Lanes that hs_query_surely_valid would not pass, and zero-length
 * ones (their interval collapses), go through hs_prep_query itself. */
HS_INLINE void hs_gb_prep(hs_gblock *B, const hs_queries *qs, const hs_qorder *ord,
                          hs_semantics sem, size_t lo, size_t n, hs_racc *acc)
{
    B->base = lo;
    B->nq = n;
    B->out_from = 0;
    B->ni = 0;
    const int perm = ord != NULL;
    if (perm)
        hs_gb_gather(B, qs, ord, lo, n);
    else
        for (size_t j = 0; j < n; j++)
            B->idx[j] = lo + j;
    /* where lane u of chunk j reads: the caller's arrays at lo + j + u, or the gathered copy */
    const size_t sh = perm ? 0 : lo;
    const float *pax = perm ? B->ax : qs->ax, *pay = perm ? B->ay : qs->ay;
    const float *pdx = perm ? B->dx : qs->dx, *pdy = perm ? B->dy : qs->dy;
    const float *pt0 = !qs->tmin ? NULL : perm ? B->tmin : qs->tmin;
    const float *pt1 = !qs->tmax ? NULL : perm ? B->tmax : qs->tmax;
    const float *pq = !qs->q ? NULL : perm ? B->q : qs->q;
    const uint32_t *pm = !qs->mask ? NULL : perm ? B->kmask : qs->mask;
    const hs_vf big = hs_vf_set1(HS_MAX_COORD), zero = hs_vf_set1(0.0f), one = hs_vf_set1(1.0f);
    const hs_vf inf = hs_vf_set1(INFINITY), ninf = hs_vf_set1(-INFINITY);
    const hs_vf fmx = hs_vf_set1(FLT_MAX), fmn = hs_vf_set1(FLT_MIN);
    for (size_t j = 0; j < n; j += HS_W) {
        const size_t k = n - j < (size_t)HS_W ? n - j : (size_t)HS_W, i = sh + j;
        const hs_vf ax = hs_gb_ld(pax + i, k), ay = hs_gb_ld(pay + i, k);
        const hs_vf dx = hs_gb_ld(pdx + i, k), dy = hs_gb_ld(pdy + i, k);
        const hs_vf t0 = pt0 ? hs_gb_ld(pt0 + i, k) : hs_vf_set1(qs->tmin_all);
        const hs_vf t1 = pt1 ? hs_gb_ld(pt1 + i, k) : hs_vf_set1(qs->tmax_all);
        const hs_vf q = pq ? hs_gb_ld(pq + i, k) : hs_vf_set1(qs->q_all);
        const hs_vf dd = hs_vf_add(hs_vf_mul(dx, dx), hs_vf_mul(dy, dy)); /* as hs_kq_make */
        hs_vm ok = hs_vm_and(hs_vm_le(hs_vf_abs(ax), big), hs_vm_le(hs_vf_abs(ay), big));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(hs_vf_abs(dx), big), hs_vm_le(hs_vf_abs(dy), big)));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(zero, q), hs_vm_le(q, big)));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(t0, t1), hs_vm_and(hs_vm_lt(t0, inf), hs_vm_lt(ninf, t1))));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(dd, fmx), hs_vm_le(fmn, dd)));
        const hs_vf inv = hs_vf_div(one, dd);
        hs_vf_storeu(B->ax + j, ax);
        hs_vf_storeu(B->ay + j, ay);
        hs_vf_storeu(B->dx + j, dx);
        hs_vf_storeu(B->dy + j, dy);
        hs_vf_storeu(B->tmin + j, t0);
        hs_vf_storeu(B->tmax + j, t1);
        hs_vf_storeu(B->q + j, q);
        hs_vf_storeu(B->dd + j, dd);
        hs_vf_storeu(B->inv_dd + j, inv);
        hs_vf_storeu(B->ninv + j, hs_vf_neg(inv));
        if (pm)
            hs_vi_storeu(B->kmask + j, k == (size_t)HS_W ? hs_vi_loadu(pm + i)
                                                         : hs_vi_load_part_n(pm + i, k));
        else
            hs_vi_storeu(B->kmask + j, hs_vi_set1(qs->mask_all));
        const unsigned all = hs_vm_bits(hs_vm_first(k)), okb = hs_vm_bits(ok) & all;
        for (size_t u = 0; u < k; u++) {
            B->state[j + u] = HS_GB_LIVE;
            B->bkey[j + u] = UINT64_MAX;
            B->btb[j + u] = 0x7f800000u; /* +inf: closest's early exit reads it as a float */
            B->bpos[j + u] = 0;
            B->cnt[j + u] = 0;
        }
        for (unsigned bad = all & ~okb; bad; bad &= bad - 1u) { /* rare */
            const size_t u = j + (size_t)__builtin_ctz(bad), qi = B->idx[u];
            hs_kq kq;
            if (hs_prep_query(qs, qi, sem, &kq)) {
                hs_gb_put_kq(B, u, &kq);
            } else {
                B->state[u] = HS_GB_INVALID;
                acc->invalid++;
                acc->first = qi < acc->first ? qi : acc->first;
            }
        }
    }
}

/* Level L's rows for every slot, HS_W slots at a time: the short-box branch of hs_gw_level,
 * for queries with finite ends inside the level's bounds (grown by Re), in float. The float
 * rounding is covered by a margin added to Re: a relative 2^-12, far above the few float ulps
 * of the coordinates the formulas lose (hs_gpad's own pad is already 4e-6 of them), plus 2^-8
 * of a cell for the slope terms, which stay below 16 x 96 cells (slopes |dx/dy| > 16 use
 * the box's columns on every row, as hs_gw_level does for near-horizontal queries). The
 * margin only widens runs, so the circles tested are a superset of what any hit needs. */
HS_INLINE void hs_gb_setup(hs_gblock *B, const hs_glevel *L, hs_grows *S)
{
    if (L->n == 0 || L->nx >= (1 << 22) || L->ny >= (1 << 22)) { /* float cells not exact */
        for (size_t j = 0; j < B->nq; j++)
            S->nr[j] = -1.0f;
        return;
    }
    const hs_vf ox = hs_vf_set1((float)L->ox), oy = hs_vf_set1((float)L->oy);
    const hs_vf h = hs_vf_set1((float)L->h), ih = hs_vf_set1((float)L->inv_h);
    const hs_vf nx1 = hs_vf_set1((float)(L->nx - 1)), ny1 = hs_vf_set1((float)(L->ny - 1));
    const hs_vf rmax = hs_vf_set1(L->rmax), mag2 = hs_vf_set1((float)(2.0 * L->mag));
    const hs_vf zero = hs_vf_set1(0.0f), one = hs_vf_set1(1.0f), two = hs_vf_set1(2.0f);
    const hs_vf inf = hs_vf_set1(INFINITY), m1 = hs_vf_set1(-1.0f);
    const hs_vf margin = hs_vf_set1(1.0f + 0x1p-12f), cmargin = hs_vf_set1((float)L->h * 0x1p-8f);
    const hs_vf pad = hs_vf_set1(4e-6f), pabs = hs_vf_set1((float)HS_GPAD_ABS), boxmax = hs_vf_set1((float)HS_GW_BOX_CELLS);
    const hs_vf slope = hs_vf_set1(16.0f);
    for (size_t j = 0; j < B->nq; j += HS_W) {
        const hs_vf ax = hs_vf_loadu(B->ax + j), ay = hs_vf_loadu(B->ay + j);
        const hs_vf dx = hs_vf_loadu(B->dx + j), dy = hs_vf_loadu(B->dy + j);
        const hs_vf t0 = hs_vf_loadu(B->tmin + j), t1 = hs_vf_loadu(B->tmax + j);
        const hs_vf R0 = hs_vf_add(rmax, hs_vf_loadu(B->q + j));
        const hs_vf amag = hs_vf_add(hs_vf_abs(ax), hs_vf_abs(ay));
        /* hs_gpad(2 (mag + amag + R0), R0), then the float margin */
        hs_vf Re = hs_vf_add(R0, hs_vf_mul(pad, hs_vf_add(hs_vf_add(mag2, hs_vf_mul(two, hs_vf_add(amag, R0))), R0)));
        Re = hs_vf_add(hs_vf_mul(Re, margin), hs_vf_add(cmargin, pabs));
        const hs_vf x0 = hs_vf_fmadd(t0, dx, ax), x1 = hs_vf_fmadd(t1, dx, ax);
        const hs_vf y0 = hs_vf_fmadd(t0, dy, ay), y1 = hs_vf_fmadd(t1, dy, ay);
        const hs_vf xmin = hs_vf_min(x0, x1), xmax = hs_vf_max(x0, x1);
        const hs_vf ymin = hs_vf_min(y0, y1), ymax = hs_vf_max(y0, y1);
        /* finite ends, non-zero length, both ends inside the grown bounds */
        hs_vm ok = hs_vm_and(hs_vm_lt(hs_vf_abs(t0), inf), hs_vm_lt(hs_vf_abs(t1), inf));
        ok = hs_vm_and(ok, hs_vm_lt(zero, hs_vf_loadu(B->inv_dd + j)));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(hs_vf_sub(ox, Re), xmin),
                                     hs_vm_le(xmax, hs_vf_add(hs_vf_set1((float)L->bx1), Re))));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(hs_vf_sub(oy, Re), ymin),
                                     hs_vm_le(ymax, hs_vf_add(hs_vf_set1((float)L->by1), Re))));
        /* the box's cells (hs_gw_cell: clamped, then truncated) */
        const hs_vf c0 = hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_mul(hs_vf_sub(hs_vf_sub(xmin, Re), ox), ih), zero), nx1));
        const hs_vf c1 = hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_mul(hs_vf_sub(hs_vf_add(xmax, Re), ox), ih), zero), nx1));
        const hs_vf r0 = hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_mul(hs_vf_sub(hs_vf_sub(ymin, Re), oy), ih), zero), ny1));
        const hs_vf r1 = hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_mul(hs_vf_sub(hs_vf_add(ymax, Re), oy), ih), zero), ny1));
        const hs_vf nr = hs_vf_add(hs_vf_sub(r1, r0), one);
        ok = hs_vm_and(ok, hs_vm_le(hs_vf_mul(hs_vf_add(hs_vf_sub(c1, c0), one), nr), boxmax));
        /* rows clipped to the query when the slope allows it */
        const hs_vm clip = hs_vm_and(hs_vm_lt(c0, c1), hs_vm_le(hs_vf_abs(dx), hs_vf_mul(hs_vf_abs(dy), slope)));
        const hs_vf sx = hs_vf_div(dx, hs_vf_select(clip, dy, one));
        const hs_vf sh = hs_vf_mul(sx, ih), re = hs_vf_mul(Re, ih);
        const hs_vf P0 = hs_vf_mul(hs_vf_sub(hs_vf_fmadd(hs_vf_sub(hs_vf_fmadd(r0, h, oy), ay), sx, ax), ox), ih);
        const hs_vf ea = hs_vf_mul(hs_vf_neg(Re), sh), eb = hs_vf_mul(hs_vf_add(h, Re), sh);
        const hs_vf pmin = hs_vf_mul(hs_vf_sub(xmin, ox), ih), pmax = hs_vf_mul(hs_vf_sub(xmax, ox), ih);
        hs_vf_storeu(S->r0 + j, r0);
        hs_vf_storeu(S->Re + j, Re);
        hs_vf_storeu(S->nr + j, hs_vf_select(ok, nr, m1));
        hs_vf_storeu(S->P0 + j, hs_vf_select(clip, P0, zero));
        hs_vf_storeu(S->pstep + j, hs_vf_select(clip, hs_vf_mul(h, sh), zero));
        hs_vf_storeu(S->dlo + j, hs_vf_select(clip, hs_vf_sub(hs_vf_min(ea, eb), re), zero));
        hs_vf_storeu(S->dhi + j, hs_vf_select(clip, hs_vf_add(hs_vf_max(ea, eb), re), zero));
        hs_vf_storeu(S->loa + j, hs_vf_select(clip, hs_vf_min(hs_vf_max(hs_vf_sub(pmin, re), c0), c1), c0));
        hs_vf_storeu(S->lob + j, hs_vf_select(clip, hs_vf_min(hs_vf_max(hs_vf_sub(pmax, re), c0), c1), c0));
        hs_vf_storeu(S->hia + j, hs_vf_select(clip, hs_vf_min(hs_vf_max(hs_vf_add(pmin, re), c0), c1), c1));
        hs_vf_storeu(S->hib + j, hs_vf_select(clip, hs_vf_min(hs_vf_max(hs_vf_add(pmax, re), c0), c1), c1));
    }
}

/* The rarer paths of the block walk, out of line (one copy per ISA rather than one per mode
 * and semantics): the scalar plan of one level, and the per-query walk. Not "cold": the
 * per-query walk is the whole path of rays and lines across the grid. */
#if defined(__GNUC__) || defined(__clang__)
#define HS_GB_OUTLINE __attribute__((noinline))
#else
#define HS_GB_OUTLINE
#endif
static HS_GB_OUTLINE int HS_FN(gb_plan_level)(hs_gw *w, const hs_kq *kq, const hs_glevel *L)
{
    return hs_gw_level(w, HS_GW_PLAN, kq, L);
}

static inline float hs_gb_minf(float a, float b) { return a < b ? a : b; }
static inline float hs_gb_maxf(float a, float b) { return a > b ? a : b; }

/* Slot j's items, every level; 0 done, 1 they do not fit, 2 long (the block is then as it
 * was). */
HS_INLINE int hs_gb_emit_slot(hs_gblock *B, const hs_grid *g, size_t j, hs_semantics sem)
{
    const size_t ni0 = B->ni;
    hs_gw w;
    w.g = g;
    w.blk = B;
    w.slot = j;
    w.best_t = INFINITY;
    w.best_id = HS_NONE;
    w.err = HS_OK;
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        const hs_grows *S = &B->rows[l];
        int s = 0;
        if (S->nr[j] >= 0.0f) {
            const int32_t nr = (int32_t)S->nr[j];
            const float P0 = S->P0[j], ps = S->pstep[j], dlo = S->dlo[j], dhi = S->dhi[j];
            const float loa = S->loa[j], lob = S->lob[j], hia = S->hia[j], hib = S->hib[j];
            const size_t nx = (size_t)L->nx;
            const uint32_t *cs = g->cell_start + L->cell0 + (size_t)(int32_t)S->r0[j] * nx;
            for (int32_t k = 0; k < nr && !s; k++, cs += nx) {
                const float P = P0 + (float)k * ps;
                const int32_t ca = (int32_t)hs_gb_minf(hs_gb_maxf(P + dlo, loa), lob);
                const int32_t cb = (int32_t)hs_gb_minf(hs_gb_maxf(P + dhi, hia), hib);
                if (ca <= cb) {
                    const uint32_t b = cs[ca], e = cs[cb + 1];
#if defined(__GNUC__) || defined(__clang__)
                    __builtin_prefetch(g->x + b);
                    __builtin_prefetch(g->y + b);
                    __builtin_prefetch(g->r + b);
#endif
                    s = hs_gw_emit(&w, b, e);
                }
            }
        } else {
            const hs_kq kq = hs_gb_kq(B, j, sem);
            s = HS_FN(gb_plan_level)(&w, &kq, L);
        }
        if (s) {
            B->ni = ni0;
            return s;
        }
    }
    return 0;
}

/* Slot j's prepared query, broadcast. */
HS_INLINE void hs_gb_bcast(const hs_gblock *B, size_t j, hs_vq *Q)
{
    Q->ax = hs_vf_set1(B->ax[j]);
    Q->ay = hs_vf_set1(B->ay[j]);
    Q->dx = hs_vf_set1(B->dx[j]);
    Q->dy = hs_vf_set1(B->dy[j]);
    Q->tmin = hs_vf_set1(B->tmin[j]);
    Q->tmax = hs_vf_set1(B->tmax[j]);
    Q->q = hs_vf_set1(B->q[j]);
    Q->dd = hs_vf_set1(B->dd[j]);
    Q->inv_dd = hs_vf_set1(B->inv_dd[j]);
    Q->ninv = hs_vf_set1(B->ninv[j]);
    Q->kmask = hs_vi_set1(B->kmask[j]);
}

/* Item it's circles and hit lanes. */
HS_INLINE hs_vm hs_gb_item(const hs_gblock *B, const hs_grid *g, const hs_gitem it, hs_vq *Q,
                           hs_vc *c, const int thick, const int boundary, const int usemask)
{
    hs_gb_bcast(B, it.q, Q);
    c->cx = hs_vf_loadu(g->x + it.start);
    c->cy = hs_vf_loadu(g->y + it.start);
    c->r = hs_vf_loadu(g->r + it.start);
    hs_vm m = hs_vm_and(hs_v_hits(Q, *c, thick, boundary), hs_vm_from_bits(it.m));
    if (usemask)
        m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(g->mask + it.start), Q->kmask));
    return m;
}

/* Closest: the listed hits dt/did/dpos/dq[0 .. len) folded into their slots' bests with no
 * branch on the data. The order is the smallest t, then among equal t (-0 and +0 too) the
 * smallest caller's id, which is one unsigned 64-bit key: t's bits made monotone (after
 * t + 0, which turns -0 into +0 and leaves every other t as it is) above the id. The winner
 * keeps its own t. */
HS_INLINE void hs_gb_closest_reduce(hs_gblock *B, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        const uint32_t q = B->dq[k];
        uint32_t tb;
        memcpy(&tb, &B->dt[k], sizeof tb);
#ifdef HS_GB_VEMIT
        const uint64_t key = B->dkey[k]; /* hs_gb_entries made it */
#else
        const float t0 = B->dt[k] + 0.0f;
        uint32_t u;
        memcpy(&u, &t0, sizeof u);
        u ^= (uint32_t)((int32_t)u >> 31) | 0x80000000u;
        const uint64_t key = (uint64_t)u << 32 | B->did[k];
#endif
        const uint64_t cur = B->bkey[q];
        const uint64_t m = 0u - (uint64_t)(key < cur);
        const uint32_t m32 = (uint32_t)m;
        B->bkey[q] = cur ^ ((cur ^ key) & m);
        B->btb[q] ^= (B->btb[q] ^ tb) & m32;
        B->bpos[q] ^= (B->bpos[q] ^ B->dpos[k]) & m32;
    }
}

#ifdef HS_GB_VEMIT
/* The slots q's values of a block array (HS_GB_Q entries), per lane. */
HS_INLINE __m512 hs_gb_lut(const float *f, __m512i q)
{
    const __m512 lo = _mm512_permutex2var_ps(_mm512_loadu_ps(f), q, _mm512_loadu_ps(f + 16));
    const __m512 hi = _mm512_permutex2var_ps(_mm512_loadu_ps(f + 32), q, _mm512_loadu_ps(f + 48));
    return _mm512_mask_blend_ps(_mm512_test_epi32_mask(q, _mm512_set1_epi32(32)), lo, hi);
}

/* Lanes 8h .. 8h+7 of lo and hi as 64-bit words lo | hi << 32 (hs_gitem's layout, the fold's
 * keys). */
HS_INLINE __m512i hs_gb_pair64(__m512i lo, __m512i hi, int h)
{
    const __m256i l = h ? _mm512_extracti64x4_epi64(lo, 1) : _mm512_castsi512_si256(lo);
    const __m256i u = h ? _mm512_extracti64x4_epi64(hi, 1) : _mm512_castsi512_si256(hi);
    return _mm512_or_si512(_mm512_cvtepu32_epi64(l),
                           _mm512_slli_epi64(_mm512_cvtepu32_epi64(u), 32));
}

/* The 32-bit words at storage positions pos (any uint32_t) of the lanes f, 0 elsewhere: gather
 * indices are signed, so pos is re-based by 2^31 and the base by as many words. */
HS_INLINE __m512i hs_gb_at(const void *base, __m512i pos, __mmask16 f)
{
    const void *b = (const void *)((uintptr_t)base + ((uintptr_t)4 << 31));
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), f,
                                       _mm512_xor_si512(pos, _mm512_set1_epi32(INT32_MIN)), b, 4);
}
#endif

/* Closest: the entry times dt[0 .. len) of the listed hits. On AVX-512 only the hit lanes'
 * storage positions were listed; their circles are gathered here and their times computed 16
 * hits at a time, each lane with its own slot's query. An item has ~2 hit lanes: computing
 * whole items' times (a division and a square root per 16 lanes) was ~7% of a closest call,
 * and listing their circles and ids by four more compresses per item (a compress and store
 * ~3 cycles, a plain store ~1, in a loop of them) was 0.95-0.98x these four gathers. Elsewhere
 * the times are listed with the hits. */
HS_INLINE void hs_gb_entries(hs_gblock *B, const hs_grid *g, size_t len, const int thick,
                             const int boundary)
{
#ifdef HS_GB_VEMIT
    for (size_t k = 0; k < len; k += HS_W) {
        const __mmask16 f = len - k >= (size_t)HS_W ? (__mmask16)0xffff
                                                    : (__mmask16)((1u << (len - k)) - 1u);
        const __m512i q = _mm512_maskz_loadu_epi32(f, B->dq + k);
        hs_vq Q;
        Q.ax = hs_gb_lut(B->ax, q);
        Q.ay = hs_gb_lut(B->ay, q);
        Q.dx = hs_gb_lut(B->dx, q);
        Q.dy = hs_gb_lut(B->dy, q);
        Q.tmin = hs_gb_lut(B->tmin, q);
        Q.tmax = hs_gb_lut(B->tmax, q);
        Q.q = hs_gb_lut(B->q, q);
        Q.dd = hs_gb_lut(B->dd, q);
        Q.inv_dd = hs_gb_lut(B->inv_dd, q);
        Q.ninv = hs_gb_lut(B->ninv, q);
        const __m512i pos = _mm512_maskz_loadu_epi32(f, B->dpos + k);
        hs_vc c;
        c.cx = _mm512_castsi512_ps(hs_gb_at(g->x, pos, f));
        c.cy = _mm512_castsi512_ps(hs_gb_at(g->y, pos, f));
        c.r = _mm512_castsi512_ps(hs_gb_at(g->r, pos, f));
        const __m512 t = hs_v_entry(&Q, c, thick, boundary);
        _mm512_storeu_ps(B->dt + k, t);
        /* the fold's keys, as hs_gb_closest_reduce makes them one at a time elsewhere */
        const __m512i u = _mm512_castps_si512(_mm512_add_ps(t, _mm512_setzero_ps()));
        const __m512i kh = _mm512_xor_si512(
            u, _mm512_or_si512(_mm512_srai_epi32(u, 31), _mm512_set1_epi32(INT32_MIN)));
        const __m512i id = hs_gb_at(g->id, pos, f);
        _mm512_storeu_si512((void *)(B->dkey + k), hs_gb_pair64(id, kh, 0));
        _mm512_storeu_si512((void *)(B->dkey + k + 8), hs_gb_pair64(id, kh, 1));
    }
#else
    (void)B;
    (void)g;
    (void)len;
    (void)thick;
    (void)boundary;
#endif
}

/* All: the listed items' hit lanes (entry t, caller's id) compressed into buf from position at
 * (the caller reserved a whole vector per item), counted into their slots, and with per_item
 * each item's count kept in B->hm; returns the position past them. */
HS_INLINE size_t hs_gb_all_items(hs_gblock *B, const hs_grid *g, hs_hitbuf *buf, size_t at,
                                 const int per_item, const int thick, const int boundary,
                                 const int usemask)
{
    for (size_t k = 0; k < B->ni; k++) {
        const hs_gitem it = B->it[k];
        hs_vq Q;
        hs_vc c;
        const hs_vm m = hs_gb_item(B, g, it, &Q, &c, thick, boundary, usemask);
        hs_vf_compress(buf->t + at, m, hs_v_entry(&Q, c, thick, boundary));
        hs_vi_compress(buf->id + at, m, hs_vi_loadu(g->id + it.start));
        const uint32_t n = (uint32_t)__builtin_popcount(hs_vm_bits(m));
        at += n;
        if (per_item)
            B->hm[k] = (uint16_t)n;
        B->cnt[it.q] += n;
    }
    return at;
}

/* Test phase over every item: count / any fold the hit lanes into the slots' cnt; closest
 * and all compute entry times with no branch on which lanes hit. */
HS_INLINE hs_status hs_gb_test(hs_gblock *B, const hs_grid *g, const int mode, hs_hitbuf *buf,
                               const int thick, const int boundary, const int usemask)
{
    if (mode == HS_GW_CLOSEST) {
        /* The items with a hit are listed with their hit lanes (no branch); then the hit lanes'
         * (position, slot) are compressed into a list (with their entry times and caller's ids
         * where hs_gb_entries does not compute them), which one scalar loop folds into the
         * slots' bests (hs_gb_closest_reduce) with no branch on the data.
         * Before: a running best per lane, reduced across lanes once per query where the list
         * moved to the next query: 9.9-10.2 M queries/s (uniform 10^6). That reduction and its
         * branch, not the entry times, were the cost: one entry computation per query (the
         * query's hitting items merged lane-wise) measured 0.83-0.92x. Earlier still,
         * each hitting item resolved by its own reduction, 6.5 M; entry times behind a branch
         * on the item's hits, 7.2 M. */
        size_t nh = 0;
        for (size_t k = 0; k < B->ni; k++) {
            hs_vq Q;
            hs_vc c;
            const unsigned bits =
                hs_vm_bits(hs_gb_item(B, g, B->it[k], &Q, &c, thick, boundary, usemask));
            B->hit[nh] = (uint16_t)k;
            B->hm[nh] = (uint16_t)bits;
            nh += bits != 0;
        }
        size_t len = 0;
        for (size_t h = 0; h < nh; h++) {
            const hs_gitem it = B->it[B->hit[h]];
            const unsigned bits = B->hm[h];
            const hs_vm m = hs_vm_from_bits(bits);
#ifndef HS_GB_VEMIT
            hs_vq Q;
            hs_vc c;
            hs_gb_bcast(B, it.q, &Q);
            c.cx = hs_vf_loadu(g->x + it.start);
            c.cy = hs_vf_loadu(g->y + it.start);
            c.r = hs_vf_loadu(g->r + it.start);
            hs_vf_compress(B->dt + len, m, hs_v_entry(&Q, c, thick, boundary));
            hs_vi_compress(B->did + len, m, hs_vi_loadu(g->id + it.start));
#endif
            hs_vi_compress(B->dpos + len, m, hs_vi_iota(it.start));
            hs_vi_storeu(B->dq + len, hs_vi_set1(it.q));
            len += (size_t)__builtin_popcount(bits);
            if (len > HS_GB_HITS - HS_W) {
                hs_gb_entries(B, g, len, thick, boundary);
                hs_gb_closest_reduce(B, len);
                len = 0;
            }
        }
        hs_gb_entries(B, g, len, thick, boundary);
        hs_gb_closest_reduce(B, len);
        return HS_OK;
    }
    if (mode == HS_GW_ALL) {
        /* The hit lanes' entry times and caller's ids, compressed straight into buf: a
         * slot's items are consecutive, so its hits are too, in query order. Room for a
         * whole vector per item is reserved once. */
        if (buf->cap - buf->len < (B->ni + 1) * HS_W &&
            hs_hitbuf_reserve(buf, (B->ni + 1) * HS_W) != HS_OK)
            return HS_E_NOMEM;
        buf->len = hs_gb_all_items(B, g, buf, buf->len, 0, thick, boundary, usemask);
        return HS_OK;
    }
    for (size_t k = 0; k < B->ni; k++) {
        const hs_gitem it = B->it[k];
        hs_vq Q;
        hs_vc c;
        const unsigned bits = hs_vm_bits(hs_gb_item(B, g, it, &Q, &c, thick, boundary, usemask));
        if (mode == HS_GW_COUNT)
            B->cnt[it.q] += (uint32_t)__builtin_popcount(bits);
        else
            B->cnt[it.q] |= bits != 0;
    }
    return HS_OK;
}

typedef struct hs_gbout {
    hs_closest_out co;
    float *stage; /* closest / any / count: answers staged by batch position (hs_qorder.inv) */
    uint8_t *hit;
    uint32_t *count;
    hs_hitbuf *buf;
    uint32_t *cnt;
} hs_gbout;

HS_INLINE void hs_gb_put_closest(const hs_closest_out *o, size_t i, const hs_kq *kq, uint32_t id,
                                 float t, const hs_grid *g, uint32_t pos)
{
    const int hit = id != HS_NONE;
    o->idx[i] = id;
    o->t[i] = hit ? t : NAN;
    if (o->px || o->py || o->nx || o->ny) {
        hs_vec2 p = {NAN, NAN}, nrm = {NAN, NAN};
        if (hit)
            hs_hit_geometry(kq, g->x[pos], g->y[pos], t, &p, &nrm);
        if (o->px)
            o->px[i] = p.x;
        if (o->py)
            o->py[i] = p.y;
        if (o->nx)
            o->nx[i] = nrm.x;
        if (o->ny)
            o->ny[i] = nrm.y;
    }
}

/* Batch position pos's answer word, staged (hs_qorder.inv: over the record's d, which the block
 * read in its prep): any's flag, count's count, closest's id. */
HS_INLINE void hs_gb_stage_word(const hs_gbout *o, size_t pos, uint32_t v)
{
    memcpy(o->stage + 4 * pos + 2, &v, sizeof v);
}

/* Closest's answer for batch position pos, staged: id and the t written out, as
 * hs_gb_put_closest writes them. */
HS_INLINE void hs_gb_stage(const hs_gbout *o, size_t pos, uint32_t id, float t)
{
    const float tw = id != HS_NONE ? t : NAN;
    hs_gb_stage_word(o, pos, id);
    memcpy(o->stage + 4 * pos + 3, &tw, sizeof tw);
}

/* Test the planned items (count / any / closest fold into the slots, all appends to buf) and
 * empty the list. HS_E_NOMEM only from all's buffer. */
HS_INLINE hs_status hs_gb_drain(hs_gblock *B, const hs_grid *g, const int mode, hs_hitbuf *buf,
                                hs_racc *acc, const int thick, const int boundary,
                                const int usemask)
{
    acc->tests += (uint64_t)B->ni * HS_W; /* whole vectors, as the kernels count them */
    const hs_status st = hs_gb_test(B, g, mode, buf, thick, boundary, usemask);
    B->ni = 0;
    return st;
}

#ifdef HS_GB_VEMIT
/* Staged answers of slots j0 .. j0+15, 16 at a time (hs_gb_stage / hs_gb_stage_word): the lanes
 * wl of w2 over word 2 of their batch position's record, and with two those of w3 over word 3.
 * (Leaving the answers out altogether, as a bound, made closest 1.03-1.07x faster; this
 * against one slot at a time: count 1.03-1.07x, closest 0.99-1.03x.) */
HS_INLINE void hs_gb_vstage(const hs_gbout *o, size_t pos0, __mmask16 wl, __m512i w2, __m512i w3,
                            const int two)
{
    /* bits 4i+2 (and 4i+3) of each nibble's lanes i */
    static const uint16_t spread[16] = {0x0000, 0x0004, 0x0040, 0x0044, 0x0400, 0x0404,
                                        0x0440, 0x0444, 0x4000, 0x4004, 0x4040, 0x4044,
                                        0x4400, 0x4404, 0x4440, 0x4444};
    float *rec = o->stage + 4 * pos0;
    for (int r = 0; r < 4; r++) {
        const unsigned nib = ((unsigned)wl >> (4 * r)) & 15u;
        if (!nib)
            continue;
        /* word 4i+2 from w2's lane 4r+i, word 4i+3 from w3's */
        const __m512i idx = _mm512_add_epi32(
            _mm512_setr_epi32(0, 0, 0, 16, 1, 1, 1, 17, 2, 2, 2, 18, 3, 3, 3, 19),
            _mm512_set1_epi32(4 * r));
        const __m512i v = _mm512_permutex2var_epi32(w2, idx, w3);
        const unsigned m = two ? spread[nib] | (unsigned)spread[nib] << 1 : spread[nib];
        _mm512_mask_storeu_epi32((void *)(rec + 16 * r), (__mmask16)m, v);
    }
}

/* Slots j0 .. j0+15's states as lanes: those equal to st. */
HS_INLINE __mmask16 hs_gb_vstate(const hs_gblock *B, size_t j0, int st)
{
    const __m512i s = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(B->state + j0)));
    return _mm512_cmpeq_epi32_mask(s, _mm512_set1_epi32(st));
}
#endif

/* Answer slots out_from .. upto-1 from what the tests folded into them (slots the per-query
 * walk answered are skipped). st: the tests' status (all's counts are 0 after a failure). */
HS_INLINE void hs_gb_answer(hs_gblock *B, const hs_grid *g, size_t upto, hs_semantics sem,
                            const int mode, const hs_gbout *o, hs_status st)
{
#ifdef HS_GB_VEMIT
    if ((mode == HS_GW_CLOSEST || mode == HS_GW_ANY || mode == HS_GW_COUNT) && o->stage) {
        for (size_t j0 = B->out_from & ~(size_t)(HS_W - 1); j0 < upto; j0 += HS_W) {
            /* lanes out_from .. upto-1 that the per-query walk did not answer */
            const unsigned from = B->out_from > j0 ? (unsigned)(B->out_from - j0) : 0u;
            const unsigned to = upto - j0 < (size_t)HS_W ? (unsigned)(upto - j0) : (unsigned)HS_W;
            const __mmask16 wl = (__mmask16)(((1u << to) - 1u) & ~((1u << from) - 1u)) &
                                 (__mmask16)~hs_gb_vstate(B, j0, HS_GB_DONE);
            if (mode != HS_GW_CLOSEST) { /* any's cnt is 0 or 1 */
                const __m512i c = _mm512_loadu_si512((const void *)(B->cnt + j0));
                hs_gb_vstage(o, B->base + j0, wl, c, c, 0);
                continue;
            }
            const __m512i k0 = _mm512_loadu_si512((const void *)(B->bkey + j0));
            const __m512i k1 = _mm512_loadu_si512((const void *)(B->bkey + j0 + 8));
            const __m512i none = _mm512_set1_epi32((int)HS_NONE);
            const __mmask16 hit =
                hs_gb_vstate(B, j0, HS_GB_LIVE) &
                (__mmask16)(_mm512_cmpneq_epu64_mask(k0, _mm512_set1_epi64(-1)) |
                            _mm512_cmpneq_epu64_mask(k1, _mm512_set1_epi64(-1)) << 8);
            const __m512i ids = _mm512_inserti64x4(
                _mm512_castsi256_si512(_mm512_cvtepi64_epi32(k0)), _mm512_cvtepi64_epi32(k1), 1);
            const __m512i id = _mm512_mask_blend_epi32(hit, none, ids);
            /* as hs_gb_stage: t where the id is one, else NaN */
            const __m512i t = _mm512_mask_blend_epi32(
                _mm512_cmpneq_epi32_mask(id, none), _mm512_castps_si512(_mm512_set1_ps(NAN)),
                _mm512_loadu_si512((const void *)(B->btb + j0)));
            hs_gb_vstage(o, B->base + j0, wl, id, t, 1);
        }
        B->out_from = upto;
        return;
    }
#endif
    if (mode == HS_GW_CLOSEST && o->stage) {
        for (size_t j = B->out_from; j < upto; j++) {
            if (B->state[j] == HS_GB_DONE)
                continue;
            const int hit = B->state[j] == HS_GB_LIVE && B->bkey[j] != UINT64_MAX;
            float t;
            memcpy(&t, &B->btb[j], sizeof t);
            hs_gb_stage(o, B->base + j, hit ? (uint32_t)B->bkey[j] : HS_NONE, t);
        }
    } else if (mode == HS_GW_CLOSEST) {
        for (size_t j = B->out_from; j < upto; j++) {
            if (B->state[j] == HS_GB_DONE)
                continue;
            const hs_kq kq = hs_gb_kq(B, j, sem);
            const int hit = B->state[j] == HS_GB_LIVE && B->bkey[j] != UINT64_MAX;
            float t;
            memcpy(&t, &B->btb[j], sizeof t);
            hs_gb_put_closest(&o->co, B->idx[j], &kq, hit ? (uint32_t)B->bkey[j] : HS_NONE, t,
                              g, B->bpos[j]);
        }
    } else if (mode == HS_GW_ALL) {
        for (size_t j = B->out_from; j < upto; j++)
            o->cnt[B->base + j] = st == HS_OK ? B->cnt[j] : 0;
    } else {
        for (size_t j = B->out_from; j < upto; j++) {
            if (B->state[j] == HS_GB_DONE)
                continue;
            if (o->stage) /* any's cnt is 0 or 1 */
                hs_gb_stage_word(o, B->base + j, B->cnt[j]);
            else if (o->count)
                o->count[B->idx[j]] = B->cnt[j];
            else
                o->hit[B->idx[j]] = (uint8_t)B->cnt[j];
        }
    }
    B->out_from = upto;
}

/* Test the planned items and answer slots out_from .. upto-1. */
HS_INLINE hs_status hs_gb_flush(hs_gblock *B, const hs_grid *g, size_t upto, hs_semantics sem,
                                const int mode, const hs_gbout *o, hs_racc *acc,
                                const int thick, const int boundary, const int usemask)
{
    const hs_status st = hs_gb_drain(B, g, mode, o->buf, acc, thick, boundary, usemask);
    hs_gb_answer(B, g, upto, sem, mode, o, st);
    return st;
}

/* Slot j by the per-query walk, answered now. */
static HS_GB_OUTLINE hs_status HS_FN(gb_walk)(hs_gblock *B, const hs_grid *g, size_t j,
                                           hs_semantics sem, int mode, const hs_gbout *o,
                                           hs_racc *acc)
{
    const hs_kq kq = hs_gb_kq(B, j, sem);
    const size_t i = B->idx[j];
    if (mode == HS_GW_CLOSEST) {
        hs_gw w;
        hs_gw_init(&w, g, &kq);
        for (int l = 0; l < g->nlevels; l++)
            hs_gw_level(&w, HS_GW_CLOSEST, &kq, &g->lv[l]);
        acc->tests += w.tests;
        if (o->stage)
            hs_gb_stage(o, B->base + j, w.best_id, w.best_t);
        else
            hs_gb_put_closest(&o->co, i, &kq, w.best_id, w.best_t, g, w.best_pos);
    } else if (mode == HS_GW_ALL) {
        const size_t before = o->buf->len;
        if (HS_FN(grid_all)(g, &kq, o->buf, &acc->tests) != HS_OK) {
            o->buf->len = before;
            return HS_E_NOMEM;
        }
        o->cnt[B->base + j] = (uint32_t)(o->buf->len - before);
    } else {
        const uint32_t v = o->count ? HS_FN(grid_count)(g, &kq, &acc->tests)
                                    : (uint32_t)(HS_FN(grid_any)(g, &kq, &acc->tests) != 0);
        if (o->stage)
            hs_gb_stage_word(o, B->base + j, v);
        else if (o->count)
            o->count[i] = v;
        else
            o->hit[i] = (uint8_t)v;
    }
    return HS_OK;
}

#ifdef HS_GB_VEMIT

/* Level l's row set-up (hs_grows) for slots j0 .. j0+15, in registers: the row loop stores
 * items into the block, which the compiler must assume can overlap the set-up. */
typedef struct hs_gbvrows {
    __m512 nr, r0, P0, ps, dlo, dhi, loa, lob, hia, hib;
    __mmask16 up; /* closest walks rows in the query's y direction (as hs_gw_level does) */
} hs_gbvrows;

HS_INLINE hs_gbvrows hs_gb_vrows(const hs_gblock *B, const hs_grows *S, size_t j0)
{
    hs_gbvrows R;
    R.nr = _mm512_loadu_ps(S->nr + j0);
    R.r0 = _mm512_loadu_ps(S->r0 + j0);
    R.P0 = _mm512_loadu_ps(S->P0 + j0);
    R.ps = _mm512_loadu_ps(S->pstep + j0);
    R.dlo = _mm512_loadu_ps(S->dlo + j0);
    R.dhi = _mm512_loadu_ps(S->dhi + j0);
    R.loa = _mm512_loadu_ps(S->loa + j0);
    R.lob = _mm512_loadu_ps(S->lob + j0);
    R.hia = _mm512_loadu_ps(S->hia + j0);
    R.hib = _mm512_loadu_ps(S->hib + j0);
    R.up = _mm512_cmp_ps_mask(_mm512_loadu_ps(B->dy + j0), _mm512_setzero_ps(), _CMP_GE_OQ);
    return R;
}

/* Row k's index in the level's box: k upwards, nr - 1 - k downwards for closest. */
HS_INLINE __m512 hs_gb_vkk(const hs_gbvrows *R, int k, const int mode)
{
    const __m512 kf = _mm512_set1_ps((float)k);
    if (mode != HS_GW_CLOSEST)
        return kf;
    const __m512 last = _mm512_sub_ps(R->nr, _mm512_set1_ps(1.0f));
    return _mm512_mask_blend_ps(R->up, _mm512_sub_ps(last, kf), kf);
}

/* Row k of level L for the lanes act of slots j0 .. j0+15: the lanes that have that row and a
 * non-empty run of cells, and the run's two cell_start indices (*ia: its first cell, *ib: one
 * past its last), as hs_gb_emit_slot computes them (same float operations). */
HS_INLINE __mmask16 hs_gb_vbounds(const hs_glevel *L, const hs_gbvrows *R, __mmask16 act, int k,
                                  const int mode, __m512i *ia, __m512i *ib)
{
    act &= _mm512_cmp_ps_mask(_mm512_set1_ps((float)k), R->nr, _CMP_LT_OQ);
    const __m512 kk = hs_gb_vkk(R, k, mode);
    const __m512i rowb = _mm512_mullo_epi32(_mm512_cvttps_epi32(_mm512_add_ps(R->r0, kk)),
                                            _mm512_set1_epi32((int)L->nx));
    const __m512 P = _mm512_add_ps(R->P0, _mm512_mul_ps(kk, R->ps));
    const __m512i ca = _mm512_cvttps_epi32(
        _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(P, R->dlo), R->loa), R->lob));
    const __m512i cb = _mm512_cvttps_epi32(
        _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(P, R->dhi), R->hia), R->hib));
    *ia = _mm512_add_epi32(rowb, ca);
    *ib = _mm512_add_epi32(rowb, _mm512_add_epi32(cb, _mm512_set1_epi32(1)));
    return act & _mm512_cmple_epi32_mask(ca, cb);
}

/* The lanes act's runs [b, b + n) of the slots q, one item per HS_W circles, compressed into
 * the list. Count, any and closest fold hits into their slots whatever the order of the
 * items, so a full list is tested on the spot; all returns 1 instead (hs_gb_all_block tests
 * a block's list once). */
HS_INLINE int hs_gb_vitems(hs_gblock *B, const hs_grid *g, __m512i b, __m512i n, __m512i q,
                           __mmask16 act, const int mode, hs_racc *acc, const int thick,
                           const int boundary, const int usemask)
{
    const __m512i w16 = _mm512_set1_epi32(HS_W);
    act &= _mm512_test_epi32_mask(n, n);
    while (act) { /* one item per run; runs past HS_W circles go round again (rare) */
        if (B->ni > HS_GB_ITEMS - HS_W) {
            if (mode == HS_GW_ALL)
                return 1;
            (void)hs_gb_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
        }
        const __m512i nn = _mm512_min_epu32(n, w16);
        const __m512i one = _mm512_set1_epi32(1);
        const __m512i lanes = _mm512_sub_epi32(_mm512_sllv_epi32(one, nn), one);
        const __m512i qn = _mm512_or_si512(q, _mm512_slli_epi32(lanes, 16));
        /* (start, q | lanes << 16) as 64-bit items, lanes 0-7 then 8-15 */
        const __m512i lo = hs_gb_pair64(b, qn, 0), hi = hs_gb_pair64(b, qn, 1);
        const __mmask8 alo = (__mmask8)act, ahi = (__mmask8)(act >> 8);
        hs_gitem *it = B->it + B->ni;
        _mm512_storeu_si512((void *)it, _mm512_maskz_compress_epi64(alo, lo));
        it += __builtin_popcount(alo);
        _mm512_storeu_si512((void *)it, _mm512_maskz_compress_epi64(ahi, hi));
        B->ni += (size_t)__builtin_popcount(act);
        b = _mm512_add_epi32(b, w16);
        n = _mm512_sub_epi32(n, nn);
        act &= _mm512_test_epi32_mask(n, n);
    }
    return 0;
}

/* Slots j0 .. j0+15 as lanes. */
HS_INLINE __m512i hs_gb_vslots(size_t j0)
{
    return _mm512_add_epi32(_mm512_set1_epi32((int)j0),
                            _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* Any: the lanes of slots j0 .. j0+15 without a hit yet. */
HS_INLINE __mmask16 hs_gb_unhit(const hs_gblock *B, size_t j0)
{
    return _mm512_testn_epi32_mask(_mm512_loadu_si512((const void *)(B->cnt + j0)),
                                   _mm512_set1_epi32(-1));
}

/* The lanes with a run in row k, packed across the block (their cell indices dia / dib and
 * slots dq), then read 16 at a time: a gather costs the same however few of its lanes are on
 * (two more per 16 lanes were 13% of a closest call), and only ~40% of a row's lanes have a
 * run (closest, uniform 10^6). Returns the packed count. */
HS_INLINE size_t hs_gb_pack(const hs_gblock *B, const hs_glevel *L, const hs_grows *S,
                            const __mmask16 *El, size_t ng, int k, const int mode, uint32_t *dia,
                            uint32_t *dib, uint32_t *dq)
{
    size_t nd = 0;
    for (size_t u = 0; u < ng; u++) {
        if (!El[u])
            continue;
        const hs_gbvrows R = hs_gb_vrows(B, S, u * HS_W);
        __m512i ia, ib;
        const __mmask16 a = hs_gb_vbounds(L, &R, El[u], k, mode, &ia, &ib);
        _mm512_storeu_si512((void *)(dia + nd), _mm512_maskz_compress_epi32(a, ia));
        _mm512_storeu_si512((void *)(dib + nd), _mm512_maskz_compress_epi32(a, ib));
        _mm512_storeu_si512((void *)(dq + nd), _mm512_maskz_compress_epi32(a, hs_gb_vslots(u * HS_W)));
        nd += (size_t)__builtin_popcount(a);
    }
    return nd;
}

/* Packed runs c .. c+15 (those below nd): their cell_start reads, then their items. */
HS_INLINE int hs_gb_packed(hs_gblock *B, const hs_grid *g, const hs_glevel *L,
                           const uint32_t *dia, const uint32_t *dib, const uint32_t *dq,
                           size_t c, size_t nd, const int mode, hs_racc *acc, const int thick,
                           const int boundary, const int usemask)
{
    const uint32_t *cs = g->cell_start + L->cell0;
    const __mmask16 act = nd - c >= (size_t)HS_W ? (__mmask16)0xffff
                                                 : (__mmask16)((1u << (nd - c)) - 1u);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i b = _mm512_mask_i32gather_epi32(zero, act, _mm512_maskz_loadu_epi32(act, dia + c),
                                                  (const void *)cs, 4);
    const __m512i e = _mm512_mask_i32gather_epi32(zero, act, _mm512_maskz_loadu_epi32(act, dib + c),
                                                  (const void *)cs, 4);
    return hs_gb_vitems(B, g, b, _mm512_sub_epi32(e, b), _mm512_maskz_loadu_epi32(act, dq + c), act,
                        mode, acc, thick, boundary, usemask);
}

/* Row k of level L for the block's lanes El: packed, then planned 16 runs at a time. 1: all's
 * list is full (see hs_gb_vitems). */
HS_INLINE int hs_gb_vrow(hs_gblock *B, const hs_grid *g, const hs_glevel *L, const hs_grows *S,
                         const __mmask16 *El, size_t ng, int k, const int mode, hs_racc *acc,
                         const int thick, const int boundary, const int usemask)
{
    uint32_t dia[HS_GB_Q + HS_W], dib[HS_GB_Q + HS_W], dq[HS_GB_Q + HS_W];
    const size_t nd = hs_gb_pack(B, L, S, El, ng, k, mode, dia, dib, dq);
    for (size_t c = 0; c < nd; c += HS_W)
        if (hs_gb_packed(B, g, L, dia, dib, dq, c, nd, mode, acc, thick, boundary, usemask))
            return 1;
    return 0;
}

/* Count and all, level L: no early exit, so every row of the block's lanes E is planned
 * before any test. Row by row across the block (count 1.08-1.12x against 16 slots at a time to
 * their own last row, which read cell_start for mostly idle lanes). */
HS_INLINE int hs_gb_vrows_all(hs_gblock *B, const hs_grid *g, const hs_glevel *L,
                              const hs_grows *S, const __mmask16 *E, size_t ng, const int mode,
                              hs_racc *acc, const int thick, const int boundary,
                              const int usemask)
{
    float maxnr = 0.0f;
    for (size_t u = 0; u < ng; u++)
        if (E[u]) {
            const float m = _mm512_mask_reduce_max_ps(E[u], _mm512_loadu_ps(S->nr + u * HS_W));
            maxnr = m > maxnr ? m : maxnr;
        }
    for (int k = 0; (float)k < maxnr; k++)
        if (hs_gb_vrow(B, g, L, S, E, ng, k, mode, acc, thick, boundary, usemask))
            return 1;
    return 0;
}

/* Closest, slots j0 .. j0+15 after row k of level L: later rows' centres lie beyond row k's
 * edge, so entering one needs a point of the query within Re of that edge:
 * t >= (edge -+ Re - ay) / dy (hs_gw_level's test, in float: Re's margin covers far more than
 * this rounding, and the bound is shrunk by 2^-20). A lane whose best t lies below the bound
 * is done; lanes with dy = 0 get -inf (never done). */
HS_INLINE __m512 hs_gb_vbound(const hs_gblock *B, const hs_grows *S, size_t j0, int k, __m512 h,
                              __m512 oy)
{
    const __m512 dy = _mm512_loadu_ps(B->dy + j0), ay = _mm512_loadu_ps(B->ay + j0);
    const __m512 Re = _mm512_loadu_ps(S->Re + j0);
    const hs_gbvrows R = hs_gb_vrows(B, S, j0);
    const __mmask16 up = R.up;
    const __mmask16 moving = _mm512_cmp_ps_mask(dy, _mm512_setzero_ps(), _CMP_NEQ_OQ);
    const __m512 rowf = _mm512_add_ps(R.r0, hs_gb_vkk(&R, k, HS_GW_CLOSEST));
    const __m512 edge = _mm512_fmadd_ps(_mm512_mask_add_ps(rowf, up, rowf, _mm512_set1_ps(1.0f)),
                                        h, oy);
    const __m512 bv = _mm512_mask_blend_ps(up, _mm512_add_ps(edge, Re), _mm512_sub_ps(edge, Re));
    __m512 tb = _mm512_div_ps(_mm512_sub_ps(bv, ay), dy);
    tb = _mm512_sub_ps(tb, _mm512_mul_ps(_mm512_abs_ps(tb), _mm512_set1_ps(0x1p-20f)));
    return _mm512_mask_blend_ps(moving, _mm512_set1_ps(-INFINITY), tb);
}

/* Plan, the whole block at once: the lanes E[u] of slots 16u .. 16u+15, every level (each set
 * up for those lanes), row k of every lane of the block together (hs_gb_vrow).
 * Closest and any test the list after each row and drop the lanes they have answered, so each
 * row is one test of up to 64 queries' items. (Per 16 slots, rows tested 16 queries at a time,
 * each row's gathers waited for the previous row's tests and fold.) */
HS_INLINE int hs_gb_vemit(hs_gblock *B, const hs_grid *g, const __mmask16 *E, size_t ng,
                          const int mode, hs_racc *acc, const int thick, const int boundary,
                          const int usemask)
{
    /* closest and any: the level of large circles first (in the mixed scene most queries
     * start inside one: any is then answered, and closest's t = 0 ends the small circles'
     * walk after one row) */
    for (int ll = 0; ll < g->nlevels; ll++) {
        const int l = mode == HS_GW_CLOSEST || mode == HS_GW_ANY ? g->nlevels - 1 - ll : ll;
        const hs_glevel *L = &g->lv[l];
        if (L->n == 0)
            continue;
        const hs_grows *S = &B->rows[l];
        if (mode == HS_GW_COUNT || mode == HS_GW_ALL) {
            if (hs_gb_vrows_all(B, g, L, S, E, ng, mode, acc, thick, boundary, usemask))
                return 1;
            continue;
        }
        __mmask16 El[HS_GB_GROUPS]; /* the lanes still walking this level */
        float maxnr = 0.0f;
        unsigned anyl = 0;
        for (size_t u = 0; u < ng; u++) {
            const size_t j0 = u * HS_W;
            El[u] = E[u];
            if (mode == HS_GW_ANY) /* any: a query with a hit is answered */
                El[u] &= hs_gb_unhit(B, j0);
            if (El[u]) {
                const float m = _mm512_mask_reduce_max_ps(El[u], _mm512_loadu_ps(S->nr + j0));
                maxnr = m > maxnr ? m : maxnr;
            }
            anyl |= El[u];
        }
        const __m512 h = _mm512_set1_ps((float)L->h), oy = _mm512_set1_ps((float)L->oy);
        for (int k = 0; (float)k < maxnr && anyl; k++) {
            (void)hs_gb_vrow(B, g, L, S, El, ng, k, mode, acc, thick, boundary, usemask);
            if (mode == HS_GW_ANY || mode == HS_GW_CLOSEST) {
                /* closest: the bound each lane's best t must beat to stop after row k, computed
                 * before the tests (it does not depend on them) so it is ready when they end */
                __m512 tbv[HS_GB_GROUPS];
                if (mode == HS_GW_CLOSEST)
                    for (size_t u = 0; u < ng; u++)
                        tbv[u] = El[u] ? hs_gb_vbound(B, S, u * HS_W, k, h, oy)
                                       : _mm512_setzero_ps();
                (void)hs_gb_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
                anyl = 0;
                for (size_t u = 0; u < ng; u++) {
                    const size_t j0 = u * HS_W;
                    if (mode == HS_GW_ANY) {
                        El[u] &= hs_gb_unhit(B, j0);
                    } else if (El[u]) {
                        const __m512 bt = _mm512_castsi512_ps(_mm512_loadu_si512((const void *)(B->btb + j0)));
                        El[u] &= ~_mm512_cmp_ps_mask(bt, tbv[u], _CMP_LT_OQ);
                    }
                    anyl |= El[u];
                }
            }
        }
    }
    return 0;
}

/* The live slots of j0 .. j0+15 (below nq), as lanes. */
HS_INLINE __mmask16 hs_gb_live(const hs_gblock *B, size_t j0, size_t nq)
{
    const size_t k = nq - j0 < (size_t)HS_W ? nq - j0 : (size_t)HS_W;
    __mmask16 live = 0;
    for (size_t u = 0; u < k; u++)
        live |= (__mmask16)((B->state[j0 + u] == HS_GB_LIVE) << u);
    return live;
}

/* Whether hs_gb_vemit can walk g at all: its gathers' cell indices are signed 32-bit. */
HS_INLINE int hs_gb_vgrid(const hs_grid *g)
{
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        if ((uint64_t)L->cell0 + (uint64_t)L->nx * (uint64_t)L->ny >= (1u << 31))
            return 0;
    }
    return 1;
}

/* Of the lanes live, those hs_gb_vemit can plan: set up on every level that has circles. */
HS_INLINE __mmask16 hs_gb_vlanes(const hs_gblock *B, const hs_grid *g, size_t j0,
                                 __mmask16 live)
{
    __mmask16 E = live;
    for (int l = 0; l < g->nlevels; l++)
        if (g->lv[l].n != 0)
            E &= _mm512_cmp_ps_mask(_mm512_loadu_ps(B->rows[l].nr + j0), _mm512_setzero_ps(),
                                    _CMP_GE_OQ);
    return E;
}

/* All, for a block planned out of query order (hs_gb_vemit): the list's hits compressed past
 * the room the block needs, then each item's hits moved to its slot's place (slots in order,
 * items of a slot in list order), so buf holds the block's hits query by query, as the per-slot
 * plan leaves them; the driver then sorts each query's hits by (t, id). */
HS_INLINE hs_status hs_gb_all_block(hs_gblock *B, const hs_grid *g, hs_hitbuf *buf,
                                    hs_racc *acc, const int thick, const int boundary,
                                    const int usemask)
{
    const size_t room = (B->ni + 1) * HS_W;
    if (buf->cap - buf->len < 2 * room && hs_hitbuf_reserve(buf, 2 * room) != HS_OK)
        return HS_E_NOMEM;
    acc->tests += (uint64_t)B->ni * HS_W;
    const size_t len = buf->len, tmp = len + room;
    const size_t end = hs_gb_all_items(B, g, buf, tmp, 1, thick, boundary, usemask);
    size_t off[HS_GB_Q];
    for (size_t j = 0, at = len; j < B->nq; j++) {
        off[j] = at;
        at += B->cnt[j];
    }
    size_t h = tmp;
    for (size_t k = 0; k < B->ni; k++) {
        const size_t n = B->hm[k], q = B->it[k].q;
        const __mmask16 f = (__mmask16)((1u << n) - 1u);
        _mm512_mask_storeu_ps(buf->t + off[q], f, _mm512_loadu_ps(buf->t + h));
        _mm512_mask_storeu_epi32(buf->id + off[q], f, _mm512_loadu_si512(buf->id + h));
        off[q] += n;
        h += n;
    }
    buf->len = len + (end - tmp);
    B->ni = 0;
    return HS_OK;
}
#endif

/* Queries lo .. hi-1 (see hs_kernel_set.grid_*_range). */
HS_INLINE hs_status hs_gb_range(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                                hs_semantics sem, size_t lo, size_t hi, const int mode,
                                const hs_gbout *o,
                                hs_racc *acc, const int thick, const int boundary,
                                const int usemask)
{
    hs_gblock B;
#ifdef HS_GB_VEMIT
    const int vgrid = hs_gb_vgrid(g);
#endif
    for (size_t base = lo; base < hi; base += HS_GB_Q) {
        const size_t nq = hi - base < HS_GB_Q ? hi - base : HS_GB_Q;
        hs_gb_prep(&B, qs, ord, sem, base, nq, acc);
        for (int l = 0; l < g->nlevels; l++)
            hs_gb_setup(&B, &g->lv[l], &B.rows[l]);
#ifdef HS_GB_VEMIT
        /* the lanes of each 16 slots the vector plan takes (the others: scalar plan) */
        const size_t ng = (nq + HS_W - 1) / HS_W;
        __mmask16 live[HS_GB_GROUPS], E[HS_GB_GROUPS];
        for (size_t u = 0; vgrid && u < ng; u++) {
            live[u] = hs_gb_live(&B, u * HS_W, nq);
            E[u] = hs_gb_vlanes(&B, g, u * HS_W, live[u]);
        }
        if (vgrid && mode == HS_GW_ALL) {
            /* the vector plan when the whole block's list fits and no slot needs the
             * per-query walk; else the list is dropped and the block planned slot by slot */
            int ok = !hs_gb_vemit(&B, g, E, ng, mode, acc, thick, boundary, usemask);
            for (size_t u = 0; u < ng && ok; u++)
                for (unsigned rest = live[u] & ~E[u]; rest && ok; rest &= rest - 1u)
                    ok = !hs_gb_emit_slot(&B, g, u * HS_W + (size_t)__builtin_ctz(rest), sem);
            if (ok) {
                const hs_status st = hs_gb_all_block(&B, g, o->buf, acc, thick, boundary, usemask);
                hs_gb_answer(&B, g, nq, sem, mode, o, st);
                if (st != HS_OK)
                    return HS_E_NOMEM;
                continue;
            }
            B.ni = 0;
        } else if (vgrid) {
            /* Slots fold their hits whatever the order of the items: the list is tested
             * whenever it fills, and every slot answered at the end of the block. */
            (void)hs_gb_vemit(&B, g, E, ng, mode, acc, thick, boundary, usemask);
            for (size_t u = 0; u < ng; u++) {
                for (unsigned rest = live[u] & ~E[u]; rest; rest &= rest - 1u) {
                    const size_t j = u * HS_W + (size_t)__builtin_ctz(rest);
                    int s = hs_gb_emit_slot(&B, g, j, sem);
                    if (s == 1 && B.ni > 0) {
                        (void)hs_gb_drain(&B, g, mode, NULL, acc, thick, boundary, usemask);
                        s = hs_gb_emit_slot(&B, g, j, sem);
                    }
                    if (s) {
                        (void)HS_FN(gb_walk)(&B, g, j, sem, mode, o, acc);
                        B.state[j] = HS_GB_DONE;
                    }
                }
            }
            (void)hs_gb_drain(&B, g, mode, NULL, acc, thick, boundary, usemask);
            hs_gb_answer(&B, g, nq, sem, mode, o, HS_OK);
            continue;
        }
#endif
        for (size_t j = 0; j < nq; j++) {
            if (B.state[j] != HS_GB_LIVE)
                continue;
            int s = hs_gb_emit_slot(&B, g, j, sem);
            if (s == 1 && B.ni > 0) { /* a full list: answer the slots before, start again */
                if (hs_gb_flush(&B, g, j, sem, mode, o, acc, thick, boundary, usemask) != HS_OK)
                    return HS_E_NOMEM;
                s = hs_gb_emit_slot(&B, g, j, sem);
            }
            if (s) { /* all's hits must stay in query order: the slots before go first */
                if (hs_gb_flush(&B, g, j, sem, mode, o, acc, thick, boundary, usemask) != HS_OK ||
                    HS_FN(gb_walk)(&B, g, j, sem, mode, o, acc) != HS_OK)
                    return HS_E_NOMEM;
                B.out_from = j + 1;
            }
        }
        if (hs_gb_flush(&B, g, nq, sem, mode, o, acc, thick, boundary, usemask) != HS_OK)
            return HS_E_NOMEM;
    }
    return HS_OK;
}

/* Only the semantics is bound as a constant (boundary adds a third of the pair test). The
 * thickness is always added (r + 0 is r exactly, so q = 0 queries give the same answers) and
 * the circle-mask test is a branch taken the same way on every item of the range: binding
 * them too made eight copies of the block walk per mode and ISA for a few percent. */
HS_INLINE hs_status hs_gb_run(const hs_grid *g, const hs_queries *qs, const hs_qorder *ord,
                              hs_semantics sem, size_t lo, size_t hi, const int mode,
                              const hs_gbout *o, hs_racc *acc)
{
    const int usemask = g->mask != NULL;
    if (sem == HS_BOUNDARY)
        return hs_gb_range(g, qs, ord, sem, lo, hi, mode, o, acc, 1, 1, usemask);
    return hs_gb_range(g, qs, ord, sem, lo, hi, mode, o, acc, 1, 0, usemask);
}

static void HS_FN(grid_closest_range)(const hs_grid *g, const hs_queries *qs,
                                      const hs_qorder *ord, hs_semantics sem, size_t lo,
                                      size_t hi, hs_closest_out out, hs_racc *acc)
{
    hs_gbout o;
    memset(&o, 0, sizeof o);
    o.co = out;
    o.stage = ord && ord->inv ? ord->rec : NULL;
    (void)hs_gb_run(g, qs, ord, sem, lo, hi, HS_GW_CLOSEST, &o, acc);
}

static void HS_FN(grid_anycount_range)(const hs_grid *g, const hs_queries *qs,
                                       const hs_qorder *ord, hs_semantics sem, size_t lo,
                                       size_t hi, uint8_t *hit, uint32_t *count, hs_racc *acc)
{
    hs_gbout o;
    memset(&o, 0, sizeof o);
    o.hit = hit;
    o.count = count;
    o.stage = ord && ord->inv ? ord->rec : NULL;
    if (count)
        (void)hs_gb_run(g, qs, ord, sem, lo, hi, HS_GW_COUNT, &o, acc);
    else
        (void)hs_gb_run(g, qs, ord, sem, lo, hi, HS_GW_ANY, &o, acc);
}

static hs_status HS_FN(grid_all_range)(const hs_grid *g, const hs_queries *qs,
                                       const hs_qorder *ord, hs_semantics sem, size_t lo,
                                       size_t hi, hs_hitbuf *buf, uint32_t *cnt, hs_racc *acc)
{
    hs_gbout o;
    memset(&o, 0, sizeof o);
    o.buf = buf;
    o.cnt = cnt;
    return hs_gb_run(g, qs, ord, sem, lo, hi, HS_GW_ALL, &o, acc);
}
