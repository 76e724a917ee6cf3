/* SPDX-License-Identifier: MIT */
/* Shared declarations of the hitscan CPython extension (module _hitscan): types, argument
 * conversion, per-object scratch memory. */
#ifndef HSPY_H
#define HSPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* One NumPy C-API table for every file of the extension; module.c imports it. */
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL hspy_ARRAY_API
#ifndef HSPY_IMPORT_ARRAY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "hitscan/hitscan.h"

/* The Python package's version (hitscan.__version__; pyproject.toml says the same). The C
 * library's is hs_version() (hitscan.library_version). */
#define HSPY_VERSION "0.3.0"

/* ---- module.c --------------------------------------------------------------------------- */
extern PyObject *hspy_InvalidQueryWarning;
/* The library's reason for a status, in words ("negative radius", ...). */
const char *hspy_status_text(hs_status s);
/* Raises the Python exception for a failed library call about argument `arg` (NULL: none). */
void hspy_raise_status(hs_status s, const char *arg);
/* Emits one hitscan.InvalidQueryWarning "<count> of <total> <what> are invalid and <fate>; the
 * first, ..." with attributes count, first and reason. 0, or -1 when it was raised as an
 * error (a warnings filter). */
int hspy_warn_invalid_rows(const char *what, const char *fate, size_t count, size_t total,
                           size_t first, const char *reason);

/* ---- convert.c: NumPy arrays in, the library's types out --------------------------------- */
/* `obj` as a float32, aligned, C-contiguous array in native byte order: the same array when it
 * already is one (a new reference, no copy; read-only arrays too), else one converted copy.
 * Real numbers only (float, int, uint): otherwise TypeError naming `arg`, and for None or
 * objects that are no arrays of numbers, what it must be (`what`: "a float array of shape
 * (M, 4)", ...). The caller checks the shape. */
PyArrayObject *hspy_float32(PyObject *obj, const char *arg, const char *what);
/* `obj` as a uint32 C-contiguous array: in place when it is one; other integer dtypes are
 * converted after checking every value is in 0 .. 2**32 - 1 (ValueError naming `arg`). */
PyArrayObject *hspy_uint32(PyObject *obj, const char *arg, const char *what);
/* `obj` as a uint32 C-contiguous array of indices: in place when it is one; other integer
 * dtypes converted, negative values to HS_NONE (none), values >= 2**32 a ValueError naming
 * `arg`. */
PyArrayObject *hspy_index32(PyObject *obj, const char *arg, const char *what);
/* Python int in 0 .. 2**32 - 1, else ValueError / TypeError naming `arg`. */
int hspy_uint32_scalar(PyObject *obj, const char *arg, uint32_t *out);
/* threads=None or -1: 0 (every core, OpenMP's default); a positive int: itself. */
int hspy_threads(PyObject *obj, int *out);
/* isa=None or "auto": HS_ISA_AUTO; a level's name: that level (ValueError otherwise). */
int hspy_isa(PyObject *obj, hs_isa *out);
/* semantics="solid" | "boundary". */
int hspy_semantics(PyObject *obj, hs_semantics *out);

/* ---- circles.c -------------------------------------------------------------------------- */
typedef struct hspy_circles {
    PyObject_HEAD PyArrayObject *x, *y, *r; /* float32, C-contiguous, length n: borrowed by cs */
    PyArrayObject *mask;                    /* uint32 or NULL */
    hs_circles *cs;
} hspy_circles;
extern PyTypeObject hspy_CirclesType;
/* `obj` as a Circles: itself (new reference) or Circles(obj) for an (N, 3) array. */
hspy_circles *hspy_as_circles(PyObject *obj, const char *arg);
/* 0 when `obj` may be a circle set (a Circles, an array or a sequence), else -1 with a
 * TypeError naming `arg`. */
int hspy_circles_like(PyObject *obj, const char *arg);
/* The k columns of an (N, k) array (k <= 8) as new read-only float32 arrays (a copy); errors
 * name `arg` and say what it must be (`what`: for None and other types, `need`: for a shape).
 * On error out[] is all NULL. */
int hspy_columns(PyObject *obj, const char *arg, const char *what, const char *need, int k,
                 PyArrayObject **out);
/* x, y, r as new read-only float32 arrays (a copy), deinterleaved from an (N, 3) array. On
 * error out[] is all NULL. */
int hspy_circle_columns(PyObject *xyr, PyArrayObject *out[3]);
/* x, y, r as float32 C-contiguous 1-D arrays of one length: the caller's own when they are
 * such arrays (borrowed), else converted copies. On error out[] is all NULL. */
int hspy_circle_arrays(PyObject *x, PyObject *y, PyObject *r, PyArrayObject *out[3]);
/* 0 when a is 1-D of length n (n < 0: any), else -1 with a ValueError naming arg and, for a
 * wrong length, the n `noun` ("circles", "walls") it should match. */
