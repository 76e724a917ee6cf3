/* SPDX-License-Identifier: MIT */
/* A small job system of the kind a game engine has (a FIFO queue served by worker threads),
 * wired to hitscan's hs_task_system: enqueue puts a task on the queue, finish runs it on the
 * calling thread when no worker has taken it yet, or waits for the worker that has. Header
 * only, for examples/game_frame.c and the threads benchmark. An engine with its own job system
 * (enkiTS, a fiber scheduler) writes the same two functions around its own calls. */
#ifndef HS_EXAMPLE_TASK_POOL_H
#define HS_EXAMPLE_TASK_POOL_H

#include <pthread.h>
#include <stdlib.h>

#include "hitscan/batch.h"

enum { TP_QUEUED, TP_RUNNING, TP_DONE };

typedef struct tp_task {
    hs_task_fn *fn;
    void *ctx;
    int state; /* under the pool's lock */
    struct tp_task *next;
} tp_task;

typedef struct tp_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    tp_task *head, *tail;
    int stop, nthreads;
    pthread_t th[64];
    hs_task_system tasks; /* what to hand to hitscan */
} tp_pool;

static void *tp_worker(void *arg)
{
    tp_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->stop)
            pthread_cond_wait(&p->work, &p->mu);
        if (!p->head)
            break;
        tp_task *t = p->head;
        p->head = t->next;
        if (!p->head)
            p->tail = NULL;
        t->state = TP_RUNNING;
        pthread_mutex_unlock(&p->mu);
        t->fn(t->ctx);
        pthread_mutex_lock(&p->mu);
        t->state = TP_DONE;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void *tp_enqueue(hs_task_fn *fn, void *ctx, void *user)
{
    tp_pool *p = user;
    tp_task *t = malloc(sizeof *t);
    if (t == NULL) { /* no memory for a task: run it now */
        fn(ctx);
        return NULL;
    }
    t->fn = fn;
    t->ctx = ctx;
    t->state = TP_QUEUED;
    t->next = NULL;
    pthread_mutex_lock(&p->mu);
    if (p->tail)
        p->tail->next = t;
    else
        p->head = t;
    p->tail = t;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
    return t;
}

static void tp_finish(void *handle, void *user)
{
    tp_pool *p = user;
    tp_task *t = handle;
    pthread_mutex_lock(&p->mu);
    if (t->state == TP_QUEUED) { /* nobody took it: take it off the queue and run it here */
        tp_task **at = &p->head, *prev = NULL;
        while (*at != t) {
            prev = *at;
            at = &(*at)->next;
        }
        *at = t->next;
        if (p->tail == t)
            p->tail = prev;
        pthread_mutex_unlock(&p->mu);
        t->fn(t->ctx);
        free(t);
        return;
    }
    while (t->state != TP_DONE)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    free(t);
}

/* A pool of nthreads workers (at most 64); hitscan may split a call into nthreads + 1 tasks:
 * the calling thread runs one of them. 0 on success. */
static int tp_start(tp_pool *p, int nthreads)
{
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->head = p->tail = NULL;
    p->stop = 0;
    p->nthreads = 0;
    for (int k = 0; k < nthreads && k < 64; k++, p->nthreads++)
        if (pthread_create(&p->th[k], NULL, tp_worker, p) != 0)
            break;
    p->tasks.enqueue = tp_enqueue;
    p->tasks.finish = tp_finish;
    p->tasks.workers = p->nthreads + 1;
    p->tasks.user_context = p;
    return p->nthreads == nthreads ? 0 : -1;
}

static void tp_stop(tp_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int k = 0; k < p->nthreads; k++)
        pthread_join(p->th[k], NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
}

#endif
