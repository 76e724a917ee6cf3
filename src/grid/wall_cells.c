/* SPDX-License-Identifier: MIT */
/* A grid's walls in cells for thin queries (wall_cells.h): the listing and the walk. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch/hit_sort.h" /* hit_key: the grid's order of hits, (t + 0, index) */
#include "grid/vectorize.h"
#include "grid/wall_cells.h"
#include "invariant.h"
#include "tuning.h"

static double wall_w(const hs_walls *s, size_t i) { return s->w ? (double)s->w[i] : 0.0; }

/* The cell index of coordinate v (relative to the origin) in 0 .. n-1 (a positive f's
 * truncation is its floor; NaN gives 0). */
static int32_t cell_of(double v, double inv_h, int32_t n)
{
    const double f = v * inv_h;
    return !(f > 0.0) ? 0 : f >= (double)n ? n - 1 : (int32_t)f;
}

/* Cells of side h over the box [x0, x1] x [y0, y1]: origin, counts, margin. */
static void cells_set(hs_wcells *c, double h, double x0, double y0, double x1, double y1)
{
    c->mag = fmax(fmax(fabs(x0), fabs(x1)), fmax(fabs(y0), fabs(y1))) + h;
    c->eps = 0x1p-20 * c->mag;
    c->h = h;
    c->inv_h = 1.0 / h;
    c->ox = x0 - c->eps - HS_WALL_CELL_SHIFT * h;
    c->oy = y0 - c->eps - HS_WALL_CELL_SHIFT * h;
    c->nx = (int32_t)floor((x1 + c->eps - c->ox) * c->inv_h) + 1;
    c->ny = (int32_t)floor((y1 + c->eps - c->oy) * c->inv_h) + 1;
}

/* Wall i's entries: each cell its capsule grown by eps meets, row by row (the segment clipped
 * to the row's band grown by w + eps, its x extent grown as much). Counts them into
 * cursor[cell] (fill 0) or writes them at cursor[cell]++ (fill 1); returns their number. */
static size_t list_wall(hs_wcells *c, const hs_walls *s, size_t i, uint32_t *cursor, int fill)
{
    const double ax = s->ax[i], ay = s->ay[i], bx = s->bx[i], by = s->by[i];
    const double g = wall_w(s, i) + c->eps;
    const int32_t j0 = cell_of(fmin(ay, by) - g - c->oy, c->inv_h, c->ny);
    const int32_t j1 = cell_of(fmax(ay, by) + g - c->oy, c->inv_h, c->ny);
    size_t n = 0;
    for (int32_t j = j0; j <= j1; j++) {
        double u0 = 0.0, u1 = 1.0;
        if (ay != by) {
            const double lo = c->oy + j * c->h - g, hi = lo + c->h + 2.0 * g;
            double ua = (lo - ay) / (by - ay), ub = (hi - ay) / (by - ay);
            if (ua > ub) {
                const double sw = ua;
                ua = ub;
                ub = sw;
            }
            u0 = fmax(u0, ua);
            u1 = fmin(u1, ub);
            if (u0 > u1)
                continue;
        }
        const double xa = ax + u0 * (bx - ax), xb = ax + u1 * (bx - ax);
        const int32_t i0 = cell_of(fmin(xa, xb) - g - c->ox, c->inv_h, c->nx);
        const int32_t i1 = cell_of(fmax(xa, xb) + g - c->ox, c->inv_h, c->nx);
        for (int32_t k = i0; k <= i1; k++, n++) {
            const size_t cell = (size_t)j * (size_t)c->nx + (size_t)k;
            if (!fill) {
                cursor[cell]++;
                continue;
            }
            const uint32_t e = cursor[cell]++;
            c->px[e] = s->ax[i], c->py[e] = s->ay[i], c->bx[e] = s->bx[i], c->by[e] = s->by[i];
            if (c->w)
                c->w[e] = s->w[i];
            if (c->mask)
                c->mask[e] = s->mask[i];
            c->wall[e] = (uint32_t)i;
        }
    }
    return n;
}