int hspy_check_vector(PyArrayObject *a, const char *arg, npy_intp n, const char *noun);
/* A per-circle mask: uint32, 1-D, length n. */
PyArrayObject *hspy_circle_mask(PyObject *mask, npy_intp n);
/* The same for any per-circle bits named arg in errors (mask, collide). */
PyArrayObject *hspy_circle_bits(PyObject *bits, const char *arg, npy_intp n);
/* ValueError "<arg>: <unit> <i>: <reason> (x=.., y=.., r=..)<tail>" about circle i; arg NULL
 * names the array (x, y or r) that holds the bad value for status s. */
void hspy_raise_bad_circle(hs_status s, const char *reason, const char *arg, const char *unit,
                           size_t i, const float *x, const float *y, const float *r,
                           const char *tail);

/* ---- walls.c --------------------------------------------------------------------------- */
typedef struct hspy_walls {
    PyObject_HEAD PyArrayObject *end[4]; /* ax, ay, bx, by: the set's own read-only copies */
    PyArrayObject *thickness;            /* float32 (K,) or NULL: borrowed by ws */
    PyArrayObject *mask;                 /* uint32 (K,) or NULL: borrowed by ws */
    hs_walls *ws;
} hspy_walls;
extern PyTypeObject hspy_WallsType;
/* `obj` as a Walls: itself (new reference), Walls(obj) for a (K, 4) array, or NULL with an
 * exception (a TypeError naming `arg` for None and objects that are neither). */
hspy_walls *hspy_as_walls(PyObject *obj, const char *arg);

/* ---- wrap.c: float64 centres wrapped into a periodic box before float32 ----------------- */
/* An (N, 3) array of x, y, r (hspy_wrap_xyr) or a 1-D array of the coordinates on axis
 * `axis` (0: x, 1: y; hspy_wrap_coords) with the coordinates on the periodic `axes`
 * (HS_PERIODIC_*) of `box` wrapped into it as the library wraps them, in float64: a new
 * float64 array when obj holds float64 or integers and there is something to wrap, else obj
 * itself (a new reference; anything NumPy cannot take is left to the usual conversion, which
 * names the problem). Never fails. */
PyObject *hspy_wrap_xyr(PyObject *obj, unsigned axes, const hs_aabb *box);
PyObject *hspy_wrap_coords(PyObject *obj, int axis, unsigned axes, const hs_aabb *box);

/* ---- scratch.c: memory a batch call reuses between calls --------------------------------- */
/* The query arrays in the library's SoA layout (ax, ay, dx, dy), the library's uint32 answers
 * (closest's indices, count's counts) before they are widened to int64, and the library's
 * workspace. An engine keeps one and lends it to one call at a time; a call that finds it
 * taken (another Python thread is querying the same object) makes its own. Reused memory:
 * fresh pages cost a fault each on first touch. */
typedef struct hspy_scratch {
    float *soa;       /* 4 * cap floats */
    uint32_t *u32;    /* cap values, after soa */
    size_t cap;       /* queries */
    hs_workspace *ws; /* NULL until first needed */
} hspy_scratch;
int hspy_scratch_reserve(hspy_scratch *s, size_t m); /* 0, or -1 with MemoryError set */
void hspy_scratch_free(hspy_scratch *s);

/* ---- recycle.c: result arrays whose memory goes back to the Grid / Brute ------------------ */
/* A bin keeps the memory of up to HSPY_BIN_SLOTS dropped large result arrays (the largest
 * ones), so that a loop of calls whose results are dropped between calls reuses it instead of
 * faulting in fresh pages each call. Freed with the bin (its engine and every array made from
 * it gone). Used with the GIL held. */
#define HSPY_BIN_SLOTS 8
typedef struct hspy_bin hspy_bin;
extern PyTypeObject hspy_BinType, hspy_OwnerType;
hspy_bin *hspy_bin_new(void);
/* A new C-contiguous array, its memory from the bin when large (bin may be NULL: NumPy's). */
PyObject *hspy_bin_array(hspy_bin *bin, int nd, const npy_intp *shape, int type);

/* ---- queries.c: one parsed batch call ---------------------------------------------------- */
typedef enum hspy_mode { HSPY_CLOSEST, HSPY_ANY, HSPY_COUNT, HSPY_ALL } hspy_mode;

typedef struct hspy_batch {
    PyArrayObject *queries;   /* float32 (..., 4), C-contiguous */
    PyArrayObject *thickness; /* float32 per query, or NULL */
    PyArrayObject *mask;      /* uint32 per query, or NULL */
    PyArrayObject *ignore;    /* uint32 per query (HS_NONE: none), or NULL */
    int out_ndim;             /* the queries' shape without its last axis */
    npy_intp out_shape[NPY_MAXDIMS];
    size_t m;
    int kind; /* 0 segment, 1 ray, 2 line */
    float thickness_all;
    uint32_t mask_all;
    hs_batch_opts opts;
    hs_batch_stats stats;
    int details, csr;
    PyObject *out;          /* borrowed: the caller's out= (closest: a tuple), or NULL */
    PyObject *displacement; /* borrowed: the caller's displacement=, or NULL */
    float *disp;            /* owned: its dx then dy columns (opts.disp_x, disp_y) */
    unsigned periodic;      /* the grid's periodic axes (0: none, or a Brute) */
} hspy_batch;

