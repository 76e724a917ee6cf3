/* SPDX-License-Identifier: MIT */
/* Internal: the vector layer's integer lanes for simd.h (included by it, after the vector
 * types, hs_vm_from_bits and compress): lanes as 32-bit integers, gathers at any uint32_t
 * index (masked where the hardware has them), the walk's items stored as compressed
 * (lo, hi) pairs, and stores of a vector's first lanes. The block walk's plan is written on
 * these (walk/block_plan_rows.inl). */
#ifndef HITSCAN_SIMD_H
#error "include simd.h, not this file"
#endif

#if HS_W == 4 || HS_W == 8
/* base[idx] lane by lane, for 32-bit words at any uint32_t index (the block's packed hit
 * lists: each lane a different query's circle). AVX2's gather takes signed indices, so the
 * index is re-based by 2^31 and the base by as many words; 128-bit levels load lane by lane. */
#if HS_W == 8
HS_INLINE hs_vi hs_vi_gather(const void *base, hs_vi idx)
{
    const void *b = (const void *)((uintptr_t)base + ((uintptr_t)4 << 31));
    return simde_mm256_i32gather_epi32(
        (const int32_t *)b, simde_mm256_xor_si256(idx, simde_mm256_set1_epi32(INT32_MIN)), 4);
}
#else
/* The 4 bytes at byte `at` of base, any alignment. */
HS_INLINE int32_t hs_word_at(const void *base, size_t at)
{
    int32_t v;
    memcpy(&v, (const char *)base + at, sizeof v);
    return v;
}
/* Lane k: the 4 bytes at byte scale * idx[k] of base. */
HS_INLINE hs_vi hs_vi_gather_scaled(const void *base, hs_vi idx, size_t scale)
{
#define HS_LANE_AT(k) hs_word_at(base, (uint32_t)simde_mm_extract_epi32(idx, k) * scale)
    return simde_mm_setr_epi32(HS_LANE_AT(0), HS_LANE_AT(1), HS_LANE_AT(2), HS_LANE_AT(3));
#undef HS_LANE_AT
}
HS_INLINE hs_vi hs_vi_gather(const void *base, hs_vi idx)
{
    return hs_vi_gather_scaled(base, idx, 4);
}
#endif
HS_INLINE hs_vf hs_vf_gather(const float *base, hs_vi idx)
{
    return HS_CAST_PS(hs_vi_gather(base, idx));
}

/* For the row trim's occupancy bits (block_plan_rows.inl): lanes as 32-bit integers, and the
 * 4 bytes at each lane's byte offset (offsets below 2^31, any alignment). */
HS_INLINE hs_vi hs_vi_from_vf(hs_vf a) { return HS_SI(cvttps_epi32)(a); } /* truncated */
HS_INLINE hs_vf hs_vf_bits_of(hs_vi a) { return HS_CAST_PS(a); }          /* the same bits */
HS_INLINE hs_vi hs_vi_add(hs_vi a, hs_vi b) { return HS_SI(add_epi32)(a, b); }
HS_INLINE hs_vi hs_vi_sub(hs_vi a, hs_vi b) { return HS_SI(sub_epi32)(a, b); }
HS_INLINE hs_vi hs_vi_mullo(hs_vi a, hs_vi b) { return HS_SI(mullo_epi32)(a, b); }
HS_INLINE hs_vi hs_vi_and(hs_vi a, hs_vi b) { return HS_SIX(and)(a, b); }
HS_INLINE hs_vi hs_vi_srlv(hs_vi a, hs_vi n) { return HS_SI(srlv_epi32)(a, n); }
HS_INLINE hs_vi hs_vi_sllv(hs_vi a, hs_vi n) { return HS_SI(sllv_epi32)(a, n); }
#define hs_vi_srli(a, n) HS_SI(srli_epi32)((a), (n))
#define hs_vi_slli(a, n) HS_SI(slli_epi32)((a), (n))
HS_INLINE hs_vi hs_vi_or(hs_vi a, hs_vi b) { return HS_SIX(or)(a, b); }
HS_INLINE hs_vi hs_vi_min(hs_vi a, hs_vi b) { return HS_SI(min_epu32)(a, b); } /* unsigned */
#if HS_W == 8
HS_INLINE hs_vi hs_vi_gather_bytes(const void *base, hs_vi off)
{
    return simde_mm256_i32gather_epi32((const int32_t *)base, off, 1);
}
#else
HS_INLINE hs_vi hs_vi_gather_bytes(const void *base, hs_vi off)
{
    return hs_vi_gather_scaled(base, off, 1);
}
#endif
/* hs_vi_gather / hs_vi_gather_bytes reading only the lanes of m (the others are unspecified,
 * but every lane's address must be readable): a gather instruction costs a load per lane read */
