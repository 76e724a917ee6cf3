/* SPDX-License-Identifier: MIT */
/* Internal: the AVX-512 level's form of block_lanes.inl (the same functions and contracts):
 * the listed hits' entry times with the slots' fields taken by permutes and the circles by
 * masked gathers, closest's keys made 16 at a time, and staged answers written 16 slots at a
 * time. walk_avx512.c names it in HS_WALK_LANES. */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif
_Static_assert(HS_W == 16, "the AVX-512 level's lane helpers");

/* The slots q's values of a block array (HS_BLOCK_Q entries), per lane. */
HS_INLINE __m512 hs_b512_lookup(const float *f, __m512i q)
{
    const __m512 lo = _mm512_permutex2var_ps(_mm512_loadu_ps(f), q, _mm512_loadu_ps(f + 16));
    const __m512 hi = _mm512_permutex2var_ps(_mm512_loadu_ps(f + 32), q, _mm512_loadu_ps(f + 48));
    return _mm512_mask_blend_ps(_mm512_test_epi32_mask(q, _mm512_set1_epi32(32)), lo, hi);
}

/* ---- Closest's hit list (see block_test.inl) ---------------------------------------------------
 * Only the hit lanes' storage positions and slots are listed; hs_block_entry_times gathers
 * their circles. Items have few hit lanes, so computing every item's entry times (a division
 * and a square root per vector) or listing circles and ids by more compresses per item costs
 * more than these gathers. */

