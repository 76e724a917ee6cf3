/* SPDX-License-Identifier: MIT */
/* hitscan tool I/O: the table and error helpers that the readers and writers share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "io_common.h"

void hsio_table_free(hsio_table *t)
{
    free(t->v);
    free(t->line);
    free(t->bits);
    memset(t, 0, sizeof *t);
}

int hsio_fail(char *err, size_t errlen, const char *fmt, ...)
{
    char raw[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    if (err && errlen)
        hsio_escape(err, errlen, raw, strlen(raw));
    return -1;
}
