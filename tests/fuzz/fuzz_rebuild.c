/* SPDX-License-Identifier: MIT */
/* Fuzz target: a grid rebuilt in place (grown, shrunk, emptied) answers as brute force on the new
 * set; a rebuild from arrays holding a bad value (NaN, inf, out of range, negative radius) is
 * refused with hs_circles_create's code and index and leaves the grid answering for the old
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
    if (hs_circles_create(a.x, a.y, a.r, a.use_mask ? a.mask : NULL, a.n, &ca, NULL) != HS_OK)
        goto done; /* invalid first sets: fuzz_batch checks their validation */
    hs_grid_opts go = {.cell_size = 0.0f, .threads = 1};
    if (hs_grid_build(ca, &go, &g) != HS_OK)
        fz_fail("rebuild", "hs_grid_build failed on a valid set");
    size_t bad_create = 0, bad_rebuild = 0;
    const uint32_t *bmask = b.use_mask ? b.mask : NULL;
    hs_status sb = hs_circles_create(b.x, b.y, b.r, bmask, b.n, &cb, &bad_create);
    if (sb != HS_OK) {
        /* the arrays the caller moved now hold a bad value: refused, the grid kept */
        hs_status sr = hs_grid_rebuild_from(g, b.x, b.y, b.r, bmask, b.n, &bad_rebuild);
        if (sr != sb || bad_rebuild != bad_create)
            fz_fail("rebuild",
                    "a bad set's rebuild is not refused as hs_circles_create refuses it");
        if (hs_grid_circle_count(g) != a.n)
            fz_fail("rebuild", "a refused rebuild changed the grid");
        bc_input in = {a.x, a.y, a.r, a.use_mask ? a.mask : NULL, a.n, b.qs, b.sem, 0.0f, 1, NULL};
        if (bc_check_grid(&in, ca, g, msg, sizeof msg))
            fz_fail("refused rebuild", msg);
        goto done;
    }
    /* a -> b, sometimes through a -> b -> a -> b, so memory sized for either is reused */
    int rounds = 1 + 2 * (fz_u8(&f) & 1);
    const int from_arrays = fz_u8(&f) & 1;
    for (int k = 0; k < rounds; k++) {
        const hs_circles *next = (k & 1) ? ca : cb;
        hs_status s = from_arrays ? hs_grid_rebuild_from(g, hs_circles_x(next), hs_circles_y(next),
                                                         hs_circles_r(next), hs_circles_mask(next),
                                                         hs_circles_count(next), NULL)
                                  : hs_grid_rebuild(g, next);
        if (s != HS_OK)
            fz_fail("rebuild", "a rebuild failed on a valid set");
    }
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
