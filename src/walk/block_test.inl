/* SPDX-License-Identifier: MIT */
/* Internal: the block's test step (4 in block.inl): every listed item through the pair test, no
 * branch on the data; count and any fold the hit lanes into their slots, all compresses the
 * hits into the thread's hit buffer, closest lists the hit lanes and folds the list into the
 * slots' bests. Part of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* Slot j's prepared query, broadcast. */
HS_INLINE void hs_block_broadcast(const hs_block *B, size_t j, hs_vq *Q)
{
    Q->ax = hs_vf_set1(B->ax[j]);
    Q->ay = hs_vf_set1(B->ay[j]);
    Q->dx = hs_vf_set1(B->dx[j]);
    Q->dy = hs_vf_set1(B->dy[j]);
    Q->tmin = hs_vf_set1(B->tmin[j]);
    Q->tmax = hs_vf_set1(B->tmax[j]);
    Q->q = hs_vf_set1(B->q[j]);
    Q->dd = hs_vf_set1(B->dd[j]);
    Q->inv_dd = hs_vf_set1(B->inv_dd[j]);
    Q->ninv = hs_vf_set1(B->ninv[j]);
    Q->kmask = hs_vi_set1(B->kmask[j]);
    Q->skip = B->skip;
}

/* Item it's circles and hit lanes; skip-start applied when skip (a constant of each loop over
 * the items: without it, the test of the flag is not in the loop at all). */
HS_INLINE hs_vm hs_block_item_hits(const hs_block *B, const hs_grid *g, const hs_item it, hs_vq *Q,
                                   hs_vc *c, const int thick, const int boundary, const int usemask,
                                   const int skip)
{
    hs_block_broadcast(B, it.slot, Q);
    c->cx = hs_vf_loadu(g->x + it.start);
    c->cy = hs_vf_loadu(g->y + it.start);
    c->r = hs_vf_loadu(g->r + it.start);
    hs_vm m = hs_vm_and(hs_v_hits(Q, *c, thick, boundary), hs_vm_from_bits(it.lanes));
    if (usemask)
        m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(g->mask + it.start), Q->kmask));
    return skip ? hs_v_keep(Q, *c, m, thick) : m;
}

/* ---- Closest's hit list -----------------------------------------------------------------
 * Closest lists each hit lane of the items (slot, storage position, entry t and the key
 * below) and folds the list into the slots' bests with no branch on the data. The order is
 * the smallest t, then among equal t (-0 and +0 too) the smallest caller's id, which is one
 * unsigned 64-bit key: t's bits made monotone (after t + 0, which turns -0 into +0 and leaves
 * every other t as it is) above the id. The winner keeps its own t. On AVX-512 the list holds
 * only slots and positions, and hs_block_entry_times computes the times and keys of 16 hits
 * at a time, each lane with its own slot's query (block_avx512.inl). The 128- and 256-bit levels
 * do the same HS_W hits at a time with gathers (below). The scalar level computes each hit's
 * entry time as it lists it: there an item is one lane, so packing saves nothing. */
#if HS_W > 1
/* Items have few hit lanes (one or two of HS_W on uniform scenes), so an item's entry times (two
 * square roots, a division and the double terms, per vector) and three emulated compresses
 * cost more than listing its hit lanes' positions and slots and gathering them later. */

/* The hit lanes m of item it appended to the list at len. */
HS_INLINE void hs_block_list_hits(hs_block *B, const hs_grid *g, const hs_item it, hs_vm m,
                                  size_t len, const int thick, const int boundary)
{
    (void)g;
    (void)thick;
    (void)boundary;
    hs_vi_compress(B->list_pos + len, m, hs_vi_iota(it.start));
    hs_vi_storeu(B->list_slot + len, hs_vi_set1(it.slot));
}
#endif

#if !defined(HS_BLOCK_AVX512) && HS_W > 1
/* The entry times of the hits of slots q against the circles at storage positions pos, each
 * lane with its own slot's query: the operations of hs_v_entry with the slot's query
 * broadcast, so the same bits. */
