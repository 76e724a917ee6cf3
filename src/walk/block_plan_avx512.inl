/* SPDX-License-Identifier: MIT */
/* Internal, AVX-512 only: the block's vector plan (step 3 of block.inl): row k of every level is
 * planned for all the block's slots together, 16 slots per vector: each lane's run bounds from
 * its row set-up, the lanes with a run packed across the block, cell_start read for 16 runs
 * at a time through gathers, and the runs' items compressed into the list. Closest and any
 * test the list after each row and drop the slots they have answered. Slots the vector plan
 * does not take go through the slot-by-slot plan (block_plan.inl). Included by walk.inl
 * for the AVX-512 level when the compiler targets it natively. */
#ifndef HS_BLOCK_VPLAN
#error "include walk.inl, not this file"
#endif

/* Level l's row set-up (hs_row_setup) for slots j0 .. j0+15, in registers: the row loop stores
 * items into the block, which the compiler must assume can overlap the set-up. The plan walks
 * rows kfirst .. klast of the nrows (nk of them). */
typedef struct hs_vplan_setup {
    __m512 nrows, row0, pos0, pos_step, first_off, last_off, first_min, first_max, last_min,
        last_max, kfirst, klast, nk;
    __mmask16 up; /* closest walks rows in the query's y direction (as hs_walk_level does) */
} hs_vplan_setup;

/* A block array's values for slots j0 .. j0+15, or (few) for the slots of the lanes `slots`. */
HS_INLINE __m512 hs_vplan_field(const float *f, size_t j0, __m512i slots, const int few)
{
    return few ? hs_vplan_lookup(f, slots) : _mm512_loadu_ps(f + j0);
}

/* The set-up of slots j0 .. j0+15 (few: of the slots `slots`), rows kfirst .. klast as
 * hs_vplan_trim left them (all: every row). */
HS_INLINE hs_vplan_setup hs_vplan_setup_of(const hs_block *B, const hs_row_setup *S, size_t j0,
                                           __m512i slots, const int all, const int few)
{
    hs_vplan_setup R;
    R.nrows = hs_vplan_field(S->nrows, j0, slots, few);
    R.row0 = hs_vplan_field(S->row0, j0, slots, few);
    R.pos0 = hs_vplan_field(S->pos0, j0, slots, few);
    R.pos_step = hs_vplan_field(S->pos_step, j0, slots, few);
    R.first_off = hs_vplan_field(S->first_off, j0, slots, few);
    R.last_off = hs_vplan_field(S->last_off, j0, slots, few);
    R.first_min = hs_vplan_field(S->first_min, j0, slots, few);
    R.first_max = hs_vplan_field(S->first_max, j0, slots, few);
    R.last_min = hs_vplan_field(S->last_min, j0, slots, few);
    R.last_max = hs_vplan_field(S->last_max, j0, slots, few);
    R.kfirst = all ? _mm512_setzero_ps() : hs_vplan_field(S->kfirst, j0, slots, few);
    R.klast = all ? _mm512_sub_ps(R.nrows, _mm512_set1_ps(1.0f))
                  : hs_vplan_field(S->klast, j0, slots, few);
    R.nk = _mm512_add_ps(_mm512_sub_ps(R.klast, R.kfirst), _mm512_set1_ps(1.0f));
    R.up =
        _mm512_cmp_ps_mask(hs_vplan_field(B->dy, j0, slots, few), _mm512_setzero_ps(), _CMP_GE_OQ);
    return R;
}

/* The set-up of slots j0 .. j0+15 (hs_vplan_setup_of). */
HS_INLINE hs_vplan_setup hs_vplan_load_setup(const hs_block *B, const hs_row_setup *S, size_t j0,
                                             const int all)
{
    return hs_vplan_setup_of(B, S, j0, _mm512_setzero_si512(), all, 0);
}

/* The k-th row walked, as an index in the level's box: kfirst + k upwards, klast - k
 * downwards for closest. */
