/* SPDX-License-Identifier: MIT */
/* hitscan tool: a progress line on stderr for long runs, shown only when stderr is a terminal
 * (never into files or pipes, so logs and tests see only the tool's messages). */
#ifndef HITSCAN_TOOL_PROGRESS_H
#define HITSCAN_TOOL_PROGRESS_H

#include <stdio.h>

/* A run that has lasted this long gets the line: the step under way and the time so far. */
#define HSIO_PROGRESS_AFTER_S 1.0

/* Starts the clock and, when stderr is a terminal, a thread that keeps the line up to date
 * (a few times a second) once the run is HSIO_PROGRESS_AFTER_S old. Once per process. */
void hsio_progress_start(void);
/* The step under way, e.g. "reading c.csv" (copied; escaped when shown). */
void hsio_progress_step(const char *what);
/* Shows how large the regular file f writes to has grown, next to the step; NULL stops that.
 * The caller stops it before closing f. */
void hsio_progress_watch(FILE *f);
/* Erases the line now, before other output goes to the terminal; it returns on the next update
 * unless the run ends. */
void hsio_progress_clear(void);
/* Stops the thread and erases the line. Safe to call more than once, or without a start. */
void hsio_progress_end(void);

#endif
