/* SPDX-License-Identifier: MIT */
/* Internal: a block of up to HS_BLOCK_Q short queries walked together: its layout, the
 * queries' preparation and each level's row set-up. Part of the per-ISA walk (walk.inl).
 *
 * Walked one at a time, a short query spends more on setting its walk up and on the branches
 * around it than on its few pair tests. So a range of a batch is answered in blocks of
 * HS_BLOCK_Q consecutive queries (block_walk.inl), each through five steps:
 *   1. prep (hs_block_prep): validity and the prepared query, HS_W queries per vector;
 *   2. set-up (hs_block_setup): per level, the box of rows and each row's clipped run as a
 *      linear function of the row, HS_W queries per vector;
 *   3. plan (block_plan_rows.inl): each query's row runs, cut into items of at most HS_W
 *      circles, go into one flat list, row k of the whole block HS_W queries per vector (on the
 *      levels narrower than 8 lanes, count and all plan slot by slot instead, block_plan.inl);
 *   4. test (block_test.inl): one loop over the items with no branch on the data; count and any
 *      fold the hit lanes into the slot, all compresses each hit lane's (t, id) into the hit
 *      buffer, closest lists the hit lanes and folds them into the slots' bests;
 *   5. answer (block_answer.inl): each slot's result to the caller's arrays, or staged in the
 *      batch's locality order.
 * The row plan keeps closest's and any's early exit: row k of the block is tested as soon as
 * it is planned, any drops the queries that hit, closest those whose best t lies before any
 * later row can be entered. What the vector set-up does not cover
 * (zero-length queries, ends outside the level, infinite intervals) is planned by the
 * per-query walk's own row logic (HS_WALK_PLAN); long queries (boxes over HS_WALK_BOX_CELLS
 * cells, where early exit matters) and queries whose items do not fit in an empty block take
 * the per-query walk (walk_query.inl). Items are whole-vector loads at any run start: the
 * grid's arrays are padded past the last circle (HS_PAD_FLOATS) and the lanes past the item
 * are masked off. Every path tests each candidate circle once with the kernels' own pair
 * arithmetic, so the answers are the per-query walk's, bit for bit. */
#ifndef HS_KNAME
#error "include walk.inl, not this file"
#endif

/* 64 slots: a slot fits hs_item's 16 bits, and the AVX-512 answer step reads 4 x 16 lanes */
#define HS_BLOCK_Q 64
_Static_assert(HS_BLOCK_Q % HS_W == 0, "hs_block_prep initialises whole chunks of HS_W slots");
#define HS_BLOCK_GROUPS (HS_BLOCK_Q / HS_W) /* vectors of slots */
_Static_assert(HS_BLOCK_GROUPS <= 64, "the row plan keeps its live groups in 64 bits");

/* One item: up to HS_W consecutive circles of one slot's run. */
typedef struct hs_item {
    uint32_t start; /* storage position of the item's first circle */
    uint16_t slot;  /* the query's slot */
    uint16_t lanes; /* its lanes, the first 1 .. HS_W, as bits (one mask load in the tests) */
} hs_item;
/* The AVX-512 plan writes an item as one 64-bit lane: start, then slot | lanes << 16. */
_Static_assert(sizeof(hs_item) == 8 && offsetof(hs_item, slot) == 4 &&
                   offsetof(hs_item, lanes) == 6,
               "hs_item is (start, slot, lanes) in 8 bytes");
_Static_assert(HS_BLOCK_Q <= 1 << 16 && HS_W <= 16, "a slot and an item's lanes fit 16 bits");
_Static_assert(HS_BLOCK_ITEMS < 1 << 16, "hit_item holds an item's index in 16 bits");
_Static_assert(HS_GRID_LEVELS <= 32, "hs_block.apart holds a bit per level");

/* INVALID: answered as a miss, untested (an invalid query, or one whose mask passes no
 * circle); DONE: answered by the per-query walk. */
enum { HS_SLOT_LIVE, HS_SLOT_INVALID, HS_SLOT_DONE };

/* One level's rows for each slot (hs_block_setup): rows row0 .. row0 + nrows - 1, row k's
 * cells [first, last] with, at pos = pos0 + k pos_step (the query's x in cell units),
 *   first = clamp(pos + first_off, first_min, first_max),
 *   last  = clamp(pos + last_off, last_min, last_max), truncated.
 * nrows < 0: not set up (the slot-by-slot plan decides). Floats: all are small integers or
 * cell coordinates, and hs_block_setup's margin covers their rounding. */
typedef struct hs_row_setup {
    float row0[HS_BLOCK_Q], nrows[HS_BLOCK_Q];
    float pos0[HS_BLOCK_Q], pos_step[HS_BLOCK_Q], first_off[HS_BLOCK_Q], last_off[HS_BLOCK_Q];
    float first_min[HS_BLOCK_Q], first_max[HS_BLOCK_Q], last_min[HS_BLOCK_Q], last_max[HS_BLOCK_Q];
    float reach[HS_BLOCK_Q]; /* the inflation, margin included (closest's early exit) */
} hs_row_setup;