/* Entries of all walls at the cells' present side (counting only). */
static size_t count_entries(hs_wcells *c, const hs_walls *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += list_wall(c, s, i, c->start, 0);
    return n;
}

hs_status hs_wcells_make(const hs_walls *s, hs_wcells **out)
{
    *out = NULL;
    HS_ASSERT(s->n > 0);
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, total = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        const double ax = s->ax[i], ay = s->ay[i], bx = s->bx[i], by = s->by[i], w = wall_w(s, i);
        x0 = fmin(x0, fmin(ax, bx) - w);
        x1 = fmax(x1, fmax(ax, bx) + w);
        y0 = fmin(y0, fmin(ay, by) - w);
        y1 = fmax(y1, fmax(ay, by) + w);
        total += hypot(bx - ax, by - ay);
    }
    const double n = (double)s->n, side = sqrt((x1 - x0) * (y1 - y0) / n), per = total / n;
    double h = HS_WALL_CELL_SIDE * (side > per ? side : per);
    if (!(h > 0.0) || !isfinite(h))
        h = fmax(x1 - x0, y1 - y0) > 0.0 ? fmax(x1 - x0, y1 - y0) : 1.0;
    hs_wcells *c = calloc(1, sizeof *c);
    if (c == NULL)
        return HS_E_NOMEM;
    /* at most about 4 cells a wall, and HS_WALL_CELL_ENTRIES entries a wall */
    for (;; h *= 2.0) {
        cells_set(c, h, x0, y0, x1, y1);
        if ((double)c->nx * (double)c->ny > 4.0 * n + 64.0)
            continue;
        free(c->start);
        c->start = calloc((size_t)c->nx * (size_t)c->ny + 1, sizeof *c->start);
        if (c->start == NULL) {
            hs_wcells_free(c);
            return HS_E_NOMEM;
        }
        const size_t entries = count_entries(c, s);
        if (entries <= (size_t)HS_WALL_CELL_ENTRIES * s->n + 64u || (c->nx == 1 && c->ny == 1))
            break;
    }
    const size_t ncells = (size_t)c->nx * (size_t)c->ny;
    size_t sum = 0;
    for (size_t k = 0; k < ncells; k++) { /* counts to starts, cursor at each cell's start */
        const size_t m = c->start[k];
        c->start[k] = (uint32_t)sum;
        sum += m;
    }
    if (sum > HS_MAX_COUNT) {
        hs_wcells_free(c);
        return HS_E_TOO_MANY;
    }
    c->start[ncells] = (uint32_t)sum;
    const size_t room = sum + HS_WCELL_PAD;
    float **f[] = {&c->px, &c->py, &c->bx, &c->by};
    int ok = 1;
    for (size_t a = 0; a < sizeof f / sizeof f[0]; a++)
        ok &= (*f[a] = calloc(room, sizeof(float))) != NULL;
    c->w = s->w ? calloc(room, sizeof *c->w) : NULL;
    c->mask = s->mask ? calloc(room, sizeof *c->mask) : NULL;
    c->wall = calloc(room, sizeof *c->wall);
    uint32_t *cursor = malloc((ncells + 1) * sizeof *cursor);
    if (!ok || (s->w && c->w == NULL) || (s->mask && c->mask == NULL) || c->wall == NULL ||
        cursor == NULL) {
        free(cursor);
        hs_wcells_free(c);
        return HS_E_NOMEM;
    }
    memcpy(cursor, c->start, (ncells + 1) * sizeof *cursor);
    for (size_t i = 0; i < s->n; i++)
        (void)list_wall(c, s, i, cursor, 1);
    for (size_t k = 0; k < ncells; k++)
        HS_ASSERT(cursor[k] == c->start[k + 1]);
    free(cursor);
    *out = c;
    return HS_OK;
}

void hs_wcells_free(hs_wcells *c)
{
    if (c == NULL)
        return;
    free(c->start);
    free(c->px);
    free(c->py);
    free(c->bx);
    free(c->by);
    free(c->w);
    free(c->mask);
    free(c->wall);
    free(c);
}

