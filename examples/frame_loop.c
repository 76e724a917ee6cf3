/* Example: a simulation's frame loop — particles move, the grid is rebuilt in place, lasers are cast (closest and all hits) through one reused workspace. */
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "hitscan/hitscan.h"

#define N 200000 /* particles */
#define M 100000 /* lasers per frame */
#define FRAMES 8

static int check(hs_status s, const char *what)
{
    /* HS_E_INVALID_QUERY only means some queries were answered as misses */
    if (s == HS_OK || s == HS_E_INVALID_QUERY)
        return 0;
    fprintf(stderr, "frame_loop: %s failed (status %d)\n", what, (int)s);
    return 1;
}

int main(void)
{
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *r = malloc(N * sizeof *r);
    float *vx = malloc(N * sizeof *vx), *vy = malloc(N * sizeof *vy);
    float *ax = malloc(M * sizeof *ax), *ay = malloc(M * sizeof *ay);
    float *dx = malloc(M * sizeof *dx), *dy = malloc(M * sizeof *dy), *t = malloc(M * sizeof *t);
    uint32_t *idx = malloc(M * sizeof *idx);
    int rc = 1;
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    hs_workspace *ws = NULL;
    if (!x || !y || !r || !vx || !vy || !ax || !ay || !dx || !dy || !t || !idx)
        goto done;
    /* the uniform scene, and its segments as this frame's lasers */
    if (check(hs_scene_circles(HS_SCENE_UNIFORM, N, 1, x, y, r), "scene") ||
        check(hs_scene_segments(HS_SCENE_UNIFORM, N, M, 2, ax, ay, dx, dy), "lasers"))
        goto done;
    for (size_t i = 0; i < N; i++) { /* a fixed drift per particle, up to 0.5 per frame */
        vx[i] = 0.5f * (float)((i * 7919u) % 1000u) / 1000.0f - 0.25f;
        vy[i] = 0.5f * (float)((i * 104729u) % 1000u) / 1000.0f - 0.25f;
    }
    /* borrowed: the set reads x, y, r in place, so moving them moves the particles */
    if (check(hs_circles_borrow(x, y, r, NULL, N, &cs, NULL), "circles") ||
        check(hs_grid_build(cs, NULL, &g), "grid") ||
        check(hs_workspace_create(&ws), "workspace"))
        goto done;
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, M);
    hs_batch_opts o = hs_batch_opts_default();
    o.ws = ws; /* after the first frame, the queries allocate nothing */
    hs_closest_out out = {idx, t, NULL, NULL, NULL, NULL};
    printf("frame_loop: %d particles, %d lasers per frame, %d threads\n", N, M,
           omp_get_max_threads());
    for (int f = 0; f < FRAMES; f++) {
        const double t0 = omp_get_wtime();
        for (size_t i = 0; i < N; i++) {
            x[i] += vx[i];
            y[i] += vy[i];
        }
        const double t1 = omp_get_wtime();
        if (check(hs_grid_rebuild(g, cs), "rebuild"))
            goto done;
        const double t2 = omp_get_wtime();
        hs_hits all;
        if (check(hs_grid_closest(g, &qs, &o, out), "closest") ||
            check(hs_grid_all(g, &qs, &o, &all), "all hits"))
            goto done;
        const double t3 = omp_get_wtime();
        size_t missed = 0;
        for (size_t i = 0; i < M; i++)
            missed += idx[i] == HS_NONE;
        printf("  frame %d: move %.2f ms, rebuild %.2f ms, closest + all %.2f ms: %zu hits, "
               "%zu lasers missed, workspace %.1f MB\n",
               f, 1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2), all.total, missed,
               (double)hs_workspace_bytes(ws) / 1e6);
        hs_hits_free(&all); /* clears the struct; the arrays stay the workspace's */
    }
    rc = 0;
done:
    hs_workspace_destroy(ws);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    free(x), free(y), free(r), free(vx), free(vy);
    free(ax), free(ay), free(dx), free(dy), free(t), free(idx);
    return rc;
}
