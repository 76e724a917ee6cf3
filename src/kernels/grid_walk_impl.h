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

enum { HS_GW_ANY, HS_GW_COUNT, HS_GW_CLOSEST, HS_GW_ALL };

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
    hs_status err;
} hs_gw;

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
