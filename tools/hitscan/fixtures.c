/* SPDX-License-Identifier: MIT */
/* Writes the hitscan tool's end-to-end test files: a tiny scene with hand-derived answers, and one
 * malformed file per error case. */
#define _XOPEN_SOURCE 700 /* symlink, link */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hitscan/types.h"
#include "io.h"

static const char *dir;
static int failed;

static FILE *open_out(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "hitscan_fixtures: cannot create %s\n", path);
        failed = 1;
    }
    return f;
}

static void close_out(FILE *f, int write_rc, const char *name)
{
    if (fclose(f) != 0 || write_rc != 0) {
        fprintf(stderr, "hitscan_fixtures: write failed: %s\n", name);
        failed = 1;
    }
}

static void text(const char *name, const char *content)
{
    FILE *f = open_out(name);
    if (f)
        close_out(f, fputs(content, f) < 0, name);
}

/* name as a symbolic (or hard) link to target, both in dir; made afresh on every run. */
static void make_link(const char *name, const char *target, int hard)
{
    char path[1024], tpath[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tpath, sizeof tpath, "%s/%s", dir, target);
    unlink(path);
    if (hard ? link(tpath, path) != 0 : symlink(target, path) != 0) {
        fprintf(stderr, "hitscan_fixtures: cannot make the link %s\n", path);
        failed = 1;
    }
}

/* A .npy with any version bytes and header text (the length field is filled in), then data. */
static void raw_npy_len(const char *name, int major, int minor, const char *header, size_t declared,
                        const void *data, size_t len)
{
    FILE *f = open_out(name);
    if (!f)
        return;
    size_t h = strlen(header);
    unsigned char pre[12] = {0x93,
                             'N',
                             'U',
                             'M',
                             'P',
                             'Y',
                             (unsigned char)major,
                             (unsigned char)minor,
                             (unsigned char)(declared & 0xff),
                             (unsigned char)(declared >> 8 & 0xff),
                             (unsigned char)(declared >> 16 & 0xff),
                             (unsigned char)(declared >> 24 & 0xff)};
    size_t npre = major == 1 ? 10 : 12;
    int rc = fwrite(pre, 1, npre, f) != npre || fwrite(header, 1, h, f) != h ||
             (len && fwrite(data, 1, len, f) != len);
    close_out(f, rc, name);
}

static void raw_npy(const char *name, int major, int minor, const char *header, const void *data,
                    size_t len)
{
    raw_npy_len(name, major, minor, header, strlen(header), data, len);
}

static void npy_f4(const char *name, size_t rows, size_t cols, const float *v)
{
    FILE *f = open_out(name);
    const size_t shape[2] = {rows, cols};
    if (f)
        close_out(f, hsio_write_npy(f, "<f4", 2, shape, v, sizeof(float)), name);
}

/* Circles and queries whose answers are exact in float32 (powers of two, r = 0, tangency at
 * integer distance), derived by hand in the comments. */
static const float circles[5][3] = {
    {10, 0, 2},  /* 0 */
    {20, 0, 2},  /* 1 */
    {0, 10, 1},  /* 2 */
    {5, 5, 0},   /* 3: a point */
    {-10, -5, 1} /* 4: only a line through query 2 reaches it (behind its start) */
};
static const float queries[5][4] = {
    {0, 0, 16, 0},      /* 0: enters circle 0 at x = 8 (t 0.5); as a ray also circle 1 at x = 18 */
    {0, 10, 0, 20},     /* 1: starts at circle 2's centre (t 0, normal -d) */
    {-5, -5, -1, -5},   /* 2: misses; as a line hits circle 4 behind A */
    {0, 5, 10, 5},      /* 3: passes through the point circle 3 at t 0.5 */
    {9.5f, 0, 10.5f, 0} /* 4: wholly inside circle 0: solid hit at t 0, boundary miss */
};
#define NQ 5
/* --mode pairs: no two circles overlap; with these displacements circle 1 closes on circle 0
 * at 8 a step from 10 apart, so they touch at radius sum 4 when t = 0.75, normal (1, 0). */
