/* SPDX-License-Identifier: MIT */
/* A grid's walls in cells for thin queries (wall_cells.h): the listing (the walk is per level:
 * walk/wall_cells_walk.inl). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/wall_cells.h"
#include "invariant.h"
#include "tuning.h"

static double wall_w(const hs_walls *s, size_t i) { return s->w ? (double)s->w[i] : 0.0; }

/* Cells of side h over the box [x0, x1] x [y0, y1]: origin, counts, margin. */
static void cells_set(hs_wcells *c, double h, double x0, double y0, double x1, double y1)
{
    /* + 2^-30: a zero-length wall is touched, as a circle, at any distance whose square
     * underflows (below 2^-75), however small the scene; so the listing's margin (eps) and the
     * walk's error bounds, which scale with mag, stay above 2^-50 and 2^-70 */
    c->mag = fmax(fmax(fabs(x0), fabs(x1)), fmax(fabs(y0), fabs(y1))) + h + 0x1p-30;
    c->eps = 0x1p-20 * c->mag;
    c->h = h;
    c->inv_h = 1.0 / h;
    c->ox = x0 - c->eps - HS_WALL_CELL_SHIFT * h;
    c->oy = y0 - c->eps - HS_WALL_CELL_SHIFT * h;
    /* counted in double and capped: a far wall beside tiny ones gives counts past int32 at a
     * small h, which the caller refuses (nx ny > 4 n + 64) before any use */
    const double fx = floor((x1 + c->eps - c->ox) * c->inv_h) + 1.0;
    const double fy = floor((y1 + c->eps - c->oy) * c->inv_h) + 1.0;
    c->nx = fx < (double)INT32_MAX ? (int32_t)fx : INT32_MAX;
    c->ny = fy < (double)INT32_MAX ? (int32_t)fy : INT32_MAX;
    c->x_hi = c->ox + c->nx * h;
    c->y_hi = c->oy + c->ny * h;
}

/* Wall i's entries: each cell its capsule grown by eps meets, row by row (the segment clipped
 * to the row's band grown by w + eps, its x extent grown as much). Counts them into
 * cursor[cell] (fill 0) or writes them at cursor[cell]++ (fill 1); returns their number. */
static size_t list_wall(hs_wcells *c, const hs_walls *s, size_t i, uint32_t *cursor, int fill)
{
    const double ax = s->ax[i], ay = s->ay[i], bx = s->bx[i], by = s->by[i];
    const double g = wall_w(s, i) + c->eps;
    const int32_t j0 = hs_wcell_of(fmin(ay, by) - g - c->oy, c->inv_h, c->ny);
    const int32_t j1 = hs_wcell_of(fmax(ay, by) + g - c->oy, c->inv_h, c->ny);
    size_t n = 0;
    for (int32_t j = j0; j <= j1; j++) {
        double u0 = 0.0, u1 = 1.0;
        if (ay != by) {
            const double lo = c->oy + j * c->h - g, hi = lo + c->h + 2.0 * g;
            double ua = (lo - ay) / (by - ay), ub = (hi - ay) / (by - ay);
            if (ua > ub) {
                const double sw = ua;
                ua = ub;
                ub = sw;
            }
            u0 = fmax(u0, ua);
            u1 = fmin(u1, ub);
            if (u0 > u1)
                continue;
        }
        const double xa = ax + u0 * (bx - ax), xb = ax + u1 * (bx - ax);
        const int32_t i0 = hs_wcell_of(fmin(xa, xb) - g - c->ox, c->inv_h, c->nx);
        const int32_t i1 = hs_wcell_of(fmax(xa, xb) + g - c->ox, c->inv_h, c->nx);
        for (int32_t k = i0; k <= i1; k++, n++) {
            const size_t cell = (size_t)j * (size_t)c->nx + (size_t)k;
            if (!fill) {
                cursor[cell]++;
                continue;
            }
            const uint32_t e = cursor[cell]++;
            c->px[e] = s->ax[i], c->py[e] = s->ay[i], c->bx[e] = s->bx[i], c->by[e] = s->by[i];
            if (c->w)
                c->w[e] = s->w[i];
            if (c->mask)
                c->mask[e] = s->mask[i];
            c->wall[e] = (uint32_t)i;
        }
    }
    return n;
}

/* Entries of all walls at the cells' present side (counting only). */
static size_t count_entries(hs_wcells *c, const hs_walls *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += list_wall(c, s, i, c->start, 0);
    return n;
}

