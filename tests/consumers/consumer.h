/* SPDX-License-Identifier: MIT */
/* What every consumer checks: one grid query answered as the scalar call answers it, and the
 * library's version the same as its headers'. Shared by the C and the C++ consumer. */
#ifndef HS_CONSUMER_H
#define HS_CONSUMER_H

#include <hitscan/hitscan.h>
#include <stdio.h>
#include <string.h>

static int hs_consumer_check(const char *who)
{
    const float x[3] = {10.0f, 20.0f, 30.0f}, y[3] = {0.0f, 0.5f, -0.5f}, r[3] = {1.0f, 2.0f, 1.0f};
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    if (hs_circles_create(x, y, r, NULL, 3, &cs, NULL) != HS_OK ||
        hs_grid_build(cs, NULL, &g) != HS_OK) {
        fprintf(stderr, "%s: build failed\n", who);
        return 1;
    }
    /* A segment from (0, 0) to (40, 0): the first circle it enters is circle 0, at x = 9. */
    const float ax = 0.0f, ay = 0.0f, dx = 40.0f, dy = 0.0f;
    hs_queries qs = hs_queries_segments(&ax, &ay, &dx, &dy, 1);
    uint32_t idx = HS_NONE;
    float t = 0.0f;
    hs_closest_out out;
    memset(&out, 0, sizeof out);
    out.idx = &idx;
    out.t = &t;
    hs_status st = hs_grid_closest(g, &qs, NULL, out);

    hs_query seg;
    seg.a.x = ax;
    seg.a.y = ay;
    seg.d.x = dx;
    seg.d.y = dy;
    seg.tmin = 0.0f;
    seg.tmax = 1.0f;
    seg.q = 0.0f;
    hs_circle c0;
    c0.x = x[0];
    c0.y = y[0];
    c0.r = r[0];
    hs_hit hit;
    int scalar = hs_intersect_circle(seg, c0, HS_SOLID, &hit);

    int ok = st == HS_OK && idx == 0 && scalar == 1 && t == hit.t && t > 0.2f && t < 0.25f &&
             strcmp(hs_version(), HS_VERSION_STRING) == 0;
    printf("%s: hitscan %s (headers %s), closest idx %u t %.6f: %s\n", who, hs_version(),
           HS_VERSION_STRING, (unsigned)idx, (double)t, ok ? "ok" : "WRONG");
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return ok ? 0 : 1;
}

#endif
