/* SPDX-License-Identifier: MIT */
/* Centres given in more than float32 (float64, integers) wrapped into a periodic box before
 * they are rounded to float32: the library wraps float centres in double (grid.h), but a
 * float64 centre far outside the box would lose its fraction to float32 first. */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <math.h>

/* v wrapped into [lo, lo + L) as the library wraps (src/grid/periodic.c), in double, when it
 * is a finite value outside the box that the library would accept; else v, which the
 * library then names or refuses itself. */
static double wrap_one(double v, double lo, double L)
{
    if (!(fabs(v) <= (double)HS_MAX_COORD) || (v >= lo && v < lo + L))
        return v;
    return v - floor((v - lo) / L) * L;
}

/* Column `col` of n rows of `stride` doubles wrapped on axis a of the box. */
static void wrap_column(double *d, npy_intp n, npy_intp stride, int col, int a, const hs_aabb *box)
{
    const double lo = a == 0 ? (double)box->min.x : (double)box->min.y;
    const double L = (a == 0 ? (double)box->max.x : (double)box->max.y) - lo; /* as periodic.c */
    for (npy_intp i = 0; i < n; i++)
        d[i * stride + col] = wrap_one(d[i * stride + col], lo, L);
}

/* Whether obj is an array (or a sequence NumPy makes one of) of more than float32's precision:
 * a float64 or wider float, or integers. */
static PyArrayObject *wide_array(PyObject *obj)
{
    if (PyObject_TypeCheck(obj, &hspy_CirclesType) || obj == Py_None)
        return NULL;
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_O(obj);
    if (!a) {
        PyErr_Clear(); /* the usual conversion names the problem */
        return NULL;
    }
    const char kind = PyArray_DESCR(a)->kind;
    if (!((kind == 'f' && PyArray_ITEMSIZE(a) > 4) || kind == 'i' || kind == 'u')) {
        Py_DECREF(a);
        return NULL;
    }
    PyArrayObject *d = (PyArrayObject *)PyArray_FromAny(
        (PyObject *)a, PyArray_DescrFromType(NPY_FLOAT64), 0, 0,
        NPY_ARRAY_CARRAY | NPY_ARRAY_ENSURECOPY | NPY_ARRAY_FORCECAST, NULL);
    Py_DECREF(a);
    if (!d)
        PyErr_Clear();
    return d;
}

PyObject *hspy_wrap_xyr(PyObject *obj, unsigned axes, const hs_aabb *box)
{
    PyArrayObject *d = axes ? wide_array(obj) : NULL;
    if (!d || PyArray_NDIM(d) != 2 || PyArray_DIM(d, 1) != 3) {
        Py_XDECREF(d);
        Py_INCREF(obj);
        return obj;
    }
    double *v = (double *)PyArray_DATA(d);
    for (int a = 0; a < 2; a++)
        if ((axes >> a) & 1u)
            wrap_column(v, PyArray_DIM(d, 0), 3, a, a, box);
    return (PyObject *)d;
}

PyObject *hspy_wrap_coords(PyObject *obj, int axis, unsigned axes, const hs_aabb *box)
{
    PyArrayObject *d = (axes >> axis) & 1u ? wide_array(obj) : NULL;
    if (!d || PyArray_NDIM(d) != 1) {
        Py_XDECREF(d);
        Py_INCREF(obj);
        return obj;
    }
    wrap_column((double *)PyArray_DATA(d), PyArray_DIM(d, 0), 1, 0, axis, box);
    return (PyObject *)d;
}