hs_status hs_wcells_make(const hs_walls *s, hs_wcells **out)
{
    *out = NULL;
    HS_ASSERT(s->n > 0);
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, total = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        const double ax = s->ax[i], ay = s->ay[i], bx = s->bx[i], by = s->by[i], w = wall_w(s, i);
        x0 = fmin(x0, fmin(ax, bx) - w);
        x1 = fmax(x1, fmax(ax, bx) + w);
        y0 = fmin(y0, fmin(ay, by) - w);
        y1 = fmax(y1, fmax(ay, by) + w);
        total += hypot(bx - ax, by - ay);
    }
    const double n = (double)s->n, side = sqrt((x1 - x0) * (y1 - y0) / n), per = total / n;
    double h = HS_WALL_CELL_SIDE * (side > per ? side : per);
    if (!(h > 0.0) || !isfinite(h))
        h = fmax(x1 - x0, y1 - y0) > 0.0 ? fmax(x1 - x0, y1 - y0) : 1.0;
    hs_wcells *c = calloc(1, sizeof *c);
    if (c == NULL)
        return HS_E_NOMEM;
    /* at most about 4 cells a wall, and HS_WALL_CELL_ENTRIES entries a wall */
    for (;; h *= 2.0) {
        cells_set(c, h, x0, y0, x1, y1);
        if ((double)c->nx * (double)c->ny > 4.0 * n + 64.0)
            continue;
        free(c->start);
        c->start = calloc((size_t)c->nx * (size_t)c->ny + 1, sizeof *c->start);
        if (c->start == NULL) {
            hs_wcells_free(c);
            return HS_E_NOMEM;
        }
        const size_t entries = count_entries(c, s);
        if (entries <= (size_t)HS_WALL_CELL_ENTRIES * s->n + 64u || (c->nx == 1 && c->ny == 1))
            break;
    }
    const size_t ncells = (size_t)c->nx * (size_t)c->ny;
    size_t sum = 0;
    for (size_t k = 0; k < ncells; k++) { /* counts to starts, cursor at each cell's start */
        const size_t m = c->start[k];
        c->start[k] = (uint32_t)sum;
        sum += m;
    }
    if (sum > HS_MAX_COUNT) {
        hs_wcells_free(c);
        return HS_E_TOO_MANY;
    }
    c->start[ncells] = (uint32_t)sum;
    const size_t room = sum + HS_WCELL_PAD;
    float **f[] = {&c->px, &c->py, &c->bx, &c->by};
    int ok = 1;
    for (size_t a = 0; a < sizeof f / sizeof f[0]; a++)
        ok &= (*f[a] = calloc(room, sizeof(float))) != NULL;
    c->w = s->w ? calloc(room, sizeof *c->w) : NULL;
    c->mask = s->mask ? calloc(room, sizeof *c->mask) : NULL;
    c->wall = calloc(room, sizeof *c->wall);
    uint32_t *cursor = malloc((ncells + 1) * sizeof *cursor);
    if (!ok || (s->w && c->w == NULL) || (s->mask && c->mask == NULL) || c->wall == NULL ||
        cursor == NULL) {
        free(cursor);
        hs_wcells_free(c);
        return HS_E_NOMEM;
    }
    memcpy(cursor, c->start, (ncells + 1) * sizeof *cursor);
    for (size_t i = 0; i < s->n; i++)
        (void)list_wall(c, s, i, cursor, 1);
    for (size_t k = 0; k < ncells; k++)
        HS_ASSERT(cursor[k] == c->start[k + 1]);
    free(cursor);
    *out = c;
    return HS_OK;
}

void hs_wcells_free(hs_wcells *c)
{
    if (c == NULL)
        return;
    free(c->start);
    free(c->px);
    free(c->py);
    free(c->bx);
    free(c->by);
    free(c->w);
    free(c->mask);
    free(c->wall);
    free(c);
}

size_t hs_wcells_bytes(const hs_wcells *c)
{
    if (c == NULL)
        return 0;
    const size_t ncells = (size_t)c->nx * (size_t)c->ny;
    return sizeof *c + (ncells + 1) * sizeof *c->start +
           (c->start[ncells] + HS_WCELL_PAD) * (5u + (c->w != NULL) + (c->mask != NULL)) *
               sizeof(float);
}
