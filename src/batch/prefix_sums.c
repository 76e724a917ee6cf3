/* SPDX-License-Identifier: MIT */
/* Parallel prefix sums: each part sums its slice, the part sums are scanned, then each part
 * scans its slice from its base. Integer sums, so the result does not depend on the slicing
 * or on which slot did what. */
#include "batch/prefix_sums.h"

#include "tuning.h"

typedef struct psum_call {
    size_t *offsets, *part;
    size_t n, parts;
} psum_call;

static void slice(const psum_call *c, size_t t, size_t *lo, size_t *hi)
{
    const size_t n = c->n, nt = c->parts;
    *lo = n / nt * t + (t < n % nt ? t : n % nt);
    *hi = *lo + n / nt + (t < n % nt ? 1 : 0);
}

static void sum_part(void *ctx, size_t t, int slot)
{
    const psum_call *c = (const psum_call *)ctx;
    size_t lo, hi, sum = 0;
    (void)slot;
    slice(c, t, &lo, &hi);
    for (size_t i = lo; i < hi; i++)
        sum += c->offsets[i + 1];
    c->part[t] = sum;
}

static void scan_part(void *ctx, size_t t, int slot)
{
    const psum_call *c = (const psum_call *)ctx;
    size_t lo, hi, base = c->part[t];
    (void)slot;
    slice(c, t, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        base += c->offsets[i + 1];
        c->offsets[i + 1] = base;
    }
}

void hs_prefix_sums(size_t *offsets, size_t n, const hs_par *par, size_t *part)
{
    offsets[0] = 0;
    if (par->threads <= 1 || n < 2 * HS_PAR_LIGHT_STEP) {
        for (size_t i = 0; i < n; i++)
            offsets[i + 1] += offsets[i];
        return;
    }
    const psum_call c = {offsets, part, n, hs_par_parts(par)};
    hs_par_for(par, c.parts, sum_part, (void *)&c);
    size_t base = 0;
    for (size_t t = 0; t < c.parts; t++) {
        const size_t s = part[t];
        part[t] = base;
        base += s;
    }
    hs_par_for(par, c.parts, scan_part, (void *)&c);
}
