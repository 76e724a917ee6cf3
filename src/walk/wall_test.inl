/* SPDX-License-Identifier: MIT */
/* Internal: the block's steps on a grid of wall pieces (grid/wall_grid.h). The pieces of the
 * cells a query crosses go through a vector filter (hs_v_wall_near), not the circle test of
 * their proxies, whose rounding (2^-24 of the query's distance) can exceed a short piece's
 * proxy; each lane kept then takes the exact wall test (hs_gwall_hits) under the slot's query
 * and semantics, which also keeps the hit on one piece of its wall only. Lanes kept are few
 * (a piece kept nearly crosses the query), so these steps are scalar, out of line, and cost
 * nothing to a grid of circles. Part of the per-ISA walk (walk.inl). */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* An upper bound of |(x, y)| from s = x x + y y in float: sqrt(s) rounded up, or |x| + |y| where
 * s lies near or in the subnormals, which keep few of its digits. */
HS_INLINE hs_vf hs_v_norm_up(hs_vf x, hs_vf y, hs_vf s, hs_vf up)
{
    return hs_vf_select(hs_vm_lt(s, hs_vf_set1(0x1p-100f)), hs_vf_add(hs_vf_abs(x), hs_vf_abs(y)),
                        hs_vf_mul(hs_vf_sqrt(s), up));
}

/* The lanes of the pieces at storage positions start .. start + HS_W - 1 that may lie within
 * q + w of the query Q: a lane is dropped only where the query's line, or the piece's, has
 * the whole of the other beyond that reach on one side (a separating axis). Each signed
 * distance, times a length, is a difference of products of float sums: it errs by a few
 * 2^-24 of |factor| |term| summed, and the margin is 2^-19 of that (and of the lengths), plus
 * 2^-140 for products that underflow. The pieces are grown (wall_grid.h), so a hit kept on a
 * piece is near the piece as stored. */
HS_INLINE hs_vm hs_v_wall_near(const hs_vq *Q, const struct hs_gwalls *W, uint32_t start)
{
    const hs_vf x0 = hs_vf_loadu(W->x0 + start), y0 = hs_vf_loadu(W->y0 + start);
    const hs_vf x1 = hs_vf_loadu(W->x1 + start), y1 = hs_vf_loadu(W->y1 + start);
    const hs_vf tiny = hs_vf_set1(0x1p-19f), up = hs_vf_set1(1.0f + 0x1p-18f);
    const hs_vf adx = hs_vf_abs(Q->dx), ady = hs_vf_abs(Q->dy);
    const hs_vf aax = hs_vf_abs(Q->ax), aay = hs_vf_abs(Q->ay);
    /* the reach: q, the piece's (its wall's thickness and the test's error at the wall's
     * magnitude, wall_grid.c), and the test's error at the query's start, 2^-46 of |a| */
    const hs_vf R = hs_vf_add(hs_vf_add(Q->q, hs_vf_loadu(W->w + start)),
                              hs_vf_mul(hs_vf_set1(0x1p-40f), hs_vf_add(aax, aay)));
    const hs_vf ax0 = hs_vf_abs(x0), ay0 = hs_vf_abs(y0), ax1 = hs_vf_abs(x1), ay1 = hs_vf_abs(y1);
    /* the query's line: both ends of the piece beyond R |d| on one side */
    const hs_vf c0 =
        hs_vf_sub(hs_vf_mul(Q->dx, hs_vf_sub(y0, Q->ay)), hs_vf_mul(Q->dy, hs_vf_sub(x0, Q->ax)));
    const hs_vf c1 =
        hs_vf_sub(hs_vf_mul(Q->dx, hs_vf_sub(y1, Q->ay)), hs_vf_mul(Q->dy, hs_vf_sub(x1, Q->ax)));
    const hs_vf floor = hs_vf_set1(0x1p-140f);
    const hs_vf rd = hs_vf_add(hs_vf_mul(R, hs_v_norm_up(Q->dx, Q->dy, Q->dd, up)), floor);
    const hs_vf l0 = hs_vf_add(rd, hs_vf_mul(tiny, hs_vf_add(hs_vf_mul(adx, hs_vf_add(ay0, aay)),
                                                             hs_vf_mul(ady, hs_vf_add(ax0, aax)))));
    const hs_vf l1 = hs_vf_add(rd, hs_vf_mul(tiny, hs_vf_add(hs_vf_mul(adx, hs_vf_add(ay1, aay)),
                                                             hs_vf_mul(ady, hs_vf_add(ax1, aax)))));
    const hs_vm apart_q =
        hs_vm_or(hs_vm_and(hs_vm_lt(l0, c0), hs_vm_lt(l1, c1)),
                 hs_vm_and(hs_vm_lt(c0, hs_vf_neg(l0)), hs_vm_lt(c1, hs_vf_neg(l1))));
    /* the piece's line: both ends of the query beyond R |e| on one side (an infinite end
     * gives an infinite margin, so a ray or line is never dropped by this axis) */
    const hs_vf ex = hs_vf_sub(x1, x0), ey = hs_vf_sub(y1, y0);
    const hs_vf ea = hs_vf_add(hs_vf_add(hs_vf_abs(ex), hs_vf_abs(ey)),
                               hs_vf_add(hs_vf_add(ax0, ay0), hs_vf_add(ax1, ay1)));
    const hs_vf base = hs_vf_add(hs_vf_add(aax, aay), hs_vf_add(hs_vf_add(ax0, ay0), R));
    const hs_vf re = hs_vf_add(
        hs_vf_mul(R, hs_v_norm_up(ex, ey, hs_vf_add(hs_vf_mul(ex, ex), hs_vf_mul(ey, ey)), up)),
        floor);
    const hs_vf s0x = hs_vf_sub(hs_vf_add(Q->ax, hs_vf_mul(Q->tmin, Q->dx)), x0);
    const hs_vf s0y = hs_vf_sub(hs_vf_add(Q->ay, hs_vf_mul(Q->tmin, Q->dy)), y0);
    const hs_vf s1x = hs_vf_sub(hs_vf_add(Q->ax, hs_vf_mul(Q->tmax, Q->dx)), x0);
    const hs_vf s1y = hs_vf_sub(hs_vf_add(Q->ay, hs_vf_mul(Q->tmax, Q->dy)), y0);
    const hs_vf h0 = hs_vf_sub(hs_vf_mul(ex, s0y), hs_vf_mul(ey, s0x));
    const hs_vf h1 = hs_vf_sub(hs_vf_mul(ex, s1y), hs_vf_mul(ey, s1x));
    const hs_vf dsum = hs_vf_add(adx, ady);
    const hs_vf m0 = hs_vf_add(
        re, hs_vf_mul(tiny, hs_vf_mul(ea, hs_vf_add(base, hs_vf_mul(hs_vf_abs(Q->tmin), dsum)))));
    const hs_vf m1 = hs_vf_add(
        re, hs_vf_mul(tiny, hs_vf_mul(ea, hs_vf_add(base, hs_vf_mul(hs_vf_abs(Q->tmax), dsum)))));
    const hs_vm apart_w =
        hs_vm_or(hs_vm_and(hs_vm_lt(m0, h0), hs_vm_lt(m1, h1)),
                 hs_vm_and(hs_vm_lt(h0, hs_vf_neg(m0)), hs_vm_lt(h1, hs_vf_neg(m1))));
    return hs_vm_andnot(hs_vm_from_bits((1u << HS_W) - 1u), hs_vm_or(apart_q, apart_w));
}

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

