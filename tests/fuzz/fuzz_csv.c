/* SPDX-License-Identifier: MIT */
/* Fuzz target: the hitscan tool's CSV reader on any bytes and header rule: an error (one printable
 * line) with *out zeroed, or rows from increasing lines. */
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
        return 0; /* fmemopen wants a non-empty buffer */
    const size_t cols = 1 + data[0] % 5;
    const hsio_header header = (hsio_header)((data[0] / 5) % 3); /* auto, yes, no */
    FILE *f = fmemopen((void *)(uintptr_t)(data + 1), size - 1, "rb");
    if (f == NULL)
        return 0;
    hsio_table t;
    memset(&t, 0x5A, sizeof t);
    char err[256] = "";
    int rc = hsio_read_csv_opt(f, cols, header, &t, err, sizeof err);
    fclose(f);
    if (rc != 0) {
        if (rc != -1 || t.v != NULL || t.rows != 0 || t.line != NULL || err[0] == '\0')
            fz_fail("csv", "an error without -1, a zeroed table and a message");
        for (const char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f)
                fz_fail("csv", "error message not one printable line");
        return 0;
    }
    if (t.cols != cols || (t.rows == 0) != (t.v == NULL) || (t.rows == 0) != (t.line == NULL))
        fz_fail("csv", "table shape inconsistent");
    size_t lines = 1;
    for (size_t k = 1; k < size; k++)
        lines += data[k] == '\n';
    for (size_t i = 0; i < t.rows; i++)
        if (t.line[i] < 1 || t.line[i] > lines || (i && t.line[i] <= t.line[i - 1]))
            fz_fail("csv", "row line numbers not increasing within the file");
    hsio_table_free(&t);
    return 0;
}
