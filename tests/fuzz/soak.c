/* SPDX-License-Identifier: MIT */
/* Soak test: thousands of random rebuild / query cycles through one grid and one workspace, grid ==
 * brute force on sampled queries, memory bounded. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hitscan/hitscan.h"

/* Usage: hitscan_soak [cycles (3000)] [seed (1)] [max circles (100000)]
 * Each cycle draws a circle count in 0 .. max (uniform or log-uniform), a scene kind, and
 * moves every circle; rebuilds the grid in place (now and then builds a new one); answers a
 * batch of 0 .. 20000 queries (segments, rays, lines, thick, a few invalid) in a random mode,
 * semantics, ISA level and thread count, with the workspace or without; then answers 32
 * sampled queries by brute force at the same level and compares, bit for bit. Every 16th
 * cycle also checks pairs' count against overlap queries on sampled circles. Memory: the
 * process's resident size is read every cycle; the peak of the second half of the run may
 * not exceed the first half's by more than 10% + 16 MB (the grid and workspace keep the
 * largest sizes they have seen, so a leak or unbounded growth shows as a rising peak).
 * Exit 0 and one summary line, or 1 with the first disagreement. */

static uint64_t rs;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double urand(void) { return (double)(rnd() >> 11) * 0x1.0p-53; }
static size_t irand(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

static size_t rss_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0, res = 0;
    if (f) {
        if (fscanf(f, "%lu %lu", &pages, &res) != 2)
            res = 0;
        fclose(f);
    }
    return (size_t)res * (size_t)sysconf(_SC_PAGESIZE) / 1024;
}

static int same_f(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "soak: cycle %zu: ", cycle);                                               \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fprintf(stderr, "\n");                                                                     \
        exit(1);                                                                                   \
    } while (0)

