/* SPDX-License-Identifier: MIT */
/* The distribution suite's scene kinds (src/scene_suite.c), drawn for src/scene.c; the caller
 * has checked the kind, the counts and the arrays. */
#ifndef HS_SCENE_SUITE_H
#define HS_SCENE_SUITE_H

#include "hitscan/scene.h"

/* Clusters of the power-law scene: as many as clustered has. */
#define HS_SUITE_CLUSTERS 64

/* Side of a square [0, side]^2 holding the kind's circles (outlier: but its far circle). */
double hs_suite_world_side(hs_scene_kind kind, size_t n);
/* Cluster of the power-law scene for a 64-bit draw (probability proportional to 1 / (c + 1)^2)
 * and the factor its sigma has over clustered's, sqrt(64 p_c): every cluster as dense at its
 * centre as one of clustered's. */
int hs_suite_powerlaw_cluster(uint64_t draw, double *sigma_factor);
/* The kinds whose circles and segments src/scene.c does not draw itself: twoclusters,
 * twoclusters_near, blob, blob_alone, filament, filament_axis, point. */
void hs_suite_circles(hs_scene_kind kind, size_t n, uint64_t seed, float *x, float *y, float *r);
void hs_suite_segments(hs_scene_kind kind, size_t n, size_t m, uint64_t seed, float *ax, float *ay,
                       float *dx, float *dy);

#endif
