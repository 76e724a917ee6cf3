/* SPDX-License-Identifier: MIT */
/* Uniform-grid broadphase: ordered traversal for batch queries, particle pairs, overlap queries. */
#ifndef HITSCAN_GRID_H
#define HITSCAN_GRID_H

#include "hitscan/batch.h"
#include "hitscan/walls.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The grid owns a reordered SoA copy of the circles (cell-contiguous, so kernels use plain
 * vector loads) and a map back to the caller's indices; every index it reports is the caller's.
 * It does not keep a pointer to the hs_circles it was built from.
 *
 * Scheme: every circle is inserted once, into the cell holding its centre, and a query is
 * inflated by the largest radius of its level (so nothing is ever reported twice). The cells
 * follow where the circles are, not their bounding box: a small k-d tree planned from a
 * sample of the centres cuts the world where the density changes (two clusters far apart, a
 * dense crowd in a wide level), and each of its up to 16 leaves is a level of its own bounds
 * and cell size; circles outside every leaf (one parked far away) form one more level, sized
 * by their own count. A uniform scene is one level. The few circles much larger than the rest
 * (r > max(4 x the 99th-percentile radius, half the density cell)) go to a last, coarse level
 * with its own cell size and inflation, so a handful of asteroids does not inflate every
 * query among the particles. The automatic cell side is max(sqrt(4 * f * area / N), 2 *
 * largest radius) per level (about 4 circles per cell over the share f >= 1/8 of the level's
 * bounds its circles fill, estimated from the sample), grown if the level would exceed
 * N / (2 f) + 64 cells. Circles equal in x, y, r and mask to one of a smaller index (many
 * particles spawned at one point), when a cell holds at least 128 circles and there are at
 * least 64 such, are set apart in a level of their own (the build runs twice): closest and any
 * test one of each group, which answers for all (equal t: the smallest index), unless the
 * batch ignores circles or the circles move; every other call sees them as any circle.
 *
 * Memory (hs_grid_bytes): 16 bytes per circle (x, y, r, id), + 4 with a mask, + 4 per cell
 * (with the automatic size about N / 4 over a level whose circles fill its box; at most
 * N / (2 f) + 64 per level of N circles filling a share f >= 1/8 of its box), + the build's
 * scratch, kept for rebuilds: 4 bytes per circle up to 32768 circles, else per-thread band
 * buffers (at most 4 bytes per circle) and small tables, + 4 per circle only if one band
 * outgrew its buffer (thousands of circles in a few cells) or there are several leaves (each
 * circle's cell, kept between two passes of the sort), + 4 per circle when a level's
 * cells are at least 8 of its largest radii wide (clusters in a wide world: crowded cells are
 * cut into sub-cells for the pair search): about 18 bytes per circle for large sets with the
 * automatic cell size, more below a thousand circles (the 64 spare cells weigh more); + 1 per
 * circle when there are several leaves or a cell holds 128 circles or more (the search for
 * equal circles).
 *
 * The circle arrays are padded by 16 slots past the last circle (whole-vector loads).
 *
 * Batch calls answer short queries in blocks of 64 (planned together, 16 at a time with
 * AVX-512; tested with no branch on the data; closest and any stop walking a query's rows
 * once its answer is settled) and long ones (whose box, clipped to the grid, spans more than
 * 1024 cells: lines and rays across it, long segments) one at a time with early exit; every
 * path gives the same answers. Large batches (>= 4096 queries on >= 32768 circles) are
 * answered in a locality order (queries sorted by the Z-order of the coarse cell they start
 * in: 20 to 40 bytes per query, from the call's workspace, see batch.h). Closest (with its
 * hit points and normals when asked for), any and count keep their answers in that order and
 * copy them to the caller's index at the end of the call; all-hits writes each query's row
 * at the caller's index. The caller's order is kept and results do not depend on the thread
 * count. The walk's working state (about 60 KB per thread) comes from the workspace, not the
 * stack.
 *
 * Stack: every call of this header (build, rebuilds, queries, pairs, swept pairs, overlaps)
 * keeps at most 32 KB on the calling thread's stack (its samples and tables come from the
 * heap), so each runs on a thread with a 64 KB stack (a job system's fiber, musl's default);
 * the helpers of the library's own OpenMP team run on OpenMP's stacks (OMP_STACKSIZE). */
