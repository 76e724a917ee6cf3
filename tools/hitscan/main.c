/* SPDX-License-Identifier: MIT */
/* hitscan command-line tool: batch circle queries on .npy / CSV files or a built-in scene. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hitscan/hitscan.h"
#include "hitscan/scene.h"
#include "args.h"
#include "escape.h"
#include "io.h"
#include "out_file.h"
#include "progress.h"

/* Built a second time as hitscan_mpi (tools/hitscan_mpi): the same flags, inputs and output
 * bytes, with the grid distributed over MPI ranks. Its main() starts MPI and calls this one;
 * only rank 0 writes files and prints. */
#ifdef HS_CLI_MPI
#include "cli_mpi.h"
#define main hitscan_main
#define HSCLI_WRITER hscli_mpi_root()
#else
#define HSCLI_WRITER 1
#endif

/* Exit codes (part of the contract, see README.md). A caught signal ends the process by that
 * signal (the shell reports 128 + its number). */
#define EXIT_DATA 1  /* unreadable / malformed input, invalid data, library or write failure */
#define EXIT_USAGE 2 /* bad command line, --out naming an input */

static const char usage_text[] =
    "usage: hitscan --circles FILE --queries FILE [options]\n"
    "       hitscan --circles FILE --mode pairs [--displacements FILE] [options]\n"
    "       hitscan --scene uniform|clustered|mixed|sparse|lasers|outlier|twoclusters|\n"
    "               twoclusters_near|blob|blob_alone|filament|filament_axis|powerlaw|point\n"
    "               [--n N] [--m M] [--seed S] [options]\n"
    "       hitscan --scene KIND [--n N] [--m M] [--seed S] --write-scene PREFIX\n"
    "\n"
    "Answers one batch of queries against a set of circles and prints a one-line timing\n"
    "summary on stderr (read, build, query and write times and their total). When stderr is\n"
    "a terminal, a run that lasts over a second shows its progress there.\n"
    "\n"
    "input:\n"
    "  --circles FILE     circles x,y,r: .npy float32 '<f4' C-order shape (N,3), or .csv\n"
    "  --queries FILE     queries ax,ay,bx,by: .npy '<f4' shape (M,4), or .csv\n"
    "                     (.csv: 3 or 4 comma-separated numbers a line, optional header line)\n"
    "  --header           the first line of a CSV input is a header, whatever it holds\n"
    "  --no-header        the first line of a CSV input is data (default: a header only if\n"
    "                     none of its fields is empty, a number or starts like one)\n"
    "  --scene KIND       built-in scene instead of files: uniform, clustered, mixed, sparse,\n"
    "                     lasers; the distribution suite (each beside its twin): outlier,\n"
    "                     twoclusters, twoclusters_near, blob, blob_alone, filament,\n"
    "                     filament_axis, powerlaw, point (include/hitscan/scene.h)\n"
    "  --n N, --m M       scene circles and segments (default 1000000 each); counts may\n"
    "                     have an exponent when they are whole numbers: 1e6, 2.5e5\n"
    "  --seed S           scene seed (default 1)\n"
    "  --write-scene P    write the scene to P_circles.npy and P_queries.npy, then exit\n"
    "  --displacements F  how far each circle moves over a step, dx,dy: .npy '<f4' shape\n"
    "                     (N,2) or .csv; --mode pairs then finds the pairs that touch at\n"
    "                     some time of the step (swept pairs), the query modes the circles\n"
    "                     a segment meets while they move (circle i at c + t d at P(t))\n"
    "  --box X0,Y0,X1,Y1  with --mode pairs: a periodic box [X0,X1) x [Y0,Y1); centres are\n"
    "                     wrapped into it and pairs are found across its edges (minimum\n"
    "                     image), each with the shift sx,sy (in periods) of j's image\n"
    "  --periodic AXES    the box's periodic axes: x, y or xy (default xy); on the other\n"
    "                     axis every centre must lie in the box\n"
    "  --skin S           with --mode pairs: pairs whose gap is at most S (neighbour list)\n"
    "  --walls FILE       wall segments beside the circles, ax,ay,bx,by[,thickness[,mask]]:\n"
    "                     .npy '<f4' or '<f8' shape (K,4) to (K,6), or .csv of 4 to 6\n"
    "                     columns; every query mode meets circles and walls (grid only)\n"
    "\n";
/* ISO C promises string literals of 4095 characters only: the help is in three. */
static const char usage_query[] =
    "query:\n"
    "  --mode MODE        closest (default), any, count, all; pairs: the overlapping pairs of\n"
    "                     circles (no queries; grid only)\n"
    "  --kind KIND        query i is P(t) = A + t (B - A) with A = (ax,ay), B = (bx,by):\n"
    "                     segment t in [0,1] (default), ray t >= 0, line any t\n"
    "  --thickness Q      query half-width Q >= 0 (capsule / swept circle), default 0\n"
    "  --boundary         only circle rims count (default: solid discs)\n"
    "  --skip-start       casting from a surface: ignore a circle the query starts in or on\n"
    "                     and heads out of ((A - centre) . (B - A) >= 0)\n"
    "  --origin X,Y       large worlds: CSV coordinates are read as doubles and taken\n"
    "                     relative to (X, Y) before rounding to float; closest's px, py are\n"
    "                     written back in world coordinates (files only, not --scene)\n"
    "\n"
    "engine:\n"
    "  --brute            test every circle (default: uniform grid)\n"
    "  --cell-size S      grid cell size (default: chosen from the radii)\n"
    "  --isa ISA          auto (default), scalar, sse4, avx2, avx512, neon\n"
    "  --threads K        OpenMP threads (default: OpenMP's default); results never depend on K\n"
    "  --repeat R         run the batch call R times (1..1000, default 1) through one workspace;\n"
    "                     query_ms is then the median call, and the summary adds repeat=R and\n"
    "                     first_ms (the first, cold call)\n"
    "\n";
static const char usage_output[] =
    "output:\n"
    "  --out FILE         write results (default: none, summary only); '-' is stdout. The\n"
    "                     file appears whole or not at all (temporary file + rename); it\n"
    "                     must not be an input\n"
    "  --format FMT       npy or csv (default: from --out's extension; csv for '-')\n"
    "     closest  csv query,idx,t,px,py,nx,ny      npy (M,6) '<f8' idx,t,px,py,nx,ny\n"
    "     any      csv query,hit                    npy (M,) '|b1'\n"
    "     count    csv query,count                  npy (M,) '<u4'\n"
    "     all      csv query,idx,t                  npy (K,3) '<f8' query,idx,t\n"
    "     pairs    csv i,j                          npy (K,2) '<f8' i,j\n"
    "       with --displacements: csv i,j,t,nx,ny,overlapping, npy (K,6) '<f8': t the first\n"
    "       contact in [0,1], (nx,ny) the unit normal from i towards j, overlapping 0/1\n"
    "       with --box: two more columns sx,sy (csv) / (K,4) or (K,8) (npy)\n"
    "       with --walls: closest and all add a last column kind (0 circle, 1 wall):\n"
    "       csv ...,kind, npy (M,7) / (K,4); idx is then the row within its kind\n"
    "     idx is the circle's 0-based row; a miss is idx -1 with NaN fields. all-hits rows are\n"
    "     ordered by query, then entry t, then idx; pairs rows by i < j, then j.\n"
    "\n"
    "  -h, --help         this text;  --version  the library version and determinism\n"
    "options take their value as --opt VALUE or --opt=VALUE. --scene's queries are segments;\n"
    "--kind ray / line extends them through the same A and B.\n"
    "exit status: 0 ok, 1 bad input data or failure, 2 bad command line (or --out naming\n"
    "an input).\n";

