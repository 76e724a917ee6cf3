/* SPDX-License-Identifier: MIT */
/* hitscan tool: output files that appear under their name whole or not at all. */
#ifndef HITSCAN_TOOL_OUT_FILE_H
#define HITSCAN_TOOL_OUT_FILE_H

#include <stddef.h>
#include <stdio.h>

/* One output being written. A regular file (new, or replacing one) is written to a temporary
 * file in the target's folder and renamed over the target only once it is complete and on
 * disk, so neither a failed write (full disk, file-size limit, I/O error) nor a signal ever
 * leaves a partial file under the final name or destroys the file that was there. "-"
 * (stdout) and an existing device, FIFO or socket have nothing to replace and are written
 * straight through. */
typedef struct hsio_out_file {
    FILE *f;    /* write here between open and commit / abort */
    char *path; /* the final name; through a symbolic link, the file it names */
    char *tmp;  /* the temporary file; NULL when writing straight through */
    int is_stdout;
} hsio_out_file;

/* Opens the output for path. The temporary file is ".NAME.hitscan-XXXXXX" (mkstemp) next to
 * the target and gets the replaced file's permission bits, or 0666 less the umask for a new
 * file. 0, or -1 with a one-line message in err (*o then needs no abort). */
int hsio_out_open(hsio_out_file *o, const char *path, char *err, size_t errlen);

/* Finishes the output: fflush, fsync, fclose, then rename onto the final name (and fsync of its
 * folder). 0, or -1 with a message; on failure the temporary file is removed and the final
 * name is as it was. Either way *o is released. */
int hsio_out_commit(hsio_out_file *o, char *err, size_t errlen);

/* Gives the output up: closes it and removes the temporary file; the final name is untouched.
 * Does nothing on a released *o. */
void hsio_out_abort(hsio_out_file *o);

/* For the process's lifetime: SIGINT, SIGTERM, SIGHUP and SIGPIPE (each unless ignored when
 * the process started) remove the temporary file being written, if any, then end the process
 * by that same signal; SIGXFSZ is ignored, so a write past the file-size limit (ulimit -f)
 * fails with EFBIG and takes the error path instead of killing the process mid-file. */
void hsio_out_catch_signals(void);

/* 1 when a and b are the same existing file (same device and inode: through symbolic and hard
 * links alike), else 0. b == NULL means stdout. Only regular files count: one terminal or pipe
 * may well be both an input and the output. */
int hsio_same_file(const char *a, const char *b);

/* Test hook, read at commit: with HITSCAN_TEST_PAUSE_BEFORE_RENAME=S in the environment, a
 * complete temporary file waits S seconds before its rename, after printing
 * "hitscan: test pause before rename: TMP" on stderr, so a test can signal the process there. */
#define HSIO_TEST_PAUSE_ENV "HITSCAN_TEST_PAUSE_BEFORE_RENAME"

#endif
