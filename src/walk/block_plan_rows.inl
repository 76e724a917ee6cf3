/* SPDX-License-Identifier: MIT */
/* Internal: closest's and any's plan on the ISA levels without AVX-512's vector plan (SSE4.2,
 * AVX2, NEON, scalar; step 3 of block.inl): row k of every slot is planned slot by slot, the list
 * tested, and the slots answered are dropped before row k + 1 (any: a hit; closest: a best t
 * below the exit bound of row k). The slot-by-slot plan (block_plan.inl) tests every row of a
 * query; this one stops where the per-query walk stops. Part of the per-ISA walk
 * (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

#ifndef HS_BLOCK_VPLAN

/* Slot j's rows on one level (hs_row_setup), read for each row walked. The row's run below
 * takes the float operations of hs_block_plan_rows_of (block_plan.inl), so the same cells. */
typedef struct hs_slot_rows {
    int32_t nrows;
    float pos0, pos_step, first_off, last_off, first_min, first_max, last_min, last_max;
    size_t cell0; /* the first row's first cell, in the level */
    size_t nx;
} hs_slot_rows;

HS_INLINE hs_slot_rows hs_block_slot_rows(const hs_glevel *L, const hs_row_setup *S, size_t j)
{
    hs_slot_rows R;
    R.nrows = (int32_t)S->nrows[j];
    R.pos0 = S->pos0[j];
    R.pos_step = S->pos_step[j];
    R.first_off = S->first_off[j];
    R.last_off = S->last_off[j];
    R.first_min = S->first_min[j];
    R.first_max = S->first_max[j];
    R.last_min = S->last_min[j];
    R.last_max = S->last_max[j];
    R.nx = (size_t)L->nx;
    R.cell0 = (size_t)(int32_t)S->row0[j] * R.nx;
    return R;
}

/* Row k (0 .. nrows-1) of R: its run of cells, first .. last of the row (none if first > last). */
HS_INLINE void hs_block_row_cells(const hs_slot_rows *R, int32_t k, int32_t *first, int32_t *last)
{
    const float pos = R->pos0 + (float)k * R->pos_step;
    *first = (int32_t)hs_block_minf(hs_block_maxf(pos + R->first_off, R->first_min), R->first_max);
    *last = (int32_t)hs_block_minf(hs_block_maxf(pos + R->last_off, R->last_min), R->last_max);
}

/* Whether row k's run first .. last of R may hold a circle: it has cells and, with occupancy (a
 * constant of the caller's loop: 1 when the level has occupancy bits), they do not show it
 * empty. */
HS_INLINE int hs_block_row_kept(const hs_glevel *L, const hs_slot_rows *R, int32_t k, int32_t first,
                                int32_t last, const int occupancy)
{
    return first <= last && (!occupancy || hs_block_run_occupied(
                                               L->occ, R->cell0 + (size_t)k * R->nx + (size_t)first,
                                               (uint32_t)(last - first + 1)));
}

/* The run [b, e) of slot j as items (hs_walk_plan_run). Closest and any fold their hits
 * whatever the order of the items, so a full list is tested on the spot; a run longer than
 * the whole list goes in one list at a time. */
HS_INLINE void hs_brows_add_run(hs_block *B, const hs_grid *g, size_t j, uint32_t b, uint32_t e,
                                const int mode, hs_tally *acc, const int thick, const int boundary,
                                const int usemask)
{
    hs_walk w;
    w.blk = B;
    w.slot = j;
    hs_prefetch(g->x + b);
    hs_prefetch(g->y + b);
    hs_prefetch(g->r + b);
    while (hs_walk_plan_run(&w, b, e)) {
        if (B->nitems == 0) {
            const uint32_t m = b + (uint32_t)(HS_BLOCK_ITEMS * HS_W);
            (void)hs_walk_plan_run(&w, b, m);
            b = m;
        }
        (void)hs_block_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
    }
}

/* Closest, slot j after row `row` (an index in its level's box, hs_row_setup) of level L:
 * circles of the rows still to walk have their centres beyond that row's edge, so a hit on
 * one needs a point of the query within reach of the edge, at t >= (edge -+ reach - ay) / dy
 * (hs_walk_level's test, in float: reach's margin covers far more than this rounding, and
 * the bound is shrunk by 2^-20). dy = 0 gives -inf (never done). Being conservative, the
 * bound changes only how many rows are walked, never an answer. */
