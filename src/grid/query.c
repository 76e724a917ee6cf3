/* SPDX-License-Identifier: MIT */
/* The grid's batch calls (hitscan/grid.h): hs_grid_closest, hs_grid_any, hs_grid_count_hits,
 * hs_grid_all and hs_grid_all_into, through one front door. It checks the call once (the
 * grid, the batch and its options through hs_batch_begin, the outputs, the displacements),
 * opens the workspace, picks the engine once and hands it the call (engine.h):
 *   - periodic: a grid with a periodic box (its pieces against moving circles or not);
 *   - moving: displacements given and not all 0 (or a ray or line among the queries, which
 *     no displacement can take: its refusal must not depend on their values);
 *   - plain: the rest.
 * A grid with walls has them answered beside the circles and merged (wall_query.h).
 * Engines sit below: they never call these functions. */
#include <string.h>

#include "grid/engine.h"
#include "grid/wall_query.h"
#include "grid/swept.h"
#include "query_prep.h"
#include "tuning.h"

/* Whether opts asks for moving circles (either displacement array set). */
static int moving_asked(const hs_batch_opts *opts)
{
    return opts != NULL && (opts->disp_x != NULL || opts->disp_y != NULL);
}

/* Whether the moving engine must answer: some displacement is not 0, or some query valid for
 * standing circles has an infinite interval (invalid against moving circles). */
static int moving_needed(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts)
{
    for (size_t i = 0; i < g->n; i++)
        if (opts->disp_x[i] != 0.0f || opts->disp_y[i] != 0.0f)
            return 1;
    for (size_t i = 0; i < qs->count; i++) {
        const hs_query q = hs_query_at(qs, i);
        if ((!isfinite(q.tmin) || !isfinite(q.tmax)) && hs_query_validate(q) == HS_OK)
            return 1;
    }
    return 0;
}

static hs_status grid_query(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                            const hs_grid_out *o)
{
    if (g == NULL)
        return HS_E_NULL;
    const int moving_opts = moving_asked(opts);
    if (moving_opts && (opts->disp_x == NULL || opts->disp_y == NULL))
        return HS_E_NULL;
    hs_batch_setup b;
    hs_status s = hs_batch_begin(qs, opts, HS_GRID_QUERY_COST, &b);
    if (s != HS_OK)
        return s;
    if (hs_grid_out_missing(qs->count, o))
        return HS_E_NULL;
    if (moving_opts && (s = hs_check_displacements(opts->disp_x, opts->disp_y, g->n)) != HS_OK)
        return s;
    const int moving = moving_opts && moving_needed(g, qs, opts);
    hs_wsref w;
    s = hs_ws_open(opts, &w);
    if (s != HS_OK)
        return s;
    const hs_grid_call c = {g, qs, opts, &b, w.ws, o, moving, NULL};
    const hs_grid_engine_fn engine = g->periodic ? hs_engine_periodic
                                     : moving    ? hs_engine_moving
                                                 : hs_engine_plain;
    /* walls (wall_query.h): answered beside the circles and merged */
    s = o->mode == HS_GRID_ALL && g->wall_grid != NULL ? hs_walls_all(&c, engine)
                                                       : hs_walls_merge(&c, engine);
    hs_ws_close(&w);
    return s;
}

hs_status hs_grid_closest(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                          hs_closest_out out)
{
    const hs_grid_out o = {HS_GRID_CLOSEST, out, NULL, NULL, NULL, NULL};
    return grid_query(g, qs, opts, &o);
}

hs_status hs_grid_any(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                      uint8_t *hit)
{
    const hs_grid_out o = {HS_GRID_ANY, {0}, hit, NULL, NULL, NULL};
    return grid_query(g, qs, opts, &o);
}

hs_status hs_grid_count_hits(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             uint32_t *count)
{
    const hs_grid_out o = {HS_GRID_COUNT, {0}, NULL, count, NULL, NULL};
    return grid_query(g, qs, opts, &o);
}

hs_status hs_grid_all(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                      hs_hits *out)
{
    if (out != NULL)
        memset(out, 0, sizeof *out);
    const hs_grid_out o = {HS_GRID_ALL, {0}, NULL, NULL, out, NULL};
    return grid_query(g, qs, opts, &o);
}

hs_status hs_grid_all_into(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                           hs_hits_place_fn place, void *ctx)
{
    if (place == NULL)
        return HS_E_NULL;
    const hs_all_place p = {place, ctx};
    const hs_grid_out o = {HS_GRID_ALL, {0}, NULL, NULL, NULL, &p};
    return grid_query(g, qs, opts, &o);
}
