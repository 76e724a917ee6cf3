/* SPDX-License-Identifier: MIT */
/* Internal: the block's slot-by-slot plan (step 3 of block.inl): each slot's row runs, as
 * items, from its row set-up, or from the per-query walk's row logic where the set-up does not
 * cover it. It plans the slots the row plan (block_plan_rows.inl) does not take, count and all
 * on the levels narrower than 8 lanes, and all's blocks whose items do not fit the list. Part
 * of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* Out of line: one copy per ISA rather than one per mode and semantics. */
static HS_OUTLINE int HS_FN(block_plan_level)(hs_walk *w, const hs_kq *kq, const hs_glevel *L)
{
    return hs_walk_level(w, HS_WALK_PLAN, kq, L);
}

static inline float hs_block_minf(float a, float b) { return a < b ? a : b; }
static inline float hs_block_maxf(float a, float b) { return a > b ? a : b; }

/* Whether the run of cells [c, c + n) of a level with occupancy bits may hold a circle: the
 * 32 bits from the run's first cell's byte hold its bits when it spans at most HS_OCC_RUN_MAX
 * cells; a longer run is kept. A run found empty costs no cell_start read (the map is 32 times
 * smaller: on mostly empty levels it stays in cache where cell_start does not). */
HS_INLINE int hs_block_run_occupied(const uint8_t *occ, size_t c, uint32_t n)
{
    if (n > HS_OCC_RUN_MAX)
        return 1;
    uint32_t word;
    memcpy(&word, occ + (c >> 3), sizeof word);
    return ((word >> (c & 7)) & ((1u << n) - 1u)) != 0;
}

/* hs_block_plan_rows with occupancy a constant of the loop (1: the level has occupancy
 * bits, and a row's run found empty by them is skipped). */
HS_INLINE int hs_block_plan_rows_of(hs_walk *w, const hs_grid *g, const hs_glevel *L,
                                    const hs_row_setup *S, size_t j, const int occupancy)
{
    const int32_t nrows = (int32_t)S->nrows[j];
    const float pos0 = S->pos0[j], pos_step = S->pos_step[j];
    const float first_off = S->first_off[j], last_off = S->last_off[j];
    const float first_min = S->first_min[j], first_max = S->first_max[j];
    const float last_min = S->last_min[j], last_max = S->last_max[j];
    const size_t nx = (size_t)L->nx;
    const size_t row0 = (size_t)(int32_t)S->row0[j] * nx;
    const uint32_t *cs = g->cell_start + L->cell0 + row0;
    int s = 0;
    for (int32_t k = 0; k < nrows && !s; k++, cs += nx) {
        const float pos = pos0 + (float)k * pos_step;
        const int32_t first =
            (int32_t)hs_block_minf(hs_block_maxf(pos + first_off, first_min), first_max);
        const int32_t last =
            (int32_t)hs_block_minf(hs_block_maxf(pos + last_off, last_min), last_max);
        if (first <= last &&
            (!occupancy || hs_block_run_occupied(L->occ, row0 + (size_t)k * nx + (size_t)first,
                                                 (uint32_t)(last - first + 1)))) {
            const uint32_t b = cs[first], e = cs[last + 1];
            hs_prefetch(g->x + b);
            hs_prefetch(g->y + b);
            hs_prefetch(g->r + b);
            s = hs_walk_plan_run(w, b, e);
        }
    }
    return s;
}

/* Slot j's row runs on a level set up for it (hs_row_setup), appended as items; 1 if
 * they do not fit. */
HS_INLINE int hs_block_plan_rows(hs_walk *w, const hs_grid *g, const hs_glevel *L,
                                 const hs_row_setup *S, size_t j)
{
    if (L->occ != NULL)
        return hs_block_plan_rows_of(w, g, L, S, j, 1);
    return hs_block_plan_rows_of(w, g, L, S, j, 0);
}

/* Slot j's items, every level; 0 done, 1 they do not fit, 2 long (the block is then as it
 * was). */
HS_INLINE int hs_block_plan_slot(hs_block *B, const hs_grid *g, size_t j, hs_semantics sem)
{
    const size_t nitems0 = B->nitems;
    hs_walk w;
    w.g = g;
    w.blk = B;
    w.slot = j;
    w.best_t = INFINITY;
    w.best_id = HS_NONE;
    w.err = HS_OK;
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        const hs_row_setup *S = &B->rows[l];
        int s;
        if (S->nrows[j] >= 0.0f) {
            s = hs_block_plan_rows(&w, g, L, S, j);
        } else {
            const hs_kq kq = hs_block_kq(B, j, sem);
            s = HS_FN(block_plan_level)(&w, &kq, L);
        }
        if (s) {
            B->nitems = nitems0;
            return s;
        }
    }
    return 0;
}