#if HS_W == 8
HS_INLINE hs_vi hs_vi_gather_m(const void *base, hs_vi idx, hs_vm m)
{
    const void *b = (const void *)((uintptr_t)base + ((uintptr_t)4 << 31));
    return simde_mm256_mask_i32gather_epi32(
        simde_mm256_setzero_si256(), (const int32_t *)b,
        simde_mm256_xor_si256(idx, simde_mm256_set1_epi32(INT32_MIN)), HS_CAST_SI(m), 4);
}
HS_INLINE hs_vi hs_vi_gather_bytes_m(const void *base, hs_vi off, hs_vm m)
{
    return simde_mm256_mask_i32gather_epi32(simde_mm256_setzero_si256(), (const int32_t *)base, off,
                                            HS_CAST_SI(m), 1);
}
#endif
#elif HS_W == 1
HS_INLINE hs_vi hs_vi_from_vf(hs_vf a) { return (uint32_t)(int32_t)a; } /* truncated */
HS_INLINE hs_vf hs_vf_bits_of(hs_vi a)
{
    float f;
    memcpy(&f, &a, sizeof f);
    return f;
}
HS_INLINE hs_vi hs_vi_add(hs_vi a, hs_vi b) { return a + b; }
HS_INLINE hs_vi hs_vi_sub(hs_vi a, hs_vi b) { return a - b; }
HS_INLINE hs_vi hs_vi_mullo(hs_vi a, hs_vi b) { return a * b; }
HS_INLINE hs_vi hs_vi_and(hs_vi a, hs_vi b) { return a & b; }
HS_INLINE hs_vi hs_vi_srlv(hs_vi a, hs_vi n) { return n < 32 ? a >> n : 0u; }
HS_INLINE hs_vi hs_vi_sllv(hs_vi a, hs_vi n) { return n < 32 ? a << n : 0u; }
#define hs_vi_srli(a, n) ((hs_vi)(a) >> (n))
#define hs_vi_slli(a, n) ((hs_vi)(a) << (n))
HS_INLINE hs_vi hs_vi_or(hs_vi a, hs_vi b) { return a | b; }
HS_INLINE hs_vi hs_vi_min(hs_vi a, hs_vi b) { return a < b ? a : b; }
HS_INLINE hs_vi hs_vi_gather(const void *base, hs_vi idx)
{
    uint32_t v;
    memcpy(&v, (const char *)base + 4 * (size_t)idx, sizeof v);
    return v;
}
HS_INLINE hs_vf hs_vf_gather(const float *base, hs_vi idx) { return base[idx]; }
HS_INLINE hs_vi hs_vi_gather_bytes(const void *base, hs_vi off)
{
    uint32_t v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}