int main(int argc, char **argv)
{
    const size_t cycles = argc > 1 ? strtoul(argv[1], NULL, 10) : 3000;
    rs = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    const size_t nmax = argc > 3 ? strtoul(argv[3], NULL, 10) : 100000;
    const size_t mmax = 20000, S = 32;
    float *x = malloc((nmax + 1) * sizeof *x), *y = malloc((nmax + 1) * sizeof *y);
    float *r = malloc((nmax + 1) * sizeof *r);
    float *ax = malloc(mmax * sizeof *ax), *ay = malloc(mmax * sizeof *ay);
    float *dx = malloc(mmax * sizeof *dx), *dy = malloc(mmax * sizeof *dy);
    float *t0 = malloc(mmax * sizeof *t0), *t1 = malloc(mmax * sizeof *t1);
    float *qq = malloc(mmax * sizeof *qq);
    uint32_t *idx = malloc(mmax * sizeof *idx), *cnt = malloc(mmax * sizeof *cnt);
    float *t = malloc(mmax * sizeof *t), *px = malloc(mmax * sizeof *px);
    uint8_t *hit = malloc(mmax);
    if (!x || !y || !r || !ax || !ay || !dx || !dy || !t0 || !t1 || !qq || !idx || !cnt || !t ||
        !px || !hit) {
        fprintf(stderr, "soak: out of memory\n");
        return 1;
    }
    hs_isa lv[HS_ISA_COUNT];
    int nl = 0;
    for (int l = HS_ISA_SCALAR; l < HS_ISA_COUNT; l++)
        if (hs_isa_supported((hs_isa)l))
            lv[nl++] = (hs_isa)l;
    hs_grid *g = NULL;
    hs_workspace *ws = NULL;
    if (hs_workspace_create(&ws) != HS_OK)
        return 1;
    size_t peak1 = 0, peak2 = 0, queries = 0, compared = 0, cycle = 0;
    const clock_t c0 = clock();
    for (cycle = 0; cycle < cycles; cycle++) {
        size_t n = irand(4) == 0 ? 0
                   : irand(2)    ? irand(nmax + 1)
                                 : (size_t)exp(urand() * log((double)nmax + 1));
        if (n > nmax)
            n = nmax;
        /* the first five kinds: the suite's (a point of 10^5 circles) would make pairs quadratic */
        hs_scene_kind kind = (hs_scene_kind)irand((size_t)HS_SCENE_LASERS + 1);
        if (n && hs_scene_circles(kind, n, rnd(), x, y, r) != HS_OK)
            FAIL("scene");
        hs_circles *cs = NULL;
        if (hs_circles_create(x, y, r, NULL, n, &cs, NULL) != HS_OK)
            FAIL("circles_create");
        if (g == NULL || irand(20) == 0) {
            hs_grid_destroy(g);
            g = NULL;
            hs_grid_opts go = {.cell_size = 0.0f, .threads = 1 + (int)irand(2)};
            if (hs_grid_build(cs, &go, &g) != HS_OK)
                FAIL("grid_build n=%zu", n);
        } else if (hs_grid_rebuild(g, cs) != HS_OK) {
            FAIL("grid_rebuild n=%zu", n);
        }
        /* the batch */
        const size_t m = irand(3) == 0 ? irand(mmax + 1) : irand(2000);
        const float side = hs_scene_side(n ? n : 1);
        if (m && hs_scene_segments(HS_SCENE_UNIFORM, n ? n : 1, m, rnd(), ax, ay, dx, dy) != HS_OK)
            FAIL("segments");
        for (size_t i = 0; i < m; i++) {
            t0[i] = 0.0f;
            t1[i] = 1.0f;
            qq[i] = 0.0f;
            switch (irand(16)) {
            case 0:
                t0[i] = -INFINITY;
                t1[i] = INFINITY;
                break;                                     /* a line */
            case 1: t1[i] = INFINITY; break;               /* a ray */
            case 2: qq[i] = (float)(urand() * 3.0); break; /* a capsule */
            case 3: dx[i] = side * (float)(urand() - 0.5); break;
            case 4:
                if (irand(8) == 0)
                    ax[i] = NAN;
                break; /* invalid: a miss */
            default: break;
            }
        }
        hs_queries qs = hs_queries_segments(ax, ay, dx, dy, m);
        qs.tmin = t0;
        qs.tmax = t1;
        qs.q = qq;
        hs_batch_opts o = hs_batch_opts_default();
        o.sem = irand(4) == 0 ? HS_BOUNDARY : HS_SOLID;
        o.isa = lv[irand((size_t)nl)];
        o.threads = 1 + (int)irand(2);
        o.ws = irand(3) ? ws : NULL;
        const int mode = (int)irand(4);
        hs_hits all = {0};
        hs_closest_out co = {idx, t, px, NULL, NULL, NULL, NULL};
        hs_status s = mode == 0   ? hs_grid_closest(g, &qs, &o, co)
                      : mode == 1 ? hs_grid_any(g, &qs, &o, hit)
                      : mode == 2 ? hs_grid_count_hits(g, &qs, &o, cnt)
                                  : hs_grid_all(g, &qs, &o, &all);
        if (s != HS_OK && s != HS_E_INVALID_QUERY)
            FAIL("grid mode %d returned %d", mode, (int)s);
        queries += m;
        /* S sampled queries by brute force, as a batch of their own */
        if (m) {
            float sax[32], say[32], sdx[32], sdy[32], st0[32], st1[32], sq[32];
            size_t pick[32];
            for (size_t k = 0; k < S; k++) {
                size_t i = pick[k] = irand(m);
                sax[k] = ax[i], say[k] = ay[i], sdx[k] = dx[i], sdy[k] = dy[i];
                st0[k] = t0[i], st1[k] = t1[i], sq[k] = qq[i];
            }
            hs_queries bq = hs_queries_segments(sax, say, sdx, sdy, S);
            bq.tmin = st0;
            bq.tmax = st1;
            bq.q = sq;
            hs_batch_opts bo = o;
            bo.ws = NULL;
            uint32_t bidx[32], bcnt[32];
            float bt[32], bpx[32];
            uint8_t bhit[32];
            hs_hits ball = {0};
            hs_closest_out bco = {bidx, bt, bpx, NULL, NULL, NULL, NULL};
            hs_status bs = mode == 0   ? hs_brute_closest(cs, &bq, &bo, bco)
                           : mode == 1 ? hs_brute_any(cs, &bq, &bo, bhit)
                           : mode == 2 ? hs_brute_count(cs, &bq, &bo, bcnt)
                                       : hs_brute_all(cs, &bq, &bo, &ball);
            if (bs != HS_OK && bs != HS_E_INVALID_QUERY)
                FAIL("brute mode %d returned %d", mode, (int)bs);
            for (size_t k = 0; k < S; k++) {
                size_t i = pick[k];
                int bad = mode == 0
                              ? idx[i] != bidx[k] || !same_f(t[i], bt[k]) || !same_f(px[i], bpx[k])
                          : mode == 1 ? hit[i] != bhit[k]
                          : mode == 2 ? cnt[i] != bcnt[k]
                                      : all.offsets[i + 1] - all.offsets[i] !=
                                            ball.offsets[k + 1] - ball.offsets[k];
                if (!bad && mode == 3)
                    for (size_t e = 0; e < ball.offsets[k + 1] - ball.offsets[k]; e++)
                        bad |= all.idx[all.offsets[i] + e] != ball.idx[ball.offsets[k] + e] ||
                               !same_f(all.t[all.offsets[i] + e], ball.t[ball.offsets[k] + e]);
                if (bad)
                    FAIL("grid != brute: mode %d, %s, %s, query %zu of %zu, n=%zu", mode,
                         hs_isa_name(o.isa), o.sem ? "boundary" : "solid", i, m, n);
            }
            compared += S;
            hs_hits_free(&ball);
        }
        hs_hits_free(&all);
        if (cycle % 16 == 0 && n > 0 && n <= 30000) {
            /* pairs against overlap queries on 8 sampled circles */
            hs_pairs p;
            if (hs_grid_pairs(g, &o, &p) != HS_OK)
                FAIL("pairs");
            for (int k = 0; k < 8; k++) {
                size_t j = irand(n);
                size_t found = 0, partners = 0;
                if (hs_grid_overlap_circle(g, (hs_circle){x[j], y[j], r[j]}, ~0u, NULL, 0,
                                           &found) != HS_OK)
                    FAIL("overlap");
                for (size_t e = 0; e < p.count; e++)
                    partners += p.i[e] == j || p.j[e] == j;
                if (found != partners + 1) /* itself, and every pair it is in */
                    FAIL("overlap of circle %zu found %zu, pairs say %zu + 1", j, found, partners);
            }
            hs_pairs_free(&p);
        }
        hs_circles_destroy(cs);
        size_t kb = rss_kb();
        if (cycle < cycles / 2)
            peak1 = kb > peak1 ? kb : peak1;
        else
            peak2 = kb > peak2 ? kb : peak2;
    }
    const double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    printf("soak: %zu cycles, %zu queries, %zu compared with brute force, peak RSS %zu MB "
           "(first half) / %zu MB (second half), grid %zu KB, workspace %zu KB, %.0f s CPU\n",
           cycles, queries, compared, peak1 / 1024, peak2 / 1024, hs_grid_bytes(g) / 1024,
           hs_workspace_bytes(ws) / 1024, secs);
    hs_grid_destroy(g);
    hs_workspace_destroy(ws);
    free(x), free(y), free(r), free(ax), free(ay), free(dx), free(dy), free(t0), free(t1);
    free(qq), free(idx), free(cnt), free(t), free(px), free(hit);
    if (peak2 > peak1 + peak1 / 10 + 16 * 1024) {
        fprintf(stderr, "soak: memory grew: peak %zu KB in the second half, %zu KB in the first\n",
                peak2, peak1);
        return 1;
    }
    return 0;
}
