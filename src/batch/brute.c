/* SPDX-License-Identifier: MIT */
/* Brute force: every query against the whole circle set in one kernel run; small sets and the
 * grid's reference. Each public call: hs_batch_begin, a parallel loop over the queries calling
 * the level's pair kernel (hs_kernel_set) directly, hs_batch_end. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "batch/all_hits.h"
#include "batch/driver.h"
#include "batch/workspace.h"
#include "circles.h"
#include "kernels/kernels.h"
#include "query_prep.h"

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

/* The runs of `run` (base 0, no id map) without the circle the query ignores: the circles
 * before it and those after it (hs_queries.ignore); returns how many (1 or 2) are in parts. */
static int runs_without(const hs_run *run, const hs_kq *kq, hs_run parts[2])
{
    parts[0] = *run;
    const uint32_t j = kq->ignore;
    if (j >= run->n)
        return 1;
    parts[0].n = j;
    parts[1] = *run;
    parts[1].x += j + 1;
    parts[1].y += j + 1;
    parts[1].r += j + 1;
    parts[1].mask = run->mask ? run->mask + j + 1 : NULL;
    parts[1].n = run->n - j - 1;
    parts[1].base = j + 1;
    return 2;
}

/* Circle tests as the kernels make them: whole vectors, padding lanes included. */
static uint64_t lanes(const hs_kernel_set *ks, size_t n)
{
    uint64_t w = ks->width > 0 ? (uint64_t)ks->width : 1u;
    return ((uint64_t)n + w - 1u) / w * w;
}

/* Closest's answer for query i: id, t (NaN on a miss), and the hit point / normal through
 * hs_hit_geometry, the scalar reference's. */
static void put_closest(const hs_closest_out *out, size_t i, const hs_kq *kq, int hit, uint32_t id,
                        float t, const hs_circles *cs, uint32_t pos)
{
    out->idx[i] = hit ? id : HS_NONE;
    out->t[i] = hit ? t : NAN;
    if (out->px || out->py || out->nx || out->ny) {
        hs_vec2 p = {NAN, NAN}, nrm = {NAN, NAN};
        if (hit)
            hs_hit_geometry(kq, cs->x[pos], cs->y[pos], t, &p, &nrm);
        if (out->px)
            out->px[i] = p.x;
        if (out->py)
            out->py[i] = p.y;
        if (out->nx)
            out->nx[i] = nrm.x;
        if (out->ny)
            out->ny[i] = nrm.y;
    }
}

/* Query i's closest hit, written to out; its tests and invalidity added to tally. */
static inline void brute_closest_one(const hs_circles *cs, const hs_queries *qs,
                                     const hs_batch_setup *b, const hs_run *run, uint64_t per_query,
                                     const hs_closest_out *out, size_t i, hs_tally *tally)
{
    hs_kq kq;
    float t = INFINITY;
    uint32_t id = HS_NONE, pos = HS_NONE;
    int hit = 0;
    if (hs_prep_query(qs, i, b->sem, &kq)) {
        if (cs->n > 0 && !hs_query_mask_none(kq.mask)) {
            tally->tests += per_query;
            hs_run parts[2];
            for (int k = 0, n = runs_without(run, &kq, parts); k < n; k++)
                b->ks->closest(&kq, &parts[k], &t, &id, &pos);
            hit = id != HS_NONE;
        }
    } else {
        tally->invalid++;
        tally->first = i < tally->first ? i : tally->first;
    }
    put_closest(out, i, &kq, hit, id, t, cs, pos);
}

/* Query i's any (hit[i]) or count (count[i]); its tests and invalidity added to tally. */
static inline void brute_any_or_count_one(const hs_circles *cs, const hs_queries *qs,
                                          const hs_batch_setup *b, const hs_run *run,
                                          uint64_t per_query, int counting, uint8_t *hit,
                                          uint32_t *count, size_t i, hs_tally *tally);

/* A batch's chunks of b->chunk queries on the team: closest (out set, counting -1) or any /
 * count. */
typedef struct brute_job {
    const hs_circles *cs;
    const hs_queries *qs;
    const hs_batch_setup *b;
    const hs_run *run;
    uint64_t per_query;
    const hs_closest_out *out;
    int counting;
    uint8_t *hit;
    uint32_t *count;
    hs_par_tally sum;
} brute_job;

