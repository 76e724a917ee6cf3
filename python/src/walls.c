/* SPDX-License-Identifier: MIT */
/* hitscan.Walls: a validated set of wall segments (hitscan/walls.h), optionally thick and
 * masked, for a Grid's walls= and set_walls(). */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <math.h>

/* ValueError about wall i for status s: the argument holding the bad value (segments or
 * thickness), the row, the library's reason and the wall's values. */
static void raise_bad_wall(hs_status s, size_t i, const float *const e[4], const float *w)
{
    int in_ends = 0;
    for (int k = 0; k < 4; k++)
        in_ends |= s == HS_E_NONFINITE ? !isfinite(e[k][i]) : fabsf(e[k][i]) > HS_MAX_COORD;
    const int ends = s != HS_E_NEG_RADIUS && in_ends;
    PyObject *v[5] = {NULL, NULL, NULL, NULL, NULL};
    int ok = 1;
    for (int k = 0; k < 5; k++)
        ok &= (v[k] = PyFloat_FromDouble(k < 4 ? e[k][i] : w ? w[i] : 0.0)) != NULL;
    if (ok)
        PyErr_Format(PyExc_ValueError, "%s: %s %zu: %s (ax=%R, ay=%R, bx=%R, by=%R, thickness=%R)",
                     ends ? "segments" : "thickness", ends ? "row" : "element", i,
                     hspy_status_text(s), v[0], v[1], v[2], v[3], v[4]);
    for (int k = 0; k < 5; k++)
        Py_XDECREF(v[k]);
}

/* thickness=None, a number (every wall; checked here, so an empty set checks it too) or a
 * (K,) array into self->thickness. */
static int walls_thickness(hspy_walls *self, PyObject *obj, npy_intp k)
{
    if (obj == Py_None)
        return 0;
    const int scalar = PyFloat_Check(obj) || PyLong_Check(obj) || PyArray_IsScalar(obj, Number) ||
                       (PyArray_Check(obj) && PyArray_NDIM((PyArrayObject *)obj) == 0);
    if (!scalar) {
        self->thickness = hspy_float32(obj, "thickness", "None, a number or a 1-D float array");
        return self->thickness && !hspy_check_vector(self->thickness, "thickness", k, "walls") ? 0
                                                                                               : -1;
    }
    const double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred())
        return -1;
    const float f = (float)v;
    const hs_status s = !isfinite(f)       ? HS_E_NONFINITE
                        : f < 0.0f         ? HS_E_NEG_RADIUS
                        : f > HS_MAX_COORD ? HS_E_RANGE
                                           : HS_OK;
    if (s != HS_OK) {
        PyErr_Format(PyExc_ValueError, "thickness: %s (thickness=%R)", hspy_status_text(s), obj);
        return -1;
    }
    if (!(self->thickness = (PyArrayObject *)PyArray_SimpleNew(1, &k, NPY_FLOAT32)))
        return -1;
    float *d = (float *)PyArray_DATA(self->thickness);
    for (npy_intp i = 0; i < k; i++)
        d[i] = f;
    PyArray_CLEARFLAGS(self->thickness, NPY_ARRAY_WRITEABLE);
    return 0;
}

