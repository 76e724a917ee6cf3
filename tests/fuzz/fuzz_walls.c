/* SPDX-License-Identifier: MIT */
/* Fuzz target: walls beside circles (hitscan/walls.h). hs_walls_create refuses exactly the sets
 * with a bad wall and names the first; a grid with walls answers closest, any, count and all at
 * every ISA level on 1 and 2 threads as brute force over its circles (at the same level) plus
 * the exact wall test (wall_core.h) over its walls: closest the least t, circles first at an
 * equal t, its t bit for bit and a unit normal on a wall; count the sum; any count != 0; all
 * both kinds' hits, each wall's t bit for bit, in t order. A zero-length wall answers as the
 * circle test: at AVX2 and AVX-512 (not deterministic) a query in its tangency band is not
 * checked. */
#include "../batch_check.h"
#include "fuzz_input.h"
#include "query_prep.h"
#include "wall_core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define WALLS_MAX 24
#define QUERIES_MAX 24

typedef struct fz_walls {
    float ax[WALLS_MAX], ay[WALLS_MAX], bx[WALLS_MAX], by[WALLS_MAX], w[WALLS_MAX];
    uint32_t mask[WALLS_MAX];
    size_t k;
    int use_w, use_mask;
} fz_walls;

/* The first wall hs_walls_create must refuse, or k when none. */
static size_t first_bad_wall(const fz_walls *W)
{
    for (size_t i = 0; i < W->k; i++) {
        const float v[4] = {W->ax[i], W->ay[i], W->bx[i], W->by[i]};
        for (int a = 0; a < 4; a++)
            if (!isfinite(v[a]) || fabsf(v[a]) > HS_MAX_COORD)
                return i;
        if (W->use_w && !(W->w[i] >= 0.0f && W->w[i] <= HS_MAX_COORD))
            return i;
    }
    return W->k;
}

/* Whether some wall's half length plus thickness reaches a quarter of the coordinates' limit:
 * the proxies of its pieces may then lie beyond the grid's range. */
static int huge_wall(const fz_walls *W)
{
    for (size_t i = 0; i < W->k; i++) {
        const double len = hypot((double)W->bx[i] - W->ax[i], (double)W->by[i] - W->ay[i]);
        if (0.5 * len + (W->use_w ? W->w[i] : 0.0f) >= 0.25 * HS_MAX_COORD)
            return 1;
    }
    return 0;
}

/* Query i against every wall with the scalar exact test: the hits' (t, wall) in ts / ids, their
 * number returned; the least t (the first wall among equal ones) in *best / *bt. */
