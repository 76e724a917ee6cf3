/* SPDX-License-Identifier: MIT */
/* The functions the JavaScript package calls, exported from the WebAssembly module: the
 * library's calls on the layouts JavaScript hands over (x, y, r triples; ax, ay, bx, by
 * quadruples; results as the typed arrays index.js returns). One thread: the module's state
 * (a query buffer, a workspace, the last all-hits and pairs results) is shared by every call.
 *
 * Every function returns an hs_status; what else it answers goes to hs_web_ret()'s words. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/hitscan.h"
#include "hitscan_web.h"

enum { HS_WEB_CLOSEST = 0, HS_WEB_ANY = 1, HS_WEB_COUNT = 2, HS_WEB_ALL = 3 };

static uint32_t ret[16]; /* hs_web_ret() */

/* The queries' (or circles') structure of arrays, grown as needed, kept between calls. */
static float *soa;
static size_t soa_cap; /* floats */
static hs_workspace *ws;
static int32_t *hit_query; /* all-hits: the query of each hit */
static size_t hit_query_cap;
static hs_pairs last_pairs;
static hs_hits last_hits; /* all-hits: the workspace's arrays, or (periodic, moving) its own */
static hs_swept_pairs last_swept;
static float *disp; /* moving circles' displacements: dx then dy, 2 n floats */
static size_t disp_cap;

uint32_t *HS_WEB(hs_web_ret)(void) { return ret; }

void *HS_WEB(hs_web_alloc)(size_t bytes) { return aligned_alloc(16, (bytes + 15) & ~(size_t)15); }

void HS_WEB(hs_web_free)(void *p) { free(p); }

const char *HS_WEB(hs_web_status_string)(int s) { return hs_status_string((hs_status)s); }

const char *HS_WEB(hs_web_version)(void) { return hs_version(); }

int HS_WEB(hs_web_deterministic)(void) { return HS_DETERMINISTIC; }

/* The name of a level (0: the level HS_ISA_AUTO resolves to), or NULL past the last. */
const char *HS_WEB(hs_web_isa_name)(int isa)
{
    if (isa < 0 || isa >= HS_ISA_COUNT)
        return NULL;
    return hs_isa_name(isa == HS_ISA_AUTO ? hs_isa_resolve(HS_ISA_AUTO) : (hs_isa)isa);
}

int HS_WEB(hs_web_isa_supported)(int isa) { return hs_isa_supported((hs_isa)isa); }

/* At least n floats in each of k arrays of the scratch; NULL when out of memory. */
static float *scratch(size_t n, size_t k)
{
    if (n > SIZE_MAX / sizeof(float) / (k + 1))
        return NULL;
    if (n * k > soa_cap || !soa) { /* never NULL: n = 0 is not out of memory */
        size_t cap = n * k + n * k / 2 + 16;
        float *p = realloc(soa, cap * sizeof(float));
        if (!p)
            return NULL;
        soa = p;
        soa_cap = cap;
    }
    return soa;
}

void hs_web_split(const float *rows, size_t n, size_t width, float *out)
{
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < width; c++)
            out[c * n + i] = rows[width * i + c];
}

/* x, y, r triples into three arrays of the scratch. */
static float *split_xyr(const float *xyr, size_t n)
{
    float *s = scratch(n, 3);
    if (s)
        hs_web_split(xyr, n, 3, s);
    return s;
}

/* A validated circle set from n triples (mask: NULL or n words). ret[0]: the set, ret[1]: the
 * first bad circle. */
int HS_WEB(hs_web_circles_create)(const float *xyr, const uint32_t *mask, size_t n)
{
    float *s = split_xyr(xyr, n);
    if (!s)
        return HS_E_NOMEM;
    hs_circles *cs = NULL;
    size_t bad = (size_t)-1;
    hs_status st = hs_circles_create(s, s + n, s + 2 * n, mask, n, &cs, &bad);
    ret[0] = (uint32_t)(uintptr_t)cs;
    ret[1] = (uint32_t)bad;
    return st;
}

