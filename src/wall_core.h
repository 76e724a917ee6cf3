/* SPDX-License-Identifier: MIT */
/* Internal: one prepared query (core.h's hs_kq) against one wall, the segment from p to b
 * thickened by w >= 0 (a capsule). The query, thickened by q, hits the wall when some t in
 * [tmin, tmax] has dist(P(t), [p, b]) <= R = q + w; the entry t is the smallest such t.
 *
 * How it is decided:
 * - A wall with p = b exactly is the circle (p, w), and goes through hs_pair_hits and
 *   hs_pair_times, so it agrees with the circle test bit for bit.
 * - The centre lines touching (distance 0) is decided exactly, from orientation signs of the
 *   float inputs (exact_sign.h): endpoints touching, a query ending on a wall, parallel and
 *   collinear queries have one defined answer, and a thin (R = 0) wall is decided exactly.
 * - R > 0 adds the capsule's three convex pieces (the discs at p and b, the rectangle
 *   between), each clipped against [tmin, tmax] in double; the entry is the least entry.
 *   A hit is "touching, or the capsule test": thickness never loses a hit of the centre lines.
 *   The capsule test errs only in a band |dist - R| <= 2^-46 M around tangency, M the largest
 *   of |a|, |p|, |b|, R and |d| max(|tmin|, |tmax|) (tests/test_walls_core.c checks it).
 * - t and t_exit are found in double and rounded once to float: away from grazing incidence
 *   |t - t_exact| |d| stays within 2^-22 M (the tests' bound; the float rounding dominates).
 * Semantics as for circles (types.h), "inside" meaning within R of the segment: boundary
 * misses when both ends of the interval are strictly inside (in double; never for R = 0) and
 * reports the exit when the start is; skip-start ignores a wall the start is within R of
 * (closed, as solid's HS_HIT_INSIDE) when the query heads away from the wall's nearest point
 * there (a start on a thin wall always). */
#ifndef HITSCAN_WALL_CORE_H
#define HITSCAN_WALL_CORE_H

#include <math.h>
#include <stdint.h>

#include "core.h"
#include "exact_sign.h"

typedef struct hs_kwall {
    float px, py, bx, by, w;
} hs_kwall;

typedef struct hs_wall_hit {
    float t, t_exit; /* t_exit: the last t within R, clipped to [t, tmax] */
    double s;        /* where on the wall: the parameter in [0, 1] of its point nearest P(t) */
    hs_vec2 normal;
    uint32_t flags; /* HS_HIT_INSIDE: P(tmin) already within R of the wall */
} hs_wall_hit;

/* sign of cross(d, (x, y) - a): the side of the query's line the point lies on */
static inline int hs_wall_side(const hs_kq *k, float x, float y)
{
    hs_terms s;
    s.n = 0;
    hs_terms_2(&s, 0, k->dx, y);
    hs_terms_2(&s, 1, k->dx, k->ay);
    hs_terms_2(&s, 1, k->dy, x);
    hs_terms_2(&s, 0, k->dy, k->ax);
    return hs_terms_sign(&s);
}

/* sign of cross(b - p, d): 0 when the query runs parallel to the wall (or either is a point) */
static inline int hs_wall_cross_ed(const hs_kq *k, const hs_kwall *wl)
{
    hs_terms s;
    s.n = 0;
    hs_terms_2(&s, 0, wl->bx, k->dy);
    hs_terms_2(&s, 1, wl->px, k->dy);
    hs_terms_2(&s, 1, wl->by, k->dx);
    hs_terms_2(&s, 0, wl->py, k->dx);
    return hs_terms_sign(&s);
}

/* sign of g(t) = cross(b - p, P(t) - p): the side of the wall's line P(t) lies on. An
 * infinite t takes the limit: the sign of cross(b - p, d) t, or g(0) when that is 0. */
