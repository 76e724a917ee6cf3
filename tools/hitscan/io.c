/* SPDX-License-Identifier: MIT */
/* hitscan tool: format dispatch for input tables and the result writers (npy / CSV layouts). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitscan/types.h"
#include "io.h"

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

hsio_format hsio_format_parse(const char *name)
{
    if (ieq(name, "npy"))
        return HSIO_NPY;
    if (ieq(name, "csv"))
        return HSIO_CSV;
    return HSIO_NONE;
}

hsio_format hsio_format_of_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return HSIO_NONE;
    return hsio_format_parse(dot + 1);
}

int hsio_read_table(const char *path, size_t cols, hsio_table *out, char *err, size_t errlen)
{
    return hsio_read_table_opt(path, cols, HSIO_HEADER_AUTO, out, err, errlen);
}

int hsio_read_table_opt(const char *path, size_t cols, hsio_header header, hsio_table *out,
                        char *err, size_t errlen)
{
    return hsio_read_table_at(path, cols, header, NULL, out, err, errlen);
}

int hsio_read_table_at(const char *path, size_t cols, hsio_header header, const double *shift,
                       hsio_table *out, char *err, size_t errlen)
{
    const hsio_spec spec = {cols, cols, 0, HSIO_NO_INT_COL};
    return hsio_read_table_spec(path, &spec, header, shift, out, err, errlen);
}

int hsio_read_table_spec(const char *path, const hsio_spec *spec, hsio_header header,
                         const double *shift, hsio_table *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    hsio_format fmt = hsio_format_of_path(path);
    if (fmt == HSIO_NONE)
        return hsio_fail(err, errlen, "unknown file type: the name must end in .npy or .csv");
    FILE *f = fopen(path, "rb");
    if (!f)
        return hsio_fail(err, errlen, "cannot open: %s", strerror(errno));
    int rc = fmt == HSIO_NPY ? hsio_read_npy_spec(f, spec, out, err, errlen)
                             : hsio_read_csv_spec(f, spec, header, shift, out, err, errlen);
    fclose(f);
    if (rc == 0 && fmt == HSIO_NPY && shift)
        for (size_t i = 0; i < out->rows * out->cols; i++)
            out->v[i] = (float)((double)out->v[i] - shift[i % out->cols]);
    return rc;
}

/* %.9g round-trips float32; NaN / Inf spelled the way numpy and pandas read them back. */
static int put_float(FILE *f, float x)
{
    if (isnan(x))
        return fputs("nan", f) < 0 ? -1 : 0;
    if (isinf(x))
        return fputs(x > 0 ? "inf" : "-inf", f) < 0 ? -1 : 0;
    return fprintf(f, "%.9g", (double)x) < 0 ? -1 : 0;
}

#define CHUNK 512

int hsio_write_closest(FILE *f, hsio_format fmt, size_t m, const uint32_t *idx, const float *t,
                       const float *px, const float *py, const float *nx, const float *ny)
{
    return hsio_write_closest_at(f, fmt, m, idx, t, px, py, nx, ny, 0.0, 0.0);
}

/* A hit point's coordinate: put_float, or ox + x in full when there is an offset. */
static int put_point(FILE *f, float x, double o)
{
    if (o == 0.0 || !isfinite(x))
        return put_float(f, x);
    return fprintf(f, "%.17g", o + (double)x) < 0 ? -1 : 0;
}

int hsio_write_closest_at(FILE *f, hsio_format fmt, size_t m, const uint32_t *idx, const float *t,
                          const float *px, const float *py, const float *nx, const float *ny,
                          double ox, double oy)
{
    return hsio_write_closest_kind(f, fmt, m, idx, t, px, py, nx, ny, ox, oy, NULL);
}