static size_t walls_ref(const fz_walls *W, const hs_queries *qs, size_t i, hs_semantics sem,
                        uint32_t *best, float *bt, float *ts, uint32_t *ids)
{
    hs_kq k;
    *best = HS_NONE;
    *bt = INFINITY;
    if (!hs_prep_query(qs, i, sem, &k))
        return 0;
    size_t c = 0;
    for (size_t w = 0; w < W->k; w++) {
        if (((W->use_mask ? W->mask[w] : ~0u) & k.mask) == 0u)
            continue;
        const hs_kwall wl = {W->ax[w], W->ay[w], W->bx[w], W->by[w], W->use_w ? W->w[w] : 0.0f};
        hs_wall_hit h;
        if (!hs_wall_hits(&k, &wl, &h))
            continue;
        ts[c] = h.t;
        ids[c++] = (uint32_t)w;
        if (*best == HS_NONE || h.t + 0.0f < *bt + 0.0f) {
            *bt = h.t;
            *best = (uint32_t)w;
        }
    }
    return c;
}

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Every mode of g under o against brute force over cs and the walls W; 0, or 1 with msg. */
static int check(const hs_grid *g, const hs_circles *cs, const fz_walls *W, const hs_queries *qs,
                 const hs_batch_opts *o, char *msg, size_t cap)
{
    const size_t m = qs->count;
    uint32_t gi[QUERIES_MAX], bi[QUERIES_MAX], gc[QUERIES_MAX], bc[QUERIES_MAX];
    float gt[QUERIES_MAX], bt[QUERIES_MAX], nx[QUERIES_MAX], ny[QUERIES_MAX];
    uint8_t gk[QUERIES_MAX], ga[QUERIES_MAX];
    hs_batch_opts b1 = *o;
    b1.threads = 1;
    const hs_status s0 = hs_brute_closest(cs, qs, &b1, (hs_closest_out){.idx = bi, .t = bt});
    const hs_status s[] = {
        hs_grid_closest(g, qs, o,
                        (hs_closest_out){.idx = gi, .t = gt, .nx = nx, .ny = ny, .kind = gk}),
        hs_brute_count(cs, qs, &b1, bc), hs_grid_count_hits(g, qs, o, gc),
        hs_grid_any(g, qs, o, ga)};
    hs_hits ha = {0}, hb = {0};
    const hs_status sa = hs_grid_all(g, qs, o, &ha), sb = hs_brute_all(cs, qs, &b1, &hb);
    int bad = 0;
    for (size_t c = 0; c < sizeof s / sizeof s[0]; c++)
        if (s[c] != s0 && !bad) {
            snprintf(msg, cap, "call %zu: status %d, brute closest %d", c, (int)s[c], (int)s0);
            bad = 1;
        }
    if (!bad && (sa != s0 || sb != s0)) {
        snprintf(msg, cap, "all: status %d / brute %d, closest %d", (int)sa, (int)sb, (int)s0);
        bad = 1;
    }
    /* kinds NULL: the grid has no walls (an empty set) */
    if (!bad && (s0 == HS_OK || s0 == HS_E_INVALID_QUERY) && ha.kind == NULL && ha.total > 0 &&
        W->k > 0) {
        snprintf(msg, cap, "all: no kinds for %zu hits, %zu walls", ha.total, W->k);
        bad = 1;
    }
    float wts[WALLS_MAX];
    uint32_t wids[WALLS_MAX];
    for (size_t i = 0; !bad && (s0 == HS_OK || s0 == HS_E_INVALID_QUERY) && i < m; i++) {
        uint32_t wb;
        float wt;
        const size_t nw = walls_ref(W, qs, i, o->sem, &wb, &wt, wts, wids);
        const int wall = wb != HS_NONE && (bi[i] == HS_NONE || wt + 0.0f < bt[i] + 0.0f);
        const uint32_t want = wall ? wb : bi[i];
        if (gi[i] != want || (want != HS_NONE && gk[i] != (wall ? HS_KIND_WALL : HS_KIND_CIRCLE))) {
            snprintf(msg, cap, "query %zu: closest %u kind %u, reference %u kind %d", i, gi[i],
                     gk[i], want, wall);
            bad = 1;
        } else if (want != HS_NONE && !same_bits(gt[i], wall ? wt : bt[i])) {
            snprintf(msg, cap, "query %zu: closest t %a, reference %a", i, (double)gt[i],
                     (double)(wall ? wt : bt[i]));
            bad = 1;
        } else if (wall && !(fabsf(nx[i] * nx[i] + ny[i] * ny[i] - 1.0f) < 1e-4f)) {
            snprintf(msg, cap, "query %zu: wall %u's normal (%a, %a)", i, wb, (double)nx[i],
                     (double)ny[i]);
            bad = 1;
        } else if (gc[i] != bc[i] + nw || ga[i] != (gc[i] != 0)) {
            snprintf(msg, cap, "query %zu: count %u any %u, reference %u + %zu walls", i, gc[i],
                     ga[i], bc[i], nw);
            bad = 1;
        } else if (ha.offsets[i + 1] - ha.offsets[i] != hb.offsets[i + 1] - hb.offsets[i] + nw) {
            snprintf(msg, cap, "query %zu: all %zu hits, reference %zu + %zu walls", i,
                     (size_t)(ha.offsets[i + 1] - ha.offsets[i]),
                     (size_t)(hb.offsets[i + 1] - hb.offsets[i]), nw);
            bad = 1;
        }
        /* all: the circles' hits in brute force's order, each wall once with its t */
        size_t cb = hb.offsets[i];
        for (size_t h = ha.offsets[i]; !bad && h < ha.offsets[i + 1]; h++) {
            if (h > ha.offsets[i] && !(ha.t[h - 1] + 0.0f <= ha.t[h] + 0.0f)) {
                snprintf(msg, cap, "query %zu: all's hit %zu out of t order", i, h);
                bad = 1;
            } else if (ha.kind == NULL || ha.kind[h] == HS_KIND_CIRCLE) {
                if (ha.idx[h] != hb.idx[cb] || !(ha.t[h] == hb.t[cb])) {
                    snprintf(msg, cap, "query %zu: all's circle %u t %a, brute %u t %a", i,
                             ha.idx[h], (double)ha.t[h], hb.idx[cb], (double)hb.t[cb]);
                    bad = 1;
                }
                cb++;
            } else {
                size_t f = 0;
                while (f < nw && wids[f] != ha.idx[h])
                    f++;
                if (f == nw || !same_bits(ha.t[h], wts[f])) {
                    snprintf(msg, cap, "query %zu: all's wall %u t %a not the reference's", i,
                             ha.idx[h], (double)ha.t[h]);
                    bad = 1;
                } else {
                    wids[f] = HS_NONE; /* each wall once */
                }
            }
        }
    }
    hs_hits_free(&ha);
    hs_hits_free(&hb);
    return bad;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    static fz_scene s;
    static fz_walls W;
    fz_scene_read(&f, &s, 16, QUERIES_MAX);
    memset(&W, 0, sizeof W);
    const uint8_t h = fz_u8(&f);
    W.k = fz_u8(&f) % (WALLS_MAX + 1);
    W.use_w = h & 1;
    W.use_mask = (h >> 1) & 1;
    const hs_semantics sem = s.sem | ((h >> 2) & 1 ? HS_SKIP_START : 0);
    float cell = (h >> 3) & 1 ? fabsf(fz_float(&f)) : 0.0f;
    if (!isfinite(cell))
        cell = 0.0f;
    for (size_t i = 0; i < W.k; i++) {
        W.ax[i] = fz_float(&f);
        W.ay[i] = fz_float(&f);
        /* often a wall from the last one's end, or along an axis: shared ends, collinear walls */
        const uint8_t shape = fz_u8(&f);
        if (i > 0 && (shape & 3) == 1) {
            W.ax[i] = W.bx[i - 1];
            W.ay[i] = W.by[i - 1];
        }
        W.bx[i] = (shape & 12) == 4 ? W.ax[i] : fz_float(&f);
        W.by[i] = (shape & 12) == 8 ? W.ay[i] : fz_float(&f);
        W.w[i] = W.use_w ? fz_radius(&f) : 0.0f;
        W.mask[i] = 1u << (fz_u8(&f) & 3);
    }
    char msg[512];
    hs_walls *ws = NULL;
    size_t bad = 0;
    const hs_status st = hs_walls_create(W.ax, W.ay, W.bx, W.by, W.use_w ? W.w : NULL,
                                         W.use_mask ? W.mask : NULL, W.k, &ws, &bad);
    const size_t want_bad = first_bad_wall(&W);
    if (want_bad < W.k) {
        if (st == HS_OK || ws != NULL || bad != want_bad) {
            snprintf(msg, sizeof msg, "walls: status %d index %zu, wall %zu is bad", (int)st, bad,
                     want_bad);
            fz_fail("walls", msg);
        }
        return 0;
    }
    if (st != HS_OK) {
        snprintf(msg, sizeof msg, "walls: status %d for a valid set", (int)st);
        fz_fail("walls", msg);
    }
    for (size_t j = 0; j < s.n; j++)
        if (hs_circle_validate((hs_circle){s.x[j], s.y[j], s.r[j]}) != HS_OK)
            s.x[j] = s.y[j] = 0.0f, s.r[j] = 1.0f;
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    hs_grid_opts go = {0};
    go.cell_size = cell;
    go.threads = 1;
    go.walls = ws;
    if (hs_circles_create(s.x, s.y, s.r, s.use_mask ? s.mask : NULL, s.n, &cs, NULL) != HS_OK) {
        fz_fail("walls", "circles refused");
    }
    const hs_status gs = hs_grid_build(cs, &go, &g);
    hs_walls_destroy(ws); /* the grid keeps its own copy */
    if (gs != HS_OK) {
        /* refused only for a cell size too small for the circles, or a wall too long or thick
         * for the grid's range (grid.h) */
        if (!(gs == HS_E_RANGE && (cell > 0.0f || huge_wall(&W)))) {
            snprintf(msg, sizeof msg, "grid build: status %d", (int)gs);
            fz_fail("walls", msg);
        }
        hs_circles_destroy(cs);
        return 0;
    }
    for (int l = HS_ISA_SCALAR; l < HS_ISA_COUNT; l++) {
        if (!hs_isa_supported((hs_isa)l))
            continue;
        for (int threads = 1; threads <= 2; threads++) {
            hs_batch_opts o = hs_batch_opts_default();
            o.sem = sem;
            o.isa = (hs_isa)l;
            o.threads = threads;
            if (check(g, cs, &W, &s.qs, &o, msg, sizeof msg)) {
                char full[640];
                snprintf(full, sizeof full, "%s, %d threads: %s", hs_isa_name((hs_isa)l), threads,
                         msg);
                fz_fail("walls", full);
            }
        }
    }
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return 0;
}