HS_INLINE hs_vf hs_block_lane_entry(const hs_block *B, const hs_grid *g, hs_vi q, hs_vi pos,
                                    const int thick, const int boundary)
{
    hs_vq Q;
    Q.ax = hs_vf_gather(B->ax, q);
    Q.ay = hs_vf_gather(B->ay, q);
    Q.dx = hs_vf_gather(B->dx, q);
    Q.dy = hs_vf_gather(B->dy, q);
    Q.tmin = hs_vf_gather(B->tmin, q);
    Q.tmax = hs_vf_gather(B->tmax, q);
    Q.q = thick ? hs_vf_gather(B->q, q) : hs_vf_set1(0.0f);
    Q.dd = hs_vf_gather(B->dd, q);
    Q.inv_dd = hs_vf_gather(B->inv_dd, q);
    Q.ninv = hs_vf_gather(B->ninv, q);
    Q.kmask = hs_vi_set1(0);
    Q.skip = 0; /* entry times only: the hits are already decided */
    hs_vc c;
    c.cx = hs_vf_gather(g->x, pos);
    c.cy = hs_vf_gather(g->y, pos);
    c.r = hs_vf_gather(g->r, pos);
    return hs_v_entry(&Q, c, thick, boundary);
}

/* The entry times and ids of the listed hits [0, len), HS_W at a time. The lanes past len read
 * slot 0 and position 0 (the list has HS_W entries of room past HS_BLOCK_HITS). */
HS_INLINE void hs_block_entry_times(hs_block *B, const hs_grid *g, size_t len, const int thick,
                                    const int boundary)
{
    HS_ASSERT(len <= HS_BLOCK_HITS); /* + HS_W lanes of room past it */
    memset(B->list_pos + len, 0, HS_W * sizeof *B->list_pos);
    memset(B->list_slot + len, 0, HS_W * sizeof *B->list_slot);
    for (size_t k = 0; k < len; k += HS_W) {
        const hs_vi q = hs_vi_loadu(B->list_slot + k), pos = hs_vi_loadu(B->list_pos + k);
        hs_vf_storeu(B->list_t + k, hs_block_lane_entry(B, g, q, pos, thick, boundary));
        hs_vi_storeu(B->list_id + k, hs_vi_gather(g->id, pos));
    }
}
#elif !defined(HS_BLOCK_AVX512)
/* The hit lanes m of item it appended to the list at len. */
HS_INLINE void hs_block_list_hits(hs_block *B, const hs_grid *g, const hs_item it, hs_vm m,
                                  size_t len, const int thick, const int boundary)
{
    hs_vq Q;
    hs_vc c;
    hs_block_broadcast(B, it.slot, &Q);
    c.cx = hs_vf_loadu(g->x + it.start);
    c.cy = hs_vf_loadu(g->y + it.start);
    c.r = hs_vf_loadu(g->r + it.start);
    HS_ASSERT(len <= HS_BLOCK_HITS); /* a whole vector stored at len: HS_W of room */
    hs_vf_compress(B->list_t + len, m, hs_v_entry(&Q, c, thick, boundary));
    hs_vi_compress(B->list_id + len, m, hs_vi_loadu(g->id + it.start));
    hs_vi_compress(B->list_pos + len, m, hs_vi_iota(it.start));
    hs_vi_storeu(B->list_slot + len, hs_vi_set1(it.slot));
}

/* The listed entry times are already there. */
HS_INLINE void hs_block_entry_times(hs_block *B, const hs_grid *g, size_t len, const int thick,
                                    const int boundary)
{
    (void)B;
    (void)g;
    (void)len;
    (void)thick;
    (void)boundary;
}
#endif

#ifndef HS_BLOCK_AVX512
/* Listed hit k's key. */
HS_INLINE uint64_t hs_block_hit_key(const hs_block *B, size_t k)
{
    const float t0 = B->list_t[k] + 0.0f;
    uint32_t u;
    memcpy(&u, &t0, sizeof u);
    u ^= (uint32_t)((int32_t)u >> 31) | 0x80000000u;
    return (uint64_t)u << 32 | B->list_id[k];
}
#endif