typedef struct hs_grid hs_grid;

/* Periodic boxes (hs_grid_opts.periodic): the world repeats with the box's periods, x1 - x0
 * and y1 - y0 (computed in double), along the axes named: a circle near the right edge
 * touches one near the left. On a periodic axis every centre is wrapped into [x0, x1) when the
 * grid is built: a coordinate outside is replaced by the float nearest to
 * x - k (x1 - x0), k = floor((x - x0) / (x1 - x0)), all in double (one that rounds to x1
 * becomes x0); the grid holds, and every call sees, the wrapped centres. On an axis that is
 * not periodic every centre must lie in the closed [y0, y1] (HS_E_BOX, with the circle's
 * index, otherwise). The build refuses with HS_E_BOX a circle whose diameter is not less
 * than half a period, and a cell_size above half a period (a box of fewer than two cells).
 * Pairs (hs_grid_pairs, hs_grid_pairs_within, hs_grid_pairs_ex, hs_grid_swept_pairs) then
 * use the minimum image: circle j is seen at its image (xj + sx (x1 - x0), yj + sy (y1 - y0))
 * nearest to its partner i, sx, sy in {-1, 0, 1} (0 when |xj - xi| is at most half the
 * period), the separation (xj - xi) + sx (x1 - x0) computed in double, and a pair is reported
 * once, with the shift of j's image when asked for. For a pair search to have one image per
 * pair, a circle's diameter plus the skin (swept pairs: plus its displacement's length) must
 * be below half each period: HS_E_BOX otherwise. Overlap queries (hs_grid_overlap_circle,
 * hs_grid_overlap_discs) take the disc's centre modulo the periods (in double, into the box)
 * and test each circle at its image nearest to it, so a circle is reported once whatever the
 * disc's size.
 * Segment queries (hs_grid_closest, _any, _count_hits, _all, _all_into) wrap around the box:
 * a query sees the box tiled over the plane, and hits the image c + (sx Lx, sy Ly) of a
 * circle when the query moved by -(sx Lx, sy Ly) (its origin rounded to float) hits c. So a
 * ray leaving on the right enters on the left, up to its length. t stays the query's own
 * parameter, and closest's hit point is given in the query's frame (the image's point).
 * closest: the least (t, index) over the images; any: any image; count and all: every image
 * hit, so a circle that a long query meets again after wrapping around counts again (all:
 * a row per image hit, ordered by t then index). A query that meets more than
 * HS_PERIODIC_MAX_IMAGES images of the box (it wraps around too often, or is a ray or line
 * with an infinite interval across a periodic axis) is invalid: answered as a miss and
 * counted in the stats (HS_E_INVALID_QUERY). Cost: each query is cut into a piece per image
 * of the box it comes near, answered as one batch (about 40 bytes per piece); hs_grid_all's
 * arrays are then always the caller's, whatever the workspace (hs_hits_free frees them). */
#define HS_PERIODIC_MAX_IMAGES 64
#define HS_PERIODIC_X 1u
#define HS_PERIODIC_Y 2u
#define HS_PERIODIC_XY 3u