void HS_WEB(hs_web_circles_destroy)(hs_circles *cs) { hs_circles_destroy(cs); }

/* Circle i of the set: x, y, r as floats in ret[0 .. 2]. */
void HS_WEB(hs_web_circles_at)(const hs_circles *cs, size_t i)
{
    const float v[3] = {hs_circles_x(cs)[i], hs_circles_y(cs)[i], hs_circles_r(cs)[i]};
    memcpy(ret, v, sizeof v);
}

size_t HS_WEB(hs_web_circles_count)(const hs_circles *cs) { return hs_circles_count(cs); }

/* The first circle of cs that the box of o refuses ((size_t)-1 when it is the box or the cell
 * size that is refused): found by a rebuild from the set's arrays on an empty grid of o. */
static size_t box_refused(const hs_circles *cs, const hs_grid_opts *o)
{
    static const float none[1] = {0.0f};
    hs_circles *empty = NULL;
    hs_grid *g = NULL;
    size_t bad = (size_t)-1;
    if (hs_circles_borrow(none, none, none, NULL, 0, &empty, NULL) == HS_OK &&
        hs_grid_build(empty, o, &g) == HS_OK)
        (void)hs_grid_rebuild_from(g, hs_circles_x(cs), hs_circles_y(cs), hs_circles_r(cs),
                                   hs_circles_mask(cs), hs_circles_count(cs), &bad);
    hs_grid_destroy(g);
    hs_circles_destroy(empty);
    return bad;
}

/* A grid of the set (cell_size 0: chosen by the library; periodic: hs_grid_opts.periodic, with
 * the box [x0, x1) x [y0, y1)) and the walls (NULL: none). ret[0]: the grid, ret[1]: a circle
 * the box refuses, ret[2]: 1 when the walls were refused. */
int HS_WEB(hs_web_grid_build)(const hs_circles *cs, float cell_size, unsigned periodic, float x0,
                              float y0, float x1, float y1, const hs_walls *walls)
{
    hs_grid_opts o;
    memset(&o, 0, sizeof o);
    o.cell_size = cell_size;
    o.threads = 1;
    o.periodic = periodic;
    o.box.min.x = x0;
    o.box.min.y = y0;
    o.box.max.x = x1;
    o.box.max.y = y1;
    hs_grid *g = NULL;
    hs_status st = hs_grid_build(cs, &o, &g);
    ret[2] = 0;
    if (st == HS_OK && walls && (st = hs_grid_set_walls(g, walls)) != HS_OK) {
        ret[2] = 1;
        hs_grid_destroy(g);
        g = NULL;
    }
    ret[0] = (uint32_t)(uintptr_t)g;
    ret[1] = UINT32_MAX;
    if (st == HS_E_BOX) /* the box refuses a circle: which one, as a rebuild names it */
        ret[1] = (uint32_t)box_refused(cs, &o);
    return st;
}

/* Rebuilt in place from n triples, or from a set when xyr is NULL. ret[1]: the first bad
 * circle. */
int HS_WEB(hs_web_grid_rebuild)(hs_grid *g, const hs_circles *cs, const float *xyr,
                                const uint32_t *mask, size_t n)
{
    ret[1] = UINT32_MAX;
    if (!xyr) {
        hs_status st = hs_grid_rebuild(g, cs);
        size_t bad = (size_t)-1;
        if (st == HS_E_BOX) /* refused again, the grid unchanged: which circle */
            (void)hs_grid_rebuild_from(g, hs_circles_x(cs), hs_circles_y(cs), hs_circles_r(cs),
                                       hs_circles_mask(cs), hs_circles_count(cs), &bad);
        ret[1] = (uint32_t)bad;
        return st;
    }
    float *s = split_xyr(xyr, n);
    if (!s)
        return HS_E_NOMEM;
    size_t bad = (size_t)-1;
    hs_status st = hs_grid_rebuild_from(g, s, s + n, s + 2 * n, mask, n, &bad);
    ret[1] = (uint32_t)bad;
    return st;
}

