/* SPDX-License-Identifier: MIT */
/* Tests of the hitscan tool's file readers and writers, message escaping and atomic output
 * files, and command-line counts (tools/hitscan: npy.c, csv.c, io.c, io_common.c, escape.c,
 * out_file.c, args.c). */
#define _XOPEN_SOURCE 700 /* symlink, link, setrlimit, umask */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "args.h"
#include "escape.h"
#include "hitscan/types.h"
#include "io.h"
#include "out_file.h"

/* ---- helpers --------------------------------------------------------------------------- */

/* A temporary stream holding exactly len bytes, rewound. */
static FILE *mem(const void *bytes, size_t len)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    if (len)
        assert_int_equal(fwrite(bytes, 1, len, f), len);
    rewind(f);
    return f;
}

/* Raw .npy bytes: version, header text with a declared length (SIZE_MAX: its real length),
 * then data. Returns the byte count; buf must be large enough. */
static size_t npy_bytes(unsigned char *buf, int major, int minor, const char *header,
                        size_t declared, const void *data, size_t len)
{
    size_t h = strlen(header), n = 0;
    if (declared == SIZE_MAX)
        declared = h;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = (unsigned char)minor;
    n = 8;
    buf[n++] = (unsigned char)(declared & 0xff);
    buf[n++] = (unsigned char)(declared >> 8 & 0xff);
    if (major != 1) {
        buf[n++] = (unsigned char)(declared >> 16 & 0xff);
        buf[n++] = (unsigned char)(declared >> 24 & 0xff);
    }
    memcpy(buf + n, header, h);
    n += h;
    if (len)
        memcpy(buf + n, data, len);
    return n + len;
}

static const float d12[12] = {0, 0, 1, 5, 5, 1, 9, 9, 1, 2, 2.5f, 1e-3f};

/* Reads an npy made from (version, header, data) with cols 3; returns the reader's status and
 * leaves its message in err. */
static int read_npy_case(int major, int minor, const char *header, size_t declared,
                         const void *data, size_t len, hsio_table *t, char *err, size_t errlen)
{
    static unsigned char buf[1 << 16];
    size_t n = npy_bytes(buf, major, minor, header, declared, data, len);
    FILE *f = mem(buf, n);
    err[0] = '\0';
    int rc = hsio_read_npy(f, 3, t, err, errlen);
    fclose(f);
    if (rc != 0) {
        assert_null(t->v); /* nothing leaked to the caller on failure */
        assert_int_equal(t->rows, 0);
    }
    return rc;
}

static void expect_npy_error(const char *header, size_t len, const char *needle)
{
    hsio_table t;
    char err[256];
    assert_int_equal(read_npy_case(1, 0, header, SIZE_MAX, d12, len, &t, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("header %s: message '%s' lacks '%s'", header, err, needle);
}

static int read_csv_hdr(const char *text, size_t cols, hsio_header header, hsio_table *t, char *err,
                        size_t errlen)
{
    FILE *f = mem(text, strlen(text));
    err[0] = '\0';
    int rc = hsio_read_csv_opt(f, cols, header, t, err, errlen);
    fclose(f);
    if (rc != 0) {
        assert_null(t->v);
        assert_null(t->line);
    }
    return rc;
}

static int read_csv_text(const char *text, size_t cols, hsio_table *t, char *err, size_t errlen)
{
    return read_csv_hdr(text, cols, HSIO_HEADER_AUTO, t, err, errlen);
}

static void expect_csv_error_hdr(const char *text, size_t cols, hsio_header header,
                                 const char *needle)
{
    hsio_table t;
    char err[256];
    assert_int_equal(read_csv_hdr(text, cols, header, &t, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("csv %s: message '%s' lacks '%s'", text, err, needle);
    if (strchr(err, '\n') || strchr(err, '\x1b'))
        fail_msg("csv %s: message '%s' is not one printable line", text, err);
}

static void expect_csv_error(const char *text, size_t cols, const char *needle)
{
    expect_csv_error_hdr(text, cols, HSIO_HEADER_AUTO, needle);
}

/* Whole contents of a stream. */
static char *contents(FILE *f, size_t *len)
{
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    *len = (size_t)n;
    return b;
}

/* ---- .npy reader ----------------------------------------------------------------------- */

static void npy_roundtrip(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    const size_t shape[2] = {4, 3};
    assert_int_equal(hsio_write_npy(f, "<f4", 2, shape, d12, sizeof(float)), 0);
    rewind(f);
    hsio_table t;
    char err[256];
    assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 4);
    assert_int_equal(t.cols, 3);
    assert_null(t.line);
    assert_memory_equal(t.v, d12, sizeof d12);
    hsio_table_free(&t);
    /* the wrong column count for the same file */
    rewind(f);
    assert_int_equal(hsio_read_npy(f, 4, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "shape (4, 3) is not (N, 4)"));
    fclose(f);
}

static void npy_empty_array(void **state)
{
    (void)state;
    hsio_table t;
    char err[256];
    assert_int_equal(read_npy_case(1, 0,
                                   "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }\n",
                                   SIZE_MAX, NULL, 0, &t, err, sizeof err),
                     0);
    assert_int_equal(t.rows, 0);
    assert_null(t.v);
    hsio_table_free(&t);
}

/* Header spellings numpy (or other writers) produce: versions 2 and 3, key order, quotes,
 * whitespace, Python 2 long ints, no trailing comma. */
static void npy_header_variants(void **state)
{
    (void)state;
    static const struct {
        int major;
        const char *h;
    } ok[] = {
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }\n"},
        {2, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }\n"},
        {3, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }\n"},
        {1, "{'shape': (4, 3), 'fortran_order': False, 'descr': '<f4'}"},
        {1, "{\"descr\":\"<f4\",\"fortran_order\":False,\"shape\":(4,3)}"},
        {1, "  {  'descr' : '<f4' ,\n 'fortran_order' : False , 'shape' : ( 4L , 3L , ) , }   \n"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        hsio_table t;
        char err[256];
        int rc =
            read_npy_case(ok[i].major, 0, ok[i].h, SIZE_MAX, d12, sizeof d12, &t, err, sizeof err);
        if (rc != 0)
            fail_msg("header %zu rejected: %s", i, err);
        assert_int_equal(t.rows, 4);
        assert_memory_equal(t.v, d12, sizeof d12);
        hsio_table_free(&t);
    }
}

static void npy_bad_magic_and_version(void **state)
{
    (void)state;
    hsio_table t;
    char err[256];
    const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }\n";
    FILE *f = mem("", 0);
    assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "empty file"));
    fclose(f);
    f = mem("\x93NUM", 4);
    assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad magic"));
    fclose(f);
    f = mem("x,y,r\n1,2,3\n", 12);
    assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a .npy file"));
    fclose(f);
    f = mem("\x93NUMPY\x01", 7);
    assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated .npy header"));
    fclose(f);
    f = mem("\x93NUMPY\x01\x00\x40", 9); /* half a length field */
    assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated .npy header"));
    fclose(f);
    static const int bad[][2] = {{0, 0}, {4, 0}, {1, 1}, {2, 5}, {255, 255}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(
            read_npy_case(bad[i][0], bad[i][1], h, SIZE_MAX, d12, sizeof d12, &t, err, sizeof err),
            -1);
        assert_non_null(strstr(err, "unsupported .npy format version"));
    }
}

