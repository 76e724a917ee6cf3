/* SPDX-License-Identifier: MIT */
/* The walk's plan on its own, not only its answers: which circles the walk lists to test for
 * each query (walk/walkers.h's trace_range), on hand-made scenes. For every ISA level and for
 * count (every row walked) and closest on queries that hit nothing (no early exit):
 *   - every circle a query could touch is listed, and none twice;
 *   - no circle is listed whose cell lies beyond the query's reach (the level's largest
 *     radius) plus a cell: the plan follows the query, not its bounding box;
 *   - every level and mode lists the same circles (the plans share their float arithmetic).
 * A planner bug then fails one of these named cases rather than only an end-to-end hash. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "batch/tally.h"
#include "grid/layout.h"
#include "hitscan/grid.h"
#include "walk/walkers.h"
#include "test_util.h"

enum { TRACE_CAP = 1 << 20 };

/* (query, caller's circle) pairs a walk listed, sorted. */
typedef struct listed {
    uint64_t *pair;
    size_t n;
} listed;

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Distance from (px, py) to the segment a + t d, t in [0, 1], in double. */
static double seg_dist(double px, double py, double ax, double ay, double dx, double dy)
{
    const double dd = dx * dx + dy * dy;
    double t = dd > 0 ? ((px - ax) * dx + (py - ay) * dy) / dd : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/* The walk of level isa over the segments, as count (closest = 0) or closest: what it listed. */
static listed plan_of(const hs_grid *g, const hs_queries *qs, hs_isa isa, int closest)
{
    const hs_grid_walkers *gw = hs_grid_walkers_get(isa);
    assert_non_null(gw);
    const size_t m = qs->count;
    hs_plan_trace tr = {0, TRACE_CAP, xcalloc(TRACE_CAP, 4), xcalloc(TRACE_CAP, 4),
                        xcalloc(TRACE_CAP, 4)};
    void *state = aligned_alloc(HS_WALK_STATE_ALIGN, (gw->state_bytes + HS_WALK_STATE_ALIGN - 1) /
                                                         HS_WALK_STATE_ALIGN * HS_WALK_STATE_ALIGN);
    assert_non_null(state);
    uint32_t *count = xcalloc(m, 4), *idx = xcalloc(m, 4);
    float *t = xcalloc(m, 4);
    const hs_closest_out co = {idx, t, NULL, NULL, NULL, NULL, NULL};
    hs_tally tally = HS_TALLY_INIT;
    const hs_walk_range r = {g, qs, NULL, HS_SOLID, 0, m, &tally, state, NULL};
    gw->trace_range(&r, closest, count, co, &tr);
    assert_true(tr.n <= tr.cap);
    assert_int_equal(tally.invalid, 0);
    listed L = {xcalloc(4 * (tr.n + 1), sizeof(uint64_t)), 0};
    for (size_t k = 0; k < tr.n; k++) {
        assert_true(tr.lanes[k] >= 1 && tr.lanes[k] <= (uint32_t)hs_isa_width(isa));
        for (uint32_t u = 0; u < tr.lanes[k]; u++) {
            const uint32_t pos = tr.start[k] + u;
            assert_true(pos < g->n);
            L.pair = realloc(L.pair, (L.n + 1) * sizeof *L.pair);
            L.pair[L.n++] = (uint64_t)tr.query[k] << 32 | g->id[pos];
        }
    }
    qsort(L.pair, L.n, sizeof *L.pair, cmp_u64);
    free(tr.query);
    free(tr.start);
    free(tr.lanes);
    free(state);
    free(count);
    free(idx);
    free(t);
    return L;
}

/* The storage position of each caller's circle. */
static uint32_t *storage_of(const hs_grid *g)
{
    uint32_t *pos = xcalloc(g->n, sizeof *pos);
    for (uint32_t p = 0; p < g->n; p++)
        pos[g->id[p]] = p;
    return pos;
}

/* The level that stores position p. */
static const hs_glevel *level_of(const hs_grid *g, uint32_t p)
{
    return p < g->lv[0].n ? &g->lv[0] : &g->lv[1];
}

/* The three properties of the header for one plan: complete, no repeats, local. */
static void check_plan(const hs_grid *g, const scene *s, const batch *b, const listed *L)
{
    uint32_t *pos = storage_of(g);
    for (size_t k = 1; k < L->n; k++)
        assert_true(L->pair[k] != L->pair[k - 1]); /* none twice */
    for (size_t k = 0; k < L->n; k++) {            /* local */
        const uint32_t q = (uint32_t)(L->pair[k] >> 32), c = (uint32_t)L->pair[k];
        const hs_glevel *lv = level_of(g, pos[c]);
        const double far = lv->rmax + 2.0 * 1.4142135623730951 * lv->h;
        assert_true(seg_dist(s->x[c], s->y[c], b->ax[q], b->ay[q], b->dx[q], b->dy[q]) <= far);
    }
    size_t k = 0; /* complete: every circle within reach of a query is listed for it */
    for (uint32_t q = 0; q < b->m; q++)
        for (uint32_t c = 0; c < s->n; c++) {
            const double d = seg_dist(s->x[c], s->y[c], b->ax[q], b->ay[q], b->dx[q], b->dy[q]);
            if (d > (double)s->r[c] * (1 + 1e-6) + 1e-6)
                continue;
            const uint64_t key = (uint64_t)q << 32 | c;
            while (k < L->n && L->pair[k] < key)
                k++;
            assert_true(k < L->n && L->pair[k] == key);
        }
    free(pos);
}

/* Every level and mode: the properties, and the same list as the scalar level's count. */
static size_t check_all_levels(const scene *s, const batch *b)
{
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s->cs, NULL, &g), HS_OK);
    listed ref = plan_of(g, &b->qs, HS_ISA_SCALAR, 0);
    check_plan(g, s, b, &ref);
    for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
        if (!hs_isa_supported((hs_isa)isa))
            continue;
        for (int closest = 0; closest < 2; closest++) {
            listed L = plan_of(g, &b->qs, (hs_isa)isa, closest);
            check_plan(g, s, b, &L);
            assert_int_equal(L.n, ref.n);
            assert_memory_equal(L.pair, ref.pair, L.n * sizeof *L.pair);
            free(L.pair);
        }
    }
    const size_t n = ref.n;
    free(ref.pair);
    hs_grid_destroy(g);
    return n;
}

