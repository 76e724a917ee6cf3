/* SPDX-License-Identifier: MIT */
/* Queries on a grid with walls: the circles' answers (query.c) merged with those of the grid
 * of the walls' pieces (wall_grid.h), which the same walk answers. closest: the least
 * (t, kind, index), a circle before a wall at equal t; any: either; count: the sum; all: both
 * hit lists merged by (t, kind, index). The walls' answers go to arrays of their own first
 * (about 8 bytes a query; all: their hit lists), then the merge. */
#include <stdlib.h>
#include <string.h>

#include "grid/query.h"
#include "grid/wall_grid.h"
#include "grid/wall_query.h"
#include "invariant.h"
#include "query_prep.h"

/* The options of the walls' walk: the caller's, without stats (the circles' call filled them),
 * displacements (walls stand still) or workspace (the circles' answers may live in it). */
static hs_batch_opts wall_opts(const hs_batch_opts *opts)
{
    hs_batch_opts o = opts ? *opts : hs_batch_opts_default();
    o.stats = NULL;
    o.ws = NULL;
    o.disp_x = o.disp_y = NULL;
    return o;
}

static int answered(hs_status s) { return s == HS_OK || s == HS_E_INVALID_QUERY; }

/* Query i's hit on wall w at t, for its point and normal (the exact test, whole wall). */
static void wall_geometry(const hs_grid *wg, const hs_queries *qs, hs_semantics sem, size_t i,
                          uint32_t w, float t, hs_closest_out out)
{
    hs_kq k;
    hs_wall_hit h;
    const hs_walls *s = wg->walls->set;
    const hs_kwall wl = {s->ax[w], s->ay[w], s->bx[w], s->by[w], s->w ? s->w[w] : 0.0f};
    /* the walk found the hit, so the query is valid and hits the wall */
    if (!hs_prep_query(qs, i, sem, &k) || !hs_wall_hits(&k, &wl, &h)) {
        HS_ASSERT(0);
        return;
    }
    const hs_vec2 n = h.normal;
    if (out.px)
        out.px[i] = k.ax + t * k.dx;
    if (out.py)
        out.py[i] = k.ay + t * k.dy;
    if (out.nx)
        out.nx[i] = n.x;
    if (out.ny)
        out.ny[i] = n.y;
}

hs_status hs_walls_merge_closest(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                                 hs_closest_out out, hs_status s)
{
    const size_t n = qs ? qs->count : 0;
    if (!answered(s) || n == 0)
        return s;
    if (out.kind)
        memset(out.kind, HS_KIND_CIRCLE, n);
    if (g->wall_grid == NULL)
        return s;
    uint32_t *wi = malloc(n * sizeof *wi);
    float *wt = malloc(n * sizeof *wt);
    hs_status sw = HS_E_NOMEM;
    if (wi && wt) {
        const hs_batch_opts o = wall_opts(opts);
        const hs_grid_out wo = {HS_GRID_CLOSEST, {.idx = wi, .t = wt}, NULL, NULL};
        sw = hs_grid_walk_plain(g->wall_grid, qs, &o, &wo);
    }
    if (answered(sw)) {
        const hs_semantics sem = opts ? opts->sem : HS_SOLID;
        for (size_t i = 0; i < n; i++) {
            if (wi[i] == HS_NONE || (out.idx[i] != HS_NONE && !(wt[i] < out.t[i])))
                continue;
            out.idx[i] = wi[i];
            out.t[i] = wt[i];
            if (out.kind)
                out.kind[i] = HS_KIND_WALL;
            if (out.px || out.py || out.nx || out.ny)
                wall_geometry(g->wall_grid, qs, sem, i, wi[i], wt[i], out);
        }
    }
    free(wi);
    free(wt);
    return answered(sw) ? s : sw;
}

hs_status hs_walls_merge_any(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                             uint8_t *hit, hs_status s)
{
    const size_t n = qs ? qs->count : 0;
    if (!answered(s) || n == 0 || g->wall_grid == NULL)
        return s;
    uint8_t *wh = malloc(n);
    hs_status sw = HS_E_NOMEM;
    if (wh) {
        const hs_batch_opts o = wall_opts(opts);
        const hs_grid_out wo = {HS_GRID_ANY, {0}, wh, NULL};
        sw = hs_grid_walk_plain(g->wall_grid, qs, &o, &wo);
    }
    for (size_t i = 0; answered(sw) && i < n; i++)
        hit[i] |= wh[i];
    free(wh);
    return answered(sw) ? s : sw;
}