/* ",K" after a row when there are kinds, then the line's end. */
static int end_row(FILE *f, const uint8_t *kind, size_t i)
{
    if (kind && fprintf(f, ",%u", (unsigned)kind[i]) < 0)
        return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

int hsio_write_closest_kind(FILE *f, hsio_format fmt, size_t m, const uint32_t *idx, const float *t,
                            const float *px, const float *py, const float *nx, const float *ny,
                            double ox, double oy, const uint8_t *kind)
{
    if (fmt == HSIO_CSV) {
        if (fputs(kind ? "query,idx,t,px,py,nx,ny,kind\n" : "query,idx,t,px,py,nx,ny\n", f) < 0)
            return -1;
        for (size_t i = 0; i < m; i++) {
            if (idx[i] == HS_NONE) {
                if (fprintf(f, "%zu,-1,nan,nan,nan,nan,nan", i) < 0 || end_row(f, kind, i) != 0)
                    return -1;
                continue;
            }
            const float v[5] = {t[i], px[i], py[i], nx[i], ny[i]};
            const double off[5] = {0.0, ox, oy, 0.0, 0.0};
            if (fprintf(f, "%zu,%lu", i, (unsigned long)idx[i]) < 0)
                return -1;
            for (int k = 0; k < 5; k++)
                if (fputc(',', f) == EOF || put_point(f, v[k], off[k]) != 0)
                    return -1;
            if (end_row(f, kind, i) != 0)
                return -1;
        }
        return 0;
    }
    const size_t cols = kind ? 7 : 6;
    const size_t shape[2] = {m, cols};
    if (hsio_npy_write_header(f, "<f8", 2, shape) != 0)
        return -1;
    double buf[CHUNK * 7];
    for (size_t i0 = 0; i0 < m; i0 += CHUNK) {
        size_t k = m - i0 < CHUNK ? m - i0 : CHUNK;
        for (size_t j = 0; j < k; j++) {
            size_t i = i0 + j;
            double *row = buf + cols * j;
            if (idx[i] == HS_NONE) {
                row[0] = -1.0;
                row[1] = row[2] = row[3] = row[4] = row[5] = (double)NAN;
            } else {
                row[0] = (double)idx[i];
                row[1] = (double)t[i];
                row[2] = ox != 0.0 ? ox + (double)px[i] : (double)px[i]; /* keeps -0 */
                row[3] = oy != 0.0 ? oy + (double)py[i] : (double)py[i];
                row[4] = (double)nx[i];
                row[5] = (double)ny[i];
            }
            if (kind)
                row[6] = (double)kind[i];
        }
        if (hsio_write_le(f, buf, sizeof(double), cols * k) != 0)
            return -1;
    }
    return 0;
}

int hsio_write_any(FILE *f, hsio_format fmt, size_t m, const uint8_t *hit)
{
    if (fmt == HSIO_CSV) {
        if (fputs("query,hit\n", f) < 0)
            return -1;
        for (size_t i = 0; i < m; i++)
            if (fprintf(f, "%zu,%d\n", i, hit[i] ? 1 : 0) < 0)
                return -1;
        return 0;
    }
    /* numpy bools are one byte, 0 or 1: normalise whatever non-zero the library used */
    const size_t shape[1] = {m};
    if (hsio_npy_write_header(f, "|b1", 1, shape) != 0)
        return -1;
    uint8_t buf[CHUNK];
    for (size_t i0 = 0; i0 < m; i0 += CHUNK) {
        size_t k = m - i0 < CHUNK ? m - i0 : CHUNK;
        for (size_t j = 0; j < k; j++)
            buf[j] = hit[i0 + j] ? 1 : 0;
        if (fwrite(buf, 1, k, f) != k)
            return -1;
    }
    return 0;
}

int hsio_write_count(FILE *f, hsio_format fmt, size_t m, const uint32_t *count)
{
    if (fmt == HSIO_CSV) {
        if (fputs("query,count\n", f) < 0)
            return -1;
        for (size_t i = 0; i < m; i++)
            if (fprintf(f, "%zu,%lu\n", i, (unsigned long)count[i]) < 0)
                return -1;
        return 0;
    }
    const size_t shape[1] = {m};
    return hsio_write_npy(f, "<u4", 1, shape, count, sizeof(uint32_t));
}

int hsio_write_all(FILE *f, hsio_format fmt, size_t m, const size_t *offsets, const uint32_t *idx,
                   const float *t)
{
    return hsio_write_all_kind(f, fmt, m, offsets, idx, t, NULL);
}

int hsio_write_all_kind(FILE *f, hsio_format fmt, size_t m, const size_t *offsets,
                        const uint32_t *idx, const float *t, const uint8_t *kind)
{
    size_t total = m ? offsets[m] - offsets[0] : 0;
    if (fmt == HSIO_CSV) {
        if (fputs(kind ? "query,idx,t,kind\n" : "query,idx,t\n", f) < 0)
            return -1;
        for (size_t i = 0; i < m; i++)
            for (size_t h = offsets[i]; h < offsets[i + 1]; h++)
                if (fprintf(f, "%zu,%lu,", i, (unsigned long)idx[h]) < 0 ||
                    put_float(f, t[h]) != 0 || end_row(f, kind, h) != 0)
                    return -1;
        return 0;
    }
    const size_t cols = kind ? 4 : 3;
    const size_t shape[2] = {total, cols};
    if (hsio_npy_write_header(f, "<f8", 2, shape) != 0)
        return -1;
    double buf[CHUNK * 4];
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t h = offsets[i]; h < offsets[i + 1]; h++) {
            double *row = buf + cols * k;
            row[0] = (double)i;
            row[1] = (double)idx[h];
            row[2] = (double)t[h];
            if (kind)
                row[3] = (double)kind[h];
            if (++k == CHUNK) {
                if (hsio_write_le(f, buf, sizeof(double), cols * k) != 0)
                    return -1;
                k = 0;
            }
        }
    return hsio_write_le(f, buf, sizeof(double), cols * k);
}

