/* SPDX-License-Identifier: MIT */
/* Internal: the names of one ISA level's code. A per-level translation unit (kernels_<isa>.c,
 * walk/walk_<isa>.c) defines HS_W (the vector width), HS_KNAME (the level's name) and HS_KISA
 * (its hs_isa), then includes the .inl files that make the level's functions; HS_FN gives
 * them the level's prefix. */
#ifndef HITSCAN_KERNELS_LEVEL_H
#define HITSCAN_KERNELS_LEVEL_H

#ifndef HS_KNAME
#error "define HS_W, HS_KNAME and HS_KISA before including kernels/level.h"
#endif

#define HS_CAT2(a, b) a##b
#define HS_CAT(a, b) HS_CAT2(a, b)
/* This level's name for a function: HS_FN(any) is hs_k_<isa>_any. */
#define HS_FN(name) HS_CAT(HS_CAT(hs_k_, HS_KNAME), HS_CAT(_, name))

/* The rarer paths of the walk stay out of line: one copy per ISA rather than one per mode and
 * semantics. Not "cold": the per-query walk is the whole path of rays and lines. */
#if defined(__GNUC__) || defined(__clang__)
#define HS_OUTLINE __attribute__((noinline))
#else
#define HS_OUTLINE
#endif

#endif
