/* SPDX-License-Identifier: MIT */
/* The grid of circles (hs_grid_make, hs_grid_rebuild): the passes of build.h run in order
 * into the grid's memory, which is kept and reused by rebuilds. lifetime.c adds the walls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/build.h"
#include "grid/periodic.h"
#include "grid/storage.h"
#include "tuning.h"

/* The build's team: g->threads (0: the default team) on g->tasks, at most
 * HS_GRID_MAX_BUILD_THREADS and one per HS_GRID_MIN_PER_THREAD circles. */
static hs_par hs_grid_build_team(const hs_grid *g, size_t n)
{
    const hs_par p = hs_par_make(g->threads, g->tasks);
    int T = p.threads;
    if (T > HS_GRID_MAX_BUILD_THREADS)
        T = HS_GRID_MAX_BUILD_THREADS;
    if ((size_t)T > n / HS_GRID_MIN_PER_THREAD)
        T = n / HS_GRID_MIN_PER_THREAD > 1 ? (int)(n / HS_GRID_MIN_PER_THREAD) : 1;
    return hs_par_cap(p, T);
}

/* The storage for g->n circles and g->ncells cells. The circle arrays start on a cache line
 * (the band streams and the kernels' vector loads then never split one) and have
 * HS_PAD_FLOATS slots past the last circle (zeroed by grid_fill): the block walk loads whole
 * vectors at any run start and masks the lanes past the run off. Their old contents are
 * never needed: growing is free + allocate. */
static hs_status alloc_storage(hs_grid *g, int with_mask)
{
    const size_t n = g->n;
    void *p;
    if ((p = hs_grid_grow(g->cell_start, &g->cells_cap, g->ncells + 1, sizeof(uint32_t))) == NULL)
        return HS_E_NOMEM;
    g->cell_start = p;
    if (n + HS_PAD_FLOATS > g->cap || g->x == NULL) {
        size_t c = n + HS_PAD_FLOATS;
        free(g->x);
        free(g->y);
        free(g->r);
        free(g->id);
        g->x = hs_grid_alloc_lines(c, sizeof(float));
        g->y = hs_grid_alloc_lines(c, sizeof(float));
        g->r = hs_grid_alloc_lines(c, sizeof(float));
        g->id = hs_grid_alloc_lines(c, sizeof(uint32_t));
        g->cap = c;
        if (!g->x || !g->y || !g->r || !g->id) {
            free(g->x);
            free(g->y);
            free(g->r);
            free(g->id);
            g->x = g->y = g->r = NULL;
            g->id = NULL;
            g->cap = 0;
            return HS_E_NOMEM;
        }
    }
    if (with_mask) {
        if (n + HS_PAD_FLOATS > g->mask_cap || g->mask == NULL) {
            size_t c = n + HS_PAD_FLOATS;
            free(g->mask);
            g->mask = hs_grid_alloc_lines(c, sizeof(uint32_t));
            g->mask_cap = g->mask ? c : 0;
            if (g->mask == NULL)
                return HS_E_NOMEM;
        }
    } else {
        free(g->mask);
        g->mask = NULL;
        g->mask_cap = 0;
    }
    return HS_OK;
}

/* A bad circle is refused by the first pass before anything of the grid changes. */
static int refused(hs_status s)
{
    return s == HS_E_NONFINITE || s == HS_E_NEG_RADIUS || s == HS_E_RANGE || s == HS_E_BOX;
}

/* A failed rebuild leaves a valid empty grid rather than a half-sorted one. */
static void make_empty(hs_grid *g)
{
    g->n = 0;
    g->nlevels = g->nsmall = 0;
    g->ncells = 0;
    for (int l = 0; l < HS_GRID_LEVELS; l++)
        g->lv[l].occ = NULL;
    if (g->cell_start)
        g->cell_start[0] = 0;
}

/* The build's passes on cs, then the padding past the last circle zeroed (its lanes are always
 * masked off, but they must be defined values). repeats: g->slot_of holds the repeats' marks. */
static hs_status build_passes(hs_grid *g, const hs_circles *cs, int repeats, size_t *bad_index)
{
    const hs_par team = hs_grid_build_team(g, cs->n);
    hs_status s = hs_grid_plan_levels(g, cs, repeats, &team, bad_index);
    if (refused(s))
        return s;
    if (s == HS_OK)
        s = alloc_storage(g, cs->mask != NULL);
    if (s == HS_OK)
        s = hs_grid_subcells_plan(g);
    if (s == HS_OK)
        s = hs_grid_sort(g, cs, &team);
    if (s == HS_OK)
        s = hs_grid_occupancy(g);
    if (s == HS_OK)
        hs_grid_level_weights(g);
    if (s == HS_OK && g->x != NULL) {
        memset(g->x + g->n, 0, HS_PAD_FLOATS * sizeof(float));
        memset(g->y + g->n, 0, HS_PAD_FLOATS * sizeof(float));
        memset(g->r + g->n, 0, HS_PAD_FLOATS * sizeof(float));
        memset(g->id + g->n, 0, HS_PAD_FLOATS * sizeof(uint32_t));
        if (g->mask)
            memset(g->mask + g->n, 0, HS_PAD_FLOATS * sizeof(uint32_t));
    }
    return s;
}

