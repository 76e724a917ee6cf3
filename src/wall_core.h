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
 * Semantics: solid. HS_BOUNDARY and HS_SKIP_START are not implemented for walls yet. */
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
    float t;
    hs_vec2 normal;
    uint32_t flags; /* HS_HIT_INSIDE: P(tmin) already within R of the wall */
} hs_wall_hit;

/* sign of cross(d, (x, y) - a): the side of the query's line the point lies on */
static inline int hs_wall_side(const hs_kq *k, float x, float y)
{
    hs_terms s = {.n = 0};
    hs_terms_2(&s, 0, k->dx, y);
    hs_terms_2(&s, 1, k->dx, k->ay);
    hs_terms_2(&s, 1, k->dy, x);
    hs_terms_2(&s, 0, k->dy, k->ax);
    return hs_terms_sign(&s);
}

/* sign of cross(b - p, d): 0 when the query runs parallel to the wall (or either is a point) */
static inline int hs_wall_cross_ed(const hs_kq *k, const hs_kwall *wl)
{
    hs_terms s = {.n = 0};
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
    hs_terms s = {.n = 0};
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
    hs_terms s = {.n = 0};
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
    hs_terms s = {.n = 0};
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

/* Exact: whether the centre line's interval meets the segment [p, b] (p != b); *t the first
 * such t (computed in double, clamped to the interval). */
static inline int hs_wall_touch(const hs_kq *k, const hs_kwall *wl, double *t)
{
    if (k->dd == 0.0f) { /* a point query: on the wall's line and between its ends */
        *t = k->tmin;
        return hs_wall_g(k, wl, 0.0f) == 0 &&
               hs_wall_dot3(k->ax, k->ay, wl->px, wl->py, wl->bx, wl->by) >= 0 &&
               hs_wall_dot3(k->ax, k->ay, wl->bx, wl->by, wl->px, wl->py) >= 0;
    }
    const double dx = k->dx, dy = k->dy;
    int sp = hs_wall_side(k, wl->px, wl->py), sb = hs_wall_side(k, wl->bx, wl->by);
    if (sp == 0 && sb == 0) { /* collinear: the projections' interval meets [tmin, tmax] */
        if (hs_wall_proj_cmp(k, wl->px, wl->py, k->tmin) < 0 &&
            hs_wall_proj_cmp(k, wl->bx, wl->by, k->tmin) < 0)
            return 0;
        if (hs_wall_proj_cmp(k, wl->px, wl->py, k->tmax) > 0 &&
            hs_wall_proj_cmp(k, wl->bx, wl->by, k->tmax) > 0)
            return 0;
        double tp = (((double)wl->px - k->ax) * dx + ((double)wl->py - k->ay) * dy) / k->dd;
        double tb = (((double)wl->bx - k->ax) * dx + ((double)wl->by - k->ay) * dy) / k->dd;
        double t0 = tp < tb ? tp : tb;
        *t = t0 > k->tmin ? (t0 < k->tmax ? t0 : k->tmax) : k->tmin;
        return 1;
    }
    if (sp * sb > 0)
        return 0; /* both ends strictly on one side of the query's line */
    int g0 = hs_wall_g(k, wl, k->tmin), g1 = hs_wall_g(k, wl, k->tmax);
    if (g0 * g1 > 0)
        return 0; /* the interval's ends strictly on one side of the wall's line */
    /* the lines cross once (not parallel: that would put p and b on one side), inside both */
    if (g0 == 0) {
        *t = k->tmin;
        return 1;
    }
    const double ex = (double)wl->bx - wl->px, ey = (double)wl->by - wl->py;
    const double fx = (double)k->ax - wl->px, fy = (double)k->ay - wl->py;
    double num = -(ex * fy - ey * fx), den = ex * dy - ey * dx;
    double tc = den != 0.0 ? num / den : (double)k->tmin;
    *t = tc > k->tmin ? (tc < k->tmax ? tc : k->tmax) : k->tmin;
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
static inline int hs_wall_disc(const hs_kq *k, double cx, double cy, double R, double *t)
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
    return 1;
}

/* The capsule test in double (R > 0, p != b); *t the entry clamped to [tmin, tmax] */
static inline int hs_wall_capsule(const hs_kq *k, const hs_kwall *wl, double R, double *t)
{
    const double ex = (double)wl->bx - wl->px, ey = (double)wl->by - wl->py;
    const double fx = (double)k->ax - wl->px, fy = (double)k->ay - wl->py;
    const double ee = ex * ex + ey * ey;
    if (k->dd == 0.0f) { /* a point query: its distance to the segment */
        double s = (fx * ex + fy * ey) / ee;
        s = s > 0.0 ? (s < 1.0 ? s : 1.0) : 0.0;
        double vx = fx - s * ex, vy = fy - s * ey;
        *t = k->tmin;
        return vx * vx + vy * vy <= R * R;
    }
    const double dx = k->dx, dy = k->dy;
    int hit = 0;
    double best = INFINITY, tt;
    /* the rectangle: 0 <= (P - p).e <= e.e and |cross(e, P - p)| <= R |e| */
    double lo = k->tmin, hi = k->tmax;
    const double re = R * sqrt(ee);
    if (hs_wall_clip(fx * ex + fy * ey, dx * ex + dy * ey, 0.0, ee, &lo, &hi) &&
        hs_wall_clip(ex * fy - ey * fx, ex * dy - ey * dx, -re, re, &lo, &hi)) {
        hit = 1;
        best = lo;
    }
    if (hs_wall_disc(k, wl->px, wl->py, R, &tt) && tt < best) {
        hit = 1;
        best = tt;
    }
    if (hs_wall_disc(k, wl->bx, wl->by, R, &tt) && tt < best) {
        hit = 1;
        best = tt;
    }
    *t = best;
    return hit;
}

/* Normal at P(t): from the wall's nearest point towards P(t) when they differ (R > 0);
 * otherwise the wall's normal facing the query, or -d for a query along the wall. */
static inline hs_vec2 hs_wall_normal(const hs_kq *k, const hs_kwall *wl, double R, double t)
{
    const double ex = (double)wl->bx - wl->px, ey = (double)wl->by - wl->py;
    const double px = ((double)k->ax - wl->px) + t * k->dx,
                 py = ((double)k->ay - wl->py) + t * k->dy;
    hs_vec2 back = hs_unit_or(-k->dx, -k->dy, (hs_vec2){-1.0f, 0.0f});
    if (R > 0.0) {
        double s = (px * ex + py * ey) / (ex * ex + ey * ey);
        s = s > 0.0 ? (s < 1.0 ? s : 1.0) : 0.0;
        float vx = (float)(px - s * ex), vy = (float)(py - s * ey);
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

/* 1 and *out (if not NULL) on a hit, 0 on a miss. The wall must be valid (finite, |coords|
 * and w at most HS_MAX_COORD, w >= 0) and the query prepared by hs_kq_make. */
static inline int hs_wall_hits(const hs_kq *k, const hs_kwall *wl, hs_wall_hit *out)
{
    if (wl->px == wl->bx && wl->py == wl->by) { /* a point: exactly the circle (p, w) */
        if (!hs_pair_hits(k, wl->px, wl->py, wl->w))
            return 0;
        if (out) {
            hs_pair pr = hs_pair_times(k, wl->px, wl->py, wl->w);
            hs_vec2 pt;
            out->t = pr.t;
            out->flags = pr.flags;
            hs_hit_geometry(k, wl->px, wl->py, pr.t, &pt, &out->normal);
        }
        return 1;
    }
    const double R = (double)k->q + wl->w;
    double tt = 0.0, tc = 0.0;
    int touch = hs_wall_touch(k, wl, &tt);
    int cap = R > 0.0 && hs_wall_capsule(k, wl, R, &tc);
    if (!touch && !cap)
        return 0;
    if (out) {
        double t = touch && (!cap || tt < tc) ? tt : tc;
        out->t = (float)t;
        if (out->t < k->tmin)
            out->t = k->tmin;
        if (out->t > k->tmax)
            out->t = k->tmax;
        out->flags = t <= k->tmin ? HS_HIT_INSIDE : 0u;
        out->normal = hs_wall_normal(k, wl, R, t);
    }
    return 1;
}

#endif
