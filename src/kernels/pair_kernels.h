/* SPDX-License-Identifier: MIT */
/* Internal: the four pair kernels (any, count, closest, all) of one query against a run of
 * circles, each body bound per call to compile-time constants (thick, boundary, mask[, ids]).
 * Part of the per-ISA code (instantiate.h), the functions of hs_kernel_set (kernels.h). */
#ifndef HS_KNAME
#error "include instantiate.h, not this file"
#endif

HS_INLINE int hs_any_body(const hs_kq *kq, const hs_run *run, const int thick, const int boundary,
                          const int usemask, const int al)
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
         * long one (the scalar level keeps the plain loop, which the compiler vectorises) */
        hs_vs s = hs_v_hits1(&Q, hs_v_load(run, 0, al), thick);
        for (i = HS_W; i + HS_W <= n; i += HS_W) {
            hs_vs next = hs_v_hits1(&Q, hs_v_load(run, i, al), thick);
            hs_vm m = hs_v_hits2(&Q, s, boundary);
            if (usemask)
                m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(run->mask + i - HS_W), Q.kmask));
            cnt += (size_t)__builtin_popcount(hs_vm_bits(hs_v_keep_split(&Q, s, m)));
            s = next;
        }
        hs_vm m = hs_v_hits2(&Q, s, boundary);
        if (usemask)
            m = hs_vm_and(m, hs_vm_test_i(hs_vi_loadu(run->mask + i - HS_W), Q.kmask));
        cnt += (size_t)__builtin_popcount(hs_vm_bits(hs_v_keep_split(&Q, s, m)));
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

HS_INLINE int hs_closest_body(const hs_kq *kq, const hs_run *run, float *best_t, uint32_t *best_id,
                              uint32_t *best_pos, const int thick, const int boundary,
                              const int usemask, const int useids)
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
            changed |=
                hs_closest_vec(&Q, run, i, HS_W, m, c, &bt, &bid, &bpos, thick, boundary, useids);
    }
    if (i < n) {
        hs_vm m = hs_v_block(&Q, run, i, n - i, &c, thick, boundary, usemask);
        if (hs_vm_bits(m))
            changed |=
                hs_closest_vec(&Q, run, i, n - i, m, c, &bt, &bid, &bpos, thick, boundary, useids);
    }
    if (changed) {
        *best_t = bt;
        *best_id = bid;
        if (best_pos)
            *best_pos = bpos;
    }
    return changed;
}

HS_INLINE void hs_all_vec(const hs_vq *Q, const hs_run *run, size_t i, size_t n, hs_vm m, hs_vc c,
                          uint32_t *ids, float *t, size_t cap, size_t found, const int thick,
                          const int boundary, const int useids)
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

/* ---- Per-call dispatch on the constant parameters ----------------------------------------- */

/* Runs the statement `call` with the names T (thick: q != 0), B (boundary semantics) and M
 * (the run has a mask) bound to 0/1 constants for this query and run, so each combination
 * is its own compiled body. */
/* clang-format off */
#define HS_BIND_FLAGS(kq, run, call)                                                               \
    do {                                                                                         \
        const int t_ = (kq)->q != 0.0f, b_ = ((kq)->sem & HS_BOUNDARY) != 0, m_ = (run)->mask != NULL; \
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
/* clang-format on */

/* The kernels of hs_kernel_set (kernels.h). */
static int HS_FN(any)(const hs_kq *kq, const hs_run *run)
{
#ifdef HS_ALIGNED_SPLIT
    if (hs_run_aligned(run))
        HS_BIND_FLAGS(kq, run, return hs_any_body(kq, run, T, B, M, 1));
#endif
    HS_BIND_FLAGS(kq, run, return hs_any_body(kq, run, T, B, M, 0));
}

static size_t HS_FN(count)(const hs_kq *kq, const hs_run *run)
{
#ifdef HS_ALIGNED_SPLIT
    if (hs_run_aligned(run))
        HS_BIND_FLAGS(kq, run, return hs_count_body(kq, run, T, B, M, 1));
#endif
    HS_BIND_FLAGS(kq, run, return hs_count_body(kq, run, T, B, M, 0));
}

/* ids only matter in vectors that hit, so they stay a run-time flag there */
static int HS_FN(closest)(const hs_kq *kq, const hs_run *run, float *best_t, uint32_t *best_id,
                          uint32_t *best_pos)
{
    if (run->ids)
        HS_BIND_FLAGS(kq, run,
                      return hs_closest_body(kq, run, best_t, best_id, best_pos, T, B, M, 1));
    else
        HS_BIND_FLAGS(kq, run,
                      return hs_closest_body(kq, run, best_t, best_id, best_pos, T, B, M, 0));
}

static size_t HS_FN(all)(const hs_kq *kq, const hs_run *run, uint32_t *ids, float *t, size_t cap)
{
    if (run->ids)
        HS_BIND_FLAGS(kq, run, return hs_all_body(kq, run, ids, t, cap, T, B, M, 1));
    else
        HS_BIND_FLAGS(kq, run, return hs_all_body(kq, run, ids, t, cap, T, B, M, 0));
}
