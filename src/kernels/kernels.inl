/* SPDX-License-Identifier: MIT */
/* Internal: one ISA level's pair kernels, instantiated once per translation unit
 * (kernels_<isa>.c sets HS_W, HS_KNAME and HS_KISA, then includes this file). Written once
 * over the vector layer simd.h.
 *
 * Names this file makes, for HS_KNAME = isa (scalar, sse4, avx2, avx512, neon):
 *   hs_kernels_<isa>   the pair kernel table (kernels.h), of
 *     hs_k_<isa>_any, _count, _closest, _all   (pair_kernels.inl)
 * Only the table is external; dispatch.c picks it by level. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "level.h"
#include "simd.h"

#include "core.h"
#include "kernels.h"

#include "pair_math.inl"
#include "pair_kernels.inl"

const hs_kernel_set HS_CAT(hs_kernels_, HS_KNAME) = {
    HS_KISA, HS_W, HS_FN(any), HS_FN(count), HS_FN(closest), HS_FN(all),
};
