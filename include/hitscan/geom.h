/* SPDX-License-Identifier: MIT */
/* Small exact predicates around the main query: point vs circle / segment, segment vs segment /
 * rectangle. */
#ifndef HITSCAN_GEOM_H
#define HITSCAN_GEOM_H

#include "hitscan/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default relative tolerance for hs_point_on_segment: a few float32 ulps of the scene's scale. */
#define HS_DEFAULT_REL_TOL (8.0f * 1.1920929e-7f)

/* 1 if p lies in the closed disc, 0 if not, negative hs_status on NaN / Inf / r < 0. */
HS_API int hs_point_in_circle(hs_vec2 p, hs_circle c);

/* 1 if p lies within tol of the closed segment a-b, where tol = rel_tol * scale and scale is the
 * largest absolute coordinate among p, a, b (at least 1e-30) — so the answer does not change when
 * the scene is scaled, as a fixed absolute buffer would. a == b is a point. rel_tol < 0 or
 * non-finite input: negative hs_status. */
HS_API int hs_point_on_segment(hs_vec2 p, hs_vec2 a, hs_vec2 b, float rel_tol);

/* Segment a0-a1 vs segment b0-b1 (closed). */
typedef enum hs_segseg_kind {
    HS_SEGSEG_NONE = 0,   /* disjoint */
    HS_SEGSEG_POINT = 1,  /* one common point: t0 (on a) and u0 (on b) */
    HS_SEGSEG_OVERLAP = 2 /* collinear with a common sub-segment: a(t0)..a(t1), t0 <= t1 */
} hs_segseg_kind;

typedef struct hs_segseg {
    hs_segseg_kind kind;
    float t0, t1;  /* parameters along a (0 at a0, 1 at a1) */
    float u0, u1;  /* matching parameters along b */
    hs_vec2 point; /* a(t0) */
} hs_segseg;

/* Returns 1 if they share at least one point (out filled when non-NULL), 0 if disjoint,
 * negative hs_status on non-finite input. Parallel and degenerate (zero-length) segments are
 * answered, never divided by zero. */
HS_API int hs_segment_segment(hs_vec2 a0, hs_vec2 a1, hs_vec2 b0, hs_vec2 b1, hs_segseg *out);

/* Segment a-b vs closed axis-aligned rectangle. Returns 1 if any point of the segment is in the
 * rectangle — including a segment wholly inside, which touches no edge — with the parameter
 * range [*t_enter, *t_exit] inside it (either pointer may be NULL); 0 if not; negative hs_status
 * for non-finite input or box.min > box.max. */
HS_API int hs_segment_aabb(hs_vec2 a, hs_vec2 b, hs_aabb box, float *t_enter, float *t_exit);

#ifdef __cplusplus
}
#endif
#endif
