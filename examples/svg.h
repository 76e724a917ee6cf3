/* SPDX-License-Identifier: MIT */
/* A small SVG writer for the examples' pictures: circles, walls, queries, hit points and
 * normals, and a grid's cells, given in world coordinates (y up) and mapped onto a picture (y
 * down). */
#ifndef HITSCAN_EXAMPLES_SVG_H
#define HITSCAN_EXAMPLES_SVG_H

#include <stdio.h>

#include "hitscan/hitscan.h"

typedef struct svg_canvas {
    FILE *f;
    double x0, y0, x1, y1; /* the world rectangle shown */
    double scale;          /* pixels per world unit */
} svg_canvas;

/* Opens path and writes the header and the style sheet for the world rectangle
 * [x0, x1] x [y0, y1] drawn width_px wide. Returns 0, or -1 if the file cannot be opened. */
int svg_open(svg_canvas *c, const char *path, double x0, double y0, double x1, double y1,
             double width_px);
/* Writes the closing tag and closes the file. Returns 0 if every write succeeded, else -1. */
int svg_close(svg_canvas *c);

/* Cell lines of a grid of nx x ny cells of side h with its lower corner at (ox, oy). */
void svg_cells(svg_canvas *c, double ox, double oy, double h, int nx, int ny);
void svg_circle(svg_canvas *c, hs_circle k, const char *cls);
/* The part of q with t in [t0, t1] (clipped to q's interval and to the picture), as a line
 * with q's thickness. Draws nothing if that part is empty or outside the picture. */
void svg_query(svg_canvas *c, hs_query q, double t0, double t1, const char *cls);
/* A wall from a to b thickened by thickness (a capsule), at least 3 pixels wide. */
void svg_wall(svg_canvas *c, hs_vec2 a, hs_vec2 b, float thickness, const char *cls);
/* A dot of fixed size at p, and an arrow of world length len from p along the unit vector n. */
void svg_dot(svg_canvas *c, hs_vec2 p, const char *cls);
void svg_arrow(svg_canvas *c, hs_vec2 p, hs_vec2 n, double len, const char *cls);
/* Text at world point p (escaped for XML). */
void svg_text(svg_canvas *c, hs_vec2 p, const char *text, const char *cls);

/* The examples' one option, `FLAG VALUE` (e.g. --svg FILE): its value in *value, or NULL when
 * argv has no arguments. Returns 0, or -1 (after printing usage) for anything else. */
int svg_option(int argc, char **argv, const char *flag, const char *metavar, const char **value);

#endif
