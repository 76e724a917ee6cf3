/* Demo: a built-in scene of asteroids and lasers; prints what each laser hits first, where, and the normal. */
#include <math.h>
#include <stdio.h>

#include "hitscan/hitscan.h"

int main(void)
{
    /* asteroids: two overlapping, one tiny, one behind the first ship (seed 004's bug) */
    static const hs_circle rocks[] = {
        {10.0f, 0.0f, 2.0f}, {13.0f, 1.0f, 2.0f}, {5.0f, 5.0f, 0.25f},
        {-8.0f, 0.0f, 3.0f}, {20.0f, -6.0f, 4.0f}, {0.0f, 12.0f, 1.0f},
    };
    struct laser {
        const char *name;
        hs_query q;
    } lasers[] = {
        {"ray east (rock behind the ship ignored)", hs_ray((hs_vec2){0, 0}, (hs_vec2){1, 0}, INFINITY)},
        {"segment north-east", hs_segment((hs_vec2){0, 0}, (hs_vec2){6, 6})},
        {"segment falls short", hs_segment((hs_vec2){0, 0}, (hs_vec2){7, 0})},
        {"thick beam q=1 south-east", hs_capsule((hs_vec2){0, -1}, (hs_vec2){30, -7}, 1.0f)},
        {"starts inside rock 3", hs_ray((hs_vec2){-8, 1}, (hs_vec2){0, 1}, 100.0f)},
        {"line through the field", hs_line((hs_vec2){0, 12}, (hs_vec2){1, 12})},
    };
    const size_t nrocks = sizeof rocks / sizeof rocks[0];
    const size_t nlasers = sizeof lasers / sizeof lasers[0];

    printf("hitscan demo: %zu asteroids, %zu lasers (solid semantics, closest hit)\n", nrocks, nlasers);
    for (size_t i = 0; i < nlasers; i++) {
        hs_hit best = {0};
        long best_i = -1;
        for (size_t j = 0; j < nrocks; j++) {
            hs_hit h;
            if (hs_intersect_circle(lasers[i].q, rocks[j], HS_SOLID, &h) == 1 &&
                (best_i < 0 || h.t < best.t)) {
                best = h;
                best_i = (long)j;
            }
        }
        if (best_i < 0) {
            printf("  %-42s miss\n", lasers[i].name);
            continue;
        }
        printf("  %-42s rock %ld at t=%.4f point=(%.3f, %.3f) normal=(%.3f, %.3f)%s\n",
               lasers[i].name, best_i, best.t, best.point.x, best.point.y, best.normal.x,
               best.normal.y, (best.flags & HS_HIT_INSIDE) ? " [started inside]" : "");
    }
    return 0;
}