static const float displacements[5][2] = {{0, 0}, {-8, 0}, {0, 0}, {0, 0}, {0, 0}};

static void expected(void)
{
    /* closest, segments, solid */
    const uint32_t idx[NQ] = {0, 2, HS_NONE, 3, 0};
    const float t[NQ] = {0.5f, 0, NAN, 0.5f, 0};
    const float px[NQ] = {8, 0, NAN, 5, 9.5f}, py[NQ] = {0, 10, NAN, 5, 0};
    /* normals: from the centre to P(t); at the centre itself, -d normalised (hence -0) */
    const float nx[NQ] = {-1, -0.0f, NAN, -1, -1}, ny[NQ] = {0, -1, NAN, -0.0f, 0};
    const uint8_t any[NQ] = {1, 1, 0, 1, 1}, any_boundary[NQ] = {1, 1, 0, 1, 0};
    const uint32_t count[NQ] = {1, 1, 0, 1, 1};
    const uint32_t count_ray[NQ] = {2, 1, 0, 1, 2};
    const uint32_t count_line[NQ] = {2, 1, 1, 1, 2};
    /* thickness 4: query 0 reaches circle 1 (|(16,0)-(20,0)| = 4 <= 2 + 4); query 2 circle 4;
     * query 3 circles 0, 3 and circle 2 exactly touching (|(0,5)-(0,10)| = 5 = 1 + 4) */
    const uint32_t count_thick[NQ] = {2, 1, 1, 3, 1};
    const size_t all_off[NQ + 1] = {0, 1, 2, 2, 3, 4};
    const uint32_t all_idx[] = {0, 2, 3, 0};
    const float all_t[] = {0.5f, 0, 0.5f, 0};
    const size_t ray_off[NQ + 1] = {0, 2, 3, 3, 4, 6};
    const uint32_t ray_idx[] = {0, 1, 2, 3, 0, 1};
    const float ray_t[] = {0.5f, 1.125f, 0, 0.5f, 0, 8.5f};
    const uint32_t swept_i[] = {0}, swept_j[] = {1};
    const float swept_t[] = {0.75f}, swept_nx[] = {1}, swept_ny[] = {0};
    const uint8_t swept_ov[] = {0};
    /* box_circles in the box [0, 16) x [0, 8), periodic in x and y: 0 and 1 touch across the
     * left edge (j's image at -0.5), 4 (given at x = 40.25, wrapped to 8.25) overlaps 5; 2 and
     * 3 are 1.25 apart across the bottom edge, joining with --skin 0.25 */
    /* with the walls of good_walls.csv: query 0 meets wall 0 (x = 4) at t 0.25 before circle
     * 0, normal (-1, 0) against its direction; query 3 meets wall 2 (x = 7.5) at t 0.75 after the
     * point circle 3; wall 1 lies far from every query */
    const uint32_t w_idx[NQ] = {0, 2, HS_NONE, 3, 0};
    const uint8_t w_kind[NQ] = {1, 0, 0, 0, 0};
    const float w_t[NQ] = {0.25f, 0, NAN, 0.5f, 0}, w_px[NQ] = {4, 0, NAN, 5, 9.5f};
    const float w_ny[NQ] = {0, -1, NAN, -0.0f, 0};
    const size_t w_off[NQ + 1] = {0, 2, 3, 3, 5, 6};
    const uint32_t w_all_idx[] = {0, 0, 2, 3, 2, 0};
    const float w_all_t[] = {0.25f, 0.5f, 0, 0.5f, 0.75f, 0};
    const uint8_t w_all_kind[] = {1, 0, 0, 0, 1, 0};
    const uint32_t box_i[] = {0, 4}, box_j[] = {1, 5};
    const int8_t box_sx[] = {-1, 0}, box_sy[] = {0, 0};

    for (int fmt = HSIO_NPY; fmt <= HSIO_CSV; fmt++) {
        const char *ext = fmt == HSIO_NPY ? "npy" : "csv";
        char name[64];
        FILE *f;
#define EXPECT(stem, call)                                                                         \
    do {                                                                                           \
        snprintf(name, sizeof name, "exp_%s.%s", stem, ext);                                       \
        if ((f = open_out(name)) != NULL)                                                          \
            close_out(f, call, name);                                                              \
    } while (0)
        EXPECT("closest", hsio_write_closest(f, (hsio_format)fmt, NQ, idx, t, px, py, nx, ny));
        EXPECT("closest_walls", hsio_write_closest_kind(f, (hsio_format)fmt, NQ, w_idx, w_t, w_px,
                                                        py, nx, w_ny, 0.0, 0.0, w_kind));
        EXPECT("all_walls",
               hsio_write_all_kind(f, (hsio_format)fmt, NQ, w_off, w_all_idx, w_all_t, w_all_kind));
        EXPECT("any", hsio_write_any(f, (hsio_format)fmt, NQ, any));
        EXPECT("any_boundary", hsio_write_any(f, (hsio_format)fmt, NQ, any_boundary));
        EXPECT("count", hsio_write_count(f, (hsio_format)fmt, NQ, count));
        EXPECT("count_ray", hsio_write_count(f, (hsio_format)fmt, NQ, count_ray));
        EXPECT("count_line", hsio_write_count(f, (hsio_format)fmt, NQ, count_line));
        EXPECT("count_thick", hsio_write_count(f, (hsio_format)fmt, NQ, count_thick));
        EXPECT("all", hsio_write_all(f, (hsio_format)fmt, NQ, all_off, all_idx, all_t));
        EXPECT("all_ray", hsio_write_all(f, (hsio_format)fmt, NQ, ray_off, ray_idx, ray_t));
        const hsio_pair_cols none = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
        const hsio_pair_cols swept = {swept_i,  swept_j,  swept_t, swept_nx,
                                      swept_ny, swept_ov, NULL,    NULL};
        const hsio_pair_cols boxed = {box_i, box_j, NULL, NULL, NULL, NULL, box_sx, box_sy};
        EXPECT("pairs", hsio_write_pairs(f, (hsio_format)fmt, 0, &none));
        EXPECT("swept", hsio_write_pairs(f, (hsio_format)fmt, 1, &swept));
        EXPECT("box_pairs", hsio_write_pairs(f, (hsio_format)fmt, 2, &boxed));
#undef EXPECT
    }
}