size_t hs_wcells_bytes(const hs_wcells *c)
{
    if (c == NULL)
        return 0;
    const size_t ncells = (size_t)c->nx * (size_t)c->ny;
    return sizeof *c + (ncells + 1) * sizeof *c->start +
           (c->start[ncells] + HS_WCELL_PAD) * (5u + (c->w != NULL) + (c->mask != NULL)) *
               sizeof(float);
}

/* ---- The walk ------------------------------------------------------------------------- */

typedef struct wbest {
    uint64_t key; /* UINT64_MAX: none yet */
    float t;
} wbest;

/* The query as the filters read it: its interval's ends within the cells' box, the error
 * bound's scale, and the float filter's lanes. */
typedef struct wseg {
    double ax, ay, dx, dy, len;
    double x0, y0, x1, y1; /* P(t0), P(t1) */
    double scale;          /* 2^-40 (|coordinates| + |d|) : far above double's rounding */
    /* a, d, P(t0), P(t1) rounded to float in every lane; the margin 2^-16 of the scale (far
     * above the rounding of float products of these magnitudes) and it times |d| */
    simde__m128 ax4, ay4, dx4, dy4, x04, y04, x14, y14, margin4, mlen4;
} wseg;

/* The lanes of entries e .. e+3 that may lie within their R of the query (a separating axis
 * in float, either line, with the margin times the line's length); in *crossed those of
 * thin walls the query surely crosses: each pair of ends strictly on opposite sides of the
 * other's line, beyond the margins (the exact test then computes hs_wall_cross_t). */
HS_CLONE_INLINE unsigned near_lanes(const hs_wcells *c, const wseg *q, uint32_t e,
                                    unsigned *crossed)
{
    const simde__m128 px = simde_mm_loadu_ps(c->px + e), py = simde_mm_loadu_ps(c->py + e);
    const simde__m128 bx = simde_mm_loadu_ps(c->bx + e), by = simde_mm_loadu_ps(c->by + e);
    const simde__m128 zero = simde_mm_setzero_ps(), sign = simde_mm_set1_ps(-0.0f);
    simde__m128 R = q->margin4, m1 = q->mlen4, thin = simde_mm_cmpeq_ps(zero, zero);
    if (c->w) {
        const simde__m128 w = simde_mm_loadu_ps(c->w + e);
        R = simde_mm_add_ps(w, R);
        m1 = simde_mm_mul_ps(
            R, simde_mm_add_ps(simde_mm_andnot_ps(sign, q->dx4), simde_mm_andnot_ps(sign, q->dy4)));
        thin = simde_mm_cmpeq_ps(w, zero);
    }
    const simde__m128 sp = simde_mm_sub_ps(simde_mm_mul_ps(q->dx4, simde_mm_sub_ps(py, q->ay4)),
                                           simde_mm_mul_ps(q->dy4, simde_mm_sub_ps(px, q->ax4)));
    const simde__m128 sb = simde_mm_sub_ps(simde_mm_mul_ps(q->dx4, simde_mm_sub_ps(by, q->ay4)),
                                           simde_mm_mul_ps(q->dy4, simde_mm_sub_ps(bx, q->ax4)));
    const simde__m128 m1n = simde_mm_sub_ps(zero, m1);
    const simde__m128 ex = simde_mm_sub_ps(bx, px), ey = simde_mm_sub_ps(by, py);
    const simde__m128 el =
        simde_mm_add_ps(simde_mm_andnot_ps(sign, ex), simde_mm_andnot_ps(sign, ey));
    const simde__m128 g0 = simde_mm_sub_ps(simde_mm_mul_ps(ex, simde_mm_sub_ps(q->y04, py)),
                                           simde_mm_mul_ps(ey, simde_mm_sub_ps(q->x04, px)));
    const simde__m128 g1 = simde_mm_sub_ps(simde_mm_mul_ps(ex, simde_mm_sub_ps(q->y14, py)),
                                           simde_mm_mul_ps(ey, simde_mm_sub_ps(q->x14, px)));
    const simde__m128 m2 = simde_mm_mul_ps(R, el), m2n = simde_mm_sub_ps(zero, m2);
    const simde__m128 sp_pos = simde_mm_cmpgt_ps(sp, m1), sp_neg = simde_mm_cmplt_ps(sp, m1n);
    const simde__m128 sb_pos = simde_mm_cmpgt_ps(sb, m1), sb_neg = simde_mm_cmplt_ps(sb, m1n);
    const simde__m128 g0_pos = simde_mm_cmpgt_ps(g0, m2), g0_neg = simde_mm_cmplt_ps(g0, m2n);
    const simde__m128 g1_pos = simde_mm_cmpgt_ps(g1, m2), g1_neg = simde_mm_cmplt_ps(g1, m2n);
    const simde__m128 apart = simde_mm_or_ps(
        simde_mm_or_ps(simde_mm_and_ps(sp_pos, sb_pos), simde_mm_and_ps(sp_neg, sb_neg)),
        simde_mm_or_ps(simde_mm_and_ps(g0_pos, g1_pos), simde_mm_and_ps(g0_neg, g1_neg)));
    const simde__m128 cross = simde_mm_and_ps(
        thin,
        simde_mm_and_ps(
            simde_mm_or_ps(simde_mm_and_ps(sp_pos, sb_neg), simde_mm_and_ps(sp_neg, sb_pos)),
            simde_mm_or_ps(simde_mm_and_ps(g0_pos, g1_neg), simde_mm_and_ps(g0_neg, g1_pos))));
    *crossed = (unsigned)simde_mm_movemask_ps(cross);
    return (unsigned)simde_mm_movemask_ps(apart) ^ 15u;
}

