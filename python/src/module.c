/* SPDX-License-Identifier: MIT */
/* The _hitscan extension module: types, ISA levels, one-pair intersection, built-in scenes,
 * and the library's status codes as Python exceptions. */
#define HSPY_IMPORT_ARRAY
#include "hspy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

PyObject *hspy_InvalidQueryWarning;

const char *hspy_status_text(hs_status s)
{
    switch (s) {
    case HS_OK: return "no error";
    case HS_E_NULL: return "missing array";
    case HS_E_NONFINITE: return "NaN or infinite value";
    case HS_E_NEG_RADIUS: return "negative radius or thickness";
    case HS_E_RANGE:
        return "value out of range (a coordinate, radius or thickness above 1e18, or B - A "
               "overflowing or subnormal)";
    case HS_E_TOO_MANY: return "more than 2**32 - 2 elements";
    case HS_E_NOMEM: return "out of memory";
    case HS_E_UNSUPPORTED: return "ISA level not supported by this CPU or build";
    case HS_E_INVALID_QUERY: return "invalid query";
    case HS_E_BUSY: return "workspace in use by another call";
    case HS_E_BOX:
        return "periodic box too small (a circle's diameter plus the skin or its displacement "
               "not below half the period, or a cell above half the period), or a circle "
               "outside the box on an axis that is not periodic";
    }
    return "unknown error";
}

static PyObject *supported_levels(void)
{
    PyObject *t = PyTuple_New(0);
    for (int i = HS_ISA_SCALAR; t && i < HS_ISA_COUNT; i++) {
        if (!hs_isa_supported((hs_isa)i))
            continue;
        PyObject *name = PyUnicode_FromString(hs_isa_name((hs_isa)i));
        Py_ssize_t n = PyTuple_GET_SIZE(t);
        if (!name || _PyTuple_Resize(&t, n + 1) < 0) {
            Py_XDECREF(name);
            Py_XDECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, n, name);
    }
    return t;
}

void hspy_raise_status(hs_status s, const char *arg)
{
    if (s == HS_E_NOMEM) {
        PyErr_NoMemory();
        return;
    }
    if (s == HS_E_UNSUPPORTED) {
        PyObject *levels = supported_levels();
        if (levels)
            PyErr_Format(PyExc_ValueError, "isa: %s (supported: %R)", hspy_status_text(s), levels);
        Py_XDECREF(levels);
        return;
    }
    if (arg)
        PyErr_Format(PyExc_ValueError, "%s: %s", arg, hspy_status_text(s));
    else
        PyErr_SetString(PyExc_ValueError, hspy_status_text(s));
}

int hspy_warn_invalid_rows(const char *what, const char *fate, size_t count, size_t total,
                           size_t first, const char *reason)
{
    PyObject *msg = PyUnicode_FromFormat("%zu of %zu %s are invalid and %s (the first, row %zu: "
                                         "%s)",
                                         count, total, what, fate, first, reason);
    PyObject *inst = msg ? PyObject_CallOneArg(hspy_InvalidQueryWarning, msg) : NULL;
    Py_XDECREF(msg);
    if (!inst)
        return -1;
    PyObject *c = PyLong_FromSize_t(count), *f = PyLong_FromSize_t(first),
             *why = PyUnicode_FromString(reason);
    int rc = -1;
    if (c && f && why && PyObject_SetAttrString(inst, "count", c) == 0 &&
        PyObject_SetAttrString(inst, "first", f) == 0 &&
        PyObject_SetAttrString(inst, "reason", why) == 0) {
        /* warnings.warn with the instance, so a filter or a catcher sees its attributes;
         * stacklevel 1 is the Python line that called the method */
        PyObject *warnings = PyImport_ImportModule("warnings");
        PyObject *r =
            warnings ? PyObject_CallMethod(warnings, "warn", "OOi", inst, Py_None, 1) : NULL;
        rc = r ? 0 : -1;
        Py_XDECREF(r);
        Py_XDECREF(warnings);
    }
    Py_XDECREF(c);
    Py_XDECREF(f);
    Py_XDECREF(why);
    Py_DECREF(inst);
    return rc;
}

/* ---- module functions -------------------------------------------------------------------- */

static PyObject *isa_levels(PyObject *mod, PyObject *Py_UNUSED(ignored))
{
    (void)mod;
    return supported_levels();
}

static PyObject *isa_default(PyObject *mod, PyObject *Py_UNUSED(ignored))
{
    (void)mod;
    return PyUnicode_FromString(hs_isa_name(hs_isa_resolve(HS_ISA_AUTO)));
}

