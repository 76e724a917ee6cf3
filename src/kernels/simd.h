/* SPDX-License-Identifier: MIT */
/* Internal: a width-generic float/u32 vector layer over SIMDe; HS_W (1, 4, 8, 16) picks the width
 * per TU. */
#ifndef HITSCAN_SIMD_H
#define HITSCAN_SIMD_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "force_inline.h"
#include "hitscan/version.h" /* HS_DETERMINISTIC */

#ifndef HS_W
#error "define HS_W (1, 4, 8 or 16) before including simd.h"
#endif

/* Forced inlining binds the walk's compile-time flags (mode, semantics) in one body per
 * combination, where force_inline.h says it is on. Not on WebAssembly: the engine compiles the
 * module again when it loads it, and the copies make the module several times larger and its
 * large functions no faster there, so the compiler decides. */
#if HS_FORCE_INLINE_ON && !defined(__wasm__)
#define HS_INLINE static inline __attribute__((always_inline))
#else
#define HS_INLINE static inline
#endif

/* Lane masks are hs_vm; hs_vm_bits gives them as an integer (bit j = lane j), which is
 * what every branch uses: one test per vector, never per lane. */

#if HS_W == 1
/* ---- scalar: plain float, so this level is the core.h arithmetic bit for bit ---------- */
typedef float hs_vf;
typedef uint32_t hs_vi;
typedef unsigned hs_vm;

HS_INLINE hs_vf hs_vf_set1(float a) { return a; }
HS_INLINE hs_vi hs_vi_set1(uint32_t a) { return a; }
HS_INLINE hs_vf hs_vf_loadu(const float *p) { return *p; }
HS_INLINE hs_vf hs_vf_load(const float *p) { return *p; }
HS_INLINE hs_vi hs_vi_loadu(const uint32_t *p) { return *p; }
HS_INLINE hs_vi hs_vi_iota(uint32_t base) { return base; }
HS_INLINE hs_vf hs_vf_add(hs_vf a, hs_vf b) { return a + b; }
HS_INLINE hs_vf hs_vf_sub(hs_vf a, hs_vf b) { return a - b; }
HS_INLINE hs_vf hs_vf_mul(hs_vf a, hs_vf b) { return a * b; }
HS_INLINE hs_vf hs_vf_div(hs_vf a, hs_vf b) { return a / b; }
HS_INLINE hs_vf hs_vf_sqrt(hs_vf a) { return sqrtf(a); }
/* a*b + c, rounded twice (this level promises exactly core.h's results) */
HS_INLINE hs_vf hs_vf_fmadd(hs_vf a, hs_vf b, hs_vf c) { return a * b + c; }
/* min/max with the x86 operand rule (b when unordered): matches fminf/fmaxf for the
 * non-NaN first operands the kernels pass, and keeps every level alike */
HS_INLINE hs_vf hs_vf_min(hs_vf a, hs_vf b) { return a < b ? a : b; }
HS_INLINE hs_vf hs_vf_max(hs_vf a, hs_vf b) { return a > b ? a : b; }
HS_INLINE hs_vf hs_vf_neg(hs_vf a) { return -a; }
HS_INLINE hs_vf hs_vf_copysign(hs_vf mag, hs_vf sgn) { return copysignf(mag, sgn); }
HS_INLINE hs_vm hs_vm_le(hs_vf a, hs_vf b) { return a <= b; }
HS_INLINE hs_vm hs_vm_lt(hs_vf a, hs_vf b) { return a < b; }
HS_INLINE hs_vm hs_vm_ne(hs_vf a, hs_vf b) { return a != b; }
HS_INLINE hs_vm hs_vm_and(hs_vm a, hs_vm b) { return a & b; }
HS_INLINE hs_vm hs_vm_andnot(hs_vm a, hs_vm b) { return a & ~b & 1u; } /* a and not b */
HS_INLINE hs_vm hs_vm_test_i(hs_vi a, hs_vi b) { return (a & b) != 0; }
HS_INLINE hs_vm hs_vm_first(size_t n) { return n > 0; }
HS_INLINE unsigned hs_vm_bits(hs_vm m) { return m; }
HS_INLINE hs_vf hs_vf_select(hs_vm m, hs_vf a, hs_vf b) { return m ? a : b; }
HS_INLINE void hs_vf_storeu(float *p, hs_vf a) { *p = a; }
HS_INLINE void hs_vi_storeu(uint32_t *p, hs_vi a) { *p = a; }
HS_INLINE hs_vf hs_vf_load_part_n(const float *p, size_t n) { return n ? *p : 0.0f; }
HS_INLINE hs_vi hs_vi_load_part_n(const uint32_t *p, size_t n) { return n ? *p : 0u; }
#define HS_HAVE_PART_N 1