/* A lattice of circles of radius r, one per unit square of [0, side)^2, plus extra ones. */
static void lattice(scene *s, int side, float r, size_t extra)
{
    scene_alloc(s, (size_t)side * (size_t)side + extra);
    size_t k = 0;
    for (int i = 0; i < side; i++)
        for (int j = 0; j < side; j++, k++) {
            s->x[k] = (float)i + 0.5f;
            s->y[k] = (float)j + 0.5f;
            s->r[k] = r;
        }
}

/* The circles' filter bits are 1 and the queries' 2 (segments), so nothing hits: closest then
 * has no early exit and lists what count lists. */
static void make_set(scene *s)
{
    s->mask = xcalloc(s->n, sizeof *s->mask);
    for (size_t k = 0; k < s->n; k++)
        s->mask[k] = 1;
    assert_int_equal(hs_circles_create(s->x, s->y, s->r, s->mask, s->n, &s->cs, NULL), HS_OK);
}

static void segments(batch *b, size_t m)
{
    batch_alloc_arrays(b, m, 0);
    b->qs = hs_queries_segments(b->ax, b->ay, b->dx, b->dy, m);
    b->qs.mask_all = 2;
}

/* Horizontal segments along a row of the lattice, between its circles: the plan lists the
 * circles of the rows within reach, and nothing of the rows beyond. */
static void test_plan_along_row(void **state)
{
    (void)state;
    scene s;
    lattice(&s, 64, 0.3f, 0);
    make_set(&s);
    batch b;
    segments(&b, 8);
    for (size_t q = 0; q < b.m; q++) {
        b.ax[q] = 4.0f + (float)q;
        b.ay[q] = 20.0f + 0.5f + 3.0f * (float)q; /* through the centres of row 20 + 3q */
        b.dx[q] = 12.0f;
        b.dy[q] = 0.0f;
    }
    const size_t n = check_all_levels(&s, &b);
    assert_true(n >= 8 * 13); /* at least the row's own 13 circles each */
    batch_free(&b);
    scene_free(&s);
}

/* Diagonal segments across the lattice: the runs follow the diagonal, so the plan lists far
 * fewer circles than the segments' bounding boxes hold. */
