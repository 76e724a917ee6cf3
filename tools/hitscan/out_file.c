/* SPDX-License-Identifier: MIT */
/* hitscan tool: atomic output files (temporary file + rename) and their removal on signals. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io_common.h"
#include "out_file.h"

/* The temporary file a signal must remove. The signal handler may run on any thread (OpenMP's
 * workers too), so it takes reg_lock, which is lock-free and hence safe in a handler. The
 * thread that changes the registration holds reg_lock only with the caught signals blocked for
 * itself, so the handler never spins on a lock held by its own thread; a handler on another
 * thread waits for the registration to be whole, and then keeps the lock while the process
 * ends. One output is written at a time. */
static atomic_flag reg_lock = ATOMIC_FLAG_INIT;
static char pending[PATH_MAX + 64];
static int pending_set;

static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define N_CAUGHT (sizeof caught / sizeof caught[0])

static void lock(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_CAUGHT; i++)
        sigaddset(&set, caught[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
    while (atomic_flag_test_and_set(&reg_lock))
        ;
}

static void unlock(const sigset_t *old)
{
    atomic_flag_clear(&reg_lock);
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void on_signal(int sig)
{
    while (atomic_flag_test_and_set(&reg_lock))
        ;
    if (pending_set)
        unlink(pending);
    /* SA_RESETHAND restored the default action; the signal is blocked until we return */
    raise(sig);
}

void hsio_out_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_CAUGHT; i++)
        sigaddset(&sa.sa_mask, caught[i]);
    for (size_t i = 0; i < N_CAUGHT; i++) {
        struct sigaction was;
        /* keep what the parent chose to ignore (nohup, a shell's trap '' INT) */
        if (sigaction(caught[i], NULL, &was) == 0 && was.sa_handler == SIG_IGN)
            continue;
        sigaction(caught[i], &sa, NULL);
    }
    signal(SIGXFSZ, SIG_IGN);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* A released *o. */
static void release(hsio_out_file *o)
{
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

static int open_direct(hsio_out_file *o, char *err, size_t errlen)
{
    o->f = fopen(o->path, "wb");
    if (!o->f) {
        int e = errno;
        release(o);
        return hsio_fail(err, errlen, "cannot open: %s", strerror(e));
    }
    return 0;
}

/* Permission bits of a new file: 0666 less the umask (which can only be read by setting it). */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(022);
    umask(mask);
    return 0666 & ~mask;
}

int hsio_out_open(hsio_out_file *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        o->is_stdout = 1;
        return 0;
    }
    size_t plen = strlen(path);
    if (plen == 0 || path[plen - 1] == '/')
        return hsio_fail(err, errlen, "not a file name");
    struct stat st;
    char *real = NULL;
    /* through a symbolic link: replace the file it names, not the link */
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        real = realpath(path, NULL);
    o->path = real ? real : dup_str(path);
    if (!o->path)
        return hsio_fail(err, errlen, "out of memory");
    int exists = stat(o->path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        release(o);
        return hsio_fail(err, errlen, "is a directory");
    }
    if (exists && !S_ISREG(st.st_mode))
        return open_direct(o, err, errlen);
    mode_t mode = exists ? (st.st_mode & 07777) : new_file_mode();

    /* "DIR/.NAME.hitscan-XXXXXX", NAME cut so the whole name stays within NAME_MAX */
    const char *slash = strrchr(o->path, '/');
    size_t dlen = slash ? (size_t)(slash - o->path) + 1 : 0;
    const char *base = o->path + dlen;
    size_t blen = strlen(base);
    if (blen > 200)
        blen = 200;
    static const char suffix[] = ".hitscan-XXXXXX";
    size_t need = dlen + 1 + blen + sizeof suffix;
    if (need > sizeof pending || !(o->tmp = malloc(need))) {
        release(o);
        return hsio_fail(err, errlen, need > sizeof pending ? "name too long" : "out of memory");
    }
    memcpy(o->tmp, o->path, dlen);
    o->tmp[dlen] = '.';
    memcpy(o->tmp + dlen + 1, base, blen);
    memcpy(o->tmp + dlen + 1 + blen, suffix, sizeof suffix);

    sigset_t old;
    lock(&old);
    int fd = -1, e = 0;
    if (pending_set) {
        e = EBUSY; /* one output at a time */
    } else {
        memcpy(pending, o->tmp, need);
        fd = mkstemp(pending);
        e = errno;
        if (fd >= 0) {
            pending_set = 1;
            memcpy(o->tmp, pending, need);
        }
    }
    unlock(&old);
    if (fd < 0) {
        release(o);
        return hsio_fail(err, errlen, "cannot create a temporary file in %s folder: %s",
                         dlen ? "the output's" : "the current", strerror(e));
    }
    (void)fchmod(fd, mode); /* best effort: some file systems have no permission bits */
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        e = errno;
        close(fd);
        hsio_out_abort(o);
        return hsio_fail(err, errlen, "cannot open: %s", strerror(e));
    }
    return 0;
}

/* Removes the temporary file and forgets it, as one step for the signal handler. */
static void drop_tmp(hsio_out_file *o)
{
    sigset_t old;
    lock(&old);
    unlink(o->tmp);
    pending_set = 0;
    unlock(&old);
}

void hsio_out_abort(hsio_out_file *o)
{
    if (!o->path && !o->is_stdout)
        return;
    if (o->f && !o->is_stdout)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp)
        drop_tmp(o);
    release(o);
}

static void test_pause(const hsio_out_file *o)
{
    const char *v = getenv(HSIO_TEST_PAUSE_ENV);
    long s = v ? strtol(v, NULL, 10) : 0;
    if (s <= 0)
        return;
    fprintf(stderr, "hitscan: test pause before rename: %s\n", o->tmp);
    fflush(stderr);
    struct timespec left = {s, 0};
    while (nanosleep(&left, &left) != 0 && errno == EINTR)
        ;
}

/* fsync of the folder holding path, so the rename itself is on disk; best effort, as some
 * file systems refuse to sync a directory. */
static void sync_folder(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = dup_str(slash ? path : ".");
    if (!dir)
        return;
    if (slash)
        dir[slash == path ? 1 : slash - path] = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int hsio_out_commit(hsio_out_file *o, char *err, size_t errlen)
{
    int e = 0;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO; /* an earlier write failed and nobody said so */
    if (o->is_stdout) {
        release(o);
        return e ? hsio_fail(err, errlen, "write failed: %s", strerror(e)) : 0;
    }
    if (!e && o->tmp && fsync(fileno(o->f)) != 0)
        e = errno;
    errno = 0;
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (e) {
        hsio_out_abort(o);
        return hsio_fail(err, errlen, "write failed: %s", strerror(e));
    }
    if (!o->tmp) {
        release(o);
        return 0;
    }
    test_pause(o);
    sigset_t old;
    lock(&old);
    if (rename(o->tmp, o->path) != 0) {
        e = errno;
        unlink(o->tmp);
    }
    pending_set = 0;
    unlock(&old);
    if (e) {
        release(o);
        return hsio_fail(err, errlen, "cannot rename the finished file into place: %s",
                         strerror(e));
    }
    sync_folder(o->path);
    release(o);
    return 0;
}

int hsio_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || !S_ISREG(sa.st_mode))
        return 0;
    if (b ? stat(b, &sb) != 0 : fstat(STDOUT_FILENO, &sb) != 0)
        return 0;
    return S_ISREG(sb.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
