/* SPDX-License-Identifier: MIT */
/* Demo: a built-in scene of asteroids, walls (a city block, a fence, a shield; some thick) and
 * lasers; one grid holds the rocks and the walls, and one batch call answers every laser: what
 * it hits first (a rock or a wall), where, and the normal. `demo --svg FILE` also draws the
 * scene: rocks, walls, lasers, hit points, normals, and the grid's cells over the rocks. */
#include <math.h>
#include <stdio.h>

#include "hitscan/hitscan.h"
#include "svg.h"

struct laser {
    const char *name;
    hs_query q;
};

struct wall {
    hs_vec2 a, b;
    float thickness;
    hs_vec2 label; /* where its name goes in the picture */
};

/* The cells of the rocks' grid are anchored at the smallest centre coordinates and number
 * floor(extent / side) + 1 per axis (grid.h: the cell side is hs_grid_cell_size). */
static void draw_grid_cells(svg_canvas *c, const hs_grid *g, const hs_circle *rocks, size_t n)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < n; i++) {
        lo[0] = fmin(lo[0], rocks[i].x), hi[0] = fmax(hi[0], rocks[i].x);
        lo[1] = fmin(lo[1], rocks[i].y), hi[1] = fmax(hi[1], rocks[i].y);
    }
    const double h = hs_grid_cell_size(g);
    svg_cells(c, lo[0], lo[1], h, (int)floor((hi[0] - lo[0]) / h) + 1,
              (int)floor((hi[1] - lo[1]) / h) + 1);
}

/* The closest hits of the lasers, as hs_grid_closest gives them (SoA). */
struct answers {
    uint32_t *idx;
    uint8_t *kind;
    float *t, *px, *py, *nx, *ny;
};

