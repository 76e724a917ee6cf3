/* SPDX-License-Identifier: MIT */
/* Skip-start (casting from a surface): reflection chains through every entry point and ISA
 * level never re-hit the circle they leave and hit what a long double reference hits; the same
 * chains without skip-start do re-hit it at t = 0; the rule's edge cases on single pairs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "hitscan/hitscan.h"
#include "test_util.h"

/* ---- the rule on single pairs ------------------------------------------------------------ */
static void test_rule(void **state)
{
    (void)state;
    const hs_circle unit = {0.0f, 0.0f, 1.0f};
    hs_hit h;
    /* on the rim heading out: solid hits at t = 0, skip-start ignores the circle */
    hs_query out = hs_ray((hs_vec2){1.0f, 0.0f}, (hs_vec2){1.0f, 0.5f}, INFINITY);
    assert_int_equal(hs_intersect_circle(out, unit, HS_SOLID, &h), 1);
    assert_true(h.t == 0.0f);
    assert_int_equal(hs_intersect_circle(out, unit, HS_SOLID_SKIP_START, &h), 0);
    assert_int_equal(hs_query_hits_circle(out, unit, HS_BOUNDARY_SKIP_START), 0);
    /* tangent at the start: heading outward counts (d . (P - c) = 0) */
    hs_query tan = hs_ray((hs_vec2){1.0f, 0.0f}, (hs_vec2){0.0f, 1.0f}, INFINITY);
    assert_int_equal(hs_query_hits_circle(tan, unit, HS_SOLID_SKIP_START), 0);
    /* on the rim heading in: still hits, at t = 0 */
    hs_query in = hs_ray((hs_vec2){1.0f, 0.0f}, (hs_vec2){-1.0f, 0.25f}, INFINITY);
    assert_int_equal(hs_intersect_circle(in, unit, HS_SOLID_SKIP_START, &h), 1);
    assert_true(h.t == 0.0f);
    assert_int_equal(hs_intersect_circle(in, unit, HS_BOUNDARY_SKIP_START, &h), 1);
    assert_true(h.t == 0.0f);
    /* a rounding error inside, heading out: ignored; boundary alone would report the exit */
    hs_query deep = hs_ray((hs_vec2){0.9999999f, 0.0f}, (hs_vec2){1.0f, 0.0f}, INFINITY);
    assert_int_equal(hs_query_hits_circle(deep, unit, HS_BOUNDARY), 1);
    assert_int_equal(hs_query_hits_circle(deep, unit, HS_BOUNDARY_SKIP_START), 0);
    /* outside, heading in: unchanged */
    hs_query far = hs_ray((hs_vec2){3.0f, 0.0f}, (hs_vec2){-1.0f, 0.0f}, INFINITY);
    assert_int_equal(hs_intersect_circle(far, unit, HS_SOLID_SKIP_START, &h), 1);
    assert_true(h.t == 2.0f);
    /* a line has no start: no effect */
    hs_query line = hs_line((hs_vec2){1.0f, 0.0f}, (hs_vec2){2.0f, 0.0f});
    assert_int_equal(hs_intersect_circle(line, unit, HS_SOLID_SKIP_START, &h), 1);
    assert_true(h.t == -2.0f);
    /* thickness inflates the disc the start is tested against */
    hs_query thick = hs_query_thick(hs_ray((hs_vec2){1.5f, 0.0f}, (hs_vec2){1.0f, 0.0f}, 5), 0.5f);
    assert_int_equal(hs_query_hits_circle(thick, unit, HS_SOLID), 1);
    assert_int_equal(hs_query_hits_circle(thick, unit, HS_SOLID_SKIP_START), 0);
    /* values past the flags stay out of range */
    assert_int_equal(hs_query_hits_circle(out, unit, (hs_semantics)4), HS_E_RANGE);
    assert_int_equal(hs_intersect_circle(out, unit, (hs_semantics)-1, &h), HS_E_RANGE);
}

/* ---- reflection chains -------------------------------------------------------------------- */
typedef struct world {
    size_t n;
    float x[64], y[64], r[64];
    hs_circles *cs;
    hs_grid *g;
} world;

/* How the float answer is judged against the long double one. A pair counts as ambiguous when
 * its distance from tangency (perpendicular distance against r), or skip-start's decisions at
 * the start (|P(tmin) - c| against r, and the start's offset along d), lie within BAND of the
 * scene's scale (32 float epsilons: float's tangency band is a few). Two entry times within
 * BAND of each other (a junction of two circles) are a tie: either circle is right. */
#define BAND 4e-6L

typedef struct ref_answer {
    int idx;         /* reference closest circle, -1: none */
    int ambiguous;   /* the float answer may be any circle in ok[] */
    int ok[64], nok; /* acceptable circles (the reference's, ties, band pairs) */
} ref_answer;

