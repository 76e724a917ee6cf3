/* SPDX-License-Identifier: MIT */
/* The team behind every parallel loop (parallel.h): the caller's task system, the library's
 * own helper pool, or the calling thread alone.
 *
 * Why a pool of the library's own and not an OpenMP team: an OpenMP region ends in a barrier
 * that waits for every member of its team, including one the OS has not scheduled yet. In a
 * program whose own threads hold every core, that member waits for a time slice and the call
 * costs tens of times its one-thread time however the work inside is scheduled. The pool
 * follows Box2D v3's default scheduler instead: a helper joins a call only while the call
 * still has work to claim, and the calling thread waits only for helpers that joined, never
 * for one that has not started. Helpers sleep on a condition variable between calls. */
#if !defined(_POSIX_C_SOURCE) && !defined(__wasm__)
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_THREAD_CPUTIME_ID */
#endif
#include "batch/parallel.h"

#include "invariant.h"

#if !defined(__wasm__) && !defined(HS_NO_THREADS)
#define HS_PAR_POOL 1
#include <pthread.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <unistd.h>

#include "tuning.h"
#endif

#ifdef HS_PAR_POOL
/* The default team, found once: OpenMP's default where the library is built with it (so that
 * OMP_NUM_THREADS still governs it), else the processors online. */
static int default_threads;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static void find_default(void)
{
#ifdef _OPENMP
    const long n = omp_get_max_threads();
#else
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    default_threads = n < 1 ? 1 : (n > HS_PAR_MAX_SLOTS ? HS_PAR_MAX_SLOTS : (int)n);
}
#endif

int hs_par_threads(int threads, const hs_task_system *tasks)
{
    int t = threads;
    if (t <= 0 && tasks)
        t = tasks->workers;
#ifdef HS_PAR_POOL
    if (t <= 0 && !tasks) {
        pthread_once(&default_once, find_default);
        t = default_threads;
    }
#endif
    return t < 1 ? 1 : (t > HS_PAR_MAX_SLOTS ? HS_PAR_MAX_SLOTS : t);
}

/* ---- the caller's task system ---------------------------------------------------------- */

typedef struct task_arg {
    hs_par_team_fn *fn;
    void *ctx;
    int slot;
} task_arg;

static void run_task(void *a)
{
    const task_arg *t = (const task_arg *)a;
    t->fn(t->ctx, t->slot);
}

static void team_tasks(const hs_par *p, hs_par_team_fn *fn, void *ctx)
{
    const hs_task_system *ts = p->tasks;
    int n = p->threads < ts->workers ? p->threads : ts->workers;
    task_arg arg[HS_PAR_MAX_SLOTS];
    void *handle[HS_PAR_MAX_SLOTS];
    for (int k = 1; k < n; k++) {
        arg[k].fn = fn;
        arg[k].ctx = ctx;
        arg[k].slot = k;
        handle[k] = ts->enqueue(run_task, &arg[k], ts->user_context);
    }
    fn(ctx, 0);
    for (int k = 1; k < n; k++)
        if (handle[k])
            ts->finish(handle[k], ts->user_context);
}

/* ---- the library's pool ---------------------------------------------------------------- */

#ifdef HS_PAR_POOL
typedef struct pool_job {
    hs_par_team_fn *fn;
    void *ctx;
    int want;         /* helpers it may take */
    int joined;       /* helpers that joined (their slots: 1 .. joined) */
    int active;       /* helpers still in fn */
    double helper_us; /* CPU time the helpers spent in fn */
    struct pool_job *next;
} pool_job;

/* The pool: helpers, the calls open to them and two conditions, all under mu. Calls from
 * several threads share it; each call is open until its own thread has run out of work. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pool_job *open;
    int helpers, idle;
} pool = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0};

/* Oversubscription. A helper that joined a call and was then preempted holds the call up
 * until the OS runs it again, a time slice when the program's own threads hold every core.
 * So does a helper whose wake-up preempts the calling thread. Neither can be seen coming, but
 * both show after the fact: the step took longer on the wall clock than all its threads
 * together ran (the CPU time of one thread doing it alone), by HS_PAR_STALL_RATIO plus
 * HS_PAR_STALL_US (while one thread of a step waits for a core, the others work on, so the
 * load of other programs seldom counts). Then the next steps run on the calling thread alone
 * (one thread's cost, never worse), a run that doubles with each such step and shrinks by a
 * quarter with each good one, up to HS_PAR_BACKOFF_MAX. A hint only: which steps have helpers
 * changes no answer. */
static _Atomic unsigned pool_skip, pool_backoff;

static double clock_us(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static pool_job *pool_find(void)
{
    for (pool_job *j = pool.open; j; j = j->next)
        if (j->joined < j->want)
            return j;
    return NULL;
}

static void *pool_helper(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        pool_job *j = pool_find();
        if (!j) {
            pool.idle++;
            pthread_cond_wait(&pool.work, &pool.mu);
            pool.idle--;
            continue;
        }
        const int slot = ++j->joined;
        j->active++;
        pthread_mutex_unlock(&pool.mu);
        const double c0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
        j->fn(j->ctx, slot);
        const double c1 = clock_us(CLOCK_THREAD_CPUTIME_ID);
        pthread_mutex_lock(&pool.mu);
        j->helper_us += c1 - c0;
        if (--j->active == 0)
            pthread_cond_broadcast(&pool.done);
    }
    return NULL;
}

/* A child of fork() has none of the parent's helpers: it starts its own. (The parent's calls
 * are the parent's: a fork during a call gives the child a pool in whatever state the call
 * left it, so the child forgets it.) */
