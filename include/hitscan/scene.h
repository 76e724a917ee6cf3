/* SPDX-License-Identifier: MIT */
/* Reproducible benchmark scenes (uniform, clustered, mixed, sparse, lasers, and the distribution
 * suite: scenes paired with twins) shared by benchmarks, tests, the CLI and the demo. */
#ifndef HITSCAN_SCENE_H
#define HITSCAN_SCENE_H

#include "hitscan/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first five scenes live in the world square [0, side]^2 with side = 4000 * sqrt(N / 1e6)
 * (sparse: 5 times that, hs_scene_world_side), so the density (and the hits per segment) does
 * not depend on N.
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
 *
 * The distribution suite: scenes where the circles are not spread like the world's bounding
 * box, each with a twin that poses the same local problem (the same draws, the same density
 * where the circles are, segments from the same recipe) without what makes the scene hard,
 * so that time(scene) / time(twin) measures the broadphase (hs_scene_twin gives the twin):
 *   outlier   uniform's circles but the last, whose centre is parked at (1e6, 1e6)
 *             (HS_SCENE_OUTLIER_AT), far outside the world; segments exactly uniform's (no
 *             segment runs toward the outlier, which would be long work of its own and leave
 *             the twin nothing to compare). Twin: uniform.
 *   twoclusters  two squares at uniform's density, of side 4000 * sqrt(N / 2e6) with every
 *             other circle (odd indices in the second); the second's corner at (1e6, 1e6).
 *             Twin: twoclusters_near, the same squares side by side (the second's corner at
 *             (side, 0)).
 *   blob      a dense blob: every circle but one in 200 (indices divisible by 200) uniform in a
 *             square of side 50 * sqrt(N / 2e5) (80 circles per square unit, 1270 times
 *             uniform's density) with r = 0.05 * uniform's [0.5, 1.5], centred in a world 40
 *             times wider, where the other 0.5 % lie uniformly with uniform's radii.
 *             Twin: blob_alone, all N circles in the blob (the 0.5 % drawn into it from the
 *             same draws): the same N, nearly the same blob, and the same segments.
 *   filament  a band 20 units wide and 0.8 N long at uniform's density, along the diagonal
 *             (the axis band turned by 45 degrees). Twin: filament_axis, the band along x
 *             ([0, 0.8 N] x [0, 20]); circles and segments are the twin's turned.
 *   powerlaw  clustered's 64 cluster centres, each circle picks cluster c with probability
 *             proportional to 1 / (c + 1)^2 (Zipf, exponent 2: the first holds 61 %), and
 *             cluster c's sigma is clustered's times sqrt(64 p_c), so every cluster is as dense
 *             at its centre as clustered's: extents spread 64-fold, density not. Segments
 *             exactly clustered's. Twin: clustered.
 *   point     every circle at one point, (side / 2, side / 2) with side = hs_scene_side(N),
 *             r = 1. No twin: closest and any should take time linear in N + M, pairs time
 *             linear in the pairs reported (N (N - 1) / 2).
 * The suite's segments (but outlier's and powerlaw's) start at a point drawn from the circles'
 * own distribution (twoclusters: either square; blob: the wide world one time in 200), with a
 * uniform direction and a length uniform in [5, 50] times the local spacing over uniform's
 * (blob's circles: 0.028, else 1); point's start uniform within 25 of the point on each axis.
 *
 * The generator is counter-based (splitmix64 of seed and index), so the scene is the same on
 * every machine, compiler and thread count. */
typedef enum hs_scene_kind {
    HS_SCENE_INVALID = -1,
    HS_SCENE_UNIFORM = 0,
    HS_SCENE_CLUSTERED = 1,
    HS_SCENE_MIXED = 2,
    HS_SCENE_SPARSE = 3,
    HS_SCENE_LASERS = 4,
    HS_SCENE_OUTLIER = 5,
    HS_SCENE_TWOCLUSTERS = 6,
    HS_SCENE_TWOCLUSTERS_NEAR = 7,
    HS_SCENE_BLOB = 8,
    HS_SCENE_BLOB_ALONE = 9,
    HS_SCENE_FILAMENT = 10,
    HS_SCENE_FILAMENT_AXIS = 11,
    HS_SCENE_POWERLAW = 12,
    HS_SCENE_POINT = 13,
    HS_SCENE_COUNT_ = 14
} hs_scene_kind;

/* Where outlier parks its last circle (both coordinates). */
#define HS_SCENE_OUTLIER_AT 1e6f

/* A kind's name ("uniform", ..., "point", as in the list above) -> the kind; anything else (or
 * NULL) -> HS_SCENE_INVALID. */
HS_API hs_scene_kind hs_scene_kind_from_name(const char *name);
/* The kind's name, or "?" when out of range. */
HS_API const char *hs_scene_kind_name(hs_scene_kind kind);
/* The twin of a distribution-suite scene (outlier -> uniform, twoclusters -> twoclusters_near,
 * blob -> blob_alone, filament -> filament_axis, powerlaw -> clustered); HS_SCENE_INVALID for
 * every other kind. */
HS_API hs_scene_kind hs_scene_twin(hs_scene_kind kind);
/* Side of uniform's world square for N circles. */
HS_API float hs_scene_side(size_t n);
/* Side of the kind's world square [0, side]^2 for N circles: hs_scene_side(n) for uniform,
 * clustered, mixed, lasers, outlier (whose far circle lies outside), powerlaw and point; 5
 * times that for sparse; for the suite the square that holds its circles: twoclusters
 * 1e6 + a square's side, twoclusters_near two squares' sides, blob and blob_alone 40 blob
 * sides, filament (0.8 N + 20) / sqrt(2), filament_axis 0.8 N (at least 20). */
HS_API float hs_scene_world_side(hs_scene_kind kind, size_t n);
/* Fills x[0..n), y[0..n), r[0..n). HS_E_RANGE for a bad kind, HS_E_NULL for a NULL array
 * when n > 0, HS_E_TOO_MANY above HS_MAX_COUNT. */
HS_API hs_status hs_scene_circles(hs_scene_kind kind, size_t n, uint64_t seed, float *x, float *y,
                                  float *r);

/* m segments a -> a + d for the scene of n circles: start uniform in the kind's world,
 * direction uniform, length uniform in [5, 50] (lasers: [8, 80], 1.6 times longer; sparse:
 * [200, 1200], so that about two thirds of them cross no cluster); the suite's as above.
 * Drawn from a stream independent of hs_scene_circles'. */
HS_API hs_status hs_scene_segments(hs_scene_kind kind, size_t n, size_t m, uint64_t seed, float *ax,
                                   float *ay, float *dx, float *dy);

#ifdef __cplusplus
}
#endif
#endif
