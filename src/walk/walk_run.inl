/* SPDX-License-Identifier: MIT */
/* Internal: one run of the grid's storage (consecutive circles of one row of cells) through
 * the pair test of a walk mode, with the query's constant parameters bound; the first half of
 * the per-query walk (walk_query.inl). Part of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

typedef struct hs_walk {
    hs_vq Q;
    const hs_grid *g;
    uint64_t tests;
    float best_t;
    uint32_t best_id, best_pos;
    uint32_t count;
    unsigned tf; /* the test flags HS_TF_THICK, _BOUNDARY and _MASK of the query and grid */
    hs_hitbuf *buf;
    hs_block *blk;   /* PLAN: the block and the slot items go to */
    const hs_kq *kq; /* the query (a wall grid's exact tests) */
    size_t slot;
    hs_status err;
} hs_walk;

/* ---- One run of storage ------------------------------------------------------------------- */

/* Item k of the list: k_lanes (0 .. HS_W) circles of slot from storage position start. */
HS_INLINE void hs_walk_put_item(hs_block *B, size_t k, uint32_t start, uint16_t slot,
                                size_t k_lanes)
{
    HS_ASSERT(k <= HS_BLOCK_ITEMS); /* item HS_BLOCK_ITEMS: the one of room, never counted */
    HS_ASSERT(k_lanes <= (size_t)HS_W);
    B->items[k].start = start;
    B->items[k].slot = slot;
    B->items[k].lanes = (uint16_t)((1u << k_lanes) - 1u);
}

/* PLAN: the run [b, e) as items of the query in slot w->slot; 1 if they do not fit. */
HS_INLINE int hs_walk_plan_run(hs_walk *w, uint32_t b, uint32_t e)
{
    hs_block *B = w->blk;
    size_t nitems = B->nitems;
    const size_t n = (size_t)(e - b);
    if ((n + HS_W - 1) / HS_W > HS_BLOCK_ITEMS - nitems)
        return 1;
    const uint16_t slot = (uint16_t)w->slot;
    /* The first two vectors are written whatever n is and counted only when they hold
     * circles: whether a run fills a second vector changes from row to row, and a branch on
     * it mispredicts. An item written and not counted is overwritten by the next (the list
     * has one item of room past its end for it: with n <= HS_W the check above leaves one). */
    const size_t n1 = n < (size_t)HS_W ? n : (size_t)HS_W, rest = n - n1;
    hs_walk_put_item(B, nitems, b, slot, n1);
    nitems += n != 0;
    hs_walk_put_item(B, nitems, b + (uint32_t)HS_W, slot,
                     rest < (size_t)HS_W ? rest : (size_t)HS_W);
    nitems += rest != 0;
    for (size_t s = 2 * (size_t)HS_W; s < n; s += HS_W) /* runs past two vectors: dense rows */
        hs_walk_put_item(B, nitems++, b + (uint32_t)s, slot,
                         n - s < (size_t)HS_W ? n - s : (size_t)HS_W);
    HS_ASSERT(nitems <= HS_BLOCK_ITEMS);
    B->nitems = nitems;
    return 0;
}

/* Hit lanes of the k (1..HS_W) circles at i: whole-vector loads (the grid's arrays are
 * padded past the last circle) with the lanes past k masked off, so every vector, full or
 * not, takes the same path (a run is one or two vectors: "is this the tail" would be a
 * mispredicted branch per row). */
HS_INLINE hs_vm hs_walk_vector_hits(const hs_vq *Q, const hs_run *run, size_t i, size_t k, hs_vc *c,
                                    const unsigned tf)
{
    const int thick = HS_TF_HAS(tf, HS_TF_THICK);
    c->cx = hs_vf_loadu(run->x + i);
    c->cy = hs_vf_loadu(run->y + i);
    c->r = hs_vf_loadu(run->r + i);
    hs_vm m = hs_vm_and(hs_v_hits(Q, *c, thick, HS_TF_HAS(tf, HS_TF_BOUNDARY)), hs_vm_first(k));
    if (HS_TF_HAS(tf, HS_TF_MASK))
        m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(run->mask + i), Q->kmask));
    if (HS_TF_HAS(tf, HS_TF_IGNORE))
        m = hs_v_not_ignored(m, hs_vi_loadu(run->ids + i), Q->kign);
    return hs_v_keep(Q, *c, m, thick);
}

