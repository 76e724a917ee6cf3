/* SPDX-License-Identifier: MIT */
/* The distribution suite (include/hitscan/scene.h): scenes a grid sized by the bounding box
 * handles badly, each beside a twin without what makes it hard. A scene and its twin make the
 * same draws from the same streams and differ only in where the draws are put (far or near
 * squares, a blob with or without its wide companions, a band turned by 45 degrees or not), so
 * that the ratio of their times measures the broadphase, not the work. */
#include "scene_suite.h"

#include <math.h>
#include <stddef.h>

#include "scene_rng.h"

/* twoclusters: where the second square's corner lies */
#define SUITE_FAR 1e6
/* blob: its side for 2e5 circles, the world's side over the blob's, one circle in SUITE_WIDE
 * outside it, the blob's radius over uniform's */
#define SUITE_BLOB_SIDE 50.0
#define SUITE_BLOB_WORLD 40.0
#define SUITE_WIDE 200
#define SUITE_BLOB_R 0.05
/* filament: the band's width; its length gives uniform's density (16 square units a circle) */
#define SUITE_BAND 20.0
#define SUITE_AREA_PER_CIRCLE 16.0
/* point: how far (each axis) a segment's start lies from the point */
#define SUITE_POINT_REACH 25.0

static const double sqrt_half = 0.70710678118654752440;

/* The standard scenes' world side for n circles (scene.h); here, below scene.c, which uses
 * the suite's sides too. */
float hs_scene_side(size_t n) { return (float)(4000.0 * sqrt((double)n / 1e6)); }

/* Side of one of twoclusters' squares: half the circles at uniform's density. */
static double half_side(size_t n) { return 4000.0 * sqrt((double)n / 2.0 / 1e6); }
static double blob_side(size_t n) { return SUITE_BLOB_SIDE * sqrt((double)n / 2e5); }
static double band_length(size_t n) { return SUITE_AREA_PER_CIRCLE * (double)n / SUITE_BAND; }

double hs_suite_world_side(hs_scene_kind kind, size_t n)
{
    switch (kind) {
    case HS_SCENE_TWOCLUSTERS: return SUITE_FAR + half_side(n);
    case HS_SCENE_TWOCLUSTERS_NEAR: return 2.0 * half_side(n);
    case HS_SCENE_BLOB:
    case HS_SCENE_BLOB_ALONE: return SUITE_BLOB_WORLD * blob_side(n);
    case HS_SCENE_FILAMENT: return (band_length(n) + SUITE_BAND) * sqrt_half;
    case HS_SCENE_FILAMENT_AXIS: return band_length(n) > SUITE_BAND ? band_length(n) : SUITE_BAND;
    default: return hs_scene_side(n);
    }
}

int hs_suite_powerlaw_cluster(uint64_t draw, double *sigma_factor)
{
    /* the weights' sum by + and / only: the same bits everywhere */
    double total = 0.0;
    for (int c = HS_SUITE_CLUSTERS; c >= 1; c--)
        total += 1.0 / ((double)c * c);
    const double u = (double)(draw >> 11) * 0x1.0p-53 * total;
    double acc = 0.0;
    int c = 0;
    for (; c < HS_SUITE_CLUSTERS - 1; c++) {
        acc += 1.0 / ((double)(c + 1) * (c + 1));
        if (u < acc)
            break;
    }
    const double p = 1.0 / ((double)(c + 1) * (c + 1)) / total;
    *sigma_factor = sqrt((double)HS_SUITE_CLUSTERS * p);
    return c;
}

/* A centre drawn from the kind's distribution. member picks the part for the kinds made of
 * parts (a circle's index; a segment passes a random draw, so its start follows the circles):
 * twoclusters' square (member & 1), blob's wide circles (member % SUITE_WIDE == 0). *scale is
 * the local spacing over uniform's (blob's circles 0.028, else 1). */
