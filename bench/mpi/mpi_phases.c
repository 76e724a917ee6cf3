/* SPDX-License-Identifier: MIT */
/* What decides hitscan_mpi's scaling, measured on a built-in scene: bytes per query and per
 * circle, share of queries sent to more than one rank, ghosts per rank, answers per query,
 * and time per phase (build: decompose / move / grid; queries: route / exchange / local /
 * return). Run under mpirun; rank 0 prints one line per figure (max and mean over ranks).
 *
 *   mpirun -np 4 hitscan_mpi_phases --scene uniform --n 1000000 --m 1000000 --mode closest
 *
 * Queries: the scene's segments (--kind ray / line extends them); --origin random gives each
 * rank an equal slice of them wherever they start, --origin local (default) gives each rank
 * the ones that start in its domain (a simulation's shooters live with their particles). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/hitscan.h"
#include "hitscan/mpi.h"

static int rank_, size_;

static double arg_num(int argc, char **argv, const char *name, double dflt)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return atof(argv[i + 1]);
    return dflt;
}
static const char *arg_str(int argc, char **argv, const char *name, const char *dflt)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return dflt;
}

/* Prints max and mean over ranks of v (rank 0). */
static void report(const char *what, double v)
{
    double mx = 0, sum = 0;
    MPI_Reduce(&v, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank_ == 0)
        printf("  %-34s max %14.6g   mean %14.6g\n", what, mx, sum / size_);
}