void HS_WEB(hs_web_grid_destroy)(hs_grid *g) { hs_grid_destroy(g); }

size_t HS_WEB(hs_web_grid_circle_count)(const hs_grid *g) { return hs_grid_circle_count(g); }

size_t HS_WEB(hs_web_grid_bytes)(const hs_grid *g) { return hs_grid_bytes(g); }

float HS_WEB(hs_web_grid_cell_size)(const hs_grid *g) { return hs_grid_cell_size(g); }

/* The grid's periodic axes (0: none); its box's x0, y0, x1, y1 as floats in ret[0..3]. */
unsigned HS_WEB(hs_web_grid_periodic)(const hs_grid *g)
{
    hs_aabb box = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    const unsigned axes = hs_grid_periodic(g, &box);
    const float v[4] = {box.min.x, box.min.y, box.max.x, box.max.y};
    memcpy(ret, v, sizeof v);
    return axes;
}

/* n (dx, dy) pairs into the two arrays of disp; NULL when out of memory. */
static float *split_disp(const float *dxy, size_t n)
{
    if (n > SIZE_MAX / sizeof(float) / 4)
        return NULL;
    if (2 * n > disp_cap || !disp) {
        float *p = realloc(disp, (2 * n + 1) * sizeof(float));
        if (!p)
            return NULL;
        disp = p;
        disp_cap = 2 * n + 1;
    }
    for (size_t i = 0; i < n; i++) {
        disp[i] = dxy[2 * i];
        disp[n + i] = dxy[2 * i + 1];
    }
    return disp;
}

/* kind 0: segment t in [0, 1]; 1: ray t >= 0; 2: line, every t */
static float kind_tmin(int kind) { return kind == 2 ? -INFINITY : 0.0f; }
static float kind_tmax(int kind) { return kind == 0 ? 1.0f : INFINITY; }

/* Query i of the quadruples as the library sees it. */
static hs_query query_of(const float *q4, size_t i, int kind, const float *thick, float thick_all)
{
    const float *p = q4 + 4 * i;
    hs_query q = {{p[0], p[1]}, {p[2] - p[0], p[3] - p[1]}, kind_tmin(kind), kind_tmax(kind), 0};
    q.q = thick ? thick[i] : thick_all;
    return q;
}

/* Interleaved (x, y) pairs from two arrays. */
static void interleave(float *out, const float *x, const float *y, size_t m)
{
    for (size_t i = 0; i < m; i++) {
        out[2 * i] = x[i];
        out[2 * i + 1] = y[i];
    }
}

/* What all-hits needs of this module's memory for `hits` hits of m queries: the hit buffer
 * (grown by doubling from 64), the result (index, t, kind), its offsets and hit_query. */
static double all_bytes(double hits, size_t m)
{
    double cap = 64.0;
    while (cap < hits)
        cap *= 2.0;
    return 8.0 * cap + 13.0 * hits + 8.0 * (double)m;
}

static hs_status count_hits(const hs_grid *g, const hs_circles *cs, const hs_queries *qs,
                            const hs_batch_opts *o, uint32_t *count, double *total)
{
    hs_status st = g ? hs_grid_count_hits(g, qs, o, count) : hs_brute_count(cs, qs, o, count);
    *total = 0.0;
    for (size_t i = 0; i < qs->count; i++)
        *total += count[i];
    return st;
}

/* Whether an all-hits batch cannot fit the module's 4 GiB, found before it is answered (the
 * walk would fill the memory first, then fail). Up to 1024 evenly spaced queries are counted
 * (spare: m + 7168 floats); when their rate puts the result past a quarter of the memory, the
 * whole batch is counted, which costs less than the walk, and refused if its hits cannot fit.
 * *hits: the hits counted, 0 when not counted. */
