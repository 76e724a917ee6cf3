/* SPDX-License-Identifier: MIT */
/* Reproducible scene generators behind include/hitscan/scene.h: the names, the world sides and
 * the first five kinds (uniform, clustered, mixed, sparse, lasers); the distribution suite's
 * kinds are drawn by src/scene_suite.c. */
#include "hitscan/scene.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "scene_rng.h"
#include "scene_suite.h"

#define HS_SCENE_CLUSTERS 64
_Static_assert(HS_SCENE_CLUSTERS == HS_SUITE_CLUSTERS,
               "powerlaw draws clustered's cluster centres");
/* sparse: circles per cluster, the clusters' sigma and the world's side over hs_scene_side's */
#define HS_SPARSE_PER_CLUSTER 1000
#define HS_SPARSE_SIGMA 40.0
#define HS_SPARSE_WORLD 5.0

static const char *const scene_names[HS_SCENE_COUNT_] = {
    "uniform",  "clustered",  "mixed",       "sparse",
    "lasers",   "outlier",    "twoclusters", "twoclusters_near",
    "blob",     "blob_alone", "filament",    "filament_axis",
    "powerlaw", "point"};

hs_scene_kind hs_scene_kind_from_name(const char *name)
{
    if (name == NULL)
        return HS_SCENE_INVALID;
    for (int k = 0; k < (int)HS_SCENE_COUNT_; k++)
        if (strcmp(name, scene_names[k]) == 0)
            return (hs_scene_kind)k;
    return HS_SCENE_INVALID;
}

const char *hs_scene_kind_name(hs_scene_kind kind)
{
    if ((int)kind < 0 || (int)kind >= (int)HS_SCENE_COUNT_)
        return "?";
    return scene_names[kind];
}

static double world_side(hs_scene_kind kind, size_t n)
{
    const double side = hs_scene_side(n);
    if (kind >= HS_SCENE_TWOCLUSTERS)
        return hs_suite_world_side(kind, n);
    return kind == HS_SCENE_SPARSE ? HS_SPARSE_WORLD * side : side;
}

float hs_scene_world_side(hs_scene_kind kind, size_t n) { return (float)world_side(kind, n); }

hs_scene_kind hs_scene_twin(hs_scene_kind kind)
{
    switch (kind) {
    case HS_SCENE_OUTLIER: return HS_SCENE_UNIFORM;
    case HS_SCENE_TWOCLUSTERS: return HS_SCENE_TWOCLUSTERS_NEAR;
    case HS_SCENE_BLOB: return HS_SCENE_BLOB_ALONE;
    case HS_SCENE_FILAMENT: return HS_SCENE_FILAMENT_AXIS;
    case HS_SCENE_POWERLAW: return HS_SCENE_CLUSTERED;
    default: return HS_SCENE_INVALID;
    }
}

