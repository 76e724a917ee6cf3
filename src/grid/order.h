/* SPDX-License-Identifier: MIT */
/* Internal: the locality order of a large grid batch: queries sorted by the coarse cell they
 * start in, so that consecutive queries read the same cells. */
#ifndef HITSCAN_GRID_ORDER_H
#define HITSCAN_GRID_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "batch/parallel.h"
#include "batch/workspace.h"
#include "grid/layout.h"
#include "hitscan/batch.h"

/* Position k of the order holds a caller's query whose a and d are rec[4k .. 4k+3] (ax, ay,
 * dx, dy) so that they are read in order. inv, when not NULL (answers staged): closest / any /
 * count write position k's answer over rec[4k + 2 .. 4k + 3] (closest: id, t; any, count: the
 * hit flag or count as a 32-bit word at rec[4k + 2]), which only the block answering position
 * k reads, before it answers; the caller's query i is then position inv[i]. Else answers go to
 * the caller's arrays at perm[k]. perm (position k is the caller's query perm[k]) is made
 * when answers are not staged or the batch has per-query tmin, tmax, q or mask arrays (read
 * through it); else it is NULL, and the walk knows positions only. geo, when not NULL:
 * closest's hit point and normal of position k staged at geo[4k .. 4k+3] (px, py, nx, ny). */
typedef struct hs_qorder {
    const uint32_t *perm;
    float *rec;
    const uint32_t *inv;
    float *geo;
} hs_qorder;

/* What a batch stages in the order: nothing (answers go to perm[k]), its answers, or closest's
 * answers with their hit points and normals; or-ed with HS_STAGE_PERM, perm is made whatever
 * else (a walk that reads per-query data by the caller's index). */
enum { HS_STAGE_NONE, HS_STAGE_ANSWERS, HS_STAGE_GEOMETRY, HS_STAGE_PERM = 4 };

/* The locality order of qs against g in ws (o->rec NULL: the batch is answered in its own
 * order), made on the team par; staging answers, o->inv too, and with geometry o->geo.
 * 0, or -1 if it could not be allocated. */
int hs_qorder_make(const hs_grid *g, const hs_queries *qs, const hs_par *par, int stage,
                   hs_workspace *ws, hs_qorder *o);

/* Staged answers to the caller's arrays (exactly one of co / hit / count non-NULL; closest
 * writes co's idx and t, and its points and normals that are not NULL when they were staged):
 * query i's is position inv[i]'s. */
void hs_qorder_unstage(const hs_qorder *o, size_t m, const hs_par *par, const hs_closest_out *co,
                       uint8_t *hit, uint32_t *count);

#endif
