/* SPDX-License-Identifier: MIT */
/* Randomized accuracy test: hs_intersect_circle (float) against a long double reference on the same
 * inputs. */
/*
 * What is compared: >= 10^6 query-circle pairs (Release scale) in five distributions (normal,
 * long-thin, huge coordinates 1e6 with radii ~1e-3, near-tangent, near-root; see
 * tests/accuracy_ref.h),
 * each under both HS_SOLID and HS_BOUNDARY semantics, against a long double reference computed
 * from the very same float inputs (so input rounding is not counted as error).
 *
 * Notation: f = a - c, R = r + q, S = |f| + R (the magnitude the float arithmetic works at),
 * eps = FLT_EPSILON = 2^-23, w = sqrt(R^2 - h^2) the half chord (h: distance from the centre
 * to the query's line), all from the reference.
 *
 * 1. Hit / miss. The float decision may differ from the reference only inside the tangency
 *    band  | dist - R | <= HS_ACC_BAND_K * eps * S,  i.e. a relative band of r + q of width
 *    HS_ACC_BAND_K * eps * (1 + |f| / R), where dist is the reference distance that decides
 *    (the closest point of the interval; for boundary semantics also either end point).
 *    Measured (gcc 12 -O2, x86-64, 4 x 2^22 pairs x 2 semantics): the widest disagreement
 *    sat at 1.56 eps*S (long-thin, where that is 0.98 R: |f|/R reaches 1e7 there); normal
 *    0, huge 0.16, near-tangent 0.56. Enforced: HS_ACC_BAND_K = 4. Outside the band every
 *    answer must agree.
 *    The band scales with |f|, not only with R: rounding at the magnitude of a - c is what the
 *    float inputs allow (a long query far from a tiny circle cannot do better in float32).
 *
 * 2. Entry t, when both hit and the case is not in the band for its start point (there a
 *    start-inside flag may flip, and boundary semantics then legitimately jumps between the
 *    entry and the exit). Model: position error along the query
 *        E = |t - t_ref| * |d|  <=  B(K) = K eps S + min( sqrt(2 R K eps S), 2 R K eps S / w ),
 *    the first term being rounding at magnitude S and the second how a distance error of
 *    K eps S shifts a rim crossing met at a grazing angle (capped by the tangent case).
 *    Measured (same run): K needed <= 0.83 (normal 0.72, long-thin 0.83, huge 0.69,
 *    near-tangent 0.76). Enforced: HS_ACC_T_K = 2.
 *    Forward error in ulps of t is reported by tools/accuracy (hs_accuracy), not bounded
 *    here: near tangency t is ill-conditioned and no ulp bound is meaningful.
 *
 * 3. Near a root (near-root distribution: the start a few units from a circle of radius
 *    1e2 .. 1e6). The model of 2 allows an error of eps * S there, which is most of the few
 *    units to the rim; |f|^2 - R^2 computed in double keeps t to a few ulps. Measured (same
 *    compiler, 2^18 pairs x 2 semantics): at most 5.5 ulps of t, where |f|^2 - R^2 in float
 *    gave up to 9.3e5 (hs_accuracy's table). Enforced: HS_ACC_ROOT_ULPS = 16 ulps of t.
 *
 * Scale: 5 x 2^18 pairs (x2 semantics) in Release; 4 x 2^14 when HS_TEST_QUICK is set or the
 * build has AddressSanitizer (5 x 2^14). The scale that ran is printed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "accuracy_ref.h"
#include "test_util.h"

#define HS_ACC_BAND_K 4.0
#define HS_ACC_T_K 2.0
#define HS_ACC_ROOT_ULPS 16.0
#ifndef HS_ACC_LOG2_CASES /* per distribution; -D it larger to re-measure the constants */
#define HS_ACC_LOG2_CASES 18
#endif

static size_t cases_per_dist(void)
{
    const char *quick = getenv("HS_TEST_QUICK");
    if (HS_SANITIZED || (quick && *quick && *quick != '0'))
        return (size_t)1 << (HS_ACC_LOG2_CASES - 4);
    return (size_t)1 << HS_ACC_LOG2_CASES;
}

