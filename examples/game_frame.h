/* SPDX-License-Identifier: MIT */
/* A game's frame (header only, for examples/game_frame.c and the threads benchmark): 30,000
 * asteroids drifting through a field, 5,000 bullets and 2,000 lasers a frame. Each frame
 * rebuilds the grid from the asteroids' positions, finds what each bullet hits first while
 * the asteroids move (hs_batch_opts.disp_x / disp_y), the asteroids that collide during the
 * frame (swept pairs) and those that overlap now (pairs), and what each laser hits first. */
#ifndef HS_EXAMPLE_GAME_FRAME_H
#define HS_EXAMPLE_GAME_FRAME_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/hitscan.h"

#define GF_ASTEROIDS 30000
#define GF_BULLETS 5000
#define GF_LASERS 2000
#define GF_SIDE 2000.0f

enum { GF_REBUILD, GF_BULLETS_MOVING, GF_SWEPT_PAIRS, GF_PAIRS, GF_LASERS_CLOSEST, GF_CALLS };
static const char *const gf_call_names[GF_CALLS] = {"rebuild", "bullets_moving", "swept_pairs",
                                                    "pairs", "lasers"};

typedef struct gf_world {
    float x[GF_ASTEROIDS], y[GF_ASTEROIDS], r[GF_ASTEROIDS], vx[GF_ASTEROIDS], vy[GF_ASTEROIDS];
    float bx[GF_BULLETS], by[GF_BULLETS], bdx[GF_BULLETS], bdy[GF_BULLETS];
    float lx[GF_LASERS], ly[GF_LASERS], ldx[GF_LASERS], ldy[GF_LASERS];
    uint32_t hit[GF_BULLETS + GF_LASERS];
    float t[GF_BULLETS + GF_LASERS];
    size_t pairs, swept;
    hs_grid *grid;
    uint64_t rng;
} gf_world;

static float gf_unif(gf_world *w, float lo, float hi)
{
    w->rng = w->rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)(w->rng >> 40) * 0x1p-24f;
}

/* The world at frame 0, its grid built with go (NULL: defaults). NULL when out of memory. */
static gf_world *gf_make(uint64_t seed, const hs_grid_opts *go)
{
    gf_world *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->rng = seed;
    for (int i = 0; i < GF_ASTEROIDS; i++) {
        w->x[i] = gf_unif(w, 0.0f, GF_SIDE);
        w->y[i] = gf_unif(w, 0.0f, GF_SIDE);
        w->r[i] = gf_unif(w, 1.0f, 4.0f);
        w->vx[i] = gf_unif(w, -3.0f, 3.0f);
        w->vy[i] = gf_unif(w, -3.0f, 3.0f);
    }
    hs_circles *cs = NULL;
    if (hs_circles_borrow(w->x, w->y, w->r, NULL, GF_ASTEROIDS, &cs, NULL) != HS_OK ||
        hs_grid_build(cs, go, &w->grid) != HS_OK) {
        hs_circles_destroy(cs);
        free(w);
        return NULL;
    }
    hs_circles_destroy(cs);
    return w;
}

static void gf_free(gf_world *w)
{
    if (w) {
        hs_grid_destroy(w->grid);
        free(w);
    }
}

/* The asteroids move on (wrapping around the field); new bullets and lasers are fired. */
static void gf_step(gf_world *w)
{
    for (int i = 0; i < GF_ASTEROIDS; i++) {
        w->x[i] += w->vx[i];
        w->y[i] += w->vy[i];
        w->x[i] = w->x[i] < 0.0f       ? w->x[i] + GF_SIDE
                  : w->x[i] >= GF_SIDE ? w->x[i] - GF_SIDE
                                       : w->x[i];
        w->y[i] = w->y[i] < 0.0f       ? w->y[i] + GF_SIDE
                  : w->y[i] >= GF_SIDE ? w->y[i] - GF_SIDE
                                       : w->y[i];
    }
    for (int i = 0; i < GF_BULLETS; i++) { /* a bullet flies 20 units a frame */
        w->bx[i] = gf_unif(w, 0.0f, GF_SIDE);
        w->by[i] = gf_unif(w, 0.0f, GF_SIDE);
        w->bdx[i] = gf_unif(w, -14.0f, 14.0f);
        w->bdy[i] = gf_unif(w, -14.0f, 14.0f);
    }
    for (int i = 0; i < GF_LASERS; i++) { /* a laser reaches 400 units */
        w->lx[i] = gf_unif(w, 0.0f, GF_SIDE);
        w->ly[i] = gf_unif(w, 0.0f, GF_SIDE);
        w->ldx[i] = gf_unif(w, -280.0f, 280.0f);
        w->ldy[i] = gf_unif(w, -280.0f, 280.0f);
    }
}

/* One of the frame's calls with opts o; HS_OK or the failing status. */
static hs_status gf_call(gf_world *w, int call, const hs_batch_opts *o)
{
    hs_status s = HS_OK;
    switch (call) {
    case GF_REBUILD:
        return hs_grid_rebuild_from(w->grid, w->x, w->y, w->r, NULL, GF_ASTEROIDS, NULL);
    case GF_BULLETS_MOVING: {
        hs_queries qs = hs_queries_segments(w->bx, w->by, w->bdx, w->bdy, GF_BULLETS);
        hs_batch_opts mo = *o;
        mo.disp_x = w->vx;
        mo.disp_y = w->vy;
        const hs_closest_out out = {.idx = w->hit, .t = w->t};
        return hs_grid_closest(w->grid, &qs, &mo, out);
    }
    case GF_SWEPT_PAIRS: {
        hs_swept_pairs sp;
        s = hs_grid_swept_pairs(w->grid, w->vx, w->vy, o, &sp);
        w->swept = sp.count;
        hs_swept_pairs_free(&sp);
        return s;
    }
    case GF_PAIRS: {
        hs_pairs p;
        s = hs_grid_pairs(w->grid, o, &p);
        w->pairs = p.count;
        hs_pairs_free(&p);
        return s;
    }
    default: {
        hs_queries qs = hs_queries_segments(w->lx, w->ly, w->ldx, w->ldy, GF_LASERS);
        const hs_closest_out out = {.idx = w->hit + GF_BULLETS, .t = w->t + GF_BULLETS};
        return hs_grid_closest(w->grid, &qs, o, out);
    }
    }
}

/* A frame: the world steps, then every call. */
static hs_status gf_frame(gf_world *w, const hs_batch_opts *o)
{
    gf_step(w);
    for (int c = 0; c < GF_CALLS; c++) {
        const hs_status s = gf_call(w, c, o);
        if (s != HS_OK)
            return s;
    }
    return HS_OK;
}

#endif