HS_INLINE float hs_brows_exit_bound(const hs_block *B, const hs_glevel *L, const hs_row_setup *S,
                                    size_t j, int32_t row)
{
    const float dy = B->dy[j];
    if (dy == 0.0f)
        return -INFINITY;
    const int up = dy > 0.0f;
    const float rowf = S->row0[j] + (float)row;
    const float edge = (up ? rowf + 1.0f : rowf) * (float)L->h + (float)L->oy;
    const float bv = up ? edge - S->reach[j] : edge + S->reach[j];
    const float tb = (bv - B->ay[j]) / dy;
    return tb - fabsf(tb) * 0x1p-20f;
}

/* Slot j's rows to walk on level L, *kfirst .. *klast of its nrows: with occupancy, its first
 * and last rows whose run may hold a circle (none: *kfirst > *klast), so that the rows outside
 * them, which hold none, cost one check each here and nothing in the row loop; without, every
 * row. The scalar level's trim, and the reference of the vector one (hs_brows_trim_lanes). */
HS_INLINE void hs_brows_trim(const hs_glevel *L, const hs_slot_rows *R, const int occupancy,
                             int32_t *kfirst, int32_t *klast)
{
    *kfirst = 0;
    *klast = R->nrows - 1;
    if (!occupancy)
        return;
    int32_t k = 0;
    for (; k < R->nrows; k++) {
        int32_t first, last;
        hs_block_row_cells(R, k, &first, &last);
        if (hs_block_row_kept(L, R, k, first, last, 1))
            break;
    }
    *kfirst = k;
    for (k = R->nrows - 1; k > *kfirst; k--) {
        int32_t first, last;
        hs_block_row_cells(R, k, &first, &last);
        if (hs_block_row_kept(L, R, k, first, last, 1))
            break;
    }
    *klast = k < *kfirst ? *kfirst - 1 : k;
}

#if HS_W == 4 || HS_W == 8
/* Slots j0 .. j0 + HS_W - 1's rows on one level: hs_slot_rows, one slot a lane. */
typedef struct hs_rows_lanes {
    hs_vf nrows, row0, pos0, pos_step, first_off, last_off, first_min, first_max, last_min,
        last_max;
} hs_rows_lanes;

HS_INLINE hs_rows_lanes hs_brows_lanes(const hs_row_setup *S, size_t j0)
{
    hs_rows_lanes V;
    V.nrows = hs_vf_loadu(S->nrows + j0);
    V.row0 = hs_vf_loadu(S->row0 + j0);
    V.pos0 = hs_vf_loadu(S->pos0 + j0);
    V.pos_step = hs_vf_loadu(S->pos_step + j0);
    V.first_off = hs_vf_loadu(S->first_off + j0);
    V.last_off = hs_vf_loadu(S->last_off + j0);
    V.first_min = hs_vf_loadu(S->first_min + j0);
    V.first_max = hs_vf_loadu(S->first_max + j0);
    V.last_min = hs_vf_loadu(S->last_min + j0);
    V.last_max = hs_vf_loadu(S->last_max + j0);
    return V;
}

/* Row r of each lane valid (r below its nrows): its run *first .. *last (hs_block_row_cells'
 * float operations, so the same cells), and the lanes where hs_block_row_kept holds (with
 * occupancy the same bits, 4 bytes gathered at each lane's byte; lanes not valid read the
 * first bytes of the bits instead). */
