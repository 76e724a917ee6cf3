/* SPDX-License-Identifier: MIT */
/* Fuzz target: the batch calls, brute force and grid, every mode and ISA level, against each other
 * and the scalar calls. */
#include "../batch_check.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    fz_scene s;
    fz_scene_read(&f, &s, 48, 48);
    float cell = (fz_u8(&f) & 3) == 0 ? fabsf(fz_float(&f)) : 0.0f;
    if (!isfinite(cell))
        cell = 0.0f;
    bc_input in = {s.x, s.y, s.r, s.use_mask ? s.mask : NULL, s.n, s.qs, s.sem, cell, 1, NULL};
    char msg[512];
    if (bc_check(&in, msg, sizeof msg))
        fz_fail("batch", msg);
    return 0;
}
