/* SPDX-License-Identifier: MIT */
/* Threads inside a program that uses every core: the game frame of examples/game_frame.h,
 * call by call, at the default team, on one thread and on a task system (examples/task_pool.h:
 * one pool thread and the caller), first on a quiet machine, then with a busy loop on every
 * processor (threads of this program at normal priority, started and stopped here). Then,
 * quiet, the scaling at 10^6 circles x 10^6 segments (closest, all hits, pairs).
 * Prints one JSON object: per condition and call, the median time of each configuration in ms
 * and its ratio to one thread. Usage: hitscan_threads_bench [calls per configuration (60)]
 * [rounds at 10^6 (5); 0 skips]. */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "game_frame.h"
#include "hitscan/scene.h"
#include "task_pool.h"

enum { ONE, DEFAULT, POOL, CONFIGS };

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static atomic_int spinning;
static void *busy(void *unused)
{
    (void)unused;
    volatile unsigned long x = 0;
    while (atomic_load_explicit(&spinning, memory_order_relaxed))
        x++;
    return NULL;
}

static hs_batch_opts opts_of(int c, tp_pool *pool)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = c == ONE ? 1 : 0;
    o.tasks = c == POOL ? &pool->tasks : NULL;
    return o;
}

/* The frame's calls, `calls` times each per configuration, the configurations alternated. */
static void frame_condition(const char *name, int calls, tp_pool *pool, int last)
{
    gf_world *w[CONFIGS];
    static double t[CONFIGS][GF_CALLS][1000];
    for (int c = 0; c < CONFIGS; c++) {
        hs_grid_opts go;
        memset(&go, 0, sizeof go);
        go.threads = c == ONE ? 1 : 0;
        go.tasks = c == POOL ? &pool->tasks : NULL;
        w[c] = gf_make(7, &go);
        if (!w[c])
            exit(1);
        const hs_batch_opts o = opts_of(c, pool);
        for (int f = 0; f < 3; f++) /* warm up */
            gf_frame(w[c], &o);
    }
    for (int k = 0; k < calls; k++)
        for (int c = 0; c < CONFIGS; c++) {
            const hs_batch_opts o = opts_of(c, pool);
            gf_step(w[c]);
            for (int call = 0; call < GF_CALLS; call++) {
                const double t0 = now_ms();
                if (gf_call(w[c], call, &o) != HS_OK)
                    exit(1);
                t[c][call][k] = now_ms() - t0;
            }
        }
    printf("    \"%s\": {\n", name);
    for (int call = 0; call < GF_CALLS; call++) {
        double med[CONFIGS];
        for (int c = 0; c < CONFIGS; c++)
            med[c] = median(t[c][call], calls);
        printf("      \"%s\": {\"one_thread_ms\": %.4f, \"default_ms\": %.4f, \"task_pool_ms\": "
               "%.4f, \"default_over_one\": %.3f, \"task_pool_over_one\": %.3f}%s\n",
               gf_call_names[call], med[ONE], med[DEFAULT], med[POOL], med[DEFAULT] / med[ONE],
               med[POOL] / med[ONE], call + 1 < GF_CALLS ? "," : "");
    }
    printf("    }%s\n", last ? "" : ",");
    for (int c = 0; c < CONFIGS; c++)
        gf_free(w[c]);
}

/* 10^6 x 10^6 on the uniform scene: closest, all hits, pairs; speed-up over one thread. */
static void scaling(int rounds, tp_pool *pool)
{
    const size_t n = 1000000, m = 1000000;
    float *x = malloc(n * 4), *y = malloc(n * 4), *r = malloc(n * 4);
    float *ax = malloc(m * 4), *ay = malloc(m * 4), *dx = malloc(m * 4), *dy = malloc(m * 4);
    uint32_t *idx = malloc(m * 4);
    float *tt = malloc(m * 4);
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    if (!x || !y || !r || !ax || !ay || !dx || !dy || !idx || !tt ||
        hs_scene_circles(HS_SCENE_UNIFORM, n, 1, x, y, r) != HS_OK ||
        hs_scene_segments(HS_SCENE_UNIFORM, n, m, 2, ax, ay, dx, dy) != HS_OK ||
        hs_circles_borrow(x, y, r, NULL, n, &cs, NULL) != HS_OK ||
        hs_grid_build(cs, NULL, &g) != HS_OK)
        exit(1);
    const hs_queries qs = hs_queries_segments(ax, ay, dx, dy, m);
    static const char *const what[3] = {"closest", "all", "pairs"};
    double t[3][CONFIGS][64];
    for (int k = 0; k < rounds && k < 64; k++)
        for (int c = 0; c < CONFIGS; c++) {
            hs_batch_opts o = opts_of(c, pool);
            o.threads = c == DEFAULT ? 2 : o.threads;
            for (int q = 0; q < 3; q++) {
                const double t0 = now_ms();
                hs_status s;
                if (q == 0) {
                    const hs_closest_out out = {idx, tt, NULL, NULL, NULL, NULL, NULL};
                    s = hs_grid_closest(g, &qs, &o, out);
                } else if (q == 1) {
                    hs_hits h;
                    s = hs_grid_all(g, &qs, &o, &h);
                    hs_hits_free(&h);
                } else {
                    hs_pairs p;
                    s = hs_grid_pairs(g, &o, &p);
                    hs_pairs_free(&p);
                }
                if (s != HS_OK && s != HS_E_INVALID_QUERY)
                    exit(1);
                t[q][c][k] = now_ms() - t0;
            }
        }
    printf("  \"scaling_1e6_uniform\": {\n");
    for (int q = 0; q < 3; q++) {
        double med[CONFIGS];
        for (int c = 0; c < CONFIGS; c++)
            med[c] = median(t[q][c], rounds < 64 ? rounds : 64);
        printf("    \"%s\": {\"one_thread_ms\": %.2f, \"two_threads_ms\": %.2f, \"task_pool_ms\": "
               "%.2f, \"two_threads_speedup\": %.3f, \"task_pool_speedup\": %.3f}%s\n",
               what[q], med[ONE], med[DEFAULT], med[POOL], med[ONE] / med[DEFAULT],
               med[ONE] / med[POOL], q < 2 ? "," : "");
    }
    printf("  },\n");
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    free(x), free(y), free(r), free(ax), free(ay), free(dx), free(dy), free(idx), free(tt);
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 60;
    const int rounds = argc > 2 ? atoi(argv[2]) : 5;
    calls = calls < 1 ? 1 : calls > 1000 ? 1000 : calls;
    tp_pool pool;
    if (tp_start(&pool, 1) != 0)
        return 1;
    const long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    printf("{\n  \"calls_per_configuration\": %d,\n  \"task_pool_workers\": %d,\n", calls,
           pool.tasks.workers);
    if (rounds > 0)
        scaling(rounds, &pool);
    printf("  \"frame\": {\n");
    frame_condition("quiet", calls, &pool, 0);
    pthread_t th[64];
    const int nbusy = ncpu > 0 && ncpu < 64 ? (int)ncpu : 2;
    atomic_store(&spinning, 1);
    for (int k = 0; k < nbusy; k++)
        pthread_create(&th[k], NULL, busy, NULL);
    char name[64];
    snprintf(name, sizeof name, "busy_loops_%d", nbusy);
    frame_condition(name, calls, &pool, 1);
    atomic_store(&spinning, 0);
    for (int k = 0; k < nbusy; k++)
        pthread_join(th[k], NULL);
    printf("  }\n}\n");
    tp_stop(&pool);
    return 0;
}
