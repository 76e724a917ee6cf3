/* Internal: the narrowphase kernels (any, count, closest, all), written once over simd.h; each TU sets HS_W / HS_KNAME / HS_KISA. */
#ifndef HS_KNAME
#error "define HS_W, HS_KNAME and HS_KISA before including kernels_impl.h"
#endif

#include "simd.h"
#include "../kernels.h"

/* Agreement with core.h, as tests/test_kernels.c measures it on 1.25M pairs per level
 * (tangent-heavy scenes, coordinates up to 1e6):
 *  - scalar, sse4, neon: no FMA, the same IEEE operations in the same order: hit sets and
 *    entry t are bit-identical to hs_pair_hits / hs_pair_times.
 *  - avx2, avx512: a*b + c is fused, so a pair may flip only within the tangency band:
 *    | |P - C| - (r + q) | <= 1.2e-7 x max(|a|, |c|, |t d|, r + q) observed (about one
 *    float ulp of the coordinates; the test allows 1e-6). Entry t then differs by at most
 *    3e-4 of that scale along the query (sqrt of the rounding, at grazing incidence), and
 *    in boundary semantics a start point within the band may switch entry and exit wound. */

/* The query broadcast once per call. ninv = -1/d.d, so tc = b * ninv equals core.h's
 * -b * inv_dd exactly (negation is exact). */
typedef struct hs_vq {
    hs_vf ax, ay, dx, dy, tmin, tmax, q, dd, inv_dd, ninv;
    hs_vi kmask;
} hs_vq;

HS_INLINE hs_vq hs_vq_make(const hs_kq *k)
{
    hs_vq v;
    v.ax = hs_vf_set1(k->ax);
    v.ay = hs_vf_set1(k->ay);
    v.dx = hs_vf_set1(k->dx);
    v.dy = hs_vf_set1(k->dy);
    v.tmin = hs_vf_set1(k->tmin);
    v.tmax = hs_vf_set1(k->tmax);
    v.q = hs_vf_set1(k->q);
    v.dd = hs_vf_set1(k->dd);
    v.inv_dd = hs_vf_set1(k->inv_dd);
    v.ninv = hs_vf_set1(-k->inv_dd);
    v.kmask = hs_vi_set1(k->mask);
    return v;
}

/* Loaded circles of one vector (or of the zero-padded tail). */
typedef struct hs_vc {
    hs_vf cx, cy, r;
} hs_vc;

/* hs_pair_hits, lane-wise, same operations in the same order; a*b + c becomes one FMA on
 * levels that have it (the only source of differences, confined to the tangency band).
 * thick / boundary are compile-time constants after inlining: the branch is per call. */
/* The hit test in two halves, so a loop can overlap the second half of one vector with
 * the first half of the next (see hs_count_body). */
typedef struct hs_vs {
    hs_vf fx, fy, R2, tcl;
} hs_vs;

HS_INLINE hs_vs hs_v_hits1(const hs_vq *Q, hs_vc c, const int thick)
{
    hs_vs s;
    s.fx = hs_vf_sub(Q->ax, c.cx);
    s.fy = hs_vf_sub(Q->ay, c.cy);
    hs_vf R = thick ? hs_vf_add(c.r, Q->q) : c.r; /* r + 0 == r exactly */
    s.R2 = hs_vf_mul(R, R);
    hs_vf b = hs_vf_fmadd(s.fy, Q->dy, hs_vf_mul(s.fx, Q->dx));
    s.tcl = hs_vf_min(hs_vf_max(hs_vf_mul(b, Q->ninv), Q->tmin), Q->tmax);
    return s;
}

HS_INLINE hs_vm hs_v_hits2(const hs_vq *Q, hs_vs s, const int boundary)
{
    hs_vf px = hs_vf_fmadd(s.tcl, Q->dx, s.fx), py = hs_vf_fmadd(s.tcl, Q->dy, s.fy);
    hs_vm hit = hs_vm_le(hs_vf_fmadd(py, py, hs_vf_mul(px, px)), s.R2);
    if (boundary) {
        hs_vf sx = hs_vf_fmadd(Q->tmin, Q->dx, s.fx), sy = hs_vf_fmadd(Q->tmin, Q->dy, s.fy);
        hs_vf ex = hs_vf_fmadd(Q->tmax, Q->dx, s.fx), ey = hs_vf_fmadd(Q->tmax, Q->dy, s.fy);
        hs_vm sin = hs_vm_lt(hs_vf_fmadd(sy, sy, hs_vf_mul(sx, sx)), s.R2);
        hs_vm ein = hs_vm_lt(hs_vf_fmadd(ey, ey, hs_vf_mul(ex, ex)), s.R2);
        hit = hs_vm_andnot(hit, hs_vm_and(sin, ein));
    }
    return hit;
}

