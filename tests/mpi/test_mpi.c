/* SPDX-License-Identifier: MIT */
/* hitscan_mpi against one process: every rank's answers must be the bytes hs_grid_* gives on
 * the union of all ranks' circles, for scenes, hard cases, rebuilds and pairs. Run under
 * mpirun with any rank count; every rank generates the whole scene (deterministic) and builds
 * the single-process reference itself. Failures are counted, never abort a rank mid-way (the
 * others would wait in a collective): the exit status is the sum over all ranks. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/hitscan.h"
#include "hitscan/mpi.h"

static int g_rank, g_size, g_fail, g_checks;
static const char *g_case = "";

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[rank %d/%d] %s: ", g_rank, g_size, g_case);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    g_fail++;
}

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        g_checks++;                                                                                \
        if (!(cond))                                                                               \
            fail(__VA_ARGS__);                                                                     \
    } while (0)

static void same_bytes(const void *a, const void *b, size_t n, const char *what)
{
    g_checks++;
    if (n == 0 || memcmp(a, b, n) == 0)
        return;
    const unsigned char *x = a, *y = b;
    size_t k = 0;
    while (x[k] == y[k])
        k++;
    fail("%s differs (first at byte %zu of %zu)", what, k, n);
}

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static float unit(uint64_t seed, uint64_t i) /* [0, 1) */
{
    return (float)(mix(seed * 0x100000001b3ull + i) >> 40) * (1.0f / 16777216.0f);
}

/* ---- the whole scene, as every rank sees it ----------------------------------------------- */
typedef struct scene {
    size_t n;
    float *x, *y, *r;
    uint32_t *mask; /* NULL: no masks */
    float side;
} scene;

static void scene_free(scene *s)
{
    free(s->x), free(s->y), free(s->r), free(s->mask);
    memset(s, 0, sizeof *s);
}

static scene scene_alloc(size_t n)
{
    scene s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.x = malloc((n + 1) * sizeof *s.x);
    s.y = malloc((n + 1) * sizeof *s.y);
    s.r = malloc((n + 1) * sizeof *s.r);
    return s;
}

static scene scene_builtin(hs_scene_kind kind, size_t n, int masks)
{
    scene s = scene_alloc(n);
    hs_scene_circles(kind, n, 7, s.x, s.y, s.r);
    s.side = hs_scene_side(n);
    if (masks) {
        s.mask = malloc((n + 1) * sizeof *s.mask);
        for (size_t i = 0; i < n; i++)
            s.mask[i] = 1u << (mix(i + 99) % 4);
    }
    return s;
}

/* ---- queries of one rank ------------------------------------------------------------------ */
typedef struct qset {
    size_t m;
    float *ax, *ay, *dx, *dy, *t0, *t1, *q;
    uint32_t *mask;
    hs_queries qs;
} qset;

static void qset_free(qset *q)
{
    free(q->ax), free(q->ay), free(q->dx), free(q->dy), free(q->t0), free(q->t1), free(q->q),
        free(q->mask);
    memset(q, 0, sizeof *q);
}

static qset qset_alloc(size_t m)
{
    qset q;
    memset(&q, 0, sizeof q);
    q.m = m;
    q.ax = malloc((m + 1) * sizeof(float));
    q.ay = malloc((m + 1) * sizeof(float));
    q.dx = malloc((m + 1) * sizeof(float));
    q.dy = malloc((m + 1) * sizeof(float));
    q.t0 = malloc((m + 1) * sizeof(float));
    q.t1 = malloc((m + 1) * sizeof(float));
    q.q = malloc((m + 1) * sizeof(float));
    q.mask = malloc((m + 1) * sizeof(uint32_t));
    memset(&q.qs, 0, sizeof q.qs);
    q.qs.ax = q.ax, q.qs.ay = q.ay, q.qs.dx = q.dx, q.qs.dy = q.dy;
    q.qs.tmin = q.t0, q.qs.tmax = q.t1, q.qs.q = q.q, q.qs.mask = q.mask;
    q.qs.count = m;
    return q;
}

/* Segments of the scene, each query given a kind (segment, ray, line, capsule, thick ray)
 * and a mask at random, unless `kind` fixes it (0 segment, 1 ray, 2 line, 3 capsule). */
