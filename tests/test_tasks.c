/* SPDX-License-Identifier: MIT */
/* The caller's task system (hs_task_system, hitscan/batch.h): every call that runs on a team
 * gives the same bytes as one thread when its tasks run inline in enqueue, later in finish,
 * in reverse order, or each on a thread of its own; and the work really goes through the
 * task system (tasks were enqueued). HITSCAN_ISA picks the level, as in the other tests. */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "hitscan/batch.h"
#include "hitscan/grid.h"
#include "test_util.h"

/* ---- four task systems ------------------------------------------------------------------ */

enum { INLINE, DEFER, REVERSE, THREADS };
#define MAX_TASKS 256

typedef struct task {
    hs_task_fn *fn;
    void *ctx;
    int done;
    pthread_t th;
} task;

typedef struct pool {
    int kind;
    task t[MAX_TASKS];
    int n;        /* tasks enqueued since the last reset */
    int enqueued; /* in all */
} pool;

static void *thread_main(void *a)
{
    task *t = a;
    t->fn(t->ctx);
    return NULL;
}

static void *enqueue(hs_task_fn *fn, void *ctx, void *user)
{
    pool *p = user;
    p->enqueued++;
    if (p->kind == INLINE) {
        fn(ctx);
        return NULL;
    }
    assert_true(p->n < MAX_TASKS);
    task *t = &p->t[p->n++];
    t->fn = fn;
    t->ctx = ctx;
    t->done = 0;
    if (p->kind == THREADS)
        assert_int_equal(pthread_create(&t->th, NULL, thread_main, t), 0);
    return t;
}

static void finish(void *handle, void *user)
{
    pool *p = user;
    task *t = handle;
    if (p->kind == THREADS) {
        if (!t->done)
            pthread_join(t->th, NULL);
        t->done = 1;
    } else if (p->kind == REVERSE) { /* every pending task, the last enqueued first */
        for (int k = p->n - 1; k >= 0; k--)
            if (!p->t[k].done) {
                p->t[k].done = 1;
                p->t[k].fn(p->t[k].ctx);
            }
    } else if (!t->done) {
        t->done = 1;
        t->fn(t->ctx);
    }
    int all = 1;
    for (int k = 0; k < p->n; k++)
        all &= p->t[k].done;
    if (all)
        p->n = 0;
}

static pool pools[4];
static hs_task_system systems[4];

static void systems_init(void)
{
    for (int k = 0; k < 4; k++) {
        memset(&pools[k], 0, sizeof pools[k]);
        pools[k].kind = k;
        systems[k].enqueue = enqueue;
        systems[k].finish = finish;
        systems[k].workers = k == THREADS ? 3 : 4;
        systems[k].user_context = &pools[k];
    }
}

/* ---- a scene ---------------------------------------------------------------------------- */

typedef struct world {
    size_t n, m;
    float *x, *y, *r, *vx, *vy;
    float *ax, *ay, *dx, *dy;
    hs_queries qs;
} world;

static void world_make(world *w, size_t n, size_t m, uint64_t seed)
{
    rng_state = seed;
    w->n = n;
    w->m = m;
    w->x = xcalloc(n, sizeof(float));
    w->y = xcalloc(n, sizeof(float));
    w->r = xcalloc(n, sizeof(float));
    w->vx = xcalloc(n, sizeof(float));
    w->vy = xcalloc(n, sizeof(float));
    const float side = 4.0f * sqrtf((float)n);
    for (size_t i = 0; i < n; i++) {
        w->x[i] = unif(0.0f, side);
        w->y[i] = unif(0.0f, side);
        w->r[i] = i % 500 == 0 ? unif(5.0f, 20.0f) : unif(0.3f, 1.5f);
        w->vx[i] = unif(-2.0f, 2.0f);
        w->vy[i] = unif(-2.0f, 2.0f);
    }
    w->ax = xcalloc(m, sizeof(float));
    w->ay = xcalloc(m, sizeof(float));
    w->dx = xcalloc(m, sizeof(float));
    w->dy = xcalloc(m, sizeof(float));
    for (size_t i = 0; i < m; i++) {
        w->ax[i] = unif(0.0f, side);
        w->ay[i] = unif(0.0f, side);
        w->dx[i] = unif(-30.0f, 30.0f);
        w->dy[i] = unif(-30.0f, 30.0f);
    }
    w->qs = hs_queries_segments(w->ax, w->ay, w->dx, w->dy, m);
}