static void npy_bad_dtype(void **state)
{
    (void)state;
    expect_npy_error("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", sizeof d12,
                     "dtype '<f8' is not supported");
    expect_npy_error("{'descr': '>f4', 'fortran_order': False, 'shape': (4, 3), }", sizeof d12,
                     "dtype '>f4' is not supported");
    expect_npy_error("{'descr': '<i4', 'fortran_order': False, 'shape': (4, 3), }", sizeof d12,
                     "dtype '<i4'");
    expect_npy_error("{'descr': '|u1', 'fortran_order': False, 'shape': (4, 3), }", sizeof d12,
                     "dtype '|u1'");
    expect_npy_error(
        "{'descr': [('x', '<f4'), ('y', '<f4')], 'fortran_order': False, 'shape': (4,), }",
        sizeof d12, "structured dtype");
    expect_npy_error("{'descr': '<f4', 'fortran_order': True, 'shape': (4, 3), }", sizeof d12,
                     "fortran_order is True");
}

static void npy_bad_shape(void **state)
{
    (void)state;
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (6, 2), }", sizeof d12,
                     "shape (6, 2) is not (N, 3)");
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }", sizeof d12,
                     "shape (12,) is not (N, 3)");
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3, 1), }", sizeof d12,
                     "shape (4, 3, 1) is not (N, 3)");
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", sizeof d12,
                     "shape () is not (N, 3)");
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (-4, 3), }", sizeof d12,
                     "non-negative integers");
    expect_npy_error(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999, 3), }",
        sizeof d12, "non-negative integers");
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (5000000000, 3), }",
                     sizeof d12, "more than");
    expect_npy_error(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3, 4, 5, 6, 7, 8, 9), }",
        sizeof d12, "too many dimensions");
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': [4, 3], }", sizeof d12,
                     "not a tuple");
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (4 3), }", sizeof d12,
                     "malformed 'shape'");
}

static void npy_truncated_and_trailing(void **state)
{
    (void)state;
    const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }\n";
    expect_npy_error(h, sizeof d12 - 1, "truncated data: shape (4, 3) needs 48 bytes");
    expect_npy_error(h, 0, "file holds 0");
    /* a header that promises a billion rows must fail on the size check, not allocate 12 GB */
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000, 3), }",
                     sizeof d12, "truncated data");
    hsio_table t;
    char err[256];
    unsigned char more[sizeof d12 + 1];
    memcpy(more, d12, sizeof d12);
    more[sizeof d12] = 0;
    assert_int_equal(read_npy_case(1, 0, h, SIZE_MAX, more, sizeof more, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "longer than shape (4, 3) needs"));
    /* declared header longer than the file */
    assert_int_equal(read_npy_case(1, 0, "{'descr': '<f4'", 200, NULL, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated .npy header (declares 200 bytes, file holds 15)"));
    /* a 4-byte length field from version 2 that is absurd */
    assert_int_equal(read_npy_case(2, 0, "{}", 0x7fffffff, NULL, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "implausible"));
}

static void npy_header_garbage(void **state)
{
    (void)state;
    static const struct {
        const char *h, *needle;
    } cases[] = {
        {"hello, world\n", "not a dictionary"},
        {"", "not a dictionary"},
        {"{", "expected a quoted key"},
        {"{descr: '<f4'}", "expected a quoted key"},
        {"{'descr' '<f4'}", "expected ':'"},
        {"{'descr': '<f4' 'shape': (4, 3)}", "expected ',' or '}'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), 'x': 1}", "unexpected key 'x'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (4, 3)}", "twice"},
        {"{'descr': '<f4', 'shape': (4, 3)}", "missing key 'fortran_order'"},
        {"{'fortran_order': False, 'shape': (4, 3)}", "missing key 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3)} trailing", "text after"},
        {"{'descr': '<f4', 'fortran_order': maybe, 'shape': (4, 3)}", "True/False"},
        {"{'descr': 4, 'fortran_order': False, 'shape': (4, 3)}", "'descr' is not a short string"},
        {"{'descr': '<f4\\x', 'fortran_order': False, 'shape': (4, 3)}", "'descr'"},
        {"{'descr': 'a very long descr string that does not fit', 'fortran_order': False, "
         "'shape': (4, 3)}",
         "'descr'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3", "malformed 'shape'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_npy_error(cases[i].h, sizeof d12, cases[i].needle);
    /* a NUL byte inside the declared header */
    hsio_table t;
    char err[256];
    unsigned char buf[128];
    const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }\n";
    size_t n = npy_bytes(buf, 1, 0, h, SIZE_MAX, NULL, 0);
    buf[20] = '\0';
    FILE *f = mem(buf, n);
    assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "NUL"));
    fclose(f);
}

/* Every prefix of a valid file fails cleanly (no crash, no success), and so does every
 * single-byte corruption of its header: the reader must never read out of bounds. */
static void npy_every_prefix_and_flip(void **state)
{
    (void)state;
    unsigned char buf[256], tmp[256];
    const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }\n";
    size_t n = npy_bytes(buf, 1, 0, h, SIZE_MAX, d12, sizeof d12);
    char err[256];
    for (size_t len = 0; len < n; len++) {
        hsio_table t;
        FILE *f = mem(buf, len);
        assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), -1);
        assert_true(strlen(err) > 0);
        fclose(f);
    }
    size_t ok = 0;
    for (size_t pos = 0; pos < n - sizeof d12; pos++)
        for (int bit = 0; bit < 8; bit++) {
            hsio_table t;
            memcpy(tmp, buf, n);
            tmp[pos] ^= (unsigned char)(1u << bit);
            FILE *f = mem(tmp, n);
            int rc = hsio_read_npy(f, 3, &t, err, sizeof err);
            fclose(f);
            if (rc == 0) { /* e.g. a space turned into another blank: still the same array */
                assert_int_equal(t.rows, 4);
                assert_memory_equal(t.v, d12, sizeof d12);
                ok++;
                hsio_table_free(&t);
            }
        }
    print_message("npy header bit flips: %zu of %zu still parse (to the same array)\n", ok,
                  (n - sizeof d12) * 8);
}

