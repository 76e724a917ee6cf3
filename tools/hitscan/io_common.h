/* SPDX-License-Identifier: MIT */
/* hitscan tool I/O, the layer under the readers and writers: the float table the readers fill
 * and their error exit. Depends on escape.h only, so csv.c, npy.c and out_file.c can use it
 * without depending on io.c, which depends on them. */
#ifndef HITSCAN_TOOL_IO_COMMON_H
#define HITSCAN_TOOL_IO_COMMON_H

#include <stddef.h>

/* printf-style checking of the tool's message helpers, where the compiler offers it. */
#if defined(__GNUC__) || defined(__clang__)
#define HSIO_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define HSIO_PRINTF(fmt, args)
#endif

/* A rows x cols float32 table, row-major. line[i] is the 1-based file line of row i for CSV
 * input (so errors found later, e.g. by the library's validation, can name the line); NULL for
 * .npy input. v and line are NULL when rows == 0. */
typedef struct hsio_table {
    float *v;
    size_t rows, cols;
    size_t *line;
} hsio_table;

void hsio_table_free(hsio_table *t);

/* Every reader returns 0 on success, or -1 with a one-line human message in err (no path
 * prefix; the caller adds it) and *out zeroed. They never read past what the file holds and
 * allocate exactly what the declared shape needs after checking it against HS_MAX_COUNT. */

/* The readers' error exit: the message into err (when err && errlen), escaped as by
 * hsio_escape so it is one printable line whatever bytes the file held, then -1. */
HSIO_PRINTF(3, 4) int hsio_fail(char *err, size_t errlen, const char *fmt, ...);

#endif