static void world_free(world *w)
{
    free(w->x);
    free(w->y);
    free(w->r);
    free(w->vx);
    free(w->vy);
    free(w->ax);
    free(w->ay);
    free(w->dx);
    free(w->dy);
}

/* ---- the calls: each one's answers as one byte string ------------------------------------ */

typedef struct bytes {
    unsigned char *p;
    size_t len;
} bytes;

static void put(bytes *b, const void *p, size_t len)
{
    b->p = realloc(b->p, b->len + len + 1);
    assert_non_null(b->p);
    if (len)
        memcpy(b->p + b->len, p, len);
    b->len += len;
}

static void put_hits(bytes *b, const hs_hits *h)
{
    put(b, &h->total, sizeof h->total);
    put(b, h->offsets, (h->count + 1) * sizeof *h->offsets);
    put(b, h->idx, h->total * sizeof *h->idx);
    put(b, h->t, h->total * sizeof *h->t);
}

static void put_closest(bytes *b, const hs_grid *g, const hs_queries *qs, const hs_batch_opts *o)
{
    const size_t m = qs->count;
    uint32_t *idx = xcalloc(m, 4);
    float *f = xcalloc(6 * m, 4);
    const hs_closest_out co = {idx, f, f + m, f + 2 * m, f + 3 * m, f + 4 * m, NULL};
    hs_status s = hs_grid_closest(g, qs, o, co);
    put(b, &s, sizeof s);
    put(b, idx, m * 4);
    put(b, f, 5 * m * 4);
    free(idx);
    free(f);
}

