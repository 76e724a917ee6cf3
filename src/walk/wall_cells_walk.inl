/* SPDX-License-Identifier: MIT */
/* Internal: closest and any of a thin query through a grid's walls listed in cells
 * (grid/wall_cells.h): the cells its segment crosses in order (a 2-D DDA), each cell's entries
 * a vector at a time through a float filter, and the lanes it leaves through the exact test
 * (wall_core.h). Part of the per-ISA walk of the walls (wall_walk.inl). */
#ifndef HS_KNAME
#error "include wall_walk.inl, not this file"
#endif

typedef struct hs_wc_best {
    uint64_t key; /* UINT64_MAX: none yet */
    float t;
} hs_wc_best;

/* The query as the float filter reads it (a, d, P(t0), P(t1) rounded to float; the margin
 * 2^-16 of the scale, far above the rounding of float products of these magnitudes, and it
 * times |d|): one query in every lane (the walk of one query) or one a lane (the packet). */
typedef struct hs_wc_qv {
    hs_vf ax, ay, dx, dy, x0, y0, x1, y1, margin, mlen;
} hs_wc_qv;

/* The query's interval within the cells' box and the error bound's scale (2^-40 (|coordinates|
 * + |d|): far above double's rounding), as the double filter reads them. */
typedef struct hs_wc_span {
    double t0, t1, scale;
} hs_wc_span;

/* The float filter's values of one query, a value each (hs_wc_qv's order). */
enum {
    HS_WCQ_AX,
    HS_WCQ_AY,
    HS_WCQ_DX,
    HS_WCQ_DY,
    HS_WCQ_X0,
    HS_WCQ_Y0,
    HS_WCQ_X1,
    HS_WCQ_Y1,
    HS_WCQ_MARGIN,
    HS_WCQ_MLEN,
    HS_WCQ_N
};

/* The lanes whose wall (ends p, b, thickness *w or 0 when w is NULL) surely lies beyond its R
 * of the query (a separating axis in float, either line, with the margin times the line's
 * length); in *crossed the thin walls the query surely crosses: each pair of ends strictly on
 * opposite sides of the other's line, beyond the margins (the exact test then computes
 * hs_wall_cross_t). */
HS_INLINE hs_vm hs_wc_near_of(const hs_wc_qv *q, hs_vf px, hs_vf py, hs_vf bx, hs_vf by,
                              const hs_vf *w, hs_vm *crossed)
{
    const hs_vf zero = hs_vf_set1(0.0f);
    hs_vf R = q->margin, m1 = q->mlen;
    hs_vm thin = hs_vm_le(zero, zero);
    if (w != NULL) {
        R = hs_vf_add(*w, R);
        m1 = hs_vf_mul(R, hs_vf_add(hs_vf_abs(q->dx), hs_vf_abs(q->dy)));
        thin = hs_vm_le(*w, zero); /* w >= 0 (validated): w == 0 */
    }
    const hs_vf sp =
        hs_vf_sub(hs_vf_mul(q->dx, hs_vf_sub(py, q->ay)), hs_vf_mul(q->dy, hs_vf_sub(px, q->ax)));
    const hs_vf sb =
        hs_vf_sub(hs_vf_mul(q->dx, hs_vf_sub(by, q->ay)), hs_vf_mul(q->dy, hs_vf_sub(bx, q->ax)));
    const hs_vf m1n = hs_vf_neg(m1);
    const hs_vf ex = hs_vf_sub(bx, px), ey = hs_vf_sub(by, py);
    const hs_vf el = hs_vf_add(hs_vf_abs(ex), hs_vf_abs(ey));
    const hs_vf g0 =
        hs_vf_sub(hs_vf_mul(ex, hs_vf_sub(q->y0, py)), hs_vf_mul(ey, hs_vf_sub(q->x0, px)));
    const hs_vf g1 =
        hs_vf_sub(hs_vf_mul(ex, hs_vf_sub(q->y1, py)), hs_vf_mul(ey, hs_vf_sub(q->x1, px)));
    const hs_vf m2 = hs_vf_mul(R, el), m2n = hs_vf_neg(m2);
    const hs_vm sp_pos = hs_vm_lt(m1, sp), sp_neg = hs_vm_lt(sp, m1n);
    const hs_vm sb_pos = hs_vm_lt(m1, sb), sb_neg = hs_vm_lt(sb, m1n);
    const hs_vm g0_pos = hs_vm_lt(m2, g0), g0_neg = hs_vm_lt(g0, m2n);
    const hs_vm g1_pos = hs_vm_lt(m2, g1), g1_neg = hs_vm_lt(g1, m2n);
    const hs_vm apart = hs_vm_or(hs_vm_or(hs_vm_and(sp_pos, sb_pos), hs_vm_and(sp_neg, sb_neg)),
                                 hs_vm_or(hs_vm_and(g0_pos, g1_pos), hs_vm_and(g0_neg, g1_neg)));
    *crossed =
        hs_vm_and(thin, hs_vm_and(hs_vm_or(hs_vm_and(sp_pos, sb_neg), hs_vm_and(sp_neg, sb_pos)),
                                  hs_vm_or(hs_vm_and(g0_pos, g1_neg), hs_vm_and(g0_neg, g1_pos))));
    return apart;
}

