/* SPDX-License-Identifier: MIT */
/* Internal: the exact sign of a short sum of products of floats. A product of two floats is
 * exact in double (24 + 24 bits, and the exponents of |x| <= FLT_MAX stay in double's range);
 * a product of three is exact as the pair (hi, fma(p, w, -hi)). The sum of such terms is first
 * taken naively with a certified error bound, and only when the bound cannot decide the sign
 * it is summed exactly as a nonoverlapping expansion (Shewchuk's grow-expansion with zero
 * elimination), whose sign is the sign of its largest component. Needs IEEE double with
 * round-to-nearest and no contraction (the build has -ffp-contract=off). */
#ifndef HITSCAN_EXACT_SIGN_H
#define HITSCAN_EXACT_SIGN_H

#include <math.h>

#include "invariant.h"

#define HS_TERMS_MAX 24

/* Only v[0 .. n) is read: declare one without an initializer and set n = 0 (an initializer
 * would zero every v on each sign, a cost the hot wall test pays several times a call). */
typedef struct hs_terms {
    double v[HS_TERMS_MAX];
    int n;
} hs_terms;

/* + or - u v, exact */
static inline void hs_terms_2(hs_terms *t, int neg, float u, float v)
{
    HS_ASSERT(t->n < HS_TERMS_MAX);
    double p = (double)u * (double)v;
    t->v[t->n++] = neg ? -p : p;
}

/* + or - u v w, exact as two doubles (u v is exact, its product with w is split by fma) */
static inline void hs_terms_3(hs_terms *t, int neg, float u, float v, float w)
{
    HS_ASSERT(t->n + 1 < HS_TERMS_MAX);
    double p = (double)u * (double)v;
    if (neg)
        p = -p;
    double hi = p * (double)w;
    t->v[t->n++] = hi;
    t->v[t->n++] = fma(p, (double)w, -hi);
}

/* Sign (-1, 0, 1) of the exact sum of the terms. Filter: recursive summation of n terms errs
 * by at most gamma_{n-1} sum |v_i| (gamma_k = k u / (1 - k u), u = 2^-53); the threshold
 * 2 n u sum|v_i| covers that and the rounding of sum |v_i| itself, so a naive sum above it
 * has the exact sum's sign. Terms are finite and far from overflow (|v| <= 2^260). */
static inline int hs_terms_sign(const hs_terms *t)
{
    double s = 0.0, a = 0.0;
    for (int i = 0; i < t->n; i++) {
        s += t->v[i];
        a += fabs(t->v[i]);
    }
    double bound = (double)(2 * t->n) * 0x1p-53 * a;
    if (s > bound)
        return 1;
    if (s < -bound)
        return -1;
    /* exact: h holds a nonoverlapping expansion in increasing magnitude, zeros removed */
    double h[HS_TERMS_MAX];
    int m = 0;
    for (int i = 0; i < t->n; i++) {
        double q = t->v[i];
        int k = 0;
        for (int j = 0; j < m; j++) {
            double x = q + h[j];
            double bv = x - q, av = x - bv;
            double e = (q - av) + (h[j] - bv);
            if (e != 0.0)
                h[k++] = e;
            q = x;
        }
        if (q != 0.0)
            h[k++] = q;
        m = k;
    }
    if (m == 0)
        return 0;
    return h[m - 1] > 0.0 ? 1 : -1;
}

#endif