/* Storage positions [b, e) of the grid as a kernel run (ids: the caller's indices). */
HS_INLINE hs_run hs_walk_storage_run(const hs_grid *g, uint32_t b, uint32_t e)
{
    hs_run run;
    run.x = g->x + b;
    run.y = g->y + b;
    run.r = g->r + b;
    run.mask = g->mask != NULL ? g->mask + b : NULL;
    run.ids = g->id + b;
    run.n = e - b;
    run.base = b;
    return run;
}

/* Closest: the run's hits lower (best_t, best_id). */
HS_INLINE void hs_walk_run_closest(hs_walk *w, const hs_run *run, const unsigned tf)
{
    const size_t n = run->n;
    hs_vc c;
    float bt = w->best_t;
    uint32_t bid = w->best_id, bpos = w->best_pos;
    for (size_t i = 0; i < n; i += HS_W) {
        size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
        hs_vm m = hs_walk_vector_hits(&w->Q, run, i, k, &c, tf);
        if (hs_vm_bits(m))
            hs_closest_vec(&w->Q, run, i, k, m, c, &bt, &bid, &bpos, HS_TF_HAS(tf, HS_TF_THICK),
                           HS_TF_HAS(tf, HS_TF_BOUNDARY), 1);
    }
    w->best_t = bt;
    w->best_id = bid;
    w->best_pos = bpos;
}

/* Any: 1 at the first vector with a hit. */
HS_INLINE int hs_walk_run_any(hs_walk *w, const hs_run *run, const unsigned tf)
{
    const size_t n = run->n;
    hs_vc c;
    for (size_t i = 0; i < n; i += HS_W) {
        size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
        if (hs_vm_bits(hs_walk_vector_hits(&w->Q, run, i, k, &c, tf)))
            return 1;
    }
    return 0;
}

/* Count: the run's hits added to w->count. */
HS_INLINE void hs_walk_run_count(hs_walk *w, const hs_run *run, const unsigned tf)
{
    const size_t n = run->n;
    hs_vc c;
    uint32_t cnt = 0;
    for (size_t i = 0; i < n; i += HS_W) {
        size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
        cnt +=
            (uint32_t)__builtin_popcount(hs_vm_bits(hs_walk_vector_hits(&w->Q, run, i, k, &c, tf)));
    }
    w->count += cnt;
}

/* All: the run's hits straight into the thread's hit buffer, with room for the run plus one
 * vector, so the vector-wide compress stores never need the spill path. 1 if that room could
 * not be allocated. */
HS_INLINE int hs_walk_run_all(hs_walk *w, const hs_run *run, const unsigned tf)
{
    const size_t n = run->n;
    hs_vc c;
    hs_hitbuf *buf = w->buf;
    if (buf->cap - buf->len < n + HS_W && hs_hitbuf_reserve(buf, n + HS_W) != HS_OK) {
        w->err = HS_E_NOMEM;
        return 1;
    }
    uint32_t *ids = buf->id + buf->len;
    float *ts = buf->t + buf->len;
    size_t found = 0;
    for (size_t i = 0; i < n; i += HS_W) {
        size_t k = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
        hs_vm m = hs_walk_vector_hits(&w->Q, run, i, k, &c, tf);
        unsigned bits = hs_vm_bits(m);
        if (bits) {
            hs_all_vec(&w->Q, run, i, k, m, c, ids, ts, n + HS_W, found, HS_TF_HAS(tf, HS_TF_THICK),
                       HS_TF_HAS(tf, HS_TF_BOUNDARY), 1);
            found += (size_t)__builtin_popcount(bits);
        }
    }
    buf->len += found;
    return 0;
}

/* One storage run [b, e) through the pair test of `mode`, with the constant parameters bound.
 * Returns 1 to stop (any-hit found, allocation failed). */