typedef struct hs_grid_opts {
    float cell_size;   /* 0: chosen from the radius distribution; else the cell side of the
                        * levels of small circles but the outliers', as given: a build or
                        * rebuild refuses it (HS_E_RANGE, the grid unchanged) when a level
                        * would get more than 16 cells per circle + 65536 */
    int threads;       /* 0: the default team; the grid is identical for every thread count */
    unsigned periodic; /* 0 (none, box unused), or HS_PERIODIC_X / _Y / _XY */
    hs_aabb box;       /* with periodic: [min.x, max.x) x [min.y, max.y), finite, within
                        * HS_MAX_COORD, min < max on a periodic axis and min <= max on the
                        * other (HS_E_RANGE otherwise) */
    /* Optional: the caller's task system (hitscan/batch.h) for the build and every rebuild;
     * the grid keeps the pointer, which must stay valid while it may rebuild. */
    const hs_task_system *tasks;
    /* Optional: walls beside the circles (hitscan/walls.h), copied at the build (the set may
     * be destroyed after it); rebuilds of the circles keep them, hs_grid_set_walls replaces
     * them. Not with a periodic box, nor with a wall too long or thick for the grid's range
     * (half its length plus its thickness near HS_MAX_COORD): HS_E_RANGE. */
    const hs_walls *walls;
} hs_grid_opts;

HS_API hs_status hs_grid_build(const hs_circles *cs, const hs_grid_opts *opts, hs_grid **out);
/* Rebuild in place from a set with new positions / radii (same or different count), reusing
 * the grid's memory where it fits: the per-frame path for moving particles. The grid keeps
 * its own copy of the circles, so it sees new positions only through a rebuild: after moving
 * a borrowed set's arrays (hs_circles_borrow), rebuild from that set; a set made by
 * hs_circles_create is a copy and never changes. The circles are validated again, as
 * hs_circles_create does: on a bad one (NaN, inf, |value| > HS_MAX_COORD, r < 0) it returns
 * HS_E_NONFINITE, HS_E_NEG_RADIUS or HS_E_RANGE and the grid is unchanged (it still answers
 * for the circles of its last successful build); so does a circle its periodic box refuses
 * (HS_E_BOX; the box and axes are kept from the build). On HS_E_NOMEM or HS_E_TOO_MANY the grid is
 * left valid and empty: every query misses until a rebuild succeeds. */
HS_API hs_status hs_grid_rebuild(hs_grid *g, const hs_circles *cs);
/* The same from the caller's arrays, read during the call only (no hs_circles needed; any
 * alignment; mask may be NULL): the one call a frame loop needs. On a bad circle its index
 * goes to *bad_index (if not NULL; (size_t)-1 otherwise). */
HS_API hs_status hs_grid_rebuild_from(hs_grid *g, const float *x, const float *y, const float *r,
                                      const uint32_t *mask, size_t n, size_t *bad_index);
HS_API void hs_grid_destroy(hs_grid *g);
/* The task system the grid's rebuilds run on from now on (NULL: the library's own helper
 * threads); replaces hs_grid_opts.tasks of its build. */
HS_API void hs_grid_set_tasks(hs_grid *g, const hs_task_system *tasks);
/* The grid's walls replaced by a copy of ws (NULL or an empty set: no walls). On an error
 * (HS_E_NOMEM, HS_E_RANGE: a periodic grid, or a wall too long for the grid's range) the grid
 * keeps its walls. */
HS_API hs_status hs_grid_set_walls(hs_grid *g, const hs_walls *ws);
/* The number of walls the grid holds. */
HS_API size_t hs_grid_wall_count(const hs_grid *g);

HS_API size_t hs_grid_circle_count(const hs_grid *g); /* circles held */
/* Deprecated (removed in 0.4): the old name of hs_grid_circle_count. */
HS_API size_t hs_grid_count(const hs_grid *g);
HS_API size_t hs_grid_bytes(const hs_grid *g); /* heap bytes held, for bytes-per-circle */
HS_API float hs_grid_cell_size(const hs_grid *g);
/* The grid's periodic axes (hs_grid_opts.periodic; 0 for none) and, when box is not NULL and
 * the grid is periodic, its box. A rebuild keeps both. */
HS_API unsigned hs_grid_periodic(const hs_grid *g, hs_aabb *box);

/* Same contracts and outputs as the hs_brute_* calls in batch.h, and the same answers. */
HS_API hs_status hs_grid_closest(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                                 hs_closest_out out);
HS_API hs_status hs_grid_any(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             uint8_t *hit);
HS_API hs_status hs_grid_count_hits(const hs_grid *g, const hs_queries *qs,
                                    const hs_batch_opts *opts, uint32_t *count);
