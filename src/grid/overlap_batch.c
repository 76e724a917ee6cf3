/* SPDX-License-Identifier: MIT */
/* Batched disc overlap queries, hs_grid_overlap_discs (and _filtered): the discs in chunks on
 * the team, each chunk's rows into a buffer of its own (sorted row by row), then the rows' offsets
 * and one copy into the result. Chunks are consecutive discs, so the result does not depend on the
 * team. */
#include <stdlib.h>
#include <string.h>

#include "batch/parallel.h"

#include "grid/discs.h"
#include "grid/overlap_visit.h"
#include "hitscan/narrow.h"

/* Discs per chunk: a unit of the schedule. */
enum { CHUNK = 256 };

/* Rows up to this long are sorted by insertion; longer ones by qsort. */
enum { INSERTION_MAX = 32 };

typedef struct chunk_rows {
    uint32_t *v;
    size_t len, cap;
    int oom;
} chunk_rows;

static void push(void *st, uint32_t id)
{
    chunk_rows *c = st;
    if (c->len == c->cap) {
        const size_t cap = c->cap ? 2 * c->cap : 256;
        uint32_t *v = realloc(c->v, cap * sizeof *v);
        if (v == NULL) {
            c->oom = 1;
            return;
        }
        c->v = v;
        c->cap = cap;
    }
    c->v[c->len++] = id;
}

static void sort_row(uint32_t *v, size_t n)
{
    if (n > INSERTION_MAX) {
        qsort(v, n, sizeof *v, hs_cmp_u32);
        return;
    }
    for (size_t a = 1; a < n; a++) {
        const uint32_t x = v[a];
        size_t b = a;
        for (; b > 0 && v[b - 1] > x; b--)
            v[b] = v[b - 1];
        v[b] = x;
    }
}

/* The rows of discs [q0, q1) into c, each row's length into len[q]; the invalid discs
 * counted, the first of them kept in *first. */
static void chunk_run(const hs_grid *g, const float *x, const float *y, const float *r,
                      const uint32_t *mask, const uint32_t *category, const uint32_t *collide,
                      size_t q0, size_t q1, chunk_rows *c, size_t *len, size_t *invalid,
                      size_t *first)
{
    for (size_t q = q0; q < q1 && !c->oom; q++) {
        const hs_circle d = {x[q], y[q], r ? r[q] : 0.0f};
        const size_t start = c->len;
        if (hs_circle_validate(d) != HS_OK) {
            *first = *invalid == 0 ? q : *first;
            ++*invalid;
        } else {
            hs_grid_disc_visit(g, d, mask ? mask[q] : UINT32_MAX,
                               category ? category[q] : UINT32_MAX, collide, push, c);
            if (c->len > start && !c->oom) /* v may still be NULL otherwise */
                sort_row(c->v + start, c->len - start);
        }
        len[q] = c->len - start;
    }
}

typedef struct chunks_call {
    const hs_grid *g;
    const float *x, *y, *r;
    const uint32_t *mask, *category, *collide;
    size_t m;
    chunk_rows *rows;
    size_t *len;
    hs_par_tally sum;
    atomic_int oom;
} chunks_call;

static void chunk_one(void *ctx, size_t k, int slot)
{
    chunks_call *c = (chunks_call *)ctx;
    const size_t q0 = k * CHUNK, q1 = c->m - q0 > CHUNK ? q0 + CHUNK : c->m;
    size_t bad = 0, at = (size_t)-1;
    (void)slot;
    chunk_run(c->g, c->x, c->y, c->r, c->mask, c->category, c->collide, q0, q1, &c->rows[k], c->len,
              &bad, &at);
    const hs_tally t = {0, bad, at};
    hs_par_tally_add(&c->sum, &t);
    if (c->rows[k].oom)
        atomic_store(&c->oom, 1);
}

typedef struct copy_call {
    const chunk_rows *rows;
    hs_overlaps *out;
} copy_call;

static void copy_chunk(void *ctx, size_t k, int slot)
{
    const copy_call *c = (const copy_call *)ctx;
    (void)slot;
    if (c->rows[k].len)
        memcpy(c->out->idx + c->out->offsets[k * CHUNK], c->rows[k].v,
               c->rows[k].len * sizeof *c->out->idx);
}

hs_status hs_grid_overlap_discs(const hs_grid *g, const float *x, const float *y, const float *r,
                                const uint32_t *mask, size_t m, const hs_batch_opts *opts,
                                hs_overlaps *out)
{
    return hs_grid_overlap_discs_filtered(g, x, y, r, mask, NULL, NULL, m, opts, out);
}

hs_status hs_grid_overlap_discs_filtered(const hs_grid *g, const float *x, const float *y,
                                         const float *r, const uint32_t *mask,
                                         const uint32_t *category, const uint32_t *collide,
                                         size_t m, const hs_batch_opts *opts, hs_overlaps *out)
{
    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (g == NULL || out == NULL || (m > 0 && (x == NULL || y == NULL)))
        return HS_E_NULL;
    if (opts && opts->threads < 0)
        return HS_E_RANGE;
    if (m > HS_MAX_COUNT)
        return HS_E_TOO_MANY;
    const hs_par par = opts ? hs_par_make(opts->threads, opts->tasks) : hs_par_make(0, NULL);
    const size_t nchunks = (m + CHUNK - 1) / CHUNK;
    chunk_rows *rows = calloc(nchunks ? nchunks : 1, sizeof *rows);
    out->offsets = malloc((m + 1) * sizeof *out->offsets);
    int oom = rows == NULL || out->offsets == NULL;
    size_t invalid = 0, first = (size_t)-1;
    if (!oom) {
        chunks_call c = {g,         x, y, r, mask, category, collide, m, rows, out->offsets + 1,
                         {0, 0, 0}, 0};
        hs_par_tally_init(&c.sum);
        atomic_init(&c.oom, 0);
        hs_par_for(&par, nchunks, chunk_one, &c);
        const hs_tally t = hs_par_tally_get(&c.sum);
        invalid = t.invalid;
        first = t.first;
        oom = atomic_load(&c.oom);
    }
    if (!oom) {
        out->offsets[0] = 0;
        for (size_t q = 0; q < m; q++)
            out->offsets[q + 1] += out->offsets[q];
        out->count = m;
        out->total = out->offsets[m];
        out->idx = malloc((out->total ? out->total : 1) * sizeof *out->idx);
        oom = out->idx == NULL;
    }
    if (!oom) {
        const copy_call c = {rows, out};
        hs_par_for(&par, nchunks, copy_chunk, (void *)&c);
    }
    for (size_t k = 0; rows && k < nchunks; k++)
        free(rows[k].v);
    free(rows);
    if (oom) {
        hs_overlaps_free(out);
        return HS_E_NOMEM;
    }
    if (opts && opts->stats) {
        opts->stats->invalid = invalid;
        opts->stats->first_invalid = first;
        opts->stats->pair_tests = 0;
    }
    return invalid ? HS_E_INVALID_QUERY : HS_OK;
}

void hs_overlaps_free(hs_overlaps *o)
{
    if (o == NULL)
        return;
    free(o->offsets);
    free(o->idx);
    memset(o, 0, sizeof *o);
}
