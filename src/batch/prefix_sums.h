/* SPDX-License-Identifier: MIT */
/* Internal: a parallel exclusive prefix sum whose result does not depend on the team. */
#ifndef HITSCAN_BATCH_PREFIX_SUMS_H
#define HITSCAN_BATCH_PREFIX_SUMS_H

#include <stddef.h>

#include "batch/parallel.h"

/* Counts in offsets[1..n] become starts in offsets[0..n] (offsets[0] = 0), on the team par;
 * part holds hs_par_parts(par) entries. */
void hs_prefix_sums(size_t *offsets, size_t n, const hs_par *par, size_t *part);

#endif
