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

/* Item it's circles and the lanes they hit before skip-start. A grid of wall pieces takes
 * every lane: the circle test of a proxy errs by 2^-24 of the query's distance to it, more than
 * the proxy's margin over a short piece, and the pieces' filter (hs_v_wall_near), whose margin
 * follows the query, drops what the proxy test would. */
HS_INLINE hs_vm hs_block_item_proxies(const hs_block *B, const hs_grid *g, const hs_item it,
                                      hs_vq *Q, hs_vc *c, const unsigned tf)
{
    hs_block_broadcast(B, it.slot, Q);
    c->cx = hs_vf_loadu(g->x + it.start);
    c->cy = hs_vf_loadu(g->y + it.start);
    c->r = hs_vf_loadu(g->r + it.start);
    hs_vm m = hs_vm_from_bits(it.lanes);
    if (!HS_TF_HAS(tf, HS_TF_WALL))
        m = hs_vm_and(hs_v_hits(Q, *c, 1, HS_TF_HAS(tf, HS_TF_BOUNDARY)), m);
    if (HS_TF_HAS(tf, HS_TF_MASK | HS_TF_IGNORE)) { /* the filters: one test when neither */
        if (HS_TF_HAS(tf, HS_TF_MASK))
            m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(g->mask + it.start), Q->kmask));
        if (HS_TF_HAS(tf, HS_TF_IGNORE))
            m = hs_v_not_ignored(m, hs_vi_loadu(g->id + it.start), hs_vi_set1(B->ign[it.slot]));
    }
    return m;
}

/* Item it's circles and hit lanes, with the test flags tf (skip-start applied only with
 * HS_TF_SKIP: without it, the test of the flag is not in the loop at all). */
HS_INLINE hs_vm hs_block_item_hits(const hs_block *B, const hs_grid *g, const hs_item it, hs_vq *Q,
                                   hs_vc *c, const unsigned tf)
{
    const hs_vm m = hs_block_item_proxies(B, g, it, Q, c, tf);
    if (HS_TF_HAS(tf, HS_TF_WALL)) {
        const unsigned bits = hs_vm_bits(hs_vm_and(m, hs_v_wall_near(Q, g->walls, it.start)));
        return bits ? hs_vm_from_bits(hs_block_wall_bits(B, g, it, bits)) : hs_vm_from_bits(0u);
    }
    if (HS_TF_HAS(tf, HS_TF_MOVE)) {
        const unsigned bits = hs_vm_bits(m);
        return bits ? hs_vm_from_bits(hs_block_moving_bits(B, g, it, bits)) : hs_vm_from_bits(0u);
    }
    return HS_TF_HAS(tf, HS_TF_SKIP) ? hs_v_keep(Q, *c, m, 1) : m;
}

/* ---- Closest's hit list -----------------------------------------------------------------
 * Closest lists each hit lane of the items as (slot, storage position) and folds the list into
 * the slots' bests with no branch on the data. The order is the smallest t, then among equal t
 * (-0 and +0 too) the smallest caller's id, which is one unsigned 64-bit key: t's bits made
 * monotone (after t + 0, which turns -0 into +0 and leaves every other t as it is) above the
 * id. The winner keeps its own t. Items have few hit lanes (one or two of HS_W on uniform
 * scenes), so the entry times (two square roots, a division and the double terms, per vector)
 * are computed HS_W listed hits at a time, each lane with its own slot's query
 * (hs_block_entry_times, HS_WALK_LANES), not item by item. */

/* The hit lanes m of item it appended to the list at len. */
HS_INLINE void hs_block_list_hits(hs_block *B, const hs_item it, hs_vm m, size_t len)
{
    HS_ASSERT(len <= HS_BLOCK_HITS); /* a whole vector stored at len: HS_W of room */
    hs_vi_compress(B->list_pos + len, m, hs_vi_iota(it.start));
    hs_vi_storeu(B->list_slot + len, hs_vi_set1(it.slot));
}