/* Everything the library answers on a team, for w with opts o (grids built with go). */
static bytes answers(const world *w, const hs_batch_opts *o, const hs_grid_opts *go)
{
    bytes b = {NULL, 0};
    const size_t m = w->m;
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    assert_int_equal(hs_circles_borrow(w->x, w->y, w->r, NULL, w->n, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, go, &g), HS_OK);
    put_closest(&b, g, &w->qs, o);
    uint8_t *hit = xcalloc(m, 1);
    uint32_t *cnt = xcalloc(m, 4);
    assert_int_equal(hs_grid_any(g, &w->qs, o, hit), HS_OK);
    assert_int_equal(hs_grid_count_hits(g, &w->qs, o, cnt), HS_OK);
    put(&b, hit, m);
    put(&b, cnt, m * 4);
    hs_hits h;
    assert_int_equal(hs_grid_all(g, &w->qs, o, &h), HS_OK);
    put_hits(&b, &h);
    hs_hits_free(&h);
    /* bullets against moving circles */
    hs_batch_opts mo = *o;
    mo.disp_x = w->vx;
    mo.disp_y = w->vy;
    put_closest(&b, g, &w->qs, &mo);
    assert_int_equal(hs_grid_all(g, &w->qs, &mo, &h), HS_OK);
    put_hits(&b, &h);
    hs_hits_free(&h);
    /* pairs with contacts, swept pairs, overlaps */
    const hs_pair_opts po = {0.25f, HS_PAIRS_CONTACTS};
    hs_pairs p;
    assert_int_equal(hs_grid_pairs_ex(g, &po, o, &p), HS_OK);
    put(&b, &p.count, sizeof p.count);
    put(&b, p.i, p.count * 4);
    put(&b, p.j, p.count * 4);
    put(&b, p.gap, p.count * 4);
    put(&b, p.nx, p.count * 4);
    hs_pairs_free(&p);
    hs_swept_pairs sp;
    assert_int_equal(hs_grid_swept_pairs(g, w->vx, w->vy, o, &sp), HS_OK);
    put(&b, &sp.count, sizeof sp.count);
    put(&b, sp.i, sp.count * 4);
    put(&b, sp.j, sp.count * 4);
    put(&b, sp.t, sp.count * 4);
    put(&b, sp.nx, sp.count * 4);
    hs_swept_pairs_free(&sp);
    hs_overlaps ov;
    assert_int_equal(hs_grid_overlap_discs(g, w->ax, w->ay, w->r, NULL, m, o, &ov), HS_OK);
    put(&b, ov.offsets, (m + 1) * sizeof *ov.offsets);
    put(&b, ov.idx, ov.total * 4);
    hs_overlaps_free(&ov);
    /* a rebuild (the grid's own tasks) from moved circles */
    float *x2 = xcalloc(w->n, 4);
    for (size_t i = 0; i < w->n; i++)
        x2[i] = w->x[i] + w->vx[i];
    assert_int_equal(hs_grid_rebuild_from(g, x2, w->y, w->r, NULL, w->n, NULL), HS_OK);
    put_closest(&b, g, &w->qs, o);
    free(x2);
    /* brute force on a few circles */
    hs_circles *few = NULL;
    assert_int_equal(hs_circles_create(w->x, w->y, w->r, NULL, 3000, &few, NULL), HS_OK);
    uint32_t *idx = xcalloc(m, 4);
    float *t = xcalloc(m, 4);
    const hs_closest_out co = {idx, t, NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(hs_brute_closest(few, &w->qs, o, co), HS_OK);
    assert_int_equal(hs_brute_all(few, &w->qs, o, &h), HS_OK);
    put(&b, idx, m * 4);
    put(&b, t, m * 4);
    put_hits(&b, &h);
    hs_hits_free(&h);
    free(idx);
    free(t);
    hs_circles_destroy(few);
    free(hit);
    free(cnt);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return b;
}

/* The same on a periodic grid: closest, all, pairs with shifts. */
static bytes periodic_answers(const world *w, const hs_batch_opts *o, const hs_grid_opts *go)
{
    bytes b = {NULL, 0};
    hs_grid_opts pg = *go;
    const float side = 4.0f * sqrtf((float)w->n);
    pg.periodic = HS_PERIODIC_XY;
    pg.box.min.x = pg.box.min.y = 0.0f;
    pg.box.max.x = pg.box.max.y = side;
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    assert_int_equal(hs_circles_borrow(w->x, w->y, w->r, NULL, w->n, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, &pg, &g), HS_OK);
    put_closest(&b, g, &w->qs, o);
    hs_hits h;
    assert_int_equal(hs_grid_all(g, &w->qs, o, &h), HS_OK);
    put_hits(&b, &h);
    hs_hits_free(&h);
    const hs_pair_opts po = {0.0f, HS_PAIRS_SHIFTS};
    hs_pairs p;
    assert_int_equal(hs_grid_pairs_ex(g, &po, o, &p), HS_OK);
    put(&b, &p.count, sizeof p.count);
    put(&b, p.i, p.count * 4);
    put(&b, p.j, p.count * 4);
    put(&b, p.sx, p.count);
    put(&b, p.sy, p.count);
    hs_pairs_free(&p);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    return b;
}

/* The calls of answers or periodic_answers with the given options. */
typedef bytes (*run_fn)(const world *, const hs_batch_opts *, const hs_grid_opts *);

/* run on the library's own team of `threads` */
static bytes run_on_team(const world *w, run_fn run, int threads)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    hs_grid_opts go;
    memset(&go, 0, sizeof go);
    go.threads = threads;
    return run(w, &o, &go);
}

/* The reference answers of a run on the world of check_system: one thread's, checked once
 * against a team of three (the same for every task system, so made once a run function and
 * kept to the process's exit). */
static const bytes *reference_of(const world *w, run_fn run)
{
    static struct {
        run_fn run;
        bytes want;
    } refs[2];
    size_t k = 0;
    while (k < sizeof refs / sizeof refs[0] && refs[k].run != NULL && refs[k].run != run)
        k++;
    assert_true(k < sizeof refs / sizeof refs[0]);
    if (refs[k].run == NULL) {
        refs[k].want = run_on_team(w, run, 1);
        bytes own = run_on_team(w, run, 3);
        assert_int_equal(own.len, refs[k].want.len);
        assert_memory_equal(own.p, refs[k].want.p, own.len);
        free(own.p);
        refs[k].run = run;
    }
    return &refs[k].want;
}