/* The filter's answer: the wall surely missed, surely crossed (thin wall: the exact test
 * would take the same path), or left to the exact test. */
enum { WALL_APART, WALL_CROSSED, WALL_EXACT };

/* Each side's signed distance (times a length) in double, with margins far above the
 * rounding of its products: apart when the wall's ends lie beyond R on one side of the
 * query's line or the interval's ends beyond R on one side of the wall's line; crossed when
 * a thin wall (R = 0, ends apart) has both pairs strictly on opposite sides. */
static int wall_filter(const wseg *q, const hs_kwall *wl)
{
    const double px = wl->px, py = wl->py, bx = wl->bx, by = wl->by, R = wl->w;
    const double err = q->scale + 0x1p-40 * (fabs(px) + fabs(py) + fabs(bx) + fabs(by) + R);
    /* the wall's ends on one side of the query's line */
    const double sp = q->dx * (py - q->ay) - q->dy * (px - q->ax);
    const double sb = q->dx * (by - q->ay) - q->dy * (bx - q->ax);
    const double m1 = R * q->len + err * q->len;
    if ((sp > m1 && sb > m1) || (sp < -m1 && sb < -m1))
        return WALL_APART;
    /* the interval's ends on one side of the wall's line */
    const double ex = bx - px, ey = by - py, el = fabs(ex) + fabs(ey);
    const double g0 = ex * (q->y0 - py) - ey * (q->x0 - px);
    const double g1 = ex * (q->y1 - py) - ey * (q->x1 - px);
    const double m2 = R * el + err * el;
    if ((g0 > m2 && g1 > m2) || (g0 < -m2 && g1 < -m2))
        return WALL_APART;
    const double e1 = err * q->len, e2 = err * el;
    const int cross = R == 0.0 && el > 0.0 && ((sp > e1 && sb < -e1) || (sp < -e1 && sb > e1)) &&
                      ((g0 > e2 && g1 < -e2) || (g0 < -e2 && g1 > e2));
    return cross ? WALL_CROSSED : WALL_EXACT;
}

/* A crossed thin wall's t as hs_wall_hits_as gives it (hs_wall_cross_t, rounded once); 0 when
 * the crossing is at tmin (the exact test then takes the start's rules). */
