/* SPDX-License-Identifier: MIT */
/* The grid's public lifetime (hitscan/grid.h): the grid of circles (build.c) with its walls
 * (wall_grid.c) made, measured and freed together. */
#include <stddef.h>

#include "grid/build.h"
#include "grid/wall_grid.h"

hs_status hs_grid_build(const hs_circles *cs, const hs_grid_opts *opts, hs_grid **out)
{
    hs_status s = hs_grid_make(cs, opts, 1, out);
    if (s != HS_OK || opts == NULL || opts->walls == NULL)
        return s;
    s = hs_grid_set_walls(*out, opts->walls);
    if (s != HS_OK) {
        hs_grid_free(*out);
        *out = NULL;
    }
    return s;
}

void hs_grid_destroy(hs_grid *g)
{
    if (g == NULL)
        return;
    hs_grid_walls_free(g);
    hs_grid_free(g);
}

size_t hs_grid_bytes(const hs_grid *g)
{
    return g == NULL ? 0 : hs_grid_storage_bytes(g) + hs_grid_walls_bytes(g);
}