hs_status hs_walls_merge_count(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                               uint32_t *count, hs_status s)
{
    const size_t n = qs ? qs->count : 0;
    if (!answered(s) || n == 0 || g->wall_grid == NULL)
        return s;
    uint32_t *wc = malloc(n * sizeof *wc);
    hs_status sw = HS_E_NOMEM;
    if (wc) {
        const hs_batch_opts o = wall_opts(opts);
        const hs_grid_out wo = {HS_GRID_COUNT, {0}, NULL, wc};
        sw = hs_grid_walk_plain(g->wall_grid, qs, &o, &wo);
    }
    for (size_t i = 0; answered(sw) && i < n; i++)
        count[i] += wc[i];
    free(wc);
    return answered(sw) ? s : sw;
}

/* ---- All hits ---------------------------------------------------------------------------- */

/* Whether circle hit (tc, ic) comes before wall hit (tw, iw): t (-0 as +0), circles first. */
static int circle_first(float tc, float tw) { return tc + 0.0f <= tw + 0.0f; }

/* The two CSR lists merged into the caller's arrays d (each optional), query by query. */
static void merge_rows(const hs_hits *c, const hs_hits *w, size_t n, const hs_hits_into *d,
                       size_t *offsets, uint32_t *idx, float *t, uint8_t *kind)
{
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (offsets)
            offsets[i] = at;
        if (d && d->offsets)
            d->offsets[i] = (int64_t)at;
        size_t a = c->offsets[i], b = w->offsets[i];
        const size_t ae = c->offsets[i + 1], be = w->offsets[i + 1];
        for (; a < ae || b < be; at++) {
            const int wall = a == ae || (b < be && !circle_first(c->t[a], w->t[b]));
            const uint32_t id = wall ? w->idx[b] : c->idx[a];
            const float ti = wall ? w->t[b++] : c->t[a++];
            if (idx)
                idx[at] = id;
            if (t)
                t[at] = ti;
            if (kind)
                kind[at] = wall ? HS_KIND_WALL : HS_KIND_CIRCLE;
            if (d && d->query)
                d->query[at] = (int64_t)i;
            if (d && d->idx)
                d->idx[at] = id;
            if (d && d->t)
                d->t[at] = ti;
            if (d && d->kind)
                d->kind[at] = wall ? HS_KIND_WALL : HS_KIND_CIRCLE;
        }
    }
    if (offsets)
        offsets[n] = at;
    if (d && d->offsets)
        d->offsets[n] = (int64_t)at;
}

hs_status hs_walls_all(const hs_grid *g, const hs_queries *qs, const hs_batch_opts *opts,
                       hs_hits *out, const hs_all_place *place,
                       hs_status (*circles)(const hs_grid *, const hs_queries *,
                                            const hs_batch_opts *, hs_hits *))
{
    hs_hits c, w;
    memset(&c, 0, sizeof c);
    memset(&w, 0, sizeof w);
    /* the circles' list in memory of its own: the caller's workspace is not held across both */
    hs_batch_opts oc = opts ? *opts : hs_batch_opts_default();
    oc.ws = NULL;
    hs_status s = circles(g, qs, &oc, &c);
    if (!answered(s))
        return s;
    const hs_batch_opts ow = wall_opts(opts);
    hs_status sw = hs_grid_all_plain(g->wall_grid, qs, &ow, &w, NULL);
    if (!answered(sw)) {
        hs_hits_free(&c);
        return sw;
    }
    const size_t n = qs->count, total = c.total + w.total;
    if (place) {
        hs_hits_into d = {NULL, NULL, NULL, NULL, NULL};
        if (place->fn(place->ctx, n, total, &d) != 0)
            s = HS_E_NOMEM;
        else
            merge_rows(&c, &w, n, &d, NULL, NULL, NULL, NULL);
    } else {
        out->offsets = malloc((n + 1) * sizeof *out->offsets);
        out->idx = malloc((total ? total : 1) * sizeof *out->idx);
        out->t = malloc((total ? total : 1) * sizeof *out->t);
        out->kind = malloc(total ? total : 1);
        out->ws = NULL;
        if (!out->offsets || !out->idx || !out->t || !out->kind) {
            hs_hits_free(out);
            s = HS_E_NOMEM;
        } else {
            merge_rows(&c, &w, n, NULL, out->offsets, out->idx, out->t, out->kind);
            out->count = n;
            out->total = total;
        }
    }
    hs_hits_free(&c);
    hs_hits_free(&w);
    return s;
}
