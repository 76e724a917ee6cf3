/* SPDX-License-Identifier: MIT */
/* Internal: a grid's walls in its batch calls (wall_query.c), beside the engines (engine.h):
 * the walls are answered by the plain engine on the grid of their pieces (wall_grid.h) and
 * merged with the circles' answers. closest: the least (t, kind, index), a circle before a
 * wall at equal t; any: either; count: the sum; all: both hit lists merged by (t, kind,
 * index). */
#ifndef HITSCAN_GRID_WALL_QUERY_H
#define HITSCAN_GRID_WALL_QUERY_H

#include "grid/engine.h"

typedef hs_status (*hs_grid_engine_fn)(const hs_grid_call *c);

/* closest, any, count: c's circles answered by `engine` and the walls' answers merged in
 * (closest also writes co.kind, grid with walls or not); the engine's status, or the walls'
 * call's error. Closest and any of thin queries on the plain engine answer the walls first: each
 * query's wall hit bounds its circles' walk (hs_grid_call.bound), which then stops there
 * (any: walks no circle). */
hs_status hs_walls_merge(const hs_grid_call *c, hs_grid_engine_fn engine);

/* all of a grid with walls: the circles' hits by `engine` and the walls', merged into c's out
 * or through its place. */
hs_status hs_walls_all(const hs_grid_call *c, hs_grid_engine_fn engine);

#endif
