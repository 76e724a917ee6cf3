/* SPDX-License-Identifier: MIT */
/* Internal: the per-pair query-vs-circle arithmetic, written once; SIMD kernels mirror it line by
 * line. Plain IEEE float operations in a fixed order (the build has -ffp-contract=off), min /
 * max by comparison, and the one cancelling term in double: the same bits on every machine. */
#ifndef HITSCAN_CORE_H
#define HITSCAN_CORE_H

#include <math.h>
#include <stdint.h>

#include "hitscan/types.h"

/* A query prepared for the kernels: everything that depends only on the query is computed
 * once here, never per circle. */
typedef struct hs_kq {
    float ax, ay, dx, dy;
    float tmin, tmax, q;
    float dd;     /* d.d */
    float inv_dd; /* 1 / d.d, and 0 for a zero-length query (so tc = 0 without a branch) */
    uint32_t mask;
    hs_semantics sem;
    uint32_t ignore; /* a circle id the query never reports, or HS_NONE (hs_queries.ignore) */
} hs_kq;

/* min / max as the SIMD levels compute them (b when equal or unordered): fminf / fmaxf may
 * return either zero for -0 and +0, and which one depends on the libm. */
static inline float hs_minf(float a, float b) { return a < b ? a : b; }
static inline float hs_maxf(float a, float b) { return a > b ? a : b; }
/* NaN v gives lo, as fminf(fmaxf(v, lo), hi) */
static inline float hs_clampf(float v, float lo, float hi) { return hs_minf(hs_maxf(v, lo), hi); }

/* The query must have passed hs_query_validate. A zero-length query has every t naming the
 * same point, so its interval collapses to the one t in [tmin, tmax] closest to 0: every
 * formula below then works unchanged and all t stay finite, even for a "line" with d = 0. */
static inline hs_kq hs_kq_make(hs_query q, hs_semantics sem, uint32_t mask)
{
    hs_kq k;
    k.ax = q.a.x;
    k.ay = q.a.y;
    k.dx = q.d.x;
    k.dy = q.d.y;
    k.q = q.q;
    k.dd = q.d.x * q.d.x + q.d.y * q.d.y;
    k.mask = mask;
    k.sem = sem;
    k.ignore = HS_NONE;
    if (k.dd > 0.0f) {
        k.tmin = q.tmin;
        k.tmax = q.tmax;
        k.inv_dd = 1.0f / k.dd;
    } else {
        k.tmin = k.tmax = hs_clampf(0.0f, q.tmin, q.tmax);
        k.inv_dd = 0.0f;
    }
    return k;
}

typedef struct hs_pair {
    float t, t_exit;
    uint32_t flags;
} hs_pair;

/* Skip-start (types.h): the start P(tmin) in the closed inflated disc, heading outward.
 * f = a - c; an infinite tmin gives inf or NaN, and both compare false. */
static inline int hs_pair_skips_start(const hs_kq *k, float fx, float fy, float R2)
{
    float sx = fx + k->tmin * k->dx, sy = fy + k->tmin * k->dy;
    return sx * sx + sy * sy <= R2 && sx * k->dx + sy * k->dy >= 0.0f;
}

/* Hit decision, shared by every mode (any, count, closest, all) so they never disagree:
 * solid    — the point of the interval closest to the centre lies in the closed inflated disc;
 *            measured directly (the robust perpendicular form), no discriminant involved.
 * boundary — solid, and not both ends strictly inside. An infinite end gives inf or NaN
 *            there, and both compare false with '<', so lines and infinite rays need no case.
 * skip-start — then not a circle the query starts in and leaves (hs_pair_skips_start). */
static inline int hs_pair_hits(const hs_kq *k, float cx, float cy, float r)
{
    float fx = k->ax - cx, fy = k->ay - cy;
    float R = r + k->q, R2 = R * R;
    float b = fx * k->dx + fy * k->dy;
    float tcl = hs_clampf(-b * k->inv_dd, k->tmin, k->tmax);
    float px = fx + tcl * k->dx, py = fy + tcl * k->dy;
    if (!(px * px + py * py <= R2))
        return 0;
    if (k->sem & HS_BOUNDARY) {
        float sx = fx + k->tmin * k->dx, sy = fy + k->tmin * k->dy;
        float ex = fx + k->tmax * k->dx, ey = fy + k->tmax * k->dy;
        if (sx * sx + sy * sy < R2 && ex * ex + ey * ey < R2)
            return 0;
    }
    return !((k->sem & HS_SKIP_START) && hs_pair_skips_start(k, fx, fy, R2));
}

/* c = |f|^2 - R^2 of the quadratic below, f = a - c. In float it cancels: near a root (a start
 * a few units from a circle of radius 10^4) its rounding at |f|^2 is most of its value. In
 * double it does not: f and r + q are exact or nearly so, the squares carry 2^-53, and one
 * rounding to float remains. Double, not an fmaf two-product: SSE4.2 has no FMA, and every
 * level computes this same sequence of double operations (pair_math.inl's hs_v_csq). */