static inline int hs_wall_g(const hs_kq *k, const hs_kwall *wl, float t)
{
    if (isinf(t)) {
        int c = hs_wall_cross_ed(k, wl);
        if (c != 0)
            return t > 0.0f ? c : -c;
        t = 0.0f;
    }
    hs_terms s;
    s.n = 0;
    hs_terms_2(&s, 0, wl->bx, k->ay);
    hs_terms_2(&s, 1, wl->bx, wl->py);
    hs_terms_2(&s, 1, wl->px, k->ay);
    hs_terms_2(&s, 1, wl->by, k->ax);
    hs_terms_2(&s, 0, wl->by, wl->px);
    hs_terms_2(&s, 0, wl->py, k->ax);
    if (t != 0.0f) {
        hs_terms_3(&s, 0, wl->bx, k->dy, t);
        hs_terms_3(&s, 1, wl->px, k->dy, t);
        hs_terms_3(&s, 1, wl->by, k->dx, t);
        hs_terms_3(&s, 0, wl->py, k->dx, t);
    }
    return hs_terms_sign(&s);
}

/* sign of (x - a).d - t d.d: where the point's projection on the query's line lies against
 * P(t); an infinite t compares as itself */
static inline int hs_wall_proj_cmp(const hs_kq *k, float x, float y, float t)
{
    if (isinf(t))
        return t > 0.0f ? -1 : 1;
    hs_terms s;
    s.n = 0;
    hs_terms_2(&s, 0, x, k->dx);
    hs_terms_2(&s, 1, k->ax, k->dx);
    hs_terms_2(&s, 0, y, k->dy);
    hs_terms_2(&s, 1, k->ay, k->dy);
    if (t != 0.0f) {
        hs_terms_3(&s, 1, t, k->dx, k->dx);
        hs_terms_3(&s, 1, t, k->dy, k->dy);
    }
    return hs_terms_sign(&s);
}

/* sign of (u - v).(x - v), each a float point: exact */
static inline int hs_wall_dot3(float ux, float uy, float vx, float vy, float xx, float xy)
{
    hs_terms s;
    s.n = 0;
    hs_terms_2(&s, 0, ux, xx);
    hs_terms_2(&s, 1, ux, vx);
    hs_terms_2(&s, 1, vx, xx);
    hs_terms_2(&s, 0, vx, vx);
    hs_terms_2(&s, 0, uy, xy);
    hs_terms_2(&s, 1, uy, vy);
    hs_terms_2(&s, 1, vy, xy);
    hs_terms_2(&s, 0, vy, vy);
    return hs_terms_sign(&s);
}

/* t clamped to [tmin, tmax]; NaN gives tmin. */
static inline double hs_wall_clamp_t(const hs_kq *k, double t)
{
    return t > k->tmin ? (t < k->tmax ? t : k->tmax) : k->tmin;
}

/* The t of the point (x, y)'s projection on the query's line, in double (dd > 0). d.d in
 * double too (each square exact): the float k->dd errs by 2^-24 of t, which from afar puts
 * P(t), and the hit's place on the wall (hs_wall_param), far from the point. */
static inline double hs_wall_proj_t(const hs_kq *k, float x, float y)
{
    const double dx = k->dx, dy = k->dy;
    return (((double)x - k->ax) * dx + ((double)y - k->ay) * dy) / (dx * dx + dy * dy);
}

/* The t where the centre line crosses the wall's line by the lines' formula, in double: NaN or
 * infinite when they run parallel in double. */
static inline double hs_wall_cross_formula(const hs_kq *k, const hs_kwall *wl)
{
    const double dx = k->dx, dy = k->dy;
    const double ex = (double)wl->bx - wl->px, ey = (double)wl->by - wl->py;
    const double fx = (double)k->ax - wl->px, fy = (double)k->ay - wl->py;
    return -(ex * fy - ey * fx) / (ex * dy - ey * dx);
}

/* The t where the centre line crosses the wall's line, in double, clamped to [tmin, tmax].
 * They are not parallel: p and b lie on opposite sides of the query's line, or one of them on
 * it (side sp, sb: 0), where the crossing is that end. Otherwise the lines' formula, unless
 * b - p rounds away the wall's slant and the formula's denominator with it: the crossing lies
 * between the ends, so its t then lies between their projections' t. */