static void check_system(int kind, run_fn run)
{
    world w;
    const size_t n = test_quick() ? 40000 : 70000;
    world_make(&w, n, 20000, 54);
    const bytes *want = reference_of(&w, run);

    systems_init();
    hs_batch_opts o = hs_batch_opts_default();
    o.tasks = &systems[kind];
    hs_grid_opts go;
    memset(&go, 0, sizeof go);
    go.tasks = &systems[kind];
    bytes got = run(&w, &o, &go);
    assert_int_equal(got.len, want->len);
    assert_memory_equal(got.p, want->p, want->len);
    assert_true(pools[kind].enqueued > 0); /* the work went through the task system */
    assert_int_equal(pools[kind].n, 0);    /* and every task was finished */
    free(got.p);
    world_free(&w);
}

static void test_inline(void **state)
{
    (void)state;
    check_system(INLINE, answers);
}
static void test_deferred(void **state)
{
    (void)state;
    check_system(DEFER, answers);
}
static void test_reverse(void **state)
{
    (void)state;
    check_system(REVERSE, answers);
}
static void test_threads(void **state)
{
    (void)state;
    check_system(THREADS, answers);
}
static void test_periodic_reverse(void **state)
{
    (void)state;
    check_system(REVERSE, periodic_answers);
}

/* workers <= 1 and threads = 1: nothing is enqueued, the answers are one thread's. */
static void test_one_worker(void **state)
{
    (void)state;
    world w;
    world_make(&w, 20000, 20000, 7);
    systems_init();
    systems[DEFER].workers = 1;
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    assert_int_equal(hs_circles_borrow(w.x, w.y, w.r, NULL, w.n, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    uint32_t *cnt = xcalloc(w.m, 4);
    hs_batch_opts o = hs_batch_opts_default();
    o.tasks = &systems[DEFER];
    assert_int_equal(hs_grid_count_hits(g, &w.qs, &o, cnt), HS_OK);
    systems[DEFER].workers = 4;
    o.threads = 1;
    assert_int_equal(hs_grid_count_hits(g, &w.qs, &o, cnt), HS_OK);
    assert_int_equal(pools[DEFER].enqueued, 0);
    hs_grid_set_tasks(g, &systems[DEFER]);
    assert_int_equal(hs_grid_rebuild_from(g, w.x, w.y, w.r, NULL, w.n, NULL), HS_OK);
    assert_int_equal(pools[DEFER].enqueued, 0); /* below the build's team size: alone */
    free(cnt);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    world_free(&w);
}

/* A child of fork() gets helpers of its own and the same answers (the parent's helpers were
 * started before the fork). */
static void test_after_fork(void **state)
{
    (void)state;
    if (getenv("HS_TEST_UNDER_QEMU")) /* qemu-user cannot fork a threaded process */
        skip();
    world w;
    world_make(&w, 20000, 40000, 11);
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    assert_int_equal(hs_circles_borrow(w.x, w.y, w.r, NULL, w.n, &cs, NULL), HS_OK);
    assert_int_equal(hs_grid_build(cs, NULL, &g), HS_OK);
    hs_batch_opts two = hs_batch_opts_default();
    two.threads = 2;
    bytes want = {NULL, 0};
    put_closest(&want, g, &w.qs, &two);
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        bytes got = {NULL, 0};
        put_closest(&got, g, &w.qs, &two);
        _exit(got.len == want.len && memcmp(got.p, want.p, want.len) == 0 ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    free(want.p);
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline),           cmocka_unit_test(test_deferred),
        cmocka_unit_test(test_reverse),          cmocka_unit_test(test_threads),
        cmocka_unit_test(test_periodic_reverse), cmocka_unit_test(test_one_worker),
        cmocka_unit_test(test_after_fork),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