/* ---- CSV reader ------------------------------------------------------------------------ */

static void csv_good(void **state)
{
    (void)state;
    hsio_table t;
    char err[256];
    const char *text = "x, y, r\r\n"
                       "1,2,3\r\n"
                       "\n"
                       "  -4.5 ,\t5e2, 0x1p-2  \n"
                       "   \n"
                       "nan,inf,-inf\n"
                       "1e-50,-0,7"; /* no final newline; 1e-50 underflows quietly */
    assert_int_equal(read_csv_text(text, 3, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 4);
    assert_int_equal(t.cols, 3);
    const float want[] = {1, 2, 3, -4.5f, 500, 0.25f};
    assert_memory_equal(t.v, want, sizeof want);
    assert_true(isnan(t.v[6]));
    assert_true(isinf(t.v[7]) && t.v[7] > 0);
    assert_true(isinf(t.v[8]) && t.v[8] < 0);
    assert_true(t.v[9] >= 0.0f && t.v[9] < 1e-37f);
    assert_true(t.v[10] == 0.0f && signbit(t.v[10]));
    assert_true(t.v[11] == 7.0f);
    const size_t lines[] = {2, 4, 6, 7};
    for (int i = 0; i < 4; i++)
        assert_int_equal(t.line[i], lines[i]);
    hsio_table_free(&t);
    assert_null(t.v);

    /* no header: the first line is data */
    assert_int_equal(read_csv_text("0,0,1,1\n2,2,3,3\n", 4, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 2);
    assert_int_equal(t.line[0], 1);
    assert_true(t.v[7] == 3.0f);
    hsio_table_free(&t);

    /* a header alone: an empty table */
    assert_int_equal(read_csv_text("ax,ay,bx,by\n\n", 4, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 0);
    assert_null(t.v);
    hsio_table_free(&t);
}

/* The walls' layout (hsio_spec): 4 to 6 columns, the count of the first line; the sixth an
 * exact mask (decimal or hex); .npy '<f8' too, its mask column whole numbers. */
static const hsio_spec walls_spec = {4, 6, 1, 5};

static int read_spec_csv(const char *text, hsio_table *t, char *err, size_t errlen)
{
    FILE *f = mem(text, strlen(text));
    const int rc = hsio_read_csv_spec(f, &walls_spec, HSIO_HEADER_AUTO, NULL, t, err, errlen);
    fclose(f);
    return rc;
}

static void spec_readers(void **state)
{
    (void)state;
    hsio_table t;
    char err[256];
    assert_int_equal(read_spec_csv("ax,ay,bx,by,w,m\n1,2,3,4,0.5,4294967295\n5,6,7,8,0,0xff\n", &t,
                                   err, sizeof err),
                     0);
    assert_int_equal(t.rows, 2);
    assert_int_equal(t.cols, 6);
    assert_non_null(t.bits);
    assert_int_equal(t.bits[0], 4294967295u); /* exact, where float32 would round */
    assert_int_equal(t.bits[1], 255);
    assert_true(t.v[4] == 0.5f && t.v[6 + 3] == 8.0f);
    hsio_table_free(&t);
    assert_int_equal(read_spec_csv("1,2,3,4\n5,6,7,8\n", &t, err, sizeof err), 0);
    assert_int_equal(t.cols, 4);
    assert_null(t.bits);
    hsio_table_free(&t);
    assert_int_equal(read_spec_csv("1,2,3,4\n5,6,7,8,9\n", &t, err, sizeof err), -1);
    assert_string_equal(err, "row 1 (line 2): 5 fields, expected 4, as the first line");
    assert_int_equal(read_spec_csv("1,2,3\n", &t, err, sizeof err), -1);
    assert_string_equal(err, "row 0 (line 1): 3 fields, expected 4 to 6");
    assert_int_equal(read_spec_csv("a,b,c,d,e,f,g\n", &t, err, sizeof err), -1);
    assert_string_equal(err, "line 1: header has 7 fields, expected 4 to 6");
    static const char *const bad_masks[] = {"4294967296", "-1", "+1", " 0x", "1.5", "1e3", "0x1g"};
    for (size_t i = 0; i < sizeof bad_masks / sizeof bad_masks[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "1,2,3,4,0,%s\n", bad_masks[i]);
        assert_int_equal(read_spec_csv(text, &t, err, sizeof err), -1);
        assert_non_null(strstr(err, "row 0 (line 1), column 6: '"));
        assert_non_null(strstr(err, "' is not a mask"));
    }
    /* .npy: '<f8' (2, 6) with an exact mask; a mask that is not a whole number */
    const double d[12] = {1, 2, 3, 4, 0.25, 4294967295.0, 5, 6, 7, 8, 0, 3};
    static unsigned char buf[1024];
    size_t n = npy_bytes(buf, 1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 6), }\n",
                         SIZE_MAX, d, sizeof d);
    FILE *f = mem(buf, n);
    assert_int_equal(hsio_read_npy_spec(f, &walls_spec, &t, err, sizeof err), 0);
    fclose(f);
    assert_int_equal(t.rows, 2);
    assert_int_equal(t.bits[0], 4294967295u);
    assert_int_equal(t.bits[1], 3);
    assert_true(t.v[4] == 0.25f && t.v[6] == 5.0f);
    hsio_table_free(&t);
    double d2[12];
    memcpy(d2, d, sizeof d);
    d2[11] = 2.5;
    n = npy_bytes(buf, 1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 6), }\n",
                  SIZE_MAX, d2, sizeof d2);
    f = mem(buf, n);
    assert_int_equal(hsio_read_npy_spec(f, &walls_spec, &t, err, sizeof err), -1);
    fclose(f);
    assert_string_equal(err,
                        "row 1, column 6: 2.5 is not a mask (a whole number in 0..4294967295)");
    /* the plain reader still takes '<f4' only */
    n = npy_bytes(buf, 1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 6), }\n",
                  SIZE_MAX, d, sizeof d);
    f = mem(buf, n);
    assert_int_equal(hsio_read_npy(f, 6, &t, err, sizeof err), -1);
    fclose(f);
    assert_non_null(strstr(err, "need little-endian float32 '<f4' (numpy"));
}