HS_API hs_status hs_grid_all(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             hs_hits *out);
HS_API hs_status hs_grid_all_into(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                                  hs_hits_place_fn place, void *ctx);

/* Filters for pairs and overlaps: Box2D's b2Filter, without its group index. A circle has
 * category bits (what it is) and collide bits (the categories it meets: Box2D's maskBits).
 * - Its category is the set's mask (hitscan/batch.h): the bits a query's mask already selects
 *   it by, as Box2D tests a query filter's maskBits against a shape's categoryBits; every bit
 *   for a set without masks. One array, so a circle is the same thing to rays and to pairs.
 * - Its collide bits are given to each call that filters: collide[i] for the caller's circle
 *   i, length hs_grid_circle_count(g), read during the call only (NULL: no filter). A call's
 *   array, not the set's: one grid answers differently filtered questions (bullets against
 *   asteroids, ships against everything) without a rebuild, and the build, the rebuilds and
 *   hs_grid_rebuild_from keep their arguments.
 * Circles i and j pair only when (category_i & collide_j) != 0 and (category_j & collide_i)
 * != 0 (b2ShouldShapesCollide): symmetric, so a pair is kept or dropped whole. A disc overlap
 * query with mask m and category c meets circle k only when (category_k & m) != 0, as today,
 * and (collide_k & c) != 0 (b2ShouldQueryCollide). Without collide bits nothing is filtered:
 * every pair, bit for bit and at the same cost as before, whatever the categories (as
 * Box2D's default filter, category 1 and every mask bit, pairs everything). A filter decides
 * which pairs are reported, never how a pair is found or its answer: a filtered call gives
 * exactly the unfiltered call's pairs that pass, in the same order, with the same values. */

/* Every overlapping (touching counts) pair i < j once, ordered by i then j. Free with
 * hs_pairs_free. Overlap is decided exactly for float input: (xi - xj)^2 + (yi - yj)^2 <=
 * (ri + rj)^2 evaluated in double, which neither underflows (points 1e-30 apart are apart)
 * nor overflows anywhere in the accepted range. While it runs, a search also holds about 37
 * bytes per circle of each level whose cells are cut (without a filter or periodic box: its
 * circles sorted into cells sized for the pairs). On Linux, a search of 32768 circles or more
 * reserves address space for its lists of pairs, 48 bytes per circle (96 with contacts or
 * swept pairs), of which only what the lists write is used, by 2 MB pages. */
typedef struct hs_pairs {
    uint32_t *i, *j;
    size_t count;
    /* Filled by hs_grid_pairs_ex when asked for, NULL otherwise (0.4 appended them: code built
     * against an older header must be rebuilt). Each pair k describes i and the image of j
     * (its centre moved by sx[k] periods in x and sy[k] in y; 0 unless the grid is periodic):
     * - sx, sy (HS_PAIRS_SHIFTS): the shift of j's image, in {-1, 0, 1};
     * - nx, ny (HS_PAIRS_CONTACTS): the unit normal from ci towards j's image, (1, 0) where
     *   the centres coincide; distance: |image - ci|; gap: distance - ri - rj, negative for
     *   a penetration. All in double from the float centres, rounded once to float. */
    int8_t *sx, *sy;
    float *nx, *ny, *distance, *gap;
} hs_pairs;
HS_API hs_status hs_grid_pairs(const hs_grid *g, const hs_batch_opts *opts, hs_pairs *out);
/* Every pair i < j within a cutoff, once, ordered by i then j: the gap between the discs is at
 * most skin, (xi - xj)^2 + (yi - yj)^2 <= (ri + rj + skin)^2 in double (a Verlet neighbour
 * list; skin = 0 gives exactly hs_grid_pairs). skin must be finite (HS_E_NONFINITE), >= 0
 * (HS_E_NEG_RADIUS) and at most HS_MAX_COORD (HS_E_RANGE); out is then empty. The search
 * reach grows by skin: a skin of the mean radius costs about as much as pairs at twice the
 * density. */
