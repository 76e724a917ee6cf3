/* SPDX-License-Identifier: MIT */
/* The pair search across a periodic box's edges (pairs.h's hs_pair_images). A circle whose
 * search box reaches past an edge of the box also searches the grid with that box moved by
 * the period, and a partner found there is seen at its image, its centre moved back: the
 * partner's image is j + s L for the shift s in {-1, 0, 1} per periodic axis. Each circle
 * searches the same shifted boxes whichever it is of a pair, so the rules of who keeps a pair
 * (pairs_scan.c) hold across the edges as inside the box; a pair is kept under its minimum image
 * only, so none comes twice (the reach is below half a period, hs_box_fits).
 *
 * Only the circles near the box's edges search here, so these runs take one candidate at a
 * time, with every test in double. */
#include <math.h>

#include "grid/discs.h"
#include "grid/pairs_images.h"
#include "grid/periodic.h"

typedef struct image_scan {
    const hs_pair_search *s;
    uint32_t pos;  /* the searching circle's storage position */
    float x, y, r; /* its tested disc */
    uint32_t fast;
    int cross;  /* a circle searching an earlier level: it alone finds those pairs */
    int sx, sy; /* the partners' images: their centres plus (sx, sy) periods */
    hs_pair_list *B;
} image_scan;

/* The shift of the image of a partner nearest to the searcher, the partner's disc at
 * separation d: 0 on an axis that is not periodic. Odd in d. */
static int nearest(double d, double period) { return period > 0.0 ? -(int)round(d / period) : 0; }

/* Whether the searcher keeps the pair with the candidate at storage position k, by the rules
 * of pairs_scan.c and the filter: overlap pairs by the smaller index (both circles search their
 * partners' images; a big circle's cross pairs all); swept pairs by the slow circle earlier in
 * storage, or the fast one of a fast and a slow (none of two fast ones). */
static int keeps(const image_scan *p, uint32_t k)
{
    const hs_pair_search *s = p->s;
    if (k == p->pos ||
        (s->fcat && !hs_filter_pass(s->fcat[p->pos], s->fcol[p->pos], s->fcat[k], s->fcol[k])))
        return 0;
    if (s->fast == NULL)
        return p->cross || s->g->id[k] > s->g->id[p->pos];
    if (p->cross)
        return !(p->fast && s->fast[k]);
    return !s->fast[k] && (p->fast || k > p->pos);
}

/* The pair of circles a and b (storage positions), b's image shifted by (sx, sy): 1 and the
 * pair's record in *rec when it is one (swept pairs: when they touch in the step; overlap
 * pairs are one already). */
static int test_pair(const hs_pair_search *s, uint32_t a, uint32_t b, int sx, int sy,
                     hs_pair_rec *rec)
{
    const hs_grid *g = s->g;
    const double ex = hs_image_sep(g->x[a], g->x[b], sx, g->period[0]);
    const double ey = hs_image_sep(g->y[a], g->y[b], sy, g->period[1]);
    if (s->dx == NULL) {
        if (s->contacts)
            rec->contact = hs_pair_contact_of(ex, ey, g->r[a], g->r[b]);
        return 1;
    }
    const double R = (double)g->r[a] + (double)g->r[b];
    const hs_moving ca = {g->x[a], g->y[a], g->r[a], s->dx[a], s->dy[a]};
    const hs_moving cb = {g->x[b], g->y[b], g->r[b], s->dx[b], s->dy[b]};
    return hs_swept_test_image(&ca, &cb, ex, ey, sx != 0 || sy != 0, ex * ex + ey * ey <= R * R,
                               &rec->swept);
}

/* The candidate at k, whose image (its disc's centre plus the shift) is at (ex, ey) from the
 * searcher's disc, kept: tested when the pair is a swept one, oriented from the smaller
 * index (the shift with it), into B with its shift. Returns 1 when memory ran out. */
static int emit_image(image_scan *p, uint32_t k)
{
    const hs_pair_search *s = p->s;
    const uint32_t *id = s->g->id;
    hs_pair_list *B = p->B;
    if (!hs_pair_list_reserve(B, 1) || !hs_pair_shift_reserve(B, 1))
        return 1;
    uint32_t a = p->pos, b = k;
    int sx = p->sx, sy = p->sy;
    if (id[a] > id[b]) {
        a = k;
        b = p->pos;
        sx = -sx;
        sy = -sy;
    }
    hs_pair_rec rec;
    if (!test_pair(s, a, b, sx, sy, &rec))
        return 0;
    B->i[B->len] = id[a];
    B->j[B->len] = id[b];
    if (B->carry)
        B->rec[B->len] = rec;
    B->len++;
    const hs_pair_shift e = {id[a], id[b], (int8_t)sx, (int8_t)sy};
    B->sh[B->sh_len++] = e;
    return 0;
}

/* A run of candidates against the searcher's disc with their images shifted (hs_grun_fn). */
static int image_run(void *st, uint32_t b, uint32_t e)
{
    image_scan *p = st;
    const hs_pair_search *s = p->s;
    const double Lx = s->g->period[0], Ly = s->g->period[1];
    for (uint32_t k = b; k < e; k++) {
        if (!keeps(p, k))
            continue;
        const double dx = (double)s->tx[k] - (double)p->x, dy = (double)s->ty[k] - (double)p->y;
        if (nearest(dx, Lx) != p->sx || nearest(dy, Ly) != p->sy)
            continue; /* not the partner's minimum image */
        const double ex = dx + p->sx * Lx, ey = dy + p->sy * Ly;
        double R = (double)p->r + (double)s->tr[k];
        /* swept: the discs only make a candidate; grown past the roundings of their centres */
        R = s->dx ? R * (1.0 + 0x1p-20) : R + s->skin;
        if (ex * ex + ey * ey <= R * R && emit_image(p, k))
            return 1;
    }
    return 0;
}

int hs_pair_images(const hs_pair_search *s, size_t pos, int level, hs_pair_list *B)
{
    const hs_grid *g = s->g;
    const uint32_t fast = s->fast ? s->fast[pos] : 0u;
    image_scan p = {s, (uint32_t)pos, s->tx[pos], s->ty[pos], s->tr[pos], fast, 0, 0, 0, B};
    for (int l = 0; l <= level; l++) {
        const hs_glevel *L = &g->lv[l];
        p.cross = l != level;
        const double reach = hs_pair_reach(s, L, l, pos, p.cross);
        const double x0 = p.x - reach, x1 = p.x + reach, y0 = p.y - reach, y1 = p.y + reach;
        int sh[4];
        hs_pair_image_shifts(g, L, x0, y0, x1, y1, sh);
        for (int sy = sh[2]; sy <= sh[3]; sy++)
            for (int sx = sh[0]; sx <= sh[1]; sx++) {
                if (sx == 0 && sy == 0)
                    continue;
                p.sx = sx;
                p.sy = sy;
                const double ox = sx * g->period[0], oy = sy * g->period[1];
                if (hs_grid_box(g, L, x0 - ox, y0 - oy, x1 - ox, y1 - oy, image_run, &p))
                    return 1;
            }
    }
    return 0;
}