/* A fixed-size vector of floats from any sequence / array (a copy: one pair is small). */
static int small_vector(PyObject *obj, const char *arg, const char *what, npy_intp n, float *out)
{
    char need[64];
    snprintf(need, sizeof need, "%d numbers %s", (int)n, what);
    PyArrayObject *a = hspy_float32(obj, arg, need);
    if (!a)
        return -1;
    if (PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != n) {
        PyObject *shape = PyObject_GetAttrString((PyObject *)a, "shape");
        if (shape)
            PyErr_Format(PyExc_ValueError, "%s: need %s, got shape %R", arg, need, shape);
        Py_XDECREF(shape);
        Py_DECREF(a);
        return -1;
    }
    memcpy(out, PyArray_DATA(a), (size_t)n * sizeof(float));
    Py_DECREF(a);
    return 0;
}

static PyObject *xy(hs_vec2 v) { return Py_BuildValue("(dd)", (double)v.x, (double)v.y); }

static PyObject *intersect(PyObject *mod, PyObject *args, PyObject *kwds)
{
    (void)mod;
    static char *kwlist[] = {"query",     "circle",     "kind", "thickness",
                             "semantics", "skip_start", NULL};
    PyObject *qo, *co, *kind = NULL, *sem = NULL;
    double thick = 0.0;
    int skip = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|$OdOp:intersect", kwlist, &qo, &co, &kind,
                                     &thick, &sem, &skip))
        return NULL;
    float q[4], c[3];
    hs_semantics s;
    if (small_vector(qo, "query", "ax, ay, bx, by", 4, q) ||
        small_vector(co, "circle", "x, y, r", 3, c) || hspy_semantics(sem, &s))
        return NULL;
    if (skip)
        s = (hs_semantics)(s | HS_SKIP_START);
    const hs_vec2 a = {q[0], q[1]}, b = {q[2], q[3]};
    hs_query query;
    if (!kind || (PyUnicode_Check(kind) && PyUnicode_CompareWithASCIIString(kind, "segment") == 0))
        query = hs_segment(a, b);
    else if (PyUnicode_Check(kind) && PyUnicode_CompareWithASCIIString(kind, "ray") == 0)
        query = hs_ray(a, (hs_vec2){b.x - a.x, b.y - a.y}, INFINITY);
    else if (PyUnicode_Check(kind) && PyUnicode_CompareWithASCIIString(kind, "line") == 0)
        query = hs_line(a, b);
    else {
        PyErr_Format(PyExc_ValueError, "kind: %R is not 'segment', 'ray' or 'line'", kind);
        return NULL;
    }
    query = hs_query_thick(query, (float)thick);
    hs_status st = hs_query_validate(query);
    if (st != HS_OK) {
        hspy_raise_status(st, "query");
        return NULL;
    }
    const hs_circle circle = {c[0], c[1], c[2]};
    if ((st = hs_circle_validate(circle)) != HS_OK) {
        hspy_raise_status(st, "circle");
        return NULL;
    }
    hs_hit h;
    const int r = hs_intersect_circle(query, circle, s, &h);
    if (r < 0) {
        hspy_raise_status((hs_status)r, NULL);
        return NULL;
    }
    if (r == 0)
        Py_RETURN_NONE;
    PyObject *res = PyStructSequence_New(hspy_HitType);
    if (!res)
        return NULL;
    PyObject *items[5] = {PyFloat_FromDouble(h.t), PyFloat_FromDouble(h.t_exit), xy(h.point),
                          xy(h.normal), PyBool_FromLong((h.flags & HS_HIT_INSIDE) != 0)};
    for (int k = 0; k < 5; k++) {
        if (!items[k]) {
            for (int j = k; j < 5; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(res);
            return NULL;
        }
        PyStructSequence_SET_ITEM(res, k, items[k]);
    }
    return res;
}