static ref_answer reference(const world *w, long double ax, long double ay, long double dx,
                            long double dy, long double scale, int skip)
{
    ref_answer a = {-1, 0, {0}, 0};
    long double dl = sqrtl(dx * dx + dy * dy), best = INFINITY, tb[64];
    int cand[64];
    for (size_t i = 0; i < w->n; i++) {
        long double fx = ax - w->x[i], fy = ay - w->y[i], R = w->r[i];
        long double b = (fx * dx + fy * dy) / dl; /* start's offset along the unit direction */
        long double s = sqrtl(fx * fx + fy * fy);
        long double h = fabsl(fx * dy - fy * dx) / dl; /* perpendicular distance */
        int near_start = fabsl(s - R) <= BAND * scale && (fabsl(b) <= BAND * scale || !skip);
        int near_side = fabsl(h - R) <= BAND * scale;
        tb[i] = INFINITY;
        cand[i] = 0;
        int hit;
        long double t = INFINITY;
        if (s <= R) { /* starts inside */
            hit = !(skip && b >= 0);
            t = 0;
        } else {
            long double disc = R * R - h * h;
            hit = disc >= 0 && b < 0;
            if (hit)
                t = (-b - sqrtl(disc)) / dl;
        }
        if (near_start || near_side) {
            cand[i] = 1; /* may go either way in float */
            tb[i] = hit ? t : (-b / dl > 0 ? -b / dl : 0);
        }
        if (hit && t < best) {
            best = t;
            a.idx = (int)i;
        }
        if (hit)
            tb[i] = t;
    }
    /* acceptable: the reference's circle, circles entered within BAND of it, and band pairs
     * entered no later */
    for (size_t i = 0; i < w->n; i++) {
        int tie = tb[i] * dl <= best * dl + BAND * scale;
        if ((int)i == a.idx || (tie && (cand[i] || tb[i] < INFINITY))) {
            a.ok[a.nok++] = (int)i;
            if ((int)i != a.idx)
                a.ambiguous = 1;
        }
    }
    if (a.idx < 0)
        for (size_t i = 0; i < w->n; i++)
            if (cand[i]) {
                a.ok[a.nok++] = (int)i;
                a.ambiguous = 1;
            }
    return a;
}

/* One cast through the entry point `how`: 0 hs_intersect_circle over every circle, 1 brute
 * force, 2 grid (closest), 3 grid all-hits (its first hit; its hits must never include the
 * circle the query starts on and leaves). Returns the circle or -1; *t, *p, *nrm its hit. */
static int cast(const world *w, int how, hs_isa isa, hs_semantics sem, hs_vec2 a, hs_vec2 d,
                float *t, hs_vec2 *p, hs_vec2 *nrm)
{
    if (how == 0) {
        int best = -1;
        hs_hit hb = {INFINITY, 0, {0, 0}, {0, 0}, 0}, h;
        for (size_t i = 0; i < w->n; i++) {
            hs_circle c = {w->x[i], w->y[i], w->r[i]};
            if (hs_intersect_circle(hs_ray(a, d, INFINITY), c, sem, &h) == 1 && h.t < hb.t) {
                hb = h;
                best = (int)i;
            }
        }
        *t = hb.t;
        *p = hb.point;
        *nrm = hb.normal;
        return best;
    }
    hs_queries qs = hs_queries_segments(&a.x, &a.y, &d.x, &d.y, 1);
    qs.tmax_all = INFINITY;
    hs_batch_opts o = hs_batch_opts_default();
    o.isa = isa;
    o.sem = sem;
    uint32_t idx;
    hs_closest_out co = {&idx, t, &p->x, &p->y, &nrm->x, &nrm->y, NULL};
    if (how == 1)
        assert_int_equal(hs_brute_closest(w->cs, &qs, &o, co), HS_OK);
    else
        assert_int_equal(hs_grid_closest(w->g, &qs, &o, co), HS_OK);
    if (how == 3) {
        hs_hits hh;
        assert_int_equal(hs_grid_all(w->g, &qs, &o, &hh), HS_OK);
        uint32_t cnt;
        assert_int_equal(hs_grid_count_hits(w->g, &qs, &o, &cnt), HS_OK);
        assert_int_equal(cnt, hh.total);
        if (hh.total) {
            assert_int_equal(hh.idx[0], idx);
            assert_true(hh.t[0] == *t);
        }
        hs_hits_free(&hh);
    }
    return idx == HS_NONE ? -1 : (int)idx;
}

typedef struct chain_stats {
    size_t bounces, ambiguous, stopped, rehits_without_skip;
} chain_stats;

/* Up to `bounces` reflections from (a, d); each cast after the first starts on the circle
 * just hit, with skip-start. */
