/* SPDX-License-Identifier: MIT */
/* hitscan tool I/O: NumPy .npy reading (float32 tables) and writing. */
#ifndef HITSCAN_TOOL_NPY_H
#define HITSCAN_TOOL_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io_common.h"

/* A .npy array of dtype '<f4', C order, shape (rows, cols); rows may be 0. Versions 1.0, 2.0
 * and 3.0. The data must end exactly where the file does. */
int hsio_read_npy(FILE *f, size_t cols, hsio_table *out, char *err, size_t errlen);

/* hsio_read_npy with the columns of spec (io_common.h): (rows, cmin) to (rows, cmax), '<f8'
 * when spec->f8, an integer column. */
int hsio_read_npy_spec(FILE *f, const hsio_spec *spec, hsio_table *out, char *err, size_t errlen);

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

#endif