typedef struct hs_block {
    size_t base, nq; /* slot j is batch position base + j, the caller's query idx[j] */
    size_t answered; /* slots below are answered */
    size_t nitems;   /* items listed */
    /* the slots' prepared queries (hs_kq field by field; ninv = -inv_dd) */
    float ax[HS_BLOCK_Q], ay[HS_BLOCK_Q], dx[HS_BLOCK_Q], dy[HS_BLOCK_Q];
    float tmin[HS_BLOCK_Q], tmax[HS_BLOCK_Q];
    float q[HS_BLOCK_Q], dd[HS_BLOCK_Q], inv_dd[HS_BLOCK_Q], ninv[HS_BLOCK_Q];
    uint32_t kmask[HS_BLOCK_Q];
    size_t idx[HS_BLOCK_Q];
    uint8_t state[HS_BLOCK_Q];
    /* closest: best (t, caller's id) as hs_block_fold_hits's key, its t's bits, its storage
     * position */
    uint64_t best_key[HS_BLOCK_Q];
    uint32_t best_tbits[HS_BLOCK_Q], best_pos[HS_BLOCK_Q];
    uint32_t nhits[HS_BLOCK_Q]; /* count / any / all: hits */
    hs_row_setup rows[HS_GRID_LEVELS];
    hs_item items[HS_BLOCK_ITEMS + 1]; /* + 1: room for an item written, not counted */
    /* closest: the items with a hit and their hit lanes; all: each item's hit count */
    uint16_t hit_item[HS_BLOCK_ITEMS];
    uint16_t hit_bits[HS_BLOCK_ITEMS];
    /* closest: hits listed for hs_block_fold_hits (+ HS_W: whole-vector stores) */
    float list_t[HS_BLOCK_HITS + HS_W];
    uint32_t list_pos[HS_BLOCK_HITS + HS_W], list_slot[HS_BLOCK_HITS + HS_W];
    uint32_t list_id[HS_BLOCK_HITS + HS_W];  /* the hits' caller ids */
    uint64_t list_key[HS_BLOCK_HITS + HS_W]; /* or their keys (hs_block_hit_key) */
    int skip; /* skip-start (types.h) for every slot; last, so the arrays keep their offsets */
    hs_plan_trace *trace; /* hs_block_out.trace */
    hs_semantics sem;     /* the slots' semantics (a wall grid's exact tests) */
    /* Moving circles (block_moving.inl; NULL: standing): the slots' own thickness and
     * interval, as the caller gave them (q above is the walk's, grown by the motion) */
    const hs_moving_set *mv;
    float mq[HS_BLOCK_Q], mt0[HS_BLOCK_Q], mt1[HS_BLOCK_Q];
    uint32_t apart; /* bit l: level l holds nothing near any slot (hs_block_level_apart) */
    /* (a bit per level: HS_GRID_LEVELS <= 32, asserted below) */
    int has_ign;              /* a slot ignores a circle (hs_queries.ignore, not HS_NONE) */
    uint32_t ign[HS_BLOCK_Q]; /* with has_ign: the circle each slot ignores, or HS_NONE */
} hs_block;

/* Where a block's answers go: closest's arrays, any's flags or count's counts at the caller's
 * index, or staged in the order's records (stage); all-hits' hits to buf, their number per
 * batch position to cnt. */
typedef struct hs_block_out {
    hs_closest_out co;
    float *stage;     /* closest / any / count: answers staged by batch position (hs_qorder.inv) */
    float *stage_geo; /* closest: hit points and normals staged too (hs_qorder.geo) */
    uint8_t *hit;
    uint32_t *count;
    hs_hitbuf *buf;
    uint32_t *cnt;
    hs_plan_trace *trace; /* tests only: every item tested is recorded (walkers.h) */
} hs_block_out;

/* One range walk's constants: the block, grid, outputs and tally, the semantics, the mode
 * (HS_WALK_*) and the test flags (HS_TF_*). Passed by value to the inlined steps, so mode and
 * tf stay compile-time constants in each copy of the walk. */
typedef struct hs_bw {
    hs_block *B;
    const hs_grid *g;
    const hs_block_out *o;
    hs_tally *acc;
    hs_semantics sem;
    int mode;
    unsigned tf;
    const hs_moving_set *mv; /* with HS_TF_MOVE: the circles' motion; else NULL */
} hs_bw;

/* ---- 1. prep ------------------------------------------------------------------------------ */

HS_INLINE hs_kq hs_block_kq(const hs_block *B, size_t j, hs_semantics sem)
{
    hs_kq k;
    k.ax = B->ax[j];
    k.ay = B->ay[j];
    k.dx = B->dx[j];
    k.dy = B->dy[j];
    k.tmin = B->tmin[j];
    k.tmax = B->tmax[j];
    k.q = B->q[j];
    k.dd = B->dd[j];
    k.inv_dd = B->inv_dd[j];
    k.mask = B->kmask[j];
    k.sem = sem;
    k.ignore = B->has_ign ? B->ign[j] : HS_NONE;
    return k;
}

