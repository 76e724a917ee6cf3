/* SPDX-License-Identifier: MIT */
/* Reproducible scene generators (uniform, clustered, mixed, sparse, lasers) behind
 * include/hitscan/scene.h. */
#include "hitscan/scene.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "batch/parallel.h"

#define HS_SCENE_CLUSTERS 64
/* circles or segments per range handed to a slot */
#define HS_SCENE_GRAIN 4096
/* sparse: circles per cluster, the clusters' sigma and the world's side over hs_scene_side's */
#define HS_SPARSE_PER_CLUSTER 1000
#define HS_SPARSE_SIGMA 40.0
#define HS_SPARSE_WORLD 5.0

static const char *const scene_names[HS_SCENE_COUNT_] = {"uniform", "clustered", "mixed", "sparse",
                                                         "lasers"};

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

float hs_scene_side(size_t n) { return (float)(4000.0 * sqrt((double)n / 1e6)); }

static double world_side(hs_scene_kind kind, size_t n)
{
    const double side = hs_scene_side(n);
    return kind == HS_SCENE_SPARSE ? HS_SPARSE_WORLD * side : side;
}

float hs_scene_world_side(hs_scene_kind kind, size_t n) { return (float)world_side(kind, n); }

/* splitmix64: a stream per (seed, index) — counter-based, so element i does not depend on how
 * many elements came before it or on which thread drew it. */
typedef struct rng {
    uint64_t s;
} rng;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static rng rng_at(uint64_t seed, uint64_t stream, uint64_t i)
{
    rng g;
    g.s = mix64(seed ^ mix64(stream * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull)) ^
          mix64(i + 0x2545f4914f6cdd1dull);
    return g;
}

static uint64_t next64(rng *g)
{
    g->s += 0x9e3779b97f4a7c15ull;
    return mix64(g->s);
}

/* [0, 1) with 53 random bits; the float conversion happens at the end, once. */
static double unif(rng *g) { return (double)(next64(g) >> 11) * 0x1.0p-53; }

/* log, sin and cos of our own, from + - * / and exact steps (frexp, floor): libm's may round
 * differently on another machine or libc, and a scene must not. Within a few double ulps of
 * libm's, so the float scenes are libm's but for rare last-bit cases. */

/* log x for finite x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(f),
 * f = (m - 1) / (m + 1), |f| <= 0.172, whose series has converged to 2^-56 by f^23. */
static double scene_log(double x)
{
    int e;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752) {
        m *= 2.0;
        e--;
    }
    const double f = (m - 1.0) / (m + 1.0), f2 = f * f;
    double s = 1.0 / 25.0;
    for (int k = 23; k >= 1; k -= 2)
        s = s * f2 + 1.0 / k;
    const double ln2_hi = 0x1.62e42fefa3800p-1, ln2_lo = 0x1.ef35793c7673p-45; /* hi * e exact */
    return (double)e * ln2_hi + ((double)e * ln2_lo + 2.0 * f * s);
}

/* sin and cos of the angle 2 pi u, u in [0, 1): u = n / 4 + r with |r| <= 1/8 (exact: Sterbenz),
 * x = 2 pi r in [-pi/4, pi/4], Taylor series to x^17 / x^18, then the quarter turns. */
static void scene_sincos_turn(double u, double *sn, double *cs)
{
    const double n = floor(u * 4.0 + 0.5), x = (u - 0.25 * n) * 6.283185307179586, x2 = x * x;
    double s = 0.0, c = 0.0, fs = 1.0, fc = 1.0; /* fs = 1 / (2k+1)!, fc = 1 / (2k)! */
    double ts[9], tc[10];
    for (int k = 0; k < 10; k++) {
        tc[k] = fc;
        if (k < 9) {
            fs = fc / (2.0 * k + 1.0);
            ts[k] = fs;
            fc = fs / (2.0 * k + 2.0);
        }
    }
    for (int k = 8; k >= 0; k--)
        s = s * -x2 + ts[k];
    for (int k = 9; k >= 0; k--)
        c = c * -x2 + tc[k];
    s *= x;
    switch ((int)n & 3) {
    case 0: *sn = s, *cs = c; break;
    case 1: *sn = c, *cs = -s; break;
    case 2: *sn = -s, *cs = -c; break;
    default: *sn = -c, *cs = s; break;
    }
}

static double gauss(rng *g)
{
    double u1 = unif(g), u2 = unif(g), sn, cs;
    scene_sincos_turn(u2, &sn, &cs);
    /* 1 - u1 is in (0, 1]: log never sees zero */
    return sqrt(-2.0 * scene_log(1.0 - u1)) * cs;
}

enum { STREAM_CIRCLES = 1, STREAM_CLUSTERS = 2, STREAM_SEGMENTS = 3, STREAM_SPARSE = 4 };

/* A gaussian offset (sigma) around (ccx, ccy), redrawn until inside [0, side]^2: at least a
 * quarter of each gaussian lies in the square. */