static int all_too_big(const hs_grid *g, const hs_circles *cs, const hs_queries *qs,
                       const hs_batch_opts *o, float *spare, double *hits)
{
    const size_t m = qs->count,
                 n = g ? hs_grid_circle_count(g) + hs_grid_wall_count(g) : hs_circles_count(cs);
    const double space = 4294967296.0;
    *hits = 0.0;
    if (m == 0 || all_bytes((double)m * (double)n, m) <= space / 4)
        return 0;
    const size_t k = m < 1024 ? m : 1024;
    float *ax = spare, *ay = ax + k, *dx = ay + k, *dy = dx + k, *q = dy + k;
    uint32_t *mask = (uint32_t *)(q + k), *count = mask + k;
    for (size_t j = 0; j < k; j++) {
        const size_t i = j * m / k;
        ax[j] = qs->ax[i];
        ay[j] = qs->ay[i];
        dx[j] = qs->dx[i];
        dy[j] = qs->dy[i];
        q[j] = qs->q ? qs->q[i] : 0.0f;
        mask[j] = qs->mask ? qs->mask[i] : 0u;
    }
    hs_queries sample = *qs;
    sample.ax = ax;
    sample.ay = ay;
    sample.dx = dx;
    sample.dy = dy;
    sample.q = qs->q ? q : NULL;
    sample.mask = qs->mask ? mask : NULL;
    sample.ignore = NULL; /* an estimate: at most one hit more per query */
    sample.count = k;
    double seen;
    hs_status st = count_hits(g, cs, &sample, o, count, &seen);
    if ((st != HS_OK && st != HS_E_INVALID_QUERY) ||
        all_bytes(seen * (double)m / (double)k, m) <= space / 4)
        return 0;
    st = count_hits(g, cs, qs, o, (uint32_t *)spare, hits);
    return (st == HS_OK || st == HS_E_INVALID_QUERY) && all_bytes(*hits, m) > space;
}

/* One batch of m quadruples q4 against a grid g (or by brute force over cs when g is NULL).
 * kind 0..2 (segment, ray, line); sem an hs_semantics; thick / qmask: per-query arrays or
 * NULL for thick_all / mask_all. Outputs by mode:
 *   closest: out0 index (m words, UINT32_MAX on a miss), out1 t (m), out2 points and out3
 *            normals (2 m each, x, y pairs; NULL: not computed), hit_kind (m bytes, HS_KIND_*);
 *   any: out0 m bytes; count: out0 m words;
 *   all: ret[3] hits, ret[4] their queries, ret[5] circles or walls, ret[6] entry times,
 *        ret[8] kinds (0: every hit a circle's), valid until hs_web_all_free or the next call.
 * dxy: NULL, or the grid's circles moving by (dx, dy) pairs over the queries' interval
 * (hs_batch_opts.disp_x / disp_y; grid only). ignore: NULL, or per query one circle index it
 * never reports (hs_queries.ignore; UINT32_MAX: none).
 * ret[0]: the invalid queries (answered as misses), ret[1]: the first, ret[2]: its status.
 * All-hits refused before it is answered (HS_E_NOMEM): ret[7] 1, ret[3] / ret[4] the hits
 * (low and high words). */
