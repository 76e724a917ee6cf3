/* SPDX-License-Identifier: MIT */
/* Internal: one ISA level's walk of a grid's walls by their cells, instantiated once per
 * translation unit (wall_walk_<isa>.c sets HS_W, HS_KNAME and HS_KISA, then includes this
 * file): a range of a batch, each query read from the batch's order and walked through the
 * cells its segment crosses (wall_cells_walk.inl). Its two external names,
 * hs_k_<isa>_wall_cells_range and hs_k_<isa>_wall_cells_closest, are in the level's walker
 * table (walk.inl); a translation unit of its own, so that it compiles apart from the circles'
 * walk. */
#include <math.h>
#include <string.h>

#include "kernels/level.h"
#include "kernels/simd.h"

#include "batch/hit_sort.h"
#include "core.h"
#include "grid/wall_cells.h"
#include "invariant.h"
#include "query_prep.h"
#include "wall_core.h"
#include "walk/walkers.h"

#include "wall_cells_walk.inl"

/* Position p's query: its record's a and d, the rest through perm (made whenever the batch
 * has per-query arrays) or the batch's values. */
HS_INLINE int hs_wc_query(const hs_wcells_call *c, size_t p, hs_kq *k)
{
    const hs_qorder *o = c->ord;
    if (o->rec == NULL)
        return hs_prep_query(c->qs, p, c->sem, k);
    const hs_queries *qs = c->qs;
    HS_ASSERT(o->perm || !(qs->tmin || qs->tmax || qs->q || qs->mask));
    const size_t i = o->perm ? o->perm[p] : 0; /* 0: no array reads it */
    const float *r = o->rec + 4 * p;
    const hs_query q = {{r[0], r[1]},
                        {r[2], r[3]},
                        qs->tmin ? qs->tmin[i] : qs->tmin_all,
                        qs->tmax ? qs->tmax[i] : qs->tmax_all,
                        qs->q ? qs->q[i] : qs->q_all};
    return hs_prep_query_of(q, qs->mask ? qs->mask[i] : qs->mask_all, c->sem, k);
}

void HS_FN(wall_cells_range)(const hs_wcells_call *c, size_t lo, size_t hi, hs_tally *tally);
void HS_FN(wall_cells_range)(const hs_wcells_call *c, size_t lo, size_t hi, hs_tally *tally)
{
    float *stage = c->ord->inv ? c->ord->rec : NULL;
    const int any = c->hit != NULL;
    for (size_t p = lo; p < hi; p++) {
        hs_kq k;
        uint32_t w = HS_NONE;
        float t = INFINITY;
        const int hit =
            hs_wc_query(c, p, &k) && hs_wc_closest(c->cells, &k, any, &w, &t, &tally->tests);
        if (!hit)
            w = HS_NONE, t = INFINITY;
        const uint32_t word = any ? (uint32_t)hit : w;
        if (stage != NULL) {
            memcpy(stage + 4 * p + 2, &word, sizeof word);
            memcpy(stage + 4 * p + 3, &t, sizeof t);
        } else if (any) {
            c->hit[p] = (uint8_t)hit;
        } else {
            c->wi[p] = w;
            c->wt[p] = t;
        }
    }
}

int HS_FN(wall_cells_closest)(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall, float *t,
                              uint64_t *tests);
int HS_FN(wall_cells_closest)(const hs_wcells *c, const hs_kq *k, int any, uint32_t *wall, float *t,
                              uint64_t *tests)
{
    return hs_wc_closest(c, k, any, wall, t, tests);
}