HS_INLINE hs_vm hs_brows_kept_lanes(const hs_glevel *L, const hs_rows_lanes *V, hs_vf r,
                                    hs_vm valid, hs_vf *first, hs_vf *last, const int occupancy)
{
    const hs_vf pos = hs_vf_add(V->pos0, hs_vf_mul(r, V->pos_step));
    *first =
        hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_add(pos, V->first_off), V->first_min), V->first_max));
    *last =
        hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_add(pos, V->last_off), V->last_min), V->last_max));
    const hs_vm cells = hs_vm_and(valid, hs_vm_le(*first, *last));
    if (!occupancy)
        return cells;
    const hs_vf zero = hs_vf_set1(0.0f), longest = hs_vf_set1((float)HS_OCC_RUN_MAX);
    const hs_vi one = hs_vi_set1(1u);
    const hs_vf len = hs_vf_add(hs_vf_sub(*last, *first), hs_vf_set1(1.0f));
    const hs_vi cell =
        hs_vi_add(hs_vi_mullo(hs_vi_from_vf(hs_vf_select(valid, hs_vf_add(V->row0, r), zero)),
                              hs_vi_set1((uint32_t)L->nx)),
                  hs_vi_from_vf(hs_vf_select(valid, *first, zero)));
    const hs_vi word = hs_vi_gather_bytes(L->occ, hs_vi_srli(cell, 3));
    const hs_vi bits = hs_vi_srlv(word, hs_vi_and(cell, hs_vi_set1(7u)));
    const hs_vi n = hs_vi_from_vf(hs_vf_select(cells, hs_vf_min(len, longest), zero));
    const hs_vi run = hs_vi_sub(hs_vi_sllv(one, n), one);
    return hs_vm_and(cells, hs_vm_or(hs_vm_lt(longest, len), hs_vm_test_i(bits, run)));
}

/* hs_brows_trim of the lanes ok of slots j0 .. j0 + HS_W - 1, their rows 0 .. kmax - 1 (kmax
 * at least each lane's nrows) in one pass, W rows at a time, so the same rows. Into kf and kl
 * (floats: kf = nrows and kl = -1 when no row holds a circle). */
HS_INLINE void hs_brows_trim_lanes(const hs_glevel *L, const hs_row_setup *S, size_t j0, hs_vm ok,
                                   int32_t kmax, float *kf, float *kl)
{
    const hs_rows_lanes V = hs_brows_lanes(S, j0);
    const hs_vf zero = hs_vf_set1(0.0f);
    hs_vf kfirst = V.nrows, klast = hs_vf_set1(-1.0f);
    for (int32_t k = 0; k < kmax; k++) {
        const hs_vf kv = hs_vf_set1((float)k);
        hs_vf first, last;
        const hs_vm kept =
            hs_brows_kept_lanes(L, &V, kv, hs_vm_and(ok, hs_vm_lt(kv, V.nrows)), &first, &last, 1);
        /* a lane has found its first row once klast >= 0 */
        kfirst = hs_vf_select(hs_vm_andnot(kept, hs_vm_le(zero, klast)), kv, kfirst);
        klast = hs_vf_select(kept, kv, klast);
    }
    hs_vf_storeu(kf + j0, kfirst);
    hs_vf_storeu(kl + j0, klast);
}

/* hs_brows_exit_bound of slots j0 .. j0 + HS_W - 1 after their rows r: the same float
 * operations, one slot a lane. */
HS_INLINE hs_vf hs_brows_exit_bound_lanes(const hs_block *B, const hs_glevel *L,
                                          const hs_row_setup *S, size_t j0, hs_vf r)
{
    const hs_vf zero = hs_vf_set1(0.0f);
    const hs_vf dy = hs_vf_loadu(B->dy + j0), reach = hs_vf_loadu(S->reach + j0);
    const hs_vm up = hs_vm_lt(zero, dy);
    const hs_vf rowf = hs_vf_add(hs_vf_loadu(S->row0 + j0), r);
    const hs_vf edge =
        hs_vf_add(hs_vf_mul(hs_vf_select(up, hs_vf_add(rowf, hs_vf_set1(1.0f)), rowf),
                            hs_vf_set1((float)L->h)),
                  hs_vf_set1((float)L->oy));
    const hs_vf bv = hs_vf_select(up, hs_vf_sub(edge, reach), hs_vf_add(edge, reach));
    const hs_vf tb = hs_vf_div(hs_vf_sub(bv, hs_vf_loadu(B->ay + j0)), dy);
    const hs_vf bound = hs_vf_sub(tb, hs_vf_mul(hs_vf_abs(tb), hs_vf_set1(0x1p-20f)));
    return hs_vf_select(hs_vm_ne(dy, zero), bound, hs_vf_set1(-INFINITY));
}