typedef enum mode { MODE_CLOSEST, MODE_ANY, MODE_COUNT, MODE_ALL, MODE_PAIRS } mode;
static const char *const mode_names[] = {"closest", "any", "count", "all", "pairs"};
typedef enum kind { KIND_SEGMENT, KIND_RAY, KIND_LINE } kind;
static const char *const kind_names[] = {"segment", "ray", "line"};

typedef struct options {
    const char *circles, *queries, *out, *write_scene, *displacements, *walls;
    hs_scene_kind scene;
    int have_scene, have_n, have_m, have_seed;
    size_t n, m;
    uint64_t seed;
    mode mode;
    kind kind;
    float thickness;
    int boundary, skip_start, brute;
    int have_origin;
    double origin[2];
    int have_box, have_skin;
    double box[4];     /* --box X0,Y0,X1,Y1 */
    unsigned periodic; /* --periodic: HS_PERIODIC_*; 0: not given (xy with a box) */
    float skin;
    hs_isa isa;
    int threads;
    int repeat; /* 0: not given (one call, summary line as without the option) */
    float cell_size;
    hsio_format format;
    hsio_header header;
} options;

/* One line on stderr: prefix, the message with every non-printable byte escaped (paths,
 * arguments and file contents end up in messages), suffix. */
static void message(const char *prefix, const char *suffix, const char *fmt, va_list ap)
{
    char small[1024], *text = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    va_end(again);
    if (!text)
        text = small; /* out of memory: the message cut short */
    fputs(prefix, stderr);
    hsio_fputs_escaped(text, stderr);
    fputs(suffix, stderr);
    fflush(stderr);
    if (text != small)
        free(text);
}

HSIO_PRINTF(1, 2) static void error(const char *fmt, ...);
static void error(const char *fmt, ...)
{
    hsio_progress_end(); /* an error ends the run: its line goes first */
    va_list ap;
    va_start(ap, fmt);
    message("hitscan: error: ", "\n", fmt, ap);
    va_end(ap);
}