/* The listed hits [0, len) folded into their slots' bests. */
HS_INLINE void hs_block_fold_hits(hs_block *B, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        uint32_t tb;
        memcpy(&tb, &B->list_t[k], sizeof tb);
        hs_block_fold_one(B, B->list_slot[k], hs_block_hit_key(B, k), tb, B->list_pos[k]);
    }
}

/* ---- All's hits ----------------------------------------------------------------------------
 * All writes each item's hit lanes into the thread's hit buffer as (slot, storage position),
 * and hs_block_all_times (HS_WALK_LANES) turns them into (entry t, caller's id) HS_W hits at a
 * time, each lane with its own slot's query. */

/* Item it's hit lanes m written to buf at position at as (slot, storage position); the slot in
 * the words of buf->t, until hs_block_all_times (HS_WALK_LANES) writes (t, id) over them. */
HS_INLINE void hs_block_all_lanes(hs_hitbuf *buf, size_t at, const hs_item it, hs_vm m)
{
    hs_vi_compress(buf->id + at, m, hs_vi_iota(it.start));
    hs_vi_storeu((uint32_t *)(void *)(buf->t + at), hs_vi_set1(it.slot));
}

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

/* The flags of the block's item loops: W's, and skip-start when the block's queries ask for
 * it (a branch once per loop, not per item). */
#define HS_BW_ITEM_LOOP(W, call) ((W).B->skip ? call((W), (W).tf | HS_TF_SKIP) : call((W), (W).tf))

/* A batch that names circles to ignore (hs_queries.ignore; never on a wall grid, whose ids are
 * walls': wall_query.c strips it) takes its item loops through the *_ignoring copies: out of
 * line, with the filter, so the loops of every other batch stay the code they were. */
#define HS_BW_IGNORING(W) (!HS_TF_HAS((W).tf, HS_TF_WALL) && (W).B->has_ign)
#define HS_BW_IGNORE_LOOP(W, call)                                                                 \
    ((W).B->skip ? call((W), (W).tf | HS_TF_SKIP | HS_TF_IGNORE) : call((W), (W).tf | HS_TF_IGNORE))

/* All: the listed items' hit lanes written into buf from position at as (slot, storage
 * position) (the caller reserved a whole vector per item), counted into their slots, and with
 * per_item each item's count kept in B->hit_bits; returns the position past them. */
HS_INLINE size_t hs_block_all_lanes_of(const hs_bw W, const unsigned tf, size_t at,
                                       const int per_item)
{
    hs_block *B = W.B;
    hs_hitbuf *buf = W.o->buf;
    const size_t nitems = B->nitems;
    for (size_t k = 0; k < nitems; k++) {
        const hs_item it = B->items[k];
        hs_vq Q;
        hs_vc c;
        const hs_vm m = hs_block_item_hits(B, W.g, it, &Q, &c, tf);
        hs_block_all_lanes(buf, at, it, m);
        const uint32_t n = (uint32_t)__builtin_popcount(hs_vm_bits(m));
        at += n;
        if (per_item)
            B->hit_bits[k] = (uint16_t)n;
        B->nhits[it.slot] += n;
    }
    return at;
}

static HS_OUTLINE size_t hs_block_all_lanes_ignoring(const hs_bw W, size_t at, const int per_item)
{
    return W.B->skip ? hs_block_all_lanes_of(W, W.tf | HS_TF_SKIP | HS_TF_IGNORE, at, per_item)
                     : hs_block_all_lanes_of(W, W.tf | HS_TF_IGNORE, at, per_item);
}

/* All: the listed items' hits as (entry t, caller's id) in buf from position at; returns the
 * position past them. */
