/* SPDX-License-Identifier: MIT */
/* Large worlds: world coordinates in double, made relative to a caller-chosen origin before the
 * float work, and hit points mapped back. */
#ifndef HITSCAN_ORIGIN_H
#define HITSCAN_ORIGIN_H

#include "hitscan/batch.h"
#include "hitscan/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Float coordinates resolve a point to half a float ulp of its distance from the origin:
 * 0.5 at 1e7, 4 at 1e8 (docs/precision.md has the measured table). A scene far from (0, 0)
 * keeps float's relative precision at its own scale when every coordinate is taken relative
 * to an origin near it: subtracted in double, rounded to float once. Answers (t, normals,
 * indices) need no mapping; points go back through hs_point_to_world. */
typedef struct hs_dvec2 {
    double x, y;
} hs_dvec2;

/* out_x[i] = (float)(x[i] - origin.x), out_y[i] likewise. HS_E_NULL (an array NULL while
 * n > 0), HS_E_NONFINITE (NaN / Inf in the input or origin), HS_E_RANGE (a result above
 * HS_MAX_COORD); *bad_index (when not NULL) then names the first bad point, and the outputs
 * before it are written. */
HS_API hs_status hs_rebase_points(const double *x, const double *y, size_t n, hs_dvec2 origin,
                                  float *out_x, float *out_y, size_t *bad_index);

/* Segments a -> b in world coordinates as a query batch's arrays relative to origin (for
 * hs_queries_segments): a - origin and d = b - a, each computed in double and rounded once.
 * Errors as hs_rebase_points, and HS_E_RANGE when |d|^2 is not a normal float. */
HS_API hs_status hs_rebase_segments(const double *ax, const double *ay, const double *bx,
                                    const double *by, size_t n, hs_dvec2 origin, float *out_ax,
                                    float *out_ay, float *out_dx, float *out_dy, size_t *bad_index);

/* A circle set whose centres are given in world coordinates: hs_circles_create on the centres
 * relative to origin (radii and masks as they are). Errors as hs_circles_create, plus
 * HS_E_RANGE for a centre that lands above HS_MAX_COORD; HS_E_NOMEM. */
HS_API hs_status hs_circles_create_at(const double *x, const double *y, const float *r,
                                      const uint32_t *mask, size_t n, hs_dvec2 origin,
                                      hs_circles **out, size_t *bad_index);

/* A point of the local frame (a hit point, a contact point) in world coordinates:
 * origin + p in double. */
HS_API hs_dvec2 hs_point_to_world(hs_vec2 p, hs_dvec2 origin);

#ifdef __cplusplus
}
#endif
#endif