/* The listed hits [0, len) folded into their slots' bests. */
HS_INLINE void hs_block_fold_hits(hs_block *B, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        const uint32_t q = B->list_slot[k];
        uint32_t tb;
        memcpy(&tb, &B->list_t[k], sizeof tb);
        const uint64_t key = hs_block_hit_key(B, k);
        const uint64_t cur = B->best_key[q];
        const uint64_t m = 0u - (uint64_t)(key < cur);
        const uint32_t m32 = (uint32_t)m;
        B->best_key[q] = cur ^ ((cur ^ key) & m);
        B->best_tbits[q] ^= (B->best_tbits[q] ^ tb) & m32;
        B->best_pos[q] ^= (B->best_pos[q] ^ B->list_pos[k]) & m32;
    }
}

/* ---- All's hits ----------------------------------------------------------------------------
 * All writes each item's hit lanes (entry t, caller's id) into the thread's hit buffer. The
 * vector levels first write them as (slot, storage position), and hs_block_all_times turns
 * them into (t, id) HS_W hits at a time, each lane with its own slot's query (with gathers
 * below; on AVX-512 in block_avx512.inl). The scalar level computes each item's entry time as it
 * writes it (an item is one lane there). */
#if HS_W > 1
/* Item it's hit lanes m written to buf at position at as (slot, storage position). */
HS_INLINE void hs_block_all_lanes(hs_hitbuf *buf, size_t at, const hs_grid *g, const hs_item it,
                                  const hs_vq *Q, hs_vc c, hs_vm m, const int thick,
                                  const int boundary)
{
    (void)g;
    (void)Q;
    (void)c;
    (void)thick;
    (void)boundary;
    hs_vi_compress(buf->id + at, m, hs_vi_iota(it.start));
    hs_vi_storeu((uint32_t *)(void *)(buf->t + at), hs_vi_set1(it.slot));
}
#endif

#if !defined(HS_BLOCK_AVX512) && HS_W > 1
/* The hits [from, to) of buf, written as (slot, storage position), turned into (entry t,
 * caller's id). The caller reserved a whole vector per item and one more, so the lanes past
 * `to` are buf's own room: they read slot 0 and position 0 and their results are left there. */
HS_INLINE void hs_block_all_times(const hs_block *B, const hs_grid *g, hs_hitbuf *buf, size_t from,
                                  size_t to, const int thick, const int boundary)
{
    uint32_t *slot = (uint32_t *)(void *)buf->t;
    memset(buf->id + to, 0, HS_W * sizeof *buf->id);
    memset(slot + to, 0, HS_W * sizeof *slot);
    for (size_t k = from; k < to; k += HS_W) {
        const hs_vi q = hs_vi_loadu(slot + k), pos = hs_vi_loadu(buf->id + k);
        hs_vf_storeu(buf->t + k, hs_block_lane_entry(B, g, q, pos, thick, boundary));
        hs_vi_storeu(buf->id + k, hs_vi_gather(g->id, pos));
    }
}
#elif !defined(HS_BLOCK_AVX512)
/* Item it's hit lanes m (its circles c, its query Q) written to buf at position at. */
HS_INLINE void hs_block_all_lanes(hs_hitbuf *buf, size_t at, const hs_grid *g, const hs_item it,
                                  const hs_vq *Q, hs_vc c, hs_vm m, const int thick,
                                  const int boundary)
{
    hs_vf_compress(buf->t + at, m, hs_v_entry(Q, c, thick, boundary));
    hs_vi_compress(buf->id + at, m, hs_vi_loadu(g->id + it.start));
}

/* The hits [from, to) of buf already have their entry times and ids. */
HS_INLINE void hs_block_all_times(const hs_block *B, const hs_grid *g, hs_hitbuf *buf, size_t from,
                                  size_t to, const int thick, const int boundary)
{
    (void)B;
    (void)g;
    (void)buf;
    (void)from;
    (void)to;
    (void)thick;
    (void)boundary;
}
#endif

/* ---- The test step ------------------------------------------------------------------------ */