static inline double hs_wall_cross_t(const hs_kq *k, const hs_kwall *wl, int sp, int sb)
{
    double tc = sp == 0   ? hs_wall_proj_t(k, wl->px, wl->py)
                : sb == 0 ? hs_wall_proj_t(k, wl->bx, wl->by)
                          : hs_wall_cross_formula(k, wl);
    if (!isfinite(tc)) {
        const double tp = hs_wall_proj_t(k, wl->px, wl->py);
        const double tb = hs_wall_proj_t(k, wl->bx, wl->by);
        tc = 0.5 * tp + 0.5 * tb;
    }
    return hs_wall_clamp_t(k, tc);
}

/* Exact: whether the centre line's interval meets the segment [p, b] (p != b); [*t, *t1] the
 * t where it does (computed in double, clamped to the interval). */
static inline int hs_wall_touch(const hs_kq *k, const hs_kwall *wl, double *t, double *t1)
{
    if (k->dd == 0.0f) { /* a point query: on the wall's line and between its ends */
        *t = *t1 = k->tmin;
        return hs_wall_g(k, wl, 0.0f) == 0 &&
               hs_wall_dot3(k->ax, k->ay, wl->px, wl->py, wl->bx, wl->by) >= 0 &&
               hs_wall_dot3(k->ax, k->ay, wl->bx, wl->by, wl->px, wl->py) >= 0;
    }
    int sp = hs_wall_side(k, wl->px, wl->py), sb = hs_wall_side(k, wl->bx, wl->by);
    if (sp == 0 && sb == 0) { /* collinear: the projections' interval meets [tmin, tmax] */
        if (hs_wall_proj_cmp(k, wl->px, wl->py, k->tmin) < 0 &&
            hs_wall_proj_cmp(k, wl->bx, wl->by, k->tmin) < 0)
            return 0;
        if (hs_wall_proj_cmp(k, wl->px, wl->py, k->tmax) > 0 &&
            hs_wall_proj_cmp(k, wl->bx, wl->by, k->tmax) > 0)
            return 0;
        double tp = hs_wall_proj_t(k, wl->px, wl->py), tb = hs_wall_proj_t(k, wl->bx, wl->by);
        double t0 = tp < tb ? tp : tb, t1v = tp < tb ? tb : tp;
        *t = hs_wall_clamp_t(k, t0);
        *t1 = t1v < k->tmax ? (t1v > *t ? t1v : *t) : k->tmax;
        return 1;
    }
    if (sp * sb > 0)
        return 0; /* both ends strictly on one side of the query's line */
    int g0 = hs_wall_g(k, wl, k->tmin), g1 = hs_wall_g(k, wl, k->tmax);
    if (g0 * g1 > 0)
        return 0; /* the interval's ends strictly on one side of the wall's line */
    /* the lines cross once (not parallel: that would put p and b on one side), inside both */
    if (g0 == 0) {
        *t = *t1 = k->tmin;
        return 1;
    }
    *t = *t1 = hs_wall_cross_t(k, wl, sp, sb);
    return 1;
}

/* Clips [*lo, *hi] to the t with v0 + t v1 in [a, b] (Liang-Barsky); 0 when empty */
static inline int hs_wall_clip(double v0, double v1, double a, double b, double *lo, double *hi)
{
    if (v1 == 0.0)
        return v0 >= a && v0 <= b;
    double ta = (a - v0) / v1, tb = (b - v0) / v1;
    if (ta > tb) {
        double s = ta;
        ta = tb;
        tb = s;
    }
    if (ta > *lo)
        *lo = ta;
    if (tb < *hi)
        *hi = tb;
    return *lo <= *hi;
}

/* Entry into the disc of radius R about (cx, cy) clipped to [tmin, tmax], in double: the
 * discriminant from the perpendicular offset, the stable quadratic. */