/* hs_wc_near_of's lanes of entries e .. e + HS_W - 1 (bits: near, the result, and *crossed). */
HS_INLINE unsigned hs_wc_near(const hs_wcells *c, const hs_wc_qv *q, uint32_t e, unsigned *crossed)
{
    const hs_vf w = c->w ? hs_vf_loadu(c->w + e) : hs_vf_set1(0.0f);
    hs_vm cross;
    const hs_vm apart =
        hs_wc_near_of(q, hs_vf_loadu(c->px + e), hs_vf_loadu(c->py + e), hs_vf_loadu(c->bx + e),
                      hs_vf_loadu(c->by + e), c->w ? &w : NULL, &cross);
    *crossed = hs_vm_bits(cross);
    return hs_vm_bits(apart) ^ ((1u << HS_W) - 1u);
}

/* The filter's answer: the wall surely missed, surely crossed (thin wall: the exact test
 * would take the same path), or left to the exact test. */
enum { HS_WC_APART, HS_WC_CROSSED, HS_WC_EXACT };

/* Each side's signed distance (times a length) in double, with margins far above the
 * rounding of its products: apart when the wall's ends lie beyond R on one side of the
 * query's line or the interval's ends beyond R on one side of the wall's line; crossed when
 * a thin wall (R = 0, ends apart) has both pairs strictly on opposite sides. */
static int hs_wc_filter(const hs_kq *k, const hs_wc_span *q, const hs_kwall *wl)
{
    const double px = wl->px, py = wl->py, bx = wl->bx, by = wl->by, R = wl->w;
    /* a zero-length wall is tested as a circle, in float (its rounding is not this filter's
     * error bound): the float filter alone, whose margin covers it */
    if (px == bx && py == by)
        return HS_WC_EXACT;
    const double ax = k->ax, ay = k->ay, dx = k->dx, dy = k->dy, len = fabs(dx) + fabs(dy);
    const double err = q->scale + 0x1p-40 * (fabs(px) + fabs(py) + fabs(bx) + fabs(by) + R);
    /* the wall's ends on one side of the query's line */
    const double sp = dx * (py - ay) - dy * (px - ax);
    const double sb = dx * (by - ay) - dy * (bx - ax);
    const double m1 = R * len + err * len;
    if ((sp > m1 && sb > m1) || (sp < -m1 && sb < -m1))
        return HS_WC_APART;
    /* the interval's ends on one side of the wall's line */
    const double ex = bx - px, ey = by - py, el = fabs(ex) + fabs(ey);
    const double x0 = ax + q->t0 * dx, y0 = ay + q->t0 * dy;
    const double x1 = ax + q->t1 * dx, y1 = ay + q->t1 * dy;
    const double g0 = ex * (y0 - py) - ey * (x0 - px);
    const double g1 = ex * (y1 - py) - ey * (x1 - px);
    const double m2 = R * el + err * el;
    if ((g0 > m2 && g1 > m2) || (g0 < -m2 && g1 < -m2))
        return HS_WC_APART;
    const double e1 = err * len, e2 = err * el;
    const int cross = R == 0.0 && el > 0.0 && ((sp > e1 && sb < -e1) || (sp < -e1 && sb > e1)) &&
                      ((g0 > e2 && g1 < -e2) || (g0 < -e2 && g1 > e2));
    return cross ? HS_WC_CROSSED : HS_WC_EXACT;
}

/* A crossed thin wall's t as hs_wall_hits_as gives it (hs_wall_cross_t, whose bound by the
 * ends changes nothing for a wall surely crossed, rounded once); 0 when the crossing is at
 * tmin (the exact test then takes the start's rules). */