HSIO_PRINTF(1, 2) static int usage_error(const char *fmt, ...);
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("hitscan: error: ", " (hitscan --help lists the options)\n", fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

/* The progress line's step: what, and the file it is about (may be NULL). */
static void progress_step(const char *what, const char *file)
{
    char text[256];
    snprintf(text, sizeof text, "%s%s%s", what, file ? " " : "", file ? file : "");
    hsio_progress_step(text);
}

static const char *status_text(hs_status s)
{
    switch (s) {
    case HS_OK: return "ok";
    case HS_E_NULL: return "NULL pointer";
    case HS_E_NONFINITE: return "non-finite value (NaN or Inf)";
    case HS_E_NEG_RADIUS: return "negative radius";
    case HS_E_RANGE: return "value out of range";
    case HS_E_TOO_MANY: return "too many elements";
    case HS_E_NOMEM: return "out of memory";
    case HS_E_UNSUPPORTED: return "ISA level not supported on this CPU / build";
    case HS_E_INVALID_QUERY: return "invalid query";
    case HS_E_BUSY: return "workspace in use by another call";
    case HS_E_BOX: return "periodic box too small for the circles, or a circle outside it";
    }
    return "unknown status";
}

/* A count option's value in lo..hi: -1 with *v set, or the usage error's exit status. Exact
 * whole numbers may be written with a fraction or an exponent (1e6, 2.5e5). */
static int count_option(const char *name, const char *val, size_t lo, size_t hi, size_t *v)
{
    size_t x = 0;
    switch (hsio_parse_count(val, hi, &x)) {
    case HSIO_COUNT_OK:
        if (x >= lo) {
            *v = x;
            return -1;
        }
        break;
    case HSIO_COUNT_FRACTION:
        return usage_error("%s must be an integer in %zu..%zu: '%s' is not a whole number", name,
                           lo, hi, val);
    case HSIO_COUNT_RANGE:
        return usage_error("%s must be an integer in %zu..%zu: '%s' is too large", name, lo, hi,
                           val);
    case HSIO_COUNT_SYNTAX: break;
    }
    return usage_error("%s must be an integer in %zu..%zu (got '%s')", name, lo, hi, val);
}

static int parse_float(const char *s, float *v)
{
    char *end;
    errno = 0;
    float x = strtof(s, &end);
    if (end == s || *end || errno || !isfinite(x))
        return 0;
    *v = x;
    return 1;
}

static int pick(const char *s, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* Returns -1 to go on, or an exit status (help / version / usage error). */
static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->n = o->m = 1000000;
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            fputs(usage_query, stdout);
            fputs(usage_output, stdout);
            return 0;
        }
        if (strcmp(a, "--version") == 0) {
            /* The tool's headers and the library it runs with (they differ under a newer .so). */
            printf("hitscan %s (library %s)\n%s\n", HS_VERSION_STRING, hs_version(),
                   HS_DETERMINISTIC ? "deterministic: the same answers on every ISA level and "
                                      "machine (no FMA)"
                                    : "not deterministic: AVX2 / AVX-512 use FMA "
                                      "(-DHS_DETERMINISTIC=ON gives the same bytes everywhere)");
            return 0;
        }
        if (strcmp(a, "--boundary") == 0) {
            o->boundary = 1;
            continue;
        }
        if (strcmp(a, "--skip-start") == 0) {
            o->skip_start = 1;
            continue;
        }
        if (strcmp(a, "--brute") == 0) {
            o->brute = 1;
            continue;
        }
        if (strcmp(a, "--header") == 0 || strcmp(a, "--no-header") == 0) {
            o->header = a[2] == 'h' ? HSIO_HEADER_YES : HSIO_HEADER_NO; /* the last one wins */
            continue;
        }
        /* every other option takes a value: "--opt VALUE" or "--opt=VALUE" */
        char name[32];
        const char *val;
        const char *eq = strchr(a, '=');
        if (strncmp(a, "--", 2) != 0 || (eq ? (size_t)(eq - a) : strlen(a)) >= sizeof name)
            return usage_error("unknown argument '%s'", a);
        if (eq) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = '\0';
            val = eq + 1;
        } else {
            strcpy(name, a);
            static const char *const valued[] = {
                "--circles",   "--queries",       "--mode",        "--kind",
                "--thickness", "--isa",           "--threads",     "--cell-size",
                "--out",       "--format",        "--scene",       "--n",
                "--m",         "--seed",          "--write-scene", "--repeat",
                "--origin",    "--displacements", "--box",         "--periodic",
                "--skin",      "--walls"};
            if (pick(name, valued, (int)(sizeof valued / sizeof valued[0])) < 0)
                return usage_error("unknown option '%s'", a);
            if (i + 1 >= argc)
                return usage_error("option %s needs a value", name);
            val = argv[++i];
        }
        if (strcmp(name, "--circles") == 0) {
            o->circles = val;
        } else if (strcmp(name, "--queries") == 0) {
            o->queries = val;
        } else if (strcmp(name, "--out") == 0) {
            o->out = val;
        } else if (strcmp(name, "--displacements") == 0) {
            o->displacements = val;
        } else if (strcmp(name, "--walls") == 0) {
            o->walls = val;
        } else if (strcmp(name, "--write-scene") == 0) {
            if (!*val)
                return usage_error("--write-scene needs a non-empty prefix");
            o->write_scene = val;
        } else if (strcmp(name, "--mode") == 0) {
            int k = pick(val, mode_names, 5);
            if (k < 0)
                return usage_error("--mode must be closest, any, count, all or pairs (got '%s')",
                                   val);
            o->mode = (mode)k;
        } else if (strcmp(name, "--kind") == 0) {
            int k = pick(val, kind_names, 3);
            if (k < 0)
                return usage_error("--kind must be segment, ray or line (got '%s')", val);
            o->kind = (kind)k;
        } else if (strcmp(name, "--thickness") == 0) {
            if (!parse_float(val, &o->thickness) || o->thickness < 0.0f)
                return usage_error("--thickness must be a finite number >= 0 (got '%s')", val);
        } else if (strcmp(name, "--isa") == 0) {
            int k;
            for (k = 0; k < HS_ISA_COUNT; k++)
                if (strcmp(val, hs_isa_name((hs_isa)k)) == 0)
                    break;
            if (k == HS_ISA_COUNT)
                return usage_error("--isa must be auto, scalar, sse4, avx2, avx512 or neon "
                                   "(got '%s')",
                                   val);
            o->isa = (hs_isa)k;
        } else if (strcmp(name, "--threads") == 0) {
            size_t k = 0;
            int rc = count_option(name, val, 1, 4096, &k);
            if (rc >= 0)
                return rc;
            o->threads = (int)k;
        } else if (strcmp(name, "--repeat") == 0) {
            size_t k = 0;
            int rc = count_option(name, val, 1, 1000, &k);
            if (rc >= 0)
                return rc;
            o->repeat = (int)k;
        } else if (strcmp(name, "--cell-size") == 0) {
            if (!parse_float(val, &o->cell_size) || !(o->cell_size > 0.0f))
                return usage_error("--cell-size must be a finite number > 0 (got '%s')", val);
        } else if (strcmp(name, "--format") == 0) {
            o->format = hsio_format_parse(val);
            if (o->format == HSIO_NONE)
                return usage_error("--format must be npy or csv (got '%s')", val);
        } else if (strcmp(name, "--scene") == 0) {
            o->scene = hs_scene_kind_from_name(val);
            if (o->scene == HS_SCENE_INVALID)
                return usage_error("--scene must be a scene of include/hitscan/scene.h: uniform, "
                                   "clustered, mixed, sparse, lasers, outlier, twoclusters, "
                                   "twoclusters_near, blob, blob_alone, filament, filament_axis, "
                                   "powerlaw or point (got '%s')",
                                   val);
            o->have_scene = 1;
        } else if (strcmp(name, "--origin") == 0) {
            if (!hsio_parse_numbers(val, o->origin, 2))
                return usage_error("--origin must be two finite numbers X,Y (got '%s')", val);
            o->have_origin = 1;
        } else if (strcmp(name, "--box") == 0) {
            if (!hsio_parse_numbers(val, o->box, 4))
                return usage_error("--box must be four finite numbers X0,Y0,X1,Y1 (got '%s')", val);
            o->have_box = 1;
        } else if (strcmp(name, "--periodic") == 0) {
            static const char *const axes[] = {"x", "y", "xy"};
            const int k = pick(val, axes, 3);
            if (k < 0)
                return usage_error("--periodic must be x, y or xy (got '%s')", val);
            o->periodic = (unsigned)k + 1u;
        } else if (strcmp(name, "--skin") == 0) {
            if (!parse_float(val, &o->skin) || o->skin < 0.0f)
                return usage_error("--skin must be a finite number >= 0 (got '%s')", val);
            o->have_skin = 1;
        } else if (strcmp(name, "--n") == 0 || strcmp(name, "--m") == 0) {
            const int is_n = name[2] == 'n';
            int rc = count_option(name, val, 0, HS_MAX_COUNT, is_n ? &o->n : &o->m);
            if (rc >= 0)
                return rc;
            if (is_n)
                o->have_n = 1;
            else
                o->have_m = 1;
        } else if (strcmp(name, "--seed") == 0) {
            char *end;
            errno = 0;
            if (*val < '0' || *val > '9')
                return usage_error("--seed must be a non-negative integer (got '%s')", val);
            o->seed = strtoull(val, &end, 10);
            if (errno || *end)
                return usage_error("--seed must be a non-negative integer (got '%s')", val);
            o->have_seed = 1;
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    if (o->have_scene) {
        if (o->circles || o->queries)
            return usage_error("--scene replaces --circles / --queries: give one or the other");
        if (o->have_origin)
            return usage_error("--origin applies to --circles / --queries files, not --scene");
        if (o->header != HSIO_HEADER_AUTO)
            return usage_error("--header and --no-header are about CSV input files, not --scene");
    } else {
        if (o->have_n || o->have_m || o->have_seed || o->write_scene)
            return usage_error("--n, --m, --seed and --write-scene need --scene");
        if (!o->circles || (!o->queries && o->mode != MODE_PAIRS))
            return usage_error("need --circles FILE and --queries FILE (or --scene KIND)");
    }
    if (o->displacements && o->brute)
        return usage_error("--displacements needs the grid; it has no --brute");
    if ((o->have_box || o->have_skin) && o->mode != MODE_PAIRS)
        return usage_error("--box and --skin go with --mode pairs");
    if (o->periodic && !o->have_box)
        return usage_error("--periodic needs --box X0,Y0,X1,Y1");
    if (o->have_box) {
        o->periodic = o->periodic ? o->periodic : HS_PERIODIC_XY;
        for (int a = 0; a < 2; a++) {
            const double lo = o->box[a], hi = o->box[a + 2];
            const int per = (o->periodic >> a) & 1u;
            if (!(fabs(lo) <= 1e18 && fabs(hi) <= 1e18) ||
                (per ? !((float)lo < (float)hi) : !((float)lo <= (float)hi)))
                return usage_error("--box: need |values| <= 1e18 and X0 < X1, Y0 < Y1 on the "
                                   "periodic axes");
        }
    }
    if (o->have_skin && o->displacements)
        return usage_error("--skin goes with overlap pairs, not --displacements");
    if (o->mode == MODE_PAIRS && o->brute)
        return usage_error("--mode pairs runs on the grid; it has no --brute");
    if (o->walls && o->have_box)
        return usage_error("--walls: a periodic box (--box) takes no walls");
    if (o->walls && o->mode == MODE_PAIRS)
        return usage_error("--walls goes with the query modes (closest, any, count, all), not "
                           "--mode pairs");
    if (o->walls && o->brute)
        return usage_error("--walls needs the grid; it has no --brute");
#ifdef HS_CLI_MPI
    if (o->mode == MODE_PAIRS)
        return usage_error("--mode pairs is not available in the MPI tool");
    if (o->walls)
        return usage_error("--walls is not available in the MPI tool");
#endif
    if (o->brute && o->cell_size > 0.0f)
        return usage_error("--cell-size is a grid option; it has no meaning with --brute");
    if (o->out) {
        if (o->format == HSIO_NONE)
            o->format = strcmp(o->out, "-") == 0 ? HSIO_CSV : hsio_format_of_path(o->out);
        if (o->format == HSIO_NONE)
            return usage_error("cannot tell the output format of '%s': name it .npy or .csv, "
                               "or give --format",
                               o->out);
    } else if (o->format != HSIO_NONE) {
        return usage_error("--format needs --out");
    }
    if (o->isa != HS_ISA_AUTO && !hs_isa_supported(o->isa)) {
        error("--isa %s is not available on this CPU / build", hs_isa_name(o->isa));
        return EXIT_DATA;
    }
    return -1;
}