/* The exit test of slots j0 .. j0 + HS_W - 1 after their rows `row` (the walk's k-th row,
 * kv): the lanes of `lanes` with rows left and not yet answered (any: a hit; closest: a best
 * below the row's exit bound). */
HS_INLINE hs_vm hs_brows_more_lanes(const hs_block *B, const hs_glevel *L, const hs_row_setup *S,
                                    size_t j0, hs_vm lanes, hs_vf kv, hs_vf row, const float *kf,
                                    const float *kl, const int mode)
{
    const hs_vm more =
        hs_vm_and(lanes, hs_vm_lt(kv, hs_vf_sub(hs_vf_loadu(kl + j0), hs_vf_loadu(kf + j0))));
    if (mode == HS_WALK_ANY) {
        const hs_vi n = hs_vi_loadu(B->nhits + j0);
        return hs_vm_andnot(more, hs_vm_test_i(n, n));
    }
    /* best is +inf until a hit: never below the bound */
    const hs_vf best = HS_CAST_PS(hs_vi_loadu(B->best_tbits + j0));
    return hs_vm_andnot(more, hs_vm_lt(best, hs_brows_exit_bound_lanes(B, L, S, j0, row)));
}

/* The row loop of hs_brows_level_of, W slots a vector: live[u] holds the lanes of slots
 * u * HS_W .. still to walk, each between its rows kf and kl. Row k of every live slot is
 * planned, the list drained, and the slots answered dropped, as the scalar loop does; the
 * plan's arithmetic and the exit test take a vector. Only the groups with live lanes are
 * visited (bit u of `groups`), each once a row: the exit test of its row k - 1, then the plan
 * of its row k. The row's kept runs are compressed into one list across the groups (slot,
 * first cell, end cell: cell indices fit 32 bits, as the occupancy gather's do) and read one
 * cell_start pair each, so the row plan's own data-dependent branches are its two loops' exits. */
HS_INLINE void hs_brows_walk_lanes(hs_block *B, const hs_grid *g, const hs_glevel *L,
                                   const hs_row_setup *S, unsigned *live, const float *kf,
                                   const float *kl, const int mode, hs_tally *acc, const int thick,
                                   const int boundary, const int usemask, const int occupancy)
{
    float base[HS_BLOCK_Q], step[HS_BLOCK_Q], row[HS_BLOCK_Q];
    /* one row's kept runs; HS_W of room past the last for the whole-vector compress */
    uint32_t kslot[HS_BLOCK_Q + HS_W], kfirst[HS_BLOCK_Q + HS_W], kend[HS_BLOCK_Q + HS_W];
    const hs_vf zero = hs_vf_set1(0.0f), one = hs_vf_set1(1.0f);
    const hs_vi nxv = hs_vi_set1((uint32_t)L->nx), onei = hs_vi_set1(1u);
    unsigned groups = 0;
    for (size_t u = 0; u < HS_BLOCK_Q / HS_W; u++) {
        if (live[u] == 0)
            continue;
        const size_t j0 = u * HS_W;
        const hs_vf f = hs_vf_loadu(kf + j0), l = hs_vf_loadu(kl + j0);
        /* closest walks a slot's rows in its query's y direction */
        const hs_vm down =
            mode == HS_WALK_CLOSEST ? hs_vm_lt(hs_vf_loadu(B->dy + j0), zero) : hs_vm_lt(one, zero);
        hs_vf_storeu(base + j0, hs_vf_select(down, l, f));
        hs_vf_storeu(step + j0, hs_vf_select(down, hs_vf_neg(one), one));
        groups |= 1u << u;
    }
    const uint32_t *cs = g->cell_start + L->cell0;
    for (int32_t k = 0; groups != 0; k++) {
        const hs_vf kv = hs_vf_set1((float)k), prev = hs_vf_set1((float)(k - 1));
        unsigned next = 0;
        size_t nk = 0;
        for (unsigned m = groups; m != 0; m &= m - 1u) {
            const size_t u = (size_t)__builtin_ctz(m), j0 = u * HS_W;
            hs_vm lanes = hs_vm_from_bits(live[u]);
            if (k > 0)
                lanes = hs_brows_more_lanes(B, L, S, j0, lanes, prev, hs_vf_loadu(row + j0), kf, kl,
                                            mode);
            live[u] = hs_vm_bits(lanes);
            next |= (unsigned)(live[u] != 0) << u;
            const hs_rows_lanes V = hs_brows_lanes(S, j0);
            const hs_vf r =
                hs_vf_add(hs_vf_loadu(base + j0), hs_vf_mul(kv, hs_vf_loadu(step + j0)));
            hs_vf_storeu(row + j0, r);
            hs_vf first, last;
            const hs_vm kept = hs_brows_kept_lanes(L, &V, r, lanes, &first, &last, occupancy);
            const hs_vi cell = hs_vi_mullo(hs_vi_from_vf(hs_vf_add(V.row0, r)), nxv);
            HS_ASSERT(nk + HS_W <= HS_BLOCK_Q + HS_W); /* a whole vector stored at nk */
            hs_vi_compress(kslot + nk, kept, hs_vi_iota((uint32_t)j0));
            hs_vi_compress(kfirst + nk, kept, hs_vi_add(cell, hs_vi_from_vf(first)));
            hs_vi_compress(kend + nk, kept, hs_vi_add(hs_vi_add(cell, hs_vi_from_vf(last)), onei));
            nk += (size_t)__builtin_popcount(hs_vm_bits(kept));
        }
        groups = next;
        for (size_t i = 0; i < nk; i++)
            hs_brows_add_run(B, g, kslot[i], cs[kfirst[i]], cs[kend[i]], mode, acc, thick, boundary,
                             usemask);
        (void)hs_block_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
    }
}
#endif