HS_INLINE int hs_wc_crossed_t(const hs_kq *k, const hs_kwall *wl, float *t)
{
    const double tt = hs_wall_clamp_t(k, hs_wall_cross_formula(k, wl));
    if (!(tt > k->tmin))
        return 0;
    *t = hs_clampf((float)tt, k->tmin, k->tmax);
    return 1;
}

/* Hit (t, wall) into *b. */
HS_INLINE void hs_wc_keep(hs_wc_best *b, float t, uint32_t wall)
{
    const uint64_t key = hit_key(t, wall);
    if (key < b->key) {
        b->key = key;
        b->t = t;
    }
}

/* Entry e's wall as the exact test reads it. */
HS_INLINE hs_kwall hs_wc_entry(const hs_wcells *c, uint32_t e)
{
    return (hs_kwall){c->px[e], c->py[e], c->bx[e], c->by[e], c->w ? c->w[e] : 0.0f};
}

/* Entry e, which the float filter left near, against k: 1 and its t on a hit. q NULL skips
 * the double filter (a point query, or a crossed wall whose crossing is at tmin). */
static HS_OUTLINE int hs_wc_test_entry(const hs_wcells *c, uint32_t e, const hs_kq *k,
                                       const hs_wc_span *q, float *t)
{
    const hs_kwall wl = hs_wc_entry(c, e);
    const int f = q ? hs_wc_filter(k, q, &wl) : HS_WC_EXACT;
    if (f == HS_WC_APART)
        return 0;
    if (f != HS_WC_CROSSED || !hs_wc_crossed_t(k, &wl, t)) {
        hs_wall_hit h;
        if (!hs_wall_hits_as(k, &wl, &h, 0))
            return 0;
        *t = h.t;
    }
    return 1;
}

/* Entry x, which the float filter left near (crossed: surely crossed, a thin wall), against
 * k into *b; 1 on a hit. q NULL: the exact test alone (a point query). */
HS_INLINE int hs_wc_lane(const hs_wcells *c, uint32_t x, int cross, const hs_kq *k,
                         const hs_wc_span *q, hs_wc_best *b)
{
    if (c->mask && (c->mask[x] & k->mask) == 0u)
        return 0;
    /* a crossed lane's wall is thin (w = 0); one whose crossing is at tmin takes the exact
     * test's rules for the start */
    const hs_kwall wl = hs_wc_entry(c, x);
    float t;
    if ((cross && hs_wc_crossed_t(k, &wl, &t)) || hs_wc_test_entry(c, x, k, cross ? NULL : q, &t)) {
        hs_wc_keep(b, t, c->wall[x]);
        return 1;
    }
    return 0;
}

/* Cell's walls against k into *b (a point query, v and q NULL: each through the exact test);
 * 1 when one hit (for any). *tests: the lanes the filter left near, added. */
HS_INLINE int hs_wc_cell(const hs_wcells *c, size_t cell, const hs_kq *k, const hs_wc_qv *v,
                         const hs_wc_span *q, hs_wc_best *b, uint64_t *tests)
{
    int hit = 0;
    const uint32_t end = c->start[cell + 1];
    for (uint32_t e = c->start[cell]; e < end; e += HS_W) {
        const uint32_t left = end - e;
        unsigned bits = left >= HS_W ? (1u << HS_W) - 1u : (1u << left) - 1u, crossed = 0u;
        if (v != NULL)
            bits &= hs_wc_near(c, v, e, &crossed);
        *tests += (uint64_t)__builtin_popcount(bits);
        for (; bits != 0u; bits &= bits - 1u) {
            const unsigned lane = (unsigned)__builtin_ctz(bits);
            hit |= hs_wc_lane(c, e + lane, (crossed >> lane & 1u) != 0u, k, q, b);
        }
    }
    return hit;
}

/* A point query (its interval is one t): the cell holding it, each wall through the exact
 * test. */
static HS_OUTLINE void hs_wc_point(const hs_wcells *c, const hs_kq *k, hs_wc_best *b,
                                   uint64_t *tests)
{
    const double px = (double)k->ax + (double)k->tmin * k->dx;
    const double py = (double)k->ay + (double)k->tmin * k->dy;
    if (px >= c->ox && py >= c->oy && px <= c->x_hi && py <= c->y_hi)
        (void)hs_wc_cell(c,
                         (size_t)hs_wcell_of(py - c->oy, c->inv_h, c->ny) * (size_t)c->nx +
                             (size_t)hs_wcell_of(px - c->ox, c->inv_h, c->nx),
                         k, NULL, NULL, b, tests);
}

