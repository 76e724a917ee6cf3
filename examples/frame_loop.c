/* SPDX-License-Identifier: MIT */
/* Example: a simulation's frame loop — particles move, the grid is rebuilt in place, lasers are
 * cast (closest and all hits) through one reused workspace. `frame_loop --frames DIR` also draws
 * each frame's window at the world's centre to DIR/frame_NNN.svg, creating DIR (and its parents)
 * when it does not exist. */
#define _POSIX_C_SOURCE 200809L /* mkdir, stat */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <omp.h>

#include "hitscan/hitscan.h"
#include "svg.h"

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

/* mkdir -p: every missing folder on the way to dir, 0777 less the umask. On failure prints the
 * folder that could not be made and why, and returns -1 with errno set. */
static int make_dirs(const char *dir)
{
    char path[4096];
    const size_t len = strlen(dir);
    if (len == 0 || len >= sizeof path) {
        errno = len ? ENAMETOOLONG : ENOENT;
        fprintf(stderr, "frame_loop: cannot create the folder '%s': %s\n", dir, strerror(errno));
        return -1;
    }
    memcpy(path, dir, len + 1);
    /* each prefix that ends a component, the whole path last; "a//b" and a trailing '/' are
     * fine: mkdir of an existing prefix only says EEXIST */
    for (size_t i = 1; i <= len; i++) {
        if (i < len && path[i] != '/')
            continue;
        const char keep = path[i];
        path[i] = '\0';
        int e = mkdir(path, 0777) == 0 ? 0 : errno;
        struct stat st;
        if (e == EEXIST) /* fine if it is a folder (or a link to one) */
            e = stat(path, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
        if (e != 0) {
            fprintf(stderr, "frame_loop: cannot create the folder '%s': %s\n", path, strerror(e));
            errno = e;
            return -1;
        }
        path[i] = keep;
    }
    return 0;
}

/* The picture of one frame: the particles, grid cells and lasers inside a WINDOW-wide square
 * at the world's centre, with each laser's closest hit and its normal. */
#define WINDOW 80.0

static int write_frame(const char *dir, int frame, const hs_grid *g, const float *x, const float *y,
                       const float *r, const hs_queries *qs, const uint32_t *idx, const float *t)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < N; i++) {
        lo[0] = fmin(lo[0], x[i]), hi[0] = fmax(hi[0], x[i]);
        lo[1] = fmin(lo[1], y[i]), hi[1] = fmax(hi[1], y[i]);
    }
    const double cx = 0.5 * (lo[0] + hi[0]), cy = 0.5 * (lo[1] + hi[1]), half = 0.5 * WINDOW;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/frame_%03d.svg", dir, frame) >= (int)sizeof path) {
        fprintf(stderr, "frame_loop: cannot write a frame to '%s': %s\n", dir,
                strerror(ENAMETOOLONG));
        return -1;
    }
    svg_canvas c;
    errno = 0;
    if (svg_open(&c, path, cx - half, cy - half, cx + half, cy + half, 800.0) != 0) {
        fprintf(stderr, "frame_loop: cannot create '%s': %s\n", path, strerror(errno));
        return -1;
    }
    /* the grid's cells start at the smallest centre coordinates (grid.h) */
    const double h = hs_grid_cell_size(g);
    const double i0 = floor((cx - half - lo[0]) / h), j0 = floor((cy - half - lo[1]) / h);
    const int ncells = (int)ceil(WINDOW / h) + 1;
    svg_cells(&c, lo[0] + i0 * h, lo[1] + j0 * h, h, ncells, ncells);
    const double reach = half + 2.0; /* particles cut by the window's edge are drawn too */
    for (size_t i = 0; i < N; i++)
        if (fabs(x[i] - cx) < reach && fabs(y[i] - cy) < reach)
            svg_circle(&c, (hs_circle){x[i], y[i], r[i]}, "particle");
    for (size_t i = 0; i < qs->count; i++) {
        const hs_query q = {{qs->ax[i], qs->ay[i]}, {qs->dx[i], qs->dy[i]}, 0.0f, 1.0f, 0.0f};
        /* a laser is at most its length from its start: skip those that cannot reach in */
        const double len = hypot(q.d.x, q.d.y);
        if (fabs(q.a.x - cx) > half + len || fabs(q.a.y - cy) > half + len)
            continue;
        if (idx[i] == HS_NONE) {
            svg_query(&c, q, 0.0, 1.0, "laser");
            continue;
        }
        svg_query(&c, q, 0.0, t[i], "laser");
        svg_query(&c, q, t[i], 1.0, "past");
        const hs_circle k = {x[idx[i]], y[idx[i]], r[idx[i]]};
        const hs_vec2 p = {q.a.x + t[i] * q.d.x, q.a.y + t[i] * q.d.y};
        const double dn = hypot(p.x - k.x, p.y - k.y);
        svg_circle(&c, k, "struck");
        if (dn > 0.0)
            svg_arrow(&c, p, (hs_vec2){(float)((p.x - k.x) / dn), (float)((p.y - k.y) / dn)}, 1.5,
                      "normal");
        svg_dot(&c, p, "hit");
    }
    char caption[64];
    snprintf(caption, sizeof caption, "frame %d", frame);
    svg_text(&c, (hs_vec2){(float)(cx - half + 1.0), (float)(cy + half - 3.0)}, caption, "label");
    if (svg_close(&c) != 0) {
        /* the stream keeps the errno of its failed write or close; EIO if nothing set one */
        fprintf(stderr, "frame_loop: cannot write '%s': %s\n", path, strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *frames_dir;
    if (svg_option(argc, argv, "--frames", "DIR", &frames_dir) != 0)
        return 2;
    if (frames_dir && make_dirs(frames_dir) != 0)
        return 1;
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
    /* the benchmarks' uniform scene, and its segments as this frame's lasers */
    if (check(hs_scene_circles(HS_SCENE_UNIFORM, N, 1, x, y, r), "scene") ||
        check(hs_scene_segments(HS_SCENE_UNIFORM, N, M, 2, ax, ay, dx, dy), "lasers"))
        goto done;
    for (size_t i = 0; i < N; i++) { /* a fixed drift per particle, up to 0.5 per frame */
        vx[i] = 0.5f * (float)((i * 7919u) % 1000u) / 1000.0f - 0.25f;
        vy[i] = 0.5f * (float)((i * 104729u) % 1000u) / 1000.0f - 0.25f;
    }
    /* borrowed: the set reads x, y, r in place, so moving them moves the particles */
    if (check(hs_circles_borrow(x, y, r, NULL, N, &cs, NULL), "circles") ||
        check(hs_grid_build(cs, NULL, &g), "grid") || check(hs_workspace_create(&ws), "workspace"))
        goto done;
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, M);
    hs_batch_opts o = hs_batch_opts_default();
    o.ws = ws; /* after the first frame, the queries allocate nothing */
    const hs_closest_out out = {.idx = idx, .t = t}; /* no points, no normals */
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
        if (frames_dir && write_frame(frames_dir, f, g, x, y, r, &qs, idx, t) != 0)
            goto done; /* write_frame said which file and why */
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