HS_INLINE __m512 hs_vplan_row_index(const hs_vplan_setup *R, int k, const int mode)
{
    const __m512 kf = _mm512_set1_ps((float)k);
    const __m512 fwd = _mm512_add_ps(R->kfirst, kf);
    if (mode != HS_WALK_CLOSEST)
        return fwd;
    return _mm512_mask_blend_ps(R->up, _mm512_sub_ps(R->klast, kf), fwd);
}

/* The k-th row walked of level L for the lanes act of slots j0 .. j0+15: the lanes that have that
 * row and a non-empty run of cells, and the run's two cell_start indices (*ia: its first cell, *ib:
 * one past its last), as hs_block_plan_slot computes them (same float operations). */
HS_INLINE __mmask16 hs_vplan_row_cells(const hs_glevel *L, const hs_vplan_setup *R, __mmask16 act,
                                       int k, const int mode, __m512i *ia, __m512i *ib)
{
    act &= _mm512_cmp_ps_mask(_mm512_set1_ps((float)k), R->nk, _CMP_LT_OQ);
    const __m512 kk = hs_vplan_row_index(R, k, mode);
    const __m512i rowb = _mm512_mullo_epi32(_mm512_cvttps_epi32(_mm512_add_ps(R->row0, kk)),
                                            _mm512_set1_epi32((int)L->nx));
    const __m512 P = _mm512_add_ps(R->pos0, _mm512_mul_ps(kk, R->pos_step));
    const __m512i ca = _mm512_cvttps_epi32(
        _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(P, R->first_off), R->first_min), R->first_max));
    const __m512i cb = _mm512_cvttps_epi32(
        _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(P, R->last_off), R->last_min), R->last_max));
    *ia = _mm512_add_epi32(rowb, ca);
    *ib = _mm512_add_epi32(rowb, _mm512_add_epi32(cb, _mm512_set1_epi32(1)));
    return act & _mm512_cmple_epi32_mask(ca, cb);
}

/* Of the lanes act, those whose run of cells [ia, ib) holds a circle, by the level's occupancy
 * bits: the 32 bits from the run's first cell's byte hold its bits when the run spans at most
 * HS_OCC_RUN_MAX cells; a longer run is kept. */
HS_INLINE __mmask16 hs_vplan_occupied(const hs_glevel *L, __mmask16 act, __m512i ia, __m512i ib)
{
    const __m512i word = _mm512_mask_i32gather_epi32(
        _mm512_setzero_si512(), act, _mm512_srli_epi32(ia, 3), (const void *)L->occ, 1);
    const __m512i bits = _mm512_srlv_epi32(word, _mm512_and_si512(ia, _mm512_set1_epi32(7)));
    const __m512i len = _mm512_sub_epi32(ib, ia);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i run = _mm512_sub_epi32(_mm512_sllv_epi32(one, len), one);
    return act & (_mm512_test_epi32_mask(bits, run) |
                  _mm512_cmpgt_epi32_mask(len, _mm512_set1_epi32(HS_OCC_RUN_MAX)));
}

/* The lanes act's runs [b, b + n) of the slots q, one item per HS_W circles, compressed into
 * the list. Count, any and closest fold hits into their slots whatever the order of the
 * items, so a full list is tested on the spot; all returns 1 instead (hs_vplan_all_hits tests
 * a block's list once). */
