/* SPDX-License-Identifier: MIT */
/* A grid's walls (wall_grid.h): the copy of the set, its pieces and the grid of their proxies. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/build.h"
#include "grid/wall_grid.h"
#include "tuning.h"

static void gwalls_free(struct hs_gwalls *W)
{
    if (W == NULL)
        return;
    hs_walls_destroy(W->set);
    hs_wcells_free(W->cells);
    free(W->npieces);
    free(W->piece);
    free(W->x0);
    free(W->y0);
    free(W->x1);
    free(W->y1);
    free(W->w);
    free(W);
}

/* A zero-length wall is touched, as a circle, at any distance whose square underflows (below
 * 2^-75): every reach around a piece (its filter's, its proxy's) is at least this. */
#define HS_WALL_UNDERFLOW_REACH 0x1p-70

/* The point at u in [0, 1] of the segment from a to b, taken from the nearer end, so that u = 0
 * and u = 1 give the ends exactly (a + 1 (b - a) need not be b: b - a is rounded). */
static double along(double a, double b, double u)
{
    return u <= 0.5 ? a + u * (b - a) : b - (1.0 - u) * (b - a);
}

/* Storage position pos's piece k of n of wall i, grown by a sixteenth of a piece at each end
 * (clamped to the wall), for the filter (wall_grid.h). */
static void filter_piece(struct hs_gwalls *W, size_t pos, size_t i, uint32_t k, uint32_t n)
{
    const hs_walls *s = W->set;
    double u0 = ((double)k - 1.0 / 16.0) / (double)n, u1 = ((double)k + 1.0 + 1.0 / 16.0) / n;
    u0 = u0 > 0.0 ? u0 : 0.0;
    u1 = u1 < 1.0 ? u1 : 1.0;
    W->x0[pos] = (float)along(s->ax[i], s->bx[i], u0);
    W->y0[pos] = (float)along(s->ay[i], s->by[i], u0);
    W->x1[pos] = (float)along(s->ax[i], s->bx[i], u1);
    W->y1[pos] = (float)along(s->ay[i], s->by[i], u1);
    HS_ASSERT(u0 > 0.0 || (W->x0[pos] == s->ax[i] && W->y0[pos] == s->ay[i]));
    HS_ASSERT(u1 < 1.0 || (W->x1[pos] == s->bx[i] && W->y1[pos] == s->by[i]));
    /* the filter's reach grown by the exact test's error: with thickness (of the wall or the
     * query) it is in double, within 2^-46 of the whole wall's magnitude (walls.h), which a
     * piece far from the wall's ends does not show; and the underflow's reach */
    const float w = s->w ? s->w[i] : 0.0f;
    const double err = 0x1p-40 * (fabs((double)s->ax[i]) + fabs((double)s->ay[i]) +
                                  fabs((double)s->bx[i]) + fabs((double)s->by[i]) + w) +
                       HS_WALL_UNDERFLOW_REACH;
    W->w[pos] = nextafterf((float)(w + err), INFINITY);
}

void hs_grid_walls_free(hs_grid *g)
{
    if (g->wall_grid != NULL) {
        gwalls_free(g->wall_grid->walls);
        g->wall_grid->walls = NULL;
        hs_grid_free(g->wall_grid);
        g->wall_grid = NULL;
    }
}

/* The length of a piece: about the side of a cell holding one wall (the square root of the
 * walls' box area per wall), and never so short that the pieces outnumber twice the walls. */
static double piece_length(const hs_walls *s)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, total = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        const double ax = s->ax[i], ay = s->ay[i], bx = s->bx[i], by = s->by[i];
        x0 = fmin(x0, fmin(ax, bx));
        x1 = fmax(x1, fmax(ax, bx));
        y0 = fmin(y0, fmin(ay, by));
        y1 = fmax(y1, fmax(ay, by));
        total += hypot(bx - ax, by - ay);
    }
    const double per_wall = total / (double)s->n;
    const double side = sqrt((x1 - x0) * (y1 - y0) / (double)s->n);
    return side > per_wall ? side : per_wall;
}

/* Pieces of a wall of length len, pieces of about L. */
static uint32_t pieces_of(double len, double L)
{
    if (!(L > 0.0) || !(len > L))
        return 1u;
    const double n = ceil(len / L);
    return n < (double)HS_WALL_MAX_PIECES ? (uint32_t)n : HS_WALL_MAX_PIECES;
}

/* Piece k of n of wall i as a circle holding it thickened by w, rounded outward: centre in
 * double, then its rounding to float, the radius a sixteenth of a piece above the half-length
 * (wall_grid.h) and a relative 2^-20 of the coordinates added, and the underflow's reach:
 * closest's cut (wall_test.inl) takes a hit to lie within the proxy. */
static void proxy(const hs_walls *s, size_t i, uint32_t k, uint32_t n, float *x, float *y, float *r)
{
    const double ax = s->ax[i], ay = s->ay[i], ex = s->bx[i] - ax, ey = s->by[i] - ay;
    const double u = ((double)k + 0.5) / (double)n;
    const double X = ax + u * ex, Y = ay + u * ey;
    *x = (float)X;
    *y = (float)Y;
    const double shift = fabs((double)*x - X) + fabs((double)*y - Y);
    const double half = 0.5 * hypot(ex, ey) / (double)n;
    const double R = half * (1.0 + 1.0 / 8.0) + (s->w ? s->w[i] : 0.0f) + shift;
    *r = nextafterf((float)(R + 0x1p-20 * (fabs(X) + fabs(Y) + R) + HS_WALL_UNDERFLOW_REACH),
                    INFINITY);
}

