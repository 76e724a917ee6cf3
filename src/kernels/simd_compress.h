/* SPDX-License-Identifier: MIT */
/* Internal: compress for simd.h (included by it, after the vector types and hs_vm_bits):
 * hs_vf_compress / hs_vi_compress store the lanes of a mask's set bits first. AVX-512 has the
 * instruction (simd.h); the levels below take one looked-up permutation. */
#ifndef HITSCAN_SIMD_H
#error "include simd.h, not this file"
#endif
#if HS_W == 4 || HS_W == 8
/* Compress without a compress instruction: the lanes of m's set bits moved to the front by one
 * permutation looked up from m's bits, and the whole vector stored (the AVX-512 form's
 * contract: room for HS_W at p). No branch on the bits: a loop over them mispredicts on every
 * item whose hit count differs from the last one's.
 * Row n: the lanes of nibble n's set bits, lowest first, the rest 0. */
/* clang-format off */
#define HS_NIBBLE_LANES(X)                                                              \
    X(0, 0, 0, 0) X(0, 0, 0, 0) X(1, 0, 0, 0) X(0, 1, 0, 0)                             \
    X(2, 0, 0, 0) X(0, 2, 0, 0) X(1, 2, 0, 0) X(0, 1, 2, 0)                             \
    X(3, 0, 0, 0) X(0, 3, 0, 0) X(1, 3, 0, 0) X(0, 1, 3, 0)                             \
    X(2, 3, 0, 0) X(0, 2, 3, 0) X(1, 2, 3, 0) X(0, 1, 2, 3)
/* clang-format on */
#if HS_W == 4
/* pshufb controls: lane k of the result is lane (row n)[k] of the source */
#define HS_LANE_BYTES(l) 4 * (l), 4 * (l) + 1, 4 * (l) + 2, 4 * (l) + 3
#define HS_CTL_ROW(a, b, c, d)                                                                     \
    {HS_LANE_BYTES(a), HS_LANE_BYTES(b), HS_LANE_BYTES(c), HS_LANE_BYTES(d)},
static const uint8_t hs_compress_ctl[16][16] = {HS_NIBBLE_LANES(HS_CTL_ROW)};
HS_INLINE hs_vi hs_vi_compressed(unsigned bits, hs_vi a)
{
#if defined(SIMDE_WASM_SIMD128_NATIVE) /* SIMDe 0.7.4: pshufb byte by byte; one swizzle here */
    return wasm_i8x16_swizzle(a, wasm_v128_load(hs_compress_ctl[bits]));
#else
    return simde_mm_shuffle_epi8(a, simde_mm_loadu_si128((const void *)hs_compress_ctl[bits]));
#endif
}
#else
/* the nibble's lanes as bytes, lowest first */
#define HS_LANES_ROW(a, b, c, d)                                                                   \
    (uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24,
static const uint32_t hs_nibble_lanes[16] = {HS_NIBBLE_LANES(HS_LANES_ROW)};
HS_INLINE hs_vi hs_vi_compressed(unsigned bits, hs_vi a)
{
    const unsigned lo = bits & 15u, hi = bits >> 4;
    /* the high nibble's lanes (+ 4) placed right after the low nibble's */
    const uint64_t lanes =
        (uint64_t)hs_nibble_lanes[lo] | (uint64_t)(hs_nibble_lanes[hi] + 0x04040404u)
                                            << (8 * __builtin_popcount(lo));
    const hs_vi perm = simde_mm256_cvtepu8_epi32(simde_mm_cvtsi64_si128((int64_t)lanes));
    return simde_mm256_permutevar8x32_epi32(a, perm);
}
#endif
HS_INLINE void hs_vf_compress(float *p, hs_vm m, hs_vf a)
{
    hs_vf_storeu(p, HS_CAST_PS(hs_vi_compressed(hs_vm_bits(m), HS_CAST_SI(a))));
}
HS_INLINE void hs_vi_compress(uint32_t *p, hs_vm m, hs_vi a)
{
    hs_vi_storeu(p, hs_vi_compressed(hs_vm_bits(m), a));
}
#elif !defined(HS_HAVE_COMPRESS)
/* The scalar level: a vector is one lane, stored when it is set. */
HS_INLINE void hs_vf_compress(float *p, hs_vm m, hs_vf a)
{
    if (hs_vm_bits(m))
        *p = a;
}
HS_INLINE void hs_vi_compress(uint32_t *p, hs_vm m, hs_vi a)
{
    if (hs_vm_bits(m))
        *p = a;
}
#endif
