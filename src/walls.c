/* SPDX-License-Identifier: MIT */
/* Wall sets: validated SoA arrays, copied into one aligned padded block or borrowed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/narrow.h"
#include "circles.h"
#include "walls.h"

/* Each end is checked as a circle with the wall's thickness, so the codes and the range are
 * the circles' (hs_circle_validate). */
static hs_status validate(const float *ax, const float *ay, const float *bx, const float *by,
                          const float *w, size_t n, size_t *bad_index)
{
    for (size_t i = 0; i < n; i++) {
        float wi = w ? w[i] : 0.0f;
        hs_status s = hs_circle_validate((hs_circle){ax[i], ay[i], wi});
        if (s == HS_OK)
            s = hs_circle_validate((hs_circle){bx[i], by[i], wi});
        if (s != HS_OK) {
            if (bad_index)
                *bad_index = i;
            return s;
        }
    }
    return HS_OK;
}

static hs_status check_args(const float *ax, const float *ay, const float *bx, const float *by,
                            const float *w, size_t n, hs_walls **out, size_t *bad_index)
{
    if (bad_index)
        *bad_index = (size_t)-1;
    if (out == NULL)
        return HS_E_NULL;
    *out = NULL;
    if (n > HS_MAX_COUNT)
        return HS_E_TOO_MANY;
    if (n > 0 && (ax == NULL || ay == NULL || bx == NULL || by == NULL))
        return HS_E_NULL;
    return validate(ax, ay, bx, by, w, n, bad_index);
}

/* The block holds ax, ay, bx, by, then thickness and mask when given, each HS_ALIGN-aligned
 * and padded as circles.c's copies are: padding is NaN (no comparison with it holds, so a
 * padding lane never hits) and mask 0. */
hs_status hs_walls_create(const float *ax, const float *ay, const float *bx, const float *by,
                          const float *thickness, const uint32_t *mask, size_t n, hs_walls **out,
                          size_t *bad_index)
{
    hs_status s = check_args(ax, ay, bx, by, thickness, n, out, bad_index);
    if (s != HS_OK)
        return s;
    size_t npad = (n + HS_PAD_FLOATS - 1) / HS_PAD_FLOATS * HS_PAD_FLOATS + HS_PAD_FLOATS;
    size_t arrays = 4u + (thickness ? 1u : 0u) + (mask ? 1u : 0u);
    if (npad > SIZE_MAX / sizeof(float) / arrays)
        return HS_E_NOMEM;
    hs_walls *ws = malloc(sizeof *ws);
    float *block = aligned_alloc(HS_ALIGN, npad * sizeof(float) * arrays);
    if (ws == NULL || block == NULL) {
        free(ws);
        free(block);
        return HS_E_NOMEM;
    }
    const float *src[5] = {ax, ay, bx, by, thickness};
    float *dst[5] = {NULL, NULL, NULL, NULL, NULL};
    size_t k = 0;
    for (int j = 0; j < 5; j++) {
        if (src[j] == NULL)
            continue;
        dst[j] = block + k++ * npad;
        if (n)
            memcpy(dst[j], src[j], n * sizeof(float));
        for (size_t i = n; i < npad; i++)
            dst[j][i] = NAN;
    }
    uint32_t *cm = NULL;
    if (mask) {
        cm = (uint32_t *)(block + k * npad);
        if (n)
            memcpy(cm, mask, n * sizeof *cm);
        memset(cm + n, 0, (npad - n) * sizeof *cm);
    }
    *ws = (hs_walls){.ax = dst[0],
                     .ay = dst[1],
                     .bx = dst[2],
                     .by = dst[3],
                     .w = dst[4],
                     .mask = cm,
                     .n = n,
                     .owned = block};
    *out = ws;
    return HS_OK;
}

hs_status hs_walls_borrow(const float *ax, const float *ay, const float *bx, const float *by,
                          const float *thickness, const uint32_t *mask, size_t n, hs_walls **out,
                          size_t *bad_index)
{
    hs_status s = check_args(ax, ay, bx, by, thickness, n, out, bad_index);
    if (s != HS_OK)
        return s;
    hs_walls *ws = malloc(sizeof *ws);
    if (ws == NULL)
        return HS_E_NOMEM;
    *ws = (hs_walls){.ax = ax,
                     .ay = ay,
                     .bx = bx,
                     .by = by,
                     .w = thickness,
                     .mask = mask,
                     .n = n,
                     .owned = NULL};
    *out = ws;
    return HS_OK;
}

void hs_walls_destroy(hs_walls *ws)
{
    if (ws == NULL)
        return;
    free(ws->owned);
    free(ws);
}

size_t hs_walls_count(const hs_walls *ws) { return ws ? ws->n : 0; }
