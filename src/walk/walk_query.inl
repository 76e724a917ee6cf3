/* SPDX-License-Identifier: MIT */
/* Internal: the per-query grid walk: one query, level by level, row run by row run, in the
 * order of t, with the pair kernels inlined. Part of the per-ISA walk (walk.inl).
 *
 * Why per ISA: a short query visits a few row runs of a few circles each, and a kernel call
 * through the table per run (query broadcast, dispatch on q / semantics / mask, tail) costs
 * more than the pair tests. Here the query is broadcast once, the best hit lives in registers
 * across rows, and runs are read straight from storage with masked tail loads (no gather into
 * a buffer). The per-pair arithmetic is the kernels' own (pair_math.inl), so results stay
 * bit-identical to brute force at the same level.
 *
 * How a level is walked (hs_walk_level): a circle of level L can only be hit from a point of
 * the query within reach = rmax + q (+ a rounding pad) of its centre, so the query is clipped
 * to the level's centre bounds grown by reach; each visited row (or slab) gets the cells whose
 * centres can lie within reach of the part of the query that is within reach of it, in the
 * order of t. One of four strategies does it:
 *   - hs_walk_point: a zero-length query, the rows of the box around its one point;
 *   - hs_walk_rows: a short query (box of at most HS_WALK_BOX_CELLS cells), its box's rows in
 *     the query's y direction, each row's run clipped to the query;
 *   - hs_walk_row_slabs: a long y-dominant query, row by row;
 *   - hs_walk_column_blocks: a long x-dominant query, blocks of HS_WALK_SLAB_COLUMNS columns,
 *     row by row inside each block.
 * Closest-hit stops after a row / slab when the best t lies before the smallest t at which a
 * circle of a later one could be entered. Each cell is visited at most once, so count / all
 * see every circle once. */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* ---- Cell arithmetic ---------------------------------------------------------------------- */

/* hs_gcell without branches (the same value for every v, NaN included): the walk calls it
 * twice per row, and its two clamps mispredict near the grid's edges. */
static inline int32_t hs_walk_cell(double v, double o, double inv_h, int32_t n)
{
    double f = (v - o) * inv_h;
    f = f >= 0.0 ? f : 0.0;
    double top = (double)(n - 1);
    f = f < top ? f : top;
    return (int32_t)f;
}

static inline double hs_walk_min(double a, double b) { return a < b ? a : b; }
static inline double hs_walk_max(double a, double b) { return a > b ? a : b; }

/* Clips t in [*t0, *t1] to the slab lo <= a + t d <= hi; 0 if empty. */
static inline int hs_walk_clip(double a, double d, double lo, double hi, double *t0, double *t1)
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

/* The query on one level: its line, the reach and the interval [t0, t1] still to walk. */
typedef struct hs_walk_span {
    double ax, ay, dx, dy;
    double reach;
    double t0, t1;
    const uint32_t *cs; /* the level's cell_start */
    size_t nx;
} hs_walk_span;

HS_INLINE hs_walk_span hs_walk_span_make(const hs_walk *w, const hs_kq *k, const hs_glevel *L)
{
    hs_walk_span s;
    const double r0 = (double)L->rmax + (double)k->q;
    s.ax = k->ax;
    s.ay = k->ay;
    s.dx = k->dx;
    s.dy = k->dy;
    const double amag = fabs(s.ax) + fabs(s.ay);
    /* the kernels' pad (hs_block_setup): a reported circle lies within r0 of the query plus a
     * few 2^-24 of |a - c| + |t d| <= 2 (X + r0), X the smaller of T |d|_1 (T the interval's
     * larger |end|) and |a| + |c| <= amag + mag; NaN (inf x 0) takes the latter. The walk's
     * own rounding, in double, is far below 2^-40 of the coordinates. */
    const double ext =
        fmax(fabs((double)k->tmin), fabs((double)k->tmax)) * (fabs(s.dx) + fabs(s.dy));
    const double X = ext < L->mag + amag ? ext : L->mag + amag;
    s.reach = r0 + hs_gpad(2.0 * (X + r0), r0) + 0x1p-40 * (L->mag + amag);
    s.t0 = k->tmin;
    s.t1 = k->tmax;
    s.cs = w->g->cell_start + L->cell0;
    s.nx = (size_t)L->nx;
    return s;
}

/* Clips [t0, t1] to the level's centre bounds grown by reach; 0 if nothing is left. Clipping
 * only matters for queries that leave the bounds; checking the ends first saves two divisions
 * on the others. */
