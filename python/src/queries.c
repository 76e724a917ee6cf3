/* SPDX-License-Identifier: MIT */
/* The arguments of a batch query method (closest / any / count / all) and the queries in the
 * library's SoA form. */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <math.h>

#include <omp.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static const char *const kind_names[] = {"segment", "ray", "line"};

static int parse_kind(PyObject *obj, int *out)
{
    if (!obj) {
        *out = 0;
        return 0;
    }
    if (PyUnicode_Check(obj))
        for (int k = 0; k < 3; k++)
            if (PyUnicode_CompareWithASCIIString(obj, kind_names[k]) == 0) {
                *out = k;
                return 0;
            }
    PyErr_Format(PyExc_ValueError, "kind: %R is not 'segment', 'ray' or 'line'", obj);
    return -1;
}

static int is_scalar(PyObject *obj)
{
    return PyFloat_Check(obj) || PyLong_Check(obj) || PyArray_IsScalar(obj, Number) ||
           (PyArray_Check(obj) && PyArray_NDIM((PyArrayObject *)obj) == 0);
}

/* A per-query array must have the queries' shape without its last axis. */
static int check_per_query(const hspy_batch *b, PyArrayObject *a, const char *arg)
{
    int same = PyArray_NDIM(a) == b->out_ndim;
    for (int k = 0; same && k < b->out_ndim; k++)
        same = PyArray_DIM(a, k) == b->out_shape[k];
    if (same)
        return 0;
    PyObject *got = PyObject_GetAttrString((PyObject *)a, "shape");
    PyObject *want = PyArray_IntTupleFromIntp(b->out_ndim, b->out_shape);
    if (got && want)
        PyErr_Format(PyExc_ValueError,
                     "%s: shape %R does not match the queries (need a scalar or shape %R)", arg,
                     got, want);
    Py_XDECREF(got);
    Py_XDECREF(want);
    return -1;
}

static int parse_thickness(hspy_batch *b, PyObject *obj)
{
    b->thickness_all = 0.0f;
    if (!obj)
        return 0;
    if (is_scalar(obj)) {
        const double q = PyFloat_AsDouble(obj);
        if (q == -1.0 && PyErr_Occurred())
            return -1;
        if (!(q >= 0.0) || !isfinite((float)q)) {
            PyErr_Format(PyExc_ValueError,
                         "thickness: %R is not a finite number >= 0 (the half-width of every "
                         "query)",
                         obj);
            return -1;
        }
        b->thickness_all = (float)q;
        return 0;
    }
    if (!(b->thickness = hspy_float32(obj, "thickness",
                                      "a number >= 0 or a float array with one value per query")))
        return -1;
    return check_per_query(b, b->thickness, "thickness");
}

static int parse_mask(hspy_batch *b, PyObject *obj)
{
    b->mask_all = UINT32_MAX;
    if (!obj || obj == Py_None)
        return 0;
    if (PyIndex_Check(obj) && !PyArray_Check(obj))
        return hspy_uint32_scalar(obj, "mask", &b->mask_all);
    if (!(b->mask = hspy_uint32(obj, "mask",
                                "None, an int or an integer array with one value per query")))
        return -1;
    if (PyArray_NDIM(b->mask) == 0) {
        b->mask_all = *(const uint32_t *)PyArray_DATA(b->mask);
        Py_CLEAR(b->mask);
        return 0;
    }
    return check_per_query(b, b->mask, "mask");
}

/* ignore: None, one circle index for every query or one per query (negative: none). The
 * library takes an array only: a scalar is spread over one. */
static int parse_ignore(hspy_batch *b, PyObject *obj)
{
    if (!obj || obj == Py_None)
        return 0;
    if (!(b->ignore = hspy_index32(obj, "ignore",
                                   "None, an int or an integer array with one circle index per "
                                   "query")))
        return -1;
    if (PyArray_NDIM(b->ignore) == 0 && b->out_ndim > 0) {
        const uint32_t j = *(const uint32_t *)PyArray_DATA(b->ignore);
        Py_SETREF(b->ignore,
                  (PyArrayObject *)PyArray_SimpleNew(b->out_ndim, b->out_shape, NPY_UINT32));
        if (!b->ignore)
            return -1;
        uint32_t *v = (uint32_t *)PyArray_DATA(b->ignore);
        for (size_t i = 0; i < b->m; i++)
            v[i] = j;
        return 0;
    }
    return check_per_query(b, b->ignore, "ignore");
}

