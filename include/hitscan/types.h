/* SPDX-License-Identifier: MIT */
/* hitscan value types and status codes shared by every part of the public API. */
#ifndef HITSCAN_TYPES_H
#define HITSCAN_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "hitscan/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. Functions that answer hit / miss return 1 / 0 and a negative
 * hs_status on invalid input; functions that only build or fill return
 * HS_OK (0) or a negative hs_status. Nothing in hitscan aborts on bad input. */
typedef enum hs_status {
    HS_OK = 0,
    HS_E_NULL = -1,          /* a required pointer was NULL */
    HS_E_NONFINITE = -2,     /* NaN anywhere, or Inf where only finite values make sense */
    HS_E_NEG_RADIUS = -3,    /* radius or thickness < 0 */
    HS_E_RANGE = -4,         /* tmin > tmax, or an enum / option out of range */
    HS_E_TOO_MANY = -5,      /* count above HS_MAX_COUNT */
    HS_E_NOMEM = -6,         /* allocation failed; outputs untouched or freed */
    HS_E_UNSUPPORTED = -7,   /* requested ISA level not available on this CPU / build, or an
                              * option the call does not take (hs_queries.ignore under MPI) */
    HS_E_INVALID_QUERY = -8, /* batch: some queries were invalid; they were answered as misses */
    HS_E_BUSY = -9,          /* a workspace passed to a call is in use by another call */
    HS_E_BOX = -10           /* a periodic box too small for the circles, the reach or the cells,
                              * or a circle outside the box on an axis that is not periodic */
} hs_status;

/* A short English description of a status code ("ok", "a required pointer was NULL", ...);
 * "unknown status" for a value that is not one. Never NULL; static storage. */
HS_API const char *hs_status_string(hs_status s);

/* Largest number of circles or queries in one set / batch. Indices are uint32_t
 * and UINT32_MAX is the "no hit" sentinel, so the top value is reserved. */
#define HS_MAX_COUNT ((size_t)UINT32_MAX - 1u)
#define HS_NONE UINT32_MAX

/* Largest accepted |coordinate|, radius and thickness (a query's |d|^2 must also be a normal
 * float: 1.1e-19 <= |d| <= 1.8e19). Over that whole range no answer overflows: squares of
 * sums of such values stay finite in float32, so "inside" is never decided by inf <= inf,
 * and entry times are taken from |d| sqrt(disc), never sqrt(|d|^2 disc) (which overflows
 * once |d| (r + q) > 1.8e19). Beyond it input is refused with HS_E_RANGE, never clamped. */
#define HS_MAX_COORD 1e18f

typedef struct hs_vec2 {
    float x, y;
} hs_vec2;

/* A circle (cx, cy) with radius r >= 0; r = 0 is a point. */
typedef struct hs_circle {
    float x, y, r;
} hs_circle;

/* Axis-aligned rectangle [min.x, max.x] x [min.y, max.y]. */
typedef struct hs_aabb {
    hs_vec2 min, max;
} hs_aabb;

/* Every query is P(t) = a + t*d over the closed interval [tmin, tmax], swept
 * with thickness q >= 0 (q > 0: a capsule / swept circle). tmin may be -INFINITY
 * and tmax +INFINITY (lines, infinite rays); a and d must be finite. Build them
 * with hs_segment(), hs_ray(), hs_line(), hs_capsule() in narrow.h. */
typedef struct hs_query {
    hs_vec2 a, d;
    float tmin, tmax;
    float q;
} hs_query;

/* solid: the closed disc counts (a query starting inside hits at tmin).
 * boundary: only the rim counts (a query wholly inside misses).
 * skip-start (the flag HS_SKIP_START, or-ed onto either): casting from a surface. A circle is
 *   ignored when the query's start P(tmin) lies in its closed inflated disc (|P(tmin) - c| <=
 *   r + q, the test solid uses for "inside") and the query heads outward there,
 *   (P(tmin) - c).d >= 0. A ray cast from a rim it leaves (a reflection, a shot from its
 *   shooter's edge), or from a rounding error inside, does not hit that circle at t = 0; one
 *   heading inward still does. Lines (tmin = -inf) have no start: no effect. A zero-length
 *   query (d = 0) counts as heading outward, so it hits no circle it lies in. Every mode
 *   (closest, any, count, all) applies it; pair searches have no query and ignore it. */
typedef enum hs_semantics {
    HS_SOLID = 0,
    HS_BOUNDARY = 1,
    HS_SKIP_START = 2, /* flag */
    HS_SOLID_SKIP_START = 2,
    HS_BOUNDARY_SKIP_START = 3
} hs_semantics;

/* hs_hit.flags */
/* The kind of primitive a hit is on (hs_closest_out.kind, hs_hits.kind): the index beside it
 * counts within its kind. Among hits at the same t, circles come before walls. */
#define HS_KIND_CIRCLE 0u
#define HS_KIND_WALL 1u
#define HS_HIT_INSIDE 1u /* the query's start P(tmin) lies in the closed inflated disc */

typedef struct hs_hit {
    float t;      /* entry parameter (solid) or first rim crossing (boundary) */
    float t_exit; /* last parameter inside the closed disc, clipped to [tmin, tmax] */
    hs_vec2
        point; /* P(t): on the query's centre line; the circle's surface point is c + r*normal */
    hs_vec2
        normal; /* unit, from the circle centre towards point; defined even when they coincide */
    uint32_t flags; /* HS_HIT_* */
} hs_hit;

/* Closest approach of a query (over its interval, with thickness) to a circle: the contact a
 * collision response needs (how deep, and which way out), defined even when the centre lies
 * on the query. */
typedef struct hs_contact {
    float t;         /* parameter of the query point closest to the centre */
    hs_vec2 closest; /* P(t) */
    hs_vec2 normal;  /* unit, from closest towards the centre: push the circle along +normal */
    float distance;  /* |centre - closest| */
    float depth;     /* r + q - distance: > 0 overlapping, 0 touching, < 0 separated by -depth */
} hs_contact;

#ifdef __cplusplus
}
#endif
#endif