HS_INLINE int hs_walk_test_run(hs_walk *w, const int mode, uint32_t b, uint32_t e,
                               const unsigned tf)
{
    const hs_run run = hs_walk_storage_run(w->g, b, e);
    if (mode == HS_WALK_CLOSEST) {
        hs_walk_run_closest(w, &run, tf);
        return 0;
    }
    if (mode == HS_WALK_ANY)
        return hs_walk_run_any(w, &run, tf);
    if (mode == HS_WALK_COUNT) {
        hs_walk_run_count(w, &run, tf);
        return 0;
    }
    return hs_walk_run_all(w, &run, tf);
}

static int HS_FN(walk_moving_run)(hs_walk *w, int mode, uint32_t b, uint32_t e);

/* A run of a grid of wall pieces (grid/wall_grid.h), piece by piece through the exact test:
 * the per-query walk takes few queries, so no proxy test first. Returns 1 to stop. */
static HS_OUTLINE int hs_walk_wall_run(hs_walk *w, const int mode, uint32_t b, uint32_t e)
{
    const hs_grid *g = w->g;
    if (mode == HS_WALK_ALL && w->buf->cap - w->buf->len < (size_t)(e - b) &&
        hs_hitbuf_reserve(w->buf, (size_t)(e - b)) != HS_OK) {
        w->err = HS_E_NOMEM;
        return 1;
    }
    for (uint32_t pos = b; pos < e; pos++) {
        hs_wall_hit h;
        if (!hs_gwall_hits(g, pos, w->kq, &h))
            continue;
        const uint32_t id = g->id[pos];
        switch (mode) {
        case HS_WALK_ANY: return 1;
        case HS_WALK_COUNT: w->count++; break;
        case HS_WALK_CLOSEST:
            /* the key of the block's fold: t (with -0 as +0), then the index */
            if (h.t + 0.0f < w->best_t + 0.0f ||
                (h.t + 0.0f == w->best_t + 0.0f && id < w->best_id)) {
                w->best_t = h.t;
                w->best_id = id;
                w->best_pos = pos;
            }
            break;
        default:
            w->buf->t[w->buf->len] = h.t;
            w->buf->id[w->buf->len++] = id;
            break;
        }
    }
    return 0;
}

/* The run [b, e): planned (PLAN) or tested with the query's constant parameters bound. */
HS_INLINE int hs_walk_run(hs_walk *w, const int mode, uint32_t b, uint32_t e)
{
    if (mode == HS_WALK_PLAN)
        return hs_walk_plan_run(w, b, e);
    if (mode & HS_WALK_MOVED) /* moving circles: walk_moving.inl */
        return HS_FN(walk_moving_run)(w, HS_WALK_BASE(mode), b, e);
    /* circle tests as the kernels make them: whole vectors, padding lanes included */
    w->tests += ((uint64_t)(e - b) + HS_W - 1u) / HS_W * HS_W;
    if (w->g->walls != NULL)
        return hs_walk_wall_run(w, mode, b, e);
    if (HS_TF_HAS(w->tf, HS_TF_IGNORE)) /* rare: one copy with the flags known at run time */
        return hs_walk_test_run(w, mode, b, e, w->tf);
    switch (w->tf) { /* each combination a constant of its own copy */
    case 0: return hs_walk_test_run(w, mode, b, e, 0);
    case HS_TF_MASK: return hs_walk_test_run(w, mode, b, e, HS_TF_MASK);
    case HS_TF_BOUNDARY: return hs_walk_test_run(w, mode, b, e, HS_TF_BOUNDARY);
    case HS_TF_BOUNDARY | HS_TF_MASK:
        return hs_walk_test_run(w, mode, b, e, HS_TF_BOUNDARY | HS_TF_MASK);
    case HS_TF_THICK: return hs_walk_test_run(w, mode, b, e, HS_TF_THICK);
    case HS_TF_THICK | HS_TF_MASK: return hs_walk_test_run(w, mode, b, e, HS_TF_THICK | HS_TF_MASK);
    case HS_TF_THICK | HS_TF_BOUNDARY:
        return hs_walk_test_run(w, mode, b, e, HS_TF_THICK | HS_TF_BOUNDARY);
    default: return hs_walk_test_run(w, mode, b, e, HS_TF_THICK | HS_TF_BOUNDARY | HS_TF_MASK);
    }
}
