/* SPDX-License-Identifier: MIT */
/* hitscan tool: NumPy .npy reading (float32 tables, strict header checks) and writing. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/types.h"
#include "npy.h"

/* numpy itself refuses headers above 10000 bytes by default; allow more, but not so much that
 * a garbage length makes us allocate gigabytes before noticing. */
#define NPY_MAX_HEADER (1u << 20)

static int host_is_le(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static void swap_bytes(void *p, size_t count, size_t size)
{
    unsigned char *b = p;
    for (size_t i = 0; i < count; i++, b += size)
        for (size_t k = 0; k < size / 2; k++) {
            unsigned char c = b[k];
            b[k] = b[size - 1 - k];
            b[size - 1 - k] = c;
        }
}

/* ---- header dict: the subset of Python literal syntax numpy writes --------------------- */

typedef struct cursor {
    const char *p, *end;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int eat(cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* 'text' or "text" without escapes; 0 if none there or it does not fit in cap. */
static int parse_str(cursor *c, char *buf, size_t cap)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return 0;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || n + 1 >= cap)
            return 0;
        buf[n++] = *c->p++;
    }
    if (c->p >= c->end)
        return 0;
    c->p++;
    buf[n] = '\0';
    return 1;
}

static int parse_word(cursor *c, const char *w)
{
    size_t n = strlen(w);
    skip_ws(c);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return 1;
    }
    return 0;
}

