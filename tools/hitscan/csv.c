/* hitscan tool: CSV reading into float32 tables, with line-numbered errors. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/types.h"
#include "io.h"

#define FIELD_MAX 128

/* Whole stream into one NUL-terminated buffer: works for pipes as well as files. */
static char *slurp(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (;;) {
        if (cap - n < 2) {
            if (cap > ((size_t)-1) / 2) {
                free(buf);
                return NULL;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Field [s, e) trimmed, as a float. 1 ok, 0 not a number, -1 out of float range, -2 longer
 * than any sensible spelling of a float. */
static int parse_field(const char *s, const char *e, float *v)
{
    char tmp[FIELD_MAX];
    size_t n = (size_t)(e - s);
    if (n == 0)
        return 0;
    if (n >= sizeof tmp)
        return -2;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *end;
    errno = 0;
    float x = strtof(tmp, &end);
    if (end != tmp + n)
        return 0;
    if (errno == ERANGE && isinf(x))
        return -1;
    *v = x;
    return 1;
}

/* Printable excerpt of a field for messages. */
static void excerpt(const char *s, const char *e, char *buf, size_t cap)
{
    size_t n = 0;
    for (; s < e && n + 4 < cap && n < 40; s++)
        buf[n++] = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
    if (s < e)
        buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
    buf[n] = '\0';
}

int hsio_read_csv(FILE *f, size_t cols, hsio_table *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    errno = 0;
    char *buf = slurp(f, &len);
    if (!buf && ferror(f))
        return hsio_fail(err, errlen, "read error: %s", strerror(errno));
    if (!buf)
        return hsio_fail(err, errlen, "out of memory");
    size_t max_rows = 1;
    for (size_t i = 0; i < len; i++)
        max_rows += buf[i] == '\n';
    float *v = malloc(max_rows * cols * sizeof(float));
    size_t *line = malloc(max_rows * sizeof(size_t));
    int rc = 0;
    size_t rows = 0, lineno = 0;
    if (!v || !line) {
        rc = hsio_fail(err, errlen, "out of memory");
        goto done;
    }
    int seen_line = 0;
    const char *p = buf, *end = buf + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        lineno++;
        const char *s = p;
        p = eol < end ? eol + 1 : end;
        const char *e = eol;
        while (s < e && is_blank(*s))
            s++;
        while (e > s && is_blank(e[-1]))
            e--;
        if (s == e)
            continue;
        int first = !seen_line;
        seen_line = 1;
        size_t nf = 1;
        for (const char *q = s; q < e; q++)
            nf += *q == ',';
        if (first) {
            const char *c1 = memchr(s, ',', (size_t)(e - s));
            const char *fe = c1 ? c1 : e;
            while (fe > s && is_blank(fe[-1]))
                fe--;
            float dummy;
            if (parse_field(s, fe, &dummy) != 1) { /* a header: its names are not checked */
                if (nf != cols) {
                    rc = hsio_fail(err, errlen, "line %zu: header has %zu fields, expected %zu",
                                   lineno, nf, cols);
                    goto done;
                }
                continue;
            }
        }
        if (nf != cols) {
            rc = hsio_fail(err, errlen, "line %zu: %zu fields, expected %zu", lineno, nf, cols);
            goto done;
        }
        const char *fs = s;
        for (size_t k = 0; k < cols; k++) {
            const char *fe = memchr(fs, ',', (size_t)(e - fs));
            if (!fe)
                fe = e;
            const char *a = fs, *b = fe;
            while (a < b && is_blank(*a))
                a++;
            while (b > a && is_blank(b[-1]))
                b--;
            int ok = parse_field(a, b, &v[rows * cols + k]);
            if (ok != 1) {
                char ex[48];
                excerpt(a, b, ex, sizeof ex);
                if (a == b)
                    rc = hsio_fail(err, errlen, "line %zu, field %zu: empty field", lineno, k + 1);
                else if (ok == -2)
                    rc = hsio_fail(err, errlen,
                                   "line %zu, field %zu: field longer than %d characters", lineno,
                                   k + 1, FIELD_MAX - 1);
                else if (ok < 0)
                    rc = hsio_fail(err, errlen, "line %zu, field %zu: '%s' is out of float32 range",
                                   lineno, k + 1, ex);
                else
                    rc = hsio_fail(err, errlen, "line %zu, field %zu: '%s' is not a number", lineno,
                                   k + 1, ex);
                goto done;
            }
            fs = fe + 1;
        }
        line[rows++] = lineno;
    }
    if (!seen_line) {
        rc = hsio_fail(err, errlen, "empty file (no header, no data)");
        goto done;
    }
    if (rows > HS_MAX_COUNT) {
        rc = hsio_fail(err, errlen, "more than %zu rows", (size_t)HS_MAX_COUNT);
        goto done;
    }
done:
    free(buf);
    if (rc != 0 || rows == 0) {
        free(v);
        free(line);
        if (rc == 0)
            out->cols = cols;
        return rc;
    }
    out->v = v;
    out->line = line;
    out->rows = rows;
    out->cols = cols;
    return 0;
}
