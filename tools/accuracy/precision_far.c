/* SPDX-License-Identifier: MIT */
/* hs_precision_far: what precision a query gets at distance D from the origin, with float world
 * coordinates and with an origin offset near the scene (hitscan/origin.h), against long double:
 * the table in docs/precision.md. */
#include <stdio.h>
#include <stdlib.h>

#include "far_ref.h"

static unsigned long long state = 12345;
static double u01(void)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(state >> 11) * 0x1.0p-53;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 20000;
    double *pp = malloc((size_t)n * sizeof *pp), *po = malloc((size_t)n * sizeof *po);
    double *tp = malloc((size_t)n * sizeof *tp), *to = malloc((size_t)n * sizeof *to);
    if (n < 1 || !pp || !po || !tp || !to)
        return 1;
    printf("%d segments per row: circles r 1..10 within 100 of the distance, starts 1..50 "
           "outside, aimed inside; errors in world units against long double (median / max)\n\n",
           n);
    printf("| distance | float ulp there | hit point, float world | t x |d|, float world | "
           "hit point, origin offset | t x |d|, origin offset |\n");
    printf("|---:|---:|---:|---:|---:|---:|\n");
    for (int e = 3; e <= 8; e++) {
        const double D = pow(10.0, e);
        int m = 0;
        for (int i = 0; i < n; i++) {
            far_case k = far_case_make(D, u01(), u01(), u01(), u01());
            /* the origin: a round point near the scene, as a game's sector corner */
            const hs_dvec2 o = {floor(k.cx / 1024.0) * 1024.0, floor(k.cy / 1024.0) * 1024.0};
            far_err a = far_answer_plain(&k), b = far_answer_origin(&k, o);
            if (!a.hit || !b.hit)
                continue; /* float world coordinates can move a grazing case off its circle */
            pp[m] = a.point, tp[m] = a.tdist, po[m] = b.point, to[m] = b.tdist;
            m++;
        }
        qsort(pp, (size_t)m, sizeof *pp, cmp);
        qsort(po, (size_t)m, sizeof *po, cmp);
        qsort(tp, (size_t)m, sizeof *tp, cmp);
        qsort(to, (size_t)m, sizeof *to, cmp);
        printf("| 1e%d | %.3g | %.2g / %.2g | %.2g / %.2g | %.2g / %.2g | %.2g / %.2g |\n", e,
               (double)nextafterf((float)D, INFINITY) - (double)(float)D, pp[m / 2], pp[m - 1],
               tp[m / 2], tp[m - 1], po[m / 2], po[m - 1], to[m / 2], to[m - 1]);
    }
    free(pp);
    free(po);
    free(tp);
    free(to);
    return 0;
}