HS_INLINE int hs_walk_clip_to_level(hs_walk_span *s, const hs_glevel *L)
{
    const double ax = s->ax, ay = s->ay, dx = s->dx, dy = s->dy, reach = s->reach;
    const double ex0 = ax + s->t0 * dx, ex1 = ax + s->t1 * dx;
    const double ey0 = ay + s->t0 * dy, ey1 = ay + s->t1 * dy;
    const double bx0 = L->ox - reach, bx1 = L->bx1 + reach;
    const double by0 = L->oy - reach, by1 = L->by1 + reach;
    const int inside = ex0 >= bx0 && ex0 <= bx1 && ex1 >= bx0 && ex1 <= bx1 && ey0 >= by0 &&
                       ey0 <= by1 && ey1 >= by0 && ey1 <= by1;
    return inside || (hs_walk_clip(ax, dx, bx0, bx1, &s->t0, &s->t1) &&
                      hs_walk_clip(ay, dy, by0, by1, &s->t0, &s->t1));
}

/* ---- The four strategies ------------------------------------------------------------------ */

/* A zero-length query (t0 == t1 == the t closest to 0): the rows of the box around its
 * point. */
HS_INLINE int hs_walk_point(hs_walk *w, const int mode, const hs_walk_span *s, const hs_glevel *L)
{
    const double reach = s->reach;
    double px = s->ax + s->t0 * s->dx, py = s->ay + s->t0 * s->dy;
    double bx0 = px - reach, by0 = py - reach, bx1 = px + reach, by1 = py + reach;
    if (bx1 < L->ox || by1 < L->oy || bx0 > L->bx1 || by0 > L->by1)
        return 0;
    int32_t c0 = hs_walk_cell(bx0, L->ox, L->inv_h, L->nx);
    int32_t c1 = hs_walk_cell(bx1, L->ox, L->inv_h, L->nx);
    int32_t r0 = hs_walk_cell(by0, L->oy, L->inv_h, L->ny);
    int32_t r1 = hs_walk_cell(by1, L->oy, L->inv_h, L->ny);
    for (int32_t row = r0; row <= r1; row++) {
        size_t base = (size_t)row * s->nx;
        uint32_t b = s->cs[base + (size_t)c0], e = s->cs[base + (size_t)c1 + 1];
        if (b != e && hs_walk_run(w, mode, b, e))
            return 1;
    }
    return 0;
}

/* The inflated bounding box of the query's interval: x / y extent and its cells. */
typedef struct hs_walk_box {
    double xmin, xmax, ymin, ymax;
    int32_t c0, c1, r0, r1;
} hs_walk_box;

HS_INLINE hs_walk_box hs_walk_box_make(const hs_walk_span *s, const hs_glevel *L)
{
    hs_walk_box x;
    const double reach = s->reach;
    double x0 = s->ax + s->t0 * s->dx, x1 = s->ax + s->t1 * s->dx;
    double y0 = s->ay + s->t0 * s->dy, y1 = s->ay + s->t1 * s->dy;
    x.xmin = hs_walk_min(x0, x1);
    x.xmax = hs_walk_max(x0, x1);
    x.ymin = hs_walk_min(y0, y1);
    x.ymax = hs_walk_max(y0, y1);
    x.c0 = hs_walk_cell(x.xmin - reach, L->ox, L->inv_h, L->nx);
    x.c1 = hs_walk_cell(x.xmax + reach, L->ox, L->inv_h, L->nx);
    x.r0 = hs_walk_cell(x.ymin - reach, L->oy, L->inv_h, L->ny);
    x.r1 = hs_walk_cell(x.ymax + reach, L->oy, L->inv_h, L->ny);
    return x;
}

/* A short query: the rows of its box in the query's y direction, each row's run clipped to
 * the part of the query within reach of the row's band.
 *
 * Each row's run: x between the query's values at y = band bottom - reach and band top +
 * reach (clamped to the query's ends, which clamps y too as x is monotone in y), grown by
 * reach, as cells. All of it is linear in the row, so in cell units one row's bounds are the
 * previous row's plus a constant, and the clamps (query ends, grid, box) fold into one clamp
 * per bound: a handful of operations per row instead of two cell conversions. Rounding
 * differs from evaluating each row directly by far less than the pad in reach.
 *
 * Two passes: first every row's run (the cell_start loads are independent, and the runs'
 * first lines are requested), then the pair tests; in one pass each row's loads would wait
 * for the previous row's tests. */
