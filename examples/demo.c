/* SPDX-License-Identifier: MIT */
/* Demo: a built-in scene of asteroids and lasers; prints what each laser hits first, where, and
 * the normal. `demo --svg FILE` also draws the scene: rocks, lasers, hit points, normals, and
 * the cells of a grid built over the rocks. */
#include <math.h>
#include <stdio.h>

#include "hitscan/hitscan.h"
#include "svg.h"

struct laser {
    const char *name;
    hs_query q;
};

/* The grid's cells are anchored at the smallest centre coordinates and number
 * floor(extent / side) + 1 per axis (grid.h: the cell side is hs_grid_cell_size). */
static int draw_grid_cells(svg_canvas *c, const hs_circle *rocks, size_t n)
{
    float x[16], y[16], r[16];
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    if (n > sizeof x / sizeof x[0])
        return -1;
    for (size_t i = 0; i < n; i++) {
        x[i] = rocks[i].x, y[i] = rocks[i].y, r[i] = rocks[i].r;
        lo[0] = fmin(lo[0], x[i]), hi[0] = fmax(hi[0], x[i]);
        lo[1] = fmin(lo[1], y[i]), hi[1] = fmax(hi[1], y[i]);
    }
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    /* a finer cell than the automatic one (about 4 circles a cell), so the picture shows cells */
    const hs_grid_opts go = {.cell_size = 2.0f, .threads = 1};
    if (hs_circles_create(x, y, r, NULL, n, &cs, NULL) != HS_OK ||
        hs_grid_build(cs, &go, &g) != HS_OK) {
        hs_circles_destroy(cs);
        return -1;
    }
    const double h = hs_grid_cell_size(g);
    svg_cells(c, lo[0], lo[1], h, (int)floor((hi[0] - lo[0]) / h) + 1,
              (int)floor((hi[1] - lo[1]) / h) + 1);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return 0;
}

static int write_svg(const char *path, const hs_circle *rocks, size_t nrocks,
                     const struct laser *lasers, const hs_hit *best, const long *best_i,
                     size_t nlasers)
{
    svg_canvas c;
    if (svg_open(&c, path, -14.0, -12.0, 30.0, 16.0, 880.0) != 0)
        return -1;
    if (draw_grid_cells(&c, rocks, nrocks) != 0) {
        svg_close(&c);
        return -1;
    }
    char label[32];
    for (size_t j = 0; j < nrocks; j++) {
        const hs_circle k = rocks[j];
        svg_circle(&c, k, "rock");
        snprintf(label, sizeof label, "rock %zu", j);
        /* inside a large rock, under a small one */
        svg_text(&c, (hs_vec2){k.x, k.r >= 1.5f ? k.y - 0.3f : k.y - k.r - 1.0f}, label, "name");
    }
    static const char *const legend[] = {
        "red: lasers, a thick beam (q = 1) and its swept circle at contact",
        "dashed: past the closest hit; dot: hit point; green: normal",
        "grey lines: the cells of a grid built over the rocks",
    };
    for (int i = 0; i < 3; i++)
        svg_text(&c, (hs_vec2){-13.5f, -9.0f - 1.1f * (float)i}, legend[i], "label");
    for (size_t i = 0; i < nlasers; i++) {
        const hs_query q = lasers[i].q;
        const char *shot = q.q > 0.0f ? "beam" : "laser";
        if (best_i[i] < 0) {
            svg_query(&c, q, -INFINITY, INFINITY, shot);
            continue;
        }
        svg_query(&c, q, -INFINITY, best[i].t, shot);
        svg_query(&c, q, best[i].t, INFINITY, "past");
        if (q.q > 0.0f) /* the swept circle where it first touches the rock */
            svg_circle(&c, (hs_circle){best[i].point.x, best[i].point.y, q.q}, "reach");
        const hs_circle k = rocks[best_i[i]];
        const hs_vec2 surface = {k.x + k.r * best[i].normal.x, k.y + k.r * best[i].normal.y};
        svg_arrow(&c, surface, best[i].normal, 2.5, "normal");
        svg_dot(&c, best[i].point, "hit");
    }
    return svg_close(&c);
}

int main(int argc, char **argv)
{
    const char *svg_path;
    if (svg_option(argc, argv, "--svg", "FILE", &svg_path) != 0)
        return 2;
    /* asteroids: two overlapping, one tiny, one behind the ship at the origin */
    static const hs_circle rocks[] = {
        {10.0f, 0.0f, 2.0f}, {13.0f, 1.0f, 2.0f},  {5.0f, 5.0f, 0.25f},
        {-8.0f, 0.0f, 3.0f}, {20.0f, -6.0f, 4.0f}, {0.0f, 12.0f, 1.0f},
    };
    const struct laser lasers[] = {
        {"ray east (rock behind the ship ignored)",
         hs_ray((hs_vec2){0, 0}, (hs_vec2){1, 0}, INFINITY)},
        {"segment north-east", hs_segment((hs_vec2){0, 0}, (hs_vec2){6, 6})},
        {"segment falls short", hs_segment((hs_vec2){0, 0}, (hs_vec2){7, 0})},
        {"thick beam q=1 south-east", hs_capsule((hs_vec2){0, -1}, (hs_vec2){30, -7}, 1.0f)},
        {"starts inside rock 3", hs_ray((hs_vec2){-8, 1}, (hs_vec2){0, 1}, 100.0f)},
        {"line through the field", hs_line((hs_vec2){0, 12}, (hs_vec2){1, 12})},
    };
    enum { NROCKS = sizeof rocks / sizeof rocks[0], NLASERS = sizeof lasers / sizeof lasers[0] };
    hs_hit best[NLASERS] = {{0}};
    long best_i[NLASERS];

    printf("hitscan demo: %d asteroids, %d lasers (solid semantics, closest hit)\n", NROCKS,
           NLASERS);
    for (size_t i = 0; i < NLASERS; i++) {
        best_i[i] = -1;
        for (size_t j = 0; j < NROCKS; j++) {
            hs_hit h;
            if (hs_intersect_circle(lasers[i].q, rocks[j], HS_SOLID, &h) == 1 &&
                (best_i[i] < 0 || h.t < best[i].t)) {
                best[i] = h;
                best_i[i] = (long)j;
            }
        }
        if (best_i[i] < 0) {
            printf("  %-42s miss\n", lasers[i].name);
            continue;
        }
        printf("  %-42s rock %ld at t=%.4f point=(%.3f, %.3f) normal=(%.3f, %.3f)%s\n",
               lasers[i].name, best_i[i], best[i].t, best[i].point.x, best[i].point.y,
               best[i].normal.x, best[i].normal.y,
               (best[i].flags & HS_HIT_INSIDE) ? " [started inside]" : "");
    }
    if (svg_path) {
        if (write_svg(svg_path, rocks, NROCKS, lasers, best, best_i, NLASERS) != 0) {
            fprintf(stderr, "demo: cannot write %s\n", svg_path);
            return 1;
        }
        printf("picture: %s\n", svg_path);
    }
    return 0;
}
