/* SPDX-License-Identifier: MIT */
/* Fuzz target: hs_grid_overlap_circle (any probe, mask and buffer size) against brute force in
 * double. */
#include "../batch_check.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    fz_scene s;
    fz_scene_read(&f, &s, 64, 0);
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    const uint32_t *mask = s.use_mask ? s.mask : NULL;
    if (hs_circles_create(s.x, s.y, s.r, mask, s.n, &cs, NULL) != HS_OK)
        return 0;
    if (hs_grid_build(cs, NULL, &g) != HS_OK)
        fz_fail("overlap", "hs_grid_build failed on a valid set");
    char msg[512];
    int probes = 1 + (fz_u8(&f) & 7);
    for (int k = 0; k < probes; k++) {
        hs_circle c;
        if ((fz_u8(&f) & 1) && s.n) { /* near a circle of the set */
            size_t j = fz_u8(&f) % s.n;
            c.x = s.x[j] + fz_float(&f);
            c.y = s.y[j] + fz_float(&f);
        } else {
            c.x = fz_float(&f);
            c.y = fz_float(&f);
        }
        c.r = fz_radius(&f);
        uint32_t qmask = (fz_u8(&f) & 1) ? ~0u : (uint32_t)(fz_u8(&f) & 15);
        size_t cap = fz_u8(&f) % 70;
        if (bc_check_overlap(s.x, s.y, s.r, mask, s.n, g, c, qmask, cap, msg, sizeof msg))
            fz_fail("overlap", msg);
    }
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return 0;
}