static int write_svg(const char *path, const hs_grid *g, const hs_circle *rocks, size_t nrocks,
                     const struct wall *walls, size_t nwalls, const struct laser *lasers,
                     const struct answers *hit, size_t nlasers)
{
    svg_canvas c;
    if (svg_open(&c, path, -14.0, -12.0, 30.0, 16.0, 880.0) != 0)
        return -1;
    draw_grid_cells(&c, g, rocks, nrocks);
    char label[32];
    for (size_t j = 0; j < nrocks; j++) {
        const hs_circle k = rocks[j];
        svg_circle(&c, k, "rock");
        snprintf(label, sizeof label, "rock %zu", j);
        /* inside a large rock, under a small one */
        svg_text(&c, (hs_vec2){k.x, k.r >= 1.5f ? k.y - 0.3f : k.y - k.r - 1.0f}, label, "name");
    }
    for (size_t j = 0; j < nwalls; j++) {
        const struct wall w = walls[j];
        svg_wall(&c, w.a, w.b, w.thickness, "wall");
        snprintf(label, sizeof label, "wall %zu", j);
        svg_text(&c, w.label, label, "name");
    }
    static const char *const legend[] = {
        "red: lasers, a thick beam (q = 1) and its swept circle at contact",
        "dark: walls (thick ones drawn wide); a laser stops at a rock or a wall",
        "dashed: past the closest hit; dot: hit point; green: normal",
        "grey lines: the cells of the grid over the rocks",
    };
    for (int i = 0; i < 4; i++)
        svg_text(&c, (hs_vec2){-13.5f, -7.9f - 1.1f * (float)i}, legend[i], "label");
    for (size_t i = 0; i < nlasers; i++) {
        const hs_query q = lasers[i].q;
        const char *shot = q.q > 0.0f ? "beam" : "laser";
        if (hit->idx[i] == HS_NONE) {
            svg_query(&c, q, -INFINITY, INFINITY, shot);
            continue;
        }
        const hs_vec2 p = {hit->px[i], hit->py[i]}, n = {hit->nx[i], hit->ny[i]};
        svg_query(&c, q, -INFINITY, hit->t[i], shot);
        svg_query(&c, q, hit->t[i], INFINITY, "past");
        if (q.q > 0.0f) /* the swept circle where it first touches */
            svg_circle(&c, (hs_circle){p.x, p.y, q.q}, "reach");
        /* the surface hit: q back from P(t) along the normal, for a rock and a wall alike */
        svg_arrow(&c, (hs_vec2){p.x - q.q * n.x, p.y - q.q * n.y}, n, 2.5, "normal");
        svg_dot(&c, p, "hit");
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
    /* a city block with a door in its thick south side, a fence, a shield before rock 3 */
    static const struct wall walls[] = {
        {{13, 6}, {17, 6}, 0.5f, {15.5f, 4.6f}},  {{19, 6}, {24, 6}, 0.5f, {21.5f, 4.6f}},
        {{24, 6}, {24, 11}, 0.5f, {25.9f, 8.3f}}, {{13, 11}, {24, 11}, 0.0f, {21.5f, 9.9f}},
        {{13, 6}, {13, 9}, 0.0f, {14.5f, 7.3f}},  {{-12, 7}, {-5, 7}, 0.0f, {-8.5f, 7.5f}},
        {{-5, 7}, {-5, 10}, 0.3f, {-3.3f, 8.3f}}, {{-3, 1}, {-3, 4.5f}, 0.0f, {-1.5f, 3.2f}},
    };
    const struct laser lasers[] = {
        {"ray east (rock behind the ship ignored)",
         hs_ray((hs_vec2){0, 0}, (hs_vec2){1, 0}, INFINITY)},
        {"segment north-east", hs_segment((hs_vec2){0, 0}, (hs_vec2){6, 6})},
        {"segment falls short", hs_segment((hs_vec2){0, 0}, (hs_vec2){7, 0})},
        {"thick beam q=1 south-east", hs_capsule((hs_vec2){0, -1}, (hs_vec2){30, -7}, 1.0f)},
        {"starts inside rock 3", hs_ray((hs_vec2){-8, 1}, (hs_vec2){0, 1}, 100.0f)},
        {"line through the field", hs_line((hs_vec2){0, 12}, (hs_vec2){1, 12})},
        {"ray north-east onto a thick wall", hs_ray((hs_vec2){0, 0}, (hs_vec2){5, 2}, INFINITY)},
        {"ray north through the door", hs_ray((hs_vec2){18, -1}, (hs_vec2){0, 1}, INFINITY)},
        {"ray west (a wall shields rock 3)", hs_ray((hs_vec2){0, 2}, (hs_vec2){-1, 0}, INFINITY)},
    };
    enum {
        NROCKS = sizeof rocks / sizeof rocks[0],
        NWALLS = sizeof walls / sizeof walls[0],
        NLASERS = sizeof lasers / sizeof lasers[0]
    };
    /* SoA in: the rocks, the walls, the lasers (each with its own interval and thickness) */
    float rx[NROCKS], ry[NROCKS], rr[NROCKS];
    float wax[NWALLS], way[NWALLS], wbx[NWALLS], wby[NWALLS], wt[NWALLS];
    float ax[NLASERS], ay[NLASERS], dx[NLASERS], dy[NLASERS], t0[NLASERS], t1[NLASERS], q[NLASERS];
    for (size_t j = 0; j < NROCKS; j++)
        rx[j] = rocks[j].x, ry[j] = rocks[j].y, rr[j] = rocks[j].r;
    for (size_t j = 0; j < NWALLS; j++) {
        wax[j] = walls[j].a.x, way[j] = walls[j].a.y, wbx[j] = walls[j].b.x, wby[j] = walls[j].b.y;
        wt[j] = walls[j].thickness;
    }
    for (size_t i = 0; i < NLASERS; i++) {
        const hs_query l = lasers[i].q;
        ax[i] = l.a.x, ay[i] = l.a.y, dx[i] = l.d.x, dy[i] = l.d.y;
        t0[i] = l.tmin, t1[i] = l.tmax, q[i] = l.q;
    }
    hs_queries qs = hs_queries_capsules(ax, ay, dx, dy, q, NLASERS);
    qs.tmin = t0, qs.tmax = t1;

    hs_circles *cs = NULL;
    hs_walls *ws = NULL;
    hs_grid *g = NULL;
    if (hs_circles_create(rx, ry, rr, NULL, NROCKS, &cs, NULL) != HS_OK ||
        hs_walls_create(wax, way, wbx, wby, wt, NULL, NWALLS, &ws, NULL) != HS_OK) {
        fprintf(stderr, "demo: cannot make the scene\n");
        return 1;
    }
    /* a finer cell than the automatic one (about 4 circles a cell), so the picture shows cells */
    const hs_grid_opts go = {.cell_size = 2.0f, .threads = 1, .walls = ws};
    const hs_status built = hs_grid_build(cs, &go, &g);
    hs_walls_destroy(ws); /* the grid keeps its own copy */
    hs_circles_destroy(cs);
    uint32_t idx[NLASERS];
    uint8_t kind[NLASERS];
    float t[NLASERS], px[NLASERS], py[NLASERS], nx[NLASERS], ny[NLASERS];
    const struct answers hit = {idx, kind, t, px, py, nx, ny};
    if (built != HS_OK ||
        hs_grid_closest(
            g, &qs, NULL,
            (hs_closest_out){
                .idx = idx, .t = t, .px = px, .py = py, .nx = nx, .ny = ny, .kind = kind}) !=
            HS_OK) {
        fprintf(stderr, "demo: the grid failed\n");
        hs_grid_destroy(g);
        return 1;
    }

    printf("hitscan demo: %d asteroids, %d walls, %d lasers (solid semantics, closest hit)\n",
           NROCKS, NWALLS, NLASERS);
    for (size_t i = 0; i < NLASERS; i++) {
        if (idx[i] == HS_NONE) {
            printf("  %-42s miss\n", lasers[i].name);
            continue;
        }
        /* solid semantics: t = tmin exactly when the start lies within reach of what it hit;
         * + 0.0f prints a normal's -0 as 0 */
        printf("  %-42s %s %u at t=%.4f point=(%.3f, %.3f) normal=(%.3f, %.3f)%s\n", lasers[i].name,
               kind[i] == HS_KIND_WALL ? "wall" : "rock", idx[i], t[i], px[i], py[i], nx[i] + 0.0f,
               ny[i] + 0.0f, t[i] == t0[i] ? " [started inside]" : "");
    }
    int rc = 0;
    if (svg_path) {
        if (write_svg(svg_path, g, rocks, NROCKS, walls, NWALLS, lasers, &hit, NLASERS) != 0) {
            fprintf(stderr, "demo: cannot write %s\n", svg_path);
            rc = 1;
        } else {
            printf("picture: %s\n", svg_path);
        }
    }
    hs_grid_destroy(g);
    return rc;
}