int hsio_write_pairs(FILE *f, hsio_format fmt, size_t k, const hsio_pair_cols *c)
{
    const int swept = c->t != NULL, shifts = c->sx != NULL;
    const size_t cols = 2u + (swept ? 4u : 0u) + (shifts ? 2u : 0u);
    if (fmt == HSIO_CSV) {
        if (fputs(swept ? "i,j,t,nx,ny,overlapping" : "i,j", f) < 0 ||
            fputs(shifts ? ",sx,sy\n" : "\n", f) < 0)
            return -1;
        for (size_t h = 0; h < k; h++) {
            if (fprintf(f, "%lu,%lu", (unsigned long)c->i[h], (unsigned long)c->j[h]) < 0)
                return -1;
            if (swept) {
                const float v[3] = {c->t[h], c->nx[h], c->ny[h]};
                for (int q = 0; q < 3; q++)
                    if (fputc(',', f) == EOF || put_float(f, v[q]) != 0)
                        return -1;
                if (fprintf(f, ",%d", c->overlapping[h] ? 1 : 0) < 0)
                    return -1;
            }
            if (shifts && fprintf(f, ",%d,%d", c->sx[h], c->sy[h]) < 0)
                return -1;
            if (fputc('\n', f) == EOF)
                return -1;
        }
        return 0;
    }
    const size_t shape[2] = {k, cols};
    if (hsio_npy_write_header(f, "<f8", 2, shape) != 0)
        return -1;
    double buf[CHUNK * 8];
    for (size_t h0 = 0; h0 < k; h0 += CHUNK) {
        const size_t m = k - h0 < CHUNK ? k - h0 : CHUNK;
        for (size_t q = 0; q < m; q++) {
            const size_t h = h0 + q;
            double *row = buf + cols * q;
            *row++ = (double)c->i[h];
            *row++ = (double)c->j[h];
            if (swept) {
                *row++ = (double)c->t[h];
                *row++ = (double)c->nx[h];
                *row++ = (double)c->ny[h];
                *row++ = c->overlapping[h] ? 1.0 : 0.0;
            }
            if (shifts) {
                *row++ = (double)c->sx[h];
                *row++ = (double)c->sy[h];
            }
        }
        if (hsio_write_le(f, buf, sizeof(double), cols * m) != 0)
            return -1;
    }
    return 0;
}
