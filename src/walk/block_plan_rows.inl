/* SPDX-License-Identifier: MIT */
/* Internal: the block's plan (step 3 of block.inl), one for every mode and ISA level: on each
 * level, row k of every slot set up for it (hs_row_setup) is planned HS_W slots per vector, its
 * runs kept where the occupancy bits do not show them empty, and listed as items.
 *   - closest and any test the list after each row and drop the slots answered (any: a hit;
 *     closest: a best t below the row's exit bound), so they stop where the per-query walk
 *     stops; closest walks a slot's rows in its query's y direction;
 *   - count plans every row, and tests the list whenever it fills;
 *   - all plans the whole block before any test (its hits must come out in query order): the
 *     items are tested once and their hits moved to their slots' places (hs_brows_all_hits);
 *     a block whose items do not fit is planned slot by slot instead (block_plan.inl).
 * Slots without a row set-up on some level (block.inl) are planned slot by slot, or walked
 * alone. Part of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* The row plan's working state on one level: per slot, the live lanes
 * of each group, the first and last rows that may hold circles (kf, kl), the walk's row k as
 * base + k step and the row last planned; one row's kept runs (HS_W of room past the last for
 * the whole-vector compress). */
typedef struct hs_rows_walk {
    unsigned live[HS_BLOCK_GROUPS];
    float kf[HS_BLOCK_Q], kl[HS_BLOCK_Q], base[HS_BLOCK_Q], step[HS_BLOCK_Q], row[HS_BLOCK_Q];
    uint32_t kslot[HS_BLOCK_Q + HS_W], kfirst[HS_BLOCK_Q + HS_W], kend[HS_BLOCK_Q + HS_W];
} hs_rows_walk;

/* Slots j0 .. j0 + HS_W - 1's rows on one level (hs_row_setup), one slot a lane. */
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

/* Row r of each lane valid (r below its nrows): its run *first .. *last (the float operations
 * of the slot-by-slot plan, hs_block_plan_rows_of, so the same cells), and the lanes whose run
 * has cells and, with occupancy, may hold a circle (hs_block_run_occupied's test on 4 bytes
 * gathered at each lane's byte; lanes not valid read the first bytes of the bits instead). */
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
    const hs_vi word = hs_vi_gather_bytes_m(L->occ, hs_vi_srli(cell, 3), cells);
    const hs_vi bits = hs_vi_srlv(word, hs_vi_and(cell, hs_vi_set1(7u)));
    const hs_vi n = hs_vi_from_vf(hs_vf_select(cells, hs_vf_min(len, longest), zero));
    const hs_vi run = hs_vi_sub(hs_vi_sllv(one, n), one);
    return hs_vm_and(cells, hs_vm_or(hs_vm_lt(longest, len), hs_vm_test_i(bits, run)));
}

/* The first and last rows that may hold a circle of the lanes ok of slots j0 .. j0 + HS_W - 1,
 * among their rows 0 .. kmax - 1 (kmax at least each lane's nrows), into R's kf and kl
 * (floats: kf = nrows and kl = -1 when no row holds one). */
HS_INLINE void hs_brows_trim_lanes(hs_rows_walk *R, const hs_glevel *L, const hs_row_setup *S,
                                   size_t j0, hs_vm ok, int32_t kmax)
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
    hs_vf_storeu(R->kf + j0, kfirst);
    hs_vf_storeu(R->kl + j0, klast);
}

/* Closest, after row r of level L (an index in the box of rows from row0): circles of the rows
 * still to walk have their centres beyond that row's edge, so a hit on one needs a point of the
 * query (ay, dy) within reach of the edge, at t >= (edge -+ reach - ay) / dy (hs_walk_level's
 * test, in float and the level's coordinates as hs_block_setup: reach's pad covers far more
 * than this rounding, and the bound is shrunk by 2^-20). dy = 0 gives -inf (never done). Being
 * conservative, the bound changes only how many rows are walked, never an answer. */