/* The lanes of the first n of 16. */
HS_INLINE __mmask16 hs_b512_first(size_t n)
{
    return n >= (size_t)HS_W ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

/* The entry times of the hits f of slots q against the circles at storage positions pos,
 * each lane with its own slot's query (the same operations as hs_v_entry with the slot's query
 * broadcast, so the same bits). */
HS_INLINE __m512 hs_b512_entry(const hs_block *B, const hs_grid *g, __m512i q, __m512i pos,
                               __mmask16 f, const unsigned tf)
{
    hs_vq Q;
    Q.ax = hs_b512_lookup(B->ax, q);
    Q.ay = hs_b512_lookup(B->ay, q);
    Q.dx = hs_b512_lookup(B->dx, q);
    Q.dy = hs_b512_lookup(B->dy, q);
    Q.tmin = hs_b512_lookup(B->tmin, q);
    Q.tmax = hs_b512_lookup(B->tmax, q);
    Q.q = hs_b512_lookup(B->q, q);
    Q.dd = hs_b512_lookup(B->dd, q);
    Q.inv_dd = hs_b512_lookup(B->inv_dd, q);
    Q.ninv = hs_b512_lookup(B->ninv, q);
    Q.skip = 0; /* entry times only: the hits are already decided */
    hs_vc c;
    c.cx = _mm512_castsi512_ps(hs_vi_gather_m(g->x, pos, f));
    c.cy = _mm512_castsi512_ps(hs_vi_gather_m(g->y, pos, f));
    c.r = _mm512_castsi512_ps(hs_vi_gather_m(g->r, pos, f));
    return hs_v_entry(&Q, c, 1, HS_TF_HAS(tf, HS_TF_BOUNDARY));
}

/* The entry times and keys of the listed hits [0, len), 16 at a time. */
HS_INLINE void hs_block_entry_times(hs_block *B, const hs_grid *g, size_t len, const unsigned tf)
{
    for (size_t k = 0; k < len; k += HS_W) {
        const __mmask16 f = hs_b512_first(len - k);
        const __m512i q = _mm512_maskz_loadu_epi32(f, B->list_slot + k);
        const __m512i pos = _mm512_maskz_loadu_epi32(f, B->list_pos + k);
        const __m512 t = hs_b512_entry(B, g, q, pos, f, tf);
        _mm512_storeu_ps(B->list_t + k, t);
        /* the fold's keys, as hs_block_fold_hits makes them one at a time elsewhere */
        const __m512i u = _mm512_castps_si512(_mm512_add_ps(t, _mm512_setzero_ps()));
        const __m512i kh = _mm512_xor_si512(
            u, _mm512_or_si512(_mm512_srai_epi32(u, 31), _mm512_set1_epi32(INT32_MIN)));
        const __m512i id = hs_vi_gather_m(g->id, pos, f);
        _mm512_storeu_si512((void *)(B->list_key + k), hs_vi_pair64(id, kh, 0));
        _mm512_storeu_si512((void *)(B->list_key + k + 8), hs_vi_pair64(id, kh, 1));
    }
}

/* Listed hit k's key (hs_block_entry_times made it). */
HS_INLINE uint64_t hs_block_hit_key(const hs_block *B, size_t k) { return B->list_key[k]; }

/* ---- All's hits (see block_test.inl) ------------------------------------------------------------
 * An item has few hit lanes, so its entry times (two square roots, a division and the double
 * terms, per vector) are not computed item by item: its hit lanes are written as storage
 * positions (in buf->id) and slots (in buf->t's words), and hs_block_all_times computes 16 hits'
 * times and ids at a time in place. */

/* The hits [from, to) of buf, written as (slot, storage position), turned into (entry t,
 * caller's id). */
HS_INLINE void hs_block_all_times(const hs_block *B, const hs_grid *g, hs_hitbuf *buf, size_t from,
                                  size_t to, const unsigned tf)
{
    for (size_t k = from; k < to; k += HS_W) {
        const __mmask16 f = hs_b512_first(to - k);
        const __m512i q = _mm512_maskz_loadu_epi32(f, buf->t + k);
        const __m512i pos = _mm512_maskz_loadu_epi32(f, buf->id + k);
        _mm512_mask_storeu_ps(buf->t + k, f, hs_b512_entry(B, g, q, pos, f, tf));
        _mm512_mask_storeu_epi32(buf->id + k, f, hs_vi_gather_m(g->id, pos, f));
    }
}

/* ---- Staged answers, 16 slots at a time ------------------------------------------------------ */

/* The lanes wl of w2 written over word 2 of the records of batch positions pos0 .. pos0+15,
 * and with `two` those of w3 over word 3 (hs_block_stage_word, hs_block_stage_closest). */
HS_INLINE void hs_b512_stage(const hs_block_out *o, size_t pos0, __mmask16 wl, __m512i w2,
                             __m512i w3, const int two)
{
    /* bits 4i+2 (and 4i+3) of each nibble's lanes i */
    static const uint16_t spread[16] = {0x0000, 0x0004, 0x0040, 0x0044, 0x0400, 0x0404,
                                        0x0440, 0x0444, 0x4000, 0x4004, 0x4040, 0x4044,
                                        0x4400, 0x4404, 0x4440, 0x4444};
    float *rec = o->stage + 4 * pos0;
    for (int r = 0; r < 4; r++) {
        const unsigned nib = ((unsigned)wl >> (4 * r)) & 15u;
        if (!nib)
            continue;
        /* word 4i+2 from w2's lane 4r+i, word 4i+3 from w3's */
        const __m512i idx =
            _mm512_add_epi32(_mm512_setr_epi32(0, 0, 0, 16, 1, 1, 1, 17, 2, 2, 2, 18, 3, 3, 3, 19),
                             _mm512_set1_epi32(4 * r));
        const __m512i v = _mm512_permutex2var_epi32(w2, idx, w3);
        const unsigned m = two ? spread[nib] | (unsigned)spread[nib] << 1 : spread[nib];
        _mm512_mask_storeu_epi32((void *)(rec + 16 * r), (__mmask16)m, v);
    }
}

/* Closest's hit points and normals of slots j0 .. j0+15 (the lanes wl, hits the lanes with an
 * answer), staged as hs_block_stage_geometry writes them one at a time: P(t) = a + t d and the
 * unit normal (f + t d) / |f + t d|, f = a - c, by the same float operations. A normal whose
 * length lies outside [2^-60, 2^60] (hs_unit_or's rescaled or fallback cases) is redone one
 * at a time by hs_hit_geometry. */
HS_INLINE void hs_b512_stage_geometry(const hs_block *B, const hs_grid *g, hs_semantics sem,
                                      const hs_block_out *o, size_t j0, __mmask16 wl,
                                      __mmask16 hits)
{
    /* each nibble's lanes i as bits 4i .. 4i+3 */
    static const uint16_t spread[16] = {0x0000, 0x000f, 0x00f0, 0x00ff, 0x0f00, 0x0f0f,
                                        0x0ff0, 0x0fff, 0xf000, 0xf00f, 0xf0f0, 0xf0ff,
                                        0xff00, 0xff0f, 0xfff0, 0xffff};
    const __mmask16 hit = hits & wl;
    const __m512 ax = _mm512_loadu_ps(B->ax + j0), ay = _mm512_loadu_ps(B->ay + j0);
    const __m512 dx = _mm512_loadu_ps(B->dx + j0), dy = _mm512_loadu_ps(B->dy + j0);
    const __m512 t = _mm512_loadu_ps((const float *)B->best_tbits + j0);
    const __m512i pos = _mm512_loadu_si512((const void *)(B->best_pos + j0));
    const __m512 cx = _mm512_castsi512_ps(hs_vi_gather_m(g->x, pos, hit));
    const __m512 cy = _mm512_castsi512_ps(hs_vi_gather_m(g->y, pos, hit));
    const __m512 tdx = _mm512_mul_ps(t, dx), tdy = _mm512_mul_ps(t, dy);
    const __m512 vx = _mm512_add_ps(_mm512_sub_ps(ax, cx), tdx);
    const __m512 vy = _mm512_add_ps(_mm512_sub_ps(ay, cy), tdy);
    const __m512 len = _mm512_sqrt_ps(_mm512_add_ps(_mm512_mul_ps(vx, vx), _mm512_mul_ps(vy, vy)));
    const __mmask16 ok = _mm512_cmp_ps_mask(len, _mm512_set1_ps(0x1p-60f), _CMP_GE_OQ) &
                         _mm512_cmp_ps_mask(len, _mm512_set1_ps(0x1p60f), _CMP_LE_OQ);
    const __m512 nan = _mm512_set1_ps(NAN);
    const __m512 px = _mm512_mask_add_ps(nan, hit, ax, tdx);
    const __m512 py = _mm512_mask_add_ps(nan, hit, ay, tdy);
    const __m512 nx = _mm512_mask_div_ps(nan, hit, vx, len);
    const __m512 ny = _mm512_mask_div_ps(nan, hit, vy, len);
    float *rec = o->stage_geo + 4 * (B->base + j0);
    for (int r = 0; r < 4; r++) {
        const unsigned nib = ((unsigned)wl >> (4 * r)) & 15u;
        if (!nib)
            continue;
        /* record i: px, py, nx, ny of lane 4r+i */
        const __m512i idx = _mm512_add_epi32(
            _mm512_setr_epi32(0, 16, 0, 16, 1, 17, 1, 17, 2, 18, 2, 18, 3, 19, 3, 19),
            _mm512_set1_epi32(4 * r));
        const __m512 v =
            _mm512_mask_blend_ps((__mmask16)0xcccc, _mm512_permutex2var_ps(px, idx, py),
                                 _mm512_permutex2var_ps(nx, idx, ny));
        _mm512_mask_storeu_ps(rec + 16 * r, (__mmask16)spread[nib], v);
    }
    for (unsigned bad = hit & (__mmask16)~ok; bad; bad &= bad - 1u) { /* rare */
        const size_t j = j0 + (size_t)__builtin_ctz(bad);
        const hs_kq kq = hs_block_kq(B, j, sem);
        float tj;
        memcpy(&tj, &B->best_tbits[j], sizeof tj);
        hs_vec2 p, nrm;
        hs_hit_geometry(&kq, g->x[B->best_pos[j]], g->y[B->best_pos[j]], tj, &p, &nrm);
        float *rj = o->stage_geo + 4 * (B->base + j);
        rj[0] = p.x;
        rj[1] = p.y;
        rj[2] = nrm.x;
        rj[3] = nrm.y;
    }
}

/* Slots j0 .. j0+15's states as lanes: those equal to st. */
HS_INLINE __mmask16 hs_b512_state(const hs_block *B, size_t j0, int st)
{
    const __m512i s = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(B->state + j0)));
    return _mm512_cmpeq_epi32_mask(s, _mm512_set1_epi32(st));
}

