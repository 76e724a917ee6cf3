/* SPDX-License-Identifier: MIT */
/* Internal: the exact test of a swept pair (hs_grid_swept_pairs), which the pair search
 * (grid/pairs.c) runs on each candidate it keeps. */
#ifndef HITSCAN_GRID_SWEPT_H
#define HITSCAN_GRID_SWEPT_H

#include <float.h>
#include <stdint.h>

#include "core.h"
#include "grid/discs.h"

/* HS_OK, or the first bad displacement's code among n: NaN or infinite (HS_E_NONFINITE), then
 * a length above HS_MAX_COORD (HS_E_RANGE). */
hs_status hs_check_displacements(const float *dx, const float *dy, size_t n);

/* A circle and its displacement over the step. */
typedef struct hs_moving {
    float x, y, r, dx, dy;
} hs_moving;

/* A pair's answer (hitscan/grid.h's hs_swept_pairs): the record the pair lists carry. */
typedef struct hs_swept_hit {
    float t, nx, ny;
    uint32_t overlapping;
} hs_swept_hit;

/* Relative motions whose |d|^2 is subnormal are rescaled by this, their interval by its
 * inverse (exact: powers of two). */
#define HS_SWEPT_RESCALE 0x1p64f

/* Circles a (the smaller index) and b, of which `overlapping` says whether they touch at
 * t = 0: 1 and *h filled when they touch in [0, 1]. The segment query a + t (da - db) against
 * the circle (b, ra + rb), as the batch calls prepare it (hs_kq_make, hs_pair_hits,
 * hs_pair_times). */
static inline int hs_swept_test_from(const hs_moving *a, const hs_moving *b, int overlapping,
                                     hs_swept_hit *h)
{
    const float Dx = a->dx - b->dx, Dy = a->dy - b->dy;
    float t = 0.0f;
    if (!overlapping) {
        hs_query q = {{a->x, a->y}, {Dx, Dy}, 0.0f, 1.0f, 0.0f};
        const float R = a->r + b->r, dd = Dx * Dx + Dy * Dy;
        float scale = 1.0f;
        if (dd < FLT_MIN) {
            q.d.x = Dx * HS_SWEPT_RESCALE;
            q.d.y = Dy * HS_SWEPT_RESCALE;
            q.tmax = 1.0f / HS_SWEPT_RESCALE;
            scale = HS_SWEPT_RESCALE;
            if (!(q.d.x * q.d.x + q.d.y * q.d.y >= FLT_MIN))
                return 0; /* no motion (or below 2^-127): apart all the step */
        }
        const hs_kq k = hs_kq_make(q, HS_SOLID, 0u);
        if (!hs_pair_hits(&k, b->x, b->y, R))
            return 0;
        t = hs_pair_times(&k, b->x, b->y, R).t * scale;
    }
    /* from a towards b at t: (cb + t db) - (ca + t da) */
    const hs_vec2 none = {0.0f, 0.0f};
    hs_vec2 u = hs_unit_or((b->x - a->x) - t * Dx, (b->y - a->y) - t * Dy, none);
    if (u.x == 0.0f && u.y == 0.0f)
        u = hs_unit_or(Dx, Dy, (hs_vec2){1.0f, 0.0f});
    h->t = t;
    h->nx = u.x;
    h->ny = u.y;
    h->overlapping = (uint32_t)overlapping;
    return 1;
}

/* Circle a and the image of circle b shifted by whole periods (shifted: some shift is not 0),
 * whose separation from a, image minus a, is (ex, ey) computed in double (hs_image_sep);
 * overlapping as hs_swept_test_from. An image's centre would lose its fraction to float
 * beside the period, so a shifted pair is tested in the image's frame: a at the separation's
 * negation rounded once to float, the image at the origin (as contacts take the separation
 * in double). An unshifted pair is the plain test. */
static inline int hs_swept_test_image(const hs_moving *a, const hs_moving *b, double ex, double ey,
                                      int shifted, int overlapping, hs_swept_hit *h)
{
    if (!shifted)
        return hs_swept_test_from(a, b, overlapping, h);
    const hs_moving ra = {(float)-ex, (float)-ey, a->r, a->dx, a->dy};
    const hs_moving rb = {0.0f, 0.0f, b->r, b->dx, b->dy};
    return hs_swept_test_from(&ra, &rb, overlapping, h);
}

/* The same with touching at t = 0 decided exactly, as hs_grid_pairs decides it. */
static inline int hs_swept_test(const hs_moving *a, const hs_moving *b, hs_swept_hit *h)
{
    return hs_swept_test_from(a, b, hs_discs_overlap(a->x, a->y, a->r, b->x, b->y, b->r), h);
}

#endif
