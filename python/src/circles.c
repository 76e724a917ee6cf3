/* SPDX-License-Identifier: MIT */
/* hitscan.Circles: a validated circle set over NumPy arrays (borrowed, never copied, when
 * they are float32 and C-contiguous). */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <math.h>

/* The argument named in an error about circle i of three arrays: the first array whose value
 * is the bad one. */
static const char *bad_array(hs_status s, float x, float y)
{
    if (s == HS_E_NEG_RADIUS)
        return "r";
    if (s == HS_E_NONFINITE)
        return !isfinite(x) ? "x" : !isfinite(y) ? "y" : "r";
    return fabsf(x) > HS_MAX_COORD ? "x" : fabsf(y) > HS_MAX_COORD ? "y" : "r";
}

void hspy_raise_bad_circle(hs_status s, const char *reason, const char *arg, const char *unit,
                           size_t i, const float *x, const float *y, const float *r,
                           const char *tail)
{
    PyObject *v[3] = {PyFloat_FromDouble(x[i]), PyFloat_FromDouble(y[i]), PyFloat_FromDouble(r[i])};
    if (v[0] && v[1] && v[2])
        PyErr_Format(PyExc_ValueError, "%s: %s %zu: %s (x=%R, y=%R, r=%R)%s",
                     arg ? arg : bad_array(s, x[i], y[i]), unit, i, reason, v[0], v[1], v[2], tail);
    for (int k = 0; k < 3; k++)
        Py_XDECREF(v[k]);
}

int hspy_check_vector(PyArrayObject *a, const char *arg, npy_intp n, const char *noun)
{
    if (PyArray_NDIM(a) != 1) {
        PyErr_Format(PyExc_ValueError, "%s: need a 1-D array, got %d dimensions", arg,
                     PyArray_NDIM(a));
        return -1;
    }
    if (n >= 0 && PyArray_DIM(a, 0) != n) {
        PyErr_Format(PyExc_ValueError, "%s: length %zd does not match the %zd %s", arg,
                     (Py_ssize_t)PyArray_DIM(a, 0), (Py_ssize_t)n, noun);
        return -1;
    }
    return 0;
}

static int check_vector(PyArrayObject *a, const char *arg, npy_intp n)
{
    return hspy_check_vector(a, arg, n, "circles");
}

static void clear3(PyArrayObject *out[3])
{
    for (int k = 0; k < 3; k++)
        Py_CLEAR(out[k]);
}

int hspy_columns(PyObject *obj, const char *arg, const char *what, const char *need, int k,
                 PyArrayObject **out)
{
    for (int c = 0; c < k; c++)
        out[c] = NULL;
    PyArrayObject *rows = hspy_float32(obj, arg, what);
    if (!rows)
        return -1;
    if (PyArray_NDIM(rows) != 2 || PyArray_DIM(rows, 1) != k) {
        PyObject *shape = PyObject_GetAttrString((PyObject *)rows, "shape");
        if (shape)
            PyErr_Format(PyExc_ValueError, "%s: need %s, got shape %R", arg, need, shape);
        Py_XDECREF(shape);
        Py_DECREF(rows);
        return -1;
    }
    npy_intp n = PyArray_DIM(rows, 0);
    float *col[8];
    for (int c = 0; c < k; c++) {
        if (!(out[c] = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_FLOAT32))) {
            Py_DECREF(rows);
            for (int j = 0; j < c; j++)
                Py_CLEAR(out[j]);
            return -1;
        }
        col[c] = (float *)PyArray_DATA(out[c]);
    }
    const float *src = (const float *)PyArray_DATA(rows);
    Py_BEGIN_ALLOW_THREADS for (npy_intp i = 0; i < n; i++) for (int c = 0; c < k; c++) col[c][i] =
        src[k * i + c];
    Py_END_ALLOW_THREADS Py_DECREF(rows);
    for (int c = 0; c < k; c++)
        PyArray_CLEARFLAGS(out[c], NPY_ARRAY_WRITEABLE);
    return 0;
}