/* [*lo, *hi] clipped to the t with a + t d in [b0, b1], r = 1 / d (0 when d = 0: unchanged);
 * 0 when empty. Every operation is done whatever the values (no branch), so that a loop of
 * set-ups vectorises. */
HS_INLINE int hs_wc_clip_axis(double a, double r, double b0, double b1, double *lo, double *hi)
{
    const double ta = (b0 - a) * r, tb = (b1 - a) * r; /* finite: a and r are */
    const double enter = ta < tb ? ta : tb, leave = ta < tb ? tb : ta;
    const double l = enter > *lo ? enter : *lo, h = leave < *hi ? leave : *hi;
    const int moving = r != 0.0, met = l <= h, inside = (a >= b0) & (a <= b1);
    *lo = moving ? l : *lo;
    *hi = moving ? h : *hi;
    return moving ? met : inside;
}

/* A segment's walk through the cells (a 2-D DDA): the cell (i, j), the t of its exits across
 * x and y and their steps, t's error bound, and the interval's end. */
typedef struct hs_wc_dda {
    double tx, ty, stx, sty, tol, t1;
    int32_t i, j, si, sj;
} hs_wc_dda;

/* A segment's set-up: its interval within the cells' box (q), the float filter's values (f)
 * and its first cell (d); ok 0 when it misses the box. */
typedef struct hs_wc_setup {
    hs_wc_span q;
    hs_wc_dda d;
    float f[HS_WCQ_N];
    int ok;
} hs_wc_setup;

/* The set-up of the segment, ray or line a + t d, t in [tmin, tmax], d != 0 (q = 0), without
 * a branch: the packet walk sets up HS_W of them in one vectorised loop. */
HS_INLINE hs_wc_setup hs_wc_setup_of(const hs_wcells *c, float fax, float fay, float fdx, float fdy,
                                     float tmin, float tmax)
{
    hs_wc_setup S;
    /* the interval within the cells' box (by reciprocals: the box holds the walls with a
     * margin far above their rounding); a division by 1 where d's component is 0 */
    const double ax = fax, ay = fay, dx = fdx, dy = fdy;
    const double rx1 = 1.0 / (dx != 0.0 ? dx : 1.0), ry1 = 1.0 / (dy != 0.0 ? dy : 1.0);
    const double rx = dx != 0.0 ? rx1 : 0.0, ry = dy != 0.0 ? ry1 : 0.0;
    double t0 = tmin, t1 = tmax;
    S.ok = hs_wc_clip_axis(ax, rx, c->ox, c->x_hi, &t0, &t1);
    S.ok &= hs_wc_clip_axis(ay, ry, c->oy, c->y_hi, &t0, &t1);
    const double len = fabs(dx) + fabs(dy), x0 = ax + t0 * dx, y0 = ay + t0 * dy;
    const double x1 = ax + t1 * dx, y1 = ay + t1 * dy;
    const double scale = c->mag + fabs(ax) + fabs(ay) + len * (fabs(t0) + fabs(t1));
    const double mscale = 0x1p-16 * scale;
    S.q = (hs_wc_span){t0, t1, 0x1p-40 * scale};
    S.f[HS_WCQ_AX] = fax, S.f[HS_WCQ_AY] = fay, S.f[HS_WCQ_DX] = fdx, S.f[HS_WCQ_DY] = fdy;
    S.f[HS_WCQ_X0] = (float)x0, S.f[HS_WCQ_Y0] = (float)y0;
    S.f[HS_WCQ_X1] = (float)x1, S.f[HS_WCQ_Y1] = (float)y1;
    S.f[HS_WCQ_MARGIN] = (float)mscale;
    S.f[HS_WCQ_MLEN] = (float)mscale * (float)len;
    /* t's error bound over |d| (1 / |d| <= 1 / max(|dx|, |dy|), the smaller reciprocal of
     * a non-zero component: a ray along an axis has the other's r = 0) */
    const double arx = dx != 0.0 ? fabs(rx) : INFINITY, ary = dy != 0.0 ? fabs(ry) : INFINITY;
    S.d.tol = 0x1p-16 * (c->mag + fabs(ax) + fabs(ay)) * (arx < ary ? arx : ary);
    S.d.t1 = t1;
    S.d.i = hs_wcell_of(x0 - c->ox, c->inv_h, c->nx);
    S.d.j = hs_wcell_of(y0 - c->oy, c->inv_h, c->ny);
    /* the steps' signs selected, not branched on: a ray's direction is anyone's guess */
    const int32_t up_x = dx > 0.0, up_y = dy > 0.0;
    S.d.si = 2 * up_x - 1, S.d.sj = 2 * up_y - 1;
    /* the exits stepped by a cell's width in t (their drift stays far below eps) */
    const double ex = (c->ox + (double)(S.d.i + up_x) * c->h - ax) * rx;
    const double ey = (c->oy + (double)(S.d.j + up_y) * c->h - ay) * ry;
    S.d.tx = dx != 0.0 ? ex : INFINITY, S.d.ty = dy != 0.0 ? ey : INFINITY;
    S.d.stx = c->h * fabs(rx), S.d.sty = c->h * fabs(ry);
    return S;
}

