/* SPDX-License-Identifier: MIT */
/* The walls benchmark's scenes, shared with the peers' harness: a maze of k walls on a square of
 * about sqrt(k) unit cells (each cell gets one wall: its bottom edge 45 %, its left edge 45 %,
 * a diagonal 10 %), a crowd of circles in the same square, and segments from a uniform start
 * in a uniform direction, length uniform in [5, 50]. Deterministic from the seed. */
#ifndef HITSCAN_BENCH_WALLS_MAZE_H
#define HITSCAN_BENCH_WALLS_MAZE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

static inline float hs_maze_unif(uint64_t *s, float lo, float hi)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((*s >> 40) * 0x1p-24);
}

/* The side of the maze of k walls, in cells. */
static inline size_t hs_maze_side(size_t k)
{
    size_t s = (size_t)ceil(sqrt((double)k));
    return s ? s : 1;
}

/* Walls 0 .. k-1: (ax, ay) -> (bx, by). */
static inline void hs_maze_walls(size_t k, uint64_t seed, float *ax, float *ay, float *bx,
                                 float *by)
{
    const size_t side = hs_maze_side(k);
    uint64_t s = seed;
    for (size_t i = 0; i < k; i++) {
        const float x = (float)(i % side), y = (float)(i / side), u = hs_maze_unif(&s, 0, 1);
        ax[i] = x, ay[i] = y;
        bx[i] = u < 0.45f ? x + 1.0f : u < 0.9f ? x : x + 1.0f;
        by[i] = u < 0.45f ? y : y + 1.0f;
    }
}

/* n circles of radius 0.15 uniform in the maze's square (they may touch walls). */
static inline void hs_maze_crowd(size_t k, size_t n, uint64_t seed, float *x, float *y, float *r)
{
    const float side = (float)hs_maze_side(k);
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        x[i] = hs_maze_unif(&s, 0, side), y[i] = hs_maze_unif(&s, 0, side), r[i] = 0.15f;
    }
}

/* m segments a -> a + d in the maze's square. */
static inline void hs_maze_segments(size_t k, size_t m, uint64_t seed, float *ax, float *ay,
                                    float *dx, float *dy)
{
    const float side = (float)hs_maze_side(k);
    uint64_t s = seed;
    for (size_t i = 0; i < m; i++) {
        const float a = hs_maze_unif(&s, 0, 6.2831853f), len = hs_maze_unif(&s, 5, 50);
        ax[i] = hs_maze_unif(&s, 0, side), ay[i] = hs_maze_unif(&s, 0, side);
        dx[i] = len * cosf(a), dy[i] = len * sinf(a);
    }
}

#endif
