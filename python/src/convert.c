/* SPDX-License-Identifier: MIT */
/* Argument conversion: NumPy arrays and Python scalars to what the library takes, with errors
 * that name the argument. */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <limits.h>
#include <string.h>

/* obj as an array whose dtype kind is one of `kinds` ("fiu": float, int, uint), or NULL with
 * an error naming `arg` and saying what it must be (`what`, e.g. "a float array of shape
 * (M, 4)"): TypeError for None and other objects that are not arrays of numbers (NumPy would
 * make them object arrays), for an unsupported dtype; ValueError for ragged nested lists. */
static PyArrayObject *as_array(PyObject *obj, const char *arg, const char *what, const char *kinds,
                               const char *need)
{
    PyArrayObject *a;
    if (obj == Py_None) {
        PyErr_Format(PyExc_TypeError, "%s must be %s, got None", arg, what);
        return NULL;
    }
    if (PyArray_Check(obj)) {
        Py_INCREF(obj);
        a = (PyArrayObject *)obj;
    } else if (!(a = (PyArrayObject *)PyArray_FROM_O(obj))) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) { /* ragged: name the argument */
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_NormalizeException(&type, &value, &tb);
            PyErr_Format(PyExc_ValueError, "%s must be %s: %S", arg, what, value);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
        }
        return NULL;
    } else if (PyArray_DESCR(a)->kind == 'O') {
        PyErr_Format(PyExc_TypeError, "%s must be %s, got %s%s", arg, what, Py_TYPE(obj)->tp_name,
                     PySequence_Check(obj) ? " holding objects that are not numbers" : "");
        Py_DECREF(a);
        return NULL;
    }
    if (!strchr(kinds, PyArray_DESCR(a)->kind)) {
        PyErr_Format(PyExc_TypeError, "%s: dtype %S is not supported: need %s", arg,
                     (PyObject *)PyArray_DESCR(a), need);
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* One converted copy of a, C-contiguous and of dtype `type` (a's reference is taken). */
static PyArrayObject *convert(PyArrayObject *a, int type)
{
    PyArrayObject *c =
        (PyArrayObject *)PyArray_FromAny((PyObject *)a, PyArray_DescrFromType(type), 0, 0,
                                         NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST, NULL);
    Py_DECREF(a);
    return c;
}

static int in_place(PyArrayObject *a, int type)
{
    return PyArray_TYPE(a) == type && PyArray_ISCARRAY_RO(a) && PyArray_ISNOTSWAPPED(a);
}

PyArrayObject *hspy_float32(PyObject *obj, const char *arg, const char *what)
{
    PyArrayObject *a =
        as_array(obj, arg, what, "fiu", "real numbers (float32 is used without a copy)");
    if (!a || in_place(a, NPY_FLOAT32))
        return a;
    return convert(a, NPY_FLOAT32);
}

/* The first value of an int64 / uint64 array outside 0 .. UINT32_MAX, or -1. */
static npy_intp first_out_of_u32(PyArrayObject *a, int is_signed)
{
    const npy_intp n = PyArray_SIZE(a);
    if (is_signed) {
        const npy_int64 *v = (const npy_int64 *)PyArray_DATA(a);
        for (npy_intp i = 0; i < n; i++)
            if (v[i] < 0 || v[i] > (npy_int64)UINT32_MAX)
                return i;
    } else {
        const npy_uint64 *v = (const npy_uint64 *)PyArray_DATA(a);
        for (npy_intp i = 0; i < n; i++)
            if (v[i] > UINT32_MAX)
                return i;
    }
    return -1;
}

PyArrayObject *hspy_uint32(PyObject *obj, const char *arg, const char *what)
{
    PyArrayObject *a = as_array(obj, arg, what, "iu", "integers (uint32 is used without a copy)");
    if (!a)
        return NULL;
    const char kind = PyArray_DESCR(a)->kind;
    if (in_place(a, NPY_UINT32))
        return a;
    if (kind == 'i' || PyArray_ITEMSIZE(a) > 4) {
        /* values that a cast would wrap: widen to 64 bits first and look at every one */
        const int is_signed = kind == 'i';
        PyArrayObject *w = convert(a, is_signed ? NPY_INT64 : NPY_UINT64);
        if (!w)
            return NULL;
        const npy_intp bad = first_out_of_u32(w, is_signed);
        if (bad >= 0) {
            const void *p = (const char *)PyArray_DATA(w) + 8 * bad;
            if (is_signed)
                PyErr_Format(PyExc_ValueError,
                             "%s: element %zd is %lld: mask bits must be in 0 .. 2**32 - 1", arg,
                             (Py_ssize_t)bad, (long long)*(const npy_int64 *)p);
            else
                PyErr_Format(PyExc_ValueError,
                             "%s: element %zd is %llu: mask bits must be in 0 .. 2**32 - 1", arg,
                             (Py_ssize_t)bad, (unsigned long long)*(const npy_uint64 *)p);
            Py_DECREF(w);
            return NULL;
        }
        a = w;
    }
    return convert(a, NPY_UINT32);
}

PyArrayObject *hspy_index32(PyObject *obj, const char *arg, const char *what)
{
    PyArrayObject *a = as_array(obj, arg, what, "iu", "integers (uint32 is used without a copy)");
    if (!a || in_place(a, NPY_UINT32))
        return a;
    /* every value widened to 64 bits first, then looked at: a cast would wrap */
    const int is_signed = PyArray_DESCR(a)->kind == 'i';
    PyArrayObject *w = convert(a, is_signed ? NPY_INT64 : NPY_UINT64);
    PyArrayObject *out =
        w ? (PyArrayObject *)PyArray_SimpleNew(PyArray_NDIM(w), PyArray_DIMS(w), NPY_UINT32) : NULL;
    if (!out) {
        Py_XDECREF(w);
        return NULL;
    }
    const npy_intp n = PyArray_SIZE(w);
    uint32_t *o = (uint32_t *)PyArray_DATA(out);
    for (npy_intp i = 0; i < n; i++) {
        const npy_uint64 u = ((const npy_uint64 *)PyArray_DATA(w))[i];
        const npy_int64 v = ((const npy_int64 *)PyArray_DATA(w))[i];
        if (is_signed ? v > (npy_int64)UINT32_MAX : u > UINT32_MAX) {
            if (is_signed)
                PyErr_Format(PyExc_ValueError,
                             "%s: element %zd is %lld: an index must be below 2**32 (negative: "
                             "none)",
                             arg, (Py_ssize_t)i, (long long)v);
            else
                PyErr_Format(PyExc_ValueError,
                             "%s: element %zd is %llu: an index must be below 2**32", arg,
                             (Py_ssize_t)i, (unsigned long long)u);
            Py_DECREF(w);
            Py_DECREF(out);
            return NULL;
        }
        o[i] = is_signed && v < 0 ? UINT32_MAX : (uint32_t)u;
    }
    Py_DECREF(w);
    return out;
}

int hspy_uint32_scalar(PyObject *obj, const char *arg, uint32_t *out)
{
    PyObject *i = PyNumber_Index(obj);
    if (!i) {
        PyErr_Format(PyExc_TypeError, "%s: need an int or an array of ints, got %s", arg,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < 0 || v > (long long)UINT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: %R is outside 0 .. 2**32 - 1", arg, obj);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int hspy_threads(PyObject *obj, int *out)
{
    if (!obj || obj == Py_None) {
        *out = 0;
        return 0;
    }
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "threads: need None, -1 or a positive int, got %s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow = 0;
    PyObject *i = PyNumber_Index(obj);
    if (!i)
        return -1;
    const long v = PyLong_AsLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (!overflow && v == -1) {
        *out = 0;
        return 0;
    }
    if (overflow || v < 1 || v > 4096) {
        PyErr_Format(PyExc_ValueError,
                     "threads: %R is not None, -1 (every core) or a thread count 1 .. 4096", obj);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int hspy_isa(PyObject *obj, hs_isa *out)
{
    if (!obj || obj == Py_None) {
        *out = HS_ISA_AUTO;
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "isa: need None or a level's name, got %s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    for (int i = 0; i < HS_ISA_COUNT; i++) {
        if (PyUnicode_CompareWithASCIIString(obj, hs_isa_name((hs_isa)i)) == 0) {
            *out = (hs_isa)i;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "isa: %R is not a level: auto, scalar, sse4, avx2, avx512 or neon", obj);
    return -1;
}

int hspy_semantics(PyObject *obj, hs_semantics *out)
{
    if (!obj) {
        *out = HS_SOLID;
        return 0;
    }
    if (PyUnicode_Check(obj)) {
        if (PyUnicode_CompareWithASCIIString(obj, "solid") == 0) {
            *out = HS_SOLID;
            return 0;
        }
        if (PyUnicode_CompareWithASCIIString(obj, "boundary") == 0) {
            *out = HS_BOUNDARY;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "semantics: %R is not 'solid' or 'boundary'", obj);
    return -1;
}