/* Whether slot j has rows to walk on a level set up as S: any stops at its first hit. */
HS_INLINE int hs_brows_wanted(const hs_block *B, const hs_row_setup *S, size_t j, const int mode)
{
    return S->nrows[j] >= 1.0f && (mode != HS_WALK_ANY || B->nhits[j] == 0);
}

/* Level L for the slots `slots` (n of them), row by row across them, each slot's rows trimmed
 * by hs_brows_trim; occupancy as in hs_block_row_kept. Closest walks a slot's rows in its
 * query's y direction. */
HS_INLINE void hs_brows_level_of(hs_block *B, const hs_grid *g, const hs_glevel *L,
                                 const hs_row_setup *S, const uint8_t *slots, size_t n,
                                 const int mode, hs_tally *acc, const int thick, const int boundary,
                                 const int usemask, const int occupancy)
{
#if HS_W == 4 || HS_W == 8
    unsigned live[HS_BLOCK_Q / HS_W] = {0};
    int32_t kmax[HS_BLOCK_Q / HS_W] = {0};
    for (size_t i = 0; i < n; i++) {
        const size_t j = slots[i];
        if (!hs_brows_wanted(B, S, j, mode))
            continue;
        const int32_t nr = (int32_t)S->nrows[j];
        live[j / HS_W] |= 1u << (j % HS_W);
        kmax[j / HS_W] = nr > kmax[j / HS_W] ? nr : kmax[j / HS_W];
    }
    float kf[HS_BLOCK_Q], kl[HS_BLOCK_Q];
    for (size_t u = 0; u < HS_BLOCK_Q / HS_W; u++) {
        const size_t j0 = u * HS_W;
        if (occupancy && live[u] != 0) {
            hs_brows_trim_lanes(L, S, j0, hs_vm_from_bits(live[u]), kmax[u], kf, kl);
            live[u] &= hs_vm_bits(hs_vm_le(hs_vf_loadu(kf + j0), hs_vf_loadu(kl + j0)));
        } else {
            hs_vf_storeu(kf + j0, hs_vf_set1(0.0f));
            hs_vf_storeu(kl + j0, hs_vf_sub(hs_vf_loadu(S->nrows + j0), hs_vf_set1(1.0f)));
        }
    }
    hs_brows_walk_lanes(B, g, L, S, live, kf, kl, mode, acc, thick, boundary, usemask, occupancy);
#else
    uint8_t act[HS_BLOCK_Q];
    int32_t row[HS_BLOCK_Q], kfirst[HS_BLOCK_Q], klast[HS_BLOCK_Q];
    size_t na = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t j = slots[i];
        if (!hs_brows_wanted(B, S, j, mode))
            continue;
        const hs_slot_rows R = hs_block_slot_rows(L, S, j);
        hs_brows_trim(L, &R, occupancy, &kfirst[j], &klast[j]);
        act[na] = (uint8_t)j;
        na += kfirst[j] <= klast[j];
    }
    const uint32_t *cs = g->cell_start + L->cell0;
    for (int32_t k = 0; na > 0; k++) {
        for (size_t i = 0; i < na; i++) {
            const size_t j = act[i];
            const hs_slot_rows R = hs_block_slot_rows(L, S, j);
            const int32_t r =
                mode == HS_WALK_CLOSEST && B->dy[j] < 0.0f ? klast[j] - k : kfirst[j] + k;
            row[i] = r;
            int32_t first, last;
            hs_block_row_cells(&R, r, &first, &last);
            if (hs_block_row_kept(L, &R, r, first, last, occupancy)) {
                const uint32_t *c = cs + R.cell0 + (size_t)r * R.nx;
                hs_brows_add_run(B, g, j, c[first], c[last + 1], mode, acc, thick, boundary,
                                 usemask);
            }
        }
        (void)hs_block_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
        size_t keep = 0;
        for (size_t i = 0; i < na; i++) {
            const size_t j = act[i];
            int more = k < klast[j] - kfirst[j];
            if (mode == HS_WALK_ANY) {
                more = more && B->nhits[j] == 0;
            } else if (more) {
                float best; /* +inf until a hit: never below the bound, so not computed */
                memcpy(&best, &B->best_tbits[j], sizeof best);
                more = best == INFINITY || !(best < hs_brows_exit_bound(B, L, S, j, row[i]));
            }
            act[keep] = (uint8_t)j;
            keep += (size_t)more;
        }
        na = keep;
    }