HS_INLINE void hs_block_put_kq(hs_block *B, size_t j, const hs_kq *k)
{
    B->ax[j] = k->ax;
    B->ay[j] = k->ay;
    B->dx[j] = k->dx;
    B->dy[j] = k->dy;
    B->tmin[j] = k->tmin;
    B->tmax[j] = k->tmax;
    B->q[j] = k->q;
    B->dd[j] = k->dd;
    B->inv_dd[j] = k->inv_dd;
    B->ninv[j] = -k->inv_dd;
    B->kmask[j] = k->mask;
}

HS_INLINE hs_vf hs_block_load(const float *p, size_t k)
{
    return k == (size_t)HS_W ? hs_vf_loadu(p) : hs_vf_load_part_n(p, k);
}

/* A sorted block's queries: a and d from the order's records (in order), the rest through
 * the permutation, into the slots' arrays (the vector prep then reads them there). An order
 * without perm (staged answers, no per-query arrays: order.h) leaves idx unset. */
HS_INLINE void hs_block_gather(hs_block *B, const hs_queries *qs, const hs_qorder *ord, size_t lo,
                               size_t n)
{
    const float *rec = ord->rec + 4 * lo;
    for (size_t j = 0; j < n; j++) {
        B->ax[j] = rec[4 * j];
        B->ay[j] = rec[4 * j + 1];
        B->dx[j] = rec[4 * j + 2];
        B->dy[j] = rec[4 * j + 3];
    }
    if (ord->perm == NULL)
        return;
    const uint32_t *perm = ord->perm + lo;
    for (size_t j = 0; j < n; j++)
        B->idx[j] = perm[j];
    if (qs->tmin || qs->tmax || qs->q || qs->mask)
        for (size_t j = 0; j < n; j++) {
            const size_t i = perm[j];
            B->tmin[j] = qs->tmin ? qs->tmin[i] : qs->tmin_all;
            B->tmax[j] = qs->tmax ? qs->tmax[i] : qs->tmax_all;
            B->q[j] = qs->q ? qs->q[i] : qs->q_all;
            B->kmask[j] = qs->mask ? qs->mask[i] : qs->mask_all;
        }
}

/* Slots 0 .. n-1 from positions lo .. lo+n-1 (ord's queries, or lo ..): hs_prep_query's answer,
 * HS_W queries at a time. Lanes that hs_query_surely_valid would not pass, zero-length ones
 * (their interval collapses) and those of mask 0 go through hs_prep_query_of itself. An
 * invalid query's index goes to acc->first unless the order has no perm (the caller then
 * finds it); a valid one of mask 0 is a miss (hs_query_mask_none), not counted. */