/* hs_pair_hits, lane-wise, same operations in the same order; a*b + c becomes one FMA on
 * levels that have it (the only source of differences, confined to the tangency band).
 * thick / boundary are compile-time constants after inlining: the branch is per call. */
HS_INLINE hs_vm hs_v_hits(const hs_vq *Q, hs_vc c, const int thick, const int boundary)
{
    return hs_v_hits2(Q, hs_v_hits1(Q, c, thick), boundary);
}

/* hs_pair_times' entry parameter, lane-wise (lanes that do not hit compute garbage that
 * the caller masks off; the division is guarded so no lane divides by zero). */
HS_INLINE hs_vf hs_v_entry(const hs_vq *Q, hs_vc c, const int thick, const int boundary)
{
    hs_vf zero = hs_vf_set1(0.0f);
    hs_vf fx = hs_vf_sub(Q->ax, c.cx), fy = hs_vf_sub(Q->ay, c.cy);
    hs_vf R = thick ? hs_vf_add(c.r, Q->q) : c.r;
    hs_vf R2 = hs_vf_mul(R, R);
    hs_vf b = hs_vf_fmadd(fy, Q->dy, hs_vf_mul(fx, Q->dx));
    hs_vf cc = hs_vf_sub(hs_vf_fmadd(fy, fy, hs_vf_mul(fx, fx)), R2);
    hs_vf tc = hs_vf_mul(b, Q->ninv);
    hs_vf hx = hs_vf_fmadd(tc, Q->dx, fx), hy = hs_vf_fmadd(tc, Q->dy, fy);
    hs_vf disc = hs_vf_max(hs_vf_sub(R2, hs_vf_fmadd(hy, hy, hs_vf_mul(hx, hx))), zero);
    /* as core.h: |d| sqrt(disc), never sqrt(d.d disc) (overflow) */
    hs_vf sq = hs_vf_mul(hs_vf_sqrt(Q->dd), hs_vf_sqrt(disc));
    hs_vf qq = hs_vf_neg(hs_vf_add(b, hs_vf_copysign(sq, b)));
    hs_vm nz = hs_vm_ne(qq, zero);
    hs_vf ra = hs_vf_mul(qq, Q->inv_dd);
    hs_vf rb = hs_vf_div(cc, hs_vf_select(nz, qq, hs_vf_set1(1.0f)));
    hs_vf t0 = hs_vf_select(nz, hs_vf_min(ra, rb), tc);
    hs_vf sx = hs_vf_fmadd(Q->tmin, Q->dx, fx), sy = hs_vf_fmadd(Q->tmin, Q->dy, fy);
    hs_vf s2 = hs_vf_fmadd(sy, sy, hs_vf_mul(sx, sx));
    hs_vf t = hs_vf_min(hs_vf_max(t0, Q->tmin), Q->tmax);
    t = hs_vf_select(hs_vm_le(s2, R2), Q->tmin, t);
    if (boundary) {
        hs_vf t1 = hs_vf_select(nz, hs_vf_max(ra, rb), tc);
        hs_vf exitw = hs_vf_min(hs_vf_max(t1, Q->tmin), Q->tmax);
        t = hs_vf_select(hs_vm_lt(s2, R2), exitw, t);
    }
    return t;
}

HS_INLINE hs_vc hs_v_load(const hs_run *run, size_t i, const int aligned)
{
    hs_vc c;
    if (aligned) {
        c.cx = hs_vf_load(run->x + i);
        c.cy = hs_vf_load(run->y + i);
        c.r = hs_vf_load(run->r + i);
    } else {
        c.cx = hs_vf_loadu(run->x + i);
        c.cy = hs_vf_loadu(run->y + i);
        c.r = hs_vf_loadu(run->r + i);
    }
    return c;
}

