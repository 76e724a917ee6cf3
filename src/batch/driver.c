/* SPDX-License-Identifier: MIT */
/* The batch set-up every call shares (see driver.h), and the public batch argument helpers. */
#include "batch/driver.h"

#include <stdint.h>
#include <string.h>

#include "tuning.h"

hs_queries hs_queries_segments(const float *ax, const float *ay, const float *dx, const float *dy,
                               size_t count)
{
    hs_queries qs;
    memset(&qs, 0, sizeof qs);
    qs.ax = ax;
    qs.ay = ay;
    qs.dx = dx;
    qs.dy = dy;
    qs.count = count;
    qs.tmin_all = 0.0f;
    qs.tmax_all = 1.0f;
    qs.q_all = 0.0f;
    qs.mask_all = UINT32_MAX;
    return qs;
}

hs_queries hs_queries_capsules(const float *ax, const float *ay, const float *dx, const float *dy,
                               const float *q, size_t count)
{
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, count);
    qs.q = q;
    return qs;
}

hs_batch_opts hs_batch_opts_default(void)
{
    hs_batch_opts o;
    memset(&o, 0, sizeof o);
    o.sem = HS_SOLID;
    o.isa = HS_ISA_AUTO;
    o.threads = 0;
    o.stats = NULL;
    o.ws = NULL;
    return o;
}

hs_status hs_batch_begin(const hs_queries *qs, const hs_batch_opts *opts, size_t cost,
                         hs_batch_setup *b)
{
    hs_batch_opts o = opts ? *opts : hs_batch_opts_default();
    if (qs == NULL)
        return HS_E_NULL;
    if (qs->count > HS_MAX_COUNT || qs->count > (size_t)PTRDIFF_MAX / 2) /* 32-bit targets */
        return HS_E_TOO_MANY;
    if (qs->count > 0 && (qs->ax == NULL || qs->ay == NULL || qs->dx == NULL || qs->dy == NULL))
        return HS_E_NULL;
    if ((unsigned)o.sem > (unsigned)HS_BOUNDARY_SKIP_START || (int)o.isa < 0 ||
        (int)o.isa >= (int)HS_ISA_COUNT || o.threads < 0)
        return HS_E_RANGE;
    b->ks = hs_kernels_get(o.isa);
    if (b->ks == NULL)
        return HS_E_UNSUPPORTED;
    b->sem = o.sem;
    b->par = hs_par_make(o.threads, o.tasks);
    /* starting a team costs more than a small batch gains from it */
    double work = (double)qs->count * (double)(cost > 0 ? cost : 1);
    if (work < (double)HS_PAR_MIN_WORK)
        b->par.threads = 1;
    b->threads = b->par.threads;
    size_t c = qs->count / ((size_t)b->threads * HS_CHUNKS_PER_THREAD);
    b->chunk = c < 1 ? 1 : (c > HS_CHUNK_MAX ? HS_CHUNK_MAX : c);
    b->stats = o.stats;
    return HS_OK;
}

hs_status hs_batch_end(const hs_batch_setup *b, const hs_tally *t)
{
    if (b->stats) {
        b->stats->invalid = t->invalid;
        b->stats->first_invalid = t->invalid ? t->first : (size_t)-1;
        b->stats->pair_tests = t->tests;
    }
    return t->invalid ? HS_E_INVALID_QUERY : HS_OK;
}
