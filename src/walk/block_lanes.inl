/* SPDX-License-Identifier: MIT */
/* Internal: the block's lane-parallel helpers at every level but AVX-512 (block_avx512.inl is
 * that level's form). The test step lists hits as (slot, storage position); these turn them
 * into entry times and caller's ids HS_W hits at a time, each lane with its own slot's query
 * gathered from the block. walk_<isa>.c names its level's helpers in HS_WALK_LANES; walk.inl
 * includes them. Part of the per-ISA walk. */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* The entry times of the hits of slots q against the circles at storage positions pos, each
 * lane with its own slot's query: the operations of hs_v_entry with the slot's query
 * broadcast, so the same bits. */
HS_INLINE hs_vf hs_block_lane_entry(const hs_block *B, const hs_grid *g, hs_vi q, hs_vi pos,
                                    const unsigned tf)
{
    hs_vq Q;
    Q.ax = hs_vf_gather(B->ax, q);
    Q.ay = hs_vf_gather(B->ay, q);
    Q.dx = hs_vf_gather(B->dx, q);
    Q.dy = hs_vf_gather(B->dy, q);
    Q.tmin = hs_vf_gather(B->tmin, q);
    Q.tmax = hs_vf_gather(B->tmax, q);
    Q.q = hs_vf_gather(B->q, q);
    Q.dd = hs_vf_gather(B->dd, q);
    Q.inv_dd = hs_vf_gather(B->inv_dd, q);
    Q.ninv = hs_vf_gather(B->ninv, q);
    Q.kmask = hs_vi_set1(0);
    Q.skip = 0; /* entry times only: the hits are already decided */
    hs_vc c;
    c.cx = hs_vf_gather(g->x, pos);
    c.cy = hs_vf_gather(g->y, pos);
    c.r = hs_vf_gather(g->r, pos);
    return hs_v_entry(&Q, c, 1, HS_TF_HAS(tf, HS_TF_BOUNDARY));
}

/* Closest: the entry times and ids of the listed hits [0, len), HS_W at a time. The lanes past
 * len read slot 0 and position 0 (the list has HS_W entries of room past HS_BLOCK_HITS). */
HS_INLINE void hs_block_entry_times(hs_block *B, const hs_grid *g, size_t len, const unsigned tf)
{
    HS_ASSERT(len <= HS_BLOCK_HITS); /* + HS_W lanes of room past it */
    memset(B->list_pos + len, 0, HS_W * sizeof *B->list_pos);
    memset(B->list_slot + len, 0, HS_W * sizeof *B->list_slot);
    for (size_t k = 0; k < len; k += HS_W) {
        const hs_vi q = hs_vi_loadu(B->list_slot + k), pos = hs_vi_loadu(B->list_pos + k);
        hs_vf_storeu(B->list_t + k, hs_block_lane_entry(B, g, q, pos, tf));
        hs_vi_storeu(B->list_id + k, hs_vi_gather(g->id, pos));
    }
}

/* Listed hit k's key (hs_block_fold_hits). */
HS_INLINE uint64_t hs_block_hit_key(const hs_block *B, size_t k)
{
    const float t0 = B->list_t[k] + 0.0f;
    uint32_t u;
    memcpy(&u, &t0, sizeof u);
    u ^= (uint32_t)((int32_t)u >> 31) | 0x80000000u;
    return (uint64_t)u << 32 | B->list_id[k];
}

/* All: the hits [from, to) of buf, written as (slot, storage position), turned into (entry t,
 * caller's id). The caller reserved a whole vector per item and one more, so the lanes past
 * `to` are buf's own room: they read slot 0 and position 0 and their results are left there. */
HS_INLINE void hs_block_all_times(const hs_block *B, const hs_grid *g, hs_hitbuf *buf, size_t from,
                                  size_t to, const unsigned tf)
{
    uint32_t *slot = (uint32_t *)(void *)buf->t;
    memset(buf->id + to, 0, HS_W * sizeof *buf->id);
    memset(slot + to, 0, HS_W * sizeof *slot);
    for (size_t k = from; k < to; k += HS_W) {
        const hs_vi q = hs_vi_loadu(slot + k), pos = hs_vi_loadu(buf->id + k);
        hs_vf_storeu(buf->t + k, hs_block_lane_entry(B, g, q, pos, tf));
        hs_vi_storeu(buf->id + k, hs_vi_gather(g->id, pos));
    }
}

/* Staged answers slot by slot here (hs_block_answer): 0, nothing written. */
HS_INLINE int hs_block_answer_lanes(const hs_block *B, const hs_grid *g, size_t upto,
                                    hs_semantics sem, const int mode, const hs_block_out *o)
{
    (void)B;
    (void)g;
    (void)upto;
    (void)sem;
    (void)mode;
    (void)o;
    return 0;
}
