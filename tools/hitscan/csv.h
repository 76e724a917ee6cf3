/* SPDX-License-Identifier: MIT */
/* hitscan tool I/O: CSV reading into float32 tables. */
#ifndef HITSCAN_TOOL_CSV_H
#define HITSCAN_TOOL_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "io_common.h"

/* Whether a CSV's first non-blank line is a header. */
typedef enum hsio_header {
    HSIO_HEADER_AUTO = 0, /* a header only if every field is a non-empty non-number */
    HSIO_HEADER_YES = 1,  /* always a header (--header) */
    HSIO_HEADER_NO = 2    /* always data (--no-header) */
} hsio_header;

/* CSV: cols comma-separated numbers per line (spaces / tabs around fields allowed, CRLF
 * allowed, blank lines skipped); a UTF-8 byte order mark at the start is skipped, a UTF-16 one
 * is an error. Whether the first non-blank line is a header (skipped; its names are not
 * checked, but it must have cols fields) follows `header`; under HSIO_HEADER_AUTO it is one
 * only if none of its fields is empty, a number, or starts like one (a digit, or a sign or
 * point before a digit), so that a data row with a typo is an error, never dropped. Every
 * other line must parse: an empty field, a non-number, a value out of float32 range or a field
 * longer than 127 characters is an error naming the row (0-based, headers not counted), its
 * line and column (1-based). A file with no non-blank line is an error; a header alone is an
 * empty table. */
int hsio_read_csv_opt(FILE *f, size_t cols, hsio_header header, hsio_table *out, char *err,
                      size_t errlen);
/* hsio_read_csv_opt, with column k read as a double and taken relative to shift[k] before
 * its one rounding to float (shift NULL, or a zero entry: as hsio_read_csv_opt). */
int hsio_read_csv_at(FILE *f, size_t cols, hsio_header header, const double *shift, hsio_table *out,
                     char *err, size_t errlen);
/* hsio_read_csv_at with the columns of spec (io_common.h): a count in a range, an integer
 * column. A row with another count than the file's first line is an error naming it. */
int hsio_read_csv_spec(FILE *f, const hsio_spec *spec, hsio_header header, const double *shift,
                       hsio_table *out, char *err, size_t errlen);
/* hsio_read_csv_opt with HSIO_HEADER_AUTO. */
int hsio_read_csv(FILE *f, size_t cols, hsio_table *out, char *err, size_t errlen);

#endif