static inline float hs_pair_csq(float ax, float ay, float cx, float cy, float r, float q)
{
    const double fx = (double)ax - cx, fy = (double)ay - cy, R = (double)r + q;
    return (float)(fx * fx + fy * fy - R * R);
}

/* R^2 - |h|^2, h = f + tc D the perpendicular offset, in double for the same reason as c: near
 * tangency of a huge circle it cancels, and t = c / q must not pair an exact c with a q that
 * lost every digit (pair_math.inl's hs_v_disc is the same sequence). */
static inline float hs_pair_disc(const hs_kq *k, float cx, float cy, float r, float tc)
{
    const double fx = (double)k->ax - cx, fy = (double)k->ay - cy, R = (double)r + k->q;
    const double hx = fx + (double)tc * k->dx, hy = fy + (double)tc * k->dy;
    return (float)(R * R - (hx * hx + hy * hy));
}

/* Entry / exit parameters of a pair already known to hit (hs_pair_hits). Roots of
 * |f + tD|^2 = R^2 with the discriminant taken from the perpendicular distance h and the
 * stable quadratic: one root q/a, the other c/q, never -b - sqrt(...) with cancellation. */
static inline hs_pair hs_pair_times(const hs_kq *k, float cx, float cy, float r)
{
    hs_pair o;
    float fx = k->ax - cx, fy = k->ay - cy;
    float R = r + k->q, R2 = R * R;
    float b = fx * k->dx + fy * k->dy;
    float c = hs_pair_csq(k->ax, k->ay, cx, cy, r, k->q);
    float tc = -b * k->inv_dd;
    /* clamped at 0: the hit test already decided, tangency rounding must not make NaN */
    float disc = hs_maxf(hs_pair_disc(k, cx, cy, r, tc), 0.0f);
    /* |d| sqrt(disc), not sqrt(d.d disc): the product of the squares overflows once
     * |d| (r + q) > 1.8e19, inside the accepted range; this one is at most 4e37 */
    float qq = -(b + copysignf(sqrtf(k->dd) * sqrtf(disc), b));
    float t0 = tc, t1 = tc;
    /* disc 0: tangent, or a pair the hit test took inside float's tangency band whose exact
     * discriminant is negative; c / qq would then be the product of roots that do not exist
     * (far from tc for a huge circle), so both roots are tc, the closest approach */
    if (qq != 0.0f && disc > 0.0f) {
        float ra = qq * k->inv_dd, rb = c / qq;
        t0 = hs_minf(ra, rb);
        t1 = hs_maxf(ra, rb);
    }
    float sx = fx + k->tmin * k->dx, sy = fy + k->tmin * k->dy;
    float s2 = sx * sx + sy * sy;
    o.flags = (s2 <= R2) ? HS_HIT_INSIDE : 0u;
    if ((k->sem & HS_BOUNDARY) && s2 < R2)
        o.t = hs_clampf(t1, k->tmin, k->tmax); /* started strictly inside: the exit wound */
    else if (o.flags)
        o.t = k->tmin;
    else
        o.t = hs_clampf(t0, k->tmin, k->tmax);
    o.t_exit = hs_clampf(t1, o.t, k->tmax);
    return o;
}

/* Unit vector along v; fallback when v is zero. A v whose square is subnormal (digits lost,
 * or zero) or could overflow is rescaled first: it still has a direction. */
static inline hs_vec2 hs_unit_or(float vx, float vy, hs_vec2 fallback)
{
    if (isinf(vx) || isinf(vy)) { /* overflowed (a point far past the float range): its
                                   * infinite components give the direction */
        vx = isinf(vx) ? copysignf(1.0f, vx) : 0.0f;
        vy = isinf(vy) ? copysignf(1.0f, vy) : 0.0f;
    }
    float len = sqrtf(vx * vx + vy * vy);
    if (!(len >= 0x1p-60f && len <= 0x1p60f)) {
        float m = fmaxf(fabsf(vx), fabsf(vy));
        if (!(m > 0.0f))
            return fallback;
        vx /= m;
        vy /= m;
        len = sqrtf(vx * vx + vy * vy);
    }
    hs_vec2 u = {vx / len, vy / len};
    return u;
}

/* Hit point P(t) and the unit normal from the centre towards it, as hs_intersect_circle
 * documents: f + tD rather than P(t) - c keeps digits the absolute point rounds away. */
static inline void hs_hit_geometry(const hs_kq *k, float cx, float cy, float t, hs_vec2 *point,
                                   hs_vec2 *normal)
{
    point->x = k->ax + t * k->dx;
    point->y = k->ay + t * k->dy;
    hs_vec2 back = hs_unit_or(-k->dx, -k->dy, (hs_vec2){-1.0f, 0.0f});
    *normal = hs_unit_or((k->ax - cx) + t * k->dx, (k->ay - cy) + t * k->dy, back);
}

#endif
