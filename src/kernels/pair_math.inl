/* SPDX-License-Identifier: MIT */
/* Internal: the pair test and the entry time of core.h on vectors of HS_W circles (one query
 * against W circles), the loads of a run's circles, and the per-lane ids. Written once over
 * simd.h; part of the per-ISA code (kernels.inl, walk/walk.inl).
 *
 * Agreement with core.h (tests/test_kernels.c checks it per level on tangent-heavy scenes):
 *  - scalar, sse4, neon, and avx2 / avx512 in a deterministic build (-DHS_DETERMINISTIC=ON): no
 * FMA, the same IEEE operations in the same order: hit sets and entry t are bit-identical to
 * hs_pair_hits / hs_pair_times on every level and machine.
 *  - avx2, avx512 in the default build (HS_DETERMINISTIC off): a*b + c is fused, so a pair may flip
 * only within the tangency band, about one float ulp of the coordinates wide (the test allows a
 *    relative 1e-6 of max(|a|, |c|, |t d|, r + q)). Entry t then differs by at most the square
 *    root of that rounding, at grazing incidence, and in boundary semantics a start point within
 *    the band may switch entry and exit wound.
 * |f|^2 - R^2 is computed in double on every level and in both builds (hs_v_csq). */
#ifndef HS_KNAME
#error "include kernels.inl or walk/walk.inl, not this file"
#endif

/* The query broadcast once per call. ninv = -1/d.d, so tc = b * ninv equals core.h's
 * -b * inv_dd exactly (negation is exact). */
typedef struct hs_vq {
    hs_vf ax, ay, dx, dy, tmin, tmax, q, dd, inv_dd, ninv;
    hs_vi kmask;
    hs_vi kign; /* the circle id never reported (hs_kq.ignore; tested only under a flag) */
    int skip;   /* skip-start (types.h), applied by hs_v_keep */
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
    v.skip = (k->sem & HS_SKIP_START) != 0;
    v.kign = hs_vi_set1(k->ignore);
    return v;
}

/* The lanes of m whose circle ids are not ign (id - ign != 0). */
HS_INLINE hs_vm hs_v_not_ignored(hs_vm m, hs_vi ids, hs_vi ign)
{
    const hs_vi d = hs_vi_sub(ids, ign);
    return hs_vm_and(m, hs_vm_test_i(d, d));
}

/* Loaded circles of one vector (or of the zero-padded tail). */
typedef struct hs_vc {
    hs_vf cx, cy, r;
} hs_vc;

/* The hit test in two halves, so a loop can overlap the second half of one vector with
 * the first half of the next (see hs_count_body). */
typedef struct hs_vs {
    hs_vf fx, fy, R2, tcl;
} hs_vs;

/* a*b + c as the level computes it (hs_vf_fmadd: one FMA where the level fuses), or with
 * twice rounded twice at every level, exactly as core.h (a compile-time constant). */
HS_INLINE hs_vf hs_v_madd(hs_vf a, hs_vf b, hs_vf c, const int twice)
{
    return twice ? hs_vf_add(hs_vf_mul(a, b), c) : hs_vf_fmadd(a, b, c);
}

HS_INLINE hs_vs hs_v_hits1_r(const hs_vq *Q, hs_vc c, const int thick, const int twice)
{
    hs_vs s;
    s.fx = hs_vf_sub(Q->ax, c.cx);
    s.fy = hs_vf_sub(Q->ay, c.cy);
    hs_vf R = thick ? hs_vf_add(c.r, Q->q) : c.r; /* r + 0 == r exactly */
    s.R2 = hs_vf_mul(R, R);
    hs_vf b = hs_v_madd(s.fy, Q->dy, hs_vf_mul(s.fx, Q->dx), twice);
    s.tcl = hs_vf_min(hs_vf_max(hs_vf_mul(b, Q->ninv), Q->tmin), Q->tmax);
    return s;
}

HS_INLINE hs_vm hs_v_hits2_r(const hs_vq *Q, hs_vs s, const int boundary, const int twice)
{
    hs_vf px = hs_v_madd(s.tcl, Q->dx, s.fx, twice), py = hs_v_madd(s.tcl, Q->dy, s.fy, twice);
    hs_vm hit = hs_vm_le(hs_v_madd(py, py, hs_vf_mul(px, px), twice), s.R2);
    if (boundary) {
        hs_vf sx = hs_v_madd(Q->tmin, Q->dx, s.fx, twice);
        hs_vf sy = hs_v_madd(Q->tmin, Q->dy, s.fy, twice);
        hs_vf ex = hs_v_madd(Q->tmax, Q->dx, s.fx, twice);
        hs_vf ey = hs_v_madd(Q->tmax, Q->dy, s.fy, twice);
        hs_vm sin = hs_vm_lt(hs_v_madd(sy, sy, hs_vf_mul(sx, sx), twice), s.R2);
        hs_vm ein = hs_vm_lt(hs_v_madd(ey, ey, hs_vf_mul(ex, ex), twice), s.R2);
        hit = hs_vm_andnot(hit, hs_vm_and(sin, ein));
    }
    return hit;
}