static qset qset_scene(size_t n_scene, size_t m, uint64_t seed, int kind, int masks)
{
    qset q = qset_alloc(m);
    hs_scene_segments(HS_SCENE_UNIFORM, n_scene, m, seed, q.ax, q.ay, q.dx, q.dy);
    for (size_t i = 0; i < m; i++) {
        int k = kind >= 0 ? kind : (int)(mix(seed + 5 * i) % 5);
        q.t0[i] = k == 2 ? -INFINITY : 0.0f;
        q.t1[i] = k == 0 || k == 3 ? 1.0f : INFINITY;
        q.q[i] = k >= 3 ? 3.0f * unit(seed + 11, i) : 0.0f;
        q.mask[i] = masks ? (uint32_t)(mix(seed + 7 * i) % 16) : UINT32_MAX;
    }
    return q;
}

/* ---- comparisons -------------------------------------------------------------------------- */
static void check_queries(hs_mpi_set *s, const hs_grid *ref, const hs_queries *qs, hs_semantics sem,
                          int threads)
{
    const size_t m = qs->count;
    hs_batch_opts o = hs_batch_opts_default();
    o.sem = sem;
    o.threads = threads;
    hs_batch_stats rs, ds;
    memset(&rs, 0, sizeof rs);
    memset(&ds, 0, sizeof ds);

    /* closest, with and without points / normals (every rank takes the same choice, so the
     * answers travel at both sizes) */
    for (int pn = 0; pn < 2; pn++) {
        uint32_t *ri = malloc((m + 1) * 4), *di = malloc((m + 1) * 4);
        float *rf = malloc((5 * m + 1) * 4), *df = malloc((5 * m + 1) * 4);
        hs_closest_out ro = {ri, rf, NULL, NULL, NULL, NULL, NULL},
                       dout = {di, df, NULL, NULL, NULL, NULL, NULL};
        if (pn) {
            ro.px = rf + m, ro.py = rf + 2 * m, ro.nx = rf + 3 * m, ro.ny = rf + 4 * m;
            dout.px = df + m, dout.py = df + 2 * m, dout.nx = df + 3 * m, dout.ny = df + 4 * m;
        }
        o.stats = &rs;
        hs_status a = hs_grid_closest(ref, qs, &o, ro);
        o.stats = &ds;
        hs_status b = hs_mpi_closest(s, qs, &o, dout);
        CHECK(a == b, "closest status %d vs %d", (int)a, (int)b);
        CHECK(rs.invalid == ds.invalid && rs.first_invalid == ds.first_invalid,
              "closest invalid %zu/%zu vs %zu/%zu", rs.invalid, rs.first_invalid, ds.invalid,
              ds.first_invalid);
        same_bytes(ri, di, m * 4, "closest idx");
        same_bytes(rf, df, (pn ? 5 : 1) * m * 4, "closest t / point / normal");
        free(ri), free(di), free(rf), free(df);
    }
    {
        uint8_t *ra = malloc(m + 1), *da = malloc(m + 1);
        o.stats = &rs;
        hs_status a = hs_grid_any(ref, qs, &o, ra);
        o.stats = &ds;
        hs_status b = hs_mpi_any(s, qs, &o, da);
        CHECK(a == b, "any status %d vs %d", (int)a, (int)b);
        same_bytes(ra, da, m, "any");
        free(ra), free(da);
    }
    {
        uint32_t *rc = malloc((m + 1) * 4), *dc = malloc((m + 1) * 4);
        o.stats = &rs;
        hs_status a = hs_grid_count_hits(ref, qs, &o, rc);
        o.stats = &ds;
        hs_status b = hs_mpi_count_hits(s, qs, &o, dc);
        CHECK(a == b, "count status %d vs %d", (int)a, (int)b);
        CHECK(rs.invalid == ds.invalid, "count invalid");
        same_bytes(rc, dc, m * 4, "count");
        free(rc), free(dc);
    }
    {
        hs_hits rh, dh;
        memset(&rh, 0, sizeof rh);
        memset(&dh, 0, sizeof dh);
        o.stats = NULL;
        hs_status a = hs_grid_all(ref, qs, &o, &rh);
        hs_status b = hs_mpi_all(s, qs, &o, &dh);
        CHECK(a == b, "all status %d vs %d", (int)a, (int)b);
        CHECK(rh.count == dh.count && rh.total == dh.total, "all sizes %zu/%zu vs %zu/%zu",
              rh.count, rh.total, dh.count, dh.total);
        if (rh.count == dh.count && rh.total == dh.total) {
            same_bytes(rh.offsets, dh.offsets, (m + 1) * sizeof(size_t), "all offsets");
            same_bytes(rh.idx, dh.idx, rh.total * 4, "all idx");
            same_bytes(rh.t, dh.t, rh.total * 4, "all t");
        }
        hs_hits_free(&rh);
        hs_hits_free(&dh);
    }
}