HS_API hs_status hs_grid_pairs_within(const hs_grid *g, float skin, const hs_batch_opts *opts,
                                      hs_pairs *out);
/* hs_grid_pairs_within with optional per-pair outputs (hs_pairs' sx, sy, nx, ny, distance,
 * gap), computed during the search: the same pairs in the same order. po NULL: skin 0, no
 * optional outputs. */
#define HS_PAIRS_SHIFTS 1u   /* sx, sy */
#define HS_PAIRS_CONTACTS 2u /* nx, ny, distance, gap */
typedef struct hs_pair_opts {
    float skin;       /* as hs_grid_pairs_within */
    unsigned outputs; /* HS_PAIRS_SHIFTS | HS_PAIRS_CONTACTS (other bits: HS_E_RANGE) */
} hs_pair_opts;
HS_API hs_status hs_grid_pairs_ex(const hs_grid *g, const hs_pair_opts *po,
                                  const hs_batch_opts *opts, hs_pairs *out);
/* hs_grid_pairs_ex with the filter above: collide (NULL: every pair) holds each circle's
 * collide bits; the same pairs, in the same order and with the same outputs, but those the
 * filter drops. */
HS_API hs_status hs_grid_pairs_filtered(const hs_grid *g, const hs_pair_opts *po,
                                        const uint32_t *collide, const hs_batch_opts *opts,
                                        hs_pairs *out);
HS_API void hs_pairs_free(hs_pairs *p); /* frees every array, the optional ones too */

/* Swept pairs, continuous collision detection for moving circles: circle i of g moves by
 * (dx[i], dy[i]) over a step, t in [0, 1] (dx, dy indexed by the caller's circle index, length
 * hs_grid_circle_count(g), read during the call only). Every pair i < j whose discs touch at
 * some t, |(ci + t di) - (cj + t dj)| <= ri + rj (touching counts), once, ordered by i then j,
 * with
 * - t: the first contact, the entry time of the solid segment query a = ci, d = di - dj over
 *   [0, 1] against the circle (cj, ri + rj), the arithmetic of hs_intersect_circle bit for bit
 *   (a d whose |d|^2 is subnormal is rescaled with its interval, as hs_query_validate asks;
 *   below 2^-127 it counts as no motion); 0 for a pair that touches at t = 0;
 * - nx, ny: the unit contact normal from i towards j at t; where the centres meet, along
 *   di - dj, and (1, 0) without relative motion (hs_hit's convention, seen from i);
 * - overlapping: 1 when the discs touch at t = 0, decided exactly as hs_grid_pairs.
 * Zero (or equal) displacements give exactly hs_grid_pairs' pairs, with t = 0 and
 * overlapping = 1. A pair apart at t = 0 is decided by the segment test, to a few ulps of the
 * coordinates as hs_intersect_circle states. The result does not depend on the thread count
 * or the ISA level. The circles' mask plays no part, as in hs_grid_pairs (filters:
 * hs_grid_swept_pairs_filtered). Displacements must
 * be finite (HS_E_NONFINITE) with sqrt(dx^2 + dy^2) <= HS_MAX_COORD (HS_E_RANGE); more
 * than HS_MAX_COUNT pairs give HS_E_TOO_MANY; on any error out is empty. Free with
 * hs_swept_pairs_free.
 * Cost: one pass gathering the displacements into the grid's order (21 bytes per circle),
 * the pair search of hs_grid_pairs with each circle's swept disc (centre ci + di / 2, radius
 * ri + |di| / 2) in place of the circle, an exact test per candidate, and the assembly (about
 * 70 bytes per pair at its peak). The few fast movers (a displacement above 4 times the
 * median and half a grid cell) find their partners alone, so the slow majority searches no
 * farther than the slow ones move. */
