/* SPDX-License-Identifier: MIT */
/* Turns a fuzzer's bytes into hitscan input: floats that are often small exact values (tangencies),
 * sometimes the limits, sometimes any bit pattern. */
#ifndef HS_FUZZ_INPUT_H
#define HS_FUZZ_INPUT_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/hitscan.h"

/* Past the end of the data every read gives zeros, so any prefix is a whole input. */
typedef struct fz {
    const uint8_t *p;
    size_t n;
} fz;

static inline uint8_t fz_u8(fz *f)
{
    if (f->n == 0)
        return 0;
    f->n--;
    return *f->p++;
}

static inline uint32_t fz_u32(fz *f)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        v |= (uint32_t)fz_u8(f) << (8 * k);
    return v;
}

/* A selector byte, then the value: mostly quarter-integers in [-32, 32) (exact, so tangent and
 * collinear cases are common), the limits and special values, scaled values across the
 * exponent range, and raw bit patterns (NaN, infinities, subnormals). */
static inline float fz_float(fz *f)
{
    static const float special[16] = {
        0.0f,   -0.0f,    HS_MAX_COORD, -HS_MAX_COORD, 1.8e19f, -1.8e19f, FLT_MIN, 1e-30f,
        1e-45f, 1.1e-19f, INFINITY,     -INFINITY,     NAN,     FLT_MAX,  2e18f,   1.0f};
    const uint8_t sel = fz_u8(f);
    switch (sel >> 5) {
    case 0: {
        uint32_t u = fz_u32(f);
        float v;
        memcpy(&v, &u, sizeof v);
        return v;
    }
    case 1: return special[sel & 15];
    case 2: /* a quarter-integer scaled by 2^(8k - 64): the same shapes at other scales */
        return ldexpf((float)(int8_t)fz_u8(f) * 0.25f, (int)(sel & 15) * 8 - 64);
    default: return (float)(int8_t)fz_u8(f) * 0.25f;
    }
}

/* Non-negative variant for radii and thickness (the sign bit flipped off most times). */
static inline float fz_radius(fz *f)
{
    float v = fz_float(f);
    return (fz_u8(f) & 7) ? fabsf(v) : v;
}

/* A circle set and a query batch, SoA, at most nmax / mmax. */
typedef struct fz_scene {
    float x[64], y[64], r[64];
    uint32_t mask[64];
    size_t n;
    float ax[64], ay[64], dx[64], dy[64], t0[64], t1[64], q[64];
    uint32_t qmask[64];
    size_t m;
    hs_queries qs;
    hs_semantics sem;
    int use_mask;
} fz_scene;

static inline void fz_scene_read(fz *f, fz_scene *s, size_t nmax, size_t mmax)
{
    memset(s, 0, sizeof *s);
    uint8_t h = fz_u8(f);
    s->n = nmax ? fz_u8(f) % (nmax + 1) : 0;
    s->m = mmax ? fz_u8(f) % (mmax + 1) : 0;
    s->sem = (h & 1) ? HS_BOUNDARY : HS_SOLID;
    s->use_mask = (h >> 1) & 1;
    for (size_t j = 0; j < s->n; j++) {
        s->x[j] = fz_float(f);
        s->y[j] = fz_float(f);
        s->r[j] = fz_radius(f);
        s->mask[j] = 1u << (fz_u8(f) & 3);
    }
    const int per_t = (h >> 2) & 1, per_q = (h >> 3) & 1, per_m = (h >> 4) & 1;
    for (size_t i = 0; i < s->m; i++) {
        s->ax[i] = fz_float(f);
        s->ay[i] = fz_float(f);
        s->dx[i] = fz_float(f);
        s->dy[i] = fz_float(f);
        if (per_t) {
            switch (fz_u8(f) & 3) { /* line, ray, segment, or any interval */
            case 0:
                s->t0[i] = -INFINITY;
                s->t1[i] = INFINITY;
                break;
            case 1:
                s->t0[i] = 0.0f;
                s->t1[i] = INFINITY;
                break;
            case 2:
                s->t0[i] = 0.0f;
                s->t1[i] = 1.0f;
                break;
            default:
                s->t0[i] = fz_float(f);
                s->t1[i] = fz_float(f);
                break;
            }
        }
        if (per_q)
            s->q[i] = (fz_u8(f) & 1) ? fz_radius(f) : 0.0f;
        if (per_m)
            s->qmask[i] = fz_u8(f) & 15;
    }
    s->qs = hs_queries_segments(s->ax, s->ay, s->dx, s->dy, s->m);
    if (per_t) {
        s->qs.tmin = s->t0;
        s->qs.tmax = s->t1;
    }
    if (per_q)
        s->qs.q = s->q;
    else
        s->qs.q_all = (h & 0x20) ? fz_radius(f) : 0.0f;
    if (per_m)
        s->qs.mask = s->qmask;
    else
        s->qs.mask_all = (h & 0x40) ? (uint32_t)(fz_u8(f) & 15) : UINT32_MAX;
}

/* A finding: the message, then abort() so libFuzzer saves the input. */
static inline void fz_fail(const char *what, const char *msg)
{
    fprintf(stderr, "FUZZ FINDING (%s): %s\n", what, msg);
    abort();
}

#endif