HS_INLINE hs_vs hs_v_hits1(const hs_vq *Q, hs_vc c, const int thick)
{
    return hs_v_hits1_r(Q, c, thick, 0);
}

HS_INLINE hs_vm hs_v_hits2(const hs_vq *Q, hs_vs s, const int boundary)
{
    return hs_v_hits2_r(Q, s, boundary, 0);
}

/* hs_pair_hits, lane-wise, same operations in the same order; a*b + c becomes one FMA on
 * levels that have it unless the build is deterministic (the only source of differences,
 * confined to the tangency band).
 * thick / boundary are compile-time constants after inlining: the branch is per call. */
HS_INLINE hs_vm hs_v_hits(const hs_vq *Q, hs_vc c, const int thick, const int boundary)
{
    return hs_v_hits2(Q, hs_v_hits1(Q, c, thick), boundary);
}

/* hs_pair_skips_start, lane-wise, same operations in the same order: m without the lanes
 * whose query starts in the circle's closed inflated disc heading outward. */
HS_INLINE hs_vm hs_v_skip_start_r(const hs_vq *Q, hs_vf fx, hs_vf fy, hs_vf R2, hs_vm m,
                                  const int twice)
{
    hs_vf sx = hs_v_madd(Q->tmin, Q->dx, fx, twice), sy = hs_v_madd(Q->tmin, Q->dy, fy, twice);
    hs_vm in = hs_vm_le(hs_v_madd(sy, sy, hs_vf_mul(sx, sx), twice), R2);
    hs_vm out = hs_vm_le(hs_vf_set1(0.0f), hs_v_madd(sy, Q->dy, hs_vf_mul(sx, Q->dx), twice));
    return hs_vm_andnot(m, hs_vm_and(in, out));
}

HS_INLINE hs_vm hs_v_skip_start(const hs_vq *Q, hs_vf fx, hs_vf fy, hs_vf R2, hs_vm m)
{
    return hs_v_skip_start_r(Q, fx, fy, R2, m, 0);
}

/* The hit lanes m of the circles c, with skip-start applied when the query asks for it. The
 * flag is tested first: it is the same for every vector of a call, so the branch is always
 * predicted, where a branch on the hit lanes would mispredict in the loops that have none
 * (count, the block's tests). Without the flag nothing else runs. */
HS_INLINE hs_vm hs_v_keep(const hs_vq *Q, hs_vc c, hs_vm m, const int thick)
{
    if (Q->skip && hs_vm_bits(m)) {
        hs_vf R = thick ? hs_vf_add(c.r, Q->q) : c.r;
        m = hs_v_skip_start(Q, hs_vf_sub(Q->ax, c.cx), hs_vf_sub(Q->ay, c.cy), hs_vf_mul(R, R), m);
    }
    return m;
}

/* hs_v_keep for the split test (hs_v_hits1's half). */
HS_INLINE hs_vm hs_v_keep_split(const hs_vq *Q, hs_vs s, hs_vm m)
{
    return Q->skip && hs_vm_bits(m) ? hs_v_skip_start(Q, s.fx, s.fy, s.R2, m) : m;
}

/* hs_pair_disc lane-wise: R^2 - |f + tc D|^2 in double, rounded once to float. */
HS_INLINE hs_vf hs_v_disc(const hs_vq *Q, hs_vc c, hs_vf tc, const int thick)
{
    const hs_vd2 fx = hs_vd2_sub(hs_vd2_of(Q->ax), hs_vd2_of(c.cx));
    const hs_vd2 fy = hs_vd2_sub(hs_vd2_of(Q->ay), hs_vd2_of(c.cy));
    const hs_vd2 R = thick ? hs_vd2_add(hs_vd2_of(c.r), hs_vd2_of(Q->q)) : hs_vd2_of(c.r);
    const hs_vd2 t = hs_vd2_of(tc);
    const hs_vd2 hx = hs_vd2_add(fx, hs_vd2_mul(t, hs_vd2_of(Q->dx)));
    const hs_vd2 hy = hs_vd2_add(fy, hs_vd2_mul(t, hs_vd2_of(Q->dy)));
    return hs_vd2_to_vf(
        hs_vd2_sub(hs_vd2_mul(R, R), hs_vd2_add(hs_vd2_mul(hx, hx), hs_vd2_mul(hy, hy))));
}

