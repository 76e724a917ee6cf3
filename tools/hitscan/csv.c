/* SPDX-License-Identifier: MIT */
/* hitscan tool: CSV reading into float32 tables: the header rule, and errors naming row, line
 * and column. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/types.h"
#include "escape.h"
#include "csv.h"

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

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* [*s, *e) without blanks at either end. */
static void trim(const char **s, const char **e)
{
    while (*s < *e && is_blank(**s))
        (*s)++;
    while (*e > *s && is_blank((*e)[-1]))
        (*e)--;
}

/* Field [s, e) as a NUL-terminated string in tmp: its length, 0 for an empty field, -2 for
 * one longer than any sensible spelling of a number. */
static int field_text(const char *s, const char *e, char tmp[FIELD_MAX])
{
    const size_t n = (size_t)(e - s);
    if (n >= FIELD_MAX)
        return -2;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    return (int)n;
}

/* Field [s, e) trimmed, as a float; with a non-zero shift, read as a double and taken
 * relative to shift before the one rounding to float. 1 ok, 0 not a number, -1 out of float
 * range, -2 longer than any sensible spelling of a float. */
static int parse_field(const char *s, const char *e, double shift, float *v)
{
    char tmp[FIELD_MAX];
    const int len = field_text(s, e, tmp);
    if (len <= 0)
        return len;
    const size_t n = (size_t)len;
    char *end;
    errno = 0;
    if (shift != 0.0) {
        double d = strtod(tmp, &end);
        if (end != tmp + n)
            return 0;
        float x = (float)(d - shift);
        if ((errno == ERANGE && isinf(d)) || (isinf(x) && isfinite(d)))
            return -1;
        *v = x;
        return 1;
    }
    float x = strtof(tmp, &end);
    if (end != tmp + n)
        return 0;
    if (errno == ERANGE && isinf(x))
        return -1;
    *v = x;
    return 1;
}

/* Field [s, e) trimmed, as an integer in 0 .. 2^32 - 1: decimal, or hex after 0x. 1 ok, 0 not
 * such an integer, -2 longer than any sensible spelling. */
static int parse_bits(const char *s, const char *e, uint32_t *v)
{
    char tmp[FIELD_MAX];
    const int len = field_text(s, e, tmp);
    if (len <= 0)
        return len;
    const size_t n = (size_t)len;
    const int hex = n > 2 && tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X');
    const char *digits = hex ? tmp + 2 : tmp;
    if (!(is_digit(*digits) || (hex && strchr("abcdefABCDEF", *digits))))
        return 0; /* no sign, no blank: strtoull would take them */
    char *end;
    errno = 0;
    const unsigned long long x = strtoull(digits, &end, hex ? 16 : 10);
    if (end != tmp + n || errno == ERANGE || x > UINT32_MAX)
        return 0;
    *v = (uint32_t)x;
    return 1;
}

/* What may be a header name under HSIO_HEADER_AUTO: not empty, not a number (nan and inf
 * included) and not starting like one: "1st", "-5m" or ".5x" are data with a typo. */
static int header_name(const char *s, const char *e)
{
    float dummy;
    if (s == e || parse_field(s, e, 0.0, &dummy) != 0)
        return 0;
    const char *p = s;
    if (p < e && (*p == '+' || *p == '-'))
        p++;
    if (p < e && *p == '.')
        p++;
    return !(p < e && is_digit(*p));
}

/* Printable excerpt of a field for messages: escaped, and cut after 40 bytes. */
static void excerpt(const char *s, const char *e, char *buf, size_t cap)
{
    size_t n = (size_t)(e - s);
    size_t len = hsio_escape(buf, cap - 3, s, n < 40 ? n : 40);
    if (n > 40 || len >= cap - 3)
        strcat(buf, "...");
}

int hsio_read_csv(FILE *f, size_t cols, hsio_table *out, char *err, size_t errlen)
{
    return hsio_read_csv_opt(f, cols, HSIO_HEADER_AUTO, out, err, errlen);
}

int hsio_read_csv_opt(FILE *f, size_t cols, hsio_header header, hsio_table *out, char *err,
                      size_t errlen)
{
    return hsio_read_csv_at(f, cols, header, NULL, out, err, errlen);
}

int hsio_read_csv_at(FILE *f, size_t cols, hsio_header header, const double *shift, hsio_table *out,
                     char *err, size_t errlen)
{
    const hsio_spec spec = {cols, cols, 0, HSIO_NO_INT_COL};
    return hsio_read_csv_spec(f, &spec, header, shift, out, err, errlen);
}

/* "4" or "4 to 6": the field counts a spec takes. */
static const char *counts(const hsio_spec *spec, char *buf, size_t cap)
{
    if (spec->cmin == spec->cmax)
        snprintf(buf, cap, "%zu", spec->cmin);
    else
        snprintf(buf, cap, "%zu to %zu", spec->cmin, spec->cmax);
    return buf;
}