typedef struct acc_stats {
    size_t pairs, ref_hits, disagree, disagree_out_of_band, t_checked, t_violations;
    double max_band_disagree; /* widest disagreement, in eps*S */
    double max_rel_disagree;  /* the same as a fraction of R */
    double max_k;             /* largest K the entry-t model needed */
    double max_ulps;          /* largest error of t in ulps of t_ref */
    size_t ulps_violations;   /* near-root: over HS_ACC_ROOT_ULPS */
} acc_stats;

static void report_case(const char *what, hs_query q, hs_circle c, int sem, double extra)
{
    print_message("  %s (sem %d, %g): q = {a = (%a, %a), d = (%a, %a), t = [%a, %a], q = %a}, "
                  "c = (%a, %a, r = %a)\n",
                  what, sem, extra, (double)q.a.x, (double)q.a.y, (double)q.d.x, (double)q.d.y,
                  (double)q.tmin, (double)q.tmax, (double)q.q, (double)c.x, (double)c.y,
                  (double)c.r);
}

static void run_distribution(acc_dist dist, acc_stats *st)
{
    acc_rng g = {0x5EEDull * 1000003ull + (uint64_t)dist};
    size_t n = cases_per_dist();
    for (size_t i = 0; i < n; i++) {
        hs_query q;
        hs_circle c;
        acc_gen(&g, dist, &q, &c);
        acc_ref ref;
        acc_reference(q, c, &ref);
        for (int sem = 0; sem < 2; sem++) {
            hs_hit h;
            int got = hs_intersect_circle(q, c, (hs_semantics)sem, &h);
            if (got < 0)
                fail_msg("generator produced an invalid pair (status %d)", got);
            if (hs_query_hits_circle(q, c, (hs_semantics)sem) != got)
                fail_msg("hs_query_hits_circle disagrees with hs_intersect_circle");
            st->pairs++;
            st->ref_hits += (size_t)ref.hit[sem];
            double band = acc_band_ratio(&ref, (hs_semantics)sem);
            if (got != ref.hit[sem]) {
                st->disagree++;
                if (band > st->max_band_disagree) {
                    st->max_band_disagree = band;
                    st->max_rel_disagree = (double)(band * FLT_EPSILON * ref.S / ref.R);
                }
                if (band > HS_ACC_BAND_K) {
                    if (st->disagree_out_of_band++ < 5)
                        report_case(got ? "false hit outside the band"
                                        : "false miss outside the band",
                                    q, c, sem, band);
                }
                continue;
            }
            if (!got)
                continue;
            /* a start within the band may flip the inside flag (and, for boundary semantics,
             * the reported t between entry and exit): not an error in t */
            long double unit = (long double)FLT_EPSILON * ref.S;
            if (fabsl(ref.d_start - ref.R) <= HS_ACC_BAND_K * unit)
                continue;
            st->t_checked++;
            long double E = fabsl((long double)h.t - ref.t[sem]) * ref.dlen;
            double k = acc_needed_k(E, &ref);
            if (k > st->max_k)
                st->max_k = k;
            if (k > HS_ACC_T_K && st->t_violations++ < 5)
                report_case("entry t outside the bound", q, c, sem, k);
            double u = acc_ulps(h.t, ref.t[sem]);
            if (u > st->max_ulps)
                st->max_ulps = u;
            if (dist == ACC_NEAR_ROOT && u > HS_ACC_ROOT_ULPS && st->ulps_violations++ < 5)
                report_case("entry t off by more than HS_ACC_ROOT_ULPS", q, c, sem, u);
        }
    }
}

static void check_distribution(acc_dist dist)
{
    acc_stats st = {0};
    run_distribution(dist, &st);
    print_message("%-20s pairs %zu (both semantics), reference hits %zu, disagreements %zu "
                  "(widest %.3g eps*S = %.3g R), out of band %zu; t checked %zu, max K %.3g, "
                  "violations %zu; max %.3g ulps of t\n",
                  acc_dist_name[dist], st.pairs, st.ref_hits, st.disagree, st.max_band_disagree,
                  st.max_rel_disagree, st.disagree_out_of_band, st.t_checked, st.max_k,
                  st.t_violations, st.max_ulps);
    /* the distribution must exercise both outcomes, or the checks above say nothing */
    assert_true(st.ref_hits > st.pairs / 10 && st.ref_hits < st.pairs - st.pairs / 10);
    assert_true(st.t_checked > st.pairs / 20);
    assert_int_equal(st.disagree_out_of_band, 0);
    assert_int_equal(st.t_violations, 0);
    assert_int_equal(st.ulps_violations, 0);
}