/* Non-negative integer (Python 2 files may add an 'L'); 0 if absent or above UINT64_MAX. */
static int parse_uint(cursor *c, uint64_t *v)
{
    skip_ws(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
        return 0;
    uint64_t x = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        unsigned d = (unsigned)(*c->p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return 0;
        x = x * 10 + d;
        c->p++;
    }
    if (c->p < c->end && *c->p == 'L')
        c->p++;
    *v = x;
    return 1;
}

static int parse_shape(cursor *c, hsio_npy_header *h, char *err, size_t errlen)
{
    if (!eat(c, '('))
        return hsio_fail(err, errlen, "bad .npy header: 'shape' is not a tuple");
    h->ndim = 0;
    if (eat(c, ')'))
        return 0;
    for (;;) {
        uint64_t v;
        if (!parse_uint(c, &v))
            return hsio_fail(err, errlen,
                             "bad .npy header: 'shape' must hold non-negative integers");
        if (h->ndim == (int)(sizeof h->shape / sizeof h->shape[0]))
            return hsio_fail(err, errlen, "bad .npy header: too many dimensions");
        h->shape[h->ndim++] = v;
        int comma = eat(c, ',');
        if (eat(c, ')'))
            return 0;
        if (!comma)
            return hsio_fail(err, errlen, "bad .npy header: malformed 'shape' tuple");
    }
}

static int parse_dict(const char *s, size_t n, hsio_npy_header *h, char *err, size_t errlen)
{
    cursor c = {s, s + n};
    unsigned seen = 0;
    if (!eat(&c, '{'))
        return hsio_fail(err, errlen, "bad .npy header: not a dictionary");
    while (!eat(&c, '}')) {
        char key[32];
        if (!parse_str(&c, key, sizeof key))
            return hsio_fail(err, errlen, "bad .npy header: expected a quoted key");
        if (!eat(&c, ':'))
            return hsio_fail(err, errlen, "bad .npy header: expected ':' after '%s'", key);
        unsigned bit;
        if (strcmp(key, "descr") == 0) {
            bit = 1;
            skip_ws(&c);
            if (c.p < c.end && *c.p == '[')
                return hsio_fail(err, errlen,
                                 "structured dtype is not supported: need float32 '<f4'");
            if (!parse_str(&c, h->descr, sizeof h->descr))
                return hsio_fail(err, errlen, "bad .npy header: 'descr' is not a short string");
        } else if (strcmp(key, "fortran_order") == 0) {
            bit = 2;
            if (parse_word(&c, "True"))
                h->fortran_order = 1;
            else if (parse_word(&c, "False"))
                h->fortran_order = 0;
            else
                return hsio_fail(err, errlen, "bad .npy header: 'fortran_order' is not True/False");
        } else if (strcmp(key, "shape") == 0) {
            bit = 4;
            if (parse_shape(&c, h, err, errlen) != 0)
                return -1;
        } else {
            return hsio_fail(err, errlen, "bad .npy header: unexpected key '%s'", key);
        }
        if (seen & bit)
            return hsio_fail(err, errlen, "bad .npy header: key '%s' appears twice", key);
        seen |= bit;
        if (!eat(&c, ',')) {
            if (!eat(&c, '}'))
                return hsio_fail(err, errlen, "bad .npy header: expected ',' or '}' after '%s'",
                                 key);
            break;
        }
    }
    skip_ws(&c);
    if (c.p != c.end)
        return hsio_fail(err, errlen, "bad .npy header: text after the dictionary");
    if (seen != 7)
        return hsio_fail(err, errlen, "bad .npy header: missing key '%s'",
                         !(seen & 1)   ? "descr"
                         : !(seen & 2) ? "fortran_order"
                                       : "shape");
    return 0;
}

int hsio_npy_read_header(FILE *f, hsio_npy_header *h, char *err, size_t errlen)
{
    unsigned char pre[12];
    memset(h, 0, sizeof *h);
    errno = 0;
    size_t got = fread(pre, 1, 8, f);
    if (ferror(f))
        return hsio_fail(err, errlen, "read error: %s", strerror(errno));
    if (got == 0)
        return hsio_fail(err, errlen, "empty file");
    if (got < 6 || memcmp(pre, "\x93NUMPY", 6) != 0)
        return hsio_fail(err, errlen, "not a .npy file (bad magic: want \\x93NUMPY)");
    if (got < 8)
        return hsio_fail(err, errlen, "truncated .npy header");
    h->major = pre[6];
    h->minor = pre[7];
    if (h->major < 1 || h->major > 3 || h->minor != 0)
        return hsio_fail(err, errlen,
                         "unsupported .npy format version %d.%d (supported: 1.0, 2.0, 3.0)",
                         h->major, h->minor);
    size_t lsize = h->major == 1 ? 2 : 4;
    if (fread(pre + 8, 1, lsize, f) != lsize)
        return hsio_fail(err, errlen, "truncated .npy header");
    uint32_t hlen = (uint32_t)pre[8] | (uint32_t)pre[9] << 8;
    if (lsize == 4)
        hlen |= (uint32_t)pre[10] << 16 | (uint32_t)pre[11] << 24;
    if (hlen > NPY_MAX_HEADER)
        return hsio_fail(err, errlen, "bad .npy header: header length %" PRIu32 " is implausible",
                         hlen);
    char *text = malloc(hlen ? hlen : 1);
    if (!text)
        return hsio_fail(err, errlen, "out of memory");
    size_t have = fread(text, 1, hlen, f);
    int rc;
    if (have != hlen)
        rc = hsio_fail(err, errlen,
                       "truncated .npy header (declares %" PRIu32 " bytes, file holds %zu)", hlen,
                       have);
    else if (memchr(text, '\0', hlen))
        rc = hsio_fail(err, errlen, "bad .npy header: contains a NUL byte");
    else
        rc = parse_dict(text, hlen, h, err, errlen);
    free(text);
    h->data_offset = 8 + lsize + hlen;
    return rc;
}

static void shape_str(const hsio_npy_header *h, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < h->ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ", %" PRIu64 : "%" PRIu64, h->shape[i]);
    if (n < cap)
        snprintf(buf + n, cap - n, h->ndim == 1 ? ",)" : ")");
}

int hsio_read_npy(FILE *f, size_t cols, hsio_table *out, char *err, size_t errlen)
{
    const hsio_spec spec = {cols, cols, 0, HSIO_NO_INT_COL};
    return hsio_read_npy_spec(f, &spec, out, err, errlen);
}

