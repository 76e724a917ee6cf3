/* SPDX-License-Identifier: MIT */
/* Reproducible benchmark scenes (uniform, clustered, mixed radii, sparse clusters, lasers) shared
 * by benchmarks, tests, the CLI and the demo. */
#ifndef HITSCAN_SCENE_H
#define HITSCAN_SCENE_H

#include "hitscan/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every scene lives in the world square [0, side]^2 with side = 4000 * sqrt(N / 1e6) (sparse:
 * 5 times that, hs_scene_world_side), so the density (and the hits per segment) does not depend
 * on N.
 *   uniform   centres uniform, r uniform in [0.5, 1.5];
 *   clustered centres from 64 gaussian clusters (cluster centres uniform in the world, sigma =
 *             side / 40, each circle picks a cluster uniformly); a centre that falls outside the
 *             world is redrawn, so every centre lies inside; radii as uniform;
 *   mixed     as uniform, but each circle independently (probability 0.001) gets r uniform in
 *             [50, 150];
 *   sparse    mostly empty space: one gaussian cluster (sigma = 40) per 1000 circles, cluster
 *             centres uniform in a world of 5 x the side, radii as uniform; the clusters cover a
 *             few percent of the world;
 *   lasers    as uniform, but each circle independently (probability 0.001) gets r uniform in
 *             [10, 40].
 * The generator is counter-based (splitmix64 of seed and index), so the scene is the same on
 * every machine, compiler and thread count. */
typedef enum hs_scene_kind {
    HS_SCENE_INVALID = -1,
    HS_SCENE_UNIFORM = 0,
    HS_SCENE_CLUSTERED = 1,
    HS_SCENE_MIXED = 2,
    HS_SCENE_SPARSE = 3,
    HS_SCENE_LASERS = 4,
    HS_SCENE_COUNT_ = 5
} hs_scene_kind;

/* "uniform" / "clustered" / "mixed" / "sparse" / "lasers" -> the kind; anything else (or NULL) ->
 * HS_SCENE_INVALID. */
HS_API hs_scene_kind hs_scene_kind_from_name(const char *name);
/* The kind's name, or "?" when out of range. */
HS_API const char *hs_scene_kind_name(hs_scene_kind kind);
/* Side of the world square for N circles (every kind but sparse). */
HS_API float hs_scene_side(size_t n);
/* Side of the kind's world square for N circles: hs_scene_side(n), 5 times that for sparse. */
HS_API float hs_scene_world_side(hs_scene_kind kind, size_t n);

/* Fills x[0..n), y[0..n), r[0..n). HS_E_RANGE for a bad kind, HS_E_NULL for a NULL array
 * when n > 0, HS_E_TOO_MANY above HS_MAX_COUNT. */
HS_API hs_status hs_scene_circles(hs_scene_kind kind, size_t n, uint64_t seed, float *x, float *y,
                                  float *r);

/* m segments a -> a + d for the scene of n circles: start uniform in the kind's world,
 * direction uniform, length uniform in [5, 50] (lasers: [8, 80], 1.6 times longer; sparse:
 * [200, 1200], so that about two thirds of them cross no cluster). Drawn from a stream
 * independent of hs_scene_circles'. */
HS_API hs_status hs_scene_segments(hs_scene_kind kind, size_t n, size_t m, uint64_t seed, float *ax,
                                   float *ay, float *dx, float *dy);

#ifdef __cplusplus
}
#endif
#endif
