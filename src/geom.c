/* SPDX-License-Identifier: MIT */
/* Small exact predicates: point vs circle / segment, segment vs segment, segment vs rectangle. */
#include "hitscan/geom.h"

#include <math.h>

/* These predicates are not on the hot path, so they work in double where that is cheap and
 * buys exactness: the difference of two floats is exact in double whenever their exponents
 * are less than 29 binades apart (always true for coordinates of one scene, e.g. 1e6 vs 1e-3),
 * so every classification below starts from exact differences. */

static int finite2(hs_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

/* a*d - b*c with Kahan's fma algorithm: relative error at most 2u (Jeannerod, Louvet and
 * Muller, 2013), so the sign is exact and the result is 0 exactly when the determinant is.
 * The parallel / collinear tests in hs_segment_segment depend on that: a naive determinant
 * can round to 0 for segments that do cross, or away from 0 for parallel ones. */
static double det2(double a, double b, double c, double d)
{
    double w = b * c;
    double e = fma(-b, c, w);
    double f = fma(a, d, -w);
    return f + e;
}

/* Orientation of r relative to o -> p: > 0 left, < 0 right, 0 collinear (exact sign). */
static double orient(hs_vec2 o, hs_vec2 p, hs_vec2 r)
{
    return det2((double)p.x - o.x, (double)p.y - o.y, (double)r.x - o.x, (double)r.y - o.y);
}

static double sgn(double v) { return (double)((v > 0.0) - (v < 0.0)); }

int hs_point_in_circle(hs_vec2 p, hs_circle c)
{
    if (!finite2(p) || !isfinite(c.x) || !isfinite(c.y) || !isfinite(c.r))
        return HS_E_NONFINITE;
    if (c.r < 0.0f)
        return HS_E_NEG_RADIUS;
    /* double: the float differences are exact and their squares neither overflow (r ~ 1e20)
     * nor lose the digits that decide points on the rim. */
    double dx = (double)p.x - c.x, dy = (double)p.y - c.y, r = c.r;
    return dx * dx + dy * dy <= r * r ? 1 : 0;
}

int hs_point_on_segment(hs_vec2 p, hs_vec2 a, hs_vec2 b, float rel_tol)
{
    if (!finite2(p) || !finite2(a) || !finite2(b) || !isfinite(rel_tol))
        return HS_E_NONFINITE;
    if (rel_tol < 0.0f)
        return HS_E_RANGE;
    double scale = fmax(fmax(fmax(fabs((double)p.x), fabs((double)p.y)),
                             fmax(fabs((double)a.x), fabs((double)a.y))),
                        fmax(fabs((double)b.x), fabs((double)b.y)));
    scale = fmax(scale, 1e-30);
    double tol = (double)rel_tol * scale;
    /* Distance to the closed segment in double: its rounding (~1e-16 scale) sits far below
     * any useful float tolerance, so the answer is decided by tol alone, at every scale. */
    double dx = (double)b.x - a.x, dy = (double)b.y - a.y;
    double wx = (double)p.x - a.x, wy = (double)p.y - a.y;
    double dd = dx * dx + dy * dy;
    double t = 0.0;
    if (dd > 0.0)
        t = fmin(fmax((wx * dx + wy * dy) / dd, 0.0), 1.0);
    double ex = wx - t * dx, ey = wy - t * dy;
    return sqrt(ex * ex + ey * ey) <= tol ? 1 : 0;
}

/* Parameter of point p along o + t*v (v non-zero), in double. */
static double param_on(hs_vec2 o, double vx, double vy, double px, double py)
{
    return ((px - o.x) * vx + (py - o.y) * vy) / (vx * vx + vy * vy);
}

static void fill_point(hs_segseg *out, hs_vec2 a0, double rx, double ry, double t, double u)
{
    out->kind = HS_SEGSEG_POINT;
    out->t0 = out->t1 = (float)t;
    out->u0 = out->u1 = (float)u;
    out->point.x = (float)(a0.x + t * rx);
    out->point.y = (float)(a0.y + t * ry);
}

int hs_segment_segment(hs_vec2 a0, hs_vec2 a1, hs_vec2 b0, hs_vec2 b1, hs_segseg *out)
{
    if (!finite2(a0) || !finite2(a1) || !finite2(b0) || !finite2(b1))
        return HS_E_NONFINITE;
    double rx = (double)a1.x - a0.x, ry = (double)a1.y - a0.y;
    double sx = (double)b1.x - b0.x, sy = (double)b1.y - b0.y;
    int a_pt = rx == 0.0 && ry == 0.0, b_pt = sx == 0.0 && sy == 0.0;

    if (a_pt && b_pt) {
        if (a0.x != b0.x || a0.y != b0.y)
            return 0;
        if (out)
            fill_point(out, a0, rx, ry, 0.0, 0.0);
        return 1;
    }
    if (a_pt || b_pt) {
        /* A point against a segment: collinear (exact) and within the segment's extent. */
        hs_vec2 pt = a_pt ? a0 : b0, s0 = a_pt ? b0 : a0, s1 = a_pt ? b1 : a1;
        double vx = a_pt ? sx : rx, vy = a_pt ? sy : ry;
        if (orient(s0, s1, pt) != 0.0)
            return 0;
        double p = param_on(s0, vx, vy, pt.x, pt.y);
        if (p < 0.0 || p > 1.0)
            return 0;
        if (out) {
            if (a_pt)
                fill_point(out, a0, rx, ry, 0.0, p);
            else
                fill_point(out, a0, rx, ry, p, 0.0);
        }
        return 1;
    }

    double o1 = orient(a0, a1, b0), o2 = orient(a0, a1, b1);
    double o3 = orient(b0, b1, a0), o4 = orient(b0, b1, a1);
    double denom = det2(rx, ry, sx, sy); /* exact zero test: parallel iff 0 */

    if (denom != 0.0) {
        /* Proper or touching crossing iff each segment's ends lie on both sides (or on) the
         * other's line; signs are exact, so no tolerance is involved. */
        if (sgn(o1) * sgn(o2) > 0.0 || sgn(o3) * sgn(o4) > 0.0)
            return 0;
        if (out) {
            /* orient(b0,b1,a(t)) is linear in t and its end values have opposite signs, so
             * o3 - o4 does not cancel and t lands in [0, 1]; likewise u. Both ends 0 cannot
             * happen when denom != 0; the guard only covers inputs whose differences were not
             * exact (exponents 29+ binades apart). */
            double t = o3 != o4 ? o3 / (o3 - o4) : 0.0;
            double u = o1 != o2 ? o1 / (o1 - o2) : 0.0;
            fill_point(out, a0, rx, ry, fmin(fmax(t, 0.0), 1.0), fmin(fmax(u, 0.0), 1.0));
        }
        return 1;
    }

    /* Parallel: disjoint unless collinear; then intersect the parameter ranges along a. */
    if (o1 != 0.0 || o2 != 0.0)
        return 0;
    double tb0 = param_on(a0, rx, ry, b0.x, b0.y), tb1 = param_on(a0, rx, ry, b1.x, b1.y);
    double lo = fmax(fmin(tb0, tb1), 0.0), hi = fmin(fmax(tb0, tb1), 1.0);
    if (lo > hi)
        return 0;
    if (out) {
        double u_lo = param_on(b0, sx, sy, a0.x + lo * rx, a0.y + lo * ry);
        double u_hi = param_on(b0, sx, sy, a0.x + hi * rx, a0.y + hi * ry);
        fill_point(out, a0, rx, ry, lo, u_lo);
        if (lo < hi) {
            out->kind = HS_SEGSEG_OVERLAP;
            out->t1 = (float)hi;
            out->u1 = (float)u_hi;
        }
    }
    return 1;
}

int hs_segment_aabb(hs_vec2 a, hs_vec2 b, hs_aabb box, float *t_enter, float *t_exit)
{
    if (!finite2(a) || !finite2(b) || !finite2(box.min) || !finite2(box.max))
        return HS_E_NONFINITE;
    if (box.min.x > box.max.x || box.min.y > box.max.y)
        return HS_E_RANGE;
    /* Slabs over the segment's own [0, 1]: starting from the whole segment is what makes a
     * segment wholly inside a hit (testing the four edges alone would miss it). Double keeps
     * the slab parameters exact enough that touching an edge or corner is not lost. */
    const double av[2] = {a.x, a.y};
    const double dv[2] = {(double)b.x - a.x, (double)b.y - a.y};
    const double lo[2] = {box.min.x, box.min.y}, hi[2] = {box.max.x, box.max.y};
    double t0 = 0.0, t1 = 1.0;
    for (int i = 0; i < 2; i++) {
        if (dv[i] == 0.0) {
            if (av[i] < lo[i] || av[i] > hi[i])
                return 0;
            continue;
        }
        double ta = (lo[i] - av[i]) / dv[i], tb = (hi[i] - av[i]) / dv[i];
        if (ta > tb) {
            double tmp = ta;
            ta = tb;
            tb = tmp;
        }
        t0 = fmax(t0, ta);
        t1 = fmin(t1, tb);
        if (t0 > t1)
            return 0;
    }
    if (t_enter)
        *t_enter = (float)t0;
    if (t_exit)
        *t_exit = (float)t1;
    return 1;
}