/* The passes, and again with the repeats apart when there are enough of them; without the
 * memory for that, the grid as first built (answers do not depend on it). */
static hs_status grid_passes(hs_grid *g, const hs_circles *cs, size_t *bad_index)
{
    hs_status s = build_passes(g, cs, 0, bad_index);
    if (s == HS_OK && g->repeats_apart && g->n >= HS_REPEAT_MIN &&
        hs_grid_mark_repeats(g) >= HS_REPEAT_MIN) {
        s = build_passes(g, cs, 1, bad_index);
        if (s == HS_E_NOMEM)
            s = build_passes(g, cs, 0, bad_index);
    }
    return s;
}

/* The build from the caller's circles: in a periodic box, those wrapped into it. */
static hs_status grid_fill(hs_grid *g, const hs_circles *given, size_t *bad_index)
{
    hs_circles wrapped;
    float *keep = NULL;
    hs_status s = hs_grid_periodic_input(g, given, &wrapped, &keep, bad_index);
    if (s != HS_OK)
        return s;
    s = grid_passes(g, &wrapped, bad_index);
    free(keep);
    return s;
}

void hs_grid_set_tasks(hs_grid *g, const hs_task_system *tasks)
{
    if (g)
        g->tasks = tasks;
}

hs_status hs_grid_make(const hs_circles *cs, const hs_grid_opts *opts, int repeats_apart,
                       hs_grid **out)
{
    if (cs == NULL || out == NULL)
        return HS_E_NULL;
    *out = NULL;
    float cell = opts ? opts->cell_size : 0.0f;
    int threads = opts ? opts->threads : 0;
    if (!(cell >= 0.0f) || !isfinite(cell) || threads < 0)
        return HS_E_RANGE;
    hs_grid *g = calloc(1, sizeof *g);
    if (g == NULL)
        return HS_E_NOMEM;
    g->cell_size_req = cell;
    g->threads = threads;
    g->tasks = opts ? opts->tasks : NULL;
    g->repeats_apart = repeats_apart;
    hs_status s = hs_grid_set_box(g, opts);
    if (s == HS_OK)
        s = grid_fill(g, cs, NULL);
    if (s != HS_OK) {
        hs_grid_free(g);
        return s;
    }
    *out = g;
    return HS_OK;
}

hs_status hs_grid_rebuild(hs_grid *g, const hs_circles *cs)
{
    if (g == NULL || cs == NULL)
        return HS_E_NULL;
    hs_status s = grid_fill(g, cs, NULL);
    if (s != HS_OK && !refused(s))
        make_empty(g);
    return s;
}

hs_status hs_grid_rebuild_from(hs_grid *g, const float *x, const float *y, const float *r,
                               const uint32_t *mask, size_t n, size_t *bad_index)
{
    if (bad_index)
        *bad_index = (size_t)-1;
    if (g == NULL || (n > 0 && (x == NULL || y == NULL || r == NULL)))
        return HS_E_NULL;
    if (n > HS_MAX_COUNT)
        return HS_E_TOO_MANY;
    /* the arrays are read during the call only: a borrowed set that lives on the stack */
    const hs_circles cs = {.x = x, .y = y, .r = r, .mask = mask, .n = n, .owned = NULL};
    hs_status s = grid_fill(g, &cs, bad_index);
    if (s != HS_OK && !refused(s))
        make_empty(g);
    return s;
}

void hs_grid_free(hs_grid *g)
{
    if (g == NULL)
        return;
    free(g->x);
    free(g->y);
    free(g->r);
    free(g->id);
    free(g->mask);
    free(g->cell_start);
    free(g->scratch);
    free(g->spill);
    free(g->occ);
    free(g->sub);
    free(g->slot_of);
    free(g);
}

size_t hs_grid_circle_count(const hs_grid *g) { return g ? g->n : 0; }
size_t hs_grid_count(const hs_grid *g) { return hs_grid_circle_count(g); }

size_t hs_grid_storage_bytes(const hs_grid *g)
{
    return sizeof *g + g->cap * (3 * sizeof(float) + sizeof(uint32_t)) +
           g->mask_cap * sizeof(uint32_t) + g->cells_cap * sizeof(uint32_t) + g->scratch_bytes +
           g->spill_cap * sizeof(uint32_t) + g->occ_cap + g->slot_cap +
           g->sub_cap * sizeof(uint32_t);
}

float hs_grid_cell_size(const hs_grid *g)
{
    return (g && g->nlevels > 0) ? (float)g->lv[0].h : 0.0f;
}
