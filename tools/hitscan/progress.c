/* SPDX-License-Identifier: MIT */
/* hitscan tool: the progress line of long runs on a terminal. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "progress.h"

#define TICK_NS 250000000L /* between updates of the line */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static pthread_t thread;
static int running, stopping;
static struct timespec t0;
static char step[256];
static int watch_fd = -1;
static char shown_text[256]; /* the line now on the terminal; empty: none */
static size_t shown;         /* its length */

static double seconds_since(const struct timespec *a)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - a->tv_sec) + 1e-9 * (double)(now.tv_nsec - a->tv_nsec);
}

/* Writes all of buf to stderr, unbuffered, so the line never mixes into a stdio buffer. */
static void put(const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t k = write(STDERR_FILENO, buf, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;
        buf += k;
        n -= (size_t)k;
    }
}

/* Replaces the line on the terminal with text (empty: erases it). Under lock. */
static void redraw(const char *text)
{
    char buf[512];
    size_t len = strlen(text), n = 0;
    buf[n++] = '\r';
    memcpy(buf + n, text, len);
    n += len;
    /* blanks over what is left of a longer line, then back to its end */
    size_t pad = shown > len ? shown - len : 0;
    if (pad > sizeof buf - n - 2)
        pad = sizeof buf - n - 2;
    memset(buf + n, ' ', pad);
    n += pad;
    if (len == 0)
        buf[n++] = '\r';
    put(buf, n);
    shown = len;
    snprintf(shown_text, sizeof shown_text, "%s", text);
}

static void update(void)
{
    double s = seconds_since(&t0);
    if (s < HSIO_PROGRESS_AFTER_S || !step[0])
        return;
    char what[128], size[48] = "", line[256];
    hsio_escape(what, sizeof what, step, strlen(step));
    struct stat st;
    if (watch_fd >= 0 && fstat(watch_fd, &st) == 0 && S_ISREG(st.st_mode))
        snprintf(size, sizeof size, ": %.1f MB so far", (double)st.st_size * 1e-6);
    snprintf(line, sizeof line, "hitscan: %.0f s, %s%s ...", s, what, size);
    if (strcmp(line, shown_text) != 0)
        redraw(line);
}

static void *run(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += TICK_NS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&wake, &lock, &until);
        if (!stopping)
            update();
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

void hsio_progress_start(void)
{
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (running || !isatty(STDERR_FILENO))
        return;
    stopping = 0;
    running = pthread_create(&thread, NULL, run, NULL) == 0;
}

void hsio_progress_step(const char *what)
{
    pthread_mutex_lock(&lock);
    snprintf(step, sizeof step, "%s", what);
    pthread_mutex_unlock(&lock);
}

void hsio_progress_watch(FILE *f)
{
    const int fd = f ? fileno(f) : -1;
    pthread_mutex_lock(&lock);
    watch_fd = fd;
    pthread_mutex_unlock(&lock);
}

void hsio_progress_clear(void)
{
    pthread_mutex_lock(&lock);
    if (shown)
        redraw("");
    pthread_mutex_unlock(&lock);
}

void hsio_progress_end(void)
{
    if (!running)
        return;
    pthread_mutex_lock(&lock);
    stopping = 1;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(thread, NULL);
    running = 0;
    hsio_progress_clear();
}
