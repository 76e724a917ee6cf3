/* SPDX-License-Identifier: MIT */
/* Internal: the pieces of hs_grid_pairs (grid/pairs.c finds the pairs block by block,
 * grid/pairs_assemble.c puts them in (i, j) order). */
#ifndef HITSCAN_GRID_PAIRS_H
#define HITSCAN_GRID_PAIRS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "batch/parallel.h"
#include "grid/layout.h"
#include "grid/swept.h"

/* A pair's contact (hitscan/grid.h's hs_pairs: nx, ny, distance, gap). */
typedef struct hs_pair_contact {
    float nx, ny, distance, gap;
} hs_pair_contact;

/* What a pair list carries for each pair when asked to: a swept pair's answer, or an overlap
 * pair's contact. */
typedef union hs_pair_rec {
    hs_swept_hit swept;
    hs_pair_contact contact;
} hs_pair_rec;

/* A pair found across a periodic box's edge: i and the image of j shifted by (sx, sy)
 * periods. */
typedef struct hs_pair_shift {
    uint32_t i, j;
    int8_t sx, sy;
} hs_pair_shift;

/* A list of pairs (i[k], j[k]), grown by doubling; oom is set when growing failed. With
 * carry set, each pair also has a record rec[k]. The pairs found across a periodic box's
 * edges are in it as any other, and their shifts in sh[0 .. sh_len) too. */
typedef struct hs_pair_list {
    uint32_t *i, *j;
    hs_pair_rec *rec;
    size_t len, cap;
    hs_pair_shift *sh;
    size_t sh_len, sh_cap;
    int oom, carry;
} hs_pair_list;

/* The contact of a circle of radius ra with one of radius rb whose centre (or image) lies at
 * (ex, ey) from it, in double: the normal from the first towards the second ((1, 0) where
 * they coincide), the distance and the gap. */
static inline hs_pair_contact hs_pair_contact_of(double ex, double ey, float ra, float rb)
{
    const double d = sqrt(ex * ex + ey * ey);
    hs_pair_contact c;
    c.nx = d > 0.0 ? (float)(ex / d) : 1.0f;
    c.ny = d > 0.0 ? (float)(ey / d) : 0.0f;
    c.distance = (float)d;
    c.gap = (float)(d - ((double)ra + (double)rb));
    return c;
}

/* A search for pairs on a grid (pairs.c): each circle of g tests the disc (tx, ty, tr)[pos] of
 * its storage position against those of the circles within reach.
 * - Overlap pairs (hs_grid_pairs_within): the circles themselves, grown by skin; each pair
 *   goes to the list as (i, j), i < j.
 * - Swept pairs (hs_grid_swept_pairs): each circle's swept disc, with skin 0; each candidate
 *   the discs give is tested exactly (hs_swept_test, on g's circles and the displacements
 *   dx, dy at storage positions) and a touching pair goes to the list as (i, j), i < j, with
 *   its answer. A pair of fast circles (fast[pos] = 1) is left out (the caller finds those);
 *   of a fast and a slow one, the fast one finds it, so no circle searches farther than its
 *   slow partners' displacements; of two slow ones, the one earlier in storage.
 * ext[l][c]: how far beyond the tested disc of a circle the circle of a partner on level l
 * may lie; c = 1 for a circle searching an earlier level (cross pairs), 0 within a level.
 * In a periodic box each circle also searches the images of its partners across the box's
 * edges (pairs_images.c), under the same rules of who keeps a pair. */
typedef struct hs_pair_search {
    const hs_grid *g;
    const float *tx, *ty, *tr;
    double skin;
    double ext[HS_GRID_LEVELS][2];
    const uint8_t *fast;  /* NULL: no circle is fast */
    const float *dx, *dy; /* swept: the displacements; NULL for overlap pairs */
    int contacts;         /* overlap pairs: each carries its contact (hs_pair_contact) */
} hs_pair_search;

/* How far the circle at storage position pos searches level L (index l) around its tested
 * disc (cross: a circle searching an earlier level). Overlap pairs are decided in double on
 * the float circles, exactly but for a few double roundings, and the box's corners go through
 * the same cell function as the centres: their pad covers double rounding alone (a float pad
 * would add units of reach far from the origin). Swept discs are float roundings of the
 * motion, whose error grows with the coordinates: they keep the grid's float pad. */