HS_INLINE int hs_walk_rows(hs_walk *w, const int mode, const hs_walk_span *s, const hs_walk_box *x,
                           const hs_glevel *L)
{
    const double ax = s->ax, ay = s->ay, dx = s->dx, dy = s->dy, reach = s->reach;
    const int32_t c0 = x->c0, c1 = x->c1, r0 = x->r0, r1 = x->r1;
    const int up = dy >= 0.0;
    const int32_t rstep = up ? 1 : -1;
    /* x along the query as a function of y, when that is well conditioned; else (near
     * horizontal) every row sees the whole query: the box's columns */
    const int clip = c1 > c0 && fabs(dy) > fabs(dx) * 1e-12;
    const double inv_dy = dy != 0.0 ? 1.0 / dy : 0.0;
    const double h = L->h;
    const double ih = L->inv_h, re = reach * ih;
    double pos = 0.0, pos_step = 0.0, first_off = 0.0, last_off = 0.0;
    double first_min = (double)c0, first_max = (double)c0;
    double last_min = (double)c1, last_max = (double)c1;
    if (clip) {
        const double sx = dx * inv_dy, sh = sx * ih;
        const int32_t rfirst = up ? r0 : r1;
        /* x at the bottom edge of the first row's band, in cell units */
        pos = (ax + (L->oy + (double)rfirst * h - ay) * sx - L->ox) * ih;
        pos_step = (up ? h : -h) * sh;
        const double ea = -reach * sh, eb = (h + reach) * sh;
        first_off = hs_walk_min(ea, eb) - re;
        last_off = hs_walk_max(ea, eb) + re;
        const double pmin = (x->xmin - L->ox) * ih, pmax = (x->xmax - L->ox) * ih;
        first_min = hs_walk_min(hs_walk_max(pmin - re, (double)c0), (double)c1);
        first_max = hs_walk_min(hs_walk_max(pmax - re, (double)c0), (double)c1);
        last_min = hs_walk_min(hs_walk_max(pmin + re, (double)c0), (double)c1);
        last_max = hs_walk_min(hs_walk_max(pmax + re, (double)c0), (double)c1);
    }
    const int32_t nrows = r1 - r0 + 1; /* <= HS_WALK_BOX_CELLS */
    uint32_t run_begin[HS_WALK_BOX_CELLS], run_end[HS_WALK_BOX_CELLS];
    for (int32_t j = 0, row = up ? r0 : r1; j < nrows; j++, row += rstep) {
        /* non-negative, so truncation is floor */
        const int32_t first =
            (int32_t)hs_walk_min(hs_walk_max(pos + first_off, first_min), first_max);
        const int32_t last = (int32_t)hs_walk_min(hs_walk_max(pos + last_off, last_min), last_max);
        pos += pos_step;
        uint32_t b = 0, e = 0;
        if (first <= last) {
            const size_t base = (size_t)row * s->nx;
            b = s->cs[base + (size_t)first];
            e = s->cs[base + (size_t)last + 1];
        }
        run_begin[j] = b;
        run_end[j] = e;
        hs_prefetch(w->g->x + b);
        hs_prefetch(w->g->y + b);
        hs_prefetch(w->g->r + b);
        /* all reads ids for every vector that hits; closest only for the few that hit */
        if (HS_WALK_BASE(mode) == HS_WALK_ALL)
            hs_prefetch(w->g->id + b);
    }
    for (int32_t j = 0, row = up ? r0 : r1;; j++, row += rstep) {
        if (run_begin[j] != run_end[j] && hs_walk_run(w, mode, run_begin[j], run_end[j]))
            return 1;
        if (j == nrows - 1)
            break;
        if (HS_WALK_BASE(mode) == HS_WALK_CLOSEST && w->best_id != HS_NONE && dy != 0.0) {
            /* centres of later rows lie beyond this row's edge: entering one needs a point of
             * the query within reach of it */
            double edge =
                up ? L->oy + (double)(row + 1) * h - reach : L->oy + (double)row * h + reach;
            if ((double)w->best_t < (edge - ay) * inv_dy)
                break;
        }
    }
    return 0;
}

/* A long query in slab coordinates: u the dominant axis (slabs across it), v the other. */
typedef struct hs_walk_axes {
    double au, av, du, dv, ou, ov;
    int32_t nu, nv;
    double slope, inv_du;
    int tiny_dv;      /* |dv| at most 1e-12 |du|: every row sees the whole span */
    double inv_slope; /* du / dv, when not tiny_dv */
    double umin, umax;
    int step;              /* +1 or -1: the direction of u along the query */
    int32_t kfirst, klast; /* the first and last slab along the query */
} hs_walk_axes;

