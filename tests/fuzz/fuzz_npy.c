/* SPDX-License-Identifier: MIT */
/* Fuzz target: the hitscan tool's .npy reader on any bytes: an error with *out zeroed, or a table
 * that writes back to the same bytes' values. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;                        /* fmemopen wants a non-empty buffer */
    const size_t cols = 1 + data[0] % 5; /* the column count the caller asks for */
    FILE *f = fmemopen((void *)(uintptr_t)(data + 1), size - 1, "rb");
    if (f == NULL)
        return 0;
    hsio_table t;
    memset(&t, 0x5A, sizeof t);
    char err[256] = "";
    int rc = hsio_read_npy(f, cols, &t, err, sizeof err);
    fclose(f);
    if (rc != 0) {
        if (rc != -1 || t.v != NULL || t.rows != 0 || t.line != NULL || err[0] == '\0')
            fz_fail("npy", "an error without -1, a zeroed table and a message");
        for (const char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f)
                fz_fail("npy", "error message not one printable line");
        return 0;
    }
    if (t.cols != cols || (t.rows == 0) != (t.v == NULL) || t.line != NULL)
        fz_fail("npy", "table shape inconsistent");
    /* the data is the file's tail, exactly: the values read are those bytes */
    const size_t bytes = t.rows * cols * sizeof(float);
    if (bytes > size - 1 || (bytes && memcmp(t.v, data + size - bytes, bytes) != 0))
        fz_fail("npy", "values are not the file's last rows * cols * 4 bytes");
    hsio_table_free(&t);
    return 0;
}
