/* SPDX-License-Identifier: MIT */
/* Shared by tests/test_accuracy.c and tools/accuracy: case generators, long double reference,
 * textbook quadratic. */
#ifndef HS_ACCURACY_REF_H
#define HS_ACCURACY_REF_H

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "hitscan/narrow.h"

/* ---- reproducible PRNG: splitmix64, our own so results do not depend on the libc ---- */

typedef struct acc_rng {
    uint64_t s;
} acc_rng;

static inline uint64_t acc_next(acc_rng *g)
{
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [lo, hi) */
static inline double acc_uniform(acc_rng *g, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(acc_next(g) >> 11) * 0x1.0p-53);
}

static inline double acc_pow10(acc_rng *g, double lo_exp, double hi_exp)
{
    return pow(10.0, acc_uniform(g, lo_exp, hi_exp));
}

/* ---- the four case distributions ---- */

typedef enum acc_dist {
    ACC_NORMAL = 0,    /* |c| <= 100, R in [0.1, 10], query length ~ R * [0.3, 30] */
    ACC_LONG_THIN = 1, /* |c| <= 1000, R in [1e-3, 0.1], query length in [1e2, 1e4] */
    ACC_HUGE = 2,      /* |c| ~ 1e6, R in [5e-4, 2e-3], query length in [1e-2, 10] */
    ACC_NEAR_TANGENT =
        3, /* normal scales, the line (or an end point) within R * 10^[-9,-2] of the rim */
    ACC_NEAR_ROOT = 4 /* R in [1e2, 1e6], the start 10^[0,1] units outside or inside the rim */
} acc_dist;
#define ACC_NDIST 5

static const char *const acc_dist_name[ACC_NDIST] = {"normal", "long-thin", "huge (1e6, r~1e-3)",
                                                     "near-tangent", "near-root (R 1e2-1e6)"};

/* Near a root: the start a few units from a large circle, so the entry (from outside, heading
 * in) or the exit (from inside, heading out) is a few units away while |a - c| ~ R. The line
 * passes the centre at k R, k in [0, 0.9] (35% of the outside starts: k in [1.05, 1.5],
 * a miss); segments reach 10^[0.3, 1.5] times the gap, rays have |d| in [0.1, 10]. */
static inline void acc_gen_near_root(acc_rng *g, hs_query *qo, hs_circle *co)
{
    double R = acc_pow10(g, 2, 6);
    double cx = acc_uniform(g, -R, R), cy = acc_uniform(g, -R, R);
    double gap = acc_pow10(g, 0, 1), side = acc_next(g) & 1 ? 1.0 : -1.0; /* -1: inside */
    double k = acc_uniform(g, 0, 0.9);
    if (side > 0 && acc_uniform(g, 0, 1) < 0.35)
        k = acc_uniform(g, 1.05, 1.5);
    hs_circle c = {(float)cx, (float)cy, 0.0f};
    float q = 0.0f;
    if (acc_uniform(g, 0, 1) < 0.3) {
        q = (float)(R * acc_uniform(g, 0, 0.5));
        c.r = (float)(R - q);
    } else {
        c.r = (float)R;
    }
    R = (double)c.r + q;
    double ph = acc_uniform(g, 0, 6.283185307179586), ux = cos(ph), uy = sin(ph);
    double rho = R + side * gap; /* the start's distance from the centre */
    hs_query out;
    out.a.x = (float)(c.x + rho * ux);
    out.a.y = (float)(c.y + rho * uy);
    /* radial direction (inward from outside, outward from inside) turned by al: the line then
     * passes the centre at rho sin(al) = k R */
    double s = k * R / rho, al = asin(s < 1.0 ? s : 1.0) * (acc_next(g) & 1 ? 1.0 : -1.0);
    double rx = -side * ux, ry = -side * uy;
    double vx = rx * cos(al) - ry * sin(al), vy = rx * sin(al) + ry * cos(al);
    double len;
    if (acc_uniform(g, 0, 1) < 0.5) { /* segment */
        out.tmin = 0.0f;
        out.tmax = 1.0f;
        len = gap * acc_pow10(g, 0.3, 1.5);
    } else { /* ray, finite or not */
        out.tmin = 0.0f;
        out.tmax = acc_next(g) & 1 ? INFINITY : (float)acc_uniform(g, 50, 200);
        len = acc_pow10(g, -1, 1);
    }
    out.d.x = (float)(len * vx);
    out.d.y = (float)(len * vy);
    out.q = q;
    *qo = out;
    *co = c;
}

