/* SPDX-License-Identifier: MIT */
/* hitscan tool I/O: float tables from .npy / CSV files by their extension, and the result
 * writers. The layers below: csv.h and npy.h (each format's reader, and .npy writing), both on
 * io_common.h (the table type and the readers' error exit); including io.h gives all three. */
#ifndef HITSCAN_TOOL_IO_H
#define HITSCAN_TOOL_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "csv.h"
#include "io_common.h"
#include "npy.h"

typedef enum hsio_format { HSIO_NONE = 0, HSIO_NPY = 1, HSIO_CSV = 2 } hsio_format;

/* Format named by a path's extension (.npy / .csv, any case); HSIO_NONE otherwise. */
hsio_format hsio_format_of_path(const char *path);
/* "npy" / "csv" -> format, anything else HSIO_NONE. */
hsio_format hsio_format_parse(const char *name);

/* Opens path and dispatches on its extension (header applies to CSV only). */
int hsio_read_table_opt(const char *path, size_t cols, hsio_header header, hsio_table *out,
                        char *err, size_t errlen);
/* hsio_read_table_opt with column shifts (hsio_read_csv_at; a .npy's float32 values are taken
 * relative to them in double, which keeps no more digits than the file held). */
int hsio_read_table_at(const char *path, size_t cols, hsio_header header, const double *shift,
                       hsio_table *out, char *err, size_t errlen);
/* hsio_read_table_at with the columns of spec (io_common.h): a count in a range, '<f8' .npy,
 * an integer column (shift, when given, has spec->cmax entries). */
int hsio_read_table_spec(const char *path, const hsio_spec *spec, hsio_header header,
                         const double *shift, hsio_table *out, char *err, size_t errlen);
/* hsio_read_table_opt with HSIO_HEADER_AUTO. */
int hsio_read_table(const char *path, size_t cols, hsio_table *out, char *err, size_t errlen);

/* Result writers; 0 on success, -1 on a write error. Layouts (the tool's output contract,
 * see tools/hitscan/README.md):
 *   closest  CSV query,idx,t,px,py,nx,ny (idx -1 and nan on a miss); with walls ,kind
 *            npy (M, 6) '<f8' columns idx,t,px,py,nx,ny (idx -1.0 and NaN on a miss)
 *   any      CSV query,hit (0/1)       npy (M,) '|b1'
 *   count    CSV query,count           npy (M,) '<u4'
 *   all      CSV query,idx,t           npy (K, 3) '<f8' rows query,idx,t; with walls ,kind
 *   pairs    CSV i,j                   npy (K, 2) '<f8' rows i,j
 *            with displacements: CSV i,j,t,nx,ny,overlapping, npy (K, 6) '<f8' (overlapping
 *            0 / 1)
 * idx == HS_NONE (UINT32_MAX) marks a miss. px..ny may be NULL only when every idx misses. */
int hsio_write_closest(FILE *f, hsio_format fmt, size_t m, const uint32_t *idx, const float *t,
                       const float *px, const float *py, const float *nx, const float *ny);
/* hsio_write_closest with the hit point written as (ox + px, oy + py) in double (CSV: %.17g
 * when the offset is not zero); ox = oy = 0 writes the same bytes as hsio_write_closest. */
int hsio_write_closest_at(FILE *f, hsio_format fmt, size_t m, const uint32_t *idx, const float *t,
                          const float *px, const float *py, const float *nx, const float *ny,
                          double ox, double oy);
/* hsio_write_closest_at with kind (HS_KIND_* per query; NULL: none, the same bytes as
 * hsio_write_closest_at): CSV adds a last column kind, .npy a seventh column (M, 7). */
int hsio_write_closest_kind(FILE *f, hsio_format fmt, size_t m, const uint32_t *idx, const float *t,
                            const float *px, const float *py, const float *nx, const float *ny,
                            double ox, double oy, const uint8_t *kind);
int hsio_write_any(FILE *f, hsio_format fmt, size_t m, const uint8_t *hit);
int hsio_write_count(FILE *f, hsio_format fmt, size_t m, const uint32_t *count);
/* The columns of a pairs output: i, j; t, nx, ny, overlapping for swept pairs (NULL for
 * overlap pairs); sx, sy in a periodic box (NULL otherwise). */
typedef struct hsio_pair_cols {
    const uint32_t *i, *j;
    const float *t, *nx, *ny;
    const uint8_t *overlapping;
    const int8_t *sx, *sy;
} hsio_pair_cols;
int hsio_write_pairs(FILE *f, hsio_format fmt, size_t k, const hsio_pair_cols *c);
/* CSR: hits of query i are offsets[i] .. offsets[i+1]-1. */
int hsio_write_all(FILE *f, hsio_format fmt, size_t m, const size_t *offsets, const uint32_t *idx,
                   const float *t);
/* hsio_write_all with kind (HS_KIND_* per hit; NULL: none, hsio_write_all's bytes): CSV adds a
 * last column kind, .npy a fourth column (K, 4). */
int hsio_write_all_kind(FILE *f, hsio_format fmt, size_t m, const size_t *offsets,
                        const uint32_t *idx, const float *t, const uint8_t *kind);

#endif