static void csv_errors(void **state)
{
    (void)state;
    expect_csv_error("", 3, "empty file");
    expect_csv_error("\n\r\n  \t\n", 3, "empty file");
    expect_csv_error("x,y\n1,2\n", 3, "line 1: header has 2 fields, expected 3");
    expect_csv_error("x,y,r\n1,2,3\n\n4,5\n", 3, "row 1 (line 4): 2 fields, expected 3");
    expect_csv_error("1,2,3,4\n", 3, "row 0 (line 1): 4 fields, expected 3");
    expect_csv_error("1,2,3,\n", 3, "row 0 (line 1): 4 fields, expected 3");
    expect_csv_error("1,2,3\n4,five,6\n", 3, "row 1 (line 2), column 2: 'five' is not a number");
    expect_csv_error("1,2,3\n4,5,6x\n", 3, "row 1 (line 2), column 3: '6x' is not a number");
    expect_csv_error("1,2,3\n4,5,1 2\n", 3, "row 1 (line 2), column 3: '1 2' is not a number");
    expect_csv_error("1,,3\n", 3, "row 0 (line 1), column 2: empty field");
    expect_csv_error("1,2,3\n,2,3\n", 3, "row 1 (line 2), column 1: empty field");
    expect_csv_error("1,2,\n3\n", 3,
                     "row 0 (line 1), column 3: empty field"); /* never reads line 2 */
    expect_csv_error("1,2,1e39\n", 3, "row 0 (line 1), column 3: '1e39' is out of float32 range");
    expect_csv_error("1,2,-1e39\n", 3, "out of float32 range");
    expect_csv_error("x;y;r\n1;2;3\n", 3, "header has 1 fields");
    char longf[300];
    memset(longf, '1', sizeof longf);
    memcpy(longf, "1,2,", 4);
    longf[sizeof longf - 2] = '\n';
    longf[sizeof longf - 1] = '\0';
    expect_csv_error(longf, 3, "row 0 (line 1), column 3: field longer than 127 characters");
    /* a NUL inside a field */
    hsio_table t;
    char err[256];
    FILE *f = mem("1,2,3\n4,\0,6\n", 12);
    assert_int_equal(hsio_read_csv(f, 3, &t, err, sizeof err), -1);
    assert_string_equal(err, "row 1 (line 2), column 2: '\\x00' is not a number");
    fclose(f);
    /* control bytes and broken UTF-8 in a field are escaped; valid UTF-8 is kept */
    expect_csv_error("1,2,3\n4,\x1b[31m\xc3\xa9\xc3,6\n", 3,
                     "row 1 (line 2), column 2: '\\x1b[31m\xc3\xa9\\xc3' is not a number");
    expect_csv_error("1,2,3\n4,5\r6,7\n", 3, "column 2: '5\\x0d6' is not a number");
    /* a long excerpt is cut, with a mark */
    expect_csv_error(
        "1,2,3\n4,5,\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\n", 3,
        "column 3: '\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b...' is not");
}

/* The header rule: a first row is a header only if every field is a non-empty non-number;
 * anything else is data, parsed strictly, so no data row is ever dropped silently. */