/* The proxies of ws's pieces and their walls and piece numbers (arrays of np entries). */
typedef struct pieces {
    float *x, *y, *r;
    uint32_t *mask, *wall, *k;
    size_t n;
} pieces;

static void pieces_free(pieces *p)
{
    free(p->x);
    free(p->y);
    free(p->r);
    free(p->mask);
    free(p->wall);
    free(p->k);
}

static hs_status pieces_make(const hs_walls *s, uint32_t *npieces, pieces *p)
{
    memset(p, 0, sizeof *p);
    const double L = piece_length(s);
    size_t np = 0;
    for (size_t i = 0; i < s->n; i++) {
        npieces[i] = pieces_of(hypot((double)s->bx[i] - s->ax[i], (double)s->by[i] - s->ay[i]), L);
        np += npieces[i];
    }
    if (np > HS_MAX_COUNT)
        return HS_E_TOO_MANY;
    p->n = np;
    p->x = malloc(np * sizeof *p->x);
    p->y = malloc(np * sizeof *p->y);
    p->r = malloc(np * sizeof *p->r);
    p->wall = malloc(np * sizeof *p->wall);
    p->k = malloc(np * sizeof *p->k);
    p->mask = s->mask ? malloc(np * sizeof *p->mask) : NULL;
    if (!p->x || !p->y || !p->r || !p->wall || !p->k || (s->mask && !p->mask))
        return HS_E_NOMEM;
    size_t j = 0;
    for (size_t i = 0; i < s->n; i++)
        for (uint32_t k = 0; k < npieces[i]; k++, j++) {
            proxy(s, i, k, npieces[i], &p->x[j], &p->y[j], &p->r[j]);
            p->wall[j] = (uint32_t)i;
            p->k[j] = k;
            if (p->mask)
                p->mask[j] = s->mask[i];
        }
    return HS_OK;
}

/* The grid of ws's pieces, with its storage ids turned into wall indices and each storage
 * position's piece number kept. */
static hs_status wall_grid_make(const hs_grid *g, const hs_walls *ws, hs_grid **out)
{
    *out = NULL;
    struct hs_gwalls *W = calloc(1, sizeof *W);
    if (W == NULL)
        return HS_E_NOMEM;
    hs_status s =
        hs_walls_create(ws->ax, ws->ay, ws->bx, ws->by, ws->w, ws->mask, ws->n, &W->set, NULL);
    W->npieces = s == HS_OK ? malloc(ws->n * sizeof *W->npieces) : NULL;
    if (s == HS_OK && W->npieces == NULL)
        s = HS_E_NOMEM;
    pieces p;
    memset(&p, 0, sizeof p);
    if (s == HS_OK)
        s = pieces_make(W->set, W->npieces, &p);
    if (s == HS_OK)
        s = hs_wcells_make(W->set, &W->cells);
    hs_grid *wg = NULL;
    if (s == HS_OK) {
        const hs_circles cs = {.x = p.x, .y = p.y, .r = p.r, .mask = p.mask, .n = p.n};
        const hs_grid_opts go = {.threads = g->threads, .tasks = g->tasks};
        s = hs_grid_make(&cs, &go, 0, &wg);
        /* a proxy beyond the circles' range: a wall longer than the grid can take */
        if (s == HS_E_NONFINITE || s == HS_E_NEG_RADIUS)
            s = HS_E_RANGE;
    }
    const size_t room = p.n + HS_PAD_FLOATS;
    if (s == HS_OK) {
        W->piece = calloc(room, sizeof *W->piece);
        W->x0 = calloc(room, sizeof(float));
        W->y0 = calloc(room, sizeof(float));
        W->x1 = calloc(room, sizeof(float));
        W->y1 = calloc(room, sizeof(float));
        W->w = calloc(room, sizeof(float));
        if (!W->piece || !W->x0 || !W->y0 || !W->x1 || !W->y1 || !W->w)
            s = HS_E_NOMEM;
    }
    if (s == HS_OK) {
        for (size_t pos = 0; pos < p.n; pos++) {
            const uint32_t j = wg->id[pos];
            W->piece[pos] = p.k[j];
            wg->id[pos] = p.wall[j];
            filter_piece(W, pos, p.wall[j], p.k[j], W->npieces[p.wall[j]]);
        }
        wg->walls = W;
        *out = wg;
    } else {
        hs_grid_free(wg);
        gwalls_free(W);
    }
    pieces_free(&p);
    return s;
}

hs_status hs_grid_set_walls(hs_grid *g, const hs_walls *ws)
{
    if (g == NULL)
        return HS_E_NULL;
    if (ws != NULL && ws->n > 0 && g->periodic)
        return HS_E_RANGE;
    hs_grid *wg = NULL;
    if (ws != NULL && ws->n > 0) {
        hs_status s = wall_grid_make(g, ws, &wg);
        if (s != HS_OK)
            return s;
    }
    hs_grid_walls_free(g);
    g->wall_grid = wg;
    return HS_OK;
}

size_t hs_grid_walls_bytes(const hs_grid *g)
{
    const hs_grid *wg = g->wall_grid;
    if (wg == NULL)
        return 0;
    const size_t n = wg->walls->set->n;
    const size_t arrays = 4u + (wg->walls->set->w != NULL) + (wg->walls->set->mask != NULL);
    return hs_grid_storage_bytes(wg) + sizeof *wg->walls + sizeof *wg->walls->set +
           (n + 2 * HS_PAD_FLOATS) * arrays * sizeof(float) + n * sizeof(uint32_t) +
           (wg->n + HS_PAD_FLOATS) * 6 * sizeof(uint32_t) + hs_wcells_bytes(wg->walls->cells);
}

size_t hs_grid_wall_count(const hs_grid *g)
{
    return g && g->wall_grid ? g->wall_grid->walls->set->n : 0;
}
