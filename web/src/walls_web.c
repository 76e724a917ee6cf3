/* SPDX-License-Identifier: MIT */
/* Walls for the JavaScript package (hitscan/walls.h): a set from ax, ay, bx, by quadruples,
 * which a grid copies (so JavaScript destroys it right after), and a grid's walls. */
#include <stdlib.h>

#include "hitscan/hitscan.h"
#include "hitscan_web.h"

/* A validated set of k walls from quadruples q4, with per-wall thickness (or thick_all for
 * every wall when thick is NULL; 0: thin) and masks (NULL: none). ret[0]: the set, ret[1]: the
 * first bad wall. */
int HS_WEB(hs_web_walls_create)(const float *q4, const float *thick, float thick_all,
                                const uint32_t *mask, size_t k)
{
    uint32_t *ret = hs_web_ret();
    ret[0] = 0;
    ret[1] = UINT32_MAX;
    if (k > SIZE_MAX / sizeof(float) / 8)
        return HS_E_NOMEM;
    float *s = malloc((5 * k + 1) * sizeof(float));
    if (!s)
        return HS_E_NOMEM;
    hs_web_split(q4, k, 4, s);
    for (size_t i = 0; i < k; i++)
        s[4 * k + i] = thick_all;
    const float *w = thick ? thick : thick_all != 0.0f ? s + 4 * k : NULL;
    hs_walls *ws = NULL;
    size_t bad = (size_t)-1;
    hs_status st = hs_walls_create(s, s + k, s + 2 * k, s + 3 * k, w, mask, k, &ws, &bad);
    free(s);
    ret[0] = (uint32_t)(uintptr_t)ws;
    ret[1] = (uint32_t)bad;
    return st;
}

void HS_WEB(hs_web_walls_destroy)(hs_walls *ws) { hs_walls_destroy(ws); }

/* The grid's walls replaced by a copy of ws (NULL: none); on an error it keeps its own. */
int HS_WEB(hs_web_grid_set_walls)(hs_grid *g, const hs_walls *ws)
{
    return hs_grid_set_walls(g, ws);
}

size_t HS_WEB(hs_web_grid_wall_count)(const hs_grid *g) { return hs_grid_wall_count(g); }
