/* SPDX-License-Identifier: MIT */
/* The examples' SVG writer (svg.h). Coordinates are written with 2 decimals of a pixel. */
#include "svg.h"

#include <math.h>
#include <string.h>

/* One style sheet for every picture: the classes the examples use. */
static const char svg_style[] =
    "  .cell{fill:none;stroke:#9aa5b1;stroke-width:0.6;stroke-opacity:0.45}\n"
    "  .rock{fill:#c9b79c;fill-opacity:0.75;stroke:#6b5a45;stroke-width:1.2}\n"
    "  .wall{stroke:#34495e;stroke-linecap:round;fill:none}\n"
    "  .particle{fill:#8fa8c8;fill-opacity:0.6;stroke:#4d6380;stroke-width:0.5}\n"
    "  .struck{fill:#e8a27c;fill-opacity:0.8;stroke:#a04a1c;stroke-width:0.8}\n"
    "  .laser{stroke:#d62728;stroke-width:2;stroke-linecap:round;fill:none}\n"
    "  .beam{stroke:#d62728;stroke-opacity:0.35;stroke-linecap:round;fill:none}\n"
    "  .past{stroke:#d62728;stroke-opacity:0.3;stroke-width:1;stroke-dasharray:4 4;fill:none}\n"
    "  .reach{fill:none;stroke:#d62728;stroke-width:1;stroke-dasharray:3 2}\n"
    "  .hit{fill:#1f1f1f;stroke:#ffffff;stroke-width:1}\n"
    "  .normal{stroke:#2ca02c;stroke-width:2;fill:none;marker-end:url(#head)}\n"
    "  .label{font:12px sans-serif;fill:#333333}\n"
    "  .name{font:12px sans-serif;fill:#333333;text-anchor:middle}\n";

static double px(const svg_canvas *c, double x) { return (x - c->x0) * c->scale; }

static double py(const svg_canvas *c, double y) { return (c->y1 - y) * c->scale; }

int svg_open(svg_canvas *c, const char *path, double x0, double y0, double x1, double y1,
             double width_px)
{
    c->f = fopen(path, "w");
    if (!c->f)
        return -1;
    c->x0 = x0, c->y0 = y0, c->x1 = x1, c->y1 = y1;
    c->scale = width_px / (x1 - x0);
    const double w = width_px, h = (y1 - y0) * c->scale;
    fprintf(c->f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.2f %.2f\">\n"
            "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" "
            "markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
            "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#2ca02c\"/></marker></defs>\n"
            "<style>\n%s</style>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
            w, h, w, h, svg_style);
    return 0;
}

int svg_close(svg_canvas *c)
{
    fputs("</svg>\n", c->f);
    int bad = ferror(c->f);
    bad |= fclose(c->f) != 0;
    c->f = NULL;
    return bad ? -1 : 0;
}

void svg_cells(svg_canvas *c, double ox, double oy, double h, int nx, int ny)
{
    fputs("<path class=\"cell\" d=\"", c->f);
    for (int i = 0; i <= nx; i++)
        fprintf(c->f, "M%.2f %.2fV%.2f", px(c, ox + i * h), py(c, oy), py(c, oy + ny * h));
    for (int j = 0; j <= ny; j++)
        fprintf(c->f, "M%.2f %.2fH%.2f", px(c, ox), py(c, oy + j * h), px(c, ox + nx * h));
    fputs("\"/>\n", c->f);
}

void svg_circle(svg_canvas *c, hs_circle k, const char *cls)
{
    fprintf(c->f, "<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"/>\n", cls, px(c, k.x),
            py(c, k.y), k.r * c->scale);
}

/* Narrows [t0, t1] to the t where a + t d lies within lo <= . <= hi on one axis. */
static int clip_axis(double a, double d, double lo, double hi, double *t0, double *t1)
{
    if (d == 0.0)
        return a >= lo && a <= hi;
    double ta = (lo - a) / d, tb = (hi - a) / d;
    if (ta > tb) {
        double s = ta;
        ta = tb, tb = s;
    }
    *t0 = fmax(*t0, ta);
    *t1 = fmin(*t1, tb);
    return *t0 <= *t1;
}

void svg_query(svg_canvas *c, hs_query q, double t0, double t1, const char *cls)
{
    t0 = fmax(t0, q.tmin);
    t1 = fmin(t1, q.tmax);
    const double m = q.q; /* a thick query is drawn while its sweep reaches into the picture */
    if (!(t0 <= t1) || !clip_axis(q.a.x, q.d.x, c->x0 - m, c->x1 + m, &t0, &t1) ||
        !clip_axis(q.a.y, q.d.y, c->y0 - m, c->y1 + m, &t0, &t1) || !isfinite(t0) ||
        !isfinite(t1)) /* infinite only when d = 0: a point, nothing to draw as a line */
        return;
    fprintf(c->f, "<line class=\"%s\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", cls,
            px(c, q.a.x + t0 * q.d.x), py(c, q.a.y + t0 * q.d.y), px(c, q.a.x + t1 * q.d.x),
            py(c, q.a.y + t1 * q.d.y));
    if (q.q > 0.0f)
        fprintf(c->f, " stroke-width=\"%.2f\"", 2.0 * q.q * c->scale);
    fputs("/>\n", c->f);
}

/* A wall is drawn as the capsule query over it: the same line, with its thickness, and at
 * least 3 pixels wide. */
void svg_wall(svg_canvas *c, hs_vec2 a, hs_vec2 b, float thickness, const char *cls)
{
    svg_query(c, hs_capsule(a, b, (float)fmax(thickness, 1.5 / c->scale)), 0.0, 1.0, cls);
}

void svg_dot(svg_canvas *c, hs_vec2 p, const char *cls)
{
    fprintf(c->f, "<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"3\"/>\n", cls, px(c, p.x),
            py(c, p.y));
}

void svg_arrow(svg_canvas *c, hs_vec2 p, hs_vec2 n, double len, const char *cls)
{
    fprintf(c->f, "<line class=\"%s\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", cls,
            px(c, p.x), py(c, p.y), px(c, p.x + len * n.x), py(c, p.y + len * n.y));
}

void svg_text(svg_canvas *c, hs_vec2 p, const char *text, const char *cls)
{
    fprintf(c->f, "<text class=\"%s\" x=\"%.2f\" y=\"%.2f\">", cls, px(c, p.x), py(c, p.y));
    for (const char *s = text; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", c->f); break;
        case '<': fputs("&lt;", c->f); break;
        case '>': fputs("&gt;", c->f); break;
        default: fputc(*s, c->f);
        }
    }
    fputs("</text>\n", c->f);
}

int svg_option(int argc, char **argv, const char *flag, const char *metavar, const char **value)
{
    *value = NULL;
    if (argc == 1)
        return 0;
    if (argc == 3 && strcmp(argv[1], flag) == 0) {
        *value = argv[2];
        return 0;
    }
    fprintf(stderr, "usage: %s [%s %s]\n", argv[0], flag, metavar);
    return -1;
}