int hspy_circle_columns(PyObject *obj, PyArrayObject *out[3])
{
    return hspy_columns(obj, "xyr", "a float array of shape (N, 3)", "an (N, 3) array of x, y, r",
                        3, out);
}

int hspy_circle_arrays(PyObject *ox, PyObject *oy, PyObject *or_, PyArrayObject *out[3])
{
    static const char *const names[3] = {"x", "y", "r"};
    PyObject *in[3] = {ox, oy, or_};
    out[0] = out[1] = out[2] = NULL;
    for (int k = 0; k < 3; k++) {
        if (!(out[k] = hspy_float32(in[k], names[k], "a 1-D float array")) ||
            check_vector(out[k], names[k], k ? PyArray_DIM(out[0], 0) : -1)) {
            clear3(out);
            return -1;
        }
    }
    return 0;
}

PyArrayObject *hspy_circle_bits(PyObject *bits, const char *arg, npy_intp n)
{
    PyArrayObject *m = hspy_uint32(bits, arg, "None or a 1-D integer array");
    if (m && check_vector(m, arg, n))
        Py_CLEAR(m);
    return m;
}

PyArrayObject *hspy_circle_mask(PyObject *mask, npy_intp n)
{
    return hspy_circle_bits(mask, "mask", n);
}

static PyObject *circles_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *mask = Py_None;
    const Py_ssize_t npos = PyTuple_GET_SIZE(args);
    const Py_ssize_t nkw = kwds ? PyDict_Size(kwds) : 0;
    if (nkw > 0) {
        PyObject *m = PyDict_GetItemString(kwds, "mask");
        if (!m || nkw > 1) {
            PyErr_SetString(PyExc_TypeError, "Circles(): the only keyword argument is mask");
            return NULL;
        }
        mask = m;
    }
    if (npos == 2 || npos == 4) { /* the mask given by position: the form __reduce__ uses */
        if (nkw > 0) {
            PyErr_SetString(PyExc_TypeError, "Circles(): mask given twice");
            return NULL;
        }
        mask = PyTuple_GET_ITEM(args, npos - 1);
    }
    if (npos < 1 || npos > 4) {
        PyErr_Format(PyExc_TypeError,
                     "Circles() takes an (N, 3) array xyr or three arrays x, y, r (and mask=), "
                     "got %zd positional arguments",
                     npos);
        return NULL;
    }
    hspy_circles *self = (hspy_circles *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    const int from_xyr = npos <= 2;
    PyArrayObject *xyr[3];
    if (from_xyr ? hspy_circle_columns(PyTuple_GET_ITEM(args, 0), xyr)
                 : hspy_circle_arrays(PyTuple_GET_ITEM(args, 0), PyTuple_GET_ITEM(args, 1),
                                      PyTuple_GET_ITEM(args, 2), xyr))
        goto fail;
    self->x = xyr[0];
    self->y = xyr[1];
    self->r = xyr[2];
    const npy_intp n = PyArray_DIM(self->x, 0);
    if (mask != Py_None && !(self->mask = hspy_circle_mask(mask, n)))
        goto fail;

    const float *x = (const float *)PyArray_DATA(self->x),
                *y = (const float *)PyArray_DATA(self->y),
                *r = (const float *)PyArray_DATA(self->r);
    const uint32_t *m = self->mask ? (const uint32_t *)PyArray_DATA(self->mask) : NULL;
    size_t bad = (size_t)-1;
    hs_status s;
    Py_BEGIN_ALLOW_THREADS s = hs_circles_borrow(x, y, r, m, (size_t)n, &self->cs, &bad);
    Py_END_ALLOW_THREADS if (s != HS_OK)
    {
        if (bad < (size_t)n)
            hspy_raise_bad_circle(s, hspy_status_text(s), from_xyr ? "xyr" : NULL,
                                  from_xyr ? "row" : "element", bad, x, y, r, "");
        else
            hspy_raise_status(s, from_xyr ? "xyr" : "x");
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static void circles_dealloc(hspy_circles *self)
{
    hs_circles_destroy(self->cs); /* before the arrays it borrows */
    Py_XDECREF(self->x);
    Py_XDECREF(self->y);
    Py_XDECREF(self->r);
    Py_XDECREF(self->mask);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t circles_len(hspy_circles *self) { return (Py_ssize_t)hs_circles_count(self->cs); }

static PyObject *circles_repr(hspy_circles *self)
{
    return PyUnicode_FromFormat("hitscan.Circles(<%zu circles%s>)", hs_circles_count(self->cs),
                                self->mask ? ", with mask" : "");
}

static PyObject *circles_reduce(hspy_circles *self, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("O(OOOO)", (PyObject *)Py_TYPE(self), self->x, self->y, self->r,
                         self->mask ? (PyObject *)self->mask : Py_None);
}

static PyObject *get_array(PyArrayObject *a)
{
    PyObject *o = a ? (PyObject *)a : Py_None;
    Py_INCREF(o);
    return o;
}
static PyObject *circles_x(hspy_circles *self, void *c)
{
    (void)c;
    return get_array(self->x);
}
static PyObject *circles_y(hspy_circles *self, void *c)
{
    (void)c;
    return get_array(self->y);
}
static PyObject *circles_r(hspy_circles *self, void *c)
{
    (void)c;
    return get_array(self->r);
}
static PyObject *circles_mask(hspy_circles *self, void *c)
{
    (void)c;
    return get_array(self->mask);
}

static PyGetSetDef circles_getset[] = {
    {"x", (getter)circles_x, NULL, "Centres' x (float32): the caller's array when it was borrowed.",
     NULL},
    {"y", (getter)circles_y, NULL, "Centres' y (float32).", NULL},
    {"r", (getter)circles_r, NULL, "Radii (float32).", NULL},
    {"mask", (getter)circles_mask, NULL, "Filter bits (uint32) or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef circles_methods[] = {
    {"__reduce__", (PyCFunction)circles_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods circles_as_sequence = {.sq_length = (lenfunc)circles_len};

PyTypeObject hspy_CirclesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hitscan.Circles",
    .tp_basicsize = sizeof(hspy_circles),
    .tp_dealloc = (destructor)circles_dealloc,
    .tp_repr = (reprfunc)circles_repr,
    .tp_as_sequence = &circles_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Circles(xyr, mask=None) or Circles(x, y, r, mask=None)\n\n"
              "A set of circles (centre x, y and radius r >= 0), validated once.\n\n"
              "xyr: an (N, 3) array; its columns are copied once into the set's own float32\n"
              "arrays. x, y, r: three length-N arrays; float32 C-contiguous ones (read-only and\n"
              "views of larger buffers too) are used in place, never copied, and must not change\n"
              "while the set is in use (make a new Circles after changing them); other dtypes or\n"
              "layouts are converted once. mask: optional per-circle filter bits (uint32 used in\n"
              "place; other integer arrays converted once): a query with mask m tests only\n"
              "circles with (mask & m) != 0.\n\n"
              "ValueError on a NaN / infinite value or a negative radius, naming the argument,\n"
              "the circle and the reason.",
    .tp_methods = circles_methods,
    .tp_getset = circles_getset,
    .tp_new = circles_new,
};

int hspy_circles_like(PyObject *obj, const char *arg)
{
    if (PyObject_TypeCheck(obj, &hspy_CirclesType) || PyArray_Check(obj) || PySequence_Check(obj))
        return 0;
    PyErr_Format(PyExc_TypeError,
                 "%s must be a hitscan.Circles or a float array of shape (N, 3), got %s", arg,
                 obj == Py_None ? "None" : Py_TYPE(obj)->tp_name);
    return -1;
}

hspy_circles *hspy_as_circles(PyObject *obj, const char *arg)
{
    if (PyObject_TypeCheck(obj, &hspy_CirclesType)) {
        Py_INCREF(obj);
        return (hspy_circles *)obj;
    }
    if (hspy_circles_like(obj, arg))
        return NULL;
    return (hspy_circles *)PyObject_CallOneArg((PyObject *)&hspy_CirclesType, obj);
}