static double sum_all(double v)
{
    double s = 0;
    MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    const size_t n = (size_t)arg_num(argc, argv, "--n", 1e6);
    const size_t m = (size_t)arg_num(argc, argv, "--m", 1e6);
    const int threads = (int)arg_num(argc, argv, "--threads", 1);
    const int repeat = (int)arg_num(argc, argv, "--repeat", 3);
    const char *mode = arg_str(argc, argv, "--mode", "closest");
    const char *kindname = arg_str(argc, argv, "--kind", "segment");
    const int local_origin = strcmp(arg_str(argc, argv, "--origin", "local"), "local") == 0;
    hs_scene_kind kind = hs_scene_kind_from_name(arg_str(argc, argv, "--scene", "uniform"));
    if (kind == HS_SCENE_INVALID) {
        if (rank_ == 0)
            fprintf(stderr, "unknown --scene\n");
        MPI_Finalize();
        return 2;
    }

    /* this rank's slice of the scene (every rank generates it; the scene is deterministic) */
    float *x = malloc(n * 4 + 4), *y = malloc(n * 4 + 4), *r = malloc(n * 4 + 4);
    hs_scene_circles(kind, n, 1, x, y, r);
    size_t lo = n * (size_t)rank_ / (size_t)size_, hi = n * (size_t)(rank_ + 1) / (size_t)size_;
    hs_mpi_opts mo = {0.0f, threads, 0};
    hs_mpi_set *s = NULL;
    MPI_Barrier(MPI_COMM_WORLD);
    double tb = MPI_Wtime();
    hs_status st =
        hs_mpi_build(MPI_COMM_WORLD, x + lo, y + lo, r + lo, NULL, NULL, NULL, hi - lo, &mo, &s);
    double build_s = MPI_Wtime() - tb;
    if (st != HS_OK) {
        fprintf(stderr, "build failed: %d\n", (int)st);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    hs_mpi_info in;
    hs_mpi_get_info(s, &in);
    if (rank_ == 0)
        printf("scene=%s N=%zu M=%zu ranks=%d threads=%d mode=%s kind=%s origin=%s\n",
               hs_scene_kind_name(kind), n, m, size_, threads, mode, kindname,
               local_origin ? "local" : "random");
    report("build: total s", build_s);
    report("build: decompose s", in.build_decompose_s);
    report("build: move s", in.build_move_s);
    report("build: local grid s", in.build_grid_s);
    report("build: owned circles", (double)in.owned);
    report("build: bytes sent per circle",
           (double)in.build_bytes_sent / (double)(hi - lo ? hi - lo : 1));

    /* a frame: every circle moves by up to 0.5 (about a radius), then rebuilds */
    {
        hs_mpi_owned own = hs_mpi_owned_circles(s);
        for (size_t k = 0; k < own.count; k++) {
            uint32_t h = own.id[k] * 2654435761u;
            own.x[k] += ((float)(h & 1023) / 1023.0f - 0.5f);
            own.y[k] += ((float)((h >> 10) & 1023) / 1023.0f - 0.5f);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        hs_mpi_rebuild(s, 0);
        double t1 = MPI_Wtime();
        hs_mpi_get_info(s, &in);
        report("rebuild (moved <= 0.5): total s", t1 - t0);
        report("rebuild: move s", in.build_move_s);
        report("rebuild: local grid s", in.build_grid_s);
        report("rebuild: circles moved out", (double)in.moved_out);
        report("rebuild: bytes sent per owned",
               (double)in.build_bytes_sent / (double)(in.owned ? in.owned : 1));
    }

    /* queries */
    float *ax = malloc(m * 4 + 4), *ay = malloc(m * 4 + 4), *dx = malloc(m * 4 + 4),
          *dy = malloc(m * 4 + 4);
    hs_scene_segments(kind, n, m, 2, ax, ay, dx, dy);
    size_t qlo = 0, qn = 0;
    if (local_origin) {
        hs_mpi_get_info(s, &in);
        for (size_t i = 0; i < m; i++)
            if (ax[i] >= in.domain.min.x && ax[i] < in.domain.max.x && ay[i] >= in.domain.min.y &&
                ay[i] < in.domain.max.y) {
                ax[qn] = ax[i], ay[qn] = ay[i], dx[qn] = dx[i], dy[qn] = dy[i];
                qn++;
            }
    } else {
        qlo = m * (size_t)rank_ / (size_t)size_;
        qn = m * (size_t)(rank_ + 1) / (size_t)size_ - qlo;
    }
    hs_queries qs = hs_queries_segments(ax + qlo, ay + qlo, dx + qlo, dy + qlo, qn);
    if (strcmp(kindname, "ray") == 0)
        qs.tmax_all = INFINITY;
    else if (strcmp(kindname, "line") == 0)
        qs.tmin_all = -INFINITY, qs.tmax_all = INFINITY;
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    uint32_t *idx = malloc(qn * 4 + 4), *cnt = malloc(qn * 4 + 4);
    float *t = malloc(qn * 4 + 4);
    uint8_t *hit = malloc(qn + 1);
    double *tot = malloc((size_t)repeat * sizeof *tot);
    hs_mpi_info best;
    memset(&best, 0, sizeof best);
    double hits = 0, best_s = INFINITY;
    for (int rep = 0; rep < repeat; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (strcmp(mode, "closest") == 0) {
            hs_closest_out co = {idx, t, NULL, NULL, NULL, NULL, NULL};
            st = hs_mpi_closest(s, &qs, &o, co);
            hits = 0;
            for (size_t i = 0; i < qn; i++)
                hits += idx[i] != HS_NONE;
        } else if (strcmp(mode, "any") == 0) {
            st = hs_mpi_any(s, &qs, &o, hit);
            hits = 0;
            for (size_t i = 0; i < qn; i++)
                hits += hit[i];
        } else if (strcmp(mode, "count") == 0) {
            st = hs_mpi_count_hits(s, &qs, &o, cnt);
            hits = 0;
            for (size_t i = 0; i < qn; i++)
                hits += cnt[i];
        } else if (strcmp(mode, "all") == 0) {
            hs_hits h;
            st = hs_mpi_all(s, &qs, &o, &h);
            hits = (double)h.total;
            hs_hits_free(&h);
        } else {
            hs_pairs p;
            st = hs_mpi_pairs(s, &o, &p);
            hits = (double)p.count;
            hs_pairs_free(&p);
        }
        tot[rep] = MPI_Wtime() - t0;
        if (st < 0 && st != HS_E_INVALID_QUERY)
            MPI_Abort(MPI_COMM_WORLD, 1);
        hs_mpi_info cur;
        hs_mpi_get_info(s, &cur);
        if (tot[rep] < best_s) {
            best_s = tot[rep];
            best = cur;
        }
    }
    qsort(tot, (size_t)repeat, sizeof *tot, cmp_d);
    const double median_s = tot[repeat / 2];
    in = best;
    const double q = (double)qn;
    if (strcmp(mode, "pairs") == 0) {
        report("pairs: fastest call s", best_s);
        report("pairs: median call s", median_s);
        report("pairs: ghosts held", (double)in.ghosts);
        report("pairs: ghosts / owned", (double)in.ghosts / (double)(in.owned ? in.owned : 1));
        report("pairs: ghost bytes sent per owned",
               (double)in.ghost_bytes_sent / (double)(in.owned ? in.owned : 1));
        report("pairs: pairs reported", hits);
    } else {
        report("query: queries submitted", q);
        report("query: fastest call s", best_s);
        report("query: median call s", median_s);
        report("query: route s", in.route_s);
        report("query: exchange s", in.exchange_s);
        report("query: local answer s", in.local_s);
        report("query: return + merge s", in.return_s);
        report("query: rounds", in.rounds);
        report("query: bytes sent per query", (double)in.bytes_sent / (q ? q : 1));
        report("query: ranks asked per query", (double)in.sends / (q ? q : 1));
        report("query: share sent to >1 rank", (double)in.multi_rank / (q ? q : 1));
        report("query: share of sends remote",
               (double)in.remote_sends / (double)(in.sends ? in.sends : 1));
        report("query: queries answered here", (double)in.answered);
        const double all_q = sum_all(q), all_ans = sum_all((double)in.answered),
                     all_hits = sum_all(hits);
        if (rank_ == 0)
            printf("  answers per query %.4f, hits %.0f, queries/s (fastest) %.4g\n",
                   all_ans / (all_q ? all_q : 1), all_hits, all_q / best_s);
    }
    hs_mpi_destroy(s);
    free(x), free(y), free(r), free(ax), free(ay), free(dx), free(dy), free(idx), free(cnt),
        free(t), free(hit), free(tot);
    MPI_Finalize();
    return 0;
}