static HS_OUTLINE void hs_block_prep(hs_block *B, const hs_queries *qs, const hs_qorder *ord,
                                     hs_semantics sem, size_t lo, size_t n, hs_tally *acc)
{
    B->base = lo;
    B->nq = n;
    B->answered = 0;
    B->nitems = 0;
    B->skip = (sem & HS_SKIP_START) != 0;
    B->sem = sem;
    B->mv = NULL;
    const int perm = ord != NULL, idx_known = ord == NULL || ord->perm != NULL;
    if (perm)
        hs_block_gather(B, qs, ord, lo, n);
    else
        for (size_t j = 0; j < n; j++)
            B->idx[j] = lo + j;
    B->has_ign = 0;
    if (qs->ignore != NULL) {
        HS_ASSERT(idx_known); /* an order keeps perm for ignore (order.c) */
        for (size_t j = 0; j < n; j++) {
            B->ign[j] = qs->ignore[B->idx[j]];
            B->has_ign |= B->ign[j] != HS_NONE;
        }
    }
    /* where lane u of chunk j reads: the caller's arrays at lo + j + u, or the gathered copy */
    const size_t sh = perm ? 0 : lo;
    const float *pax = perm ? B->ax : qs->ax, *pay = perm ? B->ay : qs->ay;
    const float *pdx = perm ? B->dx : qs->dx, *pdy = perm ? B->dy : qs->dy;
    const float *pt0 = !qs->tmin ? NULL : perm ? B->tmin : qs->tmin;
    const float *pt1 = !qs->tmax ? NULL : perm ? B->tmax : qs->tmax;
    const float *pq = !qs->q ? NULL : perm ? B->q : qs->q;
    const uint32_t *pm = !qs->mask ? NULL : perm ? B->kmask : qs->mask;
    const hs_vf big = hs_vf_set1(HS_MAX_COORD), zero = hs_vf_set1(0.0f), one = hs_vf_set1(1.0f);
    const hs_vf inf = hs_vf_set1(INFINITY), ninf = hs_vf_set1(-INFINITY);
    const hs_vf fmx = hs_vf_set1(FLT_MAX), fmn = hs_vf_set1(FLT_MIN);
    for (size_t j = 0; j < n; j += HS_W) {
        const size_t k = n - j < (size_t)HS_W ? n - j : (size_t)HS_W, i = sh + j;
        const hs_vf ax = hs_block_load(pax + i, k), ay = hs_block_load(pay + i, k);
        const hs_vf dx = hs_block_load(pdx + i, k), dy = hs_block_load(pdy + i, k);
        const hs_vf t0 = pt0 ? hs_block_load(pt0 + i, k) : hs_vf_set1(qs->tmin_all);
        const hs_vf t1 = pt1 ? hs_block_load(pt1 + i, k) : hs_vf_set1(qs->tmax_all);
        const hs_vf q = pq ? hs_block_load(pq + i, k) : hs_vf_set1(qs->q_all);
        const hs_vf dd = hs_vf_add(hs_vf_mul(dx, dx), hs_vf_mul(dy, dy)); /* as hs_kq_make */
        hs_vm ok = hs_vm_and(hs_vm_le(hs_vf_abs(ax), big), hs_vm_le(hs_vf_abs(ay), big));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(hs_vf_abs(dx), big), hs_vm_le(hs_vf_abs(dy), big)));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(zero, q), hs_vm_le(q, big)));
        ok = hs_vm_and(
            ok, hs_vm_and(hs_vm_le(t0, t1), hs_vm_and(hs_vm_lt(t0, inf), hs_vm_lt(ninf, t1))));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(dd, fmx), hs_vm_le(fmn, dd)));
        const hs_vf inv = hs_vf_div(one, dd);
        hs_vf_storeu(B->ax + j, ax);
        hs_vf_storeu(B->ay + j, ay);
        hs_vf_storeu(B->dx + j, dx);
        hs_vf_storeu(B->dy + j, dy);
        hs_vf_storeu(B->tmin + j, t0);
        hs_vf_storeu(B->tmax + j, t1);
        hs_vf_storeu(B->q + j, q);
        hs_vf_storeu(B->dd + j, dd);
        hs_vf_storeu(B->inv_dd + j, inv);
        hs_vf_storeu(B->ninv + j, hs_vf_neg(inv));
        const hs_vi km = !pm                 ? hs_vi_set1(qs->mask_all)
                         : k == (size_t)HS_W ? hs_vi_loadu(pm + i)
                                             : hs_vi_load_part_n(pm + i, k);
        hs_vi_storeu(B->kmask + j, km);
        ok = hs_vm_and(ok, hs_vm_test_i(km, km));
        const unsigned all = hs_vm_bits(hs_vm_first(k)), okb = hs_vm_bits(ok) & all;
        /* whole chunks, past n too (HS_BLOCK_Q is a multiple of HS_W; slots past nq are
         * never read), so these are vector stores; best_tbits +inf: closest's early exit reads
         * it as a float */
        memset(B->state + j, HS_SLOT_LIVE, HS_W);
        memset(B->best_key + j, 0xff, HS_W * sizeof *B->best_key); /* UINT64_MAX */
        hs_vi_storeu(B->best_tbits + j, hs_vi_set1(0x7f800000u));
        memset(B->best_pos + j, 0, HS_W * sizeof *B->best_pos);
        memset(B->nhits + j, 0, HS_W * sizeof *B->nhits);
        for (unsigned bad = all & ~okb; bad; bad &= bad - 1u) { /* rare */
            const size_t u = j + (size_t)__builtin_ctz(bad);
            const hs_query qu = {.a = {B->ax[u], B->ay[u]},
                                 .d = {B->dx[u], B->dy[u]},
                                 .tmin = B->tmin[u],
                                 .tmax = B->tmax[u],
                                 .q = B->q[u]};
            hs_kq kq;
            if (hs_prep_query_of(qu, B->kmask[u], sem, &kq)) {
                hs_block_put_kq(B, u, &kq);
                if (hs_query_mask_none(kq.mask))
                    B->state[u] = HS_SLOT_INVALID;
            } else {
                B->state[u] = HS_SLOT_INVALID;
                acc->invalid++;
                if (idx_known)
                    acc->first = B->idx[u] < acc->first ? B->idx[u] : acc->first;
            }
        }
    }
}

/* ---- 2. set-up ---------------------------------------------------------------------------- */

/* The box [box[0], box[2]] x [box[1], box[3]] holding every slot's interval, the largest
 * thickness and |a|_1 (*qmax, *amag); 0 when an end is not finite (rays, lines, an invalid
 * query's NaN) or a thickness is NaN (an invalid query's). In float, HS_W slots at a time
 * (lanes past nq hold earlier slots' values: a larger box), so each end is within 2^-22 of its
 * size, which hs_block_level_apart's margin covers. */