/* Legacy SSE cannot fold an unaligned load into subps / addps: the extra movups cost about
 * a tenth of the SSE4.2 count loop, which is bound by instruction dispatch. So any / count
 * get an aligned instantiation there (x, y, r vector-aligned, as hs_circles_create makes
 * them). VEX / EVEX fold unaligned loads, and other levels skip it. */
#if HS_W == 4 && defined(SIMDE_X86_SSE2_NATIVE)
#define HS_ALIGNED_SPLIT 1
HS_INLINE int hs_run_aligned(const hs_run *run)
{
    return (((uintptr_t)run->x | (uintptr_t)run->y | (uintptr_t)run->r) % (HS_W * sizeof(float))) == 0;
}
#endif

HS_INLINE hs_vc hs_v_load_part(const hs_run *run, size_t i, size_t n)
{
    hs_vc c;
    c.cx = hs_vf_load_part_n(run->x + i, n);
    c.cy = hs_vf_load_part_n(run->y + i, n);
    c.r = hs_vf_load_part_n(run->r + i, n);
    return c;
}

/* Hit lanes of the vector at i (n lanes valid, n == HS_W for the body). */
HS_INLINE hs_vm hs_v_block_al(const hs_vq *Q, const hs_run *run, size_t i, size_t n, hs_vc *c,
                              const int thick, const int boundary, const int usemask,
                              const int aligned)
{
    hs_vm m;
    if (n == HS_W) {
        *c = hs_v_load(run, i, aligned);
        m = hs_v_hits(Q, *c, thick, boundary);
        if (usemask)
            m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(run->mask + i), Q->kmask));
    } else {
        *c = hs_v_load_part(run, i, n);
        m = hs_vm_and(hs_v_hits(Q, *c, thick, boundary), hs_vm_first(n));
        if (usemask)
            m = hs_vm_and(m, hs_vm_test_i(hs_vi_load_part_n(run->mask + i, n), Q->kmask));
    }
    return m;
}

HS_INLINE hs_vm hs_v_block(const hs_vq *Q, const hs_run *run, size_t i, size_t n, hs_vc *c,
                           const int thick, const int boundary, const int usemask)
{
    return hs_v_block_al(Q, run, i, n, c, thick, boundary, usemask, 0);
}

HS_INLINE hs_vi hs_v_ids(const hs_run *run, size_t i, size_t n, const int useids)
{
    if (!useids)
        return hs_vi_iota(run->base + (uint32_t)i);
    return n == HS_W ? hs_vi_loadu(run->ids + i) : hs_vi_load_part_n(run->ids + i, n);
}

/* ---- the four kernels; each body is instantiated per (thick, boundary, mask[, ids]) ---- */

HS_INLINE int hs_any_body(const hs_kq *kq, const hs_run *run, const int thick,
                          const int boundary, const int usemask, const int al)
{
    hs_vq Q = hs_vq_make(kq);
    size_t n = run->n, i = 0;
    hs_vc c;
    for (; i + HS_W <= n; i += HS_W)
        if (hs_vm_bits(hs_v_block_al(&Q, run, i, HS_W, &c, thick, boundary, usemask, al)))
            return 1;
    if (i < n && hs_vm_bits(hs_v_block(&Q, run, i, n - i, &c, thick, boundary, usemask)))
        return 1;
    return 0;
}

HS_INLINE size_t hs_count_body(const hs_kq *kq, const hs_run *run, const int thick,
                               const int boundary, const int usemask, const int al)
{
    hs_vq Q = hs_vq_make(kq);
    size_t n = run->n, i = 0, cnt = 0;
    hs_vc c;
    if (HS_W > 1 && n >= (size_t)HS_W) {
        /* software-pipelined: the first half of vector i+1 is issued beside the second half
         * of vector i, so the out-of-order window holds two short chains instead of one
         * long one (+4% on Zen 4; the scalar level keeps the plain loop, which the compiler
         * vectorises) */
        hs_vs s = hs_v_hits1(&Q, hs_v_load(run, 0, al), thick);
        for (i = HS_W; i + HS_W <= n; i += HS_W) {
            hs_vs next = hs_v_hits1(&Q, hs_v_load(run, i, al), thick);
            hs_vm m = hs_v_hits2(&Q, s, boundary);
            if (usemask)
                m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(run->mask + i - HS_W), Q.kmask));
            cnt += (size_t)__builtin_popcount(hs_vm_bits(m));
            s = next;
        }
        hs_vm m = hs_v_hits2(&Q, s, boundary);
        if (usemask)
            m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(run->mask + i - HS_W), Q.kmask));
        cnt += (size_t)__builtin_popcount(hs_vm_bits(m));
    }
    for (; i + HS_W <= n; i += HS_W)
        cnt += (size_t)__builtin_popcount(
            hs_vm_bits(hs_v_block_al(&Q, run, i, HS_W, &c, thick, boundary, usemask, al)));
    if (i < n)
        cnt += (size_t)__builtin_popcount(
            hs_vm_bits(hs_v_block(&Q, run, i, n - i, &c, thick, boundary, usemask)));
    return cnt;
}