HS_INLINE hs_vf hs_brows_exit_bound(const hs_glevel *L, hs_vf ay, hs_vf dy, hs_vf reach, hs_vf row0,
                                    hs_vf r)
{
    const hs_vf zero = hs_vf_set1(0.0f);
    const hs_vm up = hs_vm_lt(zero, dy);
    const hs_vf rowf = hs_vf_add(row0, r);
    const hs_vf edge = hs_vf_mul(hs_vf_select(up, hs_vf_add(rowf, hs_vf_set1(1.0f)), rowf),
                                 hs_vf_set1((float)L->h));
    const hs_vf bv = hs_vf_select(up, hs_vf_sub(edge, reach), hs_vf_add(edge, reach));
    const hs_vf tb = hs_vf_div(hs_vf_sub(bv, hs_vf_sub(ay, hs_vf_set1((float)L->oy))), dy);
    const hs_vf bound = hs_vf_sub(tb, hs_vf_mul(hs_vf_abs(tb), hs_vf_set1(0x1p-20f)));
    return hs_vf_select(hs_vm_ne(dy, zero), bound, hs_vf_set1(-INFINITY));
}

/* Of the lanes more (those with rows left), the ones not yet answered: any, no hit (nhits);
 * closest, a best t (best: +inf until a hit, never below the bound) not below the exit bound. */
HS_INLINE hs_vm hs_brows_unanswered(hs_vm more, hs_vi nhits, hs_vf best, hs_vf bound,
                                    const int mode)
{
    if (mode == HS_WALK_ANY)
        return hs_vm_andnot(more, hs_vm_test_i(nhits, nhits));
    if (mode == HS_WALK_CLOSEST)
        return hs_vm_andnot(more, hs_vm_lt(best, bound));
    return more;
}

/* The exit test of slots j0 .. j0 + HS_W - 1 after their rows R->row (the walk's k-th row,
 * kv): the lanes of `lanes` with rows left and, for any and closest, not yet answered. */
HS_INLINE hs_vm hs_brows_more_lanes(const hs_bw W, const hs_rows_walk *R, const hs_glevel *L,
                                    const hs_row_setup *S, size_t j0, hs_vm lanes, hs_vf kv)
{
    const hs_block *B = W.B;
    const hs_vm more =
        hs_vm_and(lanes, hs_vm_lt(kv, hs_vf_sub(hs_vf_loadu(R->kl + j0), hs_vf_loadu(R->kf + j0))));
    if (W.mode == HS_WALK_COUNT || W.mode == HS_WALK_ALL)
        return more;
    const hs_vf bound =
        W.mode == HS_WALK_CLOSEST
            ? hs_brows_exit_bound(L, hs_vf_loadu(B->ay + j0), hs_vf_loadu(B->dy + j0),
                                  hs_vf_loadu(S->reach + j0), hs_vf_loadu(S->row0 + j0),
                                  hs_vf_loadu(R->row + j0))
            : hs_vf_set1(0.0f);
    return hs_brows_unanswered(more, hs_vi_loadu(B->nhits + j0),
                               hs_vf_bits_of(hs_vi_loadu(B->best_tbits + j0)), bound, W.mode);
}

/* The runs [b, b + len) of the slots q on the lanes act: one item per run and HS_W circles,
 * compressed into the list. Count, any and closest fold their hits whatever the order of the
 * items, so a full list is tested on the spot; all returns 1 instead. */
HS_INLINE int hs_brows_add_runs_v(const hs_bw W, hs_vi b, hs_vi len, hs_vi q, hs_vm act)
{
    hs_block *B = W.B;
    const hs_vi w = hs_vi_set1(HS_W), one = hs_vi_set1(1);
    act = hs_vm_and(act, hs_vm_test_i(len, len));
    while (hs_vm_bits(act)) { /* one item per run; runs past HS_W circles go round again */
        if (B->nitems > HS_BLOCK_ITEMS - HS_W) {
            if (W.mode == HS_WALK_ALL)
                return 1;
            (void)hs_block_drain(W);
        }
        const hs_vi nn = hs_vi_min(len, w);
        const hs_vi lanes = hs_vi_sub(hs_vi_sllv(one, nn), one);
        HS_ASSERT(B->nitems + HS_W <= HS_BLOCK_ITEMS); /* a whole vector of items stored */
        hs_vi_compress_pairs(B->items + B->nitems, act, b, hs_vi_or(q, hs_vi_slli(lanes, 16)));
        B->nitems += (size_t)__builtin_popcount(hs_vm_bits(act));
        b = hs_vi_add(b, w);
        len = hs_vi_sub(len, nn);
        act = hs_vm_and(act, hs_vm_test_i(len, len));
    }
    return 0;
}

/* The run [b, e) of slot j as items (hs_walk_plan_run), its circles prefetched: the narrow
 * levels' form of hs_brows_add_runs_v, with the same contract. */