/* One query-circle pair. The query kind mix is the same in every distribution: segments,
 * infinite and finite rays, lines, custom intervals; 30% carry a thickness q that takes a
 * share of r + q. Everything is generated in double and rounded to float once; the reference
 * then works from those float values, so input rounding is not counted as error. The query
 * direction is chosen from the rounded start point so that the line still passes the circle
 * at the intended distance even where the float grid is coarse (1e6). */
static inline void acc_gen(acc_rng *g, acc_dist dist, hs_query *qo, hs_circle *co)
{
    double cx, cy, R, k, L;
    if (dist == ACC_NEAR_ROOT) {
        acc_gen_near_root(g, qo, co);
        return;
    }
    switch (dist) {
    case ACC_LONG_THIN:
        cx = acc_uniform(g, -1000, 1000);
        cy = acc_uniform(g, -1000, 1000);
        R = acc_pow10(g, -3, -1);
        k = acc_uniform(g, 0, 2);
        L = acc_pow10(g, 2, 4);
        break;
    case ACC_HUGE:
        cx = (acc_next(g) & 1 ? 1e6 : -1e6) * acc_uniform(g, 0.99, 1.01);
        cy = (acc_next(g) & 1 ? 1e6 : -1e6) * acc_uniform(g, 0.99, 1.01);
        R = acc_pow10(g, -3.3, -2.7);
        k = acc_uniform(g, 0, 2);
        L = acc_pow10(g, -2, 1);
        break;
    case ACC_NEAR_TANGENT: {
        cx = acc_uniform(g, -100, 100);
        cy = acc_uniform(g, -100, 100);
        R = acc_pow10(g, -1, 1);
        double delta = acc_pow10(g, -9, -2);
        k = 1.0 + (acc_next(g) & 1 ? delta : -delta);
        L = R * acc_pow10(g, -0.5, 1.5);
        break;
    }
    default:
        cx = acc_uniform(g, -100, 100);
        cy = acc_uniform(g, -100, 100);
        R = acc_pow10(g, -1, 1);
        k = acc_uniform(g, 0, 2);
        L = R * acc_pow10(g, -0.5, 1.5);
        break;
    }
    hs_circle c = {(float)cx, (float)cy, 0.0f};
    float q = 0.0f;
    if (acc_uniform(g, 0, 1) < 0.3) {
        q = (float)(R * acc_uniform(g, 0, 1));
        c.r = (float)(R - q);
    } else {
        c.r = (float)R;
    }
    R = (double)c.r + q;

    double th = acc_uniform(g, 0, 6.283185307179586);
    double ux = cos(th), uy = sin(th);
    hs_query out;
    out.q = q;
    double kind = acc_uniform(g, 0, 1);

    if (dist == ACC_NEAR_TANGENT && kind < 0.3) {
        /* an end point near the rim: the segment ends there (kind < 0.15) or starts there */
        double ph = acc_uniform(g, 0, 6.283185307179586);
        double ex = c.x + R * k * cos(ph), ey = c.y + R * k * sin(ph);
        hs_vec2 e = {(float)ex, (float)ey};
        hs_vec2 d = {(float)(L * ux), (float)(L * uy)};
        if (kind < 0.15) {
            out.a.x = (float)(e.x - (double)d.x);
            out.a.y = (float)(e.y - (double)d.y);
            d.x = (float)((double)e.x - out.a.x);
            d.y = (float)((double)e.y - out.a.y);
        } else {
            out.a = e;
        }
        out.d = d;
        out.tmin = 0.0f;
        out.tmax = 1.0f;
        *qo = out;
        *co = c;
        return;
    }

    /* foot F of the perpendicular from the centre, at distance R*k; the start sits at
     * parameter -s from it along u */
    double side = acc_next(g) & 1 ? 1.0 : -1.0;
    double fx = c.x - side * R * k * uy, fy = c.y + side * R * k * ux;
    double s_lo = -0.3, s_hi = 1.3;
    if (dist == ACC_LONG_THIN)
        s_lo = 0.0, s_hi = 1.0;
    if (kind < 0.55) { /* segment */
        out.tmin = 0.0f;
        out.tmax = 1.0f;
    } else if (kind < 0.70) { /* infinite ray */
        out.tmin = 0.0f;
        out.tmax = INFINITY;
    } else if (kind < 0.80) { /* finite ray */
        out.tmin = 0.0f;
        out.tmax = (float)acc_uniform(g, 0.2, 3.0);
    } else if (kind < 0.95) { /* line */
        out.tmin = -INFINITY;
        out.tmax = INFINITY;
        s_lo = -2.0, s_hi = 2.0;
    } else { /* custom interval */
        out.tmin = (float)acc_uniform(g, -1.0, 0.5);
        out.tmax = out.tmin + (float)acc_uniform(g, 0.0, 2.0);
    }
    double s = acc_uniform(g, s_lo, s_hi);
    out.a.x = (float)(fx - s * L * ux);
    out.a.y = (float)(fy - s * L * uy);
    double wx = fx - out.a.x, wy = fy - out.a.y, wl = sqrt(wx * wx + wy * wy);
    if (wl > 1e-3 * L) { /* aim at F from the rounded start, keep length L */
        double sg = s < 0 ? -1.0 : 1.0;
        out.d.x = (float)(sg * wx / wl * L);
        out.d.y = (float)(sg * wy / wl * L);
    } else {
        out.d.x = (float)(L * ux);
        out.d.y = (float)(L * uy);
    }
    *qo = out;
    *co = c;
}