/* The listed items into the block's trace (tests of the walk, walkers.h). */
static HS_OUTLINE void hs_block_trace(const hs_block *B)
{
    hs_plan_trace *tr = B->trace;
    for (size_t k = 0; k < B->nitems; k++, tr->n++) {
        if (tr->n >= tr->cap)
            continue;
        const hs_item it = B->items[k];
        tr->query[tr->n] = (uint32_t)B->idx[it.slot];
        tr->start[tr->n] = it.start;
        tr->lanes[tr->n] = (uint32_t)__builtin_popcount(it.lanes);
    }
}

/* All: the listed items' hit lanes (entry t, caller's id) written into buf from position at
 * (the caller reserved a whole vector per item), counted into their slots, and with per_item
 * each item's count kept in B->hit_bits; returns the position past them. */
HS_INLINE size_t hs_block_all_lanes_of(hs_block *B, const hs_grid *g, hs_hitbuf *buf, size_t at,
                                       const int per_item, const int thick, const int boundary,
                                       const int usemask, const int skip)
{
    for (size_t k = 0; k < B->nitems; k++) {
        const hs_item it = B->items[k];
        hs_vq Q;
        hs_vc c;
        const hs_vm m = hs_block_item_hits(B, g, it, &Q, &c, thick, boundary, usemask, skip);
        hs_block_all_lanes(buf, at, g, it, &Q, c, m, thick, boundary);
        const uint32_t n = (uint32_t)__builtin_popcount(hs_vm_bits(m));
        at += n;
        if (per_item)
            B->hit_bits[k] = (uint16_t)n;
        B->nhits[it.slot] += n;
    }
    return at;
}

HS_INLINE size_t hs_block_all_items(hs_block *B, const hs_grid *g, hs_hitbuf *buf, size_t at,
                                    const int per_item, const int thick, const int boundary,
                                    const int usemask)
{
    const size_t from = at;
    at = B->skip ? hs_block_all_lanes_of(B, g, buf, at, per_item, thick, boundary, usemask, 1)
                 : hs_block_all_lanes_of(B, g, buf, at, per_item, thick, boundary, usemask, 0);
    hs_block_all_times(B, g, buf, from, at, thick, boundary);
    return at;
}

/* Closest: the items with a hit are listed with their hit lanes (no branch), then their hit
 * lanes go into the hit list, which is folded into the slots' bests whenever it fills. */
HS_INLINE size_t hs_block_hit_items(hs_block *B, const hs_grid *g, const int thick,
                                    const int boundary, const int usemask, const int skip)
{
    size_t nh = 0;
    for (size_t k = 0; k < B->nitems; k++) {
        hs_vq Q;
        hs_vc c;
        const unsigned bits = hs_vm_bits(
            hs_block_item_hits(B, g, B->items[k], &Q, &c, thick, boundary, usemask, skip));
        B->hit_item[nh] = (uint16_t)k;
        B->hit_bits[nh] = (uint16_t)bits;
        nh += bits != 0;
    }
    return nh;
}

HS_INLINE void hs_block_test_closest(hs_block *B, const hs_grid *g, const int thick,
                                     const int boundary, const int usemask)
{
    const size_t nh = B->skip ? hs_block_hit_items(B, g, thick, boundary, usemask, 1)
                              : hs_block_hit_items(B, g, thick, boundary, usemask, 0);
    size_t len = 0;
    for (size_t h = 0; h < nh; h++) {
        const hs_item it = B->items[B->hit_item[h]];
        const unsigned bits = B->hit_bits[h];
        const hs_vm m = hs_vm_from_bits(bits);
        hs_block_list_hits(B, g, it, m, len, thick, boundary);
        len += (size_t)__builtin_popcount(bits);
        if (len > HS_BLOCK_HITS - HS_W) {
            hs_block_entry_times(B, g, len, thick, boundary);
            hs_block_fold_hits(B, len);
            len = 0;
        }
    }
    hs_block_entry_times(B, g, len, thick, boundary);
    hs_block_fold_hits(B, len);
}

/* All: the hit lanes' entry times and caller's ids compressed straight into buf: a slot's
 * items are consecutive, so its hits are too, in query order. Room for a whole vector per
 * item is reserved once. */