HS_CLONE_INLINE int crossed_t(const hs_kq *k, const hs_kwall *wl, float *t)
{
    const double tt = hs_wall_cross_t(k, wl);
    if (!(tt > k->tmin))
        return 0;
    *t = hs_clampf((float)tt, k->tmin, k->tmax);
    return 1;
}

/* Hit (t, wall) into *b. */
HS_CLONE_INLINE void keep_best(wbest *b, float t, uint32_t wall)
{
    const uint64_t key = hit_key(t, wall);
    if (key < b->key) {
        b->key = key;
        b->t = t;
    }
}

/* Entry e's wall as the exact test reads it. */
HS_CLONE_INLINE hs_kwall entry_wall(const hs_wcells *c, uint32_t e)
{
    return (hs_kwall){c->px[e], c->py[e], c->bx[e], c->by[e], c->w ? c->w[e] : 0.0f};
}

/* Entry e, which the float filter left near, against k into *b; 1 on a hit. */
static int test_entry(const hs_wcells *c, uint32_t e, const hs_kq *k, const wseg *q, wbest *b)
{
    const hs_kwall wl = entry_wall(c, e);
    const int f = q ? wall_filter(q, &wl) : WALL_EXACT;
    if (f == WALL_APART)
        return 0;
    float t;
    if (f != WALL_CROSSED || !crossed_t(k, &wl, &t)) {
        hs_wall_hit h;
        if (!hs_wall_hits_as(k, &wl, &h, 0))
            return 0;
        t = h.t;
    }
    keep_best(b, t, c->wall[e]);
    return 1;
}

/* Cell's walls against k into *b (a point query, q NULL: each through the exact test); 1
 * when one hit (for any). */
HS_CLONE_INLINE int test_cell(const hs_wcells *c, size_t cell, const hs_kq *k, const wseg *q,
                              wbest *b, uint64_t *tests)
{
    int hit = 0;
    const uint32_t end = c->start[cell + 1];
    for (uint32_t e = c->start[cell]; e < end; e += 4) {
        const uint32_t left = end - e;
        unsigned bits = left >= 4 ? 15u : (1u << left) - 1u, crossed = 0u;
        if (q != NULL)
            bits &= near_lanes(c, q, e, &crossed);
        for (; bits != 0u; bits &= bits - 1u) {
            const unsigned lane = (unsigned)__builtin_ctz(bits);
            const uint32_t x = e + lane;
            ++*tests;
            if (c->mask && (c->mask[x] & k->mask) == 0u)
                continue;
            if ((crossed >> lane & 1u) == 0u) {
                hit |= test_entry(c, x, k, q, b);
                continue;
            }
            const hs_kwall wl = entry_wall(c, x); /* thin: w = 0 */
            float t;
            if (crossed_t(k, &wl, &t)) {
                keep_best(b, t, c->wall[x]);
                hit = 1;
            } else {
                hit |= test_entry(c, x, k, NULL, b);
            }
        }
    }
    return hit;
}

/* [*lo, *hi] clipped to the t with a + t d in [b0, b1], r = 1 / d (0 when d = 0); 0 when
 * empty. */
static int clip_axis(double a, double r, double b0, double b1, double *lo, double *hi)
{
    if (r == 0.0)
        return a >= b0 && a <= b1;
    const double ta = (b0 - a) * r, tb = (b1 - a) * r; /* finite: a and r are */
    const double enter = ta < tb ? ta : tb, leave = ta < tb ? tb : ta;
    *lo = enter > *lo ? enter : *lo;
    *hi = leave < *hi ? leave : *hi;
    return *lo <= *hi;
}

/* hs_wcells_closest, one clone per instruction set (static: the clones' resolver is not
 * exported) */