/* Walls (see expected()): ax, ay, bx, by, thickness, mask. */
static const double walls[3][6] = {
    {4, -1, 4, 1, 0, 1}, {30, 30, 31, 31, 0.5, 255}, {7.5, 4, 7.5, 6, 0, 2}};

static void inputs(void)
{
    npy_f4("good_circles.npy", 5, 3, &circles[0][0]);
    npy_f4("good_queries.npy", NQ, 4, &queries[0][0]);
    npy_f4("good_displacements.npy", 5, 2, &displacements[0][0]);
    text("good_displacements.csv", "dx,dy\n0,0\n-8,0\n0,0\n0,0\n0,0\n");
    text("box_circles.csv", "x,y,r\n0.5,4,0.5\n15.5,4,0.5\n8,0.5,0.5\n8,7.25,0.5\n40.25,4,0.25\n"
                            "8,4,0.25\n");
    text("box_displacements.csv", "dx,dy\n0,0\n0,0\n0,0\n0,0\n0,0\n0,0\n");
    text("short_displacements.csv", "dx,dy\n0,0\n-8,0\n");
    text("nan_displacements.csv", "dx,dy\n0,0\n-8,0\n0,nan\n0,0\n0,0\n");
    /* the same numbers as CSV: a header, spaces, CRLF, a blank line, exponent notation */
    /* --origin: a circle near 1.2e7, where float's ulp is 1; the segment enters it at x =
     * 12345676.25 (t 0.3), which float world coordinates round to 12345676 (and y to -9876544) */
    text("far_circles.csv", "x,y,r\n12345678.25,-9876543.5,2\n");
    text("far_queries.csv", "ax,ay,bx,by\n12345670.25,-9876543.5,12345690.25,-9876543.5\n");
    text("good_circles.csv", "x,y,r\n10,0,2\n 20 , 0 , 2 \r\n0,10,1\n\n5,5,0e0\n-10,-5,1\n");
    text("good_queries.csv", "0,0,16,0\n0,10,0,20\n-5,-5,-1,-5\n0,5,1e1,5\n9.5,0,10.5,0");
    text("empty_queries.csv", "ax,ay,bx,by\n");
    text("good_walls.csv", "ax,ay,bx,by,thickness,mask\n4,-1,4,1,0,1\n30,30,31,31,0.5,0xff\n"
                           "7.5,4,7.5,6,0,2\n");
    text("good_walls4.csv", "4,-1,4,1\n30,30,31,31\n7.5,4,7.5,6\n");
    text("masked_walls.csv", "ax,ay,bx,by,thickness,mask\n4,-1,4,1,0,0\n");
    text("empty_walls.csv", "ax,ay,bx,by\n");
    {
        FILE *f = open_out("good_walls.npy"); /* '<f8' (3, 6): the mask exact */
        const size_t shape[2] = {3, 6};
        if (f)
            close_out(f, hsio_write_npy(f, "<f8", 2, shape, &walls[0][0], sizeof(double)),
                      "good_walls.npy");
        float w4[3][4];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 4; k++)
                w4[i][k] = (float)walls[i][k];
        npy_f4("good_walls4.npy", 3, 4, &w4[0][0]);
        npy_f4("bad_walls_shape.npy", 4, 3, &w4[0][0]);
    }
    /* the header rule: the same circles with a UTF-8 byte order mark and no header; the same
     * queries under a header of numbers, read with --header */
    text("bom_circles.csv", "\xef\xbb\xbf"
                            "10,0,2\n20,0,2\n0,10,1\n5,5,0\n-10,-5,1\n");
    text("bom_header_circles.csv", "\xef\xbb\xbf"
                                   "x,y,r\n10,0,2\n20,0,2\n0,10,1\n5,5,0\n-10,-5,1\n");
    text("numeric_header_queries.csv",
         "1,2,3,4\n0,0,16,0\n0,10,0,20\n-5,-5,-1,-5\n0,5,1e1,5\n9.5,0,10.5,0\n");
    /* outputs that are inputs: a copy of the circles (and a reference copy to compare it
     * with afterwards), a symbolic link to it, and a hard link to a copy of the queries */
    static const char circles_csv[] = "x,y,r\n10,0,2\n20,0,2\n0,10,1\n5,5,0\n-10,-5,1\n";
    static const char queries_csv[] = "0,0,16,0\n0,10,0,20\n-5,-5,-1,-5\n0,5,1e1,5\n9.5,0,10.5,0\n";
    text("same_circles.csv", circles_csv);
    text("same_circles_ref.csv", circles_csv);
    text("same_queries.csv", queries_csv);
    text("same_queries_ref.csv", queries_csv);
    make_link("same_circles_symlink.csv", "same_circles.csv", 0);
    make_link("same_queries_hardlink.csv", "same_queries.csv", 1);
    /* an older result that a failed or interrupted run must leave as it is */
    text("old_result_ref.csv", "query,count\nthis is the older result\n");
}