static inline int hs_wall_disc(const hs_kq *k, double cx, double cy, double R, double *t,
                               double *tx)
{
    const double dx = k->dx, dy = k->dy, dd = dx * dx + dy * dy;
    const double fx = k->ax - cx, fy = k->ay - cy;
    const double b = fx * dx + fy * dy, tc = -b / dd;
    const double hx = fx + tc * dx, hy = fy + tc * dy;
    const double disc = R * R - (hx * hx + hy * hy);
    if (!(disc >= 0.0))
        return 0;
    const double c = fx * fx + fy * fy - R * R;
    const double qq = -(b + copysign(sqrt(dd) * sqrt(disc), b));
    double t0 = tc, t1 = tc;
    if (qq != 0.0 && disc > 0.0) {
        double ra = qq / dd, rb = c / qq;
        t0 = ra < rb ? ra : rb;
        t1 = ra < rb ? rb : ra;
    }
    if (t1 < k->tmin || t0 > k->tmax)
        return 0;
    *t = t0 > k->tmin ? t0 : k->tmin;
    *tx = t1 < k->tmax ? t1 : k->tmax;
    return 1;
}

/* The parameter in [0, 1] of the segment's point nearest P(t) (t finite), in double, and
 * P(t) - p in (*px, *py). */
static inline double hs_wall_param(const hs_kq *k, const hs_kwall *wl, double t, double *px,
                                   double *py)
{
    const double ex = (double)wl->bx - wl->px, ey = (double)wl->by - wl->py;
    *px = ((double)k->ax - wl->px) + t * k->dx;
    *py = ((double)k->ay - wl->py) + t * k->dy;
    const double ee = ex * ex + ey * ey;
    const double s = ee > 0.0 ? (*px * ex + *py * ey) / ee : 0.0;
    return s > 0.0 ? (s < 1.0 ? s : 1.0) : 0.0;
}

/* Distance^2 from P(t) (t finite) to the segment, in double, and the offset (*vx, *vy)
 * from the segment's nearest point to P(t) */
static inline double hs_wall_dist2(const hs_kq *k, const hs_kwall *wl, double t, double *vx,
                                   double *vy)
{
    const double ex = (double)wl->bx - wl->px, ey = (double)wl->by - wl->py;
    double px, py;
    const double s = hs_wall_param(k, wl, t, &px, &py);
    *vx = px - s * ex;
    *vy = py - s * ey;
    return *vx * *vx + *vy * *vy;
}

/* The capsule test in double (R > 0, p != b); [*t, *t1] the t within R (its convex pieces'
 * least entry and greatest exit), clamped to [tmin, tmax] */
static inline int hs_wall_capsule(const hs_kq *k, const hs_kwall *wl, double R, double *t,
                                  double *t1)
{
    const double ex = (double)wl->bx - wl->px, ey = (double)wl->by - wl->py;
    const double fx = (double)k->ax - wl->px, fy = (double)k->ay - wl->py;
    const double ee = ex * ex + ey * ey;
    if (k->dd == 0.0f) { /* a point query: its distance to the segment */
        double vx, vy;
        *t = *t1 = k->tmin;
        return hs_wall_dist2(k, wl, 0.0, &vx, &vy) <= R * R;
    }
    const double dx = k->dx, dy = k->dy;
    int hit = 0;
    double best = INFINITY, last = -INFINITY, tt, tx;
    /* the rectangle: 0 <= (P - p).e <= e.e and |cross(e, P - p)| <= R |e| */
    double lo = k->tmin, hi = k->tmax;
    const double re = R * sqrt(ee);
    if (hs_wall_clip(fx * ex + fy * ey, dx * ex + dy * ey, 0.0, ee, &lo, &hi) &&
        hs_wall_clip(ex * fy - ey * fx, ex * dy - ey * dx, -re, re, &lo, &hi)) {
        hit = 1;
        best = lo;
        last = hi;
    }
    for (int end = 0; end < 2; end++)
        if (hs_wall_disc(k, end ? wl->bx : wl->px, end ? wl->by : wl->py, R, &tt, &tx)) {
            hit = 1;
            best = tt < best ? tt : best;
            last = tx > last ? tx : last;
        }
    *t = best;
    *t1 = last;
    return hit;
}

/* Normal at P(t): from the wall's nearest point towards P(t) when they differ (R > 0);
 * otherwise the wall's normal facing the query, or -d for a query along the wall. */