/* '<f8' data (rows x cols, little-endian) into v as floats, the integer column into bits:
 * -1 with the error for a value there that is not a whole number in 0 .. 2^32 - 1. */
static int narrow_f8(const unsigned char *raw, size_t rows, size_t cols, size_t int_col, float *v,
                     uint32_t *bits, char *err, size_t errlen)
{
    for (size_t i = 0; i < rows * cols; i++) {
        double d;
        memcpy(&d, raw + 8 * i, 8);
        if (!host_is_le())
            swap_bytes(&d, 1, 8);
        v[i] = (float)d;
        if (i % cols == int_col) {
            if (!(d >= 0.0 && d <= (double)UINT32_MAX && d == (double)(uint64_t)d))
                return hsio_fail(err, errlen,
                                 "row %zu, column %zu: %.17g is not a mask (a whole number in "
                                 "0..4294967295)",
                                 i / cols, int_col + 1, d);
            bits[i / cols] = (uint32_t)d;
        }
    }
    return 0;
}

int hsio_read_npy_spec(FILE *f, const hsio_spec *spec, hsio_table *out, char *err, size_t errlen)
{
    hsio_npy_header h;
    char shp[160];
    memset(out, 0, sizeof *out);
    if (hsio_npy_read_header(f, &h, err, errlen) != 0)
        return -1;
    const int f8 = spec->f8 && strcmp(h.descr, "<f8") == 0;
    if (strcmp(h.descr, "<f4") != 0 && !f8)
        return hsio_fail(err, errlen,
                         "dtype '%s' is not supported: need little-endian float32 '<f4'%s "
                         "(numpy: a.astype('<f4'))",
                         h.descr, spec->f8 ? " or float64 '<f8'" : "");
    if (h.fortran_order)
        return hsio_fail(
            err, errlen,
            "fortran_order is True: need a C-order array (numpy: np.ascontiguousarray(a))");
    shape_str(&h, shp, sizeof shp);
    if (h.ndim != 2 || h.shape[1] < spec->cmin || h.shape[1] > spec->cmax) {
        if (spec->cmin == spec->cmax)
            return hsio_fail(err, errlen, "shape %s is not (N, %zu)", shp, spec->cmin);
        return hsio_fail(err, errlen, "shape %s is not (N, %zu) to (N, %zu)", shp, spec->cmin,
                         spec->cmax);
    }
    if (h.shape[0] > HS_MAX_COUNT)
        return hsio_fail(err, errlen, "shape %s: more than %zu rows", shp, (size_t)HS_MAX_COUNT);
    const size_t cols = (size_t)h.shape[1];
    size_t rows = (size_t)h.shape[0];
    size_t bytes = rows * cols * (f8 ? sizeof(double) : sizeof(float));
    /* a seekable file is measured first, so a lying header cannot make us allocate */
    long here = ftell(f);
    if (here >= 0 && fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        if (fseek(f, here, SEEK_SET) != 0)
            return hsio_fail(err, errlen, "seek error");
        if (end >= here && (uint64_t)(end - here) < (uint64_t)bytes)
            return hsio_fail(
                err, errlen,
                "truncated data: shape %s needs %zu bytes after the header, file holds %ld", shp,
                bytes, end - here);
    }
    float *v = NULL;
    if (rows) {
        v = malloc(bytes);
        if (!v)
            return hsio_fail(err, errlen, "out of memory for shape %s", shp);
        size_t got = fread(v, 1, bytes, f);
        if (got != bytes) {
            free(v);
            return hsio_fail(
                err, errlen,
                "truncated data: shape %s needs %zu bytes after the header, file holds %zu", shp,
                bytes, got);
        }
    }
    if (fgetc(f) != EOF) {
        free(v);
        return hsio_fail(err, errlen, "file is longer than shape %s needs (%zu data bytes)", shp,
                         bytes);
    }
    if (ferror(f)) {
        free(v);
        return hsio_fail(err, errlen, "read error");
    }
    if (v && f8) { /* each double rounded once to float */
        uint32_t *bits = spec->int_col < cols ? malloc(rows * sizeof *bits) : NULL;
        float *nv = malloc(rows * cols * sizeof(float));
        if (!nv || (spec->int_col < cols && !bits) ||
            narrow_f8((const unsigned char *)v, rows, cols, spec->int_col, nv, bits, err, errlen) !=
                0) {
            const int nomem = !nv || (spec->int_col < cols && !bits);
            free(v);
            free(nv);
            free(bits);
            return nomem ? hsio_fail(err, errlen, "out of memory for shape %s", shp) : -1;
        }
        free(v);
        v = nv;
        out->bits = bits;
    } else if (v && !host_is_le()) {
        swap_bytes(v, rows * cols, sizeof(float));
    }
    if (v && !f8 && spec->int_col < cols) {
        uint32_t *bits = malloc(rows * sizeof *bits);
        for (size_t i = 0; bits && i < rows; i++) {
            const float x = v[i * cols + spec->int_col];
            if (!(x >= 0.0f && x <= 4294967040.0f && x == (float)(uint32_t)x)) {
                free(bits);
                free(v);
                return hsio_fail(err, errlen,
                                 "row %zu, column %zu: %.9g is not a mask (a whole number in "
                                 "0..4294967295)",
                                 i, spec->int_col + 1, (double)x);
            }
            bits[i] = (uint32_t)x;
        }
        if (!bits) {
            free(v);
            return hsio_fail(err, errlen, "out of memory for shape %s", shp);
        }
        out->bits = bits;
    }
    out->v = v;
    out->rows = rows;
    out->cols = cols;
    return 0;
}