static PyObject *scene(PyObject *mod, PyObject *args, PyObject *kwds)
{
    (void)mod;
    static char *kwlist[] = {"kind", "n", "m", "seed", NULL};
    const char *kind = "uniform";
    Py_ssize_t n = 1000000, m = 1000000;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|snnK:scene", kwlist, &kind, &n, &m, &seed))
        return NULL;
    const hs_scene_kind k = hs_scene_kind_from_name(kind);
    if (k == HS_SCENE_INVALID) {
        PyErr_Format(PyExc_ValueError,
                     "kind: '%s' is not a scene of hitscan/scene.h (uniform, clustered, mixed, "
                     "sparse, lasers, outlier, twoclusters, twoclusters_near, blob, blob_alone, "
                     "filament, filament_axis, powerlaw, point)",
                     kind);
        return NULL;
    }
    if (n < 0 || m < 0) {
        PyErr_SetString(PyExc_ValueError, n < 0 ? "n: must be >= 0" : "m: must be >= 0");
        return NULL;
    }
    npy_intp cs[2] = {n, 3}, qs[2] = {m, 4};
    PyArrayObject *c = (PyArrayObject *)PyArray_SimpleNew(2, cs, NPY_FLOAT32);
    PyArrayObject *q = (PyArrayObject *)PyArray_SimpleNew(2, qs, NPY_FLOAT32);
    const size_t nn = (size_t)n, mm = (size_t)m;
    float *buf = malloc(((nn > mm ? nn : mm) * 4 + 4) * sizeof(float));
    hs_status s = HS_E_NOMEM;
    if (c && q && buf) {
        float *f = (float *)PyArray_DATA(c), *g = (float *)PyArray_DATA(q);
        Py_BEGIN_ALLOW_THREADS float *x = buf, *y = buf + nn, *r = buf + 2 * nn;
        s = hs_scene_circles(k, nn, seed, x, y, r);
        for (size_t i = 0; s == HS_OK && i < nn; i++) {
            f[3 * i] = x[i];
            f[3 * i + 1] = y[i];
            f[3 * i + 2] = r[i];
        }
        float *ax = buf, *ay = buf + mm, *dx = buf + 2 * mm, *dy = buf + 3 * mm;
        if (s == HS_OK)
            s = hs_scene_segments(k, nn, mm, seed, ax, ay, dx, dy);
        /* B = A + D in float32, as the command-line tool writes the scene */
        for (size_t i = 0; s == HS_OK && i < mm; i++) {
            g[4 * i] = ax[i];
            g[4 * i + 1] = ay[i];
            g[4 * i + 2] = ax[i] + dx[i];
            g[4 * i + 3] = ay[i] + dy[i];
        }
        Py_END_ALLOW_THREADS
    }
    free(buf);
    if (s != HS_OK) {
        Py_XDECREF(c);
        Py_XDECREF(q);
        hspy_raise_status(s, "n");
        return NULL;
    }
    return Py_BuildValue("(NN)", c, q);
}

static PyMethodDef module_methods[] = {
    {"isa_levels", isa_levels, METH_NOARGS,
     "isa_levels()\n--\n\n"
     "The SIMD levels this CPU and build support, from 'scalar' up: any of them can be\n"
     "passed as isa= to a query."},
    {"isa_default", isa_default, METH_NOARGS,
     "isa_default()\n--\n\n"
     "The level isa=None uses: the best supported, or the one named by the environment\n"
     "variable HITSCAN_ISA (read once, at the first query)."},
    {"intersect", (PyCFunction)(void (*)(void))intersect, METH_VARARGS | METH_KEYWORDS,
     "intersect(query, circle, *, kind='segment', thickness=0.0, semantics='solid', "
     "skip_start=False)\n--\n\n"
     "One query (ax, ay, bx, by) against one circle (x, y, r): a Hit(t, t_exit, point,\n"
     "normal, inside) or None for a miss. ValueError names an invalid query or circle."},
    {"scene", (PyCFunction)(void (*)(void))scene, METH_VARARGS | METH_KEYWORDS,
     "scene(kind='uniform', n=1000000, m=1000000, seed=1)\n--\n\n"
     "The library's benchmark scene (kind: a name of include/hitscan/scene.h, the\n"
     "distribution suite's too): (xyr, queries), float32 (n, 3) circles and (m, 4)\n"
     "segments ax, ay, bx, by (B = A + D in float32), identical to the files the\n"
     "command-line tool writes with --write-scene."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hitscan._hitscan",
    .m_doc = "The C extension behind the hitscan package.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__hitscan(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (PyType_Ready(&hspy_BinType) < 0 || PyType_Ready(&hspy_OwnerType) < 0)
        goto fail;
    PyTypeObject *types[] = {&hspy_CirclesType, &hspy_WallsType, &hspy_GridType, &hspy_BruteType};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (PyType_Ready(types[i]) < 0)
            goto fail;
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, strrchr(types[i]->tp_name, '.') + 1, (PyObject *)types[i]) < 0) {
            Py_DECREF(types[i]);
            goto fail;
        }
    }
    hspy_InvalidQueryWarning = PyErr_NewExceptionWithDoc(
        "hitscan.InvalidQueryWarning",
        "Some queries of a call were invalid (NaN, B - A overflowing, negative thickness, ...)\n"
        "and were answered as misses. Attributes: count, first (flat index of the first one),\n"
        "reason. Make it an error with warnings.simplefilter('error', InvalidQueryWarning).",
        PyExc_UserWarning, NULL);
    if (!hspy_InvalidQueryWarning)
        goto fail;
    Py_INCREF(hspy_InvalidQueryWarning);
    if (PyModule_AddObject(m, "InvalidQueryWarning", hspy_InvalidQueryWarning) < 0) {
        Py_DECREF(hspy_InvalidQueryWarning);
        goto fail;
    }
    if (hspy_results_init(m) < 0)
        goto fail;
    if (PyModule_AddStringConstant(m, "__version__", HSPY_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "library_version", hs_version()) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