static HS_OUTLINE int hs_block_extent(const hs_block *B, double box[4], double *qmax, double *amag)
{
    const hs_vf inf = hs_vf_set1(INFINITY);
    hs_vf x0 = inf, y0 = inf, x1 = hs_vf_neg(inf), y1 = hs_vf_neg(inf);
    hs_vf q = hs_vf_set1(0.0f), m = q;
    hs_vm finite = hs_vm_le(q, q);
    for (size_t j = 0; j < B->nq; j += HS_W) {
        const hs_vf ax = hs_vf_loadu(B->ax + j), ay = hs_vf_loadu(B->ay + j);
        const hs_vf dx = hs_vf_loadu(B->dx + j), dy = hs_vf_loadu(B->dy + j);
        const hs_vf t0 = hs_vf_loadu(B->tmin + j), t1 = hs_vf_loadu(B->tmax + j);
        finite = hs_vm_and(finite,
                           hs_vm_and(hs_vm_lt(hs_vf_abs(t0), inf), hs_vm_lt(hs_vf_abs(t1), inf)));
        const hs_vf ex0 = hs_vf_fmadd(t0, dx, ax), ex1 = hs_vf_fmadd(t1, dx, ax);
        const hs_vf ey0 = hs_vf_fmadd(t0, dy, ay), ey1 = hs_vf_fmadd(t1, dy, ay);
        /* an invalid slot's NaN end: min and max return their second operand on NaN, so a
         * lane would forget the ends before it; such a block gets no box */
        finite = hs_vm_and(finite, hs_vm_and(hs_vm_and(hs_vm_le(ex0, inf), hs_vm_le(ex1, inf)),
                                             hs_vm_and(hs_vm_le(ey0, inf), hs_vm_le(ey1, inf))));
        /* so does an invalid slot's NaN thickness, which would make the lane forget the
         * largest thickness before it */
        const hs_vf qj = hs_vf_loadu(B->q + j);
        finite = hs_vm_and(finite, hs_vm_le(qj, inf));
        x0 = hs_vf_min(x0, hs_vf_min(ex0, ex1));
        x1 = hs_vf_max(x1, hs_vf_max(ex0, ex1));
        y0 = hs_vf_min(y0, hs_vf_min(ey0, ey1));
        y1 = hs_vf_max(y1, hs_vf_max(ey0, ey1));
        q = hs_vf_max(q, qj);
        m = hs_vf_max(m, hs_vf_add(hs_vf_abs(ax), hs_vf_abs(ay)));
    }
    if (hs_vm_bits(finite) != (1u << HS_W) - 1u)
        return 0;
    float v[6][HS_W];
    hs_vf_storeu(v[0], x0);
    hs_vf_storeu(v[1], y0);
    hs_vf_storeu(v[2], x1);
    hs_vf_storeu(v[3], y1);
    hs_vf_storeu(v[4], q);
    hs_vf_storeu(v[5], m);
    double r[6] = {v[0][0], v[1][0], v[2][0], v[3][0], v[4][0], v[5][0]};
    for (int k = 1; k < HS_W; k++) {
        r[0] = fmin(r[0], v[0][k]);
        r[1] = fmin(r[1], v[1][k]);
        for (int i = 2; i < 6; i++)
            r[i] = fmax(r[i], v[i][k]);
    }
    /* NaN (an end of NaN coordinates) leaves no box */
    if (!(r[0] <= r[2] && r[1] <= r[3]))
        return 0;
    for (int i = 0; i < 4; i++)
        box[i] = r[i];
    *qmax = r[4];
    *amag = r[5];
    return 1;
}

/* Whether a block of queries near the circles may miss a level of g: some level spans less
 * than half the levels' union on an axis. Otherwise (one level, or a few large circles over
 * the small ones' world) the blocks skip hs_block_extent. */
HS_INLINE int hs_block_may_set_aside(const hs_grid *g)
{
    if (g->nlevels < 2)
        return 0;
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int l = 0; l < g->nlevels; l++) {
        x0 = fmin(x0, g->lv[l].ox);
        y0 = fmin(y0, g->lv[l].oy);
        x1 = fmax(x1, g->lv[l].bx1);
        y1 = fmax(y1, g->lv[l].by1);
    }
    for (int l = 0; l < g->nlevels; l++)
        if (g->lv[l].bx1 - g->lv[l].ox < 0.5 * (x1 - x0) ||
            g->lv[l].by1 - g->lv[l].oy < 0.5 * (y1 - y0))
            return 1;
    return 0;
}

/* Whether no slot of a block in box (hs_block_extent) can meet a circle of level L: the box
 * misses L's bounds grown by more than any slot's reach in hs_block_setup (its pad bounded
 * with X <= mag + |a|_1 and the local terms by 4 mag + |a|_1, its margins doubled). Such a
 * level gets no rows for any slot (nrows 0, row0 0), without the set-up. */
HS_INLINE int hs_block_level_apart(const hs_glevel *L, const double box[4], double qmax,
                                   double amag)
{
    const double R0 = (double)L->rmax + qmax;
    const double X = L->mag + amag, Y = 4.0 * L->mag + amag;
    const double reach = R0 * (1.0 + 0x1p-10) + 8e-6 * (2.0 * (X + Y + 2.0 * R0) + R0) +
                         0x1p-20 * L->mag + L->h * 0x1p-5 + 2.0 * HS_GPAD_ABS +
                         0x1p-20 * (fabs(box[0]) + fabs(box[1]) + fabs(box[2]) + fabs(box[3]));
    return box[2] < L->ox - reach || box[0] > L->bx1 + reach || box[3] < L->oy - reach ||
           box[1] > L->by1 + reach;
}