hs_status hs_scene_circles(hs_scene_kind kind, size_t n, uint64_t seed, float *x, float *y,
                           float *r)
{
    if ((int)kind < 0 || (int)kind >= (int)HS_SCENE_COUNT_)
        return HS_E_RANGE;
    if (n > HS_MAX_COUNT)
        return HS_E_TOO_MANY;
    if (n > 0 && (x == NULL || y == NULL || r == NULL))
        return HS_E_NULL;
    if (kind >= HS_SCENE_TWOCLUSTERS && kind != HS_SCENE_POWERLAW) {
        hs_suite_circles(kind, n, seed, x, y, r);
        return HS_OK;
    }
    const double side = world_side(kind, n);
    /* sparse: the cluster centres are drawn from their own stream, one per cluster index */
    const uint64_t nsparse = n / HS_SPARSE_PER_CLUSTER > 0 ? n / HS_SPARSE_PER_CLUSTER : 1;
    double ccx[HS_SCENE_CLUSTERS], ccy[HS_SCENE_CLUSTERS];
    for (int c = 0; c < HS_SCENE_CLUSTERS; c++) {
        hs_scene_rng g = hs_scene_rng_at(seed, HS_STREAM_CLUSTERS, (uint64_t)c);
        ccx[c] = hs_scene_unif(&g) * side;
        ccy[c] = hs_scene_unif(&g) * side;
    }
    const double sigma = side / 40.0;
#pragma omp parallel for schedule(static)
    for (ptrdiff_t ii = 0; ii < (ptrdiff_t)n; ii++) {
        hs_scene_rng g = hs_scene_rng_at(seed, HS_STREAM_CIRCLES, (uint64_t)ii);
        double cx, cy;
        if (kind == HS_SCENE_CLUSTERED) {
            int c = (int)(hs_scene_next64(&g) >> 58); /* 64 clusters: the top 6 bits */
            hs_scene_gauss_inside(&g, ccx[c], ccy[c], sigma, side, &cx, &cy);
        } else if (kind == HS_SCENE_POWERLAW) {
            double f;
            int c = hs_suite_powerlaw_cluster(hs_scene_next64(&g), &f);
            hs_scene_gauss_inside(&g, ccx[c], ccy[c], f * sigma, side, &cx, &cy);
        } else if (kind == HS_SCENE_SPARSE) {
            hs_scene_rng gc =
                hs_scene_rng_at(seed, HS_STREAM_SPARSE, hs_scene_next64(&g) % nsparse);
            const double sx = hs_scene_unif(&gc) * side, sy = hs_scene_unif(&gc) * side;
            hs_scene_gauss_inside(&g, sx, sy, HS_SPARSE_SIGMA, side, &cx, &cy);
        } else {
            cx = hs_scene_unif(&g) * side;
            cy = hs_scene_unif(&g) * side;
        }
        double rad = 0.5 + hs_scene_unif(&g);
        if (kind == HS_SCENE_MIXED && hs_scene_unif(&g) < 0.001)
            rad = 50.0 + 100.0 * hs_scene_unif(&g);
        if (kind == HS_SCENE_LASERS && hs_scene_unif(&g) < 0.001)
            rad = 10.0 + 30.0 * hs_scene_unif(&g);
        x[ii] = (float)cx;
        y[ii] = (float)cy;
        r[ii] = (float)rad;
    }
    /* outlier: uniform's circles but the last, parked far away with its radius */
    if (kind == HS_SCENE_OUTLIER && n > 0)
        x[n - 1] = y[n - 1] = HS_SCENE_OUTLIER_AT;
    return HS_OK;
}

hs_status hs_scene_segments(hs_scene_kind kind, size_t n, size_t m, uint64_t seed, float *ax,
                            float *ay, float *dx, float *dy)
{
    if ((int)kind < 0 || (int)kind >= (int)HS_SCENE_COUNT_)
        return HS_E_RANGE;
    if (n > HS_MAX_COUNT || m > HS_MAX_COUNT)
        return HS_E_TOO_MANY;
    if (m > 0 && (ax == NULL || ay == NULL || dx == NULL || dy == NULL))
        return HS_E_NULL;
    /* outlier and powerlaw take their twins' segments (uniform's, clustered's) */
    if (kind >= HS_SCENE_TWOCLUSTERS && kind != HS_SCENE_POWERLAW) {
        hs_suite_segments(kind, n, m, seed, ax, ay, dx, dy);
        return HS_OK;
    }
    const double side = world_side(kind, n);
    /* lengths uniform in [len0, len0 + len_span] */
    const double len0 = kind == HS_SCENE_SPARSE ? 200.0 : kind == HS_SCENE_LASERS ? 8.0 : 5.0;
    const double len_span = kind == HS_SCENE_SPARSE   ? 1000.0
                            : kind == HS_SCENE_LASERS ? 72.0
                                                      : 45.0;
#pragma omp parallel for schedule(static)
    for (ptrdiff_t ii = 0; ii < (ptrdiff_t)m; ii++) {
        hs_scene_rng g = hs_scene_rng_at(seed, HS_STREAM_SEGMENTS, (uint64_t)ii);
        double sx = hs_scene_unif(&g) * side, sy = hs_scene_unif(&g) * side;
        double sn, cs;
        hs_scene_sincos_turn(hs_scene_unif(&g), &sn, &cs);
        double len = len0 + len_span * hs_scene_unif(&g);
        ax[ii] = (float)sx;
        ay[ii] = (float)sy;
        dx[ii] = (float)(len * cs);
        dy[ii] = (float)(len * sn);
    }
    return HS_OK;
}