/* Vectors with a hit are rare in closest-hit workloads, so their lanes are resolved with
 * a scalar walk over the hit bits: the (t, id) tie rule then needs no vector shuffles. */
HS_INLINE int hs_closest_vec(const hs_vq *Q, const hs_run *run, size_t i, size_t n, hs_vm m,
                             hs_vc c, float *bt, uint32_t *bid, uint32_t *bpos, const int thick,
                             const int boundary, const int useids)
{
    float tv[HS_W];
    uint32_t iv[HS_W];
    int changed = 0;
    hs_vf_storeu(tv, hs_v_entry(Q, c, thick, boundary));
    hs_vi_storeu(iv, hs_v_ids(run, i, n, useids));
    for (unsigned bits = hs_vm_bits(m); bits; bits &= bits - 1u) {
        unsigned j = (unsigned)__builtin_ctz(bits);
        if (tv[j] < *bt || (tv[j] == *bt && iv[j] < *bid)) {
            *bt = tv[j];
            *bid = iv[j];
            *bpos = run->base + (uint32_t)(i + j);
            changed = 1;
        }
    }
    return changed;
}

HS_INLINE int hs_closest_body(const hs_kq *kq, const hs_run *run, float *best_t,
                              uint32_t *best_id, uint32_t *best_pos, const int thick,
                              const int boundary, const int usemask, const int useids)
{
    hs_vq Q = hs_vq_make(kq);
    size_t n = run->n, i = 0;
    float bt = *best_t;
    uint32_t bid = *best_id, bpos = best_pos ? *best_pos : 0;
    int changed = 0;
    hs_vc c;
    for (; i + HS_W <= n; i += HS_W) {
        hs_vm m = hs_v_block(&Q, run, i, HS_W, &c, thick, boundary, usemask);
        if (hs_vm_bits(m))
            changed |= hs_closest_vec(&Q, run, i, HS_W, m, c, &bt, &bid, &bpos, thick, boundary,
                                      useids);
    }
    if (i < n) {
        hs_vm m = hs_v_block(&Q, run, i, n - i, &c, thick, boundary, usemask);
        if (hs_vm_bits(m))
            changed |= hs_closest_vec(&Q, run, i, n - i, m, c, &bt, &bid, &bpos, thick, boundary,
                                      useids);
    }
    if (changed) {
        *best_t = bt;
        *best_id = bid;
        if (best_pos)
            *best_pos = bpos;
    }
    return changed;
}

HS_INLINE void hs_all_vec(const hs_vq *Q, const hs_run *run, size_t i, size_t n, hs_vm m,
                          hs_vc c, uint32_t *ids, float *t, size_t cap, size_t found,
                          const int thick, const int boundary, const int useids)
{
    hs_vf tv = hs_v_entry(Q, c, thick, boundary);
    hs_vi iv = hs_v_ids(run, i, n, useids);
    if (cap - found >= (size_t)HS_W) {
        hs_vi_compress(ids + found, m, iv);
        hs_vf_compress(t + found, m, tv);
    } else {
        /* near the end of the caller's buffer (compress may write HS_W lanes): spill, and
         * copy only what fits */
        float tb[HS_W];
        uint32_t ib[HS_W];
        hs_vi_compress(ib, m, iv);
        hs_vf_compress(tb, m, tv);
        size_t k = (size_t)__builtin_popcount(hs_vm_bits(m));
        if (k > cap - found)
            k = cap - found;
        memcpy(ids + found, ib, k * sizeof *ib);
        memcpy(t + found, tb, k * sizeof *tb);
    }
}