HS_INLINE hs_walk_axes hs_walk_axes_make(const hs_walk_span *s, const hs_glevel *L, int xdom)
{
    hs_walk_axes a;
    const double reach = s->reach;
    a.au = xdom ? s->ax : s->ay;
    a.av = xdom ? s->ay : s->ax;
    a.du = xdom ? s->dx : s->dy;
    a.dv = xdom ? s->dy : s->dx;
    a.ou = xdom ? L->ox : L->oy;
    a.ov = xdom ? L->oy : L->ox;
    a.nu = xdom ? L->nx : L->ny;
    a.nv = xdom ? L->ny : L->nx;
    a.slope = a.dv / a.du;
    a.inv_du = 1.0 / a.du;
    a.tiny_dv = !(fabs(a.dv) > fabs(a.du) * 1e-12);
    a.inv_slope = a.tiny_dv ? 0.0 : a.du / a.dv;
    const double u0 = a.au + s->t0 * a.du, u1 = a.au + s->t1 * a.du;
    a.umin = hs_walk_min(u0, u1);
    a.umax = hs_walk_max(u0, u1);
    a.step = a.du > 0.0 ? 1 : -1;
    a.kfirst = hs_walk_cell(a.step > 0 ? a.umin - reach : a.umax + reach, a.ou, L->inv_h, a.nu);
    a.klast = hs_walk_cell(a.step > 0 ? a.umax + reach : a.umin - reach, a.ou, L->inv_h, a.nu);
    return a;
}

/* Closest: whether a slab whose near boundary is `edge` (along u) can be entered before the
 * best t so far; 0 stops the walk. */
HS_INLINE int hs_walk_slab_reachable(const hs_walk *w, const hs_walk_axes *a, double edge)
{
    return !((double)w->best_t < (edge - a->au) * a->inv_du);
}

/* A long y-dominant query: slabs are rows, and the cells of a row that the query can reach
 * are one contiguous run. */
HS_INLINE int hs_walk_row_slabs(hs_walk *w, const int mode, const hs_walk_span *s,
                                const hs_walk_axes *a, const hs_glevel *L)
{
    const double reach = s->reach, h = L->h, inv_h = L->inv_h;
    for (int32_t k = a->kfirst;; k += a->step) {
        double lo = hs_walk_max(a->ou + (double)k * h - reach, a->umin);
        double hi = hs_walk_min(a->ou + (double)(k + 1) * h + reach, a->umax);
        if (lo <= hi) {
            double va = a->av + (lo - a->au) * a->slope, vb = a->av + (hi - a->au) * a->slope;
            int32_t j0 = hs_walk_cell(hs_walk_min(va, vb) - reach, a->ov, inv_h, a->nv);
            int32_t j1 = hs_walk_cell(hs_walk_max(va, vb) + reach, a->ov, inv_h, a->nv);
            size_t base = (size_t)k * s->nx;
            uint32_t b = s->cs[base + (size_t)j0], e = s->cs[base + (size_t)j1 + 1];
            if (b != e && hs_walk_run(w, mode, b, e))
                return 1;
        }
        if (k == a->klast)
            break;
        if (HS_WALK_BASE(mode) == HS_WALK_CLOSEST && w->best_id != HS_NONE) {
            /* centres of later slabs lie beyond this boundary */
            double edge =
                a->step > 0 ? a->ou + (double)(k + 1) * h - reach : a->ou + (double)k * h + reach;
            if (!hs_walk_slab_reachable(w, a, edge))
                break;
        }
    }
    return 0;
}

/* A block of columns [sa, sb] of a long x-dominant query, and the part [lo, hi] of the
 * query's u that can reach it. */
typedef struct hs_walk_cols {
    int32_t sa, sb;
    double lo, hi;
} hs_walk_cols;

/* One row j of a block of columns: the columns the part of the query in the row's band (grown
 * by reach) and in [lo, hi] can reach. */