static void brute_chunk(void *ctx, size_t k, int slot)
{
    brute_job *j = (brute_job *)ctx;
    const size_t n = j->qs->count, lo = k * j->b->chunk;
    const size_t hi = n - lo > j->b->chunk ? lo + j->b->chunk : n;
    hs_tally t = HS_TALLY_INIT;
    (void)slot;
    for (size_t i = lo; i < hi; i++)
        if (j->out)
            brute_closest_one(j->cs, j->qs, j->b, j->run, j->per_query, j->out, i, &t);
        else
            brute_any_or_count_one(j->cs, j->qs, j->b, j->run, j->per_query, j->counting, j->hit,
                                   j->count, i, &t);
    hs_par_tally_add(&j->sum, &t);
}

static hs_status brute_team(brute_job *j)
{
    hs_par_tally_init(&j->sum);
    hs_par_for(&j->b->par, (j->qs->count + j->b->chunk - 1) / j->b->chunk, brute_chunk, j);
    const hs_tally total = hs_par_tally_get(&j->sum);
    return hs_batch_end(j->b, &total);
}

/* One thread never synchronises: the batch is answered in one loop. */
hs_status hs_brute_closest(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                           hs_closest_out out)
{
    if (cs == NULL)
        return HS_E_NULL;
    hs_batch_setup b;
    hs_status s = hs_batch_begin(qs, opts, cs->n, &b);
    if (s != HS_OK)
        return s;
    if (qs->count > 0 && (out.idx == NULL || out.t == NULL))
        return HS_E_NULL;
    if (out.kind != NULL && qs->count > 0) /* a set of circles only: every answer is a circle's */
        memset(out.kind, HS_KIND_CIRCLE, qs->count);
    const hs_run run = whole_run(cs);
    const uint64_t per_query = lanes(b.ks, cs->n);
    hs_tally total = HS_TALLY_INIT;
    if (b.threads <= 1) {
        for (size_t i = 0; i < qs->count; i++)
            brute_closest_one(cs, qs, &b, &run, per_query, &out, i, &total);
        return hs_batch_end(&b, &total);
    }
    brute_job j = {cs, qs, &b, &run, per_query, &out, -1, NULL, NULL, {0, 0, 0}};
    return brute_team(&j);
}

/* Query i's any (hit[i]) or count (count[i]); its tests and invalidity added to tally. */
static inline void brute_any_or_count_one(const hs_circles *cs, const hs_queries *qs,
                                          const hs_batch_setup *b, const hs_run *run,
                                          uint64_t per_query, int counting, uint8_t *hit,
                                          uint32_t *count, size_t i, hs_tally *tally)
{
    hs_kq kq;
    uint32_t c = 0;
    if (hs_prep_query(qs, i, b->sem, &kq)) {
        if (cs->n > 0 && !hs_query_mask_none(kq.mask)) {
            tally->tests += per_query;
            hs_run parts[2];
            for (int k = 0, n = runs_without(run, &kq, parts); k < n; k++)
                c += counting ? (uint32_t)b->ks->count(&kq, &parts[k])
                              : (uint32_t)(c == 0 && b->ks->any(&kq, &parts[k]) != 0);
        }
    } else {
        tally->invalid++;
        tally->first = i < tally->first ? i : tally->first;
    }
    if (counting)
        count[i] = c;
    else
        hit[i] = (uint8_t)c;
}

/* any and count differ only in the kernel and the output's element type. */
static hs_status brute_any_or_count(const hs_circles *cs, const hs_queries *qs,
                                    const hs_batch_opts *opts, int counting, uint8_t *hit,
                                    uint32_t *count)
{
    if (cs == NULL)
        return HS_E_NULL;
    hs_batch_setup b;
    hs_status s = hs_batch_begin(qs, opts, cs->n, &b);
    if (s != HS_OK)
        return s;
    if (qs->count > 0 && (counting ? count == NULL : hit == NULL))
        return HS_E_NULL;
    const hs_run run = whole_run(cs);
    const uint64_t per_query = lanes(b.ks, cs->n);
    hs_tally total = HS_TALLY_INIT;
    if (b.threads <= 1) {
        for (size_t i = 0; i < qs->count; i++)
            brute_any_or_count_one(cs, qs, &b, &run, per_query, counting, hit, count, i, &total);
        return hs_batch_end(&b, &total);
    }
    brute_job j = {cs, qs, &b, &run, per_query, NULL, counting, hit, count, {0, 0, 0}};
    return brute_team(&j);
}

