/* SPDX-License-Identifier: MIT */
/* Circle sets: validated SoA arrays, copied into one aligned padded block or borrowed from the
 * caller. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/narrow.h"
#include "circles.h"
#include "invariant.h"

/* Validation runs over every circle of every set (a particle simulation makes one per frame),
 * so it is a branch-free pass over blocks that the compiler vectorises: |v| <= HS_MAX_COORD
 * is false for NaN, infinities and out-of-range values, and r >= 0 for NaN and negatives. Only a
 * block that fails is scanned again, with hs_circle_validate, to name the first bad circle
 * and its reason. */
#define HS_VALIDATE_BLOCK 1024

static hs_status validate(const float *x, const float *y, const float *r, size_t n,
                          size_t *bad_index)
{
    for (size_t lo = 0; lo < n; lo += HS_VALIDATE_BLOCK) {
        size_t hi = n - lo > HS_VALIDATE_BLOCK ? lo + HS_VALIDATE_BLOCK : n;
        int ok = 1;
        for (size_t i = lo; i < hi; i++)
            ok &= (fabsf(x[i]) <= HS_MAX_COORD) & (fabsf(y[i]) <= HS_MAX_COORD) & (r[i] >= 0.0f) &
                  (r[i] <= HS_MAX_COORD);
        if (ok)
            continue;
        for (size_t i = lo; i < hi; i++) {
            hs_circle c = {x[i], y[i], r[i]};
            hs_status s = hs_circle_validate(c);
            if (s != HS_OK) {
                if (bad_index)
                    *bad_index = i;
                return s;
            }
        }
    }
    return HS_OK;
}

hs_status hs_circles_check(const hs_circles *cs, size_t i0, size_t i1, size_t *bad_index)
{
    HS_ASSERT(i0 <= i1 && i1 <= cs->n);
    if (i0 == i1)
        return HS_OK; /* an empty set's arrays may be NULL, and NULL + 0 is undefined */
    size_t bad = (size_t)-1;
    hs_status s = validate(cs->x + i0, cs->y + i0, cs->r + i0, i1 - i0, &bad);
    if (s != HS_OK && bad_index)
        *bad_index = i0 + bad;
    return s;
}

static hs_status check_args(const float *x, const float *y, const float *r, size_t n,
                            hs_circles **out, size_t *bad_index)
{
    if (bad_index)
        *bad_index = (size_t)-1;
    if (out == NULL)
        return HS_E_NULL;
    *out = NULL;
    if (n > HS_MAX_COUNT)
        return HS_E_TOO_MANY;
    if (n > 0 && (x == NULL || y == NULL || r == NULL))
        return HS_E_NULL;
    return validate(x, y, r, n, bad_index);
}

/* Copies: x, y, r and mask in one HS_ALIGN-aligned block, each array HS_ALIGN-aligned and
 * padded to a multiple of HS_PAD_FLOATS plus one more full pad, so a vector load of any
 * width up to HS_PAD_FLOATS that starts at an index < n stays inside the block, whatever its
 * alignment. The padding is x = y = r = NaN and mask = 0: every comparison with NaN is false,
 * so a padding lane can never hit (the hit test is "distance^2 <= R^2", false for NaN), under
 * either semantics and for every query mask, even if a kernel forgets its tail mask. NaN, not
 * r = -inf: -inf squared is +inf, which everything is <=. The kernels still get the true n. */
hs_status hs_circles_create(const float *x, const float *y, const float *r, const uint32_t *mask,
                            size_t n, hs_circles **out, size_t *bad_index)
{
    hs_status s = check_args(x, y, r, n, out, bad_index);
    if (s != HS_OK)
        return s;
    size_t npad = (n + HS_PAD_FLOATS - 1) / HS_PAD_FLOATS * HS_PAD_FLOATS + HS_PAD_FLOATS;
    size_t arrays = mask ? 4u : 3u;
    if (npad > SIZE_MAX / sizeof(float) / arrays)
        return HS_E_NOMEM;
    size_t bytes =
        npad * sizeof(float) * arrays; /* a multiple of HS_ALIGN, as aligned_alloc wants */
    hs_circles *cs = malloc(sizeof *cs);
    float *block = aligned_alloc(HS_ALIGN, bytes);
    if (cs == NULL || block == NULL) {
        free(cs);
        free(block);
        return HS_E_NOMEM;
    }
    float *cx = block, *cy = block + npad, *cr = block + 2 * npad;
    if (n) {
        memcpy(cx, x, n * sizeof *cx);
        memcpy(cy, y, n * sizeof *cy);
        memcpy(cr, r, n * sizeof *cr);
    }
    for (size_t i = n; i < npad; i++)
        cx[i] = cy[i] = cr[i] = NAN;
    uint32_t *cm = NULL;
    if (mask) {
        cm = (uint32_t *)(block + 3 * npad);
        if (n)
            memcpy(cm, mask, n * sizeof *cm);
        memset(cm + n, 0, (npad - n) * sizeof *cm);
    }
    *cs = (hs_circles){.x = cx, .y = cy, .r = cr, .mask = cm, .n = n, .owned = block};
    *out = cs;
    return HS_OK;
}

hs_status hs_circles_borrow(const float *x, const float *y, const float *r, const uint32_t *mask,
                            size_t n, hs_circles **out, size_t *bad_index)
{
    hs_status s = check_args(x, y, r, n, out, bad_index);
    if (s != HS_OK)
        return s;
    hs_circles *cs = malloc(sizeof *cs);
    if (cs == NULL)
        return HS_E_NOMEM;
    *cs = (hs_circles){.x = x, .y = y, .r = r, .mask = mask, .n = n, .owned = NULL};
    *out = cs;
    return HS_OK;
}

void hs_circles_destroy(hs_circles *cs)
{
    if (cs == NULL)
        return;
    free(cs->owned);
    free(cs);
}

size_t hs_circles_count(const hs_circles *cs) { return cs ? cs->n : 0; }
const float *hs_circles_x(const hs_circles *cs) { return cs ? cs->x : NULL; }
const float *hs_circles_y(const hs_circles *cs) { return cs ? cs->y : NULL; }
const float *hs_circles_r(const hs_circles *cs) { return cs ? cs->r : NULL; }
const uint32_t *hs_circles_mask(const hs_circles *cs) { return cs ? cs->mask : NULL; }