/* hs_pair_csq lane-wise: |f|^2 - R^2 in double, rounded once to float. */
HS_INLINE hs_vf hs_v_csq(const hs_vq *Q, hs_vc c, const int thick)
{
    const hs_vd2 fx = hs_vd2_sub(hs_vd2_of(Q->ax), hs_vd2_of(c.cx));
    const hs_vd2 fy = hs_vd2_sub(hs_vd2_of(Q->ay), hs_vd2_of(c.cy));
    /* r + 0 == r exactly, as core.h's r + q for q = 0 */
    const hs_vd2 R = thick ? hs_vd2_add(hs_vd2_of(c.r), hs_vd2_of(Q->q)) : hs_vd2_of(c.r);
    return hs_vd2_to_vf(
        hs_vd2_sub(hs_vd2_add(hs_vd2_mul(fx, fx), hs_vd2_mul(fy, fy)), hs_vd2_mul(R, R)));
}

/* hs_pair_times' entry parameter, lane-wise (lanes that do not hit compute garbage that
 * the caller masks off; the division is guarded so no lane divides by zero). */
HS_INLINE hs_vf hs_v_entry_r(const hs_vq *Q, hs_vc c, const int thick, const int boundary,
                             const int twice)
{
    hs_vf zero = hs_vf_set1(0.0f);
    hs_vf fx = hs_vf_sub(Q->ax, c.cx), fy = hs_vf_sub(Q->ay, c.cy);
    hs_vf R = thick ? hs_vf_add(c.r, Q->q) : c.r;
    hs_vf R2 = hs_vf_mul(R, R);
    hs_vf b = hs_v_madd(fy, Q->dy, hs_vf_mul(fx, Q->dx), twice);
    hs_vf cc = hs_v_csq(Q, c, thick);
    hs_vf tc = hs_vf_mul(b, Q->ninv);
    hs_vf disc = hs_vf_max(hs_v_disc(Q, c, tc, thick), zero);
    /* as core.h: |d| sqrt(disc), never sqrt(d.d disc) (overflow) */
    hs_vf sq = hs_vf_mul(hs_vf_sqrt(Q->dd), hs_vf_sqrt(disc));
    hs_vf qq = hs_vf_neg(hs_vf_add(b, hs_vf_copysign(sq, b)));
    hs_vm nz = hs_vm_and(hs_vm_ne(qq, zero), hs_vm_lt(zero, disc)); /* as core.h: disc 0 -> tc */
    hs_vf ra = hs_vf_mul(qq, Q->inv_dd);
    hs_vf rb = hs_vf_div(cc, hs_vf_select(nz, qq, hs_vf_set1(1.0f)));
    hs_vf t0 = hs_vf_select(nz, hs_vf_min(ra, rb), tc);
    hs_vf sx = hs_v_madd(Q->tmin, Q->dx, fx, twice), sy = hs_v_madd(Q->tmin, Q->dy, fy, twice);
    hs_vf s2 = hs_v_madd(sy, sy, hs_vf_mul(sx, sx), twice);
    hs_vf t = hs_vf_min(hs_vf_max(t0, Q->tmin), Q->tmax);
    t = hs_vf_select(hs_vm_le(s2, R2), Q->tmin, t);
    if (boundary) {
        hs_vf t1 = hs_vf_select(nz, hs_vf_max(ra, rb), tc);
        hs_vf exitw = hs_vf_min(hs_vf_max(t1, Q->tmin), Q->tmax);
        t = hs_vf_select(hs_vm_lt(s2, R2), exitw, t);
    }
    return t;
}

HS_INLINE hs_vf hs_v_entry(const hs_vq *Q, hs_vc c, const int thick, const int boundary)
{
    return hs_v_entry_r(Q, c, thick, boundary, 0);
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

/* Legacy SSE cannot fold an unaligned load into subps / addps, and the extra movups weighs on
 * the SSE4.2 count loop, which is bound by instruction dispatch. So any / count
 * get an aligned instantiation there (x, y, r vector-aligned, as hs_circles_create makes
 * them). VEX / EVEX fold unaligned loads, and other levels skip it. */
#if HS_W == 4 && defined(SIMDE_X86_SSE2_NATIVE)
#define HS_ALIGNED_SPLIT 1
HS_INLINE int hs_run_aligned(const hs_run *run)
{
    return (((uintptr_t)run->x | (uintptr_t)run->y | (uintptr_t)run->r) % (HS_W * sizeof(float))) ==
           0;
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
    return hs_v_keep(Q, *c, m, thick);
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

/* A vector's hit lanes (m) as (id, entry t) appended at found of ids / t (room for cap). */
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