/* Level L's rows for every slot, HS_W slots at a time: the short-box branch of hs_walk_level,
 * for queries with finite ends inside the level's bounds (grown by reach), in float, in the
 * level's own coordinates (the query's start less the level's origin, both floats), so that
 * rounding follows the level's size and the query's, not the distance to the world's origin.
 * reach is the sum of:
 * - the kernels' pad, hs_gpad(2 (X + R0), R0): a circle the float pair test reports lies
 *   within R0 of the query plus a few 2^-24 of |a - c| + |t d|, and |a - c| is at most
 *   T |d| + R0 (T the interval's larger |end|), or |a| + |c| for rays and lines: X is the
 *   smaller of T |d|_1 and mag + |a|_1;
 * - the set-up's own rounding in local coordinates, the same pad over the level's extent and
 *   the local start: a few float ulps of them lost by the formulas below and by
 *   hs_brows_exit_bound;
 * - 2^-21 of mag for the origin rounded to float and the start moved to it (2^-25 of each);
 * and a margin: a relative 2^-12 (the sum's own rounding), plus 2^-6 of a cell for the slope
 * terms, which stay below 16 x HS_WALK_BOX_CELLS = 16384 cells, whose float rounding is a few
 * ulps of 16384 (about 8e-3 of a cell) (slopes |dx/dy| > 16 use the box's columns on every
 * row, as hs_walk_level does for near-horizontal queries). The margin only widens runs, so the
 * circles tested are a superset of what any hit needs. */