int HS_WEB(hs_web_query)(int mode, const hs_grid *g, const hs_circles *cs, const float *q4,
                         size_t m, int kind, int sem, int isa, const float *thick, float thick_all,
                         const uint32_t *qmask, uint32_t mask_all, void *out0, void *out1,
                         float *out2, float *out3, const float *dxy, uint8_t *hit_kind,
                         const uint32_t *ignore)
{
    hs_hits_free(&last_hits);
    if (kind < 0 || kind > 2 || mode < HS_WEB_CLOSEST || mode > HS_WEB_ALL)
        return HS_E_RANGE;
    if (!ws && hs_workspace_create(&ws) != HS_OK)
        return HS_E_NOMEM;
    const size_t k = mode == HS_WEB_CLOSEST && (out2 || out3) ? 8 : 4;
    /* all: room for all_too_big's sample and counts after the queries */
    float *s = mode == HS_WEB_ALL ? scratch(m + 2048, 5) : scratch(m, k);
    ret[7] = 0;
    if (!s)
        return HS_E_NOMEM;
    float *ax = s, *ay = s + m, *dx = s + 2 * m, *dy = s + 3 * m;
    for (size_t i = 0; i < m; i++) {
        ax[i] = q4[4 * i];
        ay[i] = q4[4 * i + 1];
        dx[i] = q4[4 * i + 2] - q4[4 * i];
        dy[i] = q4[4 * i + 3] - q4[4 * i + 1];
    }
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, m);
    qs.tmin_all = kind_tmin(kind);
    qs.tmax_all = kind_tmax(kind);
    qs.q = thick;
    qs.q_all = thick_all;
    qs.mask = qmask;
    qs.mask_all = mask_all;
    qs.ignore = ignore;
    hs_batch_stats stats = {0, (size_t)-1, 0};
    hs_batch_opts o = hs_batch_opts_default();
    o.sem = (hs_semantics)sem;
    o.isa = (hs_isa)isa;
    o.threads = 1;
    o.stats = &stats;
    o.ws = ws;
    if (dxy) {
        const size_t n = g ? hs_grid_circle_count(g) : 0;
        if (!g)
            return HS_E_NULL;
        if (!split_disp(dxy, n))
            return HS_E_NOMEM;
        o.disp_x = disp;
        o.disp_y = disp + n;
    }
    hs_status st;
    switch (mode) {
    case HS_WEB_CLOSEST: {
        float *px = s + 4 * m, *py = s + 5 * m, *nx = s + 6 * m, *ny = s + 7 * m;
        hs_closest_out out = {out0, out1, NULL, NULL, NULL, NULL, hit_kind};
        if (hit_kind) /* brute force leaves it */
            memset(hit_kind, HS_KIND_CIRCLE, m);
        if (out2) {
            out.px = px;
            out.py = py;
        }
        if (out3) {
            out.nx = nx;
            out.ny = ny;
        }
        st = g ? hs_grid_closest(g, &qs, &o, out) : hs_brute_closest(cs, &qs, &o, out);
        if (out2)
            interleave(out2, px, py, m);
        if (out3)
            interleave(out3, nx, ny, m);
        break;
    }
    case HS_WEB_ANY:
        st = g ? hs_grid_any(g, &qs, &o, out0) : hs_brute_any(cs, &qs, &o, out0);
        break;
    case HS_WEB_COUNT:
        st = g ? hs_grid_count_hits(g, &qs, &o, out0) : hs_brute_count(cs, &qs, &o, out0);
        break;
    default: {
        double hits;
        o.stats = NULL;
        if (all_too_big(g, cs, &qs, &o, s + 4 * m, &hits)) {
            ret[3] = (uint32_t)fmod(hits, 4294967296.0);
            ret[4] = (uint32_t)(hits / 4294967296.0);
            ret[7] = 1;
            return HS_E_NOMEM;
        }
        o.stats = &stats;
        hs_hits h;
        st = g ? hs_grid_all(g, &qs, &o, &h) : hs_brute_all(cs, &qs, &o, &h);
        if (st != HS_OK && st != HS_E_INVALID_QUERY)
            break;
        if (h.total > hit_query_cap) {
            free(hit_query);
            hit_query_cap = h.total + h.total / 2;
            hit_query = malloc(hit_query_cap * sizeof *hit_query);
            if (!hit_query) {
                hit_query_cap = 0;
                hs_hits_free(&h);
                return HS_E_NOMEM;
            }
        }
        for (size_t i = 0; i < m; i++)
            for (size_t e = h.offsets[i]; e < h.offsets[i + 1]; e++)
                hit_query[e] = (int32_t)i;
        ret[3] = (uint32_t)h.total;
        ret[4] = (uint32_t)(uintptr_t)hit_query;
        ret[5] = (uint32_t)(uintptr_t)h.idx;
        ret[6] = (uint32_t)(uintptr_t)h.t;
        ret[8] = (uint32_t)(uintptr_t)h.kind;
        last_hits = h; /* a periodic grid's and moving circles' arrays are h's own */
        break;
    }
    }
    ret[0] = (uint32_t)stats.invalid;
    ret[1] = (uint32_t)stats.first_invalid;
    ret[2] = stats.invalid ? (uint32_t)-hs_query_validate(
                                 query_of(q4, stats.first_invalid, kind, thick, thick_all))
                           : 0;
    return st;
}

