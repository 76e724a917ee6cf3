/* SPDX-License-Identifier: MIT */
/* Large worlds: double world coordinates relative to a chosen origin, rounded to float once. */
#include "hitscan/origin.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* v - o rounded to float; HS_OK, HS_E_NONFINITE or HS_E_RANGE. */
static hs_status rebase_one(double v, double o, float *out)
{
    if (!isfinite(v))
        return HS_E_NONFINITE;
    const double rel = v - o;
    if (!(fabs(rel) <= (double)HS_MAX_COORD))
        return HS_E_RANGE;
    *out = (float)rel;
    return HS_OK;
}

static hs_status fail_at(size_t i, size_t *bad_index, hs_status s)
{
    if (bad_index)
        *bad_index = i;
    return s;
}

hs_status hs_rebase_points(const double *x, const double *y, size_t n, hs_dvec2 origin,
                           float *out_x, float *out_y, size_t *bad_index)
{
    if (n > 0 && (!x || !y || !out_x || !out_y))
        return HS_E_NULL;
    if (!isfinite(origin.x) || !isfinite(origin.y))
        return HS_E_NONFINITE;
    for (size_t i = 0; i < n; i++) {
        hs_status s = rebase_one(x[i], origin.x, &out_x[i]);
        if (s == HS_OK)
            s = rebase_one(y[i], origin.y, &out_y[i]);
        if (s != HS_OK)
            return fail_at(i, bad_index, s);
    }
    return HS_OK;
}

hs_status hs_rebase_segments(const double *ax, const double *ay, const double *bx, const double *by,
                             size_t n, hs_dvec2 origin, float *out_ax, float *out_ay, float *out_dx,
                             float *out_dy, size_t *bad_index)
{
    if (n > 0 && (!bx || !by || !out_dx || !out_dy))
        return HS_E_NULL;
    hs_status s = hs_rebase_points(ax, ay, n, origin, out_ax, out_ay, bad_index);
    if (s != HS_OK)
        return s;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(bx[i]) || !isfinite(by[i]))
            return fail_at(i, bad_index, HS_E_NONFINITE);
        const float dx = (float)(bx[i] - ax[i]), dy = (float)(by[i] - ay[i]);
        const double dd = (double)dx * dx + (double)dy * dy;
        if (!(dd <= FLT_MAX) || (dd > 0.0 && dd < FLT_MIN)) /* as hs_query_validate */
            return fail_at(i, bad_index, HS_E_RANGE);
        out_dx[i] = dx;
        out_dy[i] = dy;
    }
    return HS_OK;
}

hs_status hs_circles_create_at(const double *x, const double *y, const float *r,
                               const uint32_t *mask, size_t n, hs_dvec2 origin, hs_circles **out,
                               size_t *bad_index)
{
    if (!out)
        return HS_E_NULL;
    *out = NULL;
    if (n > HS_MAX_COUNT)
        return HS_E_TOO_MANY;
    float *lx = malloc((n ? n : 1) * sizeof *lx), *ly = malloc((n ? n : 1) * sizeof *ly);
    hs_status s = lx && ly ? HS_OK : HS_E_NOMEM;
    if (s == HS_OK)
        s = hs_rebase_points(x, y, n, origin, lx, ly, bad_index);
    if (s == HS_OK) /* copies: the local arrays need not outlive the set */
        s = hs_circles_create(lx, ly, r, mask, n, out, bad_index);
    free(lx);
    free(ly);
    return s;
}

hs_dvec2 hs_point_to_world(hs_vec2 p, hs_dvec2 origin)
{
    hs_dvec2 w = {origin.x + (double)p.x, origin.y + (double)p.y};
    return w;
}