/* The loaded problem: circles SoA, queries as A and D = B - A, and the circles' displacements
 * (NULL without --displacements). */
typedef struct problem {
    float *x, *y, *r;
    float *ax, *ay, *dx, *dy;
    float *mx, *my;
    size_t n, m;
    const size_t *circle_line, *query_line; /* CSV line of each row, or NULL */
    const char *circle_src, *query_src;
} problem;

static void problem_free(problem *p)
{
    free(p->x);
    free(p->y);
    free(p->r);
    free(p->ax);
    free(p->ay);
    free(p->dx);
    free(p->dy);
    free(p->mx);
    free(p->my);
}

/* Allocates the arrays (one element at least, so n = 0 still yields valid pointers). */
static int problem_alloc(problem *p, size_t n, size_t m)
{
    size_t nn = n ? n : 1, mm = m ? m : 1;
    p->n = n;
    p->m = m;
    p->x = malloc(nn * sizeof(float));
    p->y = malloc(nn * sizeof(float));
    p->r = malloc(nn * sizeof(float));
    p->ax = malloc(mm * sizeof(float));
    p->ay = malloc(mm * sizeof(float));
    p->dx = malloc(mm * sizeof(float));
    p->dy = malloc(mm * sizeof(float));
    if (!p->x || !p->y || !p->r || !p->ax || !p->ay || !p->dx || !p->dy) {
        error("out of memory for %zu circles and %zu queries", n, m);
        return -1;
    }
    return 0;
}

/* "row 7" or "row 7 (line 9)" for messages. */
static const char *where(char *buf, size_t cap, size_t row, const size_t *line)
{
    if (line)
        snprintf(buf, cap, "row %zu (line %zu)", row, line[row]);
    else
        snprintf(buf, cap, "row %zu", row);
    return buf;
}

/* Rows from B: D = B - A, computed once here so the file and --scene paths agree bit for bit. */
static int set_queries(problem *p, const float *rows4)
{
    static const char *const col[4] = {"ax", "ay", "bx", "by"};
    char wb[64];
    for (size_t i = 0; i < p->m; i++) {
        const float *q = rows4 + 4 * i;
        for (int k = 0; k < 4; k++)
            if (!isfinite(q[k])) {
                error("%s: %s: %s is %g: query coordinates must be finite", p->query_src,
                      where(wb, sizeof wb, i, p->query_line), col[k], (double)q[k]);
                return -1;
            }
        p->ax[i] = q[0];
        p->ay[i] = q[1];
        p->dx[i] = q[2] - q[0];
        p->dy[i] = q[3] - q[1];
        if (!isfinite(p->dx[i]) || !isfinite(p->dy[i])) {
            error("%s: %s: B - A overflows float32", p->query_src,
                  where(wb, sizeof wb, i, p->query_line));
            return -1;
        }
    }
    return 0;
}

static int load_files(const options *o, problem *p, hsio_table *ct, hsio_table *qt)
{
    char err[512];
    const double ox = o->origin[0], oy = o->origin[1]; /* zero without --origin */
    const double cshift[3] = {ox, oy, 0.0}, qshift[4] = {ox, oy, ox, oy};
    progress_step("reading", o->circles);
    if (hsio_read_table_at(o->circles, 3, o->header, o->have_origin ? cshift : NULL, ct, err,
                           sizeof err) != 0) {
        error("%s: %s", o->circles, err);
        return -1;
    }
    progress_step("reading", o->queries);
    if (o->queries && hsio_read_table_at(o->queries, 4, o->header, o->have_origin ? qshift : NULL,
                                         qt, err, sizeof err) != 0) {
        error("%s: %s", o->queries, err);
        return -1;
    }
    p->circle_src = o->circles;
    p->query_src = o->queries;
    p->circle_line = ct->line;
    p->query_line = qt->line;
    if (problem_alloc(p, ct->rows, qt->rows) != 0)
        return -1;
    for (size_t i = 0; i < p->n; i++) {
        p->x[i] = ct->v[3 * i];
        p->y[i] = ct->v[3 * i + 1];
        p->r[i] = ct->v[3 * i + 2];
    }
    return set_queries(p, qt->v);
}

/* Bytes a built-in scene's run needs at least: the circles and their grid (about 40 bytes a
 * circle) and the segments with their order and answers (about 64 bytes a query). */
static double scene_bytes(size_t n, size_t m) { return 40.0 * (double)n + 64.0 * (double)m; }

static int load_scene(const options *o, problem *p, float **rows4)
{
    p->circle_src = p->query_src = hs_scene_kind_name(o->scene);
    /* refuse a scene far beyond the machine's memory before touching it: the allocations
     * would succeed (overcommit) and the run end in the out-of-memory killer */
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const double need = scene_bytes(o->n, o->m), have = (double)pages * (double)page;
    if (pages > 0 && page > 0 && need > have) {
        error("a scene of %zu circles and %zu segments needs about %.1f GB; this machine has "
              "%.1f GB",
              o->n, o->m, need / 1e9, have / 1e9);
        return -1;
    }
    progress_step("generating the scene", NULL);
    if (problem_alloc(p, o->n, o->m) != 0)
        return -1;
    *rows4 = malloc((o->m ? o->m : 1) * 4 * sizeof(float));
    if (!*rows4) {
        error("out of memory");
        return -1;
    }
    hs_status s = hs_scene_circles(o->scene, o->n, o->seed, p->x, p->y, p->r);
    if (s == HS_OK)
        s = hs_scene_segments(o->scene, o->n, o->m, o->seed, p->ax, p->ay, p->dx, p->dy);
    if (s != HS_OK) {
        error("scene generation failed: %s", status_text(s));
        return -1;
    }
    float *q = *rows4;
    for (size_t i = 0; i < o->m; i++) {
        q[4 * i] = p->ax[i];
        q[4 * i + 1] = p->ay[i];
        q[4 * i + 2] = p->ax[i] + p->dx[i];
        q[4 * i + 3] = p->ay[i] + p->dy[i];
    }
    return set_queries(p, q);
}

