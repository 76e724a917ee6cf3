/* hitscan tool I/O: float tables from .npy / CSV files, result writers, npy header parsing. */
#ifndef HITSCAN_TOOL_IO_H
#define HITSCAN_TOOL_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

typedef enum hsio_format { HSIO_NONE = 0, HSIO_NPY = 1, HSIO_CSV = 2 } hsio_format;

/* Format named by a path's extension (.npy / .csv, any case); HSIO_NONE otherwise. */
hsio_format hsio_format_of_path(const char *path);
/* "npy" / "csv" -> format, anything else HSIO_NONE. */
hsio_format hsio_format_parse(const char *name);

/* The readers' error exit: the message into err (when err && errlen), escaped as by
 * hsio_escape so it is one printable line whatever bytes the file held, then -1. */
HSIO_PRINTF(3, 4) int hsio_fail(char *err, size_t errlen, const char *fmt, ...);

/* Every reader returns 0 on success, or -1 with a one-line human message in err (no path
 * prefix; the caller adds it) and *out zeroed. They never read past what the file holds and
 * allocate exactly what the declared shape needs after checking it against HS_MAX_COUNT. */

/* A .npy array of dtype '<f4', C order, shape (rows, cols); rows may be 0. Versions 1.0, 2.0
 * and 3.0. The data must end exactly where the file does. */
int hsio_read_npy(FILE *f, size_t cols, hsio_table *out, char *err, size_t errlen);
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
/* hsio_read_csv_opt with HSIO_HEADER_AUTO. */
int hsio_read_csv(FILE *f, size_t cols, hsio_table *out, char *err, size_t errlen);
/* Opens path and dispatches on its extension (header applies to CSV only). */
int hsio_read_table_opt(const char *path, size_t cols, hsio_header header, hsio_table *out,
                        char *err, size_t errlen);
/* hsio_read_table_opt with column shifts (hsio_read_csv_at; a .npy's float32 values are taken
 * relative to them in double, which keeps no more digits than the file held). */
int hsio_read_table_at(const char *path, size_t cols, hsio_header header, const double *shift,
                       hsio_table *out, char *err, size_t errlen);
/* hsio_read_table_opt with HSIO_HEADER_AUTO. */
int hsio_read_table(const char *path, size_t cols, hsio_table *out, char *err, size_t errlen);

/* A parsed .npy header. */
typedef struct hsio_npy_header {
    int major, minor;
    char descr[32];
    int fortran_order;
    int ndim;
    uint64_t shape[8];
    size_t data_offset; /* bytes before the data */
} hsio_npy_header;
/* Reads magic, version and header dict from f (left positioned at the data). */
int hsio_npy_read_header(FILE *f, hsio_npy_header *h, char *err, size_t errlen);

/* Writes a version 1.0 .npy (C order, header padded to 64 bytes) of ndim dims whose elements
 * are elem_size bytes each, stored little-endian whatever the host. 0 or -1 (errno set). */
int hsio_write_npy(FILE *f, const char *descr, int ndim, const size_t *shape, const void *data,
                   size_t elem_size);
/* The two halves of hsio_write_npy, for writers that stream their rows. */
int hsio_npy_write_header(FILE *f, const char *descr, int ndim, const size_t *shape);
int hsio_write_le(FILE *f, const void *data, size_t elem_size, size_t count);

/* Result writers; 0 on success, -1 on a write error. Layouts (the tool's output contract,
 * see tools/hitscan/README.md):
 *   closest  CSV query,idx,t,px,py,nx,ny (idx -1 and nan on a miss)
 *            npy (M, 6) '<f8' columns idx,t,px,py,nx,ny (idx -1.0 and NaN on a miss)
 *   any      CSV query,hit (0/1)       npy (M,) '|b1'
 *   count    CSV query,count           npy (M,) '<u4'
 *   all      CSV query,idx,t           npy (K, 3) '<f8' rows query,idx,t
 * idx == HS_NONE (UINT32_MAX) marks a miss. px..ny may be NULL only when every idx misses. */
int hsio_write_closest(FILE *f, hsio_format fmt, size_t m, const uint32_t *idx, const float *t,
                       const float *px, const float *py, const float *nx, const float *ny);
/* hsio_write_closest with the hit point written as (ox + px, oy + py) in double (CSV: %.17g
 * when the offset is not zero); ox = oy = 0 writes the same bytes as hsio_write_closest. */
int hsio_write_closest_at(FILE *f, hsio_format fmt, size_t m, const uint32_t *idx, const float *t,
                          const float *px, const float *py, const float *nx, const float *ny,
                          double ox, double oy);
int hsio_write_any(FILE *f, hsio_format fmt, size_t m, const uint8_t *hit);
int hsio_write_count(FILE *f, hsio_format fmt, size_t m, const uint32_t *count);
/* CSR: hits of query i are offsets[i] .. offsets[i+1]-1. */
int hsio_write_all(FILE *f, hsio_format fmt, size_t m, const size_t *offsets, const uint32_t *idx,
                   const float *t);

#endif