static void gauss_inside(rng *g, double ccx, double ccy, double sigma, double side, double *cx,
                         double *cy)
{
    do {
        *cx = ccx + sigma * gauss(g);
        *cy = ccy + sigma * gauss(g);
    } while (!(*cx >= 0.0 && *cx <= side && *cy >= 0.0 && *cy <= side));
}

typedef struct circles_call {
    hs_scene_kind kind;
    uint64_t seed, nsparse;
    const double *ccx, *ccy;
    double side, sigma;
    float *x, *y, *r;
} circles_call;

static void circles_range(void *ctx, size_t lo, size_t hi, int slot)
{
    const circles_call *c = (const circles_call *)ctx;
    const hs_scene_kind kind = c->kind;
    const uint64_t seed = c->seed, nsparse = c->nsparse;
    const double *ccx = c->ccx, *ccy = c->ccy, side = c->side, sigma = c->sigma;
    float *x = c->x, *y = c->y, *r = c->r;
    (void)slot;
    for (size_t ii = lo; ii < hi; ii++) {
        rng g = rng_at(seed, STREAM_CIRCLES, (uint64_t)ii);
        double cx, cy;
        if (kind == HS_SCENE_CLUSTERED) {
            int c = (int)(next64(&g) >> 58); /* 64 clusters: the top 6 bits */
            gauss_inside(&g, ccx[c], ccy[c], sigma, side, &cx, &cy);
        } else if (kind == HS_SCENE_SPARSE) {
            rng gc = rng_at(seed, STREAM_SPARSE, next64(&g) % nsparse);
            const double sx = unif(&gc) * side, sy = unif(&gc) * side;
            gauss_inside(&g, sx, sy, HS_SPARSE_SIGMA, side, &cx, &cy);
        } else {
            cx = unif(&g) * side;
            cy = unif(&g) * side;
        }
        double rad = 0.5 + unif(&g);
        if (kind == HS_SCENE_MIXED && unif(&g) < 0.001)
            rad = 50.0 + 100.0 * unif(&g);
        if (kind == HS_SCENE_LASERS && unif(&g) < 0.001)
            rad = 10.0 + 30.0 * unif(&g);
        x[ii] = (float)cx;
        y[ii] = (float)cy;
        r[ii] = (float)rad;
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
    const double side = world_side(kind, n);
    /* sparse: the cluster centres are drawn from their own stream, one per cluster index */
    const uint64_t nsparse = n / HS_SPARSE_PER_CLUSTER > 0 ? n / HS_SPARSE_PER_CLUSTER : 1;
    double ccx[HS_SCENE_CLUSTERS], ccy[HS_SCENE_CLUSTERS];
    for (int c = 0; c < HS_SCENE_CLUSTERS; c++) {
        rng g = rng_at(seed, STREAM_CLUSTERS, (uint64_t)c);
        ccx[c] = unif(&g) * side;
        ccy[c] = unif(&g) * side;
    }
    const double sigma = side / 40.0;
    const circles_call c = {kind, seed, nsparse, ccx, ccy, side, sigma, x, y, r};
    const hs_par par = hs_par_make(0, NULL);
    hs_par_range(&par, n, HS_SCENE_GRAIN, circles_range, (void *)&c);
    return HS_OK;
}

typedef struct segments_call {
    uint64_t seed;
    double side, len0, len_span;
    float *ax, *ay, *dx, *dy;
} segments_call;

static void segments_range(void *ctx, size_t lo, size_t hi, int slot)
{
    const segments_call *c = (const segments_call *)ctx;
    const uint64_t seed = c->seed;
    const double side = c->side, len0 = c->len0, len_span = c->len_span;
    float *ax = c->ax, *ay = c->ay, *dx = c->dx, *dy = c->dy;
    (void)slot;
    for (size_t ii = lo; ii < hi; ii++) {
        rng g = rng_at(seed, STREAM_SEGMENTS, (uint64_t)ii);
        double sx = unif(&g) * side, sy = unif(&g) * side;
        double sn, cs;
        scene_sincos_turn(unif(&g), &sn, &cs);
        double len = len0 + len_span * unif(&g);
        ax[ii] = (float)sx;
        ay[ii] = (float)sy;
        dx[ii] = (float)(len * cs);
        dy[ii] = (float)(len * sn);
    }
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
    const double side = world_side(kind, n);
    /* lengths uniform in [len0, len0 + len_span] */
    const double len0 = kind == HS_SCENE_SPARSE ? 200.0 : kind == HS_SCENE_LASERS ? 8.0 : 5.0;
    const double len_span = kind == HS_SCENE_SPARSE   ? 1000.0
                            : kind == HS_SCENE_LASERS ? 72.0
                                                      : 45.0;
    const segments_call c = {seed, side, len0, len_span, ax, ay, dx, dy};
    const hs_par par = hs_par_make(0, NULL);
    hs_par_range(&par, m, HS_SCENE_GRAIN, segments_range, (void *)&c);
    return HS_OK;
}