static inline double hs_pair_reach(const hs_pair_search *s, const hs_glevel *L, int l, size_t pos,
                                   int cross)
{
    const double x = s->tx[pos], y = s->ty[pos];
    const double reach = (double)s->tr[pos] + s->ext[l][cross];
    const double mag = L->mag + fabs(x) + fabs(y);
    return reach + (s->dx ? hs_gpad(mag, reach) : (mag + reach) * 0x1p-40 + HS_GPAD_ABS);
}

/* The shifts of the partners' images (in periods; pairs_images.c) that a search box
 * [x0, x1] x [y0, y1] may meet among the centres of level L: x from sh[0] to sh[1], y from
 * sh[2] to sh[3], each -1 or 0, then 0 or 1 (all 0: none, or g is not periodic). The image
 * c + s L of a partner lies in the box when c lies in it moved by -s L. */
static inline void hs_pair_image_shifts(const hs_grid *g, const hs_glevel *L, double x0, double y0,
                                        double x1, double y1, int sh[4])
{
    const double Lx = g->period[0], Ly = g->period[1];
    sh[0] = -(Lx > 0.0 && x0 + Lx <= L->bx1);
    sh[1] = Lx > 0.0 && x1 - Lx >= L->ox;
    sh[2] = -(Ly > 0.0 && y0 + Ly <= L->by1);
    sh[3] = Ly > 0.0 && y1 - Ly >= L->oy;
}

/* The partners of the circle at storage position pos, on level `level`, across the box's
 * edges that it keeps, into B (pairs_images.c): it searches its own level and the levels
 * before it. Returns 1 when memory ran out. */
int hs_pair_images(const hs_pair_search *s, size_t pos, int level, hs_pair_list *B);

/* Room for `need` more shifts in B's sh; 0 (and oom set) when memory ran out. */
int hs_pair_shift_reserve(hs_pair_list *B, size_t need);

/* The pairs of a search in lists (*lists, *nl of them, freed with hs_pair_lists_free), spread
 * over them in an order that depends on the team; swept lists carry the answers.
 * Returns 0, or 1 when memory ran out (then *lists is NULL). */
int hs_pair_search_run(const hs_pair_search *s, const hs_par *par, hs_pair_list **lists,
                       size_t *nl);
void hs_pair_lists_free(hs_pair_list *lists, size_t nl);

/* An output array of n indices: from megabytes up on 2 MB pages where the system allows it.
 * Freed with free(). */
uint32_t *hs_pairs_alloc_out(size_t n);

/* Room for `need` more pairs; 0 (and oom set) when memory ran out. */
int hs_pair_list_reserve(hs_pair_list *B, size_t need);
void hs_pair_list_free(hs_pair_list *B);

/* The pairs of lists[0 .. nl) in (i, j) order into out_i, out_j (room for every pair; i < n),
 * and when out_w is not NULL, where each came from into out_w: its place in the lists taken
 * as one sequence (list l's entry k: the lengths of the lists before l, plus k). The pairs do
 * not depend on how they are spread over the lists, as long as none comes twice. Returns 0,
 * or 1 when scratch memory ran out. */
int hs_pairs_assemble(const hs_pair_list *lists, size_t nl, size_t n, const hs_par *par,
                      uint32_t *out_i, uint32_t *out_j, uint32_t *out_w);

/* hs_pairs_assemble of lists that carry records (total pairs in all): and each pair's record,
 * out pair m's at (*ans)[(*word)[m]] (both freed by the caller with free()). Returns 0, or 1
 * when memory ran out (then *ans and *word are NULL). */
int hs_pairs_assemble_carried(const hs_pair_list *lists, size_t nl, size_t total, size_t n,
                              const hs_par *par, uint32_t *out_i, uint32_t *out_j,
                              hs_pair_rec **ans, uint32_t **word);

/* The shifts of the pairs in (i, j) order out_i, out_j (total of them) into new arrays *sx,
 * *sy (freed with free()): those of the lists' sh entries, 0 for every other pair. Returns 0,
 * or 1 when memory ran out. */
int hs_pairs_shifts(const hs_pair_list *lists, size_t nl, const uint32_t *out_i,
                    const uint32_t *out_j, size_t total, const hs_par *par, int8_t **sx,
                    int8_t **sy);

#endif