#elif HS_W == 4 || HS_W == 8
/* ---- 128 / 256 bit: SSE4.2 or NEON (through SIMDe), AVX2+FMA; masks are all-ones lanes -- */
#if HS_W == 4
#include <simde/x86/avx2.h> /* AVX2's 128-bit variable shifts, emulated on SSE4.2 and NEON */
#include <simde/x86/sse4.2.h>
typedef simde__m128 hs_vf;
typedef simde__m128i hs_vi;
typedef simde__m128 hs_vm;
#define HS_PS(op) simde_mm_##op##_ps
#define HS_SI(op) simde_mm_##op
#define HS_SIX(op) simde_mm_##op##_si128
#define HS_CAST_SI(v) simde_mm_castps_si128(v)
#define HS_CAST_PS(v) simde_mm_castsi128_ps(v)
HS_INLINE hs_vm hs_vm_le(hs_vf a, hs_vf b) { return simde_mm_cmple_ps(a, b); }
HS_INLINE hs_vm hs_vm_lt(hs_vf a, hs_vf b) { return simde_mm_cmplt_ps(a, b); }
HS_INLINE hs_vm hs_vm_ne(hs_vf a, hs_vf b) { return simde_mm_cmpneq_ps(a, b); }
HS_INLINE hs_vi hs_vi_iota(uint32_t base)
{
    return simde_mm_add_epi32(simde_mm_set1_epi32((int32_t)base), simde_mm_setr_epi32(0, 1, 2, 3));
}
HS_INLINE hs_vm hs_vm_test_i(hs_vi a, hs_vi b)
{
    hs_vi z = simde_mm_cmpeq_epi32(simde_mm_and_si128(a, b), simde_mm_setzero_si128());
    return simde_mm_castsi128_ps(simde_mm_xor_si128(z, simde_mm_set1_epi32(-1)));
}
HS_INLINE hs_vm hs_vm_first(size_t n)
{
    return simde_mm_castsi128_ps(
        simde_mm_cmpgt_epi32(simde_mm_set1_epi32((int32_t)n), simde_mm_setr_epi32(0, 1, 2, 3)));
}
/* SSE4.2 has no FMA: rounding twice keeps this level equal to the scalar core (and NEON
 * goes through the same path, so it does not fuse either) */
HS_INLINE hs_vf hs_vf_fmadd(hs_vf a, hs_vf b, hs_vf c)
{
    return simde_mm_add_ps(simde_mm_mul_ps(a, b), c);
}
#if defined(SIMDE_WASM_SIMD128_NATIVE)
/* SIMDe 0.7.4 emulates blendv and movemask lane by lane on WebAssembly; SIMD128 has a bit
 * select (the same result: every mask lane is all ones or all zeros) and a lane bit mask. */