int hsio_read_csv_spec(FILE *f, const hsio_spec *spec, hsio_header header, const double *shift,
                       hsio_table *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    /* fixed, or set by the header or the first row */
    size_t cols = spec->cmin == spec->cmax ? spec->cmin : 0;
    char want[48];
    counts(spec, want, sizeof want);
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
    float *v = malloc(max_rows * spec->cmax * sizeof(float));
    size_t *line = malloc(max_rows * sizeof(size_t));
    uint32_t *bits = spec->int_col < spec->cmax ? malloc(max_rows * sizeof(uint32_t)) : NULL;
    int rc = 0;
    size_t rows = 0, lineno = 0;
    if (!v || !line || (spec->int_col < spec->cmax && !bits)) {
        rc = hsio_fail(err, errlen, "out of memory");
        goto done;
    }
    const char *p = buf, *end = buf + len;
    if (len >= 2 && (((unsigned char)p[0] == 0xff && (unsigned char)p[1] == 0xfe) ||
                     ((unsigned char)p[0] == 0xfe && (unsigned char)p[1] == 0xff))) {
        rc = hsio_fail(err, errlen, "UTF-16 text is not supported: save the file as UTF-8");
        goto done;
    }
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) /* UTF-8 byte order mark */
        p += 3;
    int seen_line = 0;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        lineno++;
        const char *s = p;
        p = eol < end ? eol + 1 : end;
        const char *e = eol;
        trim(&s, &e);
        if (s == e)
            continue;
        int first = !seen_line;
        seen_line = 1;
        size_t nf = 1;
        for (const char *q = s; q < e; q++)
            nf += *q == ',';
        if (first && cols == 0 && nf >= spec->cmin && nf <= spec->cmax)
            cols = nf; /* the file's own count, from its first line */
        if (first && header != HSIO_HEADER_NO) {
            int is_header = 1;
            for (const char *fs = s; is_header && header == HSIO_HEADER_AUTO;) {
                const char *fe = memchr(fs, ',', (size_t)(e - fs));
                const char *a = fs, *b = fe ? fe : e;
                trim(&a, &b);
                is_header = header_name(a, b);
                if (!fe)
                    break;
                fs = fe + 1;
            }
            if (is_header) { /* its names are not checked, only their count */
                if (nf != cols) {
                    rc = hsio_fail(err, errlen, "line %zu: header has %zu fields, expected %s",
                                   lineno, nf, want);
                    goto done;
                }
                continue;
            }
        }
        if (nf != cols) {
            if (cols != spec->cmin || cols != spec->cmax) /* the first row's count */
                snprintf(want, sizeof want, "%zu, as the first line", cols);
            rc = hsio_fail(err, errlen, "row %zu (line %zu): %zu fields, expected %s", rows, lineno,
                           nf, cols ? want : counts(spec, want, sizeof want));
            goto done;
        }
        const char *fs = s;
        for (size_t k = 0; k < cols; k++) {
            const char *fe = memchr(fs, ',', (size_t)(e - fs));
            if (!fe)
                fe = e;
            const char *a = fs, *b = fe;
            trim(&a, &b);
            const int is_bits = k == spec->int_col;
            int ok = is_bits ? parse_bits(a, b, &bits[rows])
                             : parse_field(a, b, shift ? shift[k] : 0.0, &v[rows * cols + k]);
            if (is_bits && ok == 1)
                v[rows * cols + k] = (float)bits[rows];
            if (is_bits && ok == 0 && a != b) {
                char ex[48];
                excerpt(a, b, ex, sizeof ex);
                rc = hsio_fail(err, errlen,
                               "row %zu (line %zu), column %zu: '%s' is not a mask (an integer "
                               "in 0..4294967295, decimal or 0x hex)",
                               rows, lineno, k + 1, ex);
                goto done;
            }
            if (ok != 1) {
                char ex[48], at[96];
                excerpt(a, b, ex, sizeof ex);
                snprintf(at, sizeof at, "row %zu (line %zu), column %zu", rows, lineno, k + 1);
                /* a header whose names look like numbers: say how to mark it */
                const char *hint = first && header == HSIO_HEADER_AUTO && ok == 0
                                       ? " (if this line is a header, give --header)"
                                       : "";
                if (a == b)
                    rc = hsio_fail(err, errlen, "%s: empty field", at);
                else if (ok == -2)
                    rc = hsio_fail(err, errlen, "%s: field longer than %d characters", at,
                                   FIELD_MAX - 1);
                else if (ok < 0)
                    rc = hsio_fail(err, errlen, "%s: '%s' is out of float32 range", at, ex);
                else
                    rc = hsio_fail(err, errlen, "%s: '%s' is not a number%s", at, ex, hint);
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
        free(bits);
        if (rc == 0)
            out->cols = cols ? cols : spec->cmin;
        return rc;
    }
    out->v = v;
    out->line = line;
    out->bits = spec->int_col < cols ? bits : NULL;
    if (!out->bits)
        free(bits);
    out->rows = rows;
    out->cols = cols;
    return 0;
}