HS_INLINE int hs_brows_add_run(const hs_bw W, size_t j, uint32_t b, uint32_t e)
{
    hs_block *B = W.B;
    hs_walk w;
    w.blk = B;
    w.slot = j;
    hs_prefetch(W.g->x + b);
    hs_prefetch(W.g->y + b);
    hs_prefetch(W.g->r + b);
    while (hs_walk_plan_run(&w, b, e)) {
        if (W.mode == HS_WALK_ALL)
            return 1;
        if (B->nitems == 0) { /* a run longer than the whole list: one list at a time */
            const uint32_t m = b + (uint32_t)(HS_BLOCK_ITEMS * HS_W);
            (void)hs_walk_plan_run(&w, b, m);
            b = m;
        }
        (void)hs_block_drain(W);
    }
    return 0;
}

/* Row k's kept runs from c on (R's kslot, kfirst, kend; n of them, HS_W at most taken; the
 * words past n are readable cells): their cell_start reads, then their items. */
HS_INLINE int hs_brows_add_runs(const hs_bw W, const hs_rows_walk *R, const uint32_t *cs, size_t c,
                                size_t n)
{
    const hs_vm act = hs_vm_first(n < (size_t)HS_W ? n : (size_t)HS_W);
    const hs_vi b = hs_vi_gather_m(cs, hs_vi_loadu(R->kfirst + c), act);
    const hs_vi e = hs_vi_gather_m(cs, hs_vi_loadu(R->kend + c), act);
    return hs_brows_add_runs_v(W, b, hs_vi_sub(e, b), hs_vi_loadu(R->kslot + c), act);
}

/* Level L from row k on for the lanes act of the slots q, once the lanes still walking fit in
 * one vector: each row then costs one vector of planning instead of one per group. Their rows
 * (R's kf, kl, base, step) and set-up are gathered once; row k's exit test is done (act holds
 * the lanes that walk it). 1: all's list is full. */
HS_INLINE int hs_brows_walk_few(const hs_bw W, const hs_rows_walk *R, const hs_glevel *L,
                                const hs_row_setup *S, hs_vi q, hs_vm act, int32_t k)
{
    hs_block *B = W.B;
    hs_rows_lanes V;
    V.nrows = hs_vf_gather(S->nrows, q);
    V.row0 = hs_vf_gather(S->row0, q);
    V.pos0 = hs_vf_gather(S->pos0, q);
    V.pos_step = hs_vf_gather(S->pos_step, q);
    V.first_off = hs_vf_gather(S->first_off, q);
    V.last_off = hs_vf_gather(S->last_off, q);
    V.first_min = hs_vf_gather(S->first_min, q);
    V.first_max = hs_vf_gather(S->first_max, q);
    V.last_min = hs_vf_gather(S->last_min, q);
    V.last_max = hs_vf_gather(S->last_max, q);
    const hs_vf span = hs_vf_sub(hs_vf_gather(R->kl, q), hs_vf_gather(R->kf, q));
    const hs_vf bs = hs_vf_gather(R->base, q), st = hs_vf_gather(R->step, q);
    const hs_vf ay = hs_vf_gather(B->ay, q), dy = hs_vf_gather(B->dy, q);
    const hs_vf reach = hs_vf_gather(S->reach, q);
    const hs_vf zero = hs_vf_set1(0.0f);
    const hs_vi nxv = hs_vi_set1((uint32_t)L->nx), onei = hs_vi_set1(1u);
    const uint32_t *cs = W.g->cell_start + L->cell0;
    hs_vf r = zero;
    for (int first_row = 1;; k++, first_row = 0) {
        if (!first_row) {
            const hs_vm more = hs_vm_and(act, hs_vm_lt(hs_vf_set1((float)(k - 1)), span));
            const hs_vf bound =
                W.mode == HS_WALK_CLOSEST ? hs_brows_exit_bound(L, ay, dy, reach, V.row0, r) : zero;
            act = W.mode == HS_WALK_COUNT || W.mode == HS_WALK_ALL
                      ? more
                      : hs_brows_unanswered(more, hs_vi_gather(B->nhits, q),
                                            hs_vf_bits_of(hs_vi_gather(B->best_tbits, q)), bound,
                                            W.mode);
        }
        if (!hs_vm_bits(act))
            return 0;
        r = hs_vf_add(bs, hs_vf_mul(hs_vf_set1((float)k), st));
        hs_vf first, last;
        const hs_vm kept =
            hs_brows_kept_lanes(L, &V, r, act, &first, &last, HS_TF_HAS(W.tf, HS_TF_OCC));
        /* lanes not kept read cell_start at their row's cells 0 and 1 */
        const hs_vi cell =
            hs_vi_mullo(hs_vi_from_vf(hs_vf_select(kept, hs_vf_add(V.row0, r), zero)), nxv);
        const hs_vi ia = hs_vi_add(cell, hs_vi_from_vf(hs_vf_select(kept, first, zero)));
        const hs_vi ib =
            hs_vi_add(hs_vi_add(cell, hs_vi_from_vf(hs_vf_select(kept, last, zero))), onei);
        const hs_vi b = hs_vi_gather_m(cs, ia, kept);
        if (hs_brows_add_runs_v(W, b, hs_vi_sub(hs_vi_gather_m(cs, ib, kept), b), q, kept))
            return 1;
        if (W.mode == HS_WALK_CLOSEST || W.mode == HS_WALK_ANY) /* the exit test needs them */
            (void)hs_block_drain(W);
    }
}

