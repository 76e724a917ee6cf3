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

#include <stdint.h>

/* A rows x cols float32 table, row-major. line[i] is the 1-based file line of row i for CSV
 * input (so errors found later, e.g. by the library's validation, can name the line); NULL for
 * .npy input. v and line are NULL when rows == 0. bits: the rows values of a reader's integer
 * column (hsio_spec.int_col) when the file has it, NULL otherwise. */
typedef struct hsio_table {
    float *v;
    size_t rows, cols;
    size_t *line;
    uint32_t *bits;
} hsio_table;

/* What a reader takes beyond a fixed count of float32 columns: rows of cmin to cmax columns
 * (the count of the file's header or first row; every row the same), .npy '<f8' besides '<f4'
 * (f8: each value rounded once to float), and with int_col < cmax that column's values as
 * exact integers in 0 .. 2^32 - 1 (bit masks: CSV decimal or 0x hex; .npy whole numbers) into
 * the table's bits (its float column holds them rounded). */
typedef struct hsio_spec {
    size_t cmin, cmax;
    int f8;
    size_t int_col; /* HSIO_NO_INT_COL: none */
} hsio_spec;
#define HSIO_NO_INT_COL ((size_t)-1)

void hsio_table_free(hsio_table *t);

/* Every reader returns 0 on success, or -1 with a one-line human message in err (no path
 * prefix; the caller adds it) and *out zeroed. They never read past what the file holds and
 * allocate exactly what the declared shape needs after checking it against HS_MAX_COUNT. */

/* The readers' error exit: the message into err (when err && errlen), escaped as by
 * hsio_escape so it is one printable line whatever bytes the file held, then -1. */
HSIO_PRINTF(3, 4) int hsio_fail(char *err, size_t errlen, const char *fmt, ...);

#endif