static HS_OUTLINE void hs_block_setup(hs_block *B, const hs_glevel *L, hs_row_setup *S)
{
    /* Float cells must be exact, and the cell side and its inverse normal floats: cells below
     * FLT_MIN (circles packed closer than float resolves) have an infinite float inverse, and
     * 0 x inf is NaN, which dropped cells from the runs. Such a level takes the slot-by-slot
     * plan, in double. */
    const float hf = (float)L->h, ihf = (float)L->inv_h;
    if (L->n == 0 || L->nx >= (1 << 22) || L->ny >= (1 << 22) || !(hf >= FLT_MIN) ||
        !(ihf <= FLT_MAX)) {
        for (size_t j = 0; j < B->nq; j++)
            S->nrows[j] = -1.0f;
        return;
    }
    const float bx1f = (float)(L->bx1 - L->ox), by1f = (float)(L->by1 - L->oy);
    const hs_vf ox = hs_vf_set1((float)L->ox), oy = hs_vf_set1((float)L->oy);
    const hs_vf bx1 = hs_vf_set1(bx1f), by1 = hs_vf_set1(by1f);
    const hs_vf h = hs_vf_set1(hf), ih = hs_vf_set1(ihf);
    const hs_vf nx1 = hs_vf_set1((float)(L->nx - 1)), ny1 = hs_vf_set1((float)(L->ny - 1));
    const hs_vf rmax = hs_vf_set1(L->rmax), mag = hs_vf_set1((float)L->mag);
    const hs_vf lmag = hs_vf_set1(bx1f > by1f ? bx1f : by1f);
    const hs_vf origin_pad = hs_vf_set1((float)(0x1p-21 * L->mag));
    const hs_vf zero = hs_vf_set1(0.0f), one = hs_vf_set1(1.0f), two = hs_vf_set1(2.0f);
    const hs_vf inf = hs_vf_set1(INFINITY), m1 = hs_vf_set1(-1.0f);
    const hs_vf margin = hs_vf_set1(1.0f + 0x1p-12f), cmargin = hs_vf_set1(hf * 0x1p-6f);
    const hs_vf pad = hs_vf_set1(4e-6f), pabs = hs_vf_set1((float)HS_GPAD_ABS);
    const hs_vf boxmax = hs_vf_set1((float)HS_WALK_BOX_CELLS);
    const hs_vf slope = hs_vf_set1(16.0f);
    for (size_t j = 0; j < B->nq; j += HS_W) {
        const hs_vf gax = hs_vf_loadu(B->ax + j), gay = hs_vf_loadu(B->ay + j);
        const hs_vf ax = hs_vf_sub(gax, ox), ay = hs_vf_sub(gay, oy);
        const hs_vf dx = hs_vf_loadu(B->dx + j), dy = hs_vf_loadu(B->dy + j);
        const hs_vf t0 = hs_vf_loadu(B->tmin + j), t1 = hs_vf_loadu(B->tmax + j);
        const hs_vf R0 = hs_vf_add(rmax, hs_vf_loadu(B->q + j));
        /* X: hs_vf_min gives its second operand for T |d|_1 = inf x 0 (NaN) */
        const hs_vf ext = hs_vf_mul(hs_vf_max(hs_vf_abs(t0), hs_vf_abs(t1)),
                                    hs_vf_add(hs_vf_abs(dx), hs_vf_abs(dy)));
        const hs_vf X = hs_vf_min(ext, hs_vf_add(mag, hs_vf_add(hs_vf_abs(gax), hs_vf_abs(gay))));
        const hs_vf Y = hs_vf_add(lmag, hs_vf_add(hs_vf_abs(ax), hs_vf_abs(ay)));
        hs_vf reach = hs_vf_add(
            R0,
            hs_vf_mul(
                pad, hs_vf_add(hs_vf_mul(two, hs_vf_add(hs_vf_add(X, Y), hs_vf_add(R0, R0))), R0)));
        reach = hs_vf_add(reach, origin_pad);
        reach = hs_vf_add(hs_vf_mul(reach, margin), hs_vf_add(cmargin, pabs));
        /* the interval clipped to the bounds grown by reach (slabs), a little wider than
         * rounding needs: a query that misses them has no rows on this level, and rays,
         * lines and queries from far away keep only their stretch near its circles; a vector
         * whose ends all lie inside (the common case) keeps its intervals */
        const hs_vf g0[2] = {hs_vf_neg(reach), hs_vf_neg(reach)};
        const hs_vf g1[2] = {hs_vf_add(bx1, reach), hs_vf_add(by1, reach)};
        const hs_vf a2[2] = {ax, ay}, d2[2] = {dx, dy};
        hs_vf lo = t0, hi = t1;
        hs_vm meets = hs_vm_and(hs_vm_lt(hs_vf_abs(t0), inf), hs_vm_lt(hs_vf_abs(t1), inf));
        for (int k = 0; k < 2; k++) {
            const hs_vf e0 = hs_vf_fmadd(t0, d2[k], a2[k]), e1 = hs_vf_fmadd(t1, d2[k], a2[k]);
            meets = hs_vm_and(meets, hs_vm_and(hs_vm_le(g0[k], hs_vf_min(e0, e1)),
                                               hs_vm_le(hs_vf_max(e0, e1), g1[k])));
        }
        if (hs_vm_bits(meets) != (1u << HS_W) - 1u) {
            meets = hs_vm_le(zero, zero);
            for (int k = 0; k < 2; k++) {
                const hs_vm moving = hs_vm_lt(zero, hs_vf_abs(d2[k]));
                const hs_vf dk = hs_vf_select(moving, d2[k], one);
                const hs_vf u = hs_vf_div(hs_vf_sub(g0[k], a2[k]), dk);
                const hs_vf v = hs_vf_div(hs_vf_sub(g1[k], a2[k]), dk);
                lo = hs_vf_select(moving, hs_vf_max(lo, hs_vf_min(u, v)), lo);
                hi = hs_vf_select(moving, hs_vf_min(hi, hs_vf_max(u, v)), hi);
                const hs_vm inside = hs_vm_and(hs_vm_le(g0[k], a2[k]), hs_vm_le(a2[k], g1[k]));
                meets = hs_vm_and(meets, hs_vm_or(moving, inside));
            }
            const hs_vf slack = hs_vf_set1(0x1p-18f), tiny = hs_vf_set1(0x1p-100f);
            meets = hs_vm_and(meets, hs_vm_le(lo, hi));
            lo = hs_vf_max(t0, hs_vf_sub(lo, hs_vf_fmadd(hs_vf_abs(lo), slack, tiny)));
            hi = hs_vf_min(t1, hs_vf_add(hi, hs_vf_fmadd(hs_vf_abs(hi), slack, tiny)));
        }
        const hs_vf x0 = hs_vf_fmadd(lo, dx, ax), x1 = hs_vf_fmadd(hi, dx, ax);
        const hs_vf y0 = hs_vf_fmadd(lo, dy, ay), y1 = hs_vf_fmadd(hi, dy, ay);
        const hs_vf xmin = hs_vf_min(x0, x1), xmax = hs_vf_max(x0, x1);
        const hs_vf ymin = hs_vf_min(y0, y1), ymax = hs_vf_max(y0, y1);
        /* finite ends, non-zero length, both ends inside the grown bounds */
        hs_vm ok = hs_vm_and(hs_vm_lt(hs_vf_abs(lo), inf), hs_vm_lt(hs_vf_abs(hi), inf));
        ok = hs_vm_and(ok, hs_vm_lt(zero, hs_vf_loadu(B->inv_dd + j)));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(g0[0], xmin), hs_vm_le(xmax, g1[0])));
        ok = hs_vm_and(ok, hs_vm_and(hs_vm_le(g0[1], ymin), hs_vm_le(ymax, g1[1])));
        /* the box's cells (hs_walk_cell: clamped, then truncated) */
        const hs_vf c0 =
            hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_mul(hs_vf_sub(xmin, reach), ih), zero), nx1));
        const hs_vf c1 =
            hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_mul(hs_vf_add(xmax, reach), ih), zero), nx1));
        const hs_vf r0 =
            hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_mul(hs_vf_sub(ymin, reach), ih), zero), ny1));
        const hs_vf r1 =
            hs_vf_trunc(hs_vf_min(hs_vf_max(hs_vf_mul(hs_vf_add(ymax, reach), ih), zero), ny1));
        const hs_vf nr = hs_vf_add(hs_vf_sub(r1, r0), one);
        ok = hs_vm_and(ok, hs_vm_le(hs_vf_mul(hs_vf_add(hs_vf_sub(c1, c0), one), nr), boxmax));
        /* rows clipped to the query when the slope allows it */
        const hs_vm clip =
            hs_vm_and(hs_vm_lt(c0, c1), hs_vm_le(hs_vf_abs(dx), hs_vf_mul(hs_vf_abs(dy), slope)));
        const hs_vf sx = hs_vf_div(dx, hs_vf_select(clip, dy, one));
        const hs_vf sh = hs_vf_mul(sx, ih), re = hs_vf_mul(reach, ih);
        const hs_vf pos0 = hs_vf_mul(hs_vf_fmadd(hs_vf_sub(hs_vf_mul(r0, h), ay), sx, ax), ih);
        const hs_vf ea = hs_vf_mul(hs_vf_neg(reach), sh), eb = hs_vf_mul(hs_vf_add(h, reach), sh);
        const hs_vf pmin = hs_vf_mul(xmin, ih), pmax = hs_vf_mul(xmax, ih);
        hs_vf_storeu(S->row0 + j, r0);
        hs_vf_storeu(S->reach + j, reach);
        hs_vf_storeu(S->nrows + j, hs_vf_select(ok, nr, hs_vf_select(meets, m1, zero)));
        hs_vf_storeu(S->pos0 + j, hs_vf_select(clip, pos0, zero));
        hs_vf_storeu(S->pos_step + j, hs_vf_select(clip, hs_vf_mul(h, sh), zero));
        hs_vf_storeu(S->first_off + j, hs_vf_select(clip, hs_vf_sub(hs_vf_min(ea, eb), re), zero));
        hs_vf_storeu(S->last_off + j, hs_vf_select(clip, hs_vf_add(hs_vf_max(ea, eb), re), zero));
        hs_vf_storeu(S->first_min + j,
                     hs_vf_select(clip, hs_vf_min(hs_vf_max(hs_vf_sub(pmin, re), c0), c1), c0));
        hs_vf_storeu(S->first_max + j,
                     hs_vf_select(clip, hs_vf_min(hs_vf_max(hs_vf_sub(pmax, re), c0), c1), c0));
        hs_vf_storeu(S->last_min + j,
                     hs_vf_select(clip, hs_vf_min(hs_vf_max(hs_vf_add(pmin, re), c0), c1), c1));
        hs_vf_storeu(S->last_max + j,
                     hs_vf_select(clip, hs_vf_min(hs_vf_max(hs_vf_add(pmax, re), c0), c1), c1));
    }
}

