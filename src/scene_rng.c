/* SPDX-License-Identifier: MIT */
/* log, sin and cos of our own, from + - * / and exact steps (frexp, floor): libm's may round
 * differently on another machine or libc, and a scene must not. Within a few double ulps of
 * libm's, so the float scenes are libm's but for rare last-bit cases. */
#include "scene_rng.h"

#include <math.h>

/* log x for finite x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(f),
 * f = (m - 1) / (m + 1), |f| <= 0.172, whose series has converged to 2^-56 by f^23. */
static double scene_log(double x)
{
    int e;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752) {
        m *= 2.0;
        e--;
    }
    const double f = (m - 1.0) / (m + 1.0), f2 = f * f;
    double s = 1.0 / 25.0;
    for (int k = 23; k >= 1; k -= 2)
        s = s * f2 + 1.0 / k;
    const double ln2_hi = 0x1.62e42fefa3800p-1, ln2_lo = 0x1.ef35793c7673p-45; /* hi * e exact */
    return (double)e * ln2_hi + ((double)e * ln2_lo + 2.0 * f * s);
}

/* u = n / 4 + r with |r| <= 1/8 (exact: Sterbenz), x = 2 pi r in [-pi/4, pi/4], Taylor series
 * to x^17 / x^18, then the quarter turns. */
void hs_scene_sincos_turn(double u, double *sn, double *cs)
{
    const double n = floor(u * 4.0 + 0.5), x = (u - 0.25 * n) * 6.283185307179586, x2 = x * x;
    double s = 0.0, c = 0.0, fs = 1.0, fc = 1.0; /* fs = 1 / (2k+1)!, fc = 1 / (2k)! */
    double ts[9], tc[10];
    for (int k = 0; k < 10; k++) {
        tc[k] = fc;
        if (k < 9) {
            fs = fc / (2.0 * k + 1.0);
            ts[k] = fs;
            fc = fs / (2.0 * k + 2.0);
        }
    }
    for (int k = 8; k >= 0; k--)
        s = s * -x2 + ts[k];
    for (int k = 9; k >= 0; k--)
        c = c * -x2 + tc[k];
    s *= x;
    switch ((int)n & 3) {
    case 0: *sn = s, *cs = c; break;
    case 1: *sn = c, *cs = -s; break;
    case 2: *sn = -s, *cs = -c; break;
    default: *sn = -c, *cs = s; break;
    }
}

double hs_scene_gauss(hs_scene_rng *g)
{
    double u1 = hs_scene_unif(g), u2 = hs_scene_unif(g), sn, cs;
    hs_scene_sincos_turn(u2, &sn, &cs);
    /* 1 - u1 is in (0, 1]: log never sees zero */
    return sqrt(-2.0 * scene_log(1.0 - u1)) * cs;
}

/* At least a quarter of each gaussian lies in the square, so the redraws end. */
void hs_scene_gauss_inside(hs_scene_rng *g, double ccx, double ccy, double sigma, double side,
                           double *cx, double *cy)
{
    do {
        *cx = ccx + sigma * hs_scene_gauss(g);
        *cy = ccy + sigma * hs_scene_gauss(g);
    } while (!(*cx >= 0.0 && *cx <= side && *cy >= 0.0 && *cy <= side));
}