HS_INLINE int hs_walk_block_row(hs_walk *w, const int mode, const hs_walk_span *s,
                                const hs_walk_axes *a, const hs_glevel *L, int32_t j,
                                const hs_walk_cols *cb)
{
    const double reach = s->reach, h = L->h, inv_h = L->inv_h;
    double ulo = cb->lo, uhi = cb->hi;
    if (!a->tiny_dv) {
        double ua = a->au + (a->ov + (double)j * h - reach - a->av) * a->inv_slope;
        double ub = a->au + (a->ov + (double)(j + 1) * h + reach - a->av) * a->inv_slope;
        ulo = hs_walk_max(ulo, hs_walk_min(ua, ub));
        uhi = hs_walk_min(uhi, hs_walk_max(ua, ub));
    }
    if (!(ulo <= uhi))
        return 0;
    int32_t ca = hs_walk_cell(ulo - reach, a->ou, inv_h, a->nu);
    int32_t cz = hs_walk_cell(uhi + reach, a->ou, inv_h, a->nu);
    if (ca < cb->sa)
        ca = cb->sa;
    if (cz > cb->sb)
        cz = cb->sb;
    if (ca > cz)
        return 0;
    size_t base = (size_t)j * s->nx;
    uint32_t b = s->cs[base + (size_t)ca], e = s->cs[base + (size_t)cz + 1];
    return b != e && hs_walk_run(w, mode, b, e);
}

/* A long x-dominant query: slabs are blocks of HS_WALK_SLAB_COLUMNS columns (rows are
 * contiguous in storage, columns not); inside a block each row the query can reach gets one
 * contiguous run of columns, found from the part of the query that lies in the row's band
 * (grown by reach) and in the block's span (grown by reach). */
HS_INLINE int hs_walk_column_blocks(hs_walk *w, const int mode, const hs_walk_span *s,
                                    const hs_walk_axes *a, const hs_glevel *L)
{
    const double reach = s->reach, h = L->h, inv_h = L->inv_h;
    const int step = a->step;
    for (int32_t k = a->kfirst;; k += step * HS_WALK_SLAB_COLUMNS) {
        /* the block's columns [sa, sb], clamped to the grid */
        int32_t sa = step > 0 ? k : k - (HS_WALK_SLAB_COLUMNS - 1);
        int32_t sb = step > 0 ? k + (HS_WALK_SLAB_COLUMNS - 1) : k;
        if (sa < 0)
            sa = 0;
        if (sb > a->nu - 1)
            sb = a->nu - 1;
        double lo = hs_walk_max(a->ou + (double)sa * h - reach, a->umin);
        double hi = hs_walk_min(a->ou + (double)(sb + 1) * h + reach, a->umax);
        if (lo <= hi) {
            const hs_walk_cols cb = {sa, sb, lo, hi};
            double va = a->av + (lo - a->au) * a->slope, vb = a->av + (hi - a->au) * a->slope;
            int32_t j0 = hs_walk_cell(hs_walk_min(va, vb) - reach, a->ov, inv_h, a->nv);
            int32_t j1 = hs_walk_cell(hs_walk_max(va, vb) + reach, a->ov, inv_h, a->nv);
            int32_t jstep = a->dv >= 0.0 ? 1 : -1;
            int32_t j = jstep > 0 ? j0 : j1, jend = jstep > 0 ? j1 : j0;
            for (;; j += jstep) {
                if (hs_walk_block_row(w, mode, s, a, L, j, &cb))
                    return 1;
                if (j == jend)
                    break;
            }
        }
        if (step > 0 ? sb >= a->klast : sa <= a->klast)
            break;
        if (HS_WALK_BASE(mode) == HS_WALK_CLOSEST && w->best_id != HS_NONE) {
            double edge =
                step > 0 ? a->ou + (double)(sb + 1) * h - reach : a->ou + (double)sa * h + reach;
            if (!hs_walk_slab_reachable(w, a, edge))
                break;
        }
    }
    return 0;
}

/* ---- A level, a query --------------------------------------------------------------------- */

/* Walks level L for the query k with the strategy that fits it (see the top of this file).
 * Returns 1 to stop (any-hit found, allocation failed); PLAN: 1 when the items do not fit,
 * 2 when the query is long (the per-query walk takes it). */