HS_INLINE int hs_vplan_add_runs(hs_block *B, const hs_grid *g, __m512i b, __m512i n, __m512i q,
                                __mmask16 act, const int mode, hs_tally *acc, const int thick,
                                const int boundary, const int usemask)
{
    const __m512i w16 = _mm512_set1_epi32(HS_W);
    act &= _mm512_test_epi32_mask(n, n);
    while (act) { /* one item per run; runs past HS_W circles go round again (rare) */
        if (B->nitems > HS_BLOCK_ITEMS - HS_W) {
            if (mode == HS_WALK_ALL)
                return 1;
            (void)hs_block_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
        }
        const __m512i nn = _mm512_min_epu32(n, w16);
        const __m512i one = _mm512_set1_epi32(1);
        const __m512i lanes = _mm512_sub_epi32(_mm512_sllv_epi32(one, nn), one);
        const __m512i qn = _mm512_or_si512(q, _mm512_slli_epi32(lanes, 16));
        /* (start, q | lanes << 16) as 64-bit items, lanes 0-7 then 8-15 */
        const __m512i lo = hs_vplan_pair64(b, qn, 0), hi = hs_vplan_pair64(b, qn, 1);
        const __mmask8 alo = (__mmask8)act, ahi = (__mmask8)(act >> 8);
        HS_ASSERT(B->nitems + HS_W <= HS_BLOCK_ITEMS); /* two 8-item stores */
        hs_item *it = B->items + B->nitems;
        _mm512_storeu_si512((void *)it, _mm512_maskz_compress_epi64(alo, lo));
        it += __builtin_popcount(alo);
        _mm512_storeu_si512((void *)it, _mm512_maskz_compress_epi64(ahi, hi));
        B->nitems += (size_t)__builtin_popcount(act);
        b = _mm512_add_epi32(b, w16);
        n = _mm512_sub_epi32(n, nn);
        act &= _mm512_test_epi32_mask(n, n);
    }
    return 0;
}