static void malformed(void)
{
    text("bad_walls_nan.csv", "4,-1,4,1\n1,2,nan,4\n");
    text("bad_walls_thickness.csv", "ax,ay,bx,by,thickness\n4,-1,4,1,0\n\n1,2,3,4,-0.5\n");
    text("bad_walls_fields.csv", "4,-1,4,1\n1,2,3,4,5\n");
    text("bad_walls_mask.csv", "4,-1,4,1,0,-1\n");
    const float d12[12] = {0, 0, 1, 5, 5, 1, 9, 9, 1, 2, 2, 1};
    static const char hdr_ok[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }\n";
    text("bad_magic.npy", "PK\x03\x04 this is a zip file, not an array\n");
    raw_npy("bad_version.npy", 9, 0, hdr_ok, d12, sizeof d12);
    raw_npy("bad_dtype_f8.npy", 1, 0,
            "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n", d12, sizeof d12);
    raw_npy("bad_dtype_be.npy", 1, 0,
            "{'descr': '>f4', 'fortran_order': False, 'shape': (4, 3), }\n", d12, sizeof d12);
    raw_npy("bad_fortran.npy", 1, 0, "{'descr': '<f4', 'fortran_order': True, 'shape': (4, 3), }\n",
            d12, sizeof d12);
    raw_npy("bad_shape.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (6, 2), }\n",
            d12, sizeof d12);
    raw_npy("bad_shape1d.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }\n",
            d12, sizeof d12);
    raw_npy("truncated.npy", 1, 0, hdr_ok, d12, sizeof d12 - 6);
    unsigned char longer[sizeof d12 + 4];
    memcpy(longer, d12, sizeof d12);
    memcpy(longer + sizeof d12, "junk", 4);
    raw_npy("trailing.npy", 1, 0, hdr_ok, longer, sizeof longer);
    raw_npy("header_garbage.npy", 1, 0, "hello, world\n", d12, sizeof d12);
    raw_npy_len("header_short.npy", 2, 0, "{'descr': '<f4', 'fortran", 118, NULL, 0);
    float nan_rows[12];
    memcpy(nan_rows, d12, sizeof d12);
    nan_rows[2 * 3 + 1] = NAN; /* row 2, y */
    raw_npy("nan_circles.npy", 1, 0, hdr_ok, nan_rows, sizeof nan_rows);
    text("neg_radius.csv", "x,y,r\n0,0,1\n\n3,3,-0.5\n");
    text("inf_query.csv", "0,0,1,1\n0,0,inf,1\n");
    text("overflow_query.csv", "ax,ay,bx,by\n0,0,1,1\n\n-3e38,0,3e38,0\n");
    text("bad_cols.csv", "x,y,r\n1,2,3\n4,5\n");
    text("bad_number.csv", "1,2,3\n4,five,6\n");
    text("empty.csv", "");
    text("blank.csv", "\n  \n");
    text("empty.npy", "");
    text("circles.txt", "1,2,3\n");
    /* first rows that are data with a fault, not headers */
    text("first_empty.csv", ",0,2\n20,0,2\n");
    text("first_range.csv", "1e39,0,2\n20,0,2\n");
    char longrow[300];
    memset(longrow, '1', 200);
    snprintf(longrow + 200, sizeof longrow - 200, ",0,2\n20,0,2\n");
    text("first_long.csv", longrow);
    text("first_typo.csv", "1O,0,2\n20,0,2\n");
    text("utf16.csv", "\xff\xfex"); /* "x" in UTF-16LE would go on with a NUL */
    /* bytes that must not reach a terminal raw: ESC sequences and a newline in a .npy header */
    raw_npy("escape_dtype.npy", 1, 0,
            "{'descr': '<\x1b[2J', 'fortran_order': False, 'shape': (4, 3), }\n", d12, sizeof d12);
    raw_npy("newline_key.npy", 1, 0,
            "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), 'a\nb': 1}\n", d12,
            sizeof d12);
    text("escape_field.csv", "x,y,r\n1,2,3\n4,\x1b]0;pwned\x07\xff,6\n");
    /* a circle and a query beyond HS_MAX_COORD: rejected by the library, named by row */
    text("range_circles.csv", "x,y,r\n0,0,1\n\n2e18,0,1\n");
    text("range_queries.csv", "0,0,1,1\n2e18,0,2e18,1\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hitscan_fixtures DIR\n");
        return 2;
    }
    dir = argv[1];
    inputs();
    expected();
    malformed();
    return failed;
}