HS_INLINE hs_status hs_block_test_all(hs_block *B, const hs_grid *g, hs_hitbuf *buf,
                                      const int thick, const int boundary, const int usemask)
{
    if (buf->cap - buf->len < (B->nitems + 1) * HS_W &&
        hs_hitbuf_reserve(buf, (B->nitems + 1) * HS_W) != HS_OK)
        return HS_E_NOMEM;
    buf->len = hs_block_all_items(B, g, buf, buf->len, 0, thick, boundary, usemask);
    return HS_OK;
}

/* Count / any: each item's hit lanes added to (count) or or-ed into (any) its slot. */
HS_INLINE void hs_block_fold_items(hs_block *B, const hs_grid *g, const int mode, const int thick,
                                   const int boundary, const int usemask, const int skip)
{
    for (size_t k = 0; k < B->nitems; k++) {
        const hs_item it = B->items[k];
        hs_vq Q;
        hs_vc c;
        const unsigned bits =
            hs_vm_bits(hs_block_item_hits(B, g, it, &Q, &c, thick, boundary, usemask, skip));
        if (mode == HS_WALK_COUNT)
            B->nhits[it.slot] += (uint32_t)__builtin_popcount(bits);
        else
            B->nhits[it.slot] |= bits != 0;
    }
}

HS_INLINE void hs_block_test_anycount(hs_block *B, const hs_grid *g, const int mode,
                                      const int thick, const int boundary, const int usemask)
{
    if (B->skip)
        hs_block_fold_items(B, g, mode, thick, boundary, usemask, 1);
    else
        hs_block_fold_items(B, g, mode, thick, boundary, usemask, 0);
}

/* Every listed item through the test of `mode`. HS_E_NOMEM only from all's buffer. */
HS_INLINE hs_status hs_block_test(hs_block *B, const hs_grid *g, const int mode, hs_hitbuf *buf,
                                  const int thick, const int boundary, const int usemask)
{
    if (mode == HS_WALK_CLOSEST) {
        hs_block_test_closest(B, g, thick, boundary, usemask);
        return HS_OK;
    }
    if (mode == HS_WALK_ALL)
        return hs_block_test_all(B, g, buf, thick, boundary, usemask);
    hs_block_test_anycount(B, g, mode, thick, boundary, usemask);
    return HS_OK;
}

/* Test the planned items (count / any / closest fold into the slots, all appends to buf) and
 * empty the list. HS_E_NOMEM only from all's buffer. */
HS_INLINE hs_status hs_block_drain(hs_block *B, const hs_grid *g, const int mode, hs_hitbuf *buf,
                                   hs_tally *acc, const int thick, const int boundary,
                                   const int usemask)
{
    acc->tests += (uint64_t)B->nitems * HS_W; /* whole vectors, as the kernels count them */
    if (B->trace != NULL)
        hs_block_trace(B);
    const hs_status st = hs_block_test(B, g, mode, buf, thick, boundary, usemask);
    B->nitems = 0;
    return st;
}

/* All, for a block planned out of query order: the list's hits written past the room the block
 * needs, then each item's hits moved to its slot's place (slots in order, items of a slot in
 * list order), so buf holds the block's hits query by query, as the slot-by-slot plan leaves
 * them; the driver then sorts each query's hits by (t, id). */
HS_INLINE hs_status hs_brows_all_hits(hs_block *B, const hs_grid *g, hs_hitbuf *buf, hs_tally *acc,
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
        HS_ASSERT(off[q] + n <= tmp); /* the slots' places end before the hits moved */
        /* the item's n hits, not a whole vector: the next slot's place may be filled already */
        hs_vf_store_first(buf->t + off[q], hs_vf_loadu(buf->t + h), n);
        hs_vi_store_first(buf->id + off[q], hs_vi_loadu(buf->id + h), n);
        off[q] += n;
        h += n;
    }
    HS_ASSERT(h == end);
    buf->len = len + (end - tmp);
    B->nitems = 0;
    return HS_OK;
}