/* The exit test of the live groups' row k - 1 (bit u of `groups`: group u has live lanes);
 * returns the groups left and their lanes' number in *nlive. */
HS_INLINE uint64_t hs_brows_exit_test(const hs_bw W, hs_rows_walk *R, const hs_glevel *L,
                                      const hs_row_setup *S, uint64_t groups, int32_t k,
                                      unsigned *nlive)
{
    unsigned *live = R->live;
    const hs_vf prev = hs_vf_set1((float)(k - 1));
    uint64_t next = 0;
    *nlive = 0;
    for (uint64_t m = groups; m != 0; m &= m - 1u) {
        const size_t u = (size_t)__builtin_ctzll(m);
        live[u] =
            hs_vm_bits(hs_brows_more_lanes(W, R, L, S, u * HS_W, hs_vm_from_bits(live[u]), prev));
        next |= (uint64_t)(live[u] != 0) << u;
        *nlive += (unsigned)__builtin_popcount(live[u]);
    }
    return next;
}

/* The live groups' lanes packed into one vector of slots (they fit: R's kslot has room). */
HS_INLINE hs_vi hs_brows_pack_live(hs_rows_walk *R, uint64_t groups, size_t *np)
{
    size_t n = 0;
    for (uint64_t m = groups; m != 0; m &= m - 1u) {
        const size_t u = (size_t)__builtin_ctzll(m);
        hs_vi_compress(R->kslot + n, hs_vm_from_bits(R->live[u]), hs_vi_iota((uint32_t)(u * HS_W)));
        n += (size_t)__builtin_popcount(R->live[u]);
    }
    hs_vi_storeu(R->kslot + n, hs_vi_set1(0)); /* lanes past them read slot 0 */
    *np = n;
    return hs_vi_loadu(R->kslot);
}

/* Row k of the live groups: each lane's run, the kept ones compressed into one list across the
 * groups (slot, first cell, end cell: cell indices fit 32 bits, as the occupancy gather's do);
 * returns their number. */
HS_INLINE size_t hs_brows_plan_row(const hs_bw W, hs_rows_walk *R, const hs_glevel *L,
                                   const hs_row_setup *S, uint64_t groups, int32_t k)
{
    const hs_vf kv = hs_vf_set1((float)k);
    const hs_vi nxv = hs_vi_set1((uint32_t)L->nx), onei = hs_vi_set1(1u);
    size_t nk = 0;
    for (uint64_t m = groups; m != 0; m &= m - 1u) {
        const size_t u = (size_t)__builtin_ctzll(m), j0 = u * HS_W;
        const hs_rows_lanes V = hs_brows_lanes(S, j0);
        const hs_vf r =
            hs_vf_add(hs_vf_loadu(R->base + j0), hs_vf_mul(kv, hs_vf_loadu(R->step + j0)));
        hs_vf_storeu(R->row + j0, r);
        hs_vf first, last;
        const hs_vm kept = hs_brows_kept_lanes(L, &V, r, hs_vm_from_bits(R->live[u]), &first, &last,
                                               HS_TF_HAS(W.tf, HS_TF_OCC));
        const hs_vi cell = hs_vi_mullo(hs_vi_from_vf(hs_vf_add(V.row0, r)), nxv);
        HS_ASSERT(nk + HS_W <= HS_BLOCK_Q + HS_W); /* a whole vector stored at nk */
        hs_vi_compress(R->kslot + nk, kept, hs_vi_iota((uint32_t)j0));
        hs_vi_compress(R->kfirst + nk, kept, hs_vi_add(cell, hs_vi_from_vf(first)));
        hs_vi_compress(R->kend + nk, kept, hs_vi_add(hs_vi_add(cell, hs_vi_from_vf(last)), onei));
        nk += (size_t)__builtin_popcount(hs_vm_bits(kept));
    }
    /* lanes past nk read cell 0: the gathers stay inside cell_start */
    hs_vi_storeu(R->kfirst + nk, hs_vi_set1(0));
    hs_vi_storeu(R->kend + nk, hs_vi_set1(0));
    return nk;
}