static int parse_queries(hspy_batch *b, PyObject *obj)
{
    if (!(b->queries = hspy_float32(obj, "queries", "a float array of shape (M, 4)")))
        return -1;
    const int nd = PyArray_NDIM(b->queries);
    if (nd < 1 || PyArray_DIM(b->queries, nd - 1) != 4) {
        PyObject *got = PyObject_GetAttrString((PyObject *)b->queries, "shape");
        if (got)
            PyErr_Format(PyExc_ValueError,
                         "queries: need an (M, 4) array of ax, ay, bx, by, got shape %R", got);
        Py_XDECREF(got);
        return -1;
    }
    b->out_ndim = nd - 1;
    b->m = 1;
    for (int k = 0; k < nd - 1; k++) {
        b->out_shape[k] = PyArray_DIM(b->queries, k);
        b->m *= (size_t)b->out_shape[k];
    }
    return 0;
}

int hspy_batch_parse(hspy_batch *b, hspy_mode mode, PyObject *args, PyObject *kwds)
{
    static char *kw_closest[] = {"queries",      "kind",   "thickness", "semantics", "mask",
                                 "threads",      "isa",    "details",   "out",       "skip_start",
                                 "displacement", "ignore", NULL};
    static char *kw_all[] = {"queries", "kind", "thickness",  "semantics",    "mask",   "threads",
                             "isa",     "csr",  "skip_start", "displacement", "ignore", NULL};
    static char *kw_plain[] = {"queries", "kind", "thickness",  "semantics",    "mask",   "threads",
                               "isa",     "out",  "skip_start", "displacement", "ignore", NULL};
    PyObject *q, *kind = NULL, *thick = NULL, *sem = NULL, *mask = NULL, *threads = NULL,
                 *isa = NULL, *ignore = NULL;
    int flag = 0, skip = 0;
    memset(b, 0, sizeof *b);
    int ok;
    if (mode == HSPY_CLOSEST)
        ok = PyArg_ParseTupleAndKeywords(args, kwds, "O|$OOOOOOpOpOO:closest", kw_closest, &q,
                                         &kind, &thick, &sem, &mask, &threads, &isa, &flag, &b->out,
                                         &skip, &b->displacement, &ignore);
    else if (mode == HSPY_ALL)
        ok = PyArg_ParseTupleAndKeywords(args, kwds, "O|$OOOOOOppOO:all", kw_all, &q, &kind, &thick,
                                         &sem, &mask, &threads, &isa, &flag, &skip,
                                         &b->displacement, &ignore);
    else
        ok = PyArg_ParseTupleAndKeywords(
            args, kwds, mode == HSPY_ANY ? "O|$OOOOOOOpOO:any" : "O|$OOOOOOOpOO:count", kw_plain,
            &q, &kind, &thick, &sem, &mask, &threads, &isa, &b->out, &skip, &b->displacement,
            &ignore);
    if (!ok)
        return -1;
    if (b->out == Py_None)
        b->out = NULL;
    if (b->displacement == Py_None)
        b->displacement = NULL;
    b->details = mode == HSPY_CLOSEST && flag;
    b->csr = mode == HSPY_ALL && flag;
    b->opts = hs_batch_opts_default();
    b->opts.stats = &b->stats;
    if (parse_queries(b, q) || parse_kind(kind, &b->kind) || parse_thickness(b, thick) ||
        parse_mask(b, mask) || parse_ignore(b, ignore) || hspy_semantics(sem, &b->opts.sem) ||
        hspy_threads(threads, &b->opts.threads) || hspy_isa(isa, &b->opts.isa)) {
        hspy_batch_clear(b);
        return -1;
    }
    if (skip)
        b->opts.sem = (hs_semantics)(b->opts.sem | HS_SKIP_START);
    if (b->opts.isa != HS_ISA_AUTO && !hs_isa_supported(b->opts.isa)) {
        hspy_raise_status(HS_E_UNSUPPORTED, "isa");
        hspy_batch_clear(b);
        return -1;
    }
    return 0;
}

void hspy_batch_clear(hspy_batch *b)
{
    Py_CLEAR(b->queries);
    Py_CLEAR(b->thickness);
    Py_CLEAR(b->mask);
    Py_CLEAR(b->ignore);
    free(b->disp);
    b->disp = NULL;
}

static void interval(int kind, float *tmin, float *tmax)
{
    *tmin = kind == 2 ? -INFINITY : 0.0f;
    *tmax = kind == 0 ? 1.0f : INFINITY;
}

