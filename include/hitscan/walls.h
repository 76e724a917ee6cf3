/* SPDX-License-Identifier: MIT */
/* Wall sets: static line segments from (ax, ay) to (bx, by), each optionally thickened by a
 * radius (a capsule), as obstacles beside the circles. A grid built with a wall set
 * (hs_grid_opts.walls, hs_grid_set_walls) answers every query mode against circles and walls
 * together: closest returns the first hit of either kind (hs_closest_out.kind, HS_KIND_*), any,
 * count and all count both (hs_hits.kind). The wall test: a query, thickened by q, hits wall
 * i when some t in [tmin, tmax] has dist(P(t), [a_i, b_i]) <= q + thickness_i; t is the least
 * such t. Touching is decided exactly (endpoints, a query ending on a wall, parallel and
 * collinear queries: orientation signs of the float inputs in exact arithmetic); thickness
 * adds the capsule in double (its answer can differ from exact only within 2^-46 of the
 * coordinates' magnitude of tangency). A wall whose ends are equal answers, at every level,
 * exactly as the circle (a, thickness) does at the scalar level. Semantics as for circles
 * (types.h), "inside" meaning within q + thickness of the segment: HS_BOUNDARY misses a
 * query whose both ends are strictly inside and reports the exit when its start is;
 * HS_SKIP_START ignores a wall the start lies within reach of when the query heads away from the
 * wall's nearest point (a start on a thin wall always). Closest's normal points from the wall's
 * nearest point towards P(t) (for a thin wall hit head on: against the query's direction,
 * perpendicular to the wall). Cost: closest and any of a batch whose queries are all thin (q = 0)
 * cross the walls' own cells, in order (when none starts over 2^20 times the walls'
 * coordinates away); count, all and other batches walk a grid of wall pieces (on the
 * benchmark's maze, 2.1 times as long for the same thin queries). The answers are the same
 * either way. */
#ifndef HITSCAN_WALLS_H
#define HITSCAN_WALLS_H

#include "hitscan/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SoA ax[], ay[], bx[], by[], optional thickness[] (NULL: every wall thin, thickness 0) and
 * optional filter mask[] (as for circles: a query with mask m tests only walls with
 * (mask[i] & m) != 0; a set without masks counts as every bit set). A wall whose ends are
 * equal is a point: it answers exactly as the circle (a, thickness). hs_walls_create copies
 * into arrays aligned and padded to the widest vector; hs_walls_borrow keeps the caller's
 * arrays (they must outlive the set and not change while queries run). Both validate every
 * wall: an end or thickness NaN or infinite (HS_E_NONFINITE), a thickness below 0
 * (HS_E_NEG_RADIUS), |coordinate| or thickness above HS_MAX_COORD (HS_E_RANGE); the first bad
 * wall's index goes to *bad_index when bad_index is not NULL ((size_t)-1 otherwise). NULL
 * arrays with n > 0 or a NULL out give HS_E_NULL, n > HS_MAX_COUNT HS_E_TOO_MANY; *out is then
 * NULL. */
typedef struct hs_walls hs_walls;

HS_API hs_status hs_walls_create(const float *ax, const float *ay, const float *bx, const float *by,
                                 const float *thickness, const uint32_t *mask, size_t n,
                                 hs_walls **out, size_t *bad_index);
HS_API hs_status hs_walls_borrow(const float *ax, const float *ay, const float *bx, const float *by,
                                 const float *thickness, const uint32_t *mask, size_t n,
                                 hs_walls **out, size_t *bad_index);
HS_API void hs_walls_destroy(hs_walls *ws);       /* NULL is a no-op */
HS_API size_t hs_walls_count(const hs_walls *ws); /* 0 for NULL */

#ifdef __cplusplus
}
#endif

#endif