/* Slots j0 .. j0+15 as lanes. */
HS_INLINE __m512i hs_vplan_slots(size_t j0)
{
    return _mm512_add_epi32(
        _mm512_set1_epi32((int)j0),
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* Any: the lanes of slots j0 .. j0+15 without a hit yet. */
HS_INLINE __mmask16 hs_vplan_unhit(const hs_block *B, size_t j0)
{
    return _mm512_testn_epi32_mask(_mm512_loadu_si512((const void *)(B->nhits + j0)),
                                   _mm512_set1_epi32(-1));
}

/* The lanes with a run in row k, packed across the block (their cell indices dia / dib and
 * slots dq) so that they are read 16 at a time: a gather costs the same however few of its
 * lanes are on, and many lanes of a row have no run (or, on a level with occupancy bits, an
 * empty one). Returns the packed count. */
HS_INLINE size_t hs_vplan_pack_row(const hs_block *B, const hs_glevel *L, const hs_row_setup *S,
                                   const __mmask16 *El, size_t ng, int k, const int mode,
                                   uint32_t *dia, uint32_t *dib, uint32_t *dq)
{
    size_t nd = 0;
    for (size_t u = 0; u < ng; u++) {
        if (!El[u])
            continue;
        const hs_vplan_setup R = hs_vplan_load_setup(B, S, u * HS_W, 0);
        __m512i ia, ib;
        __mmask16 a = hs_vplan_row_cells(L, &R, El[u], k, mode, &ia, &ib);
        if (L->occ != NULL)
            a = hs_vplan_occupied(L, a, ia, ib);
        HS_ASSERT(nd + HS_W <= HS_BLOCK_Q + HS_W); /* a whole vector stored at nd */
        _mm512_storeu_si512((void *)(dia + nd), _mm512_maskz_compress_epi32(a, ia));
        _mm512_storeu_si512((void *)(dib + nd), _mm512_maskz_compress_epi32(a, ib));
        _mm512_storeu_si512((void *)(dq + nd),
                            _mm512_maskz_compress_epi32(a, hs_vplan_slots(u * HS_W)));
        nd += (size_t)__builtin_popcount(a);
    }
    return nd;
}

/* Packed runs c .. c+15 (those below nd): their cell_start reads, then their items. */
HS_INLINE int hs_vplan_add_packed(hs_block *B, const hs_grid *g, const hs_glevel *L,
                                  const uint32_t *dia, const uint32_t *dib, const uint32_t *dq,
                                  size_t c, size_t nd, const int mode, hs_tally *acc,
                                  const int thick, const int boundary, const int usemask)
{
    const uint32_t *cs = g->cell_start + L->cell0;
    const __mmask16 act =
        nd - c >= (size_t)HS_W ? (__mmask16)0xffff : (__mmask16)((1u << (nd - c)) - 1u);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i b = _mm512_mask_i32gather_epi32(zero, act, _mm512_maskz_loadu_epi32(act, dia + c),
                                                  (const void *)cs, 4);
    const __m512i e = _mm512_mask_i32gather_epi32(zero, act, _mm512_maskz_loadu_epi32(act, dib + c),
                                                  (const void *)cs, 4);
    return hs_vplan_add_runs(B, g, b, _mm512_sub_epi32(e, b), _mm512_maskz_loadu_epi32(act, dq + c),
                             act, mode, acc, thick, boundary, usemask);
}

/* Row k of level L for the block's lanes El: packed, then planned 16 runs at a time. 1: all's
 * list is full (see hs_vplan_add_runs). */
HS_INLINE int hs_vplan_plan_row(hs_block *B, const hs_grid *g, const hs_glevel *L,
                                const hs_row_setup *S, const __mmask16 *El, size_t ng, int k,
                                const int mode, hs_tally *acc, const int thick, const int boundary,
                                const int usemask)
{
    uint32_t dia[HS_BLOCK_Q + HS_W], dib[HS_BLOCK_Q + HS_W], dq[HS_BLOCK_Q + HS_W];
    const size_t nd = hs_vplan_pack_row(B, L, S, El, ng, k, mode, dia, dib, dq);
    for (size_t c = 0; c < nd; c += HS_W)
        if (hs_vplan_add_packed(B, g, L, dia, dib, dq, c, nd, mode, acc, thick, boundary, usemask))
            return 1;
    return 0;
}

/* Rows kfirst .. klast (into S) of level L for the lanes E, and the lanes Et with a row left:
 * on a level with occupancy bits, each lane's first and last rows whose run holds a circle
 * (the rows outside them have none, so a query through empty space walks no row); elsewhere
 * every row. */
HS_INLINE void hs_vplan_trim(const hs_block *B, const hs_glevel *L, hs_row_setup *S,
                             const __mmask16 *E, size_t ng, __mmask16 *Et)
{
    const __m512 one = _mm512_set1_ps(1.0f);
    for (size_t u = 0; u < ng; u++) {
        const size_t j0 = u * HS_W;
        Et[u] = 0;
        if (!E[u])
            continue;
        const hs_vplan_setup R = hs_vplan_load_setup(B, S, j0, 1);
        __m512 kf = R.kfirst, kl = R.klast;
        if (L->occ != NULL) {
            const float nr = _mm512_mask_reduce_max_ps(E[u], R.nrows);
            __mmask16 found = 0;
            kf = R.nrows;
            kl = _mm512_set1_ps(-1.0f);
            for (int k = 0; (float)k < nr; k++) {
                __m512i ia, ib;
                const __mmask16 a = hs_vplan_row_cells(L, &R, E[u], k, HS_WALK_COUNT, &ia, &ib);
                const __mmask16 o = hs_vplan_occupied(L, a, ia, ib);
                const __m512 kv = _mm512_set1_ps((float)k);
                kf = _mm512_mask_mov_ps(kf, o & (__mmask16)~found, kv);
                kl = _mm512_mask_mov_ps(kl, o, kv);
                found |= o;
            }
        }
        _mm512_storeu_ps(S->kfirst + j0, kf);
        _mm512_storeu_ps(S->klast + j0, kl);
        const __m512 nk = _mm512_add_ps(_mm512_sub_ps(kl, kf), one);
        Et[u] = E[u] & _mm512_cmp_ps_mask(nk, _mm512_setzero_ps(), _CMP_GT_OQ);
    }
}

/* Closest, the lanes of set-up R after row k of level L: later rows' centres lie beyond row k's
 * edge, so entering one needs a point of the query within reach of that edge:
 * t >= (edge -+ reach - ay) / dy (hs_walk_level's test, in float: reach's margin covers far more
 * than this rounding, and the bound is shrunk by 2^-20). A lane whose best t lies below the bound
 * is done; lanes with dy = 0 get -inf (never done). Being conservative, the bound (fused or not)
 * changes only how many rows are walked, never an answer. */
HS_INLINE __m512 hs_vplan_exit_bound_of(const hs_vplan_setup *R, __m512 ay, __m512 dy, __m512 reach,
                                        int k, __m512 h, __m512 oy)
{
    const __mmask16 up = R->up;
    const __mmask16 moving = _mm512_cmp_ps_mask(dy, _mm512_setzero_ps(), _CMP_NEQ_OQ);
    const __m512 rowf = _mm512_add_ps(R->row0, hs_vplan_row_index(R, k, HS_WALK_CLOSEST));
    const __m512 edge =
        hs_vf_fmadd(_mm512_mask_add_ps(rowf, up, rowf, _mm512_set1_ps(1.0f)), h, oy);
    const __m512 bv =
        _mm512_mask_blend_ps(up, _mm512_add_ps(edge, reach), _mm512_sub_ps(edge, reach));
    __m512 tb = _mm512_div_ps(_mm512_sub_ps(bv, ay), dy);
    tb = _mm512_sub_ps(tb, _mm512_mul_ps(_mm512_abs_ps(tb), _mm512_set1_ps(0x1p-20f)));
    return _mm512_mask_blend_ps(moving, _mm512_set1_ps(-INFINITY), tb);
}

/* hs_vplan_exit_bound_of for slots j0 .. j0+15. */
HS_INLINE __m512 hs_vplan_exit_bound(const hs_block *B, const hs_row_setup *S, size_t j0, int k,
                                     __m512 h, __m512 oy)
{
    const hs_vplan_setup R = hs_vplan_load_setup(B, S, j0, 0);
    return hs_vplan_exit_bound_of(&R, _mm512_loadu_ps(B->ay + j0), _mm512_loadu_ps(B->dy + j0),
                                  _mm512_loadu_ps(S->reach + j0), k, h, oy);
}

/* The slots of the lanes El of the block's groups, packed into one vector (at most 16 lanes). */
HS_INLINE __m512i hs_vplan_pack_slots(const __mmask16 *El, size_t ng)
{
    uint32_t tmp[2 * HS_W];
    size_t n = 0;
    for (size_t u = 0; u < ng; u++) {
        _mm512_storeu_si512((void *)(tmp + n),
                            _mm512_maskz_compress_epi32(El[u], hs_vplan_slots(u * HS_W)));
        n += (size_t)__builtin_popcount(El[u]);
    }
    return _mm512_loadu_si512((const void *)tmp);
}

/* Level L from row k on, once the lanes still walking fit in one vector: the row loop of
 * hs_vplan_level_rows on the lanes act of the slots `slots`, so each row costs one vector of
 * planning (and for closest and any one exit test) instead of one per group of the block. 1:
 * all's list is full (hs_vplan_add_runs). */
HS_INLINE int hs_vplan_level_few(hs_block *B, const hs_grid *g, const hs_glevel *L,
                                 const hs_row_setup *S, __m512i slots, __mmask16 act, int k,
                                 const int mode, hs_tally *acc, const int thick, const int boundary,
                                 const int usemask)
{
    const hs_vplan_setup R = hs_vplan_setup_of(B, S, 0, slots, 0, 1);
    const __m512 ay = hs_vplan_lookup(B->ay, slots), dy = hs_vplan_lookup(B->dy, slots);
    const __m512 reach = hs_vplan_lookup(S->reach, slots);
    const __m512 h = _mm512_set1_ps((float)L->h), oy = _mm512_set1_ps((float)L->oy);
    const uint32_t *cs = g->cell_start + L->cell0;
    const __m512i zero = _mm512_setzero_si512();
    for (; act; k++) {
        act &= _mm512_cmp_ps_mask(_mm512_set1_ps((float)k), R.nk, _CMP_LT_OQ);
        __m512i ia, ib;
        __mmask16 a = hs_vplan_row_cells(L, &R, act, k, mode, &ia, &ib);
        if (L->occ != NULL)
            a = hs_vplan_occupied(L, a, ia, ib);
        const __m512i b = _mm512_mask_i32gather_epi32(zero, a, ia, (const void *)cs, 4);
        const __m512i e = _mm512_mask_i32gather_epi32(zero, a, ib, (const void *)cs, 4);
        if (hs_vplan_add_runs(B, g, b, _mm512_sub_epi32(e, b), slots, a, mode, acc, thick, boundary,
                              usemask))
            return 1;
        if (mode == HS_WALK_COUNT || mode == HS_WALK_ALL)
            continue;
        const __m512 tb = mode == HS_WALK_CLOSEST
                              ? hs_vplan_exit_bound_of(&R, ay, dy, reach, k, h, oy)
                              : _mm512_setzero_ps();
        (void)hs_block_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
        if (mode == HS_WALK_ANY)
            act &= _mm512_testn_epi32_mask(
                _mm512_castps_si512(hs_vplan_lookup((const float *)B->nhits, slots)),
                _mm512_set1_epi32(-1));
        else
            act &= ~_mm512_cmp_ps_mask(hs_vplan_lookup((const float *)B->best_tbits, slots), tb,
                                       _CMP_LT_OQ);
    }
    return 0;
}

/* Of the lanes El, those with a row k left (nk: each group's rows), and their number. */
HS_INLINE unsigned hs_vplan_rows_left(__mmask16 *El, const __m512 *nk, size_t ng, int k)
{
    unsigned live = 0;
    for (size_t u = 0; u < ng; u++) {
        El[u] &= _mm512_cmp_ps_mask(_mm512_set1_ps((float)k), nk[u], _CMP_LT_OQ);
        live += (unsigned)__builtin_popcount(El[u]);
    }
    return live;
}

/* Level L for the lanes E, row k of the whole block at a time. Count and all plan every row
 * before any test (each gather then reads for many busy lanes). Closest and any test row k as
 * soon as it is planned and drop the lanes that have their answer (any: a hit; closest: a best
 * t below the exit bound of row k), so each row is one test of up to HS_BLOCK_Q queries'
 * items. Once the lanes left fit in one vector, hs_vplan_level_few walks the rest. 1: all's
 * list is full (hs_vplan_add_runs). */
HS_INLINE int hs_vplan_level_rows(hs_block *B, const hs_grid *g, const hs_glevel *L,
                                  const hs_row_setup *S, const __mmask16 *E, size_t ng,
                                  const int mode, hs_tally *acc, const int thick,
                                  const int boundary, const int usemask)
{
    __mmask16 El[HS_BLOCK_GROUPS]; /* the lanes still walking this level */
    __m512 nk[HS_BLOCK_GROUPS];
    for (size_t u = 0; u < ng; u++) {
        const size_t j0 = u * HS_W;
        El[u] = E[u];
        if (mode == HS_WALK_ANY) /* any: a query with a hit is answered */
            El[u] &= hs_vplan_unhit(B, j0);
        nk[u] = _mm512_add_ps(
            _mm512_sub_ps(_mm512_loadu_ps(S->klast + j0), _mm512_loadu_ps(S->kfirst + j0)),
            _mm512_set1_ps(1.0f));
    }
    const __m512 h = _mm512_set1_ps((float)L->h), oy = _mm512_set1_ps((float)L->oy);
    for (int k = 0;; k++) {
        const unsigned live = hs_vplan_rows_left(El, nk, ng, k);
        if (live == 0)
            return 0;
        if (ng > 1 && live <= HS_W)
            return hs_vplan_level_few(B, g, L, S, hs_vplan_pack_slots(El, ng), hs_vplan_first(live),
                                      k, mode, acc, thick, boundary, usemask);
        if (hs_vplan_plan_row(B, g, L, S, El, ng, k, mode, acc, thick, boundary, usemask))
            return 1;
        if (mode == HS_WALK_COUNT || mode == HS_WALK_ALL)
            continue;
        /* closest: the bound each lane's best t must beat to stop after row k, computed
         * before the tests (it does not depend on them) so it is ready when they end */
        __m512 tbv[HS_BLOCK_GROUPS];
        if (mode == HS_WALK_CLOSEST)
            for (size_t u = 0; u < ng; u++)
                tbv[u] =
                    El[u] ? hs_vplan_exit_bound(B, S, u * HS_W, k, h, oy) : _mm512_setzero_ps();
        (void)hs_block_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
        for (size_t u = 0; u < ng; u++) {
            const size_t j0 = u * HS_W;
            if (mode == HS_WALK_ANY) {
                El[u] &= hs_vplan_unhit(B, j0);
            } else if (El[u]) {
                const __m512 bt =
                    _mm512_castsi512_ps(_mm512_loadu_si512((const void *)(B->best_tbits + j0)));
                El[u] &= ~_mm512_cmp_ps_mask(bt, tbv[u], _CMP_LT_OQ);
            }
        }
    }
}

/* Plan, the whole block at once: the lanes E[u] of slots 16u .. 16u+15, every level (each set
 * up for those lanes). 1: all's list is full (hs_vplan_add_runs). */
HS_INLINE int hs_vplan_block_rows(hs_block *B, const hs_grid *g, const __mmask16 *E, size_t ng,
                                  const int mode, hs_tally *acc, const int thick,
                                  const int boundary, const int usemask)
{
    const int big_first = hs_block_big_first(g, mode);
    for (int ll = 0; ll < g->nlevels; ll++) {
        const int l = big_first ? g->nlevels - 1 - ll : ll;
        const hs_glevel *L = &g->lv[l];
        if (L->n == 0)
            continue;
        hs_row_setup *S = &B->rows[l];
        __mmask16 Et[HS_BLOCK_GROUPS];
        hs_vplan_trim(B, L, S, E, ng, Et);
        if (hs_vplan_level_rows(B, g, L, S, Et, ng, mode, acc, thick, boundary, usemask))
            return 1;
    }
    return 0;
}

/* The live slots of j0 .. j0+15 (below nq), as lanes. */
HS_INLINE __mmask16 hs_vplan_live(const hs_block *B, size_t j0, size_t nq)
{
    const size_t k = nq - j0 < (size_t)HS_W ? nq - j0 : (size_t)HS_W;
    __mmask16 live = 0;
    for (size_t u = 0; u < k; u++)
        live |= (__mmask16)((B->state[j0 + u] == HS_SLOT_LIVE) << u);
    return live;
}

/* Whether hs_vplan_block_rows can walk g at all: its gathers' cell indices are signed 32-bit. */
HS_INLINE int hs_vplan_fits_grid(const hs_grid *g)
{
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        if ((uint64_t)L->cell0 + (uint64_t)L->nx * (uint64_t)L->ny >= (1u << 31))
            return 0;
    }
    return 1;
}

/* Of the lanes live, those hs_vplan_block_rows can plan: set up on every level that has circles. */
HS_INLINE __mmask16 hs_vplan_lanes(const hs_block *B, const hs_grid *g, size_t j0, __mmask16 live)
{
    __mmask16 E = live;
    for (int l = 0; l < g->nlevels; l++)
        if (g->lv[l].n != 0)
            E &= _mm512_cmp_ps_mask(_mm512_loadu_ps(B->rows[l].nrows + j0), _mm512_setzero_ps(),
                                    _CMP_GE_OQ);
    return E;
}

/* All, for a block planned out of query order (hs_vplan_block_rows): the list's hits compressed
 * past the room the block needs, then each item's hits moved to its slot's place (slots in order,
 * items of a slot in list order), so buf holds the block's hits query by query, as the per-slot
 * plan leaves them; the driver then sorts each query's hits by (t, id). */
HS_INLINE hs_status hs_vplan_all_hits(hs_block *B, const hs_grid *g, hs_hitbuf *buf, hs_tally *acc,
                                      const int thick, const int boundary, const int usemask)
{
    const size_t room = (B->nitems + 1) * HS_W;
    if (buf->cap - buf->len < 2 * room && hs_hitbuf_reserve(buf, 2 * room) != HS_OK)
        return HS_E_NOMEM;
    acc->tests += (uint64_t)B->nitems * HS_W;
    if (B->trace != NULL)
        hs_block_trace(B);
    const size_t len = buf->len, tmp = len + room;
    const size_t end = hs_block_all_items(B, g, buf, tmp, 1, thick, boundary, usemask);
    size_t off[HS_BLOCK_Q];
    for (size_t j = 0, at = len; j < B->nq; j++) {
        off[j] = at;
        at += B->nhits[j];
    }
    size_t h = tmp;
    for (size_t k = 0; k < B->nitems; k++) {
        const size_t n = B->hit_bits[k], q = B->items[k].slot;
        const __mmask16 f = (__mmask16)((1u << n) - 1u);
        _mm512_mask_storeu_ps(buf->t + off[q], f, _mm512_loadu_ps(buf->t + h));
        _mm512_mask_storeu_epi32(buf->id + off[q], f, _mm512_loadu_si512(buf->id + h));
        off[q] += n;
        h += n;
    }
    buf->len = len + (end - tmp);
    B->nitems = 0;
    return HS_OK;
}

/* The block by the vector plan (the lanes hs_vplan_lanes gives it; the other live slots slot
 * by slot), tested and answered: 1 done, -1 out of memory, 0 when all's list could not hold
 * the whole block (nothing answered: the block is then planned slot by slot). Count, any and
 * closest fold their hits whatever the order of the items, so their list is tested whenever
 * it fills and every slot answered at the end; all's hits are moved to query order once. */
HS_INLINE int hs_vplan_answer_block(hs_block *B, const hs_grid *g, hs_semantics sem, const int mode,
                                    const hs_block_out *o, hs_tally *acc, const int thick,
                                    const int boundary, const int usemask)
{
    const size_t nq = B->nq, ng = (nq + HS_W - 1) / HS_W;
    __mmask16 live[HS_BLOCK_GROUPS], E[HS_BLOCK_GROUPS];
    for (size_t u = 0; u < ng; u++) {
        live[u] = hs_vplan_live(B, u * HS_W, nq);
        E[u] = hs_vplan_lanes(B, g, u * HS_W, live[u]);
    }
    if (mode == HS_WALK_ALL) {
        int ok = !hs_vplan_block_rows(B, g, E, ng, mode, acc, thick, boundary, usemask);
        for (size_t u = 0; u < ng && ok; u++)
            for (unsigned rest = live[u] & ~E[u]; rest && ok; rest &= rest - 1u)
                ok = !hs_block_plan_slot(B, g, u * HS_W + (size_t)__builtin_ctz(rest), sem);
        if (!ok) {
            B->nitems = 0;
            return 0;
        }
        const hs_status st = hs_vplan_all_hits(B, g, o->buf, acc, thick, boundary, usemask);
        hs_block_answer(B, g, nq, sem, mode, o, st);
        return st == HS_OK ? 1 : -1;
    }
    (void)hs_vplan_block_rows(B, g, E, ng, mode, acc, thick, boundary, usemask);
    for (size_t u = 0; u < ng; u++) {
        for (unsigned rest = live[u] & ~E[u]; rest; rest &= rest - 1u)
            hs_block_plan_or_walk(B, g, u * HS_W + (size_t)__builtin_ctz(rest), sem, mode, o, acc,
                                  thick, boundary, usemask);
    }
    (void)hs_block_drain(B, g, mode, NULL, acc, thick, boundary, usemask);
    hs_block_answer(B, g, nq, sem, mode, o, HS_OK);
    return 1;
}