static void pool_forget(void)
{
    pthread_mutex_init(&pool.mu, NULL);
    pthread_cond_init(&pool.work, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.open = NULL;
    pool.helpers = pool.idle = 0;
}

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static void pool_at_fork(void) { pthread_atfork(NULL, NULL, pool_forget); }

/* Helpers are started as calls first ask for them, never more than HS_PAR_MAX_SLOTS - 1;
 * one that cannot be started leaves the team smaller, not the answers different. */
static void pool_grow(int want)
{
    while (pool.helpers < want) {
        pthread_t t;
        pthread_attr_t a;
        if (pthread_attr_init(&a) != 0)
            return;
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        const int e = pthread_create(&t, &a, pool_helper, NULL);
        pthread_attr_destroy(&a);
        if (e != 0)
            return;
        pool.helpers++;
    }
}

static int pool_skipping(void)
{
    unsigned k = atomic_load_explicit(&pool_skip, memory_order_relaxed);
    while (k > 0 && !atomic_compare_exchange_weak_explicit(
                        &pool_skip, &k, k - 1, memory_order_relaxed, memory_order_relaxed))
        ;
    return k > 0;
}

static void pool_judge(double wall_us, double cpu_us)
{
    unsigned b = atomic_load_explicit(&pool_backoff, memory_order_relaxed);
    if (wall_us > HS_PAR_STALL_RATIO * cpu_us + HS_PAR_STALL_US) {
        b = b == 0 ? 1 : (b < HS_PAR_BACKOFF_MAX ? 2 * b : b);
        atomic_store_explicit(&pool_skip, b, memory_order_relaxed);
    } else {
        b = b * 3 / 4;
    }
    atomic_store_explicit(&pool_backoff, b, memory_order_relaxed);
}

static void team_pool(const hs_par *p, hs_par_team_fn *fn, void *ctx)
{
    pthread_once(&pool_once, pool_at_fork);
    if (pool_skipping()) {
        fn(ctx, 0);
        return;
    }
    const double t0 = clock_us(CLOCK_MONOTONIC), c0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
    pool_job j = {fn, ctx, p->threads - 1, 0, 0, 0.0, NULL};
    pthread_mutex_lock(&pool.mu);
    pool_grow(j.want);
    j.next = pool.open;
    pool.open = &j;
    if (pool.idle >= j.want)
        for (int k = 0; k < j.want; k++)
            pthread_cond_signal(&pool.work);
    else
        pthread_cond_broadcast(&pool.work);
    pthread_mutex_unlock(&pool.mu);

    fn(ctx, 0); /* returns when no work is left to claim */

    pthread_mutex_lock(&pool.mu);
    pool_job **at = &pool.open; /* close the call: no helper joins it from now on */
    while (*at != &j)
        at = &(*at)->next;
    *at = j.next;
    while (j.active > 0)
        pthread_cond_wait(&pool.done, &pool.mu);
    pthread_mutex_unlock(&pool.mu);
    pool_judge(clock_us(CLOCK_MONOTONIC) - t0,
               clock_us(CLOCK_THREAD_CPUTIME_ID) - c0 + j.helper_us);
}
#endif

void hs_par_team(const hs_par *p, hs_par_team_fn *fn, void *ctx)
{
    HS_ASSERT(p->threads >= 1 && p->threads <= HS_PAR_MAX_SLOTS);
    if (p->threads <= 1 || (p->tasks && p->tasks->workers <= 1)) {
        fn(ctx, 0);
        return;
    }
    if (p->tasks) {
        team_tasks(p, fn, ctx);
        return;
    }
#ifdef HS_PAR_POOL
    team_pool(p, fn, ctx);
#else
    fn(ctx, 0);
#endif
}

/* ---- blocks from a counter ------------------------------------------------------------- */

typedef struct par_for {
    _Atomic size_t next;
    size_t n;
    hs_par_block_fn *fn;
    void *ctx;
} par_for;

static void for_share(void *c, int slot)
{
    par_for *f = (par_for *)c;
    for (size_t b; (b = atomic_fetch_add_explicit(&f->next, 1, memory_order_relaxed)) < f->n;)
        f->fn(f->ctx, b, slot);
}

void hs_par_for(const hs_par *p, size_t nblocks, hs_par_block_fn *fn, void *ctx)
{
    if (nblocks == 0)
        return;
    if (p->threads <= 1 || nblocks == 1) {
        for (size_t b = 0; b < nblocks; b++)
            fn(ctx, b, 0);
        return;
    }
    par_for f;
    atomic_init(&f.next, 0);
    f.n = nblocks;
    f.fn = fn;
    f.ctx = ctx;
    const hs_par q = hs_par_cap(*p, nblocks < HS_PAR_MAX_SLOTS ? (int)nblocks : HS_PAR_MAX_SLOTS);
    hs_par_team(&q, for_share, &f);
}

typedef struct par_range {
    size_t n, len;
    hs_par_range_fn *fn;
    void *ctx;
} par_range;

static void range_block(void *c, size_t b, int slot)
{
    const par_range *r = (const par_range *)c;
    const size_t lo = b * r->len;
    r->fn(r->ctx, lo, r->n - lo > r->len ? lo + r->len : r->n, slot);
}

void hs_par_range(const hs_par *p, size_t n, size_t grain, hs_par_range_fn *fn, void *ctx)
{
    if (n == 0)
        return;
    if (p->threads <= 1) {
        fn(ctx, 0, n, 0);
        return;
    }
    size_t len = n / ((size_t)p->threads * HS_PAR_RANGES_PER_SLOT);
    len = len < grain ? grain : len;
    len = len < 1 ? 1 : len;
    par_range r = {n, len, fn, ctx};
    hs_par_for(p, (n - 1) / len + 1, range_block, &r);
}