static void test_plan_diagonal(void **state)
{
    (void)state;
    scene s;
    lattice(&s, 64, 0.3f, 0);
    make_set(&s);
    batch b;
    segments(&b, 4);
    for (size_t q = 0; q < b.m; q++) {
        b.ax[q] = 2.0f + 3.0f * (float)q;
        b.ay[q] = 2.2f;
        b.dx[q] = 30.0f;
        b.dy[q] = (q % 2 ? -1.0f : 1.0f) * 30.0f;
        if (q % 2)
            b.ay[q] = 60.0f;
    }
    const size_t n = check_all_levels(&s, &b);
    assert_true(n < 4 * 900 / 4); /* each box holds about 900 circles */
    batch_free(&b);
    scene_free(&s);
}

/* Circles only in the left half of the world: segments in the empty right half list none. */
static void test_plan_empty_region(void **state)
{
    (void)state;
    scene s;
    lattice(&s, 64, 0.3f, 0);
    for (size_t k = 0; k < s.n; k++)
        s.x[k] = s.x[k] * 0.5f; /* squeeze into x < 32 */
    s.x[0] = 63.5f;             /* and keep the world 64 wide */
    make_set(&s);
    batch b;
    segments(&b, 6);
    for (size_t q = 0; q < b.m; q++) {
        b.ax[q] = 40.0f + 2.0f * (float)q;
        b.ay[q] = 10.0f + 7.0f * (float)q;
        b.dx[q] = 6.0f;
        b.dy[q] = 5.0f;
    }
    assert_int_equal(check_all_levels(&s, &b), 0);
    batch_free(&b);
    scene_free(&s);
}

/* Segments that pass within reach of a big circle (the grid's second level) but not of its
 * centre's cell: the big circle is listed for each of them. */
static void test_plan_past_big_circle(void **state)
{
    (void)state;
    scene s;
    lattice(&s, 64, 0.3f, 3);
    const float big[3][3] = {{20.0f, 20.0f, 12.0f}, {45.0f, 40.0f, 9.0f}, {10.0f, 50.0f, 6.0f}};
    for (int k = 0; k < 3; k++) {
        s.x[s.n - 3 + (size_t)k] = big[k][0];
        s.y[s.n - 3 + (size_t)k] = big[k][1];
        s.r[s.n - 3 + (size_t)k] = big[k][2];
    }
    make_set(&s);
    batch b;
    segments(&b, 3);
    for (size_t q = 0; q < b.m; q++) { /* tangent-ish: the segment passes just inside the rim */
        b.ax[q] = big[q][0] + big[q][2] - 0.25f;
        b.ay[q] = big[q][1] - 3.0f;
        b.dx[q] = 0.0f;
        b.dy[q] = 6.0f;
    }
    hs_grid *g = NULL;
    assert_int_equal(hs_grid_build(s.cs, NULL, &g), HS_OK);
    assert_int_equal(g->nlevels, 2);
    hs_grid_destroy(g);
    check_all_levels(&s, &b);
    batch_free(&b);
    scene_free(&s);
}

/* Random short segments over a scene with mixed radii, some from outside the world. */
static void test_plan_random(void **state)
{
    (void)state;
    rng_state = 45;
    const size_t n = test_quick() ? 1500 : 4000, m = 300;
    scene s;
    scene_alloc(&s, n);
    for (size_t k = 0; k < n; k++) {
        s.x[k] = unif(0.0f, 100.0f);
        s.y[k] = unif(0.0f, 100.0f);
        s.r[k] = irand(100) == 0 ? unif(4.0f, 12.0f) : unif(0.1f, 0.9f);
    }
    make_set(&s);
    batch b;
    segments(&b, m);
    for (size_t q = 0; q < m; q++) {
        b.ax[q] = unif(-10.0f, 110.0f);
        b.ay[q] = unif(-10.0f, 110.0f);
        b.dx[q] = unif(-15.0f, 15.0f);
        b.dy[q] = unif(-15.0f, 15.0f);
    }
    check_all_levels(&s, &b);
    batch_free(&b);
    scene_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_along_row),    cmocka_unit_test(test_plan_diagonal),
        cmocka_unit_test(test_plan_empty_region), cmocka_unit_test(test_plan_past_big_circle),
        cmocka_unit_test(test_plan_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