#endif
}

HS_INLINE void hs_brows_level(hs_block *B, const hs_grid *g, const hs_glevel *L,
                              const hs_row_setup *S, const uint8_t *slots, size_t n, const int mode,
                              hs_tally *acc, const int thick, const int boundary, const int usemask)
{
    if (L->occ != NULL)
        hs_brows_level_of(B, g, L, S, slots, n, mode, acc, thick, boundary, usemask, 1);
    else
        hs_brows_level_of(B, g, L, S, slots, n, mode, acc, thick, boundary, usemask, 0);
}

/* Closest or any for a prepared block: the live slots set up on every level with circles
 * row by row (hs_brows_level), the others slot by slot, then every slot answered. */
HS_INLINE void hs_block_answer_by_rows(hs_block *B, const hs_grid *g, hs_semantics sem,
                                       const int mode, const hs_block_out *o, hs_tally *acc,
                                       const int thick, const int boundary, const int usemask)
{
    uint8_t rows[HS_BLOCK_Q], rest[HS_BLOCK_Q];
    size_t nrows = 0, nrest = 0;
    for (size_t j = 0; j < B->nq; j++) {
        if (B->state[j] != HS_SLOT_LIVE)
            continue;
        int set = 1;
        for (int l = 0; l < g->nlevels; l++)
            set &= g->lv[l].n == 0 || B->rows[l].nrows[j] >= 0.0f;
        if (set)
            rows[nrows++] = (uint8_t)j;
        else
            rest[nrest++] = (uint8_t)j;
    }
    const int big_first = hs_block_big_first(g, mode);
    for (int ll = 0; ll < g->nlevels && nrows > 0; ll++) {
        const int l = big_first ? g->nlevels - 1 - ll : ll;
        if (g->lv[l].n != 0)
            hs_brows_level(B, g, &g->lv[l], &B->rows[l], rows, nrows, mode, acc, thick, boundary,
                           usemask);
    }
    for (size_t i = 0; i < nrest; i++)
        hs_block_plan_or_walk(B, g, rest[i], sem, mode, o, acc, thick, boundary, usemask);
    (void)hs_block_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
    hs_block_answer(B, g, B->nq, sem, mode, o, HS_OK);
}

#endif