static int cmp_pair(const void *a, const void *b)
{
    const uint32_t *p = a, *q = b;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}

static void check_pairs(hs_mpi_set *s, const hs_grid *ref)
{
    hs_pairs dp, rp;
    memset(&rp, 0, sizeof rp);
    hs_status b = hs_mpi_pairs(s, NULL, &dp);
    CHECK(b == HS_OK, "pairs status %d", (int)b);
    if (b != HS_OK)
        return;
    /* each pair from the owner of its smaller id, in (i, j) order */
    hs_mpi_owned own = hs_mpi_owned_circles(s);
    size_t k = 0, bad = 0;
    for (size_t e = 0; e < dp.count; e++) {
        while (k < own.count && own.id[k] < dp.i[e])
            k++;
        bad += k == own.count || own.id[k] != dp.i[e] || dp.i[e] >= dp.j[e] ||
               (e > 0 && cmp_pair((uint32_t[2]){dp.i[e - 1], dp.j[e - 1]},
                                  (uint32_t[2]){dp.i[e], dp.j[e]}) >= 0);
    }
    CHECK(bad == 0, "%zu pairs not from the owner of i, or out of order", bad);
    int n = (int)dp.count, *cnt = malloc((size_t)g_size * sizeof *cnt),
        *dsp = malloc((size_t)g_size * sizeof *dsp);
    MPI_Gather(&n, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
    uint32_t *mine = malloc((2 * dp.count + 1) * 4), *all = NULL;
    for (size_t e = 0; e < dp.count; e++)
        mine[2 * e] = dp.i[e], mine[2 * e + 1] = dp.j[e];
    size_t tot = 0;
    if (g_rank == 0) {
        for (int p = 0; p < g_size; p++) {
            cnt[p] *= 2;
            dsp[p] = (int)tot;
            tot += (size_t)cnt[p];
        }
        all = malloc((tot + 1) * 4);
    }
    MPI_Gatherv(mine, 2 * n, MPI_UINT32_T, all, cnt, dsp, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    if (g_rank == 0) {
        qsort(all, tot / 2, 8, cmp_pair);
        hs_status a = hs_grid_pairs(ref, NULL, &rp);
        CHECK(a == HS_OK && rp.count == tot / 2, "pairs: %zu distributed vs %zu", tot / 2,
              rp.count);
        if (a == HS_OK && rp.count == tot / 2) {
            uint32_t *flat = malloc((2 * rp.count + 1) * 4);
            for (size_t e = 0; e < rp.count; e++)
                flat[2 * e] = rp.i[e], flat[2 * e + 1] = rp.j[e];
            same_bytes(flat, all, tot * 4, "pairs");
            free(flat);
        }
        hs_pairs_free(&rp);
    }
    free(cnt), free(dsp), free(mine), free(all);
    hs_pairs_free(&dp);
}

/* Every owned centre lies in the rank's domain; the counts add up. */
static void check_layout(hs_mpi_set *s, size_t total)
{
    hs_mpi_info in;
    hs_mpi_get_info(s, &in);
    hs_mpi_owned own = hs_mpi_owned_circles(s);
    size_t outside = 0, unsorted = 0;
    for (size_t i = 0; i < own.count; i++) {
        outside += !(own.x[i] >= in.domain.min.x && own.x[i] < in.domain.max.x &&
                     own.y[i] >= in.domain.min.y && own.y[i] < in.domain.max.y);
        unsorted += i > 0 && own.id[i - 1] >= own.id[i];
    }
    CHECK(outside == 0 && unsorted == 0, "%zu owned centres outside the domain, %zu unsorted",
          outside, unsorted);
    unsigned long long mine = own.count, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == total && in.total == total, "owned sum %llu, total %zu, expected %zu", sum,
          in.total, total);
}

/* ---- how the input is spread over the ranks ----------------------------------------------- */
typedef enum spread { SPREAD_SLICES, SPREAD_INTERLEAVED_IDS, SPREAD_ALL_ON_LAST } spread;

static hs_status build_spread(const scene *sc, spread how, const hs_mpi_opts *opts,
                              hs_mpi_set **out)
{
    size_t lo = 0, hi = 0;
    if (how == SPREAD_SLICES) {
        lo = sc->n * (size_t)g_rank / (size_t)g_size;
        hi = sc->n * (size_t)(g_rank + 1) / (size_t)g_size;
    } else if (how == SPREAD_ALL_ON_LAST && g_rank == g_size - 1)
        hi = sc->n;
    if (how != SPREAD_INTERLEAVED_IDS) {
        uint32_t *pl = NULL;
        if (opts && opts->payload_size == 4) {
            pl = malloc((hi - lo + 1) * 4);
            for (size_t i = lo; i < hi; i++)
                pl[i - lo] = (uint32_t)i * 3u + 1u;
        }
        hs_status st = hs_mpi_build(MPI_COMM_WORLD, sc->x + lo, sc->y + lo, sc->r + lo,
                                    sc->mask ? sc->mask + lo : NULL, NULL, pl, hi - lo, opts, out);
        free(pl);
        return st;
    }
    /* every size-th circle, in descending id order, with explicit ids */
    size_t k = 0, cap = sc->n / (size_t)g_size + 2;
    float *x = malloc(cap * 4), *y = malloc(cap * 4), *r = malloc(cap * 4);
    uint32_t *m = malloc(cap * 4), *id = malloc(cap * 4);
    for (size_t i = sc->n; i-- > 0;)
        if (i % (size_t)g_size == (size_t)g_rank) {
            x[k] = sc->x[i], y[k] = sc->y[i], r[k] = sc->r[i];
            m[k] = sc->mask ? sc->mask[i] : 0;
            id[k++] = (uint32_t)i;
        }
    hs_status st =
        hs_mpi_build(MPI_COMM_WORLD, x, y, r, sc->mask ? m : NULL, id, NULL, k, opts, out);
    free(x), free(y), free(r), free(m), free(id);
    return st;
}

static hs_grid *reference(const scene *sc, hs_circles **cs)
{
    hs_grid *g = NULL;
    hs_circles_create(sc->x, sc->y, sc->r, sc->mask, sc->n, cs, NULL);
    hs_grid_build(*cs, NULL, &g);
    return g;
}

/* The standard battery on one scene: mixed kinds with masks, each kind alone with the
 * scalar fields, boundary semantics, NaN queries on one rank, all queries on one rank,
 * queries across every domain. */
static void battery(const scene *sc, hs_mpi_set *s, const hs_grid *ref, size_t m, uint64_t seed)
{
    int masks = sc->mask != NULL;
    for (int threads = 1; threads <= 2; threads++) {
        qset q =
            qset_scene(sc->n, m, seed + (uint64_t)g_rank * 1000 + (uint64_t)threads, -1, masks);
        check_queries(s, ref, &q.qs, HS_SOLID, threads);
        if (threads == 1)
            check_queries(s, ref, &q.qs, HS_BOUNDARY, threads);
        qset_free(&q);
    }
    for (int kind = 0; kind < 4; kind++) {
        qset q =
            qset_scene(sc->n, m / 2, seed + 77 + (uint64_t)g_rank * 1000 + (uint64_t)kind, kind, 0);
        hs_queries qs = q.qs;
        qs.tmin = qs.tmax = qs.q = NULL;
        qs.mask = NULL;
        qs.tmin_all = q.t0[0], qs.tmax_all = q.t1[0], qs.q_all = kind == 3 ? 1.5f : 0.0f;
        qs.mask_all = masks ? 5u : UINT32_MAX;
        check_queries(s, ref, &qs, HS_SOLID, 2);
        qset_free(&q);
    }
    {
        /* NaN and otherwise invalid queries on the last rank only */
        qset q = qset_scene(sc->n, m / 4 + 8, seed + 313 + (uint64_t)g_rank, -1, masks);
        if (g_rank == g_size - 1) {
            q.ax[1] = NAN;
            q.dy[3] = NAN;
            q.t0[5] = 2.0f, q.t1[5] = 1.0f;
            q.q[6] = -1.0f;
            q.t1[7] = NAN;
        }
        check_queries(s, ref, &q.qs, HS_SOLID, 1);
        qset_free(&q);
    }
    {
        /* rank 0 holds every query; the others none */
        qset q = qset_scene(sc->n, g_rank == 0 ? m : 0, seed + 555, -1, masks);
        check_queries(s, ref, &q.qs, HS_SOLID, 2);
        qset_free(&q);
    }
    {
        /* across every domain: diagonals, edges, and lines through the middle, all kinds */
        const size_t k = 64;
        qset q = qset_alloc(k);
        const float L = sc->side;
        for (size_t i = 0; i < k; i++) {
            float u = unit(seed + 901 + (uint64_t)g_rank, i),
                  v = unit(seed + 902 + (uint64_t)g_rank, i);
            switch (i % 4) {
            case 0: q.ax[i] = 0, q.ay[i] = u * L, q.dx[i] = L, q.dy[i] = (v - u) * L; break;
            case 1: q.ax[i] = u * L, q.ay[i] = 0, q.dx[i] = (v - u) * L, q.dy[i] = L; break;
            case 2:
                q.ax[i] = -0.1f * L, q.ay[i] = -0.1f * L, q.dx[i] = 1.2f * L,
                q.dy[i] = (1.0f + v) * L;
                break;
            default: q.ax[i] = L * 0.5f, q.ay[i] = u * L, q.dx[i] = v - 0.5f, q.dy[i] = 1.0f; break;
            }
            int kind = (int)(i / 4 % 4);
            q.t0[i] = kind == 2 ? -INFINITY : 0.0f;
            q.t1[i] = kind == 1 || kind == 2 ? INFINITY : 1.0f;
            q.q[i] = kind == 3 ? 2.0f : 0.0f;
            q.mask[i] = masks ? 3u : UINT32_MAX;
        }
        check_queries(s, ref, &q.qs, HS_SOLID, 2);
        qset_free(&q);
    }
}

static void run_scene(const char *name, scene *sc, spread how, size_t m, int pairs)
{
    g_case = name;
    hs_circles *rcs = NULL;
    hs_grid *ref = reference(sc, &rcs);
    hs_mpi_set *s = NULL;
    hs_status st = build_spread(sc, how, NULL, &s);
    CHECK(st == HS_OK && ref != NULL, "build %d", (int)st);
    if (st == HS_OK) {
        check_layout(s, sc->n);
        battery(sc, s, ref, m, (uint64_t)how * 17 + sc->n);
        if (pairs)
            check_pairs(s, ref);
    }
    hs_mpi_destroy(s);
    hs_grid_destroy(ref);
    hs_circles_destroy(rcs);
}

/* Batches large enough for the locality order on every rank: at least HS_SORT_MIN_CIRCLES
 * (32768) circles in each rank's grid and HS_SORT_MIN_QUERIES (4096) queries received by each,
 * with per-query arrays (the order keeps its permutation) and with every field one value (the
 * order without it, and the answering rank passes the fields on as one value). */
static void run_large_batches(void)
{
    g_case = "large batches";
    scene sc = scene_builtin(HS_SCENE_UNIFORM, 36000 * (size_t)g_size + 4000, 0);
    hs_circles *rcs = NULL;
    hs_grid *ref = reference(&sc, &rcs);
    hs_mpi_set *s = NULL;
    hs_status st = build_spread(&sc, SPREAD_SLICES, NULL, &s);
    CHECK(st == HS_OK && ref != NULL, "build %d", (int)st);
    if (st == HS_OK) {
        check_layout(s, sc.n);
        for (int threads = 1; threads <= 2; threads++) {
            qset q =
                qset_scene(sc.n, 8192, 4242 + (uint64_t)g_rank * 1000 + (uint64_t)threads, -1, 0);
            check_queries(s, ref, &q.qs, HS_SOLID, threads);
            hs_queries qs = q.qs;
            qs.tmin = qs.tmax = qs.q = NULL;
            qs.mask = NULL;
            qs.tmin_all = 0.0f, qs.tmax_all = 1.0f, qs.q_all = 0.0f, qs.mask_all = UINT32_MAX;
            check_queries(s, ref, &qs, HS_SOLID, threads);
            qset_free(&q);
        }
    }
    hs_mpi_destroy(s);
    hs_grid_destroy(ref);
    hs_circles_destroy(rcs);
    scene_free(&sc);
}

/* Frames: every circle moves a little (payload follows), the set rebuilds, answers must
 * follow the moved union. */
static void run_frames(void)
{
    g_case = "frames";
    scene sc = scene_builtin(HS_SCENE_CLUSTERED, 10000, 0);
    hs_mpi_opts opts = {0.0f, 0, 4};
    hs_mpi_set *s = NULL;
    hs_status st = build_spread(&sc, SPREAD_SLICES, &opts, &s);
    CHECK(st == HS_OK, "build %d", (int)st);
    if (st != HS_OK)
        return;
    for (int frame = 1; frame <= 3; frame++) {
        const float step = 0.02f * sc.side; /* enough to cross boundaries */
        for (size_t i = 0; i < sc.n; i++) {
            sc.x[i] += step * (unit(frame, 2 * i) - 0.5f);
            sc.y[i] += step * (unit(frame, 2 * i + 1) - 0.5f);
        }
        hs_mpi_owned own = hs_mpi_owned_circles(s);
        for (size_t k = 0; k < own.count; k++) {
            own.x[k] = sc.x[own.id[k]];
            own.y[k] = sc.y[own.id[k]];
        }
        st = hs_mpi_rebuild(s, frame == 3);
        CHECK(st == HS_OK, "rebuild %d", (int)st);
        own = hs_mpi_owned_circles(s);
        size_t bad = 0;
        for (size_t k = 0; k < own.count; k++) {
            uint32_t p;
            memcpy(&p, (const unsigned char *)own.payload + 4 * k, 4);
            bad += p != own.id[k] * 3u + 1u || own.x[k] != sc.x[own.id[k]];
        }
        CHECK(bad == 0, "%zu payloads or positions wrong after frame %d", bad, frame);
        hs_mpi_info in;
        hs_mpi_get_info(s, &in);
        unsigned long long moved = in.moved_out, all = 0;
        MPI_Allreduce(&moved, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        if (g_size > 1 && frame < 3)
            CHECK(all > 0 && all < sc.n / 2, "frame %d moved %llu of %zu", frame, all, sc.n);
        check_layout(s, sc.n);
        hs_circles *rcs = NULL;
        hs_grid *ref = reference(&sc, &rcs);
        qset q = qset_scene(sc.n, 400, 4242 + (uint64_t)frame * 10 + (uint64_t)g_rank, -1, 0);
        check_queries(s, ref, &q.qs, HS_SOLID, 2);
        check_pairs(s, ref);
        qset_free(&q);
        hs_grid_destroy(ref);
        hs_circles_destroy(rcs);
    }
    hs_mpi_destroy(s);
    scene_free(&sc);
}

/* Errors are collective: a bad circle on one rank fails the build everywhere. */
static void run_errors(void)
{
    g_case = "errors";
    scene sc = scene_builtin(HS_SCENE_UNIFORM, 1000, 0);
    sc.r[sc.n - 4] = -1.0f; /* on the last rank only */
    hs_mpi_set *s = NULL;
    hs_status st = build_spread(&sc, SPREAD_SLICES, NULL, &s);
    CHECK(st == HS_E_NEG_RADIUS && s == NULL, "bad radius on one rank: %d", (int)st);
    sc.r[sc.n - 4] = 1.0f;
    hs_mpi_destroy(s);
    st = build_spread(&sc, SPREAD_SLICES, NULL, &s);
    CHECK(st == HS_OK, "build %d", (int)st);
    /* semantics that differ between ranks */
    qset q = qset_scene(sc.n, 10, 1, 0, 0);
    hs_batch_opts o = hs_batch_opts_default();
    o.sem = g_rank == 0 ? HS_SOLID : HS_BOUNDARY;
    uint32_t c[10], ci[10];
    float ct[10];
    st = hs_mpi_count_hits(s, &q.qs, &o, c);
    CHECK(g_size == 1 ? st == HS_OK : st == HS_E_RANGE, "mixed semantics: %d", (int)st);
    hs_closest_out none = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    st =
        hs_mpi_closest(s, &q.qs, NULL,
                       g_rank == 0 ? none : (hs_closest_out){ci, ct, NULL, NULL, NULL, NULL, NULL});
    CHECK(st == HS_E_NULL, "NULL output on one rank: %d", (int)st);
    /* a circle to ignore, on the last rank only: refused everywhere, nothing answered */
    uint32_t ign[10];
    for (size_t i = 0; i < 10; i++)
        ign[i] = (uint32_t)i;
    hs_queries qi = q.qs;
    qi.ignore = g_rank == g_size - 1 ? ign : NULL;
    st = hs_mpi_count_hits(s, &qi, NULL, c);
    CHECK(st == HS_E_UNSUPPORTED, "ignore on one rank: %d", (int)st);
    qset_free(&q);
    hs_mpi_destroy(s);
    scene_free(&sc);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    const size_t N = 10000, M = 600;

    const char *names[] = {"uniform", "clustered", "mixed"};
    for (int k = 0; k < 3; k++) {
        scene sc = scene_builtin((hs_scene_kind)k, N, k == 1);
        run_scene(names[k], &sc, SPREAD_SLICES, M, 1);
        if (k == 0)
            run_scene("uniform, interleaved ids", &sc, SPREAD_INTERLEAVED_IDS, M / 2, 1);
        if (k == 2)
            run_scene("mixed, all circles on the last rank", &sc, SPREAD_ALL_ON_LAST, M / 2, 1);
        scene_free(&sc);
    }
    {
        /* a lattice: touching circles, centres exactly on the cuts (the cut is a centre's
         * coordinate), queries along the lattice lines through the centres */
        const int side = 60;
        scene sc = scene_alloc((size_t)side * side);
        for (int i = 0; i < side * side; i++) {
            sc.x[i] = (float)(i % side);
            sc.y[i] = (float)(i / side);
            sc.r[i] = 0.5f;
        }
        sc.side = (float)side;
        hs_circles *rcs = NULL;
        hs_grid *ref = reference(&sc, &rcs);
        hs_mpi_set *s = NULL;
        g_case = "lattice";
        hs_status st = build_spread(&sc, SPREAD_SLICES, NULL, &s);
        CHECK(st == HS_OK, "build %d", (int)st);
        if (st == HS_OK) {
            check_layout(s, sc.n);
            qset q = qset_alloc(4 * side);
            for (int i = 0; i < 4 * side; i++) {
                int k = i % side, kind = i / side;
                q.ax[i] = kind & 1 ? (float)k : -1.0f;
                q.ay[i] = kind & 1 ? -1.0f : (float)k;
                q.dx[i] = kind & 1 ? 0.0f : 1.0f;
                q.dy[i] = kind & 1 ? 1.0f : 0.0f;
                q.t0[i] = kind >= 2 ? -INFINITY : 0.0f;
                q.t1[i] = INFINITY;
                q.q[i] = kind == 3 ? 0.5f : 0.0f;
                q.mask[i] = UINT32_MAX;
            }
            check_queries(s, ref, &q.qs, HS_SOLID, 2);
            check_queries(s, ref, &q.qs, HS_BOUNDARY, 1);
            qset_free(&q);
            check_pairs(s, ref);
            battery(&sc, s, ref, 200, 3);
        }
        hs_mpi_destroy(s);
        hs_grid_destroy(ref);
        hs_circles_destroy(rcs);
        scene_free(&sc);
    }
    {
        /* circles larger than a domain among the uniform ones */
        scene sc = scene_builtin(HS_SCENE_UNIFORM, 4000, 0);
        for (int i = 0; i < 3; i++)
            sc.r[100 + 1000 * i] = sc.side * (0.3f + 0.4f * (float)i);
        run_scene("huge circles", &sc, SPREAD_SLICES, 300, 1);
        /* every centre at one point: the cut cannot split them, some ranks own nothing */
        for (size_t i = 0; i < sc.n; i++)
            sc.x[i] = sc.y[i] = 100.0f;
        run_scene("one point", &sc, SPREAD_SLICES, 100, 0);
        scene_free(&sc);
    }
    {
        scene sc = scene_builtin(HS_SCENE_UNIFORM, 3, 0);
        run_scene("three circles", &sc, SPREAD_INTERLEAVED_IDS, 50, 1);
        scene_free(&sc);
        sc = scene_builtin(HS_SCENE_UNIFORM, 0, 0);
        sc.side = 100.0f;
        run_scene("no circles", &sc, SPREAD_SLICES, 50, 1);
        scene_free(&sc);
    }
    run_large_batches();
    run_frames();
    run_errors();

    int fails = g_fail, total = 0, checks = g_checks, tc = 0;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&checks, &tc, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("test_mpi on %d ranks: %d checks, %d failed\n", g_size, tc, total);
    MPI_Finalize();
    return total != 0;
}