/* After a cell: 0 when the walk is over (a hit in *b before the cell's exit by more than t's
 * error, the interval's end, or the box's edge), else 1 and the next cell in *d. */
HS_INLINE int hs_wc_next(const hs_wcells *c, hs_wc_dda *d, const hs_wc_best *b)
{
    const int step_x = d->tx < d->ty;
    const double leave = step_x ? d->tx : d->ty;
    /* a hit before the cell's exit (by more than t's error) lies in a cell walked */
    if ((b->key != UINT64_MAX && (double)b->t < leave - d->tol) || leave > d->t1 + d->tol)
        return 0;
    /* the step selected likewise */
    d->i += step_x ? d->si : 0;
    d->j += step_x ? 0 : d->sj;
    d->tx += step_x ? d->stx : 0.0;
    d->ty += step_x ? 0.0 : d->sty;
    return (uint32_t)d->i < (uint32_t)c->nx && (uint32_t)d->j < (uint32_t)c->ny;
}

HS_INLINE size_t hs_wc_cell_at(const hs_wcells *c, const hs_wc_dda *d)
{
    return (size_t)d->j * (size_t)c->nx + (size_t)d->i;
}

/* A segment, ray or line of length > 0 (q = 0): the cells it crosses, in order. */
HS_INLINE void hs_wc_segment(const hs_wcells *c, const hs_kq *k, int any, hs_wc_best *b,
                             uint64_t *tests)
{
    hs_wc_setup S = hs_wc_setup_of(c, k->ax, k->ay, k->dx, k->dy, k->tmin, k->tmax);
    if (!S.ok)
        return;
    HS_ASSERT(isfinite(S.q.t0) && isfinite(S.q.t1));
    const float *f = S.f;
    hs_wc_qv v;
    v.ax = hs_vf_set1(f[HS_WCQ_AX]), v.ay = hs_vf_set1(f[HS_WCQ_AY]);
    v.dx = hs_vf_set1(f[HS_WCQ_DX]), v.dy = hs_vf_set1(f[HS_WCQ_DY]);
    v.x0 = hs_vf_set1(f[HS_WCQ_X0]), v.y0 = hs_vf_set1(f[HS_WCQ_Y0]);
    v.x1 = hs_vf_set1(f[HS_WCQ_X1]), v.y1 = hs_vf_set1(f[HS_WCQ_Y1]);
    v.margin = hs_vf_set1(f[HS_WCQ_MARGIN]), v.mlen = hs_vf_set1(f[HS_WCQ_MLEN]);
    do {
        if (hs_wc_cell(c, hs_wc_cell_at(c, &S.d), k, &v, &S.q, b, tests) && any)
            return;
    } while (hs_wc_next(c, &S.d, b));
}

/* The closest wall of c the prepared query k (q = 0) hits: 1 with *wall and *t (ties in t to
 * the smaller index, -0 as +0, as the grid's closest), else 0; with any, the first hit found.
 * *tests: the entries the filter left near, added. */
HS_INLINE int hs_wc_closest(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall, float *t,
                            uint64_t *tests)
{
    if (k->mask == 0u)
        return 0;
    hs_wc_best b = {UINT64_MAX, 0.0f};
    uint64_t n = 0;
    if (k->dd == 0.0f)
        hs_wc_point(c, k, &b, &n);
    else
        hs_wc_segment(c, k, any, &b, &n);
    *tests += n;
    if (b.key == UINT64_MAX)
        return 0;
    *wall = (uint32_t)b.key;
    *t = b.t;
    return 1;
}
