/* Fuzz target: a grid rebuilt in place (grown, shrunk, emptied) answers as brute force on the new
 * set. */
#include "../batch_check.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    fz_scene a, b;
    fz_scene_read(&f, &a, 48, 0);
    fz_scene_read(&f, &b, 48, 32);
    hs_circles *ca = NULL, *cb = NULL;
    hs_grid *g = NULL;
    char msg[512];
    if (hs_circles_create(a.x, a.y, a.r, a.use_mask ? a.mask : NULL, a.n, &ca, NULL) != HS_OK ||
        hs_circles_create(b.x, b.y, b.r, b.use_mask ? b.mask : NULL, b.n, &cb, NULL) != HS_OK)
        goto done; /* invalid sets: fuzz_batch checks their validation */
    hs_grid_opts go = {0.0f, 1};
    if (hs_grid_build(ca, &go, &g) != HS_OK)
        fz_fail("rebuild", "hs_grid_build failed on a valid set");
    /* a -> b, sometimes through a -> b -> a -> b, so memory sized for either is reused */
    int rounds = 1 + 2 * (fz_u8(&f) & 1);
    for (int k = 0; k < rounds; k++)
        if (hs_grid_rebuild(g, (k & 1) ? ca : cb) != HS_OK)
            fz_fail("rebuild", "hs_grid_rebuild failed on a valid set");
    if (hs_grid_circle_count(g) != b.n)
        fz_fail("rebuild", "hs_grid_circle_count is not the new set's count");
    bc_input in = {b.x, b.y, b.r, b.use_mask ? b.mask : NULL, b.n, b.qs, b.sem, 0.0f, 1, NULL};
    if (bc_check_grid(&in, cb, g, msg, sizeof msg))
        fz_fail("rebuild", msg);
    if (bc_check_pairs(b.x, b.y, b.r, b.n, g, 1, msg, sizeof msg))
        fz_fail("rebuild pairs", msg);
done:
    hs_grid_destroy(g);
    hs_circles_destroy(ca);
    hs_circles_destroy(cb);
    return 0;
}