static PyObject *walls_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"segments", "thickness", "mask", NULL};
    PyObject *segments, *thickness = Py_None, *mask = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO:Walls", kwlist, &segments, &thickness,
                                     &mask))
        return NULL;
    hspy_walls *self = (hspy_walls *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    if (hspy_columns(segments, "segments", "a float array of shape (K, 4)",
                     "a (K, 4) array of ax, ay, bx, by", 4, self->end))
        goto fail;
    const npy_intp k = PyArray_DIM(self->end[0], 0);
    if (walls_thickness(self, thickness, k))
        goto fail;
    if (mask != Py_None) {
        self->mask = hspy_uint32(mask, "mask", "None or a 1-D integer array");
        if (!self->mask || hspy_check_vector(self->mask, "mask", k, "walls"))
            goto fail;
    }
    const float *e[4];
    for (int c = 0; c < 4; c++)
        e[c] = (const float *)PyArray_DATA(self->end[c]);
    const float *w = self->thickness ? (const float *)PyArray_DATA(self->thickness) : NULL;
    const uint32_t *m = self->mask ? (const uint32_t *)PyArray_DATA(self->mask) : NULL;
    size_t bad = (size_t)-1;
    hs_status s;
    Py_BEGIN_ALLOW_THREADS s =
        hs_walls_borrow(e[0], e[1], e[2], e[3], w, m, (size_t)k, &self->ws, &bad);
    Py_END_ALLOW_THREADS if (s != HS_OK)
    {
        if (bad < (size_t)k)
            raise_bad_wall(s, bad, e, w);
        else
            hspy_raise_status(s, "segments");
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static void walls_dealloc(hspy_walls *self)
{
    hs_walls_destroy(self->ws); /* before the arrays it borrows */
    for (int c = 0; c < 4; c++)
        Py_XDECREF(self->end[c]);
    Py_XDECREF(self->thickness);
    Py_XDECREF(self->mask);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t walls_len(hspy_walls *self) { return (Py_ssize_t)hs_walls_count(self->ws); }

static PyObject *walls_repr(hspy_walls *self)
{
    return PyUnicode_FromFormat("hitscan.Walls(<%zu walls%s%s>)", hs_walls_count(self->ws),
                                self->thickness ? ", thick" : "", self->mask ? ", with mask" : "");
}

/* The (K, 4) rows ax, ay, bx, by: a new float32 array. */
static PyObject *walls_segments(hspy_walls *self, void *c)
{
    (void)c;
    npy_intp shape[2] = {PyArray_DIM(self->end[0], 0), 4};
    PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(2, shape, NPY_FLOAT32);
    if (!a)
        return NULL;
    float *d = (float *)PyArray_DATA(a);
    for (int col = 0; col < 4; col++) {
        const float *src = (const float *)PyArray_DATA(self->end[col]);
        for (npy_intp i = 0; i < shape[0]; i++)
            d[4 * i + col] = src[i];
    }
    return (PyObject *)a;
}

static PyObject *get_or_none(PyArrayObject *a)
{
    PyObject *o = a ? (PyObject *)a : Py_None;
    Py_INCREF(o);
    return o;
}

static PyObject *walls_thickness_get(hspy_walls *self, void *c)
{
    (void)c;
    return get_or_none(self->thickness);
}

static PyObject *walls_mask_get(hspy_walls *self, void *c)
{
    (void)c;
    return get_or_none(self->mask);
}

static PyObject *walls_end_get(hspy_walls *self, void *c)
{
    return get_or_none(self->end[(int)(intptr_t)c]);
}

static PyObject *walls_reduce(hspy_walls *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *seg = walls_segments(self, NULL);
    return seg ? Py_BuildValue("O(NOO)", (PyObject *)Py_TYPE(self), seg,
                               self->thickness ? (PyObject *)self->thickness : Py_None,
                               self->mask ? (PyObject *)self->mask : Py_None)
               : NULL;
}

static PyGetSetDef walls_getset[] = {
    {"segments", (getter)walls_segments, NULL,
     "The (K, 4) rows ax, ay, bx, by (float32, a new array on each access).", NULL},
    {"ax", (getter)walls_end_get, NULL, "First ends' x (float32, read-only).", (void *)0},
    {"ay", (getter)walls_end_get, NULL, "First ends' y (float32, read-only).", (void *)1},
    {"bx", (getter)walls_end_get, NULL, "Second ends' x (float32, read-only).", (void *)2},
    {"by", (getter)walls_end_get, NULL, "Second ends' y (float32, read-only).", (void *)3},
    {"thickness", (getter)walls_thickness_get, NULL,
     "Each wall's thickness (float32 (K,)), or None: every wall thin.", NULL},
    {"mask", (getter)walls_mask_get, NULL, "Filter bits (uint32 (K,)) or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef walls_methods[] = {
    {"__reduce__", (PyCFunction)walls_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods walls_as_sequence = {.sq_length = (lenfunc)walls_len};

PyTypeObject hspy_WallsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hitscan.Walls",
    .tp_basicsize = sizeof(hspy_walls),
    .tp_dealloc = (destructor)walls_dealloc,
    .tp_repr = (reprfunc)walls_repr,
    .tp_as_sequence = &walls_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Walls(segments, thickness=None, mask=None)\n\n"
              "Wall segments from (ax, ay) to (bx, by), validated once, for Grid(walls=) and\n"
              "Grid.set_walls(). A query thickened by q hits wall i when some point of it comes\n"
              "within q + thickness[i] of the segment (touching counts); a wall whose ends are\n"
              "equal is a point, answered as a circle of radius thickness[i].\n\n"
              "segments: a (K, 4) array of ax, ay, bx, by; its columns are copied once into the\n"
              "set's own float32 arrays. thickness: None (every wall thin), a number (every\n"
              "wall) or a length-K array: float32 C-contiguous arrays are used in place (do not\n"
              "change them while the set is in use), others converted once. mask: optional\n"
              "per-wall filter bits (uint32 used in place; other integer arrays converted once):\n"
              "a query with mask m tests only walls with (mask & m) != 0.\n\n"
              "A Grid copies the walls when it is built (or set_walls is called). ValueError on\n"
              "a NaN / infinite value, |value| > 1e18 or a negative thickness, naming the\n"
              "argument, the wall and the reason.",
    .tp_methods = walls_methods,
    .tp_getset = walls_getset,
    .tp_new = walls_new,
};

hspy_walls *hspy_as_walls(PyObject *obj, const char *arg)
{
    if (PyObject_TypeCheck(obj, &hspy_WallsType)) {
        Py_INCREF(obj);
        return (hspy_walls *)obj;
    }
    if (obj == Py_None || !(PyArray_Check(obj) || PySequence_Check(obj))) {
        PyErr_Format(PyExc_TypeError,
                     "%s must be a hitscan.Walls or a float array of shape (K, 4), got %s", arg,
                     obj == Py_None ? "None" : Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return (hspy_walls *)PyObject_CallOneArg((PyObject *)&hspy_WallsType, obj);
}