HS_INLINE size_t hs_block_all_items(const hs_bw W, size_t at, const int per_item)
{
    const size_t from = at;
    at = HS_BW_IGNORING(W) ? hs_block_all_lanes_ignoring(W, at, per_item)
         : W.B->skip       ? hs_block_all_lanes_of(W, W.tf | HS_TF_SKIP, at, per_item)
                           : hs_block_all_lanes_of(W, W.tf, at, per_item);
    if (HS_TF_HAS(W.tf, HS_TF_WALL))
        hs_block_wall_all_times(W.B, W.g, W.o->buf, from, at);
    else if (HS_TF_HAS(W.tf, HS_TF_MOVE))
        hs_block_moving_all_times(W.B, W.g, W.o->buf, from, at);
    else
        hs_block_all_times(W.B, W.g, W.o->buf, from, at, W.tf);
    return at;
}

/* Closest: the listed hits [0, len) timed and folded into their slots' bests. */
HS_INLINE void hs_block_time_and_fold(const hs_bw W, size_t len)
{
    hs_block_entry_times(W.B, W.g, len, W.tf);
    hs_block_fold_hits(W.B, len);
}

/* Closest on a grid of wall pieces, or against moving circles: the items with candidates
 * listed with them first (no branch), then each candidate through the exact test, each hit
 * folded as it is found. */
HS_INLINE size_t hs_block_exact_closest(const hs_bw W, const unsigned tf)
{
    hs_block *B = W.B;
    size_t nh = 0;
    for (size_t k = 0; k < B->nitems; k++) {
        const hs_item it = B->items[k];
        hs_vq Q;
        hs_vc c;
        hs_vm m = hs_block_item_proxies(B, W.g, it, &Q, &c, tf);
        if (HS_TF_HAS(tf, HS_TF_WALL))
            m = hs_vm_and(m, hs_v_wall_near(&Q, W.g->walls, it.start));
        const unsigned bits = hs_vm_bits(m);
        B->hit_item[nh] = (uint16_t)k;
        B->hit_bits[nh] = (uint16_t)bits;
        nh += bits != 0;
    }
    for (size_t h = 0; h < nh; h++) {
        const hs_item it = B->items[B->hit_item[h]];
        if (HS_TF_HAS(tf, HS_TF_WALL))
            hs_block_wall_fold_item(B, W.g, it, B->hit_bits[h]);
        else
            hs_block_moving_fold_item(B, W.g, it, B->hit_bits[h]);
    }
    return 0;
}

static HS_OUTLINE void hs_block_exact_closest_ignoring(const hs_bw W)
{
    (void)HS_BW_IGNORE_LOOP(W, hs_block_exact_closest);
}

/* Closest: the items with a hit are listed with their hit lanes (no branch); returns their
 * number. */
HS_INLINE size_t hs_block_hit_items(const hs_bw W, const unsigned tf)
{
    hs_block *B = W.B;
    size_t nh = 0;
    for (size_t k = 0; k < B->nitems; k++) {
        hs_vq Q;
        hs_vc c;
        const unsigned bits = hs_vm_bits(hs_block_item_hits(B, W.g, B->items[k], &Q, &c, tf));
        B->hit_item[nh] = (uint16_t)k;
        B->hit_bits[nh] = (uint16_t)bits;
        nh += bits != 0;
    }
    return nh;
}

static HS_OUTLINE size_t hs_block_hit_items_ignoring(const hs_bw W)
{
    return HS_BW_IGNORE_LOOP(W, hs_block_hit_items);
}

/* Closest: the hit items' lanes go into the hit list, which is folded into the slots' bests
 * whenever it fills. */