int hsio_npy_write_header(FILE *f, const char *descr, int ndim, const size_t *shape)
{
    char dict[256];
    size_t n = (size_t)snprintf(dict, sizeof dict,
                                "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < ndim && n < sizeof dict; i++)
        n += (size_t)snprintf(dict + n, sizeof dict - n, i ? ", %zu" : "%zu", shape[i]);
    if (n < sizeof dict)
        n += (size_t)snprintf(dict + n, sizeof dict - n, ndim == 1 ? ",), }" : "), }");
    if (n >= sizeof dict)
        return -1;
    /* numpy pads the header with spaces so the data starts 64-byte aligned, '\n' last */
    size_t total = 10 + n + 1;
    size_t pad = (64 - total % 64) % 64;
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
    size_t hlen = n + pad + 1;
    pre[8] = (unsigned char)(hlen & 0xff);
    pre[9] = (unsigned char)(hlen >> 8);
    if (fwrite(pre, 1, 10, f) != 10 || fwrite(dict, 1, n, f) != n)
        return -1;
    for (size_t i = 0; i < pad; i++)
        if (fputc(' ', f) == EOF)
            return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

int hsio_write_le(FILE *f, const void *data, size_t elem_size, size_t count)
{
    if (count == 0)
        return 0;
    if (host_is_le() || elem_size == 1)
        return fwrite(data, elem_size, count, f) == count ? 0 : -1;
    unsigned char buf[4096];
    size_t per = sizeof buf / elem_size;
    const unsigned char *src = data;
    for (size_t i = 0; i < count; i += per) {
        size_t k = count - i < per ? count - i : per;
        memcpy(buf, src + i * elem_size, k * elem_size);
        swap_bytes(buf, k, elem_size);
        if (fwrite(buf, elem_size, k, f) != k)
            return -1;
    }
    return 0;
}

int hsio_write_npy(FILE *f, const char *descr, int ndim, const size_t *shape, const void *data,
                   size_t elem_size)
{
    size_t count = 1;
    for (int i = 0; i < ndim; i++)
        count *= shape[i];
    if (hsio_npy_write_header(f, descr, ndim, shape) != 0)
        return -1;
    return hsio_write_le(f, data, elem_size, count);
}