static int write_scene(const options *o, const problem *p, const float *rows4)
{
    size_t len = strlen(o->write_scene) + 32;
    char *path = malloc(len);
    float *c = malloc((p->n ? p->n : 1) * 3 * sizeof(float));
    int rc = -1;
    if (!path || !c) {
        error("out of memory");
        goto done;
    }
    for (size_t i = 0; i < p->n; i++) {
        c[3 * i] = p->x[i];
        c[3 * i + 1] = p->y[i];
        c[3 * i + 2] = p->r[i];
    }
    for (int k = 0; k < 2; k++) {
        snprintf(path, len, "%s_%s.npy", o->write_scene, k ? "queries" : "circles");
        progress_step("writing", path);
        hsio_out_file out;
        char err[512];
        if (hsio_out_open(&out, path, err, sizeof err) != 0) {
            error("%s: %s", path, err);
            goto done;
        }
        const size_t shape[2] = {k ? p->m : p->n, k ? 4u : 3u};
        if (hsio_write_npy(out.f, "<f4", 2, shape, k ? rows4 : c, sizeof(float)) != 0) {
            error("%s: write failed: %s", path, strerror(errno));
            hsio_out_abort(&out);
            goto done;
        }
        if (hsio_out_commit(&out, err, sizeof err) != 0) {
            error("%s: %s", path, err);
            goto done;
        }
        hsio_progress_clear();
        fputs("hitscan: wrote ", stdout);
        hsio_fputs_escaped(path, stdout);
        printf(" (%zu, %zu) float32\n", shape[0], shape[1]);
    }
    rc = 0;
done:
    free(path);
    free(c);
    return rc;
}

/* The displacements of --displacements, one row per circle, into p->mx, p->my. */
static int load_displacements(const options *o, problem *p)
{
    hsio_table dt = {0};
    char err[512];
    progress_step("reading", o->displacements);
    int rc = -1;
    if (hsio_read_table_opt(o->displacements, 2, o->header, &dt, err, sizeof err) != 0)
        error("%s: %s", o->displacements, err);
    else if (dt.rows != p->n)
        error("%s: %zu rows, but there are %zu circles: one displacement per circle",
              o->displacements, dt.rows, p->n);
    else if (!(p->mx = malloc((p->n ? p->n : 1) * sizeof(float))) ||
             !(p->my = malloc((p->n ? p->n : 1) * sizeof(float))))
        error("out of memory");
    else
        rc = 0;
    for (size_t i = 0; rc == 0 && i < p->n; i++) {
        p->mx[i] = dt.v[2 * i];
        p->my[i] = dt.v[2 * i + 1];
    }
    hsio_table_free(&dt);
    return rc;
}

/* A displacement refused by the library, by its row. */
static void report_bad_displacement(const options *o, const problem *p, hs_status s)
{
    for (size_t i = 0; i < p->n; i++) {
        const double x = p->mx[i], y = p->my[i];
        if (!isfinite(x) || !isfinite(y) || !(x * x + y * y <= 1e36)) {
            error("%s: row %zu: %s (dx=%g, dy=%g)", o->displacements, i,
                  isfinite(x) && isfinite(y) ? "longer than 1e18" : "not finite", x, y);
            return;
        }
    }
    error("pairs failed: %s", status_text(s));
}

/* Why hs_walls_create refuses a wall, for messages. */
static const char *wall_fault(hs_status s)
{
    if (s == HS_E_RANGE)
        return "|ax|, |ay|, |bx|, |by| or thickness above 1e+18";
    return s == HS_E_NEG_RADIUS ? "negative thickness" : status_text(s);
}

/* The walls of --walls, rows ax,ay,bx,by[,thickness[,mask]] (taken relative to --origin), as
 * a wall set of their own (the grid copies it). */
static int load_walls(const options *o, hs_walls **out)
{
    static const hsio_spec spec = {4, 6, 1, 5};
    const double ox = o->origin[0], oy = o->origin[1]; /* zero without --origin */
    const double shift[6] = {ox, oy, ox, oy, 0.0, 0.0};
    hsio_table wt = {0};
    char err[512], wb[64];
    progress_step("reading", o->walls);
    if (hsio_read_table_spec(o->walls, &spec, o->header, o->have_origin ? shift : NULL, &wt, err,
                             sizeof err) != 0) {
        error("%s: %s", o->walls, err);
        return -1;
    }
    const size_t k = wt.rows, c = wt.cols, kk = k ? k : 1;
    float *col = malloc(5 * kk * sizeof(float)); /* ax, ay, bx, by, thickness */
    for (size_t i = 0; col && i < k; i++)
        for (size_t j = 0; j < 5; j++)
            col[j * kk + i] = j < c ? wt.v[c * i + j] : 0.0f;
    size_t bad = (size_t)-1;
    const hs_status s = col ? hs_walls_create(col, col + kk, col + 2 * kk, col + 3 * kk,
                                              c >= 5 ? col + 4 * kk : NULL, wt.bits, k, out, &bad)
                            : HS_E_NOMEM;
    if (s != HS_OK && bad < k)
        error("%s: %s: %s (ax=%g, ay=%g, bx=%g, by=%g, thickness=%g)", o->walls,
              where(wb, sizeof wb, bad, wt.line), wall_fault(s), (double)col[bad],
              (double)col[kk + bad], (double)col[2 * kk + bad], (double)col[3 * kk + bad],
              (double)col[4 * kk + bad]);
    else if (s != HS_OK)
        error("%s: cannot make the wall set: %s", o->walls, status_text(s));
    free(col);
    hsio_table_free(&wt);
    return s == HS_OK ? 0 : -1;
}

/* Results of one run, whatever the mode. */
typedef struct results {
    hs_closest_out cl;
    uint8_t *hit;
    uint32_t *count;
    hs_hits all;
    hs_pairs pairs;
    hs_swept_pairs swept;
    const float *mx, *my; /* the displacements of swept pairs, or NULL */
    size_t hits;          /* queries hit (closest, any) or total hits (count, all) */
} results;

static void results_free(results *r)
{
    free(r->cl.idx);
    free(r->cl.t);
    free(r->cl.px);
    free(r->cl.py);
    free(r->cl.nx);
    free(r->cl.ny);
    free(r->cl.kind);
    free(r->hit);
    free(r->count);
    if (r->all.offsets)
        hs_hits_free(&r->all);
    hs_pairs_free(&r->pairs);
    hs_swept_pairs_free(&r->swept);
}