/* Closest's cut. A hit the exact test reports at storage position pos has P(t) within q of the
 * piece grown by its wall's thickness, so within q + r of the proxy's centre c:
 * (c - a).d - (q + r) |d| <= t d.d. The exact test's t errs by up to 2^-22 of the scene's
 * coordinates M (|a|, |c|, q + r, |t d|) over |d| (wall_core.h), so a lane whose left side, in
 * double, exceeds best t d.d by more than 2^-16 M |d| has t > best: it cannot change the slot's
 * best, not even by a tie. */
typedef struct hs_wall_cut {
    double dx, dy, ax, ay, dd, len, q, limit; /* limit: best t d.d, raised; +inf before a hit */
} hs_wall_cut;

/* The limit from the slot's best as it stands (after each hit folded). */
HS_INLINE void hs_wall_cut_limit(hs_wall_cut *c, const hs_block *B, uint32_t slot)
{
    c->limit = INFINITY;
    if (B->best_key[slot] != UINT64_MAX && c->dd > 0.0) { /* a point query: no cut */
        float t;
        memcpy(&t, &B->best_tbits[slot], sizeof t);
        c->limit =
            (double)t * c->dd + 0x1p-16 * c->len * (fabs(c->ax) + fabs(c->ay) + fabs(t) * c->len);
    }
}

HS_INLINE hs_wall_cut hs_wall_cut_make(const hs_block *B, uint32_t slot)
{
    hs_wall_cut c;
    c.dx = B->dx[slot];
    c.dy = B->dy[slot];
    c.ax = B->ax[slot];
    c.ay = B->ay[slot];
    c.q = B->q[slot];
    c.dd = c.dx * c.dx + c.dy * c.dy;
    c.len = sqrt(c.dd);
    hs_wall_cut_limit(&c, B, slot);
    return c;
}

HS_INLINE int hs_wall_cut_past(const hs_wall_cut *c, const hs_grid *g, uint32_t pos)
{
    const double cx = g->x[pos], cy = g->y[pos], reach = c->q + g->r[pos];
    const double near = (cx - c->ax) * c->dx + (cy - c->ay) * c->dy - reach * c->len;
    return near - 0x1p-16 * c->len * (fabs(cx) + fabs(cy) + 2.0 * reach) > c->limit;
}

/* Closest: the proxy hits `bits` of item it through the exact test, each hit folded into the
 * slot's best (hs_block_fold_t); a lane past the cut is skipped. */
static HS_OUTLINE void hs_block_wall_fold_item(hs_block *B, const hs_grid *g, const hs_item it,
                                               unsigned bits)
{
    const hs_kq k = hs_block_kq(B, it.slot, B->sem);
    hs_wall_cut cut = hs_wall_cut_make(B, it.slot);
    for (; bits != 0u; bits &= bits - 1u) {
        const uint32_t pos = it.start + (uint32_t)__builtin_ctz(bits);
        if (hs_wall_cut_past(&cut, g, pos))
            continue;
        hs_wall_hit h;
        if (hs_gwall_hits(g, pos, &k, &h)) {
            hs_block_fold_t(B, it.slot, h.t, g->id[pos], pos);
            hs_wall_cut_limit(&cut, B, it.slot);
        }
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
