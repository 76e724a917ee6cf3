/* SPDX-License-Identifier: MIT */
/* Fuzz target: a sequence of batch calls of varying size, mode and engine through one workspace
 * (trimmed at times) answers as without it. */
#include "../batch_check.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    fz_scene s;
    fz_scene_read(&f, &s, 48, 64);
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    hs_workspace *ws = NULL;
    if (hs_circles_create(s.x, s.y, s.r, s.use_mask ? s.mask : NULL, s.n, &cs, NULL) != HS_OK)
        return 0;
    if (hs_grid_build(cs, NULL, &g) != HS_OK || hs_workspace_create(&ws) != HS_OK)
        fz_fail("workspace", "set-up failed");
    hs_isa lv[HS_ISA_COUNT];
    int nl = bc_levels(lv);
    char msg[512];
    int calls = 1 + (fz_u8(&f) & 7);
    for (int k = 0; k < calls; k++) {
        uint8_t op = fz_u8(&f);
        bc_input in = {s.x, s.y, s.r, s.use_mask ? s.mask : NULL, s.n, s.qs, s.sem, 0.0f, 1, ws};
        /* a prefix of the batch: the workspace grows and is reused at other sizes */
        size_t from = s.m ? fz_u8(&f) % (s.m + 1) : 0;
        in.qs.count = from;
        if (op & 1)
            in.threads = 2;
        if (op & 2)
            hs_workspace_trim(ws);
        hs_isa isa = lv[(op >> 2) % nl];
        bc_answers with, without;
        const hs_grid *eng = (op & 0x40) ? NULL : g;
        if (bc_run(&in, cs, eng, isa, ws, &with) || bc_run(&in, cs, eng, isa, NULL, &without))
            fz_fail("workspace", "out of memory");
        int bad =
            bc_same_answers(&with, &without, in.qs.count, "workspace vs none", msg, sizeof msg);
        if (!bad && in.qs.count > 0 && with.all.ws != ws)
            bad = 1, snprintf(msg, sizeof msg, "all-hits arrays are not the workspace's");
        if (bad)
            fz_fail("workspace", msg);
        bc_answers_free(&with);
        bc_answers_free(&without);
    }
    hs_workspace_destroy(ws);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return 0;
}
