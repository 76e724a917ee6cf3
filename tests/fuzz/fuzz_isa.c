/* SPDX-License-Identifier: MIT */
/* Fuzz target: every ISA level's kernels on the same query and run of circles: scalar and SSE4.2 /
 * NEON exactly as core.h, AVX2 / AVX-512 within the tangency band. */
#include "../batch_check.h"
#include "core.h"
#include "fuzz_input.h"
#include "kernels/kernels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RUN_MAX 80

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    static _Alignas(64) float x[RUN_MAX + 32], y[RUN_MAX + 32], r[RUN_MAX + 32];
    static uint32_t mask[RUN_MAX + 32], ids[RUN_MAX + 32];
    const uint8_t h = fz_u8(&f);
    const size_t off = h & 15, n = fz_u8(&f) % (RUN_MAX + 1); /* any alignment, any tail */
    const int use_mask = (h >> 4) & 1, use_ids = (h >> 5) & 1;
    const hs_semantics sem = (h >> 6) & 1 ? HS_BOUNDARY : HS_SOLID;
    hs_query q;
    q.a.x = fz_float(&f);
    q.a.y = fz_float(&f);
    q.d.x = fz_float(&f);
    q.d.y = fz_float(&f);
    switch (fz_u8(&f) & 3) {
    case 0:
        q.tmin = -INFINITY;
        q.tmax = INFINITY;
        break;
    case 1:
        q.tmin = 0.0f;
        q.tmax = INFINITY;
        break;
    case 2:
        q.tmin = 0.0f;
        q.tmax = 1.0f;
        break;
    default:
        q.tmin = fz_float(&f);
        q.tmax = fz_float(&f);
        break;
    }
    q.q = (fz_u8(&f) & 1) ? fz_radius(&f) : 0.0f;
    const uint32_t qmask = use_mask ? (uint32_t)(fz_u8(&f) & 15) : UINT32_MAX;
    if (hs_query_validate(q) != HS_OK)
        return 0; /* kernels take validated queries only; the batch targets check the rest */
    for (size_t j = 0; j < n; j++) {
        hs_circle c = {fz_float(&f), fz_float(&f), fz_radius(&f)};
        if (hs_circle_validate(c) != HS_OK)
            c = (hs_circle){0.0f, 0.0f, 1.0f};
        x[off + j] = c.x;
        y[off + j] = c.y;
        r[off + j] = c.r;
        mask[off + j] = 1u << (fz_u8(&f) & 3);
        ids[off + j] = 1000u + (uint32_t)((j * 7u) % RUN_MAX); /* distinct, not in order */
    }
    const hs_kq kq = hs_kq_make(q, sem, qmask);
    const hs_run run = {
        x + off, y + off, r + off, use_mask ? mask + off : NULL, use_ids ? ids + off : NULL,
        n,       500u};
    /* core.h's answers, pair by pair */
    uint32_t rid[RUN_MAX];
    float rt[RUN_MAX];
    size_t rn = 0;
    for (size_t j = 0; j < n; j++) {
        if (use_mask && (mask[off + j] & qmask) == 0)
            continue;
        if (!hs_pair_hits(&kq, x[off + j], y[off + j], r[off + j]))
            continue;
        rid[rn] = use_ids ? ids[off + j] : 500u + (uint32_t)j;
        rt[rn++] = hs_pair_times(&kq, x[off + j], y[off + j], r[off + j]).t;
    }
    char msg[512];
    for (int l = HS_ISA_SCALAR; l < HS_ISA_COUNT; l++) {
        const hs_kernel_set *ks = hs_kernels_get((hs_isa)l);
        if (ks == NULL)
            continue;
        const char *name = hs_isa_name((hs_isa)l);
        uint32_t aid[RUN_MAX + 16];
        float at[RUN_MAX + 16];
        size_t an = ks->all(&kq, &run, aid, at, RUN_MAX + 16);
        size_t cn = ks->count(&kq, &run);
        int any = ks->any(&kq, &run);
        float bt = INFINITY;
        uint32_t bid = HS_NONE, bpos = 0;
        int changed = ks->closest(&kq, &run, &bt, &bid, &bpos);
        if (an != cn || any != (cn > 0) || changed != (cn > 0)) {
            snprintf(msg, sizeof msg, "%s: all %zu, count %zu, any %d, closest %d", name, an, cn,
                     any, changed);
            fz_fail("isa", msg);
        }
        /* closest is all's smallest (t, id) */
        float mt = INFINITY;
        uint32_t mid = HS_NONE;
        for (size_t k = 0; k < an; k++)
            if (at[k] < mt || (at[k] == mt && aid[k] < mid))
                mt = at[k], mid = aid[k];
        if (an && (bid != mid || !bc_same_bits(bt, mt))) {
            snprintf(msg, sizeof msg, "%s: closest %u t=%a, all's first %u t=%a", name, bid,
                     (double)bt, mid, (double)mt);
            fz_fail("isa", msg);
        }
        const int exact = bc_exact_level((hs_isa)l);
        /* each side's hits against the other's */
        for (int side = 0; side < 2; side++) {
            const uint32_t *xi = side ? rid : aid, *yi = side ? aid : rid;
            const float *xt = side ? rt : at, *yt = side ? at : rt;
            size_t xn = side ? rn : an, yn = side ? an : rn;
            for (size_t k = 0; k < xn; k++) {
                size_t u = 0;
                while (u < yn && yi[u] != xi[k])
                    u++;
                size_t j = 0; /* the circle's position in the run */
                while (j < n && (use_ids ? ids[off + j] : 500u + (uint32_t)j) != xi[k])
                    j++;
                hs_circle c = {x[off + j], y[off + j], r[off + j]};
                int band = bc_in_band(q, c, sem);
                if (u == yn) {
                    if (exact || !band) {
                        snprintf(msg, sizeof msg, "%s: circle %zu hit by %s only", name, j,
                                 side ? "core.h" : "the kernel");
                        fz_fail("isa", msg);
                    }
                    continue;
                }
                double dt = fabs((double)xt[k] - (double)yt[u]) * hypot(q.d.x, q.d.y);
                if (exact
                        ? !bc_same_bits(xt[k], yt[u])
                        : (dt > 3e-4 * bc_scale(q, c) + 0x1p-36 && !(band && sem == HS_BOUNDARY))) {
                    snprintf(msg, sizeof msg, "%s: circle %zu entry t %a, core.h %a", name, j,
                             (double)at[side ? u : k], (double)rt[side ? k : u]);
                    fz_fail("isa", msg);
                }
            }
        }
    }
    return 0;
}