static void accuracy_normal(void **state)
{
    (void)state;
    check_distribution(ACC_NORMAL);
}

static void accuracy_long_thin(void **state)
{
    (void)state;
    check_distribution(ACC_LONG_THIN);
}

static void accuracy_huge_coordinates(void **state)
{
    (void)state;
    check_distribution(ACC_HUGE);
}

static void accuracy_near_tangent(void **state)
{
    (void)state;
    check_distribution(ACC_NEAR_TANGENT);
}

static void accuracy_near_root(void **state)
{
    (void)state;
    check_distribution(ACC_NEAR_ROOT);
}

/* A ray starting 1 unit from a circle of radius 10^4 enters at t = 1 exactly (in float). */
static void near_root_example(void **state)
{
    (void)state;
    hs_circle c = {0.0f, 0.0f, 10000.0f};
    hs_hit h;
    hs_query q = hs_ray((hs_vec2){10001.0f, 0.0f}, (hs_vec2){-1.0f, 0.0f}, INFINITY);
    assert_int_equal(hs_intersect_circle(q, c, HS_SOLID, &h), 1);
    assert_true(h.t == 1.0f);
    c = (hs_circle){3.0f, -5.0f, 12345.0f}; /* off the origin: f = a - c rounds in float */
    q = hs_ray((hs_vec2){3.0f + 12346.5f, -5.0f}, (hs_vec2){-1.0f, 0.0f}, INFINITY);
    assert_int_equal(hs_intersect_circle(q, c, HS_SOLID, &h), 1);
    assert_true(h.t == 1.5f);
}

/* The reference itself: exact answers on cases whose float inputs make them exact. */
static void reference_sanity(void **state)
{
    (void)state;
    acc_ref r;
    hs_circle unit = {0.0f, 0.0f, 1.0f};
    hs_query q = hs_segment((hs_vec2){-2, 0}, (hs_vec2){2, 0});
    acc_reference(q, unit, &r);
    assert_true(r.hit[0] && r.hit[1] && r.t[0] == 0.25L && r.t[1] == 0.25L);
    q = hs_segment((hs_vec2){0, 0}, (hs_vec2){2, 0});
    acc_reference(q, unit, &r);
    assert_true(r.hit[0] && r.hit[1] && r.t[0] == 0.0L && r.t[1] == 0.5L);
    q = hs_segment((hs_vec2){-0.5f, 0}, (hs_vec2){0.5f, 0});
    acc_reference(q, unit, &r);
    assert_true(r.hit[0] && !r.hit[1]);
    q = hs_ray((hs_vec2){2, 0}, (hs_vec2){1, 0}, INFINITY);
    acc_reference(q, unit, &r);
    assert_true(!r.hit[0] && !r.hit[1]);
    float t;
    assert_int_equal(acc_textbook(hs_segment((hs_vec2){-2, 0}, (hs_vec2){2, 0}), unit, &t), 1);
    assert_true(t == 0.25f);
}

int main(void)
{
    print_message("test_accuracy: %zu pairs per distribution x 2 semantics%s\n", cases_per_dist(),
                  cases_per_dist() < ((size_t)1 << HS_ACC_LOG2_CASES)
                      ? " (scaled down: HS_TEST_QUICK or sanitizer)"
                      : "");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_sanity),      cmocka_unit_test(accuracy_normal),
        cmocka_unit_test(accuracy_long_thin),    cmocka_unit_test(accuracy_huge_coordinates),
        cmocka_unit_test(accuracy_near_tangent), cmocka_unit_test(accuracy_near_root),
        cmocka_unit_test(near_root_example),
    };
    return cmocka_run_group_tests_name("accuracy", tests, NULL, NULL);
}