/* ---- long double reference from the same float inputs ---- */

typedef struct acc_ref {
    int hit[2];          /* [HS_SOLID], [HS_BOUNDARY] */
    long double t[2];    /* entry t per semantics (valid when hit) */
    long double R;       /* r + q */
    long double S;       /* |a - c| + R: the magnitude the float arithmetic works at */
    long double dlen;    /* |d| */
    long double w;       /* half chord sqrt(R^2 - h^2) in length units (0 if h >= R) */
    long double d_cl;    /* distance from the centre to the closest point of the interval */
    long double d_start; /* distance at tmin (inf for an infinite end) */
    long double d_end;   /* distance at tmax */
} acc_ref;

static inline long double acc_dist_at(long double fx, long double fy, long double dx,
                                      long double dy, long double t)
{
    if (isinf(t))
        return INFINITY;
    long double px = fx + t * dx, py = fy + t * dy;
    return sqrtl(px * px + py * py);
}

static inline long double acc_clampl(long double v, long double lo, long double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

static inline void acc_reference(hs_query q, hs_circle c, acc_ref *o)
{
    long double fx = (long double)q.a.x - c.x, fy = (long double)q.a.y - c.y;
    long double dx = q.d.x, dy = q.d.y;
    long double R = (long double)c.r + q.q;
    long double dd = dx * dx + dy * dy;
    long double tmin = q.tmin, tmax = q.tmax;
    o->R = R;
    o->dlen = sqrtl(dd);
    o->S = sqrtl(fx * fx + fy * fy) + R;
    if (dd == 0.0L) { /* a point query: the one t closest to 0 */
        tmin = tmax = acc_clampl(0.0L, tmin, tmax);
    }
    long double tc = dd > 0.0L ? -(fx * dx + fy * dy) / dd : tmin;
    long double h = dd > 0.0L ? fabsl(fx * dy - fy * dx) / o->dlen : sqrtl(fx * fx + fy * fy);
    long double tcl = acc_clampl(tc, tmin, tmax);
    o->d_cl = acc_dist_at(fx, fy, dx, dy, tcl);
    o->d_start = acc_dist_at(fx, fy, dx, dy, tmin);
    o->d_end = acc_dist_at(fx, fy, dx, dy, tmax);
    o->w = h < R ? sqrtl((R - h) * (R + h)) : 0.0L;
    int solid = o->d_cl <= R;
    o->hit[HS_SOLID] = solid;
    o->hit[HS_BOUNDARY] = solid && !(o->d_start < R && o->d_end < R);
    /* roots of |f + t d| = R, stable form even in long double so a root near 0 keeps its
     * relative accuracy: qq / dd and cq / qq, cq = |f|^2 - R^2 factored */
    long double t0 = tc, t1 = tc;
    if (dd > 0.0L) {
        long double b = fx * dx + fy * dy, fl = sqrtl(fx * fx + fy * fy);
        long double qq = -(b + copysignl(o->dlen * o->w, b));
        if (qq != 0.0L) {
            long double ra = qq / dd, rb = (fl - R) * (fl + R) / qq;
            t0 = ra < rb ? ra : rb;
            t1 = ra < rb ? rb : ra;
        }
    }
    if (o->d_start <= R)
        o->t[HS_SOLID] = tmin;
    else
        o->t[HS_SOLID] = acc_clampl(t0, tmin, tmax);
    if (o->d_start < R)
        o->t[HS_BOUNDARY] = acc_clampl(t1, tmin, tmax);
    else
        o->t[HS_BOUNDARY] = o->t[HS_SOLID];
}

/* ---- the textbook float quadratic of seeds 002 / 004, solid semantics ---- */

static inline int acc_textbook(hs_query q, hs_circle c, float *t)
{
    float fx = q.a.x - c.x, fy = q.a.y - c.y;
    float R = c.r + q.q;
    float a = q.d.x * q.d.x + q.d.y * q.d.y;
    float b = 2.0f * (fx * q.d.x + fy * q.d.y);
    float cc = fx * fx + fy * fy - R * R;
    float disc = b * b - 4.0f * a * cc;
    if (disc < 0.0f || a == 0.0f)
        return 0;
    disc = sqrtf(disc);
    float t0 = (-b - disc) / (2.0f * a), t1 = (-b + disc) / (2.0f * a);
    if (t0 > q.tmax || t1 < q.tmin)
        return 0;
    *t = t0 < q.tmin ? q.tmin : t0;
    return 1;
}

/* ---- error measures ---- */

/* |t - ref| in float ulps of ref (ulp of FLT_MIN for |ref| below it) */
static inline double acc_ulps(float t, long double ref)
{
    long double m = fabsl(ref);
    if (m < FLT_MIN)
        m = FLT_MIN;
    int e;
    frexpl(m, &e);
    long double ulp = ldexpl(1.0L, e - FLT_MANT_DIG);
    return (double)(fabsl((long double)t - ref) / ulp);
}

/* The entry-t error model (see test_accuracy.c): position error E = |t - t_ref| * |d| against
 *   B(K) = K eps S + min( sqrt(2 R K eps S), 2 R K eps S / w )
 * The first term is rounding at the working magnitude S = |a - c| + R; the second is how a
 * distance error K eps S moves a rim crossing that is met at a grazing angle (half chord w),
 * capped by the tangent case. */
static inline long double acc_bound(long double K, const acc_ref *r)
{
    long double x = K * (long double)FLT_EPSILON * r->S;
    long double graze = sqrtl(2.0L * r->R * x);
    if (r->w > 0.0L && 2.0L * r->R * x / r->w < graze)
        graze = 2.0L * r->R * x / r->w;
    return x + graze;
}

/* smallest K with B(K) >= E (0 when E = 0) */
static inline double acc_needed_k(long double E, const acc_ref *r)
{
    if (!(E > 0.0L))
        return 0.0;
    long double lo = 0.0L, hi = 1.0L;
    while (acc_bound(hi, r) < E && hi < 1e30L)
        hi *= 2.0L;
    for (int i = 0; i < 60; i++) {
        long double mid = 0.5L * (lo + hi);
        if (acc_bound(mid, r) >= E)
            hi = mid;
        else
            lo = mid;
    }
    return (double)hi;
}

/* How close the reference says the hit decision was, in units of eps * S: the distance that
 * decides (closest point; for boundary also the ends) minus R. */
static inline double acc_band_ratio(const acc_ref *r, hs_semantics sem)
{
    long double unit = (long double)FLT_EPSILON * r->S;
    long double m = fabsl(r->d_cl - r->R);
    if (sem == HS_BOUNDARY) {
        if (fabsl(r->d_start - r->R) < m)
            m = fabsl(r->d_start - r->R);
        if (fabsl(r->d_end - r->R) < m)
            m = fabsl(r->d_end - r->R);
    }
    return (double)(m / unit);
}

#endif