/* The row loop of hs_brows_level_of, W slots a vector: R->live[u] holds the lanes of slots
 * u * HS_W .. still to walk, each between its rows kf and kl. Row k of every live slot is
 * planned; closest and any then drain the list and drop the slots answered. 1: all's list is
 * full. Only the groups with live lanes are visited, each once a row: the exit test of its row
 * k - 1, then the plan of its row k, whose runs read one cell_start pair each, so the row
 * plan's own data-dependent branches are its loops' exits. */
HS_INLINE int hs_brows_walk_lanes(const hs_bw W, hs_rows_walk *R, const hs_glevel *L,
                                  const hs_row_setup *S)
{
    const hs_vf zero = hs_vf_set1(0.0f), one = hs_vf_set1(1.0f);
    uint64_t groups = 0; /* bit u: group u has live lanes (HS_BLOCK_GROUPS <= 64) */
    for (size_t u = 0; u < HS_BLOCK_GROUPS; u++) {
        if (R->live[u] == 0)
            continue;
        const size_t j0 = u * HS_W;
        const hs_vf f = hs_vf_loadu(R->kf + j0), l = hs_vf_loadu(R->kl + j0);
        /* closest walks a slot's rows in its query's y direction */
        const hs_vm down = W.mode == HS_WALK_CLOSEST ? hs_vm_lt(hs_vf_loadu(W.B->dy + j0), zero)
                                                     : hs_vm_lt(one, zero);
        hs_vf_storeu(R->base + j0, hs_vf_select(down, l, f));
        hs_vf_storeu(R->step + j0, hs_vf_select(down, hs_vf_neg(one), one));
        groups |= (uint64_t)1 << u;
    }
    const uint32_t *cs = W.g->cell_start + L->cell0;
    for (int32_t k = 0; groups != 0; k++) {
        if (k > 0) {
            unsigned nlive;
            groups = hs_brows_exit_test(W, R, L, S, groups, k, &nlive);
            if (HS_W >= 8 && nlive <= HS_W && (groups & (groups - 1u)) != 0) {
                size_t np;
                const hs_vi q = hs_brows_pack_live(R, groups, &np);
                return hs_brows_walk_few(W, R, L, S, q, hs_vm_first(np), k);
            }
        }
        const size_t nk = hs_brows_plan_row(W, R, L, S, groups, k);
        if (HS_W >= 8) { /* gathers and compresses in hardware: HS_W runs at a time */
            for (size_t c = 0; c < nk; c += HS_W)
                if (hs_brows_add_runs(W, R, cs, c, nk - c))
                    return 1;
        } else { /* emulated lane by lane: one run at a time costs less */
            for (size_t i = 0; i < nk; i++)
                if (hs_brows_add_run(W, R->kslot[i], cs[R->kfirst[i]], cs[R->kend[i]]))
                    return 1;
        }
        if (W.mode == HS_WALK_CLOSEST || W.mode == HS_WALK_ANY) /* the exit test needs them */
            (void)hs_block_drain(W);
    }
    return 0;
}

/* Level L for the lanes rows[u] of the groups (u: slots u HS_W ..), row by row across them,
 * each slot's rows trimmed to those whose runs may hold a circle (with HS_TF_OCC in W.tf: the
 * level has occupancy bits); any skips the slots it has answered. 1: all's list is full. */