/* Rows lo .. hi-1 of the (M, 4) queries into the SoA arrays, D = B - A. Four rows at a time
 * with SSE2 (part of every x86-64): a 4 x 4 transpose, where the compiler would move one float
 * at a time. The same float subtraction either way, so the same bits. */
static void soa_rows(const float *restrict q, float *restrict ax, float *restrict ay,
                     float *restrict dx, float *restrict dy, ptrdiff_t lo, ptrdiff_t hi)
{
    ptrdiff_t i = lo;
#if defined(__SSE2__)
    for (; i + 4 <= hi; i += 4) {
        __m128 r0 = _mm_loadu_ps(q + 4 * i), r1 = _mm_loadu_ps(q + 4 * i + 4);
        __m128 r2 = _mm_loadu_ps(q + 4 * i + 8), r3 = _mm_loadu_ps(q + 4 * i + 12);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r0..r3: ax, ay, bx, by of rows i .. i+3 */
        _mm_storeu_ps(ax + i, r0);
        _mm_storeu_ps(ay + i, r1);
        _mm_storeu_ps(dx + i, _mm_sub_ps(r2, r0));
        _mm_storeu_ps(dy + i, _mm_sub_ps(r3, r1));
    }
#endif
    for (; i < hi; i++) {
        ax[i] = q[4 * i];
        ay[i] = q[4 * i + 1];
        dx[i] = q[4 * i + 2] - q[4 * i];
        dy[i] = q[4 * i + 3] - q[4 * i + 1];
    }
}

hs_queries hspy_batch_soa(const hspy_batch *b, hspy_scratch *s)
{
    const float *q = (const float *)PyArray_DATA(b->queries);
    float *ax = s->soa, *ay = s->soa + s->cap, *dx = s->soa + 2 * s->cap, *dy = s->soa + 3 * s->cap;
    const ptrdiff_t m = (ptrdiff_t)b->m;
    const int threads = hspy_team(b->opts.threads);
    /* small batches and one thread never enter a parallel region: even an inactive one makes
     * and frees a team */
    if (threads <= 1 || m < HSPY_PAR_MIN) {
        soa_rows(q, ax, ay, dx, dy, 0, m);
    } else {
#pragma omp parallel num_threads(threads)
        {
            const ptrdiff_t nt = omp_get_num_threads(), k = omp_get_thread_num();
            soa_rows(q, ax, ay, dx, dy, m * k / nt, m * (k + 1) / nt);
        }
    }
    hs_queries qs = hs_queries_segments(ax, ay, dx, dy, b->m);
    interval(b->kind, &qs.tmin_all, &qs.tmax_all);
    qs.q_all = b->thickness_all;
    qs.mask_all = b->mask_all;
    if (b->thickness)
        qs.q = (const float *)PyArray_DATA(b->thickness);
    if (b->mask)
        qs.mask = (const uint32_t *)PyArray_DATA(b->mask);
    if (b->ignore)
        qs.ignore = (const uint32_t *)PyArray_DATA(b->ignore);
    return qs;
}

_Static_assert(HS_PERIODIC_MAX_IMAGES == 64, "hspy_warn_invalid's reason names the limit");

int hspy_warn_invalid(const hspy_batch *b)
{
    const size_t i = b->stats.first_invalid;
    if (b->stats.invalid == 0 || i >= b->m)
        return 0;
    const float *q = (const float *)PyArray_DATA(b->queries) + 4 * i;
    hs_query one;
    one.a.x = q[0];
    one.a.y = q[1];
    one.d.x = q[2] - q[0];
    one.d.y = q[3] - q[1];
    interval(b->kind, &one.tmin, &one.tmax);
    one.q = b->thickness ? ((const float *)PyArray_DATA(b->thickness))[i] : b->thickness_all;
    const hs_status s = hs_query_validate(one);
    const char *reason =
        s != HS_OK ? hspy_status_text(s)
        : b->disp != NULL && !isfinite(one.tmax)
            ? "an unbounded ray or line: moving circles need a finite interval, whatever the "
              "displacements"
        : b->periodic != 0
            ? "it meets more than 64 images of the periodic box (a ray or line across a "
              "periodic axis, or a segment wrapping around the box too often)"
            : "invalid query";

    return hspy_warn_invalid_rows("queries", "were answered as misses", b->stats.invalid, b->m, i,
                                  reason);
}