HS_INLINE size_t hs_all_body(const hs_kq *kq, const hs_run *run, uint32_t *ids, float *t,
                             size_t cap, const int thick, const int boundary, const int usemask,
                             const int useids)
{
    hs_vq Q = hs_vq_make(kq);
    size_t n = run->n, i = 0, found = 0;
    hs_vc c;
    for (size_t w = HS_W; i < n; i += w) {
        w = n - i < (size_t)HS_W ? n - i : (size_t)HS_W;
        hs_vm m = hs_v_block(&Q, run, i, w, &c, thick, boundary, usemask);
        unsigned bits = hs_vm_bits(m);
        if (!bits)
            continue;
        if (found < cap)
            hs_all_vec(&Q, run, i, w, m, c, ids, t, cap, found, thick, boundary, useids);
        found += (size_t)__builtin_popcount(bits);
    }
    return found;
}

/* ---- per-call dispatch on the constant parameters --------------------------------------- */

#define HS_CAT2(a, b) a##b
#define HS_CAT(a, b) HS_CAT2(a, b)
#define HS_FN(name) HS_CAT(HS_CAT(hs_k_, HS_KNAME), HS_CAT(_, name))

/* expands `call` with T (thick), B (boundary), M (mask) bound to 0/1 constants */
#define HS_SPLIT3(kq, run, call)                                                                 \
    do {                                                                                         \
        const int t_ = (kq)->q != 0.0f, b_ = (kq)->sem == HS_BOUNDARY, m_ = (run)->mask != NULL; \
        switch (t_ * 4 + b_ * 2 + m_) {                                                          \
        case 0: { enum { T = 0, B = 0, M = 0 }; call; }                                          \
        case 1: { enum { T = 0, B = 0, M = 1 }; call; }                                          \
        case 2: { enum { T = 0, B = 1, M = 0 }; call; }                                          \
        case 3: { enum { T = 0, B = 1, M = 1 }; call; }                                          \
        case 4: { enum { T = 1, B = 0, M = 0 }; call; }                                          \
        case 5: { enum { T = 1, B = 0, M = 1 }; call; }                                          \
        case 6: { enum { T = 1, B = 1, M = 0 }; call; }                                          \
        default: { enum { T = 1, B = 1, M = 1 }; call; }                                         \
        }                                                                                        \
    } while (0)

static int HS_FN(any)(const hs_kq *kq, const hs_run *run)
{
#ifdef HS_ALIGNED_SPLIT
    if (hs_run_aligned(run))
        HS_SPLIT3(kq, run, return hs_any_body(kq, run, T, B, M, 1));
#endif
    HS_SPLIT3(kq, run, return hs_any_body(kq, run, T, B, M, 0));
}

static size_t HS_FN(count)(const hs_kq *kq, const hs_run *run)
{
#ifdef HS_ALIGNED_SPLIT
    if (hs_run_aligned(run))
        HS_SPLIT3(kq, run, return hs_count_body(kq, run, T, B, M, 1));
#endif
    HS_SPLIT3(kq, run, return hs_count_body(kq, run, T, B, M, 0));
}

/* ids only matter in vectors that hit, so they stay a run-time flag there */
static int HS_FN(closest)(const hs_kq *kq, const hs_run *run, float *best_t, uint32_t *best_id,
                          uint32_t *best_pos)
{
    if (run->ids)
        HS_SPLIT3(kq, run, return hs_closest_body(kq, run, best_t, best_id, best_pos, T, B, M, 1));
    else
        HS_SPLIT3(kq, run, return hs_closest_body(kq, run, best_t, best_id, best_pos, T, B, M, 0));
}

static size_t HS_FN(all)(const hs_kq *kq, const hs_run *run, uint32_t *ids, float *t, size_t cap)
{
    if (run->ids)
        HS_SPLIT3(kq, run, return hs_all_body(kq, run, ids, t, cap, T, B, M, 1));
    else
        HS_SPLIT3(kq, run, return hs_all_body(kq, run, ids, t, cap, T, B, M, 0));
}

#include "grid_walk_impl.h"

const hs_kernel_set HS_CAT(hs_kernels_, HS_KNAME) = {
    HS_KISA,          HS_W,
    HS_FN(any),       HS_FN(count),
    HS_FN(closest),   HS_FN(all),
    HS_FN(grid_any),  HS_FN(grid_count),
    HS_FN(grid_closest), HS_FN(grid_all),
    HS_FN(grid_closest_range), HS_FN(grid_anycount_range),
    HS_FN(grid_all_range),
};