HS_INLINE int hs_brows_level_of(const hs_bw W, const hs_glevel *L, const hs_row_setup *S,
                                const unsigned *rows)
{
    hs_rows_walk rw, *R = &rw; /* on the stack: the compiler then knows nothing else aliases it */
    const hs_vf zero = hs_vf_set1(0.0f), one = hs_vf_set1(1.0f);
    for (size_t u = 0; u < HS_BLOCK_GROUPS; u++) {
        const size_t j0 = u * HS_W;
        R->live[u] = rows[u];
        if (R->live[u] == 0)
            continue;
        const hs_vf nr = hs_vf_loadu(S->nrows + j0);
        hs_vm m = hs_vm_and(hs_vm_from_bits(R->live[u]), hs_vm_le(one, nr));
        if (W.mode == HS_WALK_ANY) {
            const hs_vi h = hs_vi_loadu(W.B->nhits + j0);
            m = hs_vm_andnot(m, hs_vm_test_i(h, h));
        }
        R->live[u] = hs_vm_bits(m);
        if (HS_TF_HAS(W.tf, HS_TF_OCC) && R->live[u] != 0) {
            float nrs[HS_W];
            hs_vf_storeu(nrs, hs_vf_select(m, nr, zero));
            float kmax = 0.0f;
            for (size_t i = 0; i < (size_t)HS_W; i++)
                kmax = nrs[i] > kmax ? nrs[i] : kmax;
            hs_brows_trim_lanes(R, L, S, j0, m, (int32_t)kmax);
            R->live[u] &= hs_vm_bits(hs_vm_le(hs_vf_loadu(R->kf + j0), hs_vf_loadu(R->kl + j0)));
        } else {
            hs_vf_storeu(R->kf + j0, zero);
            hs_vf_storeu(R->kl + j0, hs_vf_sub(nr, one));
        }
    }
    return hs_brows_walk_lanes(W, R, L, S);
}

HS_INLINE int hs_brows_level(hs_bw W, const hs_glevel *L, const hs_row_setup *S,
                             const unsigned *rows)
{
    if (L->occ == NULL)
        return hs_brows_level_of(W, L, S, rows);
    W.tf |= HS_TF_OCC;
    return hs_brows_level_of(W, L, S, rows);
}

/* A prepared block, every mode: the live slots set up on every level with circles row by row
 * (hs_brows_level), the others slot by slot, then every slot answered. 1 done, -1 out of
 * memory, 0 when all's list could not hold the whole block (nothing answered: the block is
 * then planned slot by slot). */
HS_INLINE int hs_block_answer_by_rows(const hs_bw W)
{
    hs_block *B = W.B;
    const hs_grid *g = W.g;
    /* rows[u]: the live slots of group u set up on every level with circles; rest: the others */
    unsigned rows[HS_BLOCK_GROUPS];
    uint64_t rest = 0;
    size_t ngroups = 0; /* groups with such slots */
    for (size_t u = 0; u * HS_W < B->nq; u++) {
        const size_t j0 = u * HS_W, k = B->nq - j0 < (size_t)HS_W ? B->nq - j0 : (size_t)HS_W;
        unsigned live = 0;
        for (size_t i = 0; i < k; i++)
            live |= (unsigned)(B->state[j0 + i] == HS_SLOT_LIVE) << i;
        hs_vm set = hs_vm_from_bits(live);
        for (int l = 0; l < g->nlevels; l++)
            if (g->lv[l].n != 0)
                set =
                    hs_vm_and(set, hs_vm_le(hs_vf_set1(0.0f), hs_vf_loadu(B->rows[l].nrows + j0)));
        rows[u] = hs_vm_bits(set);
        rest |= (uint64_t)(live & ~rows[u]) << j0;
        ngroups += rows[u] != 0;
    }
    for (size_t u = (B->nq + HS_W - 1) / HS_W; u < HS_BLOCK_GROUPS; u++)
        rows[u] = 0;
    const int big_first = hs_block_big_first(g, W.mode);
    for (int ll = 0; ll < g->nlevels && ngroups > 0; ll++) {
        const int l = big_first ? g->nlevels - 1 - ll : ll;
        if (g->lv[l].n != 0 && !((B->apart >> l) & 1u) &&
            hs_brows_level(W, &g->lv[l], &B->rows[l], rows)) {
            B->nitems = 0; /* all's list is full: nothing was tested */
            return 0;
        }
    }
    if (W.mode == HS_WALK_ALL) {
        for (uint64_t m = rest; m != 0; m &= m - 1u)
            if (hs_block_plan_slot(B, g, (size_t)__builtin_ctzll(m), W.sem)) {
                B->nitems = 0;
                return 0;
            }
        const hs_status st = hs_brows_all_hits(W);
        hs_block_answer(W, B->nq, st);
        return st == HS_OK ? 1 : -1;
    }
    for (uint64_t m = rest; m != 0; m &= m - 1u)
        hs_block_plan_or_walk(W, (size_t)__builtin_ctzll(m));
    (void)hs_block_drain(W);
    hs_block_answer(W, B->nq, HS_OK);
    return 1;
}