/* Frees the arrays of the last all-hits answer that are not the workspace's. */
void HS_WEB(hs_web_all_free)(void) { hs_hits_free(&last_hits); }

/* One closest query's arguments and answer, for scripts that cast one at a time: kept here
 * so that a call allocates nothing (the batch call runs on the module's workspace). */
static struct {
    float ax, ay, dx, dy;
    uint32_t idx;
    float t, px, py, nx, ny;
    uint32_t kind;   /* HS_KIND_* of idx */
    int32_t reason;  /* an invalid query's hs_query_validate status */
    uint32_t ignore; /* the circle it never reports (UINT32_MAX: none) */
} one;

/* Where the answer of hs_web_closest_one is: idx (UINT32_MAX on a miss), then t, px, py, nx,
 * ny (floats), then kind. */
void *HS_WEB(hs_web_one)(void) { return &one.idx; }

int HS_WEB(hs_web_one_reason)(void) { return one.reason; }

/* The closest circle to one query A -> B of kind 0..2 against g, as hs_web_query does it for a
 * batch of one (details: the hit point and normal too; ignore: a circle it never reports,
 * UINT32_MAX for none). An invalid query is answered as a miss
 * with HS_E_INVALID_QUERY, its reason in one.reason. */
int HS_WEB(hs_web_closest_one)(const hs_grid *g, float ax, float ay, float bx, float by, int kind,
                               int sem, int isa, float thick, uint32_t mask, int details,
                               uint32_t ignore)
{
    if (kind < 0 || kind > 2)
        return HS_E_RANGE;
    if (!ws && hs_workspace_create(&ws) != HS_OK)
        return HS_E_NOMEM;
    one.ax = ax;
    one.ay = ay;
    one.dx = bx - ax;
    one.dy = by - ay;
    hs_queries qs = hs_queries_segments(&one.ax, &one.ay, &one.dx, &one.dy, 1);
    qs.tmin_all = kind_tmin(kind);
    qs.tmax_all = kind_tmax(kind);
    qs.q_all = thick;
    qs.mask_all = mask;
    one.ignore = ignore;
    qs.ignore = &one.ignore;
    hs_batch_opts o = hs_batch_opts_default();
    o.sem = (hs_semantics)sem;
    o.isa = (hs_isa)isa;
    o.threads = 1;
    o.ws = ws;
    uint8_t hit_kind = HS_KIND_CIRCLE;
    hs_closest_out out = {&one.idx, &one.t, NULL, NULL, NULL, NULL, &hit_kind};
    if (details) {
        out.px = &one.px;
        out.py = &one.py;
        out.nx = &one.nx;
        out.ny = &one.ny;
    }
    hs_status st = hs_grid_closest(g, &qs, &o, out);
    one.kind = hit_kind;
    if (st == HS_E_INVALID_QUERY) {
        float q4[4] = {ax, ay, bx, by};
        one.reason = hs_query_validate(query_of(q4, 0, kind, NULL, thick));
    }
    return st;
}