/* The output arrays of the mode (all-hits' come from the call itself). */
static hs_status results_alloc(const options *o, size_t m, results *res)
{
    size_t mm = m ? m : 1;
    switch (o->mode) {
    case MODE_CLOSEST: {
        hs_closest_out *c = &res->cl;
        c->idx = malloc(mm * sizeof *c->idx);
        c->t = malloc(mm * sizeof(float));
        c->px = malloc(mm * sizeof(float));
        c->py = malloc(mm * sizeof(float));
        c->nx = malloc(mm * sizeof(float));
        c->ny = malloc(mm * sizeof(float));
        c->kind = o->walls ? malloc(mm) : NULL; /* the grid writes every one */
        return c->idx && c->t && c->px && c->py && c->nx && c->ny && (c->kind || !o->walls)
                   ? HS_OK
                   : HS_E_NOMEM;
    }
    case MODE_ANY: res->hit = malloc(mm); return res->hit ? HS_OK : HS_E_NOMEM;
    case MODE_COUNT:
        res->count = malloc(mm * sizeof(uint32_t));
        return res->count ? HS_OK : HS_E_NOMEM;
    case MODE_ALL:
    case MODE_PAIRS: return HS_OK;
    }
    return HS_E_RANGE;
}

/* One batch call into res's arrays. */
static hs_status run_queries(const options *o, const hs_grid *g, const hs_circles *cs,
                             const hs_queries *qs, const hs_batch_opts *bo, results *res)
{
#ifdef HS_CLI_MPI
    return hscli_mpi_run((int)o->mode, o->brute ? cs : NULL, qs, bo, &res->cl, res->hit, res->count,
                         &res->all);
#endif
    switch (o->mode) {
    case MODE_CLOSEST:
        return g ? hs_grid_closest(g, qs, bo, res->cl) : hs_brute_closest(cs, qs, bo, res->cl);
    case MODE_ANY: return g ? hs_grid_any(g, qs, bo, res->hit) : hs_brute_any(cs, qs, bo, res->hit);
    case MODE_COUNT:
        return g ? hs_grid_count_hits(g, qs, bo, res->count)
                 : hs_brute_count(cs, qs, bo, res->count);
    case MODE_ALL:
        if (res->all.offsets) /* a repeated call: the previous result goes first */
            hs_hits_free(&res->all);
        return g ? hs_grid_all(g, qs, bo, &res->all) : hs_brute_all(cs, qs, bo, &res->all);
    case MODE_PAIRS: { /* a repeated call: the previous result goes first */
        hs_pairs_free(&res->pairs);
        hs_swept_pairs_free(&res->swept);
        const hs_pair_opts po = {o->skin, o->have_box ? HS_PAIRS_SHIFTS : 0u};
        return res->mx ? hs_grid_swept_pairs(g, res->mx, res->my, bo, &res->swept)
                       : hs_grid_pairs_ex(g, &po, bo, &res->pairs);
    }
    }
    return HS_E_RANGE;
}

