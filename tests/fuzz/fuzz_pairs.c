/* SPDX-License-Identifier: MIT */
/* Fuzz target: hs_grid_pairs against brute force in double, on one and two threads, any cell size.
 */
#include "../batch_check.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    fz_scene s;
    fz_scene_read(&f, &s, 64, 0);
    uint8_t h = fz_u8(&f);
    float cell = (h & 3) == 0 ? fabsf(fz_float(&f)) : 0.0f;
    if (!isfinite(cell))
        cell = 0.0f;
    int threads = 1 + ((h >> 2) & 1);
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    if (hs_circles_create(s.x, s.y, s.r, NULL, s.n, &cs, NULL) != HS_OK)
        return 0;
    char msg[512];
    if (bc_build(cs, s.x, s.y, s.r, s.n, cell, threads, &g, msg, sizeof msg))
        fz_fail("pairs", msg);
    if (bc_check_pairs(s.x, s.y, s.r, s.n, g, threads, msg, sizeof msg))
        fz_fail("pairs", msg);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return 0;
}
