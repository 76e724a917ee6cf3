/* SPDX-License-Identifier: MIT */
/* Internal: the four pair kernels (any, count, closest, all) of one query against a run of
 * circles, each body bound per call to compile-time constants (thick, boundary, mask[, ids]).
 * Part of the per-ISA code (kernels.inl), the functions of hs_kernel_set (kernels.h). */
#ifndef HS_KNAME
#error "include kernels.inl, not this file"
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