#elif defined(SIMDE_X86_AVX512F_NATIVE)
HS_INLINE hs_vi hs_vi_from_vf(hs_vf a) { return _mm512_cvttps_epi32(a); } /* truncated */
HS_INLINE hs_vf hs_vf_bits_of(hs_vi a) { return _mm512_castsi512_ps(a); }
HS_INLINE hs_vi hs_vi_add(hs_vi a, hs_vi b) { return _mm512_add_epi32(a, b); }
HS_INLINE hs_vi hs_vi_sub(hs_vi a, hs_vi b) { return _mm512_sub_epi32(a, b); }
HS_INLINE hs_vi hs_vi_mullo(hs_vi a, hs_vi b) { return _mm512_mullo_epi32(a, b); }
HS_INLINE hs_vi hs_vi_and(hs_vi a, hs_vi b) { return _mm512_and_si512(a, b); }
HS_INLINE hs_vi hs_vi_srlv(hs_vi a, hs_vi n) { return _mm512_srlv_epi32(a, n); }
HS_INLINE hs_vi hs_vi_sllv(hs_vi a, hs_vi n) { return _mm512_sllv_epi32(a, n); }
#define hs_vi_srli(a, n) _mm512_srli_epi32((a), (n))
#define hs_vi_slli(a, n) _mm512_slli_epi32((a), (n))
HS_INLINE hs_vi hs_vi_or(hs_vi a, hs_vi b) { return _mm512_or_si512(a, b); }
HS_INLINE hs_vi hs_vi_min(hs_vi a, hs_vi b) { return _mm512_min_epu32(a, b); } /* unsigned */
/* base[idx] lane by lane at any uint32_t index: gather indices are signed, so idx is re-based
 * by 2^31 and the base by as many words */
HS_INLINE hs_vi hs_vi_gather(const void *base, hs_vi idx)
{
    const void *b = (const void *)((uintptr_t)base + ((uintptr_t)4 << 31));
    return _mm512_i32gather_epi32(_mm512_xor_si512(idx, _mm512_set1_epi32(INT32_MIN)), b, 4);
}
HS_INLINE hs_vf hs_vf_gather(const float *base, hs_vi idx)
{
    return _mm512_castsi512_ps(hs_vi_gather(base, idx));
}
HS_INLINE hs_vi hs_vi_gather_m(const void *base, hs_vi idx, hs_vm m)
{
    const void *b = (const void *)((uintptr_t)base + ((uintptr_t)4 << 31));
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m,
                                       _mm512_xor_si512(idx, _mm512_set1_epi32(INT32_MIN)), b, 4);
}
HS_INLINE hs_vi hs_vi_gather_bytes_m(const void *base, hs_vi off, hs_vm m)
{
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, off, base, 1);
}
HS_INLINE hs_vi hs_vi_gather_bytes(const void *base, hs_vi off)
{
    return _mm512_i32gather_epi32(off, base, 1);
}
#else
#error "the 16-lane level needs AVX-512F (build it with the flags src/CMakeLists.txt gives it)"
#endif

#if HS_W == 1 || HS_W == 4
/* No gather instruction: every lane is read whatever m says (its address is readable) */
HS_INLINE hs_vi hs_vi_gather_m(const void *base, hs_vi idx, hs_vm m)
{
    (void)m;
    return hs_vi_gather(base, idx);
}
HS_INLINE hs_vi hs_vi_gather_bytes_m(const void *base, hs_vi off, hs_vm m)
{
    (void)m;
    return hs_vi_gather_bytes(base, off);
}
#endif

/* The lanes of m's set bits as (lo, hi) pairs of words, in lane order, at p[0 .. 2 popcount(m));
 * p must have room for 2 HS_W words (lanes past the set ones are overwritten). The walk's
 * items are such pairs (walk/block.inl's hs_item). */