static void run_chain(const world *w, int how, hs_isa isa, hs_vec2 a, hs_vec2 d, int bounces,
                      long double scale, chain_stats *st)
{
    int prev = -1;
    for (int k = 0; k < bounces; k++) {
        float t;
        hs_vec2 p, nrm;
        hs_semantics sem = prev < 0 ? HS_SOLID : HS_SOLID_SKIP_START;
        int got = cast(w, how, isa, sem, a, d, &t, &p, &nrm);
        ref_answer ref = reference(w, a.x, a.y, d.x, d.y, scale, prev >= 0);
        if (prev >= 0 && got == prev)
            fail_msg("%s how %d bounce %d: re-hit circle %d at t %a", hs_isa_name(isa), how, k, got,
                     (double)t);
        int fine = got == ref.idx;
        for (int j = 0; j < ref.nok && !fine; j++)
            fine = got == ref.ok[j];
        if (!fine)
            fail_msg("%s how %d bounce %d: hit %d, reference %d (from (%a,%a) along (%a,%a))",
                     hs_isa_name(isa), how, k, got, ref.idx, (double)a.x, (double)a.y, (double)d.x,
                     (double)d.y);
        if (prev >= 0) { /* the same cast without skip-start */
            float t2;
            hs_vec2 p2, n2;
            int again = cast(w, how, isa, HS_SOLID, a, d, &t2, &p2, &n2);
            st->rehits_without_skip += again == prev && t2 <= 1e-3f;
        }
        st->bounces++;
        if (got < 0)
            return; /* escaped */
        if (ref.ambiguous) {
            st->ambiguous++;
            if (got != ref.idx) { /* the chains part: the reference stops here */
                st->stopped++;
                return;
            }
        }
        /* reflect: d' = d - 2 (d . n) n, about the normal at the hit */
        float dn = d.x * nrm.x + d.y * nrm.y;
        d.x -= 2.0f * dn * nrm.x;
        d.y -= 2.0f * dn * nrm.y;
        a = p;
        prev = got;
    }
}

static void world_finish(world *w)
{
    assert_int_equal(hs_circles_create(w->x, w->y, w->r, NULL, w->n, &w->cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(w->cs, NULL, &w->g), HS_OK);
}

static void world_free(world *w)
{
    hs_grid_destroy(w->g);
    hs_circles_destroy(w->cs);
}

static void chains_everywhere(const world *w, hs_vec2 (*start)(hs_vec2 *d), int chains, int bounces,
                              long double scale, const char *what, size_t *rehits)
{
    for (int how = 0; how < 4; how++)
        for (int isa = HS_ISA_SCALAR; isa < HS_ISA_COUNT; isa++) {
            if (!hs_isa_supported((hs_isa)isa) || (how == 0 && isa != HS_ISA_SCALAR))
                continue;
            chain_stats st = {0, 0, 0, 0};
            rng_state = 77;
            for (int c = 0; c < chains; c++) {
                hs_vec2 d, a = start(&d);
                run_chain(w, how, (hs_isa)isa, a, d, bounces, scale, &st);
            }
            printf("  %s %-6s %s: %zu casts, %zu ambiguous (%zu chains stopped there); without "
                   "skip-start %zu re-hit the circle just left at t <= 1e-3\n",
                   what, hs_isa_name((hs_isa)isa),
                   how == 0   ? "scalar call"
                   : how == 1 ? "brute"
                   : how == 2 ? "grid"
                              : "grid all",
                   st.bounces, st.ambiguous, st.stopped, st.rehits_without_skip);
            assert_true(st.bounces > 0);
            *rehits += st.rehits_without_skip;
        }
}

/* A ring of 32 overlapping circles around (1000, -500): the ray stays inside and bounces. */
static hs_vec2 ring_start(hs_vec2 *d)
{
    float ang = unif(0.0f, 6.2831853f);
    *d = (hs_vec2){cosf(ang), sinf(ang)};
    return (hs_vec2){1000.0f + unif(-1.0f, 1.0f), -500.0f + unif(-1.0f, 1.0f)};
}

static void test_ring(void **state)
{
    (void)state;
    world w = {0};
    w.n = 32;
    for (size_t i = 0; i < w.n; i++) {
        double ang = 6.283185307179586 * (double)i / (double)w.n;
        w.x[i] = (float)(1000.0 + 8.0 * cos(ang));
        w.y[i] = (float)(-500.0 + 8.0 * sin(ang));
        w.r[i] = 1.0f + 0.1f * (float)(i % 3);
    }
    world_finish(&w);
    size_t rehits = 0;
    chains_everywhere(&w, ring_start, 5, 100, 1000.0L, "ring", &rehits);
    assert_true(rehits > 0); /* without skip-start the chain is stuck on its own circle */
    world_free(&w);
}

/* A laser into a cluster of 40 circles: it bounces until it escapes. */
static hs_vec2 laser_start(hs_vec2 *d)
{
    float ang = unif(-0.3f, 0.3f);
    *d = (hs_vec2){cosf(ang), sinf(ang)};
    return (hs_vec2){-30.0f, unif(-5.0f, 5.0f)};
}

static void test_cluster(void **state)
{
    (void)state;
    world w = {0};
    rng_state = 5;
    w.n = 40;
    for (size_t i = 0; i < w.n; i++) {
        w.x[i] = unif(-10.0f, 10.0f);
        w.y[i] = unif(-10.0f, 10.0f);
        w.r[i] = unif(0.5f, 2.0f);
    }
    world_finish(&w);
    size_t rehits = 0;
    chains_everywhere(&w, laser_start, 40, 100, 30.0L, "cluster", &rehits);
    assert_true(rehits > 0);
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_ring),
        cmocka_unit_test(test_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