HS_GRID_CLONES static int walk(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall,
                               float *t, uint64_t *tests)
{
    wbest b = {UINT64_MAX, 0.0f};
    const double ax = k->ax, ay = k->ay, dx = k->dx, dy = k->dy;
    if (k->mask == 0u)
        return 0;
    if (k->dd == 0.0f) { /* a point (its interval is one t): its cell */
        const double px = ax + (double)k->tmin * dx, py = ay + (double)k->tmin * dy;
        if (px >= c->ox && py >= c->oy && px <= c->ox + c->nx * c->h && py <= c->oy + c->ny * c->h)
            (void)test_cell(c,
                            (size_t)cell_of(py - c->oy, c->inv_h, c->ny) * (size_t)c->nx +
                                (size_t)cell_of(px - c->ox, c->inv_h, c->nx),
                            k, NULL, &b, tests);
    } else {
        /* the interval within the cells' box (by reciprocals: the box holds the walls with a
         * margin far above their rounding), then the cells it crosses in order */
        const double rx = dx != 0.0 ? 1.0 / dx : 0.0, ry = dy != 0.0 ? 1.0 / dy : 0.0;
        double t0 = k->tmin, t1 = k->tmax;
        if (!clip_axis(ax, rx, c->ox, c->ox + c->nx * c->h, &t0, &t1) ||
            !clip_axis(ay, ry, c->oy, c->oy + c->ny * c->h, &t0, &t1))
            return 0;
        HS_ASSERT(isfinite(t0) && isfinite(t1));
        const double len = fabs(dx) + fabs(dy), x0 = ax + t0 * dx, y0 = ay + t0 * dy;
        const double x1 = ax + t1 * dx, y1 = ay + t1 * dy;
        const double scale = c->mag + fabs(ax) + fabs(ay) + len * (fabs(t0) + fabs(t1));
        const double mscale = 0x1p-16 * scale;
        const wseg q = {ax,
                        ay,
                        dx,
                        dy,
                        len,
                        x0,
                        y0,
                        x1,
                        y1,
                        0x1p-40 * scale,
                        simde_mm_set1_ps(k->ax),
                        simde_mm_set1_ps(k->ay),
                        simde_mm_set1_ps(k->dx),
                        simde_mm_set1_ps(k->dy),
                        simde_mm_set1_ps((float)x0),
                        simde_mm_set1_ps((float)y0),
                        simde_mm_set1_ps((float)x1),
                        simde_mm_set1_ps((float)y1),
                        simde_mm_set1_ps((float)mscale),
                        simde_mm_set1_ps((float)mscale * (float)len)};
        /* t's error bound over |d| (1 / |d| <= 1 / max(|dx|, |dy|)) */
        const double tol =
            0x1p-16 * (c->mag + fabs(ax) + fabs(ay)) * (fabs(rx) < fabs(ry) ? fabs(rx) : fabs(ry));
        int32_t i = cell_of(x0 - c->ox, c->inv_h, c->nx);
        int32_t j = cell_of(y0 - c->oy, c->inv_h, c->ny);
        const int si = dx > 0.0 ? 1 : -1, sj = dy > 0.0 ? 1 : -1;
        /* the exits stepped by a cell's width in t (their drift stays far below eps) */
        double tx = dx != 0.0 ? (c->ox + (double)(i + (si > 0)) * c->h - ax) * rx : INFINITY;
        double ty = dy != 0.0 ? (c->oy + (double)(j + (sj > 0)) * c->h - ay) * ry : INFINITY;
        const double stx = c->h * fabs(rx), sty = c->h * fabs(ry);
        for (;;) {
            if (test_cell(c, (size_t)j * (size_t)c->nx + (size_t)i, k, &q, &b, tests) && any)
                break;
            const double leave = tx < ty ? tx : ty;
            /* a hit before the cell's exit (by more than t's error) lies in a cell walked */
            if ((b.key != UINT64_MAX && (double)b.t < leave - tol) || leave > t1 + tol)
                break;
            if (tx < ty) {
                i += si;
                if (i < 0 || i >= c->nx)
                    break;
                tx += stx;
            } else {
                j += sj;
                if (j < 0 || j >= c->ny)
                    break;
                ty += sty;
            }
        }
    }
    if (b.key == UINT64_MAX)
        return 0;
    *wall = (uint32_t)b.key;
    *t = b.t;
    return 1;
}

int hs_wcells_closest(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall, float *t,
                      uint64_t *tests)
{
    return walk(c, k, any, wall, t, tests);
}