typedef struct hs_swept_pairs {
    uint32_t *i, *j;
    float *t, *nx, *ny;
    uint8_t *overlapping;
    size_t count;
    /* On a periodic grid (NULL otherwise; appended in 0.4): the shift of the image of j that
     * i meets, as hs_pairs' sx, sy. A pair across an edge is tested in the image's frame: the
     * separation ci - image of cj computed in double and rounded once to float (as contacts
     * are), against the circle (0, 0, ri + rj); the touch at t = 0 is decided in double, as
     * hs_grid_pairs does. */
    int8_t *sx, *sy;
} hs_swept_pairs;
HS_API hs_status hs_grid_swept_pairs(const hs_grid *g, const float *dx, const float *dy,
                                     const hs_batch_opts *opts, hs_swept_pairs *out);
/* hs_grid_swept_pairs with the filter above: collide (NULL: every pair) holds each circle's
 * collide bits; the same pairs as hs_grid_swept_pairs but those the filter drops. */
HS_API hs_status hs_grid_swept_pairs_filtered(const hs_grid *g, const float *dx, const float *dy,
                                              const uint32_t *collide, const hs_batch_opts *opts,
                                              hs_swept_pairs *out);
HS_API void hs_swept_pairs_free(hs_swept_pairs *p);

/* Circles overlapping the closed disc (cx, cy, r) — r = 0 for a point query — in ascending
 * index order, decided exactly as hs_grid_pairs. Writes up to cap indices to idx and returns
 * the total number found in *found (call again with a larger buffer if *found > cap). The
 * disc is validated as a circle (hs_circle_validate: HS_E_NONFINITE, HS_E_NEG_RADIUS, or
 * HS_E_RANGE beyond HS_MAX_COORD), with *found = 0 then. */
HS_API hs_status hs_grid_overlap_circle(const hs_grid *g, hs_circle c, uint32_t mask, uint32_t *idx,
                                        size_t cap, size_t *found);
/* The same with the filter above: the disc has category bits `category` and meets circle k
 * only when collide[k] & category != 0 too (collide NULL: hs_grid_overlap_circle). */
HS_API hs_status hs_grid_overlap_circle_filtered(const hs_grid *g, hs_circle c, uint32_t mask,
                                                 uint32_t category, const uint32_t *collide,
                                                 uint32_t *idx, size_t cap, size_t *found);

/* Many disc overlap queries at once, on the team of opts (its sem, isa and ws play no part):
 * disc q is (x[q], y[q], r[q]) (r NULL: points, r = 0) with query mask mask[q] (mask NULL:
 * every bit), and its row holds the circles overlapping it as hs_grid_overlap_circle finds
 * them, in ascending index order: CSR, row q is idx[offsets[q] .. offsets[q + 1]). A disc that
 * hs_circle_validate refuses gets an empty row and the call returns HS_E_INVALID_QUERY (with
 * the count and first one in opts->stats, as the batch calls do); other errors (HS_E_NULL,
 * HS_E_RANGE for threads < 0, HS_E_TOO_MANY for m > HS_MAX_COUNT, HS_E_NOMEM) leave out
 * empty. The rows do not depend on the thread count. Free with hs_overlaps_free. Memory:
 * the result, and the same again while it is assembled. */
typedef struct hs_overlaps {
    size_t *offsets; /* count + 1 entries */
    uint32_t *idx;   /* total entries */
    size_t count;    /* discs */
    size_t total;    /* offsets[count] */
} hs_overlaps;
HS_API hs_status hs_grid_overlap_discs(const hs_grid *g, const float *x, const float *y,
                                       const float *r, const uint32_t *mask, size_t m,
                                       const hs_batch_opts *opts, hs_overlaps *out);
/* The same with the filter above: disc q has category bits category[q] (category NULL: every
 * bit) and meets circle k only when collide[k] & category[q] != 0 too (collide NULL: the
 * plain call). */
HS_API hs_status hs_grid_overlap_discs_filtered(const hs_grid *g, const float *x, const float *y,
                                                const float *r, const uint32_t *mask,
                                                const uint32_t *category, const uint32_t *collide,
                                                size_t m, const hs_batch_opts *opts,
                                                hs_overlaps *out);
HS_API void hs_overlaps_free(hs_overlaps *o);

#ifdef __cplusplus
}
#endif
#endif
