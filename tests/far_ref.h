/* SPDX-License-Identifier: MIT */
/* Segment-vs-circle cases far from the origin, in world (double) coordinates, with their long
 * double reference; answered in float with and without an origin offset (hitscan/origin.h).
 * Shared by tests/test_large_world.c and tools/accuracy/precision_far.c. */
#ifndef HS_FAR_REF_H
#define HS_FAR_REF_H

#include <math.h>

#include "hitscan/hitscan.h"

typedef struct far_case {
    double cx, cy, r;      /* the circle, world */
    double ax, ay, bx, by; /* the segment a -> b, world; it enters the circle */
} far_case;

/* A case near (D, D) / sqrt 2 from three numbers u in [0, 1): radius 1 .. 10, a start 1 .. 50
 * units outside the rim, aimed inside the circle, twice as long as needed. */
static inline far_case far_case_make(double D, double u0, double u1, double u2, double u3)
{
    far_case k;
    const double base = D / sqrt(2.0);
    k.cx = base + 100.0 * u0;
    k.cy = base - 100.0 * u1;
    k.r = 1.0 + 9.0 * u2;
    const double ang = 6.283185307179586 * u3, gap = 1.0 + 49.0 * u0 * u1;
    k.ax = k.cx + (k.r + gap) * cos(ang);
    k.ay = k.cy + (k.r + gap) * sin(ang);
    const double tx = k.cx + 0.8 * k.r * (u1 - 0.5), ty = k.cy + 0.8 * k.r * (u2 - 0.5);
    k.bx = k.ax + 2.0 * (tx - k.ax);
    k.by = k.ay + 2.0 * (ty - k.ay);
    return k;
}

/* The exact entry parameter and point of the world segment (long double). */
static inline long double far_ref_t(const far_case *k, long double *px, long double *py)
{
    const long double dx = (long double)k->bx - k->ax, dy = (long double)k->by - k->ay;
    const long double fx = (long double)k->ax - k->cx, fy = (long double)k->ay - k->cy;
    const long double a = dx * dx + dy * dy, b = fx * dx + fy * dy;
    const long double c = fx * fx + fy * fy - (long double)k->r * k->r;
    const long double disc = b * b - a * c;
    const long double q = -(b + copysignl(sqrtl(disc > 0 ? disc : 0), b));
    const long double t = fminl(q / a, c / q);
    *px = k->ax + t * dx;
    *py = k->ay + t * dy;
    return t;
}

/* Errors of one float answer against the reference, in world units: the hit point's distance
 * from the exact one, and the entry parameter's error as a distance along the segment. */
typedef struct far_err {
    double point, tdist;
    int hit;
} far_err;

/* The case in float coordinates as they are (no origin). */
static inline far_err far_answer_plain(const far_case *k)
{
    far_err e = {INFINITY, INFINITY, 0};
    hs_query q =
        hs_segment((hs_vec2){(float)k->ax, (float)k->ay}, (hs_vec2){(float)k->bx, (float)k->by});
    hs_circle c = {(float)k->cx, (float)k->cy, (float)k->r};
    hs_hit h;
    long double px, py, t = far_ref_t(k, &px, &py);
    if (hs_intersect_circle(q, c, HS_SOLID, &h) != 1)
        return e;
    e.hit = 1;
    e.point = (double)hypotl((long double)h.point.x - px, (long double)h.point.y - py);
    e.tdist = (double)(fabsl((long double)h.t - t) * hypotl(k->bx - k->ax, k->by - k->ay));
    return e;
}

/* The case relative to origin (hs_rebase_segments, hs_rebase_points), the hit point mapped
 * back with hs_point_to_world. */
static inline far_err far_answer_origin(const far_case *k, hs_dvec2 origin)
{
    far_err e = {INFINITY, INFINITY, 0};
    float ax, ay, dx, dy, cx, cy;
    if (hs_rebase_segments(&k->ax, &k->ay, &k->bx, &k->by, 1, origin, &ax, &ay, &dx, &dy, NULL) !=
            HS_OK ||
        hs_rebase_points(&k->cx, &k->cy, 1, origin, &cx, &cy, NULL) != HS_OK)
        return e;
    hs_query q = {{ax, ay}, {dx, dy}, 0.0f, 1.0f, 0.0f};
    hs_circle c = {cx, cy, (float)k->r};
    hs_hit h;
    long double px, py, t = far_ref_t(k, &px, &py);
    if (hs_intersect_circle(q, c, HS_SOLID, &h) != 1)
        return e;
    e.hit = 1;
    hs_dvec2 w = hs_point_to_world(h.point, origin);
    e.point = (double)hypotl((long double)w.x - px, (long double)w.y - py);
    e.tdist = (double)(fabsl((long double)h.t - t) * hypotl(k->bx - k->ax, k->by - k->ay));
    return e;
}

#endif