/* Parses queries and keyword arguments of a query method (closest / any / count / all). */
int hspy_batch_parse(hspy_batch *b, hspy_mode mode, PyObject *args, PyObject *kwds);
void hspy_batch_clear(hspy_batch *b);
/* Fills s->soa from the queries (D = B - A in float32, as the command-line tool) and returns
 * the library's query batch. Runs without the GIL. */
hs_queries hspy_batch_soa(const hspy_batch *b, hspy_scratch *s);
/* After a call that returned HS_E_INVALID_QUERY: emits hitscan.InvalidQueryWarning. */
int hspy_warn_invalid(const hspy_batch *b);

/* ---- results.c: library outputs as NumPy arrays ----------------------------------------- */
/* Below this many elements a pass runs on the calling thread (a parallel region costs more). */
#define HSPY_PAR_MIN 65536
/* threads=0 (every core): OpenMP's default team size; else itself. */
int hspy_team(int threads);
/* out[i] = in[i] as int64 (HS_NONE -> -1 when none_to_minus1), one parallel loop. */
void hspy_widen_u32(const uint32_t *in, int64_t *out, size_t n, int none_to_minus1, int threads);
/* All-hits' result arrays, (query, circle, t) or with csr (offsets, circle, t), and .kind: made
 * from the bin by hspy_hits_place (an hs_hits_place_fn, ctx a hspy_hits_arrays) when the library
 * knows the number of hits, and filled by the library itself. */
typedef struct hspy_hits_arrays {
    hspy_bin *bin;
    int csr;
    PyArrayObject *first, *circle, *t; /* NULL until placed */
    PyArrayObject *kind;               /* uint8 HS_KIND_* per hit, NULL until placed */
} hspy_hits_arrays;
int hspy_hits_place(void *ctx, size_t count, size_t total, hs_hits_into *dst);
/* The result tuple, taking the arrays (NULL with an exception, the arrays dropped). */
PyObject *hspy_hits_result(hspy_hits_arrays *p);
void hspy_hits_arrays_clear(hspy_hits_arrays *p);
extern PyTypeObject *hspy_ClosestType, *hspy_ClosestDetailsType, *hspy_HitsType, *hspy_HitsCSRType,
    *hspy_OverlapsType, *hspy_OverlapsCSRType, *hspy_HitType, *hspy_SweptPairsType,
    *hspy_PairShiftsType, *hspy_ContactsType;
int hspy_results_init(PyObject *module);

/* ---- engine.c: Grid and Brute ----------------------------------------------------------- */
extern PyTypeObject hspy_GridType, hspy_BruteType;
typedef struct hspy_engine {
    /* Brute queries `circles`. A Grid has its own copy of its circles and keeps what it was
     * last built from, for .circles and pickling: a Circles, or after a rebuild from arrays
     * those arrays in src (x, y, r, mask or NULL), made into a Circles when first asked for. */
    PyObject_HEAD hspy_circles *circles;
    PyArrayObject *src[4];
    hs_grid *grid;       /* Grid only */
    PyObject *cell_size; /* Grid's arguments, for rebuild and pickling */
    PyObject *threads;
    PyObject *box;        /* None, or the periodic box (x0, y0, x1, y1) as given */
    PyObject *periodic;   /* None, or the periodic axes as given */
    hspy_walls *walls;    /* Grid: the Walls it holds a copy of (for .walls, pickling), or NULL */
    hspy_scratch scratch; /* lent to one call at a time */
    hspy_bin *bin;        /* memory of dropped result arrays, for the next calls' results */
    int scratch_busy;
    int calls; /* queries running with the GIL released (changed with the GIL held) */
    int rebuilding;
} hspy_engine;

/* A float (N, 2) array of displacements, one row per circle of self's grid, as the dx and dy
 * columns the library takes (malloc'd, 2N floats); NULL with the exception set, the bad row
 * named (name: the argument's name). */
float *hspy_displacement_columns(hspy_engine *self, PyObject *obj, const char *name);

/* ---- particles.c: the Grid's pair searches and overlap queries ----------------------------- */
PyObject *hspy_grid_pairs(hspy_engine *self, PyObject *args, PyObject *kwds);
PyObject *hspy_grid_swept_pairs(hspy_engine *self, PyObject *args, PyObject *kwds);
PyObject *hspy_grid_overlap(hspy_engine *self, PyObject *args, PyObject *kwds);

#endif
