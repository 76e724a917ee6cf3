/* SPDX-License-Identifier: MIT */
/* Internal: the block's steps on a grid of wall pieces (grid/wall_grid.h). The proxies go
 * through the block's vector test like circles (solid, no skip-start); each lane they hit then
 * takes the exact wall test (hs_gwall_hits) under the slot's query and semantics, which also
 * keeps the hit on one piece of its wall only. Lanes a proxy hits are few (the proxies hug
 * their pieces), so these steps are scalar, out of line, and cost nothing to a grid of circles.
 * Part of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* The lanes of bits (proxy hits of item it) whose walls the slot's query hits. */
static HS_OUTLINE unsigned hs_block_wall_bits(const hs_block *B, const hs_grid *g, const hs_item it,
                                              unsigned bits)
{
    const hs_kq k = hs_block_kq(B, it.slot, B->sem);
    unsigned keep = 0;
    for (; bits != 0u; bits &= bits - 1u) {
        const unsigned lane = (unsigned)__builtin_ctz(bits);
        hs_wall_hit h;
        keep |= (unsigned)hs_gwall_hits(g, it.start + lane, &k, &h) << lane;
    }
    return keep;
}

/* The wall hit of slot q at storage position pos (one the item test kept): its t, or +inf. */
HS_INLINE float hs_block_wall_t(const hs_block *B, const hs_grid *g, uint32_t q, uint32_t pos)
{
    const hs_kq k = hs_block_kq(B, q, B->sem);
    hs_wall_hit h;
    return hs_gwall_hits(g, pos, &k, &h) ? h.t : INFINITY;
}

/* Closest: the listed hits [0, len) timed by the exact test and folded into their slots' bests
 * with the key hs_block_fold_hits uses: (t + 0)'s bits made monotone, above the wall's index. */
static HS_OUTLINE void hs_block_wall_fold(hs_block *B, const hs_grid *g, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        const uint32_t q = B->list_slot[k], pos = B->list_pos[k];
        const float t = hs_block_wall_t(B, g, q, pos);
        if (t == INFINITY)
            continue; /* not a hit after all (the item test kept only hits) */
        const float t0 = t + 0.0f;
        uint32_t u, tb;
        memcpy(&u, &t0, sizeof u);
        memcpy(&tb, &t, sizeof tb);
        u ^= (uint32_t)((int32_t)u >> 31) | 0x80000000u;
        hs_block_fold_one(B, q, (uint64_t)u << 32 | g->id[pos], tb, pos);
    }
}

/* All: the hits [from, to) of buf, written as (slot, storage position), turned into (t, wall
 * index) by the exact test. */
static HS_OUTLINE void hs_block_wall_all_times(const hs_block *B, const hs_grid *g, hs_hitbuf *buf,
                                               size_t from, size_t to)
{
    const uint32_t *slot = (const uint32_t *)(const void *)buf->t;
    for (size_t k = from; k < to; k++) {
        const uint32_t q = slot[k], pos = buf->id[k];
        buf->t[k] = hs_block_wall_t(B, g, q, pos);
        buf->id[k] = g->id[pos];
    }
}