HS_INLINE hs_vf hs_vf_select(hs_vm m, hs_vf a, hs_vf b) { return wasm_v128_bitselect(a, b, m); }
#define HS_HAVE_VM_BITS 1
HS_INLINE unsigned hs_vm_bits(hs_vm m) { return (unsigned)wasm_i32x4_bitmask(m); }
#else
HS_INLINE hs_vf hs_vf_select(hs_vm m, hs_vf a, hs_vf b) { return simde_mm_blendv_ps(b, a, m); }
#endif
#else
#include <simde/x86/avx2.h>
#include <simde/x86/fma.h>
typedef simde__m256 hs_vf;
typedef simde__m256i hs_vi;
typedef simde__m256 hs_vm;
#define HS_PS(op) simde_mm256_##op##_ps
#define HS_SI(op) simde_mm256_##op
#define HS_SIX(op) simde_mm256_##op##_si256
#define HS_CAST_SI(v) simde_mm256_castps_si256(v)
#define HS_CAST_PS(v) simde_mm256_castsi256_ps(v)
HS_INLINE hs_vm hs_vm_le(hs_vf a, hs_vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
HS_INLINE hs_vm hs_vm_lt(hs_vf a, hs_vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
HS_INLINE hs_vm hs_vm_ne(hs_vf a, hs_vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_NEQ_UQ); }
HS_INLINE hs_vi hs_vi_iota(uint32_t base)
{
    return simde_mm256_add_epi32(simde_mm256_set1_epi32((int32_t)base),
                                 simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
HS_INLINE hs_vm hs_vm_test_i(hs_vi a, hs_vi b)
{
    hs_vi z = simde_mm256_cmpeq_epi32(simde_mm256_and_si256(a, b), simde_mm256_setzero_si256());
    return simde_mm256_castsi256_ps(simde_mm256_xor_si256(z, simde_mm256_set1_epi32(-1)));
}
HS_INLINE hs_vm hs_vm_first(size_t n)
{
    return simde_mm256_castsi256_ps(simde_mm256_cmpgt_epi32(
        simde_mm256_set1_epi32((int32_t)n), simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
}
#if HS_DETERMINISTIC /* rounded twice, as core.h and every other level */
HS_INLINE hs_vf hs_vf_fmadd(hs_vf a, hs_vf b, hs_vf c)
{
    return simde_mm256_add_ps(simde_mm256_mul_ps(a, b), c);
}
#else
HS_INLINE hs_vf hs_vf_fmadd(hs_vf a, hs_vf b, hs_vf c) { return simde_mm256_fmadd_ps(a, b, c); }
#endif
/* vmaskmovps: masked-off lanes are not read, so a tail never touches memory past the run */
#define HS_HAVE_MASKED_LOAD 1
HS_INLINE hs_vf hs_vf_load_part(const float *p, hs_vm m)
{
    return simde_mm256_maskload_ps(p, simde_mm256_castps_si256(m));
}
HS_INLINE hs_vi hs_vi_load_part(const uint32_t *p, hs_vm m)
{
    return simde_mm256_maskload_epi32((const int32_t *)p, simde_mm256_castps_si256(m));
}
HS_INLINE hs_vf hs_vf_select(hs_vm m, hs_vf a, hs_vf b) { return simde_mm256_blendv_ps(b, a, m); }
#endif

HS_INLINE hs_vf hs_vf_set1(float a) { return HS_PS(set1)(a); }
HS_INLINE hs_vi hs_vi_set1(uint32_t a) { return HS_SI(set1_epi32)((int32_t)a); }
HS_INLINE hs_vf hs_vf_loadu(const float *p) { return HS_PS(loadu)(p); }
/* aligned: legacy-SSE code can then fold the load into the arithmetic instruction */
HS_INLINE hs_vf hs_vf_load(const float *p) { return HS_PS(load)(p); }
HS_INLINE hs_vi hs_vi_loadu(const uint32_t *p) { return HS_SIX(loadu)((const void *)p); }
HS_INLINE hs_vf hs_vf_add(hs_vf a, hs_vf b) { return HS_PS(add)(a, b); }
HS_INLINE hs_vf hs_vf_sub(hs_vf a, hs_vf b) { return HS_PS(sub)(a, b); }
HS_INLINE hs_vf hs_vf_mul(hs_vf a, hs_vf b) { return HS_PS(mul)(a, b); }
HS_INLINE hs_vf hs_vf_div(hs_vf a, hs_vf b) { return HS_PS(div)(a, b); }
HS_INLINE hs_vf hs_vf_sqrt(hs_vf a) { return HS_PS(sqrt)(a); }
HS_INLINE hs_vf hs_vf_min(hs_vf a, hs_vf b) { return HS_PS(min)(a, b); }
HS_INLINE hs_vf hs_vf_max(hs_vf a, hs_vf b) { return HS_PS(max)(a, b); }
HS_INLINE hs_vf hs_vf_neg(hs_vf a) { return HS_PS(xor)(a, HS_PS(set1)(-0.0f)); }
HS_INLINE hs_vf hs_vf_copysign(hs_vf mag, hs_vf sgn)
{
    hs_vf s = HS_PS(set1)(-0.0f);
    return HS_PS(or)(HS_PS(andnot)(s, mag), HS_PS(and)(s, sgn));
}
HS_INLINE hs_vm hs_vm_and(hs_vm a, hs_vm b) { return HS_PS(and)(a, b); }
HS_INLINE hs_vm hs_vm_andnot(hs_vm a, hs_vm b) { return HS_PS(andnot)(b, a); } /* a and not b */
#ifndef HS_HAVE_VM_BITS
HS_INLINE unsigned hs_vm_bits(hs_vm m) { return (unsigned)HS_PS(movemask)(m); }
#endif
HS_INLINE void hs_vf_storeu(float *p, hs_vf a) { HS_PS(storeu)(p, a); }
HS_INLINE void hs_vi_storeu(uint32_t *p, hs_vi a) { HS_SIX(storeu)((void *)p, a); }

#elif HS_W == 16
/* ---- 512 bit: AVX-512 F/BW/DQ/VL, real mask registers, masked loads, compress-store ---- */
#include <simde/x86/avx512.h>
typedef simde__m512 hs_vf;
typedef simde__m512i hs_vi;
typedef simde__mmask16 hs_vm;
#define HS_HAVE_MASKED_LOAD 1
#define HS_HAVE_COMPRESS 1

HS_INLINE hs_vf hs_vf_set1(float a) { return simde_mm512_set1_ps(a); }
HS_INLINE hs_vi hs_vi_set1(uint32_t a) { return simde_mm512_set1_epi32((int32_t)a); }
HS_INLINE hs_vf hs_vf_loadu(const float *p) { return simde_mm512_loadu_ps(p); }
HS_INLINE hs_vf hs_vf_load(const float *p) { return simde_mm512_load_ps(p); }
HS_INLINE hs_vi hs_vi_loadu(const uint32_t *p) { return simde_mm512_loadu_si512((const void *)p); }
#if defined(SIMDE_X86_AVX512F_NATIVE)
/* SIMDe 0.7.4 has no masked loads; natively they exist, and simde__m512 is __m512 */
HS_INLINE hs_vf hs_vf_load_part(const float *p, hs_vm m) { return _mm512_maskz_loadu_ps(m, p); }
HS_INLINE hs_vi hs_vi_load_part(const uint32_t *p, hs_vm m)
{
    return _mm512_maskz_loadu_epi32(m, (const void *)p);
}
#else
#undef HS_HAVE_MASKED_LOAD /* emulated (e.g. a build without -mavx512f): stack copy below */
#endif
HS_INLINE hs_vi hs_vi_iota(uint32_t base)
{
    return simde_mm512_add_epi32(
        simde_mm512_set1_epi32((int32_t)base),
        simde_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}
HS_INLINE hs_vf hs_vf_add(hs_vf a, hs_vf b) { return simde_mm512_add_ps(a, b); }
HS_INLINE hs_vf hs_vf_sub(hs_vf a, hs_vf b) { return simde_mm512_sub_ps(a, b); }
HS_INLINE hs_vf hs_vf_mul(hs_vf a, hs_vf b) { return simde_mm512_mul_ps(a, b); }
HS_INLINE hs_vf hs_vf_div(hs_vf a, hs_vf b) { return simde_mm512_div_ps(a, b); }
HS_INLINE hs_vf hs_vf_sqrt(hs_vf a) { return simde_mm512_sqrt_ps(a); }
#if HS_DETERMINISTIC /* rounded twice, as core.h and every other level */
HS_INLINE hs_vf hs_vf_fmadd(hs_vf a, hs_vf b, hs_vf c)
{
    return simde_mm512_add_ps(simde_mm512_mul_ps(a, b), c);
}
#else
HS_INLINE hs_vf hs_vf_fmadd(hs_vf a, hs_vf b, hs_vf c) { return simde_mm512_fmadd_ps(a, b, c); }
#endif
HS_INLINE hs_vf hs_vf_min(hs_vf a, hs_vf b) { return simde_mm512_min_ps(a, b); }
HS_INLINE hs_vf hs_vf_max(hs_vf a, hs_vf b) { return simde_mm512_max_ps(a, b); }
HS_INLINE hs_vf hs_vf_neg(hs_vf a)
{
    return simde_mm512_castsi512_ps(
        simde_mm512_xor_si512(simde_mm512_castps_si512(a), simde_mm512_set1_epi32(INT32_MIN)));
}
HS_INLINE hs_vf hs_vf_copysign(hs_vf mag, hs_vf sgn)
{
    simde__m512i s = simde_mm512_set1_epi32(INT32_MIN);
    return simde_mm512_castsi512_ps(
        simde_mm512_or_si512(simde_mm512_andnot_si512(s, simde_mm512_castps_si512(mag)),
                             simde_mm512_and_si512(s, simde_mm512_castps_si512(sgn))));
}
HS_INLINE hs_vm hs_vm_le(hs_vf a, hs_vf b)
{
    return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ);
}
HS_INLINE hs_vm hs_vm_lt(hs_vf a, hs_vf b)
{
    return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ);
}
HS_INLINE hs_vm hs_vm_ne(hs_vf a, hs_vf b)
{
    return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_NEQ_UQ);
}
HS_INLINE hs_vm hs_vm_and(hs_vm a, hs_vm b) { return (hs_vm)(a & b); }
HS_INLINE hs_vm hs_vm_andnot(hs_vm a, hs_vm b) { return (hs_vm)(a & ~b); }
HS_INLINE hs_vm hs_vm_test_i(hs_vi a, hs_vi b) { return simde_mm512_test_epi32_mask(a, b); }
HS_INLINE hs_vm hs_vm_first(size_t n) { return (hs_vm)((1u << n) - 1u); } /* n < 16 */
HS_INLINE unsigned hs_vm_bits(hs_vm m) { return (unsigned)m; }
HS_INLINE hs_vf hs_vf_select(hs_vm m, hs_vf a, hs_vf b)
{
    return simde_mm512_mask_blend_ps(m, b, a);
}
HS_INLINE void hs_vf_storeu(float *p, hs_vf a) { simde_mm512_storeu_ps(p, a); }
HS_INLINE void hs_vi_storeu(uint32_t *p, hs_vi a) { simde_mm512_storeu_si512((void *)p, a); }
/* The hit lanes of m, in lane order, at p[0 .. popcount(m)); p must have room for HS_W
 * (lanes past the hits are overwritten). Compress into a register, then one plain store:
 * the memory form vcompressps [mem]{k} is microcoded on some cores (AMD Zen 4). */
HS_INLINE void hs_vf_compress(float *p, hs_vm m, hs_vf a)
{
    simde_mm512_storeu_ps(p, simde_mm512_maskz_compress_ps(m, a));
}
HS_INLINE void hs_vi_compress(uint32_t *p, hs_vm m, hs_vi a)
{
    simde_mm512_storeu_si512((void *)p, simde_mm512_maskz_compress_epi32(m, a));
}
#else
#error "HS_W must be 1, 4, 8 or 16"
#endif

#if defined(HS_HAVE_PART_N)
#elif !defined(HS_HAVE_MASKED_LOAD)
#if HS_W == 4
/* No masked loads before AVX: build the 1-3 lane tail from scalar and 64-bit loads, so the
 * tail goes through the same vector formula as the body and never reads past the run.
 * (A stack copy and a vector reload would stall on store forwarding.)
 * Callers pass 1 <= n < HS_W. */
HS_INLINE hs_vf hs_vf_load_part_n(const float *p, size_t n)
{
    hs_vf z = simde_mm_setzero_ps();
    if (n == 1)
        return simde_mm_load_ss(p);
    hs_vf lo = simde_mm_loadl_pi(z, (const simde__m64 *)(const void *)p);
    return n == 2 ? lo : simde_mm_movelh_ps(lo, simde_mm_load_ss(p + 2));
}
HS_INLINE hs_vi hs_vi_load_part_n(const uint32_t *p, size_t n)
{
    return simde_mm_castps_si128(hs_vf_load_part_n((const float *)(const void *)p, n));
}
#else
/* Partial vectors (the tail of a run) go through a zero-filled stack block, so the tail is
 * computed by the same vector formula as the body (no second code path to disagree). */
HS_INLINE hs_vf hs_vf_load_part_n(const float *p, size_t n)
{
    float b[HS_W] = {0};
    memcpy(b, p, n * sizeof *p);
    return hs_vf_loadu(b);
}
HS_INLINE hs_vi hs_vi_load_part_n(const uint32_t *p, size_t n)
{
    uint32_t b[HS_W] = {0};
    memcpy(b, p, n * sizeof *p);
    return hs_vi_loadu(b);
}
#endif
#else
HS_INLINE hs_vf hs_vf_load_part_n(const float *p, size_t n)
{
    return hs_vf_load_part(p, hs_vm_first(n));
}
HS_INLINE hs_vi hs_vi_load_part_n(const uint32_t *p, size_t n)
{
    return hs_vi_load_part(p, hs_vm_first(n));
}
#endif

/* For the block walk's set-up, computed W queries at a time. hs_vf_trunc is exact for
 * |a| < 2^31 (callers clamp first). */
#if HS_W == 1
HS_INLINE hs_vf hs_vf_abs(hs_vf a) { return fabsf(a); }
HS_INLINE hs_vf hs_vf_trunc(hs_vf a) { return (float)(int32_t)a; }
HS_INLINE hs_vm hs_vm_or(hs_vm a, hs_vm b) { return a | b; }
#elif HS_W == 4 || HS_W == 8
HS_INLINE hs_vf hs_vf_abs(hs_vf a) { return HS_PS(andnot)(HS_PS(set1)(-0.0f), a); }
HS_INLINE hs_vf hs_vf_trunc(hs_vf a) { return HS_SI(cvtepi32_ps)(HS_SI(cvttps_epi32)(a)); }
HS_INLINE hs_vm hs_vm_or(hs_vm a, hs_vm b) { return HS_PS(or)(a, b); }
#else
HS_INLINE hs_vf hs_vf_abs(hs_vf a)
{
    return simde_mm512_castsi512_ps(
        simde_mm512_and_si512(simde_mm512_castps_si512(a), simde_mm512_set1_epi32(INT32_MAX)));
}
#if defined(SIMDE_X86_AVX512F_NATIVE)
HS_INLINE hs_vf hs_vf_trunc(hs_vf a) { return _mm512_cvtepi32_ps(_mm512_cvttps_epi32(a)); }
#else /* SIMDe 0.7.4 has no 512-bit conversions */
HS_INLINE hs_vf hs_vf_trunc(hs_vf a)
{
    float b[HS_W];
    hs_vf_storeu(b, a);
    for (int k = 0; k < HS_W; k++)
        b[k] = (float)(int32_t)b[k];
    return hs_vf_loadu(b);
}
#endif
HS_INLINE hs_vm hs_vm_or(hs_vm a, hs_vm b) { return (hs_vm)(a | b); }
#endif

/* The mask whose lane j is bit j of b (hs_vm_bits' inverse): closest-hit keeps its hit masks
 * as bits between its two passes. */
#if HS_W == 1
HS_INLINE hs_vm hs_vm_from_bits(unsigned b) { return b & 1u; }
#elif HS_W == 4
HS_INLINE hs_vm hs_vm_from_bits(unsigned b)
{
    const hs_vi bit = simde_mm_setr_epi32(1, 2, 4, 8);
    return HS_CAST_PS(
        simde_mm_cmpeq_epi32(simde_mm_and_si128(simde_mm_set1_epi32((int32_t)b), bit), bit));
}
#elif HS_W == 8
HS_INLINE hs_vm hs_vm_from_bits(unsigned b)
{
    const hs_vi bit = simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return HS_CAST_PS(simde_mm256_cmpeq_epi32(
        simde_mm256_and_si256(simde_mm256_set1_epi32((int32_t)b), bit), bit));
}
#else
HS_INLINE hs_vm hs_vm_from_bits(unsigned b) { return (hs_vm)b; }
#endif

#include "simd_compress.h" /* hs_vf_compress, hs_vi_compress */

#include "simd_lanes.h" /* integer lanes, gathers, compressed pairs, first-lane stores */

/* A float vector held as doubles (two halves of HS_W / 2 lanes; one double at W = 1), for the
 * few terms that cancel in float (pair_math.inl's hs_v_csq). Conversions both ways and + - * on
 * doubles are correctly rounded IEEE operations on every level, so every width computes the
 * same bits as core.h's scalar double code. */
#if HS_W == 1
typedef double hs_vd2;
HS_INLINE hs_vd2 hs_vd2_of(hs_vf a) { return (double)a; }
HS_INLINE hs_vf hs_vd2_to_vf(hs_vd2 a) { return (float)a; }
HS_INLINE hs_vd2 hs_vd2_add(hs_vd2 a, hs_vd2 b) { return a + b; }
HS_INLINE hs_vd2 hs_vd2_sub(hs_vd2 a, hs_vd2 b) { return a - b; }
HS_INLINE hs_vd2 hs_vd2_mul(hs_vd2 a, hs_vd2 b) { return a * b; }
#else
#if HS_W == 4
typedef simde__m128d hs_vdh;
#define HS_PD(op) simde_mm_##op##_pd
HS_INLINE hs_vdh hs_vdh_lo(hs_vf a) { return simde_mm_cvtps_pd(a); }
HS_INLINE hs_vdh hs_vdh_hi(hs_vf a) { return simde_mm_cvtps_pd(simde_mm_movehl_ps(a, a)); }
#if defined(SIMDE_WASM_SIMD128_NATIVE)
/* LLVM 14 may fold the two halves' conversions into one of four doubles, which the
 * WebAssembly backend then converts lane by lane; the empty asm keeps them two instructions. */
HS_INLINE hs_vf hs_vdh_join(hs_vdh lo, hs_vdh hi)
{
    v128_t h = wasm_f32x4_demote_f64x2_zero(hi);
    __asm__("" : "+r"(h));
    return wasm_i64x2_shuffle(wasm_f32x4_demote_f64x2_zero(lo), h, 0, 2);
}
#else
HS_INLINE hs_vf hs_vdh_join(hs_vdh lo, hs_vdh hi)
{
    return simde_mm_movelh_ps(simde_mm_cvtpd_ps(lo), simde_mm_cvtpd_ps(hi));
}
#endif
#elif HS_W == 8
typedef simde__m256d hs_vdh;
#define HS_PD(op) simde_mm256_##op##_pd
HS_INLINE hs_vdh hs_vdh_lo(hs_vf a) { return simde_mm256_cvtps_pd(simde_mm256_castps256_ps128(a)); }
HS_INLINE hs_vdh hs_vdh_hi(hs_vf a)
{
    return simde_mm256_cvtps_pd(simde_mm256_extractf128_ps(a, 1));
}
HS_INLINE hs_vf hs_vdh_join(hs_vdh lo, hs_vdh hi)
{
    return simde_mm256_set_m128(simde_mm256_cvtpd_ps(hi), simde_mm256_cvtpd_ps(lo));
}
#else /* 16 lanes: native AVX-512F, which simd_lanes.h requires of this level */
typedef __m512d hs_vdh;
#define HS_PD(op) _mm512_##op##_pd
HS_INLINE hs_vdh hs_vdh_lo(hs_vf a) { return _mm512_cvtps_pd(_mm512_castps512_ps256(a)); }
HS_INLINE hs_vdh hs_vdh_hi(hs_vf a)
{
    return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1)));
}
HS_INLINE hs_vf hs_vdh_join(hs_vdh lo, hs_vdh hi)
{
    return _mm512_castpd_ps(
        _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo))),
                           _mm256_castps_pd(_mm512_cvtpd_ps(hi)), 1));
}
HS_INLINE hs_vdh hs_vdh_div(hs_vdh a, hs_vdh b) { return _mm512_div_pd(a, b); }
HS_INLINE hs_vdh hs_vdh_min(hs_vdh a, hs_vdh b) { return _mm512_min_pd(a, b); }
HS_INLINE unsigned hs_vdh_gt(hs_vdh a, hs_vdh b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
HS_INLINE unsigned hs_vdh_ne(hs_vdh a, hs_vdh b) { return _mm512_cmp_pd_mask(a, b, _CMP_NEQ_UQ); }
#endif
HS_INLINE hs_vdh hs_vdh_add(hs_vdh a, hs_vdh b) { return HS_PD(add)(a, b); }
HS_INLINE hs_vdh hs_vdh_sub(hs_vdh a, hs_vdh b) { return HS_PD(sub)(a, b); }
HS_INLINE hs_vdh hs_vdh_mul(hs_vdh a, hs_vdh b) { return HS_PD(mul)(a, b); }
typedef struct hs_vd2 {
    hs_vdh lo, hi;
} hs_vd2;
HS_INLINE hs_vd2 hs_vd2_of(hs_vf a)
{
    hs_vd2 d = {hs_vdh_lo(a), hs_vdh_hi(a)};
    return d;
}
HS_INLINE hs_vf hs_vd2_to_vf(hs_vd2 a) { return hs_vdh_join(a.lo, a.hi); }
/* An operation of the halves, lo and hi apart. */
#define HS_VD2_OP(name)                                                                            \
    HS_INLINE hs_vd2 hs_vd2_##name(hs_vd2 a, hs_vd2 b)                                             \
    {                                                                                              \
        hs_vd2 d = {hs_vdh_##name(a.lo, b.lo), hs_vdh_##name(a.hi, b.hi)};                         \
        return d;                                                                                  \
    }
HS_VD2_OP(add)
HS_VD2_OP(sub)
HS_VD2_OP(mul)
#if HS_W == 16
/* The walls' packet walk's exact crossings (wall_walk.inl): / and min (a < b ? a : b) are
 * correctly rounded or exact, as in scalar double code; the comparisons give lane masks. */
HS_VD2_OP(div)
HS_VD2_OP(min)
HS_INLINE hs_vm hs_vd2_gt(hs_vd2 a, hs_vd2 b)
{
    return hs_vm_from_bits(hs_vdh_gt(a.lo, b.lo) | hs_vdh_gt(a.hi, b.hi) << 8);
}
HS_INLINE hs_vm hs_vd2_ne(hs_vd2 a, hs_vd2 b)
{
    return hs_vm_from_bits(hs_vdh_ne(a.lo, b.lo) | hs_vdh_ne(a.hi, b.hi) << 8);
}
#endif
#undef HS_VD2_OP
#endif

#endif