static void draw_centre(hs_scene_kind kind, size_t n, uint64_t member, hs_scene_rng *g, double *cx,
                        double *cy, double *scale)
{
    const double u = hs_scene_unif(g), v = hs_scene_unif(g);
    *scale = 1.0;
    switch (kind) {
    case HS_SCENE_TWOCLUSTERS:
    case HS_SCENE_TWOCLUSTERS_NEAR: {
        const double s = half_side(n);
        *cx = u * s;
        *cy = v * s;
        if (member & 1) {
            *cx += kind == HS_SCENE_TWOCLUSTERS ? SUITE_FAR : s;
            *cy += kind == HS_SCENE_TWOCLUSTERS ? SUITE_FAR : 0.0;
        }
        break;
    }
    case HS_SCENE_BLOB:
    case HS_SCENE_BLOB_ALONE: {
        const double b = blob_side(n), w = SUITE_BLOB_WORLD * b;
        if (kind == HS_SCENE_BLOB && member % SUITE_WIDE == 0) {
            *cx = u * w;
            *cy = v * w;
        } else {
            *cx = 0.5 * (w - b) + u * b;
            *cy = 0.5 * (w - b) + v * b;
            /* the blob's spacing over uniform's (4 units), whatever n */
            *scale = SUITE_BLOB_SIDE / sqrt(2e5) / 4.0;
        }
        break;
    }
    case HS_SCENE_FILAMENT:
    case HS_SCENE_FILAMENT_AXIS: {
        const double a = u * band_length(n), c = v * SUITE_BAND;
        if (kind == HS_SCENE_FILAMENT_AXIS) {
            *cx = a;
            *cy = c;
        } else { /* the axis band turned by 45 degrees about (0, SUITE_BAND), then moved up */
            *cx = (a - c + SUITE_BAND) * sqrt_half;
            *cy = (a + c) * sqrt_half;
        }
        break;
    }
    default: { /* point */
        const double p = 0.5 * hs_scene_side(n);
        *cx = p;
        *cy = p;
        break;
    }
    }
}

void hs_suite_circles(hs_scene_kind kind, size_t n, uint64_t seed, float *x, float *y, float *r)
{
#pragma omp parallel for schedule(static)
    for (ptrdiff_t ii = 0; ii < (ptrdiff_t)n; ii++) {
        hs_scene_rng g = hs_scene_rng_at(seed, HS_STREAM_CIRCLES, (uint64_t)ii);
        double cx, cy, scale;
        draw_centre(kind, n, (uint64_t)ii, &g, &cx, &cy, &scale);
        const double u = hs_scene_unif(&g);
        double rad = 0.5 + u;
        if (kind == HS_SCENE_POINT)
            rad = 1.0;
        else if (scale != 1.0)
            rad = SUITE_BLOB_R * (0.5 + u);
        x[ii] = (float)cx;
        y[ii] = (float)cy;
        r[ii] = (float)rad;
    }
}

void hs_suite_segments(hs_scene_kind kind, size_t n, size_t m, uint64_t seed, float *ax, float *ay,
                       float *dx, float *dy)
{
    const double point = 0.5 * hs_scene_side(n);
#pragma omp parallel for schedule(static)
    for (ptrdiff_t ii = 0; ii < (ptrdiff_t)m; ii++) {
        hs_scene_rng g = hs_scene_rng_at(seed, HS_STREAM_SEGMENTS, (uint64_t)ii);
        double sx, sy, scale = 1.0;
        if (kind == HS_SCENE_POINT) {
            sx = point + SUITE_POINT_REACH * (2.0 * hs_scene_unif(&g) - 1.0);
            sy = point + SUITE_POINT_REACH * (2.0 * hs_scene_unif(&g) - 1.0);
        } else {
            const uint64_t member = hs_scene_next64(&g);
            draw_centre(kind, n, member, &g, &sx, &sy, &scale);
        }
        double sn, cs;
        hs_scene_sincos_turn(hs_scene_unif(&g), &sn, &cs);
        if (kind == HS_SCENE_FILAMENT) { /* the axis twin's direction, turned as its band */
            const double c2 = (cs - sn) * sqrt_half, s2 = (cs + sn) * sqrt_half;
            cs = c2;
            sn = s2;
        }
        const double len = scale * (5.0 + 45.0 * hs_scene_unif(&g));
        ax[ii] = (float)sx;
        ay[ii] = (float)sy;
        dx[ii] = (float)(len * cs);
        dy[ii] = (float)(len * sn);
    }
}
