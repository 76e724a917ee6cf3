/* SPDX-License-Identifier: MIT */
/* The scene generators' random numbers: splitmix64 streams per (seed, stream, index) and the
 * libm-free log, sine and cosine they draw gaussians and directions with (src/scene_rng.c). */
#ifndef HS_SCENE_RNG_H
#define HS_SCENE_RNG_H

#include <stdint.h>

/* splitmix64: a stream per (seed, index) — counter-based, so element i does not depend on how
 * many elements came before it or on which thread drew it. */
typedef struct hs_scene_rng {
    uint64_t s;
} hs_scene_rng;

/* The generators' streams: one per purpose, so adding draws to one never moves another. */
enum {
    HS_STREAM_CIRCLES = 1,
    HS_STREAM_CLUSTERS = 2,
    HS_STREAM_SEGMENTS = 3,
    HS_STREAM_SPARSE = 4
};

static inline uint64_t hs_scene_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline hs_scene_rng hs_scene_rng_at(uint64_t seed, uint64_t stream, uint64_t i)
{
    hs_scene_rng g;
    g.s = hs_scene_mix64(seed ^
                         hs_scene_mix64(stream * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull)) ^
          hs_scene_mix64(i + 0x2545f4914f6cdd1dull);
    return g;
}

static inline uint64_t hs_scene_next64(hs_scene_rng *g)
{
    g->s += 0x9e3779b97f4a7c15ull;
    return hs_scene_mix64(g->s);
}

/* [0, 1) with 53 random bits; the float conversion happens at the end, once. */
static inline double hs_scene_unif(hs_scene_rng *g)
{
    return (double)(hs_scene_next64(g) >> 11) * 0x1.0p-53;
}

/* sin and cos of the angle 2 pi u, u in [0, 1), from + - * / only. */
void hs_scene_sincos_turn(double u, double *sn, double *cs);
/* A standard gaussian (Box-Muller), the same bits on every machine. */
double hs_scene_gauss(hs_scene_rng *g);
/* A gaussian offset (sigma) around (ccx, ccy), redrawn until inside [0, side]^2. */
void hs_scene_gauss_inside(hs_scene_rng *g, double ccx, double ccy, double sigma, double side,
                           double *cx, double *cy);

#endif