/* Slot q's best lowered to (key, t's bits tb, storage position pos) when key is below it, with
 * no branch on the data. */
HS_INLINE void hs_block_fold_one(hs_block *B, uint32_t q, uint64_t key, uint32_t tb, uint32_t pos)
{
    const uint64_t cur = B->best_key[q];
    const uint64_t m = 0u - (uint64_t)(key < cur);
    const uint32_t m32 = (uint32_t)m;
    B->best_key[q] = cur ^ ((cur ^ key) & m);
    B->best_tbits[q] ^= (B->best_tbits[q] ^ tb) & m32;
    B->best_pos[q] ^= (B->best_pos[q] ^ pos) & m32;
}

/* Slot q's best lowered to the hit (t, id) at storage position pos when it comes first, with
 * the key hs_block_fold_hits uses: (t + 0)'s bits made monotone, above the id. */
HS_INLINE void hs_block_fold_t(hs_block *B, uint32_t q, float t, uint32_t id, uint32_t pos)
{
    const float t0 = t + 0.0f;
    uint32_t u, tb;
    memcpy(&u, &t0, sizeof u);
    memcpy(&tb, &t, sizeof tb);
    u ^= (uint32_t)((int32_t)u >> 31) | 0x80000000u;
    hs_block_fold_one(B, q, (uint64_t)u << 32 | id, tb, pos);
}

/* Slots 0 .. n-1's bests started at (bound[i], no circle) for the caller's query i
 * (hs_walk_range.bound): a circle at t <= bound[i] comes first (its id is below HS_NONE), the
 * walk stops past bound[i], and a slot left so answers no hit (hs_block_best: HS_NONE). */
HS_INLINE void hs_block_seed_bests(hs_block *B, const float *bound, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        const float t = bound[B->idx[j]];
        if (B->state[j] == HS_SLOT_LIVE && t < INFINITY)
            hs_block_fold_t(B, (uint32_t)j, t, HS_NONE, 0);
    }
}

/* Any: slots 0 .. n-1 whose caller's query i has bound[i] < +inf (a wall hit) answered as hits
 * before any walk; the rows plan leaves answered slots out, and the per-query walk passes them
 * by. */
HS_INLINE void hs_block_seed_hits(hs_block *B, const float *bound, size_t n)
{
    for (size_t j = 0; j < n; j++)
        B->nhits[j] |= (uint32_t)(B->state[j] == HS_SLOT_LIVE && bound[B->idx[j]] < INFINITY);
}

/* Slot j's closest hit: its caller's id, or HS_NONE (invalid query or no hit); *t its t. */
HS_INLINE uint32_t hs_block_best(const hs_block *B, size_t j, float *t)
{
    const uint64_t key = B->best_key[j];
    const uint32_t hit = 0u - (uint32_t)((B->state[j] == HS_SLOT_LIVE) & (key != UINT64_MAX));
    memcpy(t, &B->best_tbits[j], sizeof *t);
    return ((uint32_t)key & hit) | (HS_NONE & ~hit); /* a mask, as in hs_block_stage_closest */
}
