/* SPDX-License-Identifier: MIT */
/* Long double reference for a query against a wall (a segment thickened by w): the distance
 * between the query's interval and the wall's segment, and the entry t, by textbook formulas
 * in long double. Shared by the wall tests. */
#ifndef HS_WALLS_REF_H
#define HS_WALLS_REF_H

#include <math.h>

#include "hitscan/types.h"

typedef long double wr_ld;

static inline wr_ld wr_cross(wr_ld ax, wr_ld ay, wr_ld bx, wr_ld by) { return ax * by - ay * bx; }

/* distance from point x to segment [p, b] */
static inline wr_ld wr_point_seg(wr_ld xx, wr_ld xy, wr_ld px, wr_ld py, wr_ld bx, wr_ld by)
{
    wr_ld ex = bx - px, ey = by - py, ee = ex * ex + ey * ey;
    wr_ld s = ee > 0 ? ((xx - px) * ex + (xy - py) * ey) / ee : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    wr_ld vx = xx - px - s * ex, vy = xy - py - s * ey;
    return sqrtl(vx * vx + vy * vy);
}

static inline int wr_sgn(wr_ld v) { return (v > 0) - (v < 0); }

/* distance between segments [u0, u1] and [p, b] */
static inline wr_ld wr_seg_seg(wr_ld u0x, wr_ld u0y, wr_ld u1x, wr_ld u1y, wr_ld px, wr_ld py,
                               wr_ld bx, wr_ld by)
{
    int o1 = wr_sgn(wr_cross(u1x - u0x, u1y - u0y, px - u0x, py - u0y));
    int o2 = wr_sgn(wr_cross(u1x - u0x, u1y - u0y, bx - u0x, by - u0y));
    int o3 = wr_sgn(wr_cross(bx - px, by - py, u0x - px, u0y - py));
    int o4 = wr_sgn(wr_cross(bx - px, by - py, u1x - px, u1y - py));
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return 0;
    wr_ld m = wr_point_seg(u0x, u0y, px, py, bx, by);
    wr_ld v = wr_point_seg(u1x, u1y, px, py, bx, by);
    m = v < m ? v : m;
    v = wr_point_seg(px, py, u0x, u0y, u1x, u1y);
    m = v < m ? v : m;
    v = wr_point_seg(bx, by, u0x, u0y, u1x, u1y);
    return v < m ? v : m;
}

typedef struct wr_result {
    wr_ld margin; /* distance between the interval and the segment, minus R */
    wr_ld t;      /* entry (valid when margin <= 0) */
    wr_ld t_exit; /* exit, clipped to tmax (valid when margin <= 0) */
    wr_ld m0, m1; /* the interval's ends: distance to the segment minus R */
    wr_ld scale;  /* M: the largest magnitude in the problem */
} wr_result;

static inline void wr_clip(wr_ld v0, wr_ld v1, wr_ld a, wr_ld b, wr_ld *lo, wr_ld *hi)
{
    if (v1 == 0) {
        if (!(v0 >= a && v0 <= b))
            *lo = INFINITY;
        return;
    }
    wr_ld ta = (a - v0) / v1, tb = (b - v0) / v1;
    if (ta > tb) {
        wr_ld s = ta;
        ta = tb;
        tb = s;
    }
    if (ta > *lo)
        *lo = ta;
    if (tb < *hi)
        *hi = tb;
}

/* textbook quadratic entry into the disc about c, clipped to [tmin, tmax]; INFINITY if none;
 * *exit the exit clipped to tmax */
static inline wr_ld wr_disc(const hs_query *q, wr_ld cx, wr_ld cy, wr_ld R, wr_ld *exit)
{
    wr_ld fx = (wr_ld)q->a.x - cx, fy = (wr_ld)q->a.y - cy, dx = q->d.x, dy = q->d.y;
    wr_ld A = dx * dx + dy * dy, B = fx * dx + fy * dy, C = fx * fx + fy * fy - R * R;
    wr_ld disc = B * B - A * C;
    if (disc < 0)
        return INFINITY;
    wr_ld s = sqrtl(disc), t0 = (-B - s) / A, t1 = (-B + s) / A;
    if (t1 < q->tmin || t0 > q->tmax)
        return INFINITY;
    *exit = t1 < q->tmax ? t1 : q->tmax;
    return t0 > q->tmin ? t0 : q->tmin;
}

/* For a finite interval and d != 0. */
static inline wr_result wr_query_wall(hs_query q, float px, float py, float bx, float by, float w)
{
    wr_result r;
    wr_ld R = (wr_ld)q.q + w;
    wr_ld ax = q.a.x, ay = q.a.y, dx = q.d.x, dy = q.d.y;
    wr_ld u0x = ax + q.tmin * dx, u0y = ay + q.tmin * dy;
    wr_ld u1x = ax + q.tmax * dx, u1y = ay + q.tmax * dy;
    r.margin = wr_seg_seg(u0x, u0y, u1x, u1y, px, py, bx, by) - R;
    r.m0 = wr_point_seg(u0x, u0y, px, py, bx, by) - R;
    r.m1 = wr_point_seg(u1x, u1y, px, py, bx, by) - R;
    wr_ld m = fabsl(ax) > fabsl(ay) ? fabsl(ax) : fabsl(ay);
    const wr_ld others[] = {
        fabsl((wr_ld)px), fabsl((wr_ld)py), fabsl((wr_ld)bx), fabsl((wr_ld)by), R,
        fabsl(u1x - ax),  fabsl(u1y - ay),  fabsl(u0x - ax),  fabsl(u0y - ay)};
    for (unsigned i = 0; i < sizeof others / sizeof others[0]; i++)
        m = others[i] > m ? others[i] : m;
    r.scale = m;
    /* entry: the least entry into the rectangle and the two discs */
    wr_ld ex = (wr_ld)bx - px, ey = (wr_ld)by - py, ee = ex * ex + ey * ey;
    wr_ld fx = ax - px, fy = ay - py;
    wr_ld best = INFINITY, last = -INFINITY, ex0 = -INFINITY, ex1 = -INFINITY;
    if (ee > 0) {
        wr_ld lo = q.tmin, hi = q.tmax, re = R * sqrtl(ee);
        wr_clip(fx * ex + fy * ey, dx * ex + dy * ey, 0, ee, &lo, &hi);
        wr_clip(ex * fy - ey * fx, ex * dy - ey * dx, -re, re, &lo, &hi);
        if (lo <= hi) {
            best = lo;
            last = hi;
        }
    }
    wr_ld t = wr_disc(&q, px, py, R, &ex0);
    best = t < best ? t : best;
    t = wr_disc(&q, bx, by, R, &ex1);
    best = t < best ? t : best;
    last = ex0 > last ? ex0 : last;
    r.t = best;
    r.t_exit = ex1 > last ? ex1 : last;
    return r;
}

#endif
