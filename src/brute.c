/* Brute force: every query against the whole circle set in one kernel run; small sets and the grid's baseline. */
#include <string.h>

#include "internal.h"

/* The whole set as one run. Positions are the caller's indices (base 0, no id map), so a
 * kernel's best_pos is also the index into the set's arrays. */
static hs_run whole_run(const hs_circles *cs)
{
    hs_run run;
    run.x = cs->x;
    run.y = cs->y;
    run.r = cs->r;
    run.mask = cs->mask;
    run.ids = NULL;
    run.n = cs->n;
    run.base = 0;
    return run;
}

/* Circle tests as the kernels make them: whole vectors, padding lanes included. */
static uint64_t lanes(const hs_kernel_set *ks, size_t n)
{
    uint64_t w = ks->width > 0 ? (uint64_t)ks->width : 1u;
    return ((uint64_t)n + w - 1u) / w * w;
}

static int brute_any(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint64_t *tests)
{
    const hs_circles *cs = ctx;
    hs_run run = whole_run(cs);
    *tests += lanes(ks, cs->n);
    return cs->n ? ks->any(kq, &run) : 0;
}

static uint32_t brute_count(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq,
                            uint64_t *tests)
{
    const hs_circles *cs = ctx;
    hs_run run = whole_run(cs);
    *tests += lanes(ks, cs->n);
    return cs->n ? (uint32_t)ks->count(kq, &run) : 0u;
}

static int brute_closest(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq, uint32_t *id,
                         float *t, hs_circle *circle, uint64_t *tests)
{
    const hs_circles *cs = ctx;
    hs_run run = whole_run(cs);
    *tests += lanes(ks, cs->n);
    if (cs->n == 0)
        return 0;
    float best_t = INFINITY;
    uint32_t best_id = HS_NONE, best_pos = HS_NONE;
    ks->closest(kq, &run, &best_t, &best_id, &best_pos);
    if (best_id == HS_NONE)
        return 0;
    *id = best_id;
    *t = best_t;
    circle->x = cs->x[best_pos];
    circle->y = cs->y[best_pos];
    circle->r = cs->r[best_pos];
    return 1;
}

/* Appends straight into the thread's buffer. The kernel reports how many it found even when
 * they did not fit, so a full buffer costs one rescan after a geometric grow (O(log hits)
 * times per thread and batch), never a guess. */
static hs_status brute_all(const void *ctx, const hs_kernel_set *ks, const hs_kq *kq,
                           hs_hitbuf *buf, uint64_t *tests)
{
    const hs_circles *cs = ctx;
    hs_run run = whole_run(cs);
    *tests += lanes(ks, cs->n);
    if (cs->n == 0)
        return HS_OK;
    if (buf->cap - buf->len < 64 && hs_hitbuf_reserve(buf, 64) != HS_OK)
        return HS_E_NOMEM;
    size_t room = buf->cap - buf->len;
    size_t found = ks->all(kq, &run, buf->id + buf->len, buf->t + buf->len, room);
    if (found > room) {
        if (hs_hitbuf_reserve(buf, found) != HS_OK)
            return HS_E_NOMEM;
        /* not counted in *tests: whether a retry happens depends on how full this thread's
         * buffer was, and stats must not depend on the thread count */
        found = ks->all(kq, &run, buf->id + buf->len, buf->t + buf->len, found);
    }
    buf->len += found;
    return HS_OK;
}

static hs_status brute_engine(const hs_circles *cs, hs_engine *e)
{
    if (cs == NULL)
        return HS_E_NULL;
    e->ctx = cs;
    e->cost = cs->n;
    e->any = brute_any;
    e->count = brute_count;
    e->closest = brute_closest;
    e->all = brute_all;
    e->closest_range = NULL;
    e->anycount_range = NULL;
    e->all_range = NULL;
    return HS_OK;
}

hs_status hs_brute_closest(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                           hs_closest_out out)
{
    hs_engine e;
    hs_status s = brute_engine(cs, &e);
    return s != HS_OK ? s : hs_run_closest(&e, qs, opts, out);
}

hs_status hs_brute_any(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                       uint8_t *hit)
{
    hs_engine e;
    hs_status s = brute_engine(cs, &e);
    return s != HS_OK ? s : hs_run_any(&e, qs, opts, hit);
}

hs_status hs_brute_count(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                         uint32_t *count)
{
    hs_engine e;
    hs_status s = brute_engine(cs, &e);
    return s != HS_OK ? s : hs_run_count(&e, qs, opts, count);
}

hs_status hs_brute_all(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                       hs_hits *out)
{
    if (out != NULL && cs == NULL)
        memset(out, 0, sizeof *out);
    hs_engine e;
    hs_status s = brute_engine(cs, &e);
    if (s != HS_OK)
        return s;
    hs_wsref w;
    if ((s = hs_ws_open(opts, &w)) != HS_OK) {
        if (out != NULL)
            memset(out, 0, sizeof *out);
        return s;
    }
    s = hs_run_all_rows(&e, qs, opts, w.ws, NULL, out);
    hs_ws_close(&w);
    return s;
}