/* The summary's hit figure of the last call. */
static size_t results_hits(const options *o, size_t m, const results *res)
{
    size_t hits = 0;
    switch (o->mode) {
    case MODE_CLOSEST:
        for (size_t i = 0; i < m; i++)
            hits += res->cl.idx[i] != HS_NONE;
        return hits;
    case MODE_ANY:
        for (size_t i = 0; i < m; i++)
            hits += res->hit[i] != 0;
        return hits;
    case MODE_COUNT:
        for (size_t i = 0; i < m; i++)
            hits += res->count[i];
        return hits;
    case MODE_ALL: return res->all.total;
    case MODE_PAIRS: return res->mx ? res->swept.count : res->pairs.count;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int write_results(const options *o, const problem *p, const results *r)
{
    hsio_out_file out;
    char err[512];
    if (hsio_out_open(&out, o->out, err, sizeof err) != 0) {
        error("%s: %s", o->out, err);
        return -1;
    }
    FILE *f = out.f;
    int w = -1;
    hsio_progress_watch(f);
    errno = 0;
    switch (o->mode) {
    case MODE_CLOSEST:
        w = hsio_write_closest_kind(f, o->format, p->m, r->cl.idx, r->cl.t, r->cl.px, r->cl.py,
                                    r->cl.nx, r->cl.ny, o->origin[0], o->origin[1], r->cl.kind);
        break;
    case MODE_ANY: w = hsio_write_any(f, o->format, p->m, r->hit); break;
    case MODE_COUNT: w = hsio_write_count(f, o->format, p->m, r->count); break;
    case MODE_ALL: {
        /* with --walls a kind column, all circles' when the wall set was empty */
        uint8_t *none = o->walls && !r->all.kind ? calloc(r->all.total + 1, 1) : NULL;
        const uint8_t *kind = r->all.kind ? r->all.kind : none;
        w = o->walls && !kind ? -1
                              : hsio_write_all_kind(f, o->format, p->m, r->all.offsets, r->all.idx,
                                                    r->all.t, kind);
        free(none);
        break;
    }
    case MODE_PAIRS: {
        const hs_swept_pairs *sw = &r->swept;
        const hsio_pair_cols c =
            r->mx ? (hsio_pair_cols){sw->i,  sw->j,           sw->t,  sw->nx,
                                     sw->ny, sw->overlapping, sw->sx, sw->sy}
                  : (hsio_pair_cols){r->pairs.i, r->pairs.j, NULL,        NULL,
                                     NULL,       NULL,       r->pairs.sx, r->pairs.sy};
        w = hsio_write_pairs(f, o->format, r->mx ? sw->count : r->pairs.count, &c);
        break;
    }
    }
    if (w != 0) {
        error("%s: write failed: %s", o->out, strerror(errno ? errno : EIO));
        hsio_out_abort(&out);
        return -1;
    }
    hsio_progress_watch(NULL); /* before the commit closes the file */
    if (hsio_out_commit(&out, err, sizeof err) != 0) {
        error("%s: %s", o->out, err);
        return -1;
    }
    return 0;
}

/* A rejected circle set, by the row at fault: the library's bad_index, or the first row that
 * hs_circle_validate refuses when the library named none. */
static void report_bad_circle(const problem *p, hs_status s, size_t bad)
{
    char wb[64];
    for (size_t i = 0; bad >= p->n && i < p->n; i++) {
        hs_circle c = {p->x[i], p->y[i], p->r[i]};
        hs_status v = hs_circle_validate(c);
        if (v != HS_OK) {
            bad = i;
            s = v;
        }
    }
    if (bad >= p->n) {
        error("%s: invalid circles: %s", p->circle_src, status_text(s));
        return;
    }
    char why[64];
    if (s == HS_E_RANGE)
        snprintf(why, sizeof why, "|x|, |y| or r above %g", (double)HS_MAX_COORD);
    else
        snprintf(why, sizeof why, "%s", s == HS_E_NEG_RADIUS ? "negative radius" : status_text(s));
    error("%s: %s: %s (x=%g, y=%g, r=%g)", p->circle_src, where(wb, sizeof wb, bad, p->circle_line),
          why, (double)p->x[bad], (double)p->y[bad], (double)p->r[bad]);
}

/* The circle a periodic box refuses, by its row (the box's own faults are usage errors):
 * found by a rebuild from an empty grid with the same box, which names it. 1 when reported. */
static int report_box_circle(const problem *p, const hs_grid_opts *go)
{
    hs_circles *empty = NULL;
    hs_grid *g = NULL;
    size_t bad = (size_t)-1;
    char wb[64];
    int found = hs_circles_borrow(NULL, NULL, NULL, NULL, 0, &empty, NULL) == HS_OK &&
                hs_grid_build(empty, go, &g) == HS_OK &&
                hs_grid_rebuild_from(g, p->x, p->y, p->r, NULL, p->n, &bad) == HS_E_BOX &&
                bad < p->n;
    if (found)
        error("%s: %s: outside the box on an axis that is not periodic, or a diameter not below "
              "half a period (x=%g, y=%g, r=%g)",
              p->circle_src, where(wb, sizeof wb, bad, p->circle_line), (double)p->x[bad],
              (double)p->y[bad], (double)p->r[bad]);
    else
        error("--box: the box is too small for the grid's cells (a cell above half a period)");
    hs_grid_destroy(g);
    hs_circles_destroy(empty);
    return 1;
}

/* Why hs_query_validate refuses a query, for messages. */
static const char *query_fault(hs_status s, char *buf, size_t cap)
{
    if (s == HS_E_RANGE)
        snprintf(buf, cap,
                 "out of range (|ax|, |ay| and the thickness at most %g, |B - A|^2 a "
                 "normal float)",
                 (double)HS_MAX_COORD);
    else
        snprintf(buf, cap, "%s", s == HS_E_NEG_RADIUS ? "negative thickness" : status_text(s));
    return buf;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    /* an input is never an output: refused before anything is read or written */
    if (o.out) {
        const char *out = strcmp(o.out, "-") == 0 ? NULL : o.out;
        const char *in[4][2] = {{"--circles", o.circles},
                                {"--queries", o.queries},
                                {"--displacements", o.displacements},
                                {"--walls", o.walls}};
        for (int k = 0; k < 4; k++)
            if (in[k][1] && hsio_same_file(in[k][1], out)) {
                error("--out %s is the same file as %s %s: it would destroy the input",
                      out ? out : "- (stdout)", in[k][0], in[k][1]);
                return EXIT_USAGE;
            }
    }
    hsio_out_catch_signals();
    if (HSCLI_WRITER)
        hsio_progress_start();
    const double t_start = omp_get_wtime();

    problem p;
    memset(&p, 0, sizeof p);
    hsio_table ct = {0}, qt = {0};
    float *scene_rows = NULL;
    hs_circles *cs = NULL;
    hs_grid *g = NULL;
    hs_walls *walls = NULL;
    hs_workspace *ws = NULL;
    results res;
    memset(&res, 0, sizeof res);
    rc = EXIT_DATA;

    if (o.have_scene ? load_scene(&o, &p, &scene_rows) : load_files(&o, &p, &ct, &qt))
        goto done;
    if (o.displacements && load_displacements(&o, &p) != 0)
        goto done;
    if (o.walls && load_walls(&o, &walls) != 0)
        goto done;
    const double read_ms = (omp_get_wtime() - t_start) * 1e3;
    if (o.write_scene) {
        if (!HSCLI_WRITER || write_scene(&o, &p, scene_rows) == 0)
            rc = 0;
        goto done;
    }

    /* start OpenMP's thread pool now, so its one-time cost is in neither timing */
    int threads = o.threads ? o.threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads)
    {
        (void)0;
    }
    /* The grid copies the circles, so it borrows ours; brute force gets its own aligned,
     * padded copy, and that copy is its "build". Validation happens in both. */
    size_t bad = (size_t)-1;
    progress_step(o.brute ? "copying the circles" : "building the grid", NULL);
    double t0 = omp_get_wtime();
    hs_status s = o.brute ? hs_circles_create(p.x, p.y, p.r, NULL, p.n, &cs, &bad)
                          : hs_circles_borrow(p.x, p.y, p.r, NULL, p.n, &cs, &bad);
    if (s == HS_E_NONFINITE || s == HS_E_NEG_RADIUS || s == HS_E_RANGE || bad < p.n) {
        report_bad_circle(&p, s, bad);
        goto done;
    }
    if (s != HS_OK) {
        error("%s: cannot make the circle set: %s", p.circle_src, status_text(s));
        goto done;
    }
    if (!o.brute) {
        t0 = omp_get_wtime();
        hs_grid_opts go = {.cell_size = o.cell_size, .threads = o.threads, .walls = walls};
        if (o.have_box) {
            go.periodic = o.periodic;
            go.box =
                (hs_aabb){{(float)o.box[0], (float)o.box[1]}, {(float)o.box[2], (float)o.box[3]}};
        }
#ifdef HS_CLI_MPI
        s = hscli_mpi_build(p.x, p.y, p.r, p.n, &go);
#else
        s = hs_grid_build(cs, &go, &g);
#endif
        if (s == HS_E_BOX && report_box_circle(&p, &go))
            goto done;
        if (s != HS_OK) {
            error("grid build failed: %s", status_text(s));
            goto done;
        }
    }
    double t1 = omp_get_wtime();

    hs_queries qs = hs_queries_segments(p.ax, p.ay, p.dx, p.dy, p.m);
    qs.tmin_all = o.kind == KIND_LINE ? -INFINITY : 0.0f;
    qs.tmax_all = o.kind == KIND_SEGMENT ? 1.0f : INFINITY;
    qs.q_all = o.thickness;
    hs_batch_stats stats;
    memset(&stats, 0, sizeof stats);
    hs_batch_opts bo = hs_batch_opts_default();
    bo.sem =
        (hs_semantics)((o.boundary ? HS_BOUNDARY : HS_SOLID) | (o.skip_start ? HS_SKIP_START : 0));
    bo.isa = o.isa;
    bo.threads = o.threads;
    bo.stats = &stats;
    bo.disp_x = p.mx; /* NULL without --displacements: circles standing still */
    bo.disp_y = p.my;

    /* --repeat: every call through one workspace, as a frame loop would; the median call
     * is the steady state, the first one the cold call a single run measures */
    const int reps = o.repeat ? o.repeat : 1;
    double *call_ms = calloc((size_t)reps, sizeof *call_ms);
    s = call_ms ? results_alloc(&o, p.m, &res) : HS_E_NOMEM;
    res.mx = p.mx;
    res.my = p.my;
    if (s == HS_OK && o.repeat && (s = hs_workspace_create(&ws)) == HS_OK)
        bo.ws = ws;
    int done_calls = 0;
    for (; done_calls < reps && s == HS_OK; done_calls++) {
        char step[64];
        if (reps > 1)
            snprintf(step, sizeof step, "querying: call %d of %d", done_calls + 1, reps);
        progress_step(reps > 1 ? step : "querying", NULL);
        double c0 = omp_get_wtime();
        s = run_queries(&o, g, cs, &qs, &bo, &res);
        call_ms[done_calls] = (omp_get_wtime() - c0) * 1e3;
    }
    const double first_ms = call_ms ? call_ms[0] : 0.0;
    double call = 0.0; /* the median call (the lower middle one for an even count) */
    if (s == HS_OK) {
        res.hits = results_hits(&o, p.m, &res);
        qsort(call_ms, (size_t)done_calls, sizeof *call_ms, cmp_double);
        call = call_ms[(done_calls - 1) / 2];
    }
    free(call_ms);
    if (s == HS_E_INVALID_QUERY) {
        char wb[64], why[128];
        size_t i = stats.first_invalid < p.m ? stats.first_invalid : 0;
        hs_query q = {{p.ax[i], p.ay[i]}, {p.dx[i], p.dy[i]}, qs.tmin_all, qs.tmax_all, qs.q_all};
        error("%s: %s: invalid query: %s (ax=%g, ay=%g, B - A=(%g, %g); %zu invalid in all)",
              p.query_src, where(wb, sizeof wb, i, p.query_line),
              query_fault(hs_query_validate(q), why, sizeof why), (double)p.ax[i], (double)p.ay[i],
              (double)p.dx[i], (double)p.dy[i], stats.invalid);
        goto done;
    }
    if (s != HS_OK && o.displacements && (s == HS_E_NONFINITE || s == HS_E_RANGE)) {
        report_bad_displacement(&o, &p, s);
        goto done;
    }
    if (s != HS_OK) {
        error("query failed: %s", status_text(s));
        goto done;
    }

    const char *isa = hs_isa_name(hs_isa_resolve(o.isa));
    double build_ms = (t1 - t0) * 1e3, query_ms = call;
    /* pairs: circles per second, as the library's benchmarks count them */
    const int pairs = o.mode == MODE_PAIRS;
    const char *unit = pairs ? "circles" : "queries";
    double qps = call > 0.0 ? (double)(pairs ? p.n : p.m) / (call * 1e-3) : 0.0;
    const double w0 = omp_get_wtime();
    if (o.out && HSCLI_WRITER) {
        progress_step("writing", strcmp(o.out, "-") == 0 ? "to stdout" : o.out);
        if (write_results(&o, &p, &res) != 0)
            goto done;
    }
    const double w1 = omp_get_wtime();
    /* nothing written: 0, not the time between two clock reads */
    const double write_ms = o.out && HSCLI_WRITER ? (w1 - w0) * 1e3 : 0.0;
    const double total_ms = (w1 - t_start) * 1e3;
    hsio_progress_end();
    if (o.have_scene) {
        /* the human summary: stdout, unless the results themselves go there */
        FILE *h = o.out && strcmp(o.out, "-") == 0 ? stderr : stdout;
        fprintf(h, "hitscan: %s scene (seed %" PRIu64 "): N = %zu circles, M = %zu %ss",
                hs_scene_kind_name(o.scene), o.seed, p.n, p.m, kind_names[o.kind]);
        if (o.thickness > 0.0f)
            fprintf(h, " of thickness %g", (double)o.thickness);
        fprintf(h, "%s%s\n", o.boundary ? ", boundary semantics" : "",
                o.skip_start ? ", skip-start" : "");
        fprintf(h, "  read   %10.3f ms  scene generated\n", read_ms);
#ifdef HS_CLI_MPI
        if (!o.brute)
            hscli_mpi_print_build(h, build_ms);
        else
#endif
            if (g)
            fprintf(h, "  build  %10.3f ms  grid, %.1f M circles/s, cell %.3g, %.1f bytes/circle\n",
                    build_ms, build_ms > 0 ? (double)p.n / build_ms * 1e-3 : 0.0,
                    (double)hs_grid_cell_size(g),
                    p.n ? (double)hs_grid_bytes(g) / (double)p.n : 0.0);
        else
            fprintf(h, "  build  %10.3f ms  brute force (circle copy only)\n", build_ms);
        fprintf(h, "  query  %10.3f ms  %s%s, %.2f M %s/s (%s, %d thread%s)\n", query_ms,
                mode_names[o.mode], pairs && o.displacements ? " (swept)" : "", qps * 1e-6, unit,
                isa, threads, threads == 1 ? "" : "s");
        if (o.repeat)
            fprintf(h,
                    "         median of %d calls through one workspace; the first took %.3f ms\n",
                    reps, first_ms);
        if (pairs)
            fprintf(h, "  pairs  %zu, %.3f per circle\n", res.hits,
                    p.n ? (double)res.hits / (double)p.n : 0.0);
        else if (o.mode == MODE_CLOSEST || o.mode == MODE_ANY)
            fprintf(h, "  hits   %zu of %zu queries hit a circle (%.1f%%)\n", res.hits, p.m,
                    p.m ? 100.0 * (double)res.hits / (double)p.m : 0.0);
        else
            fprintf(h, "  hits   %zu in all, %.3f per query\n", res.hits,
                    p.m ? (double)res.hits / (double)p.m : 0.0);
        if (o.out) {
            fprintf(h, "  write  %10.3f ms  ", write_ms);
            hsio_fputs_escaped(o.out, h);
            fputc('\n', h);
        }
        fprintf(h, "  total  %10.3f ms  read, build, %s, write\n", total_ms,
                o.repeat ? "every query call" : "query");
    }
    fflush(stdout);
    fprintf(stderr,
            "hitscan: mode=%s kind=%s engine=%s N=%zu M=%zu isa=%s threads=%d build_ms=%.3f "
            "query_ms=%.3f %s_per_s=%.0f hits=%zu",
            mode_names[o.mode], kind_names[o.kind], o.brute ? "brute" : "grid", p.n, p.m, isa,
            threads, build_ms, query_ms, unit, qps, res.hits);
    if (o.repeat)
        fprintf(stderr, " repeat=%d first_ms=%.3f", reps, first_ms);
    fprintf(stderr, " read_ms=%.3f write_ms=%.3f total_ms=%.3f", read_ms, write_ms, total_ms);
    if (o.walls)
        fprintf(stderr, " walls=%zu", hs_walls_count(walls));
#ifdef HS_CLI_MPI
    fprintf(stderr, " ranks=%d", hscli_mpi_ranks());
#endif
    fputc('\n', stderr);
    rc = 0;
done:
    hsio_progress_end();
    results_free(&res); /* all-hits' arrays may be the workspace's: before it goes */
    hs_workspace_destroy(ws);
    if (g)
        hs_grid_destroy(g);
    hs_walls_destroy(walls);
    if (cs)
        hs_circles_destroy(cs);
    problem_free(&p);
    hsio_table_free(&ct);
    hsio_table_free(&qt);
    free(scene_rows);
    return rc;
}