/* A pair call's answer: ret[0] the count, ret[1 .. 8] its arrays. */
static void ret_arrays(size_t count, const void *const arrays[8])
{
    ret[0] = (uint32_t)count;
    for (int k = 0; k < 8; k++)
        ret[1 + k] = (uint32_t)(uintptr_t)arrays[k];
}

/* Every pair of circles of g whose gap is at most skin (0: overlapping pairs) and that the
 * filter passes (collide: one word per circle, NULL for none), i < j, by i then j, with the
 * optional outputs (hs_pair_opts.outputs: HS_PAIRS_SHIFTS, _CONTACTS). ret[0]: the count,
 * ret[1 .. 8]: i, j, sx, sy, nx, ny, distance, gap (0 when not asked for), valid until
 * hs_web_pairs_free. */
int HS_WEB(hs_web_pairs)(const hs_grid *g, float skin, unsigned outputs, const uint32_t *collide)
{
    hs_pairs_free(&last_pairs);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    const hs_pair_opts po = {skin, outputs};
    hs_status st = hs_grid_pairs_filtered(g, &po, collide, &o, &last_pairs);
    const hs_pairs *p = &last_pairs;
    const void *arrays[8] = {p->i, p->j, p->sx, p->sy, p->nx, p->ny, p->distance, p->gap};
    ret_arrays(p->count, arrays);
    return st;
}

void HS_WEB(hs_web_pairs_free)(void) { hs_pairs_free(&last_pairs); }

/* The swept pairs of g's circles moving by n (dx, dy) pairs that the filter passes (collide:
 * one word per circle, NULL for none; hs_grid_swept_pairs_filtered). ret[0]: the count,
 * ret[1 .. 8]: i, j, t, nx, ny, overlapping, sx, sy (the last two 0 unless g is periodic),
 * valid until hs_web_swept_pairs_free. */
int HS_WEB(hs_web_swept_pairs)(const hs_grid *g, const float *dxy, size_t n,
                               const uint32_t *collide)
{
    hs_swept_pairs_free(&last_swept);
    memset(&last_swept, 0, sizeof last_swept);
    memset(ret, 0, 9 * sizeof ret[0]);
    if (n != hs_grid_circle_count(g))
        return HS_E_RANGE;
    if (!split_disp(dxy, n))
        return HS_E_NOMEM;
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    hs_status st = hs_grid_swept_pairs_filtered(g, disp, disp + n, collide, &o, &last_swept);
    const hs_swept_pairs *p = &last_swept;
    const void *arrays[8] = {p->i, p->j, p->t, p->nx, p->ny, p->overlapping, p->sx, p->sy};
    ret_arrays(p->count, arrays);
    return st;
}

void HS_WEB(hs_web_swept_pairs_free)(void)
{
    hs_swept_pairs_free(&last_swept);
    memset(&last_swept, 0, sizeof last_swept);
}

/* The circles of g overlapping the disc (x, y, r) that pass the filter (mask against their
 * masks; with collide, one word per circle, category against it), ascending, up to cap of
 * them into idx. ret[0]: how many there are. */
int HS_WEB(hs_web_overlap)(const hs_grid *g, float x, float y, float r, uint32_t mask,
                           uint32_t category, const uint32_t *collide, uint32_t *idx, size_t cap)
{
    size_t found = 0;
    hs_circle c = {x, y, r};
    hs_status st = hs_grid_overlap_circle_filtered(g, c, mask, category, collide, idx, cap, &found);
    ret[0] = (uint32_t)found;
    return st;
}

/* Gives back the memory kept between calls (query buffer, workspace, last results). */
void HS_WEB(hs_web_trim)(void)
{
    free(soa);
    soa = NULL;
    soa_cap = 0;
    free(hit_query);
    hit_query = NULL;
    hit_query_cap = 0;
    hs_pairs_free(&last_pairs);
    hs_hits_free(&last_hits);
    hs_web_swept_pairs_free();
    free(disp);
    disp = NULL;
    disp_cap = 0;
    hs_workspace_destroy(ws);
    ws = NULL;
}
