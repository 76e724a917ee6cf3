/* SPDX-License-Identifier: MIT */
/* Closest wall by brute force: every wall through the one pair test (wall_core.h). */
#include "walls.h"

int hs_walls_brute_closest(const hs_walls *ws, const hs_kq *k, uint32_t *index, hs_wall_hit *hit)
{
    int found = 0;
    hs_wall_hit h;
    for (size_t i = 0; i < ws->n; i++) {
        if (ws->mask ? (ws->mask[i] & k->mask) == 0u : k->mask == 0u)
            continue;
        hs_kwall wl = {ws->ax[i], ws->ay[i], ws->bx[i], ws->by[i], ws->w ? ws->w[i] : 0.0f};
        if (hs_wall_hits(k, &wl, &h) && (!found || h.t < hit->t)) {
            *hit = h;
            *index = (uint32_t)i;
            found = 1;
        }
    }
    return found;
}
