/* SPDX-License-Identifier: MIT */
/* The front door of overlapping pairs (particle contacts), hs_grid_pairs, and of every pair
 * within a cutoff (neighbour lists), hs_grid_pairs_within and hs_grid_pairs_ex: checks the
 * arguments, runs the pair search (pairs_scan.c) with every reach and test grown by the skin,
 * and has the assembly (pairs_assemble.c) put the pairs in (i, j) order, with the shifts and
 * contacts asked for. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid/layout.h"
#include "grid/pair_list.h"
#include "grid/pairs_assemble.h"
#include "grid/pairs_scan.h"
#include "grid/periodic.h"
#include "grid/storage.h"
#include "prefetch.h"
#include "tuning.h"

hs_status hs_grid_pairs(const hs_grid *g, const hs_batch_opts *opts, hs_pairs *out)
{
    return hs_grid_pairs_ex(g, NULL, opts, out);
}

hs_status hs_grid_pairs_within(const hs_grid *g, float skin, const hs_batch_opts *opts,
                               hs_pairs *out)
{
    const hs_pair_opts po = {skin, 0u};
    return hs_grid_pairs_ex(g, &po, opts, out);
}

/* The largest radius of g's circles. */
static double largest_radius(const hs_grid *g)
{
    double r = 0.0;
    for (int l = 0; l < g->nlevels; l++)
        r = fmax(r, (double)g->lv[l].rmax);
    return r;
}

/* The arguments of a pair search: HS_OK, or the status the call returns with out empty. */
static hs_status check_args(const hs_grid *g, float skin, unsigned want, const hs_batch_opts *opts)
{
    if (isnan(skin) || isinf(skin))
        return HS_E_NONFINITE;
    if (skin < 0.0f)
        return HS_E_NEG_RADIUS;
    if (skin > HS_MAX_COORD || (want & ~(HS_PAIRS_SHIFTS | HS_PAIRS_CONTACTS)) ||
        (opts && opts->threads < 0))
        return HS_E_RANGE;
    if (!g->periodic || g->n == 0)
        return HS_OK;
    const double reach = 2.0 * largest_radius(g) + (double)skin;
    if (!hs_box_fits(g, reach))
        return HS_E_BOX;
    return HS_OK;
}

/* Pairs ahead of the one gathered whose contact is prefetched. */
enum { AHEAD = 64 };

typedef struct contact_call {
    const hs_pair_rec *ans;
    const uint32_t *word;
    size_t total;
    hs_pairs *out;
} contact_call;

static void contact_range(void *ctx, size_t lo, size_t hi, int slot)
{
    const contact_call *c = (const contact_call *)ctx;
    hs_pairs *out = c->out;
    (void)slot;
    for (size_t m = lo; m < hi; m++) {
        if (m + AHEAD < c->total)
            hs_prefetch(&c->ans[c->word[m + AHEAD]]);
        const hs_pair_contact k = c->ans[c->word[m]].contact;
        out->nx[m] = k.nx;
        out->ny[m] = k.ny;
        out->distance[m] = k.distance;
        out->gap[m] = k.gap;
    }
}

/* The found pairs in (i, j) order into out, with what `want` asks for. Returns 1 when memory
 * ran out. The lists are freed on the way, as soon as they are no longer needed. */
static int assemble(hs_pair_list *lists, size_t nl, size_t total, size_t n, unsigned want,
                    const hs_par *par, hs_pairs *out)
{
    hs_pair_rec *ans = NULL;
    uint32_t *word = NULL;
    out->count = total;
    out->i = hs_grid_alloc_lines(total, sizeof(uint32_t));
    out->j = out->i ? hs_grid_alloc_lines(total, sizeof(uint32_t)) : NULL;
    int oom = out->i == NULL || out->j == NULL;
    if (!oom)
        oom = want & HS_PAIRS_CONTACTS
                  ? hs_pairs_assemble_carried(lists, nl, total, n, par, out->i, out->j, &ans, &word)
                  : hs_pairs_assemble(lists, nl, n, par, out->i, out->j, NULL);
    if (!oom && (want & HS_PAIRS_SHIFTS))
        oom = hs_pairs_shifts(lists, nl, out->i, out->j, total, par, &out->sx, &out->sy);
    hs_pair_lists_clear(lists, nl); /* memory for the contacts */
    if (!oom && (want & HS_PAIRS_CONTACTS)) {
        out->nx = hs_grid_alloc_lines(total, sizeof(float));
        out->ny = hs_grid_alloc_lines(total, sizeof(float));
        out->distance = hs_grid_alloc_lines(total, sizeof(float));
        out->gap = hs_grid_alloc_lines(total, sizeof(float));
        oom = !out->nx || !out->ny || !out->distance || !out->gap;
    }
    if (!oom && (want & HS_PAIRS_CONTACTS)) {
        const contact_call c = {ans, word, total, out};
        hs_par_range(par, total, HS_PAIR_COPY_GRAIN, contact_range, (void *)&c);
    }
    free(word);
    free(ans);
    return oom;
}

hs_status hs_grid_pairs_ex(const hs_grid *g, const hs_pair_opts *po, const hs_batch_opts *opts,
                           hs_pairs *out)
{
    return hs_grid_pairs_filtered(g, po, NULL, opts, out);
}

hs_status hs_grid_pairs_filtered(const hs_grid *g, const hs_pair_opts *po, const uint32_t *collide,
                                 const hs_batch_opts *opts, hs_pairs *out)
{
    if (g == NULL || out == NULL)
        return HS_E_NULL;
    memset(out, 0, sizeof *out);
    const float skin = po ? po->skin : 0.0f;
    const unsigned want = po ? po->outputs : 0u;
    hs_status st = check_args(g, skin, want, opts);
    if (st != HS_OK)
        return st;
    const hs_par team = opts ? hs_par_make(opts->threads, opts->tasks) : hs_par_make(0, NULL);
    const size_t n = g->n;
    if (n < 2)
        return HS_OK;
    hs_pair_search s = {.g = g,
                        .tx = g->x,
                        .ty = g->y,
                        .tr = g->r,
                        .skin = (double)skin,
                        .contacts = (want & HS_PAIRS_CONTACTS) != 0,
                        .collide = collide};
    for (int l = 0; l < g->nlevels; l++)
        s.ext[l][0] = s.ext[l][1] = (double)g->lv[l].rmax + (double)skin;
    hs_pair_list *lists = NULL;
    size_t nl = 0;
    int oom = hs_pair_search_run(&s, &team, &lists, &nl);
    size_t total = 0;
    for (size_t b = 0; !oom && b < nl; b++)
        total += lists[b].len;
    if (!oom && s.contacts && total > HS_MAX_COUNT) { /* a contact is named by a 32-bit word */
        hs_pair_lists_free(lists, nl);
        return HS_E_TOO_MANY;
    }
    if (!oom && total > 0)
        oom = assemble(lists, nl, total, n, want, &team, out);
    hs_pair_lists_free(lists, nl);
    if (oom) {
        hs_pairs_free(out);
        return HS_E_NOMEM;
    }
    return HS_OK;
}

void hs_pairs_free(hs_pairs *p)
{
    if (p == NULL)
        return;
    free(p->i);
    free(p->j);
    free(p->sx);
    free(p->sy);
    free(p->nx);
    free(p->ny);
    free(p->distance);
    free(p->gap);
    memset(p, 0, sizeof *p);
}