#if HS_W == 1
HS_INLINE void hs_vi_compress_pairs(void *p, hs_vm m, hs_vi lo, hs_vi hi)
{
    const uint32_t pair[2] = {lo, hi};
    memcpy(p, pair, sizeof pair); /* p may hold other types (memcpy, as a vector store would) */
    (void)m; /* counted by the caller: a pair not set is overwritten by the next */
}
#elif HS_W == 4
HS_INLINE void hs_vi_compress_pairs(void *p, hs_vm m, hs_vi lo, hs_vi hi)
{
    const unsigned bits = hs_vm_bits(m);
    const hs_vi l = hs_vi_compressed(bits, lo), h = hs_vi_compressed(bits, hi);
    simde_mm_storeu_si128(p, simde_mm_unpacklo_epi32(l, h));
    simde_mm_storeu_si128((char *)p + 16, simde_mm_unpackhi_epi32(l, h));
}
#elif HS_W == 8
HS_INLINE void hs_vi_compress_pairs(void *p, hs_vm m, hs_vi lo, hs_vi hi)
{
    const unsigned bits = hs_vm_bits(m);
    const hs_vi l = hs_vi_compressed(bits, lo), h = hs_vi_compressed(bits, hi);
    const hs_vi a = simde_mm256_unpacklo_epi32(l, h), b = simde_mm256_unpackhi_epi32(l, h);
    simde_mm256_storeu_si256(p, simde_mm256_permute2x128_si256(a, b, 0x20));
    simde_mm256_storeu_si256((char *)p + 32, simde_mm256_permute2x128_si256(a, b, 0x31));
}
#else
/* lanes 8h .. 8h + 7 of lo and hi as 64-bit words lo | hi << 32 (hs_item's layout, the walk's
 * hit keys) */
HS_INLINE __m512i hs_vi_pair64(hs_vi lo, hs_vi hi, int h)
{
    const __m256i l = h ? _mm512_extracti64x4_epi64(lo, 1) : _mm512_castsi512_si256(lo);
    const __m256i u = h ? _mm512_extracti64x4_epi64(hi, 1) : _mm512_castsi512_si256(hi);
    return _mm512_or_si512(_mm512_cvtepu32_epi64(l),
                           _mm512_slli_epi64(_mm512_cvtepu32_epi64(u), 32));
}
HS_INLINE void hs_vi_compress_pairs(void *p, hs_vm m, hs_vi lo, hs_vi hi)
{
    const __mmask8 mlo = (__mmask8)m, mhi = (__mmask8)(m >> 8);
    _mm512_storeu_si512(p, _mm512_maskz_compress_epi64(mlo, hs_vi_pair64(lo, hi, 0)));
    _mm512_storeu_si512((char *)p + 8 * __builtin_popcount(mlo),
                        _mm512_maskz_compress_epi64(mhi, hs_vi_pair64(lo, hi, 1)));
}
#endif

/* The first n lanes of a (n <= HS_W) stored at p, the words after them untouched. */
#if HS_W == 1
HS_INLINE void hs_vi_store_first(uint32_t *p, hs_vi a, size_t n)
{
    if (n)
        *p = a;
}
HS_INLINE void hs_vf_store_first(float *p, hs_vf a, size_t n)
{
    if (n)
        *p = a;
}
#elif HS_W == 4
HS_INLINE void hs_vi_store_first(uint32_t *p, hs_vi a, size_t n)
{
    uint32_t v[4];
    hs_vi_storeu(v, a);
    for (size_t k = 0; k < n; k++)
        p[k] = v[k];
}
HS_INLINE void hs_vf_store_first(float *p, hs_vf a, size_t n)
{
    float v[4];
    hs_vf_storeu(v, a);
    for (size_t k = 0; k < n; k++)
        p[k] = v[k];
}
#elif HS_W == 8
HS_INLINE void hs_vi_store_first(uint32_t *p, hs_vi a, size_t n)
{
    simde_mm256_maskstore_epi32((int32_t *)p, HS_CAST_SI(hs_vm_first(n)), a);
}
HS_INLINE void hs_vf_store_first(float *p, hs_vf a, size_t n)
{
    simde_mm256_maskstore_ps(p, HS_CAST_SI(hs_vm_first(n)), a);
}
#else
HS_INLINE void hs_vi_store_first(uint32_t *p, hs_vi a, size_t n)
{
    _mm512_mask_storeu_epi32(p, (__mmask16)((1u << n) - 1u), a);
}
HS_INLINE void hs_vf_store_first(float *p, hs_vf a, size_t n)
{
    _mm512_mask_storeu_ps(p, (__mmask16)((1u << n) - 1u), a);
}
#endif