static inline hs_vec2 hs_wall_normal(const hs_kq *k, const hs_kwall *wl, double R, double t)
{
    const double ex = (double)wl->bx - wl->px, ey = (double)wl->by - wl->py;
    hs_vec2 back = hs_unit_or(-k->dx, -k->dy, (hs_vec2){-1.0f, 0.0f});
    if (R > 0.0) {
        double dvx, dvy;
        hs_wall_dist2(k, wl, t, &dvx, &dvy);
        float vx = (float)dvx, vy = (float)dvy;
        if (vx != 0.0f || vy != 0.0f)
            return hs_unit_or(vx, vy, back);
    }
    double nx = -ey, ny = ex, nd = nx * k->dx + ny * k->dy;
    if (nd == 0.0)
        return back;
    if (nd > 0.0) {
        nx = -nx;
        ny = -ny;
    }
    return hs_unit_or((float)nx, (float)ny, back);
}

/* Whether P(t) lies strictly within R of the segment (in double); false for an infinite t */
static inline int hs_wall_strictly_in(const hs_kq *k, const hs_kwall *wl, double R, float t)
{
    double vx, vy;
    return isfinite(t) && R > 0.0 && hs_wall_dist2(k, wl, t, &vx, &vy) < R * R;
}

/* 1 and *out (if not NULL; its normal only with with_normal, else 0) on a hit, 0 on a miss,
 * under k's semantics. The wall must be valid
 * (finite, |coords| and w at most HS_MAX_COORD, w >= 0) and the query prepared by hs_kq_make. */
static inline int hs_wall_hits_as(const hs_kq *k, const hs_kwall *wl, hs_wall_hit *out,
                                  const int with_normal)
{
    if (wl->px == wl->bx && wl->py == wl->by) { /* a point: exactly the circle (p, w) */
        if (!hs_pair_hits(k, wl->px, wl->py, wl->w))
            return 0;
        if (out) {
            hs_pair pr = hs_pair_times(k, wl->px, wl->py, wl->w);
            hs_vec2 pt;
            out->t = pr.t;
            out->t_exit = pr.t_exit;
            out->s = 0.0;
            out->flags = pr.flags;
            out->normal = (hs_vec2){0.0f, 0.0f};
            if (with_normal)
                hs_hit_geometry(k, wl->px, wl->py, pr.t, &pt, &out->normal);
        }
        return 1;
    }
    const double R = (double)k->q + wl->w;
    double t0 = 0.0, t1 = 0.0, c0 = 0.0, c1 = 0.0;
    int touch = hs_wall_touch(k, wl, &t0, &t1);
    int cap = R > 0.0 && hs_wall_capsule(k, wl, R, &c0, &c1);
    if (!touch && !cap)
        return 0;
    if (!touch || (cap && c0 < t0))
        t0 = c0;
    if (!touch || (cap && c1 > t1))
        t1 = c1;
    const int start_in = t0 <= k->tmin; /* closed: the start is within R */
    const int start_strict = (k->sem & HS_BOUNDARY) && hs_wall_strictly_in(k, wl, R, k->tmin);
    if (start_strict && hs_wall_strictly_in(k, wl, R, k->tmax))
        return 0; /* boundary: wholly inside */
    if ((k->sem & HS_SKIP_START) && start_in) {
        double vx, vy;
        hs_wall_dist2(k, wl, k->tmin, &vx, &vy);
        if (vx * k->dx + vy * k->dy >= 0.0)
            return 0; /* leaving the wall it starts on */
    }
    if (out) {
        double t = start_strict ? t1 : t0;
        out->t = hs_clampf((float)t, k->tmin, k->tmax);
        out->t_exit = hs_clampf((float)t1, out->t, k->tmax);
        out->flags = start_in ? HS_HIT_INSIDE : 0u;
        out->normal = with_normal ? hs_wall_normal(k, wl, R, t) : (hs_vec2){0.0f, 0.0f};
        double px, py;
        out->s = hs_wall_param(k, wl, t, &px, &py);
    }
    return 1;
}

/* hs_wall_hits_as with the normal (the walk leaves it out: only closest's answer needs it). */
static inline int hs_wall_hits(const hs_kq *k, const hs_kwall *wl, hs_wall_hit *out)
{
    return hs_wall_hits_as(k, wl, out, 1);
}

#endif