static void csv_header_rule(void **state)
{
    (void)state;
    hsio_table t;
    char err[256];
    static const struct {
        const char *text;
        size_t rows;
        float first;
    } auto_ok[] = {
        {"\xef\xbb\xbf"
         "1,2,3\n4,5,6\n",
         2, 1}, /* BOM, no header */
        {"\xef\xbb\xbf"
         "x,y,r\n4,5,6\n",
         1, 4},                                  /* BOM, header */
        {"x_1, y-2 ,r\n4,5,6\n", 1, 4},          /* names with digits inside */
        {"-x,+y,e\n4,5,6\n", 1, 4},              /* a sign or an 'e' before a letter */
        {"inference,nano,x\n4,5,6\n", 1, 4},     /* words that strtof reads a prefix of */
        {"\xff\x1b,y,r\n4,5,6\n", 1, 4},         /* names are not checked */
        {"\n  \nnan,inf,-inf\n4,5,6\n", 2, NAN}, /* number spellings are data */
        {"0x1p-2,1,2\n", 1, 0.25f},
    };
    for (size_t i = 0; i < sizeof auto_ok / sizeof auto_ok[0]; i++) {
        if (read_csv_text(auto_ok[i].text, 3, &t, err, sizeof err) != 0)
            fail_msg("case %zu: %s", i, err);
        assert_int_equal(t.rows, auto_ok[i].rows);
        if (isnan(auto_ok[i].first))
            assert_true(isnan(t.v[0]));
        else
            assert_true(t.v[0] == auto_ok[i].first);
        hsio_table_free(&t);
    }
    /* first rows that were silently dropped as headers: now errors naming row and column */
    expect_csv_error(",2,3\n4,5,6\n", 3, "row 0 (line 1), column 1: empty field");
    expect_csv_error(",,\n4,5,6\n", 3, "row 0 (line 1), column 1: empty field");
    expect_csv_error("x,,r\n4,5,6\n", 3, "row 0 (line 1), column 1: 'x' is not a number");
    expect_csv_error("1e39,2,3\n4,5,6\n", 3,
                     "row 0 (line 1), column 1: '1e39' is out of float32 range");
    expect_csv_error("\xef\xbb\xbf"
                     "1e39,2,3\n",
                     3, "row 0 (line 1), column 1: '1e39' is out");
    expect_csv_error("-1e999,2,3\n", 3, "column 1: '-1e999' is out of float32 range");
    char longf[300];
    memset(longf, '7', 200);
    snprintf(longf + 200, sizeof longf - 200, ",2,3\n4,5,6\n");
    expect_csv_error(longf, 3, "row 0 (line 1), column 1: field longer than 127 characters");
    expect_csv_error("1st,2nd,3rd\n4,5,6\n", 3,
                     "row 0 (line 1), column 1: '1st' is not a number (if this line is a header, "
                     "give --header)");
    expect_csv_error("x,y,5m\n4,5,6\n", 3, "column 1: 'x' is not a number");
    expect_csv_error("-.5x,y,r\n", 3, "column 1: '-.5x' is not a number");
    expect_csv_error("\xff\xfex\0", 3, "UTF-16 text is not supported");
    expect_csv_error("\xfe\xff\0x", 3, "UTF-16 text is not supported");
    expect_csv_error("\xef\xbb\xbf", 3, "empty file");

    /* --header: the first non-blank line is a header whatever it holds (but has cols fields) */
    assert_int_equal(read_csv_hdr("\n1,2,3\n4,5,6\n", 3, HSIO_HEADER_YES, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 1);
    assert_true(t.v[0] == 4.0f);
    assert_int_equal(t.line[0], 3);
    hsio_table_free(&t);
    assert_int_equal(read_csv_hdr("1st,,3rd\n", 3, HSIO_HEADER_YES, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 0);
    expect_csv_error_hdr("1,2\n4,5,6\n", 3, HSIO_HEADER_YES, "line 1: header has 2 fields");
    /* --no-header: the first line is data */
    assert_int_equal(read_csv_hdr("1,2,3\n", 3, HSIO_HEADER_NO, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 1);
    hsio_table_free(&t);
    expect_csv_error_hdr("x,y,r\n1,2,3\n", 3, HSIO_HEADER_NO,
                         "row 0 (line 1), column 1: 'x' is not a number");
    expect_csv_error_hdr("x,y,r\n1,2,3\n", 3, HSIO_HEADER_NO, "number"); /* no --header hint */
    assert_int_equal(read_csv_hdr("x,y,r\n1,2,3\n", 3, HSIO_HEADER_NO, &t, err, sizeof err), -1);
    assert_null(strstr(err, "--header"));
}

/* Every prefix of a valid CSV either parses to a prefix of its rows or fails with a message. */
static void csv_every_prefix(void **state)
{
    (void)state;
    const char *text = "x,y,r\n10,0,2\n20, 0, 2\r\n0,10,1\n\n5,5,0e0\n";
    size_t n = strlen(text);
    for (size_t len = 0; len <= n; len++) {
        hsio_table t;
        char err[256];
        FILE *f = mem(text, len);
        int rc = hsio_read_csv(f, 3, &t, err, sizeof err);
        fclose(f);
        if (rc == 0) {
            assert_true(t.rows <= 4);
            hsio_table_free(&t);
        } else {
            assert_true(strlen(err) > 0);
        }
    }
}

/* ---- dispatch by extension ------------------------------------------------------------- */

static void table_by_extension(void **state)
{
    (void)state;
    assert_int_equal(hsio_format_of_path("a/b.npy"), HSIO_NPY);
    assert_int_equal(hsio_format_of_path("B.NPY"), HSIO_NPY);
    assert_int_equal(hsio_format_of_path("x.Csv"), HSIO_CSV);
    assert_int_equal(hsio_format_of_path("x.npy.txt"), HSIO_NONE);
    assert_int_equal(hsio_format_of_path("dir.npy/file"), HSIO_NONE);
    assert_int_equal(hsio_format_of_path("npy"), HSIO_NONE);
    assert_int_equal(hsio_format_parse("CSV"), HSIO_CSV);
    assert_int_equal(hsio_format_parse("npz"), HSIO_NONE);

    const char *csv = "test_cli_io_tmp.csv", *npy = "test_cli_io_tmp.NPY",
               *txt = "test_cli_io_tmp.txt";
    FILE *f = fopen(csv, "wb");
    assert_non_null(f);
    fputs("x,y,r\n1,2,3\n", f);
    fclose(f);
    f = fopen(npy, "wb");
    assert_non_null(f);
    const size_t shape[2] = {4, 3};
    assert_int_equal(hsio_write_npy(f, "<f4", 2, shape, d12, sizeof(float)), 0);
    fclose(f);
    f = fopen(txt, "wb");
    assert_non_null(f);
    fclose(f);

    hsio_table t;
    char err[256];
    assert_int_equal(hsio_read_table(csv, 3, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 1);
    assert_non_null(t.line);
    hsio_table_free(&t);
    assert_int_equal(hsio_read_table(npy, 3, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 4);
    assert_null(t.line);
    hsio_table_free(&t);
    assert_int_equal(hsio_read_table(txt, 3, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown file type"));
    assert_int_equal(hsio_read_table("test_cli_io_no_such_file.npy", 3, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open"));
    remove(csv);
    remove(npy);
    remove(txt);
}

/* ---- writers --------------------------------------------------------------------------- */

/* Parses back a written .npy: header fields, 64-byte alignment, data size. Returns the data. */
static const unsigned char *check_npy(const char *bytes, size_t len, const char *descr, int ndim,
                                      const uint64_t *shape, size_t elem)
{
    FILE *f = mem(bytes, len);
    hsio_npy_header h;
    char err[256];
    if (hsio_npy_read_header(f, &h, err, sizeof err) != 0)
        fail_msg("written header does not parse: %s", err);
    fclose(f);
    assert_int_equal(h.major, 1);
    assert_string_equal(h.descr, descr);
    assert_false(h.fortran_order);
    assert_int_equal(h.ndim, ndim);
    size_t count = 1;
    for (int i = 0; i < ndim; i++) {
        assert_int_equal(h.shape[i], shape[i]);
        count *= (size_t)shape[i];
    }
    assert_int_equal(h.data_offset % 64, 0);
    assert_int_equal(bytes[h.data_offset - 1], '\n');
    assert_int_equal(len, h.data_offset + count * elem);
    return (const unsigned char *)bytes + h.data_offset;
}

static const uint32_t c_idx[3] = {7, HS_NONE, 4000000000u};
static const float c_t[3] = {0.25f, NAN, 1.0f / 3.0f};
static const float c_px[3] = {1, NAN, -1e-30f}, c_py[3] = {2, NAN, 3e30f};
static const float c_nx[3] = {-0.0f, NAN, 0.6f}, c_ny[3] = {-1, NAN, 0.8f};

static void write_closest_csv(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(hsio_write_closest(f, HSIO_CSV, 3, c_idx, c_t, c_px, c_py, c_nx, c_ny), 0);
    size_t len;
    char *s = contents(f, &len);
    assert_string_equal(s, "query,idx,t,px,py,nx,ny\n"
                           "0,7,0.25,1,2,-0,-1\n"
                           "1,-1,nan,nan,nan,nan,nan\n"
                           "2,4000000000,0.333333343,-1e-30,2.99999989e+30,0.600000024,"
                           "0.800000012\n");
    /* %.9g round-trips float32 */
    assert_true(strtof("0.333333343", NULL) == c_t[2]);
    assert_true(strtof("2.99999989e+30", NULL) == c_py[2]);
    assert_true(strtof("-1e-30", NULL) == c_px[2]);
    free(s);
    fclose(f);
}

static void write_closest_npy(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(hsio_write_closest(f, HSIO_NPY, 3, c_idx, c_t, c_px, c_py, c_nx, c_ny), 0);
    size_t len;
    char *s = contents(f, &len);
    const uint64_t shape[2] = {3, 6};
    const unsigned char *d = check_npy(s, len, "<f8", 2, shape, 8);
    double v[18];
    memcpy(v, d, sizeof v); /* this test runs on little-endian hosts */
    assert_true(v[0] == 7.0 && v[1] == 0.25 && v[2] == 1.0 && v[3] == 2.0);
    assert_true(v[4] == 0.0 && signbit(v[4]) && v[5] == -1.0);
    assert_true(v[6] == -1.0);
    for (int k = 7; k < 12; k++)
        assert_true(isnan(v[k]));
    assert_true(v[12] == 4000000000.0); /* exact: why idx is a float64 column */
    assert_true(v[13] == (double)(1.0f / 3.0f));
    free(s);
    fclose(f);
}

static void write_any_count(void **state)
{
    (void)state;
    const uint8_t hit[4] = {0, 1, 2, 255};
    const uint32_t cnt[4] = {0, 1, 70000, UINT32_MAX};
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(hsio_write_any(f, HSIO_NPY, 4, hit), 0);
    size_t len;
    char *s = contents(f, &len);
    const uint64_t shape1[1] = {4};
    const unsigned char *d = check_npy(s, len, "|b1", 1, shape1, 1);
    assert_memory_equal(d, "\0\1\1\1", 4);               /* numpy bools are exactly 0 or 1 */
    assert_non_null(strstr(s + 10, "'shape': (4,), }")); /* past the version's NUL */
    free(s);
    fclose(f);

    f = tmpfile();
    assert_int_equal(hsio_write_any(f, HSIO_CSV, 4, hit), 0);
    s = contents(f, &len);
    assert_string_equal(s, "query,hit\n0,0\n1,1\n2,1\n3,1\n");
    free(s);
    fclose(f);

    f = tmpfile();
    assert_int_equal(hsio_write_count(f, HSIO_NPY, 4, cnt), 0);
    s = contents(f, &len);
    d = check_npy(s, len, "<u4", 1, shape1, 4);
    assert_memory_equal(d, cnt, sizeof cnt);
    free(s);
    fclose(f);

    f = tmpfile();
    assert_int_equal(hsio_write_count(f, HSIO_CSV, 4, cnt), 0);
    s = contents(f, &len);
    assert_string_equal(s, "query,count\n0,0\n1,1\n2,70000\n3,4294967295\n");
    free(s);
    fclose(f);
}

static void write_all(void **state)
{
    (void)state;
    /* 3 queries: 2 hits, none, 1 hit; more than one writer chunk in the big case below */
    const size_t off[4] = {0, 2, 2, 3};
    const uint32_t idx[3] = {5, 1, 9};
    const float t[3] = {0.5f, 0.75f, -2.0f};
    FILE *f = tmpfile();
    assert_int_equal(hsio_write_all(f, HSIO_CSV, 3, off, idx, t), 0);
    size_t len;
    char *s = contents(f, &len);
    assert_string_equal(s, "query,idx,t\n0,5,0.5\n0,1,0.75\n2,9,-2\n");
    free(s);
    fclose(f);

    size_t m = 1000, total = 0;
    size_t *o = malloc((m + 1) * sizeof *o);
    assert_non_null(o);
    o[0] = 0;
    for (size_t i = 0; i < m; i++)
        o[i + 1] = o[i] + i % 3;
    total = o[m];
    uint32_t *id = malloc(total * sizeof *id);
    float *tt = malloc(total * sizeof *tt);
    assert_true(id && tt);
    for (size_t h = 0; h < total; h++) {
        id[h] = (uint32_t)(h * 7);
        tt[h] = (float)h * 0.5f;
    }
    f = tmpfile();
    assert_int_equal(hsio_write_all(f, HSIO_NPY, m, o, id, tt), 0);
    s = contents(f, &len);
    const uint64_t shape[2] = {total, 3};
    const unsigned char *d = check_npy(s, len, "<f8", 2, shape, 8);
    for (size_t i = 0, h = 0; i < m; i++)
        for (; h < o[i + 1]; h++) {
            double row[3];
            memcpy(row, d + 24 * h, sizeof row);
            assert_true(row[0] == (double)i && row[1] == (double)id[h] && row[2] == (double)tt[h]);
        }
    free(s);
    fclose(f);
    free(o);
    free(id);
    free(tt);
}

static void write_empty(void **state)
{
    (void)state;
    const size_t off[1] = {0};
    FILE *f = tmpfile();
    assert_int_equal(hsio_write_all(f, HSIO_NPY, 0, off, NULL, NULL), 0);
    size_t len;
    char *s = contents(f, &len);
    const uint64_t shape[2] = {0, 3};
    check_npy(s, len, "<f8", 2, shape, 8);
    free(s);
    fclose(f);
    f = tmpfile();
    assert_int_equal(hsio_write_closest(f, HSIO_NPY, 0, NULL, NULL, NULL, NULL, NULL, NULL), 0);
    s = contents(f, &len);
    const uint64_t shape6[2] = {0, 6};
    check_npy(s, len, "<f8", 2, shape6, 8);
    free(s);
    fclose(f);
    /* a written (0, 3) float32 array reads back as an empty table */
    f = tmpfile();
    const size_t z[2] = {0, 3};
    assert_int_equal(hsio_write_npy(f, "<f4", 2, z, NULL, 4), 0);
    rewind(f);
    hsio_table t;
    char err[256];
    assert_int_equal(hsio_read_npy(f, 3, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 0);
    fclose(f);
}

/* ---- message escaping ------------------------------------------------------------------ */

static void expect_escape(const char *src, size_t len, const char *want)
{
    char buf[256];
    size_t n = hsio_escape(buf, sizeof buf, src, len);
    if (strcmp(buf, want) != 0)
        fail_msg("escaped to '%s', want '%s'", buf, want);
    assert_int_equal(n, strlen(want));
    /* escaping twice changes nothing */
    char again[256];
    hsio_escape(again, sizeof again, buf, n);
    assert_string_equal(again, buf);
}

static void escape_bytes(void **state)
{
    (void)state;
    expect_escape("plain text, 1.5 \\ ok", 20, "plain text, 1.5 \\ ok");
    expect_escape("a\nb\r\tc", 6, "a\\x0ab\\x0d\\x09c");
    expect_escape("\x1b[2J\x7f", 5, "\\x1b[2J\\x7f");
    expect_escape("a\0b", 3, "a\\x00b");
    /* well-formed UTF-8 is kept: 2, 3 and 4 bytes */
    expect_escape("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9,
                  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    /* broken UTF-8: lone lead, stray continuation, overlong, surrogate, above U+10FFFF, cut */
    expect_escape("\xc3x", 2, "\\xc3x");
    expect_escape("\x80", 1, "\\x80");
    expect_escape("\xc0\xaf", 2, "\\xc0\\xaf");
    expect_escape("\xe0\x80\xaf", 3, "\\xe0\\x80\\xaf");
    expect_escape("\xed\xa0\x80", 3, "\\xed\\xa0\\x80");
    expect_escape("\xf4\x90\x80\x80", 4, "\\xf4\\x90\\x80\\x80");
    expect_escape("\xf0\x9f\x98", 3, "\\xf0\\x9f\\x98");
    expect_escape("\xff\xfe", 2, "\\xff\\xfe");
    /* C1 controls (U+009B is a terminal's CSI) and the Unicode line separators */
    expect_escape("\xc2\x9b", 2, "\\xc2\\x9b");
    expect_escape("\xc2\xa0", 2, "\xc2\xa0"); /* U+00A0 is printable */
    expect_escape("\xe2\x80\xa8\xe2\x80\xa9", 6, "\\xe2\\x80\\xa8\\xe2\\x80\\xa9");
    /* a small buffer: cut at a whole escape, the full length still reported */
    char small[6];
    assert_int_equal(hsio_escape(small, sizeof small, "\x1b\x1b", 2), 8);
    assert_string_equal(small, "\\x1b");
    assert_int_equal(hsio_escape(small, sizeof small, "abcdefgh", 8), 8);
    assert_string_equal(small, "abcde");
    assert_int_equal(hsio_escape(NULL, 0, "\n", 1), 4);
    /* hsio_fail escapes what it formats */
    char err[64];
    assert_int_equal(hsio_fail(err, sizeof err, "key '%s'", "a\nb\x1b"), -1);
    assert_string_equal(err, "key 'a\\x0ab\\x1b'");
}

static void escape_stream(void **state)
{
    (void)state;
    /* longer than one slice, with multi-byte characters across the slice boundaries */
    char src[400];
    size_t n = 0;
    while (n + 6 < sizeof src) {
        memcpy(src + n, "\xe2\x82\xac\n\xc3", 5);
        n += 5;
    }
    src[n] = '\0';
    char want[2048];
    hsio_escape(want, sizeof want, src, n);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(hsio_fputs_escaped(src, f), 0);
    size_t len;
    char *got = contents(f, &len);
    assert_string_equal(got, want);
    assert_null(strchr(got, '\n'));
    free(got);
    fclose(f);
}

/* ---- command-line counts ---------------------------------------------------------------- */

static void expect_count(const char *s, size_t max, hsio_count_status want, size_t want_v)
{
    size_t v = 12345;
    hsio_count_status got = hsio_parse_count(s, max, &v);
    if (got != want)
        fail_msg("'%s': status %d, want %d", s, (int)got, (int)want);
    assert_int_equal(v, want == HSIO_COUNT_OK ? want_v : 12345); /* untouched on failure */
}

static void count_parse(void **state)
{
    (void)state;
    const size_t max = HS_MAX_COUNT;
    /* plain, and whole numbers with an exponent or a fraction, exactly */
    expect_count("0", max, HSIO_COUNT_OK, 0);
    expect_count("007", max, HSIO_COUNT_OK, 7);
    expect_count("1000000", max, HSIO_COUNT_OK, 1000000);
    expect_count("1e6", max, HSIO_COUNT_OK, 1000000);
    expect_count("1E6", max, HSIO_COUNT_OK, 1000000);
    expect_count("1e+06", max, HSIO_COUNT_OK, 1000000);
    expect_count("2.5e5", max, HSIO_COUNT_OK, 250000);
    expect_count("1.0E+06", max, HSIO_COUNT_OK, 1000000);
    expect_count("0.001e3", max, HSIO_COUNT_OK, 1);
    expect_count("2000e-3", max, HSIO_COUNT_OK, 2);
    expect_count("10.", max, HSIO_COUNT_OK, 10);
    expect_count("10.000", max, HSIO_COUNT_OK, 10);
    expect_count("0e999999999999", max, HSIO_COUNT_OK, 0);
    expect_count("0.0", max, HSIO_COUNT_OK, 0);
    expect_count("4294967294", max, HSIO_COUNT_OK, 4294967294u);
    expect_count("4.294967294e9", max, HSIO_COUNT_OK, 4294967294u);
    expect_count("1000", 1000, HSIO_COUNT_OK, 1000);
    /* not whole: a float would round these to whole numbers */
    expect_count("1.5", max, HSIO_COUNT_FRACTION, 0);
    expect_count(".5", max, HSIO_COUNT_FRACTION, 0);
    expect_count("1e-3", max, HSIO_COUNT_FRACTION, 0);
    expect_count("1500e-3", max, HSIO_COUNT_FRACTION, 0);
    expect_count("1.0000000000000000001", max, HSIO_COUNT_FRACTION, 0);
    expect_count("4294967294.5", max, HSIO_COUNT_FRACTION, 0);
    expect_count("1e-99999999999999", max, HSIO_COUNT_FRACTION, 0);
    /* above max: by one, by far, and beyond 64 bits */
    expect_count("4294967295", max, HSIO_COUNT_RANGE, 0);
    expect_count("4.294967295e9", max, HSIO_COUNT_RANGE, 0);
    expect_count("1001", 1000, HSIO_COUNT_RANGE, 0);
    expect_count("1e30", max, HSIO_COUNT_RANGE, 0);
    expect_count("1.5e30", max, HSIO_COUNT_RANGE, 0);
    expect_count("18446744073709551616", max, HSIO_COUNT_RANGE, 0);
    expect_count("1e99999999999999", max, HSIO_COUNT_RANGE, 0);
    /* not a count at all */
    const char *const bad[] = {"",      " 1",  "1 ",  "+1",   "-1",    "-0",
                               ".",     "e5",  "1e",  "1e+",  "1.2.3", "0x10",
                               "1,000", "inf", "nan", "1e5x", "1k",    "\xd9\xa1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_count(bad[i], max, HSIO_COUNT_SYNTAX, 0);
}

/* ---- atomic output files ------------------------------------------------------------------ */

#define OUT_DIR "test_cli_io_out"

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static char *slurp_path(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t len;
    char *s = contents(f, &len);
    fclose(f);
    return s;
}

static void expect_file(const char *path, const char *want)
{
    char *got = slurp_path(path);
    if (!got)
        fail_msg("%s: missing", path);
    if (strcmp(got, want) != 0)
        fail_msg("%s holds '%.60s', want '%.60s'", path, got, want);
    free(got);
}

/* 1 when the folder holds a temporary file of an output. */
static int temp_left(void)
{
    DIR *d = opendir(OUT_DIR);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strstr(e->d_name, ".hitscan-") != NULL;
    closedir(d);
    return n > 0;
}

static int out_setup(void **state)
{
    (void)state;
    assert_int_equal(system("rm -rf " OUT_DIR " && mkdir " OUT_DIR), 0);
    return 0;
}

static int out_teardown(void **state)
{
    (void)state;
    return system("rm -rf " OUT_DIR) == 0 ? 0 : -1;
}

static void out_commit_and_abort(void **state)
{
    (void)state;
    const char *path = OUT_DIR "/r.csv";
    char err[256];
    hsio_out_file o;
    /* a new file: created whole, with 0666 less the umask */
    assert_int_equal(hsio_out_open(&o, path, err, sizeof err), 0);
    assert_non_null(o.tmp);
    assert_non_null(strstr(o.tmp, OUT_DIR "/.r.csv.hitscan-"));
    assert_true(fputs("first\n", o.f) >= 0);
    assert_true(temp_left());
    assert_int_equal(access(path, F_OK), -1); /* nothing under the final name yet */
    assert_int_equal(hsio_out_commit(&o, err, sizeof err), 0);
    assert_null(o.f);
    expect_file(path, "first\n");
    assert_false(temp_left());
    mode_t mask = umask(022);
    umask(mask);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);

    /* replacing: the old file stays whole until the rename, and keeps its permission bits */
    assert_int_equal(chmod(path, 0640), 0);
    assert_int_equal(hsio_out_open(&o, path, err, sizeof err), 0);
    assert_true(fputs("second\n", o.f) >= 0);
    fflush(o.f);
    expect_file(path, "first\n");
    assert_int_equal(hsio_out_commit(&o, err, sizeof err), 0);
    expect_file(path, "second\n");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);

    /* abort: the older file as it was, no temporary file */
    assert_int_equal(hsio_out_open(&o, path, err, sizeof err), 0);
    assert_true(fputs("partial", o.f) >= 0);
    hsio_out_abort(&o);
    hsio_out_abort(&o); /* a released output: nothing to do */
    expect_file(path, "second\n");
    assert_false(temp_left());

    /* through a symbolic link: the file it names is replaced, the link stays */
    assert_int_equal(symlink("r.csv", OUT_DIR "/link.csv"), 0);
    assert_int_equal(hsio_out_open(&o, OUT_DIR "/link.csv", err, sizeof err), 0);
    assert_true(fputs("third\n", o.f) >= 0);
    assert_int_equal(hsio_out_commit(&o, err, sizeof err), 0);
    assert_int_equal(lstat(OUT_DIR "/link.csv", &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    expect_file(path, "third\n");
    assert_false(temp_left());
}

static void out_errors(void **state)
{
    (void)state;
    char err[256];
    hsio_out_file o;
    assert_int_equal(hsio_out_open(&o, OUT_DIR, err, sizeof err), -1);
    assert_string_equal(err, "is a directory");
    assert_int_equal(hsio_out_open(&o, OUT_DIR "/", err, sizeof err), -1);
    assert_int_equal(hsio_out_open(&o, OUT_DIR "/none/r.csv", err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot create a temporary file in the output's folder: No such"));

    /* a full device (written straight through: nothing to rename) */
    if (access("/dev/full", W_OK) == 0) {
        assert_int_equal(hsio_out_open(&o, "/dev/full", err, sizeof err), 0);
        assert_null(o.tmp);
        for (int i = 0; i < 10000; i++)
            fputs("0123456789", o.f);
        assert_int_equal(hsio_out_commit(&o, err, sizeof err), -1);
        assert_string_equal(err, "write failed: No space left on device");
    }

    /* past the file-size limit: EFBIG (SIGXFSZ ignored), the older file kept, no temp left */
    const char *path = OUT_DIR "/big.csv";
    put_file(path, "older\n");
    struct rlimit was, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
    void (*old_xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
    lim = was;
    lim.rlim_cur = 1024;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    /* the writer sees the failure (a write larger than stdio's buffer) and gives up */
    assert_int_equal(hsio_out_open(&o, path, err, sizeof err), 0);
    static char block[1 << 16];
    memset(block, 'x', sizeof block);
    errno = 0;
    size_t put = fwrite(block, 1, sizeof block, o.f);
    int write_errno = errno;
    hsio_out_abort(&o);
    /* the failure comes at commit's flush (the data fitted in stdio's buffer) */
    assert_int_equal(hsio_out_open(&o, path, err, sizeof err), 0);
    assert_int_equal(fwrite(block, 1, 2000, o.f), 2000);
    int rc = hsio_out_commit(&o, err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
    signal(SIGXFSZ, old_xfsz);
    assert_true(put < sizeof block);
    assert_int_equal(write_errno, EFBIG);
    assert_int_equal(rc, -1);
    assert_string_equal(err, "write failed: File too large");
    expect_file(path, "older\n");
    assert_false(temp_left());
}

static void out_same_file(void **state)
{
    (void)state;
    const char *a = OUT_DIR "/a.csv", *b = OUT_DIR "/b.csv";
    put_file(a, "1,2,3\n");
    put_file(b, "1,2,3\n");
    assert_int_equal(symlink("a.csv", OUT_DIR "/sym.csv"), 0);
    assert_int_equal(link(a, OUT_DIR "/hard.csv"), 0);
    assert_true(hsio_same_file(a, a));
    assert_true(hsio_same_file(a, OUT_DIR "/sym.csv"));
    assert_true(hsio_same_file(OUT_DIR "/hard.csv", OUT_DIR "/sym.csv"));
    assert_true(hsio_same_file(a, OUT_DIR "/../" OUT_DIR "/a.csv"));
    assert_false(hsio_same_file(a, b)); /* same contents, another file */
    assert_false(hsio_same_file(a, OUT_DIR "/missing.csv"));
    assert_false(hsio_same_file(OUT_DIR "/missing.csv", OUT_DIR "/missing.csv"));
    assert_false(hsio_same_file("/dev/null", "/dev/null")); /* only regular files count */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(npy_roundtrip),
        cmocka_unit_test(npy_empty_array),
        cmocka_unit_test(npy_header_variants),
        cmocka_unit_test(npy_bad_magic_and_version),
        cmocka_unit_test(npy_bad_dtype),
        cmocka_unit_test(npy_bad_shape),
        cmocka_unit_test(npy_truncated_and_trailing),
        cmocka_unit_test(npy_header_garbage),
        cmocka_unit_test(npy_every_prefix_and_flip),
        cmocka_unit_test(csv_good),
        cmocka_unit_test(csv_errors),
        cmocka_unit_test(spec_readers),
        cmocka_unit_test(csv_every_prefix),
        cmocka_unit_test(csv_header_rule),
        cmocka_unit_test(table_by_extension),
        cmocka_unit_test(write_closest_csv),
        cmocka_unit_test(write_closest_npy),
        cmocka_unit_test(write_any_count),
        cmocka_unit_test(write_all),
        cmocka_unit_test(write_empty),
        cmocka_unit_test(escape_bytes),
        cmocka_unit_test(escape_stream),
        cmocka_unit_test(count_parse),
        cmocka_unit_test_setup_teardown(out_commit_and_abort, out_setup, out_teardown),
        cmocka_unit_test_setup_teardown(out_errors, out_setup, out_teardown),
        cmocka_unit_test_setup_teardown(out_same_file, out_setup, out_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
