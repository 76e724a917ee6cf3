/* Empty-space skipping: the grid's empty distances equal a brute-force chessboard distance,
 * capped at 255, on scenes, hand-made grids and rebuilds; and long queries through mostly
 * empty worlds (where the walk steps over many cells at once, in every direction, with
 * thickness, rays and lines) give brute force's answers at every ISA level and thread
 * count (batch_check.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hitscan/hitscan.h"
#include "batch_check.h"
#include "grid/layout.h"
#include "test_util.h"

/* Every cell's distance against the nonempty cells listed, level by level. */
static void check_distances(const hs_grid *g)
{
    assert_non_null(g->empty);
    for (int l = 0; l < g->nlevels; l++) {
        const hs_glevel *L = &g->lv[l];
        const uint32_t *cs = g->cell_start + L->cell0;
        const uint8_t *d = g->empty + L->cell0;
        const size_t nx = (size_t)L->nx, ny = (size_t)L->ny, nc = nx * ny;
        int32_t *occ = xcalloc(2 * nc, sizeof(int32_t));
        size_t no = 0;
        for (size_t c = 0; c < nc; c++)
            if (cs[c + 1] != cs[c]) {
                occ[2 * no] = (int32_t)(c % nx);
                occ[2 * no + 1] = (int32_t)(c / nx);
                no++;
            }
        for (size_t c = 0; c < nc; c++) {
            const int32_t cx = (int32_t)(c % nx), cy = (int32_t)(c / nx);
            int32_t best = 255;
            for (size_t k = 0; k < no; k++) {
                const int32_t ax = abs(occ[2 * k] - cx), ay = abs(occ[2 * k + 1] - cy);
                const int32_t dist = ax > ay ? ax : ay;
                best = dist < best ? dist : best;
            }
            if (d[c] != best)
                fail_msg("level %d cell (%d, %d): empty distance %d, brute force %d", l, cx, cy,
                         d[c], best);
        }
        free(occ);
    }
}

static void test_empty_distances(void **state)
{
    (void)state;
    const size_t n = test_quick() ? 1500 : 4000;
    float *x = xcalloc(n, 4), *y = xcalloc(n, 4), *r = xcalloc(n, 4);
    const float cells[3] = {0.0f, 3.0f, 25.0f};
    for (int kind = 0; kind < (int)HS_SCENE_COUNT_; kind++)
        for (int c = 0; c < 3; c++) {
            assert_int_equal(hs_scene_circles((hs_scene_kind)kind, n, 11u, x, y, r), HS_OK);
            hs_circles *cs = NULL;
            hs_grid *g = NULL;
            assert_int_equal(hs_circles_create(x, y, r, NULL, n, &cs, NULL), HS_OK);
            hs_grid_opts o = {cells[c], 0};
            assert_int_equal(hs_grid_build(cs, &o, &g), HS_OK);
            check_distances(g);
            /* a rebuild on fewer circles keeps the memory and must rewrite every distance */
            hs_circles *few = NULL;
            assert_int_equal(hs_circles_create(x, y, r, NULL, n / 50, &few, NULL), HS_OK);
            assert_int_equal(hs_grid_rebuild(g, few), HS_OK);
            check_distances(g);
            hs_grid_destroy(g);
            hs_circles_destroy(cs);
            hs_circles_destroy(few);
        }
    /* a one-row grid with its circles at both ends: distances past the 255 cap; and a few
     * circles far apart */
    for (size_t i = 0; i < n; i++) {
        x[i] = i % 2 ? 0.0f : 2000.0f + (float)(i % 7);
        y[i] = 0.0f;
        r[i] = 0.5f;
    }
    x[3] = 700.0f;
    for (size_t k = 1; k <= 6; k++) {
        hs_circles *cs = NULL;
        hs_grid *g = NULL;
        const size_t nk = k < 6 ? k : n;
        assert_int_equal(hs_circles_create(x, y, r, NULL, nk, &cs, NULL), HS_OK);
        hs_grid_opts o = {k == 6 ? 0.0f : 1.0f, 1};
        assert_int_equal(hs_grid_build(cs, &o, &g), HS_OK);
        check_distances(g);
        hs_grid_destroy(g);
        hs_circles_destroy(cs);
    }
    free(x);
    free(y);
    free(r);
}

/* Clusters in a wide empty world, queried by long segments, rays and lines from everywhere:
 * grid == brute force in every mode, ISA level and thread count. */
static void test_long_queries_sparse(void **state)
{
    (void)state;
    rng_state = 2121;
    const size_t n = test_quick() ? 2000 : 6000, m = test_quick() ? 300 : 1200;
    float *x = xcalloc(n, 4), *y = xcalloc(n, 4), *r = xcalloc(n, 4);
    float *ax = xcalloc(m, 4), *ay = xcalloc(m, 4), *dx = xcalloc(m, 4), *dy = xcalloc(m, 4);
    float *t0 = xcalloc(m, 4), *t1 = xcalloc(m, 4), *q = xcalloc(m, 4);
    const float side = hs_scene_world_side(HS_SCENE_SPARSE, n);
    assert_int_equal(hs_scene_circles(HS_SCENE_SPARSE, n, 5u, x, y, r), HS_OK);
    for (size_t i = 0; i < m; i++) {
        ax[i] = unif(-0.1f * side, 1.1f * side);
        ay[i] = unif(-0.1f * side, 1.1f * side);
        const float ang = unif(0.0f, 6.2831853f), len = unif(0.0f, side);
        /* axis-parallel and 45-degree ones too: the slab walks' limits */
        const float a = i % 7 == 0 ? 1.5707963f * (float)(i % 4) : i % 11 == 0 ? 0.7853982f : ang;
        dx[i] = len * cosf(a);
        dy[i] = len * sinf(a);
        t0[i] = i % 13 == 0 ? -INFINITY : 0.0f;
        t1[i] = i % 17 == 0 ? INFINITY : 1.0f;
        q[i] = i % 5 == 0 ? unif(0.0f, 8.0f) : 0.0f;
    }
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, m);
    qs.tmin = t0;
    qs.tmax = t1;
    qs.q = q;
    const float cells[3] = {0.0f, 2.0f, 9.0f};
    for (int sem = HS_SOLID; sem <= HS_BOUNDARY; sem++)
        for (int c = 0; c < 3; c++)
            for (int th = 1; th <= 3; th++) {
                bc_input in;
                memset(&in, 0, sizeof in);
                in.x = x;
                in.y = y;
                in.r = r;
                in.n = n;
                in.qs = qs;
                in.sem = (hs_semantics)sem;
                in.cell = cells[c];
                in.threads = th;
                char msg[512];
                if (bc_check(&in, msg, sizeof msg))
                    fail_msg("sem %d cell %g threads %d: %s", sem, (double)cells[c], th, msg);
            }
    free(x), free(y), free(r), free(ax), free(ay), free(dx), free(dy), free(t0), free(t1), free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_distances),
        cmocka_unit_test(test_long_queries_sparse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