hs_status hs_brute_any(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                       uint8_t *hit)
{
    return brute_any_or_count(cs, qs, opts, 0, hit, NULL);
}

hs_status hs_brute_count(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                         uint32_t *count)
{
    return brute_any_or_count(cs, qs, opts, 1, NULL, count);
}

/* ---- All hits ------------------------------------------------------------------------------ */

typedef struct brute_call {
    const hs_circles *cs;
    const hs_kernel_set *ks;
    const hs_queries *qs;
    hs_semantics sem;
} brute_call;

/* One query's hits appended straight into the thread's buffer. The kernel reports how many it
 * found even when they did not fit, so a full buffer costs one rescan after a geometric grow
 * (O(log hits) times per thread and batch), never a guess. */
static hs_status brute_hits(const brute_call *c, const hs_kq *kq, hs_hitbuf *buf, uint64_t *tests)
{
    const hs_run whole = whole_run(c->cs);
    if (c->cs->n == 0 || hs_query_mask_none(kq->mask))
        return HS_OK;
    *tests += lanes(c->ks, c->cs->n);
    hs_run parts[2];
    for (int k = 0, n = runs_without(&whole, kq, parts); k < n; k++) {
        const hs_run *run = &parts[k];
        if (buf->cap - buf->len < 64 && hs_hitbuf_reserve(buf, 64) != HS_OK)
            return HS_E_NOMEM;
        size_t room = buf->cap - buf->len;
        size_t found = c->ks->all(kq, run, buf->id + buf->len, buf->t + buf->len, room);
        if (found > room) {
            if (hs_hitbuf_reserve(buf, found) != HS_OK)
                return HS_E_NOMEM;
            /* not counted in tests: whether a retry happens depends on how full this thread's
             * buffer was, and stats must not depend on the thread count */
            found = c->ks->all(kq, run, buf->id + buf->len, buf->t + buf->len, found);
        }
        buf->len += found;
    }
    return HS_OK;
}

/* Queries lo .. hi-1 for hs_all_hits (hs_hits_range_fn). */
static hs_status brute_hits_range(const void *ctx, size_t lo, size_t hi, int tid, hs_hitbuf *buf,
                                  uint32_t *count, hs_tally *tally)
{
    const brute_call *c = ctx;
    (void)tid; /* brute force keeps no per-thread state */
    for (size_t i = lo; i < hi; i++) {
        const size_t before = buf->len;
        hs_kq kq;
        if (hs_prep_query(c->qs, i, c->sem, &kq)) {
            if (brute_hits(c, &kq, buf, &tally->tests) != HS_OK) {
                buf->len = before;
                return HS_E_NOMEM;
            }
        } else {
            tally->invalid++;
            tally->first = i < tally->first ? i : tally->first;
        }
        count[i] = (uint32_t)(buf->len - before); /* at most the circle count */
    }
    return HS_OK;
}

/* Into out, or with place into the caller's arrays. */
static hs_status brute_all(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                           hs_hits *out, const hs_all_place *place)
{
    if (cs == NULL)
        return HS_E_NULL;
    hs_wsref w;
    hs_status s = hs_ws_open(opts, &w);
    if (s != HS_OK)
        return s;
    hs_batch_setup b;
    if (out == NULL && place == NULL)
        s = HS_E_NULL;
    else
        s = hs_batch_begin(qs, opts, cs->n, &b);
    if (s == HS_OK) {
        const brute_call c = {cs, b.ks, qs, b.sem};
        s = hs_all_hits(&b, qs->count, brute_hits_range, &c, w.ws, NULL, out, place);
    }
    hs_ws_close(&w);
    return s;
}

hs_status hs_brute_all(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                       hs_hits *out)
{
    if (out != NULL)
        memset(out, 0, sizeof *out);
    return brute_all(cs, qs, opts, out, NULL);
}

hs_status hs_brute_all_into(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                            hs_hits_place_fn place, void *ctx)
{
    if (place == NULL)
        return HS_E_NULL;
    const hs_all_place p = {place, ctx};
    return brute_all(cs, qs, opts, NULL, &p);
}
