/* SPDX-License-Identifier: MIT */
/* The library's benchmark scenes for the JavaScript package (hitscan/scene.h), in the layouts
 * it takes: x, y, r triples and ax, ay, bx, by quadruples. */
#include <stdlib.h>

#include "hitscan/hitscan.h"
#include "hitscan_web.h"

/* The library's benchmark scene kind (hs_scene_kind: 0 uniform, 1 clustered, ... 13 point):
 * n x, y, r triples into xyr and m ax, ay, bx, by quadruples into q4. */
int HS_WEB(hs_web_scene)(int kind, size_t n, size_t m, uint32_t seed_lo, uint32_t seed_hi,
                         float *xyr, float *q4)
{
    const uint64_t seed = (uint64_t)seed_hi << 32 | seed_lo;
    const size_t big = n > m ? n : m;
    float *s = big <= SIZE_MAX / sizeof(float) / 8 ? malloc((4 * big + 1) * sizeof(float)) : NULL;
    if (!s)
        return HS_E_NOMEM;
    hs_status st = hs_scene_circles((hs_scene_kind)kind, n, seed, s, s + big, s + 2 * big);
    for (size_t i = 0; st == HS_OK && i < n; i++) {
        xyr[3 * i] = s[i];
        xyr[3 * i + 1] = s[big + i];
        xyr[3 * i + 2] = s[2 * big + i];
    }
    if (st == HS_OK)
        st = hs_scene_segments((hs_scene_kind)kind, n, m, seed, s, s + big, s + 2 * big,
                               s + 3 * big);
    for (size_t i = 0; st == HS_OK && i < m; i++) {
        q4[4 * i] = s[i];
        q4[4 * i + 1] = s[big + i];
        q4[4 * i + 2] = s[i] + s[2 * big + i];
        q4[4 * i + 3] = s[big + i] + s[3 * big + i];
    }
    free(s);
    return st;
}