HS_INLINE int hs_walk_level(hs_walk *w, const int mode, const hs_kq *k, const hs_glevel *L)
{
    if (L->n == 0)
        return 0;
    hs_walk_span s = hs_walk_span_make(w, k, L);
    if (k->inv_dd == 0.0f)
        return hs_walk_point(w, mode, &s, L);
    if (!hs_walk_clip_to_level(&s, L))
        return 0;
    if (HS_WALK_BASE(mode) == HS_WALK_CLOSEST && w->best_t < s.t0)
        return 0; /* nothing in this level can be entered before the best so far */
    const hs_walk_box box = hs_walk_box_make(&s, L);
    if ((int64_t)(box.c1 - box.c0 + 1) * (int64_t)(box.r1 - box.r0 + 1) <= HS_WALK_BOX_CELLS)
        return hs_walk_rows(w, mode, &s, &box, L);
    if (HS_WALK_BASE(mode) == HS_WALK_PLAN)
        return 2;
    const int xdom = fabs(s.dx) >= fabs(s.dy);
    const hs_walk_axes a = hs_walk_axes_make(&s, L, xdom);
    if (!xdom)
        return hs_walk_row_slabs(w, mode, &s, &a, L);
    return hs_walk_column_blocks(w, mode, &s, &a, L);
}

HS_INLINE void hs_walk_init(hs_walk *w, const hs_grid *g, const hs_kq *kq)
{
    w->Q = hs_vq_make(kq);
    w->g = g;
    w->tests = 0;
    w->best_t = INFINITY;
    w->best_id = HS_NONE;
    w->best_pos = HS_NONE;
    w->count = 0;
    w->tf = (kq->q != 0.0f ? (unsigned)HS_TF_THICK : 0u) |
            (kq->sem & HS_BOUNDARY ? (unsigned)HS_TF_BOUNDARY : 0u) |
            (g->mask != NULL ? (unsigned)HS_TF_MASK : 0u) |
            (kq->ignore != HS_NONE ? (unsigned)HS_TF_IGNORE : 0u);
    w->buf = NULL;
    w->blk = NULL;
    w->kq = kq;
    w->err = HS_OK;
}

/* Whether a walk of `mode` passes the repeats' level by (hs_glevel.repeats): each circle on
 * it ties, in t, with one of a smaller index on another level, so closest and any never answer
 * from it; unless a circle is ignored (the one ignored may be that other) or the circles move
 * (equal where they stand, apart along their displacements). The per-query walk and the
 * block's both ask this. */
HS_INLINE int hs_repeats_passed_by(const int mode, const int ignores, const int moving)
{
    return (mode == HS_WALK_CLOSEST || mode == HS_WALK_ANY) && !ignores && !moving;
}

/* The same for one query of the per-query walk (which takes moving circles elsewhere). */
HS_INLINE int hs_walk_passes_by(const hs_glevel *L, const int mode, const hs_kq *kq)
{
    return L->repeats && hs_repeats_passed_by(mode, kq->ignore != HS_NONE, 0);
}

/* The whole query, every level: any, count, closest (w's best after the call) and all
 * (appending to buf). tests += the circle tests made (padding lanes included). */
static int HS_FN(walk_any)(const hs_grid *g, const hs_kq *kq, uint64_t *tests)
{
    hs_walk w;
    hs_walk_init(&w, g, kq);
    int hit = 0;
    for (int l = 0; l < g->nlevels && !hit; l++)
        if (!hs_walk_passes_by(&g->lv[l], HS_WALK_ANY, kq))
            hit = hs_walk_level(&w, HS_WALK_ANY, kq, &g->lv[l]);
    *tests += w.tests;
    return hit;
}

static uint32_t HS_FN(walk_count)(const hs_grid *g, const hs_kq *kq, uint64_t *tests)
{
    hs_walk w;
    hs_walk_init(&w, g, kq);
    for (int l = 0; l < g->nlevels; l++)
        hs_walk_level(&w, HS_WALK_COUNT, kq, &g->lv[l]);
    *tests += w.tests;
    return w.count;
}

HS_INLINE void hs_walk_closest(hs_walk *w, const hs_grid *g, const hs_kq *kq)
{
    hs_walk_init(w, g, kq);
    for (int l = 0; l < g->nlevels; l++)
        if (!hs_walk_passes_by(&g->lv[l], HS_WALK_CLOSEST, kq))
            hs_walk_level(w, HS_WALK_CLOSEST, kq, &g->lv[l]);
}

static hs_status HS_FN(walk_all)(const hs_grid *g, const hs_kq *kq, hs_hitbuf *buf, uint64_t *tests)
{
    hs_walk w;
    hs_walk_init(&w, g, kq);
    w.buf = buf;
    for (int l = 0; l < g->nlevels; l++)
        if (hs_walk_level(&w, HS_WALK_ALL, kq, &g->lv[l]))
            break;
    *tests += w.tests;
    return w.err;
}
