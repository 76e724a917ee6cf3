/* SPDX-License-Identifier: MIT */
/* Scalar narrowphase: one query against one circle, the exact reference every SIMD kernel matches.
 */
#ifndef HITSCAN_NARROW_H
#define HITSCAN_NARROW_H

#include "hitscan/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Query builders. They never fail; hs_query_validate() says whether the result is usable.
 * segment a->b: t in [0, 1], d = b - a.
 * ray from a along dir: t in [0, tmax]; tmax = INFINITY for an infinite ray. t is in units of
 * |dir|. line through a and b: t in (-inf, +inf), d = b - a. capsule a->b with half-width q: a
 * segment with thickness (equivalently a circle of radius q swept from a to b). Any query can be
 * thickened with hs_query_thick(). */
HS_API hs_query hs_segment(hs_vec2 a, hs_vec2 b);
HS_API hs_query hs_ray(hs_vec2 a, hs_vec2 dir, float tmax);
HS_API hs_query hs_line(hs_vec2 a, hs_vec2 b);
HS_API hs_query hs_capsule(hs_vec2 a, hs_vec2 b, float q);
HS_API hs_query hs_query_thick(hs_query query, float q);

/* HS_OK, or why the query cannot be answered:
 * HS_E_NONFINITE  a, d or q not finite, or tmin / tmax NaN, or tmin = +inf, or tmax = -inf;
 * HS_E_NEG_RADIUS q < 0;
 * HS_E_RANGE      tmin > tmax; |a.x|, |a.y| or q above HS_MAX_COORD; |d|^2 overflows float, or
 *                 is below FLT_MIN (subnormal, or 0 from a d that is not 0) (rescale d and
 *                 the interval); d = (0, 0) exactly is a point query. */
HS_API hs_status hs_query_validate(hs_query query);

/* HS_OK, or HS_E_NONFINITE (NaN / Inf), HS_E_NEG_RADIUS (r < 0), HS_E_RANGE (|x|, |y| or r
 * above HS_MAX_COORD). */
HS_API hs_status hs_circle_validate(hs_circle c);

/* Query vs circle. Returns 1 on a hit (and fills *out if out != NULL), 0 on a miss,
 * or a negative hs_status when the query or circle is invalid (out untouched).
 *
 * Solid: hit iff some t in [tmin, tmax] has |P(t) - c| <= r + q; out->t is the smallest
 * such t (tmin and HS_HIT_INSIDE when the start is already in the closed disc).
 * Boundary: hit iff some t in [tmin, tmax] has |P(t) - c| = r + q; out->t is the first
 * such t (an "exit wound" reports the exit); HS_HIT_INSIDE still tells a start inside.
 *
 * Zero-length d (a point or circle query): every t names the same point; a hit reports
 * the t in [tmin, tmax] closest to 0. Normals: (P(t) - c) normalised; when P(t) = c it is
 * -d normalised, and (-1, 0) when d is zero too.
 * Numerics: float32, discriminant from the perpendicular distance (no b*b - 4ac) and
 * the stable quadratic (second root as c / q). tests/test_accuracy.c states the bound.
 * Resolution: distances are compared through their float32 squares, so a pair is decided
 * to a few ulps of the coordinates' magnitude, and absolutely to about 1e-22: squares below
 * 2^-149 vanish, and a query passing within 2^-73 (1.1e-22) outside a rim may count as
 * touching it. Every call, engine and ISA level decides such pairs alike (the grid visits
 * them). Disc overlap (hs_grid_pairs, hs_grid_overlap_circle) is decided exactly. */
HS_API int hs_intersect_circle(hs_query query, hs_circle c, hs_semantics sem, hs_hit *out);

/* Hit test only: same answer as hs_intersect_circle(query, c, sem, NULL). */
HS_API int hs_query_hits_circle(hs_query query, hs_circle c, hs_semantics sem);

/* Closest approach of the query's interval (its centre line) to c's centre. Returns 1 if the
 * inflated shapes overlap or touch (depth >= 0), 0 if separated, negative hs_status on
 * invalid input. When the centre lies exactly on the query, normal is the query's left-hand
 * perpendicular (-d.y, d.x)/|d|, and (1, 0) when d is zero. */
HS_API int hs_contact_circle(hs_query query, hs_circle c, hs_contact *out);

#ifdef __cplusplus
}
#endif
#endif