/* Staged answers (closest, any, count) of slots answered .. upto-1 that the per-query walk did
 * not answer, as hs_block_stage_closest / hs_block_stage_word write them one at a time. */
HS_INLINE void hs_b512_answer_staged(const hs_block *B, const hs_grid *g, size_t upto,
                                     hs_semantics sem, const int mode, const hs_block_out *o)
{
    for (size_t j0 = B->answered & ~(size_t)(HS_W - 1); j0 < upto; j0 += HS_W) {
        /* lanes answered .. upto-1 that the per-query walk did not answer */
        const unsigned from = B->answered > j0 ? (unsigned)(B->answered - j0) : 0u;
        const unsigned to = upto - j0 < (size_t)HS_W ? (unsigned)(upto - j0) : (unsigned)HS_W;
        const __mmask16 wl = (__mmask16)(((1u << to) - 1u) & ~((1u << from) - 1u)) &
                             (__mmask16)~hs_b512_state(B, j0, HS_SLOT_DONE);
        if (mode != HS_WALK_CLOSEST) { /* any's cnt is 0 or 1 */
            const __m512i c = _mm512_loadu_si512((const void *)(B->nhits + j0));
            hs_b512_stage(o, B->base + j0, wl, c, c, 0);
            continue;
        }
        const __m512i k0 = _mm512_loadu_si512((const void *)(B->best_key + j0));
        const __m512i k1 = _mm512_loadu_si512((const void *)(B->best_key + j0 + 8));
        const __m512i none = _mm512_set1_epi32((int)HS_NONE);
        const __mmask16 hit = hs_b512_state(B, j0, HS_SLOT_LIVE) &
                              (__mmask16)(_mm512_cmpneq_epu64_mask(k0, _mm512_set1_epi64(-1)) |
                                          _mm512_cmpneq_epu64_mask(k1, _mm512_set1_epi64(-1)) << 8);
        const __m512i ids = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(k0)),
                                               _mm512_cvtepi64_epi32(k1), 1);
        const __m512i id = _mm512_mask_blend_epi32(hit, none, ids);
        /* as hs_block_stage_closest: t where the id is one, else NaN */
        const __m512i t = _mm512_mask_blend_epi32(
            _mm512_cmpneq_epi32_mask(id, none), _mm512_castps_si512(_mm512_set1_ps(NAN)),
            _mm512_loadu_si512((const void *)(B->best_tbits + j0)));
        hs_b512_stage(o, B->base + j0, wl, id, t, 1);
        if (o->stage_geo)
            hs_b512_stage_geometry(B, g, sem, o, j0, wl, _mm512_cmpneq_epi32_mask(id, none));
    }
}

/* Staged answers (closest, any, count) 16 slots at a time: 1 when written. */
HS_INLINE int hs_block_answer_lanes(const hs_block *B, const hs_grid *g, size_t upto,
                                    hs_semantics sem, const int mode, const hs_block_out *o)
{
    if (mode == HS_WALK_ALL || !o->stage)
        return 0;
    hs_b512_answer_staged(B, g, upto, sem, mode, o);
    return 1;
}