HS_INLINE void hs_block_test_closest(const hs_bw W)
{
    hs_block *B = W.B;
    if (HS_TF_HAS(W.tf, HS_TF_WALL | HS_TF_MOVE)) {
        if (HS_BW_IGNORING(W))
            hs_block_exact_closest_ignoring(W);
        else
            HS_BW_ITEM_LOOP(W, hs_block_exact_closest);
        return;
    }
    const size_t nh =
        HS_BW_IGNORING(W) ? hs_block_hit_items_ignoring(W) : HS_BW_ITEM_LOOP(W, hs_block_hit_items);
    size_t len = 0;
    for (size_t h = 0; h < nh; h++) {
        const unsigned bits = B->hit_bits[h];
        hs_block_list_hits(B, B->items[B->hit_item[h]], hs_vm_from_bits(bits), len);
        len += (size_t)__builtin_popcount(bits);
        if (len > HS_BLOCK_HITS - HS_W) {
            hs_block_time_and_fold(W, len);
            len = 0;
        }
    }
    hs_block_time_and_fold(W, len);
}

/* All: the hits compressed straight into buf: a slot's items are consecutive, so its hits are
 * too, in query order. Room for a whole vector per item is reserved once. */
HS_INLINE hs_status hs_block_test_all(const hs_bw W)
{
    hs_hitbuf *buf = W.o->buf;
    const size_t room = (W.B->nitems + 1) * HS_W;
    if (buf->cap - buf->len < room && hs_hitbuf_reserve(buf, room) != HS_OK)
        return HS_E_NOMEM;
    buf->len = hs_block_all_items(W, buf->len, 0);
    return HS_OK;
}

/* Count / any: each item's hit lanes added to (count) or or-ed into (any) its slot. */
HS_INLINE void hs_block_fold_items(const hs_bw W, const unsigned tf)
{
    hs_block *B = W.B;
    for (size_t k = 0; k < B->nitems; k++) {
        const hs_item it = B->items[k];
        hs_vq Q;
        hs_vc c;
        const unsigned bits = hs_vm_bits(hs_block_item_hits(B, W.g, it, &Q, &c, tf));
        if (W.mode == HS_WALK_COUNT)
            B->nhits[it.slot] += (uint32_t)__builtin_popcount(bits);
        else
            B->nhits[it.slot] |= bits != 0;
    }
}

static HS_OUTLINE void hs_block_fold_items_ignoring(const hs_bw W)
{
    HS_BW_IGNORE_LOOP(W, hs_block_fold_items);
}

/* Test the planned items (count / any / closest fold into the slots, all appends to buf) and
 * empty the list. HS_E_NOMEM only from all's buffer. */
HS_INLINE hs_status hs_block_drain(const hs_bw W)
{
    hs_block *B = W.B;
    W.acc->tests += (uint64_t)B->nitems * HS_W; /* whole vectors, as the kernels count them */
    if (B->trace != NULL)
        hs_block_trace(B);
    hs_status st = HS_OK;
    if (W.mode == HS_WALK_CLOSEST)
        hs_block_test_closest(W);
    else if (W.mode == HS_WALK_ALL)
        st = hs_block_test_all(W);
    else if (HS_BW_IGNORING(W))
        hs_block_fold_items_ignoring(W);
    else
        HS_BW_ITEM_LOOP(W, hs_block_fold_items);
    B->nitems = 0;
    return st;
}

/* All, for a block planned out of query order: the list's hits written past the room the block
 * needs, then each item's hits moved to its slot's place (slots in order, items of a slot in
 * list order), so buf holds the block's hits query by query, as the slot-by-slot plan leaves
 * them; the driver then sorts each query's hits by (t, id). */
HS_INLINE hs_status hs_brows_all_hits(const hs_bw W)
{
    hs_block *B = W.B;
    hs_hitbuf *buf = W.o->buf;
    const size_t room = (B->nitems + 1) * HS_W;
    if (buf->cap - buf->len < 2 * room && hs_hitbuf_reserve(buf, 2 * room) != HS_OK)
        return HS_E_NOMEM;
    W.acc->tests += (uint64_t)B->nitems * HS_W;
    if (B->trace != NULL)
        hs_block_trace(B);
    const size_t len = buf->len, tmp = len + room;
    const size_t end = hs_block_all_items(W, tmp, 1);
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
