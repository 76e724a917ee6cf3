/* SPDX-License-Identifier: MIT */
/* hitscan.Grid and hitscan.Brute: batch queries with the GIL released, pairs and overlaps. */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int is_grid(const hspy_engine *self) { return Py_TYPE(self) == &hspy_GridType; }

/* ---- construction ------------------------------------------------------------------------ */

/* box=None or (x0, y0, x1, y1) and periodic=None (both axes with a box), a bool (both axes or
 * none) or a pair of bools into o. */
static int box_opts(PyObject *box, PyObject *periodic, hs_grid_opts *o)
{
    unsigned axes = HS_PERIODIC_XY;
    if (periodic && periodic != Py_None) {
        const int text = PyUnicode_Check(periodic) || PyBytes_Check(periodic);
        PyObject *seq =
            PySequence_Check(periodic) && !text ? PySequence_Fast(periodic, "periodic") : NULL;
        if (seq && PySequence_Fast_GET_SIZE(seq) == 2) {
            const int x = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, 0));
            const int y = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, 1));
            axes = (x > 0 ? HS_PERIODIC_X : 0u) | (y > 0 ? HS_PERIODIC_Y : 0u);
            Py_DECREF(seq);
            if (x < 0 || y < 0)
                return -1;
        } else if (!seq && !PyErr_Occurred() && PyBool_Check(periodic)) {
            axes = periodic == Py_True ? HS_PERIODIC_XY : 0u;
        } else {
            Py_XDECREF(seq);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "periodic: need None, a bool or a pair of bools (x, y), got %R", periodic);
            return -1;
        }
    }
    if (!box || box == Py_None) {
        if (periodic && periodic != Py_None && axes) {
            PyErr_SetString(PyExc_ValueError, "periodic: needs a box=(x0, y0, x1, y1)");
            return -1;
        }
        return 0;
    }
    if (axes == 0) { /* the library reads a box only with a periodic axis */
        PyErr_Format(PyExc_ValueError,
                     "box: a box needs a periodic axis (periodic=True, (True, False) or "
                     "(False, True)); with periodic=%R it would play no part: drop the box",
                     periodic);
        return -1;
    }
    double v[4];
    PyObject *seq = PySequence_Check(box) ? PySequence_Fast(box, "box") : NULL;
    int ok = seq && PySequence_Fast_GET_SIZE(seq) == 4;
    for (int k = 0; ok && k < 4; k++) {
        v[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, k));
        ok = !(v[k] == -1.0 && PyErr_Occurred()) && fabs(v[k]) <= (double)HS_MAX_COORD;
    }
    Py_XDECREF(seq);
    for (int a = 0; ok && a < 2; a++)
        ok = (axes >> a) & 1u ? (float)v[a] < (float)v[a + 2] : (float)v[a] <= (float)v[a + 2];
    if (!ok) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError,
                     "box: need (x0, y0, x1, y1), finite, |value| <= 1e18, x0 < x1 and y0 < y1 "
                     "on the periodic axes, got %R",
                     box);
        return -1;
    }
    o->periodic = axes;
    o->box.min.x = (float)v[0];
    o->box.min.y = (float)v[1];
    o->box.max.x = (float)v[2];
    o->box.max.y = (float)v[3];
    return 0;
}

static int grid_opts(PyObject *cell_size, PyObject *threads, PyObject *box, PyObject *periodic,
                     hs_grid_opts *o)
{
    memset(o, 0, sizeof *o);
    if (box_opts(box, periodic, o))
        return -1;
    if (cell_size && cell_size != Py_None) {
        const double c = PyFloat_AsDouble(cell_size);
        if (c == -1.0 && PyErr_Occurred())
            return -1;
        if (!(c > 0.0) || !isfinite((float)c)) {
            PyErr_Format(PyExc_ValueError, "cell_size: %R is not None or a finite number > 0",
                         cell_size);
            return -1;
        }
        o->cell_size = (float)c;
    }
    return hspy_threads(threads, &o->threads);
}

/* The library refuses walls in a periodic box (HS_E_RANGE): say so in words. */
static int walls_periodic(unsigned periodic, const hspy_walls *walls)
{
    if (!periodic || !walls || hs_walls_count(walls->ws) == 0)
        return 0;
    PyErr_SetString(PyExc_ValueError, "walls: a grid with a periodic box takes no walls");
    return -1;
}

/* Builds the grid over `circles` with self->walls (GIL released). */
static int build(hspy_engine *self, hspy_circles *circles)
{
    hs_grid_opts o;
    if (grid_opts(self->cell_size, self->threads, self->box, self->periodic, &o) ||
        walls_periodic(o.periodic, self->walls))
        return -1;
    o.walls = self->walls ? self->walls->ws : NULL;
    hs_status s;
    Py_BEGIN_ALLOW_THREADS s = hs_grid_build(circles->cs, &o, &self->grid);
    Py_END_ALLOW_THREADS if (s != HS_OK)
    {
        /* the circles were validated by their Circles: a range error is the walls' */
        hspy_raise_status(s, s == HS_E_RANGE && o.walls ? "walls" : "circles");
        return -1;
    }
    Py_INCREF(circles);
    Py_XSETREF(self->circles, circles);
    return 0;
}

static PyObject *grid_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"circles", "cell_size", "threads", "box", "periodic", "walls", NULL};
    PyObject *c, *cell_size = Py_None, *threads = Py_None, *box = Py_None, *periodic = Py_None,
                 *walls_arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOOOO:Grid", kwlist, &c, &cell_size, &threads,
                                     &box, &periodic, &walls_arg))
        return NULL;
    hs_grid_opts o;
    if (grid_opts(cell_size, threads, box, periodic, &o))
        return NULL;
    hspy_walls *walls = walls_arg == Py_None ? NULL : hspy_as_walls(walls_arg, "walls");
    if ((walls_arg != Py_None && !walls) || walls_periodic(o.periodic, walls)) {
        Py_XDECREF(walls);
        return NULL;
    }
    PyObject *wrapped = hspy_wrap_xyr(c, o.periodic, &o.box);
    hspy_circles *circles = hspy_as_circles(wrapped, "circles");
    Py_DECREF(wrapped);
    if (!circles) {
        Py_XDECREF(walls);
        return NULL;
    }
    hspy_engine *self = (hspy_engine *)type->tp_alloc(type, 0);
    if (self) {
        self->walls = walls; /* the reference taken above */
        walls = NULL;
        Py_INCREF(cell_size);
        Py_INCREF(threads);
        Py_INCREF(box);
        Py_INCREF(periodic);
        self->cell_size = cell_size;
        self->threads = threads;
        self->box = box;
        self->periodic = periodic;
        if (!(self->bin = hspy_bin_new()) || build(self, circles))
            Py_CLEAR(self);
    }
    Py_XDECREF(walls);
    Py_DECREF(circles);
    return (PyObject *)self;
}

static PyObject *brute_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"circles", NULL};
    PyObject *c;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:Brute", kwlist, &c))
        return NULL;
    hspy_circles *circles = hspy_as_circles(c, "circles");
    if (!circles)
        return NULL;
    hspy_engine *self = (hspy_engine *)type->tp_alloc(type, 0);
    if (self) {
        self->circles = circles;
        if (!(self->bin = hspy_bin_new()))
            Py_CLEAR(self);
    } else {
        Py_DECREF(circles);
    }
    return (PyObject *)self;
}

static void clear_src(hspy_engine *self)
{
    for (int k = 0; k < 4; k++)
        Py_CLEAR(self->src[k]);
}

static void engine_dealloc(hspy_engine *self)
{
    clear_src(self);
    Py_XDECREF(self->bin);
    hs_grid_destroy(self->grid);
    hspy_scratch_free(&self->scratch);
    Py_XDECREF(self->circles);
    Py_XDECREF(self->cell_size);
    Py_XDECREF(self->threads);
    Py_XDECREF(self->box);
    Py_XDECREF(self->periodic);
    Py_XDECREF(self->walls);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ---- one call at a time on the object's scratch, any number on the object ------------------ */

typedef struct call {
    hspy_scratch *s;
    hspy_scratch own; /* used when the object's scratch is lent to another thread's call */
} call;

static int call_begin(hspy_engine *self, call *c, size_t m)
{
    if (self->rebuilding) {
        PyErr_SetString(PyExc_RuntimeError, "the grid is being rebuilt by another thread");
        return -1;
    }
    memset(c, 0, sizeof *c);
    if (self->scratch_busy) {
        c->s = &c->own;
    } else {
        c->s = &self->scratch;
        self->scratch_busy = 1;
    }
    if (hspy_scratch_reserve(c->s, m)) {
        if (c->s == &self->scratch)
            self->scratch_busy = 0;
        else
            hspy_scratch_free(&c->own);
        return -1;
    }
    self->calls++;
    return 0;
}

static void call_end(hspy_engine *self, call *c)
{
    self->calls--;
    if (c->s == &self->scratch)
        self->scratch_busy = 0;
    else
        hspy_scratch_free(&c->own);
}

/* ---- batch queries ----------------------------------------------------------------------- */

static int failed(hs_status s)
{
    if (s == HS_OK || s == HS_E_INVALID_QUERY)
        return 0;
    hspy_raise_status(s, s == HS_E_UNSUPPORTED ? "isa" : "queries");
    return 1;
}

/* The caller's output array `o` (out=) if it fits what new_out would make: the dtype, the
 * queries' shape (+ a last axis of 2 for pairs, laid out as a (2, ...) C-contiguous array
 * seen through moveaxis, which is what closest returns), writeable. A new reference. */
static PyObject *given_out(PyObject *o, const hspy_batch *b, int type, int pairs, const char *name)
{
    if (!PyArray_Check(o)) {
        PyErr_Format(PyExc_TypeError, "out: %s must be a NumPy array, got %s", name,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)o;
    const int nd = b->out_ndim + (pairs ? 1 : 0);
    int fits = PyArray_TYPE(a) == type && PyArray_ISNOTSWAPPED(a) && PyArray_ISWRITEABLE(a) &&
               PyArray_NDIM(a) == nd;
    for (int k = 0; fits && k < b->out_ndim; k++)
        fits = PyArray_DIM(a, k) == b->out_shape[k];
    if (fits && pairs) {
        /* the (2, ...) array behind it: axis nd-1 first, then the others in order */
        fits = PyArray_DIM(a, nd - 1) == 2;
        npy_intp expect = PyArray_ITEMSIZE(a);
        for (int k = nd - 2; fits && k >= 0; k--) {
            fits = PyArray_DIM(a, k) < 2 || PyArray_STRIDE(a, k) == expect;
            expect *= PyArray_DIM(a, k);
        }
        fits = fits && PyArray_STRIDE(a, nd - 1) == expect;
    } else if (fits) {
        fits = PyArray_IS_C_CONTIGUOUS(a);
    }
    if (!fits) {
        PyErr_Format(PyExc_ValueError,
                     "out: %s must be a writeable %s array shaped like the result (as a "
                     "previous call returned it)",
                     name,
                     type == NPY_INT64   ? "int64"
                     : type == NPY_BOOL  ? "bool"
                     : type == NPY_UINT8 ? "uint8"
                                         : "float32");
        return NULL;
    }
    Py_INCREF(o);
    return o;
}

/* From the caller's out= when given, else a new array. */
static PyObject *out_array(hspy_engine *self, const hspy_batch *b, int type, int pairs,
                           PyObject *given, const char *name);

static PyObject *new_out(hspy_bin *bin, const hspy_batch *b, int type, int pairs)
{
    npy_intp shape[NPY_MAXDIMS + 1];
    int nd = b->out_ndim;
    if (pairs) /* (2, ...): the x row, then the y row */
        shape[0] = 2;
    memcpy(shape + (pairs ? 1 : 0), b->out_shape, (size_t)nd * sizeof(npy_intp));
    return hspy_bin_array(bin, nd + (pairs ? 1 : 0), shape, type);
}

static PyObject *out_array(hspy_engine *self, const hspy_batch *b, int type, int pairs,
                           PyObject *given, const char *name)
{
    return given ? given_out(given, b, type, pairs, name) : new_out(self->bin, b, type, pairs);
}

/* The bytes an array spans (every array here is one contiguous block, maybe permuted). */
static int spans_overlap(PyArrayObject *a, PyArrayObject *b)
{
    const char *a0 = PyArray_BYTES(a), *b0 = PyArray_BYTES(b);
    return PyArray_NBYTES(a) > 0 && PyArray_NBYTES(b) > 0 && a0 < b0 + PyArray_NBYTES(b) &&
           b0 < a0 + PyArray_NBYTES(a);
}

/* out= arrays may not share memory with the inputs the library reads while it writes them
 * (queries, per-query thickness, mask and ignore) nor with each other: ValueError naming both. */
static int out_aliases(const hspy_batch *b, PyObject *const *outs, const char *const *names, int n)
{
    PyArrayObject *in[4] = {b->queries, b->thickness, b->mask, b->ignore};
    static const char *const in_names[4] = {"queries", "thickness", "mask", "ignore"};
    for (int i = 0; i < n; i++) {
        if (!outs[i])
            continue;
        for (int k = 0; k < 4; k++)
            if (in[k] && spans_overlap((PyArrayObject *)outs[i], in[k])) {
                PyErr_Format(PyExc_ValueError, "out: %s shares memory with %s", names[i],
                             in_names[k]);
                return -1;
            }
        for (int j = 0; j < i; j++)
            if (outs[j] && spans_overlap((PyArrayObject *)outs[i], (PyArrayObject *)outs[j])) {
                PyErr_Format(PyExc_ValueError, "out: %s shares memory with %s", names[i], names[j]);
                return -1;
            }
    }
    return 0;
}

/* (2, ...) as (..., 2): a view, no copy. */
static PyObject *last_axis_pairs(PyObject *a2)
{
    PyArrayObject *a = (PyArrayObject *)a2;
    const int nd = PyArray_NDIM(a);
    if (nd == 1)
        return a2;
    npy_intp perm[NPY_MAXDIMS];
    for (int k = 0; k < nd - 1; k++)
        perm[k] = k + 1;
    perm[nd - 1] = 0;
    PyArray_Dims dims = {perm, nd};
    PyObject *v = PyArray_Transpose(a, &dims);
    Py_DECREF(a2);
    return v;
}

/* Row k of the displacements (columns dx = d[0 .. n), dy = d[n .. 2n)) that the library would
 * refuse: the first non-finite one, or the first longer than HS_MAX_COORD, as
 * hs_grid_swept_pairs and the moving queries check them. 0 when there is none. */
static int raise_bad_displacement(const float *d, size_t n, const char *name)
{
    for (size_t k = 0; k < n; k++) {
        const double x = d[k], y = d[n + k];
        if (!isfinite(x) || !isfinite(y) ||
            !(x * x + y * y <= (double)HS_MAX_COORD * (double)HS_MAX_COORD)) {
            const char *why = isfinite(x) && isfinite(y) ? "longer than 1e18" : "not finite";
            PyObject *vx = PyFloat_FromDouble(x), *vy = PyFloat_FromDouble(y);
            if (vx && vy)
                PyErr_Format(PyExc_ValueError, "%s: row %zu: %s (dx=%R, dy=%R)", name, k, why, vx,
                             vy);
            Py_XDECREF(vx);
            Py_XDECREF(vy);
            return -1;
        }
    }
    return 0;
}

float *hspy_displacement_columns(hspy_engine *self, PyObject *obj, const char *name)
{
    PyArrayObject *a = hspy_float32(obj, name, "a float array of shape (N, 2)");
    if (!a)
        return NULL;
    const size_t n = hs_grid_circle_count(self->grid);
    if (PyArray_NDIM(a) != 2 || PyArray_DIM(a, 1) != 2 || (size_t)PyArray_DIM(a, 0) != n) {
        PyObject *shape = PyObject_GetAttrString((PyObject *)a, "shape");
        if (shape)
            PyErr_Format(PyExc_ValueError,
                         "%s: expected shape (N, 2), one row per circle of the grid (N = %zu), "
                         "got %R",
                         name, n, shape);
        Py_XDECREF(shape);
        Py_DECREF(a);
        return NULL;
    }
    const float *d = PyArray_DATA(a);
    float *soa = malloc((n ? 2 * n : 1) * sizeof *soa);
    if (soa) {
        for (size_t k = 0; k < n; k++) {
            soa[k] = d[2 * k];
            soa[n + k] = d[2 * k + 1];
        }
    } else {
        PyErr_NoMemory();
    }
    Py_DECREF(a);
    if (soa && raise_bad_displacement(soa, n, name)) {
        free(soa);
        return NULL;
    }
    return soa;
}

/* displacement= of a query method: the circles' columns into the batch's options (and the
 * grid's periodic axes, for the reason of an invalid query). */
static int batch_displacement(hspy_engine *self, hspy_batch *b)
{
    b->periodic = self->grid ? hs_grid_periodic(self->grid, NULL) : 0u;
    if (b->displacement == NULL)
        return 0;
    if (!self->grid) {
        PyErr_SetString(PyExc_TypeError, "displacement: moving circles need a Grid");
        return -1;
    }
    if (!(b->disp = hspy_displacement_columns(self, b->displacement, "displacement")))
        return -1;
    b->opts.disp_x = b->disp;
    b->opts.disp_y = b->disp + hs_grid_circle_count(self->grid);
    return 0;
}

static hs_status run_closest(hspy_engine *self, const hs_queries *qs, const hspy_batch *b,
                             hs_closest_out out)
{
    return self->grid ? hs_grid_closest(self->grid, qs, &b->opts, out)
                      : hs_brute_closest(self->circles->cs, qs, &b->opts, out);
}

static PyObject *engine_closest(hspy_engine *self, PyObject *args, PyObject *kwds)
{
    hspy_batch b;
    if (hspy_batch_parse(&b, HSPY_CLOSEST, args, kwds))
        return NULL;
    if (batch_displacement(self, &b)) {
        hspy_batch_clear(&b);
        return NULL;
    }
    PyObject *given[5] = {NULL, NULL, NULL, NULL, NULL};
    PyObject *idx = NULL, *t = NULL, *pt = NULL, *nrm = NULL, *kind = NULL, *res = NULL;
    const Py_ssize_t want = b.details ? 4 : 2;
    if (b.out) {
        if (!PyTuple_Check(b.out) || PyTuple_GET_SIZE(b.out) != want) {
            PyErr_Format(PyExc_TypeError,
                         "out: need a tuple of %zd arrays (index, t%s), as closest returns", want,
                         b.details ? ", point, normal" : "");
            goto done;
        }
        for (Py_ssize_t k = 0; k < want; k++)
            given[k] = PyTuple_GET_ITEM(b.out, k);
        /* a previous result brings its kind array too (a field beside the tuple's items) */
        if (Py_IS_TYPE(b.out, b.details ? hspy_ClosestDetailsType : hspy_ClosestType))
            given[4] = PyStructSequence_GetItem(b.out, want);
    }
    idx = out_array(self, &b, NPY_INT64, 0, given[0], "index");
    t = idx ? out_array(self, &b, NPY_FLOAT32, 0, given[1], "t") : NULL;
    if (b.details && t) {
        pt = out_array(self, &b, NPY_FLOAT32, 1, given[2], "point");
        nrm = pt ? out_array(self, &b, NPY_FLOAT32, 1, given[3], "normal") : NULL;
    }
    if (t && (!b.details || nrm))
        kind = out_array(self, &b, NPY_UINT8, 0, given[4], "kind");
    static const char *const names[5] = {"index", "t", "point", "normal", "kind"};
    PyObject *const outs[5] = {given[0] ? idx : NULL, given[1] ? t : NULL, given[2] ? pt : NULL,
                               given[3] ? nrm : NULL, given[4] ? kind : NULL};
    call c;
    if (!kind || out_aliases(&b, outs, names, 5) || call_begin(self, &c, b.m))
        goto done;
    b.opts.ws = c.s->ws;
    hs_closest_out out;
    memset(&out, 0, sizeof out);
    out.idx = c.s->u32; /* widened into idx below */
    out.t = (float *)PyArray_DATA((PyArrayObject *)t);
    /* the grid writes every kind; brute force has circles alone */
    uint8_t *kinds = (uint8_t *)PyArray_DATA((PyArrayObject *)kind);
    out.kind = self->grid ? kinds : NULL;
    if (b.details) {
        out.px = (float *)PyArray_DATA((PyArrayObject *)pt);
        out.py = out.px + b.m;
        out.nx = (float *)PyArray_DATA((PyArrayObject *)nrm);
        out.ny = out.nx + b.m;
    }
    hs_status s;
    Py_BEGIN_ALLOW_THREADS hs_queries qs = hspy_batch_soa(&b, c.s);
    s = run_closest(self, &qs, &b, out);
    if (s == HS_OK || s == HS_E_INVALID_QUERY) {
        hspy_widen_u32(out.idx, (int64_t *)PyArray_DATA((PyArrayObject *)idx), b.m, 1,
                       b.opts.threads);
        if (!out.kind)
            memset(kinds, HS_KIND_CIRCLE, b.m);
    }
    Py_END_ALLOW_THREADS call_end(self, &c);
    if (failed(s))
        goto done;
    if (b.details) {
        res = PyStructSequence_New(hspy_ClosestDetailsType);
        if (!res || (!given[2] && !(pt = last_axis_pairs(pt))) ||
            (!given[3] && !(nrm = last_axis_pairs(nrm)))) {
            Py_CLEAR(res);
            goto done;
        }
        PyStructSequence_SET_ITEM(res, 2, pt);
        PyStructSequence_SET_ITEM(res, 3, nrm);
        pt = nrm = NULL;
    } else if (!(res = PyStructSequence_New(hspy_ClosestType))) {
        goto done;
    }
    PyStructSequence_SET_ITEM(res, 0, idx);
    PyStructSequence_SET_ITEM(res, 1, t);
    PyStructSequence_SET_ITEM(res, want, kind);
    idx = t = kind = NULL;
    if (s == HS_E_INVALID_QUERY && hspy_warn_invalid(&b))
        Py_CLEAR(res);
done:
    Py_XDECREF(idx);
    Py_XDECREF(t);
    Py_XDECREF(pt);
    Py_XDECREF(nrm);
    Py_XDECREF(kind);
    hspy_batch_clear(&b);
    return res;
}

/* any and count: one array per query, written by the library (count widened in place). */
static PyObject *engine_per_query(hspy_engine *self, hspy_mode mode, PyObject *args, PyObject *kwds)
{
    hspy_batch b;
    if (hspy_batch_parse(&b, mode, args, kwds))
        return NULL;
    if (batch_displacement(self, &b)) {
        hspy_batch_clear(&b);
        return NULL;
    }
    PyObject *out = out_array(self, &b, mode == HSPY_ANY ? NPY_BOOL : NPY_INT64, 0, b.out, "out");
    static const char *const names[1] = {"out"};
    PyObject *const outs[1] = {b.out ? out : NULL};
    call c;
    if (!out || out_aliases(&b, outs, names, 1) || call_begin(self, &c, b.m)) {
        Py_XDECREF(out);
        hspy_batch_clear(&b);
        return NULL;
    }
    b.opts.ws = c.s->ws;
    void *data = PyArray_DATA((PyArrayObject *)out);
    hs_status s;
    Py_BEGIN_ALLOW_THREADS hs_queries qs = hspy_batch_soa(&b, c.s);
    if (mode == HSPY_ANY)
        s = self->grid ? hs_grid_any(self->grid, &qs, &b.opts, (uint8_t *)data)
                       : hs_brute_any(self->circles->cs, &qs, &b.opts, (uint8_t *)data);
    else
        s = self->grid ? hs_grid_count_hits(self->grid, &qs, &b.opts, c.s->u32)
                       : hs_brute_count(self->circles->cs, &qs, &b.opts, c.s->u32);
    if (mode == HSPY_COUNT && (s == HS_OK || s == HS_E_INVALID_QUERY))
        hspy_widen_u32(c.s->u32, (int64_t *)data, b.m, 0, b.opts.threads);
    Py_END_ALLOW_THREADS call_end(self, &c);
    if (failed(s) || (s == HS_E_INVALID_QUERY && hspy_warn_invalid(&b)))
        Py_CLEAR(out);
    hspy_batch_clear(&b);
    return out;
}

static PyObject *engine_any(hspy_engine *self, PyObject *args, PyObject *kwds)
{
    return engine_per_query(self, HSPY_ANY, args, kwds);
}

static PyObject *engine_count(hspy_engine *self, PyObject *args, PyObject *kwds)
{
    return engine_per_query(self, HSPY_COUNT, args, kwds);
}

static PyObject *engine_all(hspy_engine *self, PyObject *args, PyObject *kwds)
{
    hspy_batch b;
    if (hspy_batch_parse(&b, HSPY_ALL, args, kwds))
        return NULL;
    if (batch_displacement(self, &b)) {
        hspy_batch_clear(&b);
        return NULL;
    }
    call c;
    if (call_begin(self, &c, b.m)) {
        hspy_batch_clear(&b);
        return NULL;
    }
    b.opts.ws = c.s->ws;
    hspy_hits_arrays arrays = {self->bin, b.csr, NULL, NULL, NULL, NULL};
    hs_status s;
    Py_BEGIN_ALLOW_THREADS hs_queries qs = hspy_batch_soa(&b, c.s);
    s = self->grid ? hs_grid_all_into(self->grid, &qs, &b.opts, hspy_hits_place, &arrays)
                   : hs_brute_all_into(self->circles->cs, &qs, &b.opts, hspy_hits_place, &arrays);
    Py_END_ALLOW_THREADS PyObject *res = NULL;
    if (failed(s))
        hspy_hits_arrays_clear(&arrays);
    else
        res = hspy_hits_result(&arrays);
    call_end(self, &c);
    if (res && s == HS_E_INVALID_QUERY && hspy_warn_invalid(&b))
        Py_CLEAR(res);
    hspy_batch_clear(&b);
    return res;
}

/* ---- the bare library call, for python/bench/overhead.py ----------------------------------
 * _c_call(mode, soa, threads, outs) times one library call (closest with hit points and
 * normals, or all) the way a C caller makes it: SoA queries prepared beforehand (soa: float32
 * (4, M) rows ax, ay, dx, dy), outputs written to arrays allocated once (closest: uint32 (M,),
 * float32 (M,), float32 (4, M); all: none, the hits stay in the object's workspace), the
 * object's workspace reused. Returns the call's seconds. Segments, solid, auto ISA. */
static PyObject *engine_c_call(hspy_engine *self, PyObject *args)
{
    const char *mode;
    PyArrayObject *soa;
    int threads;
    PyObject *outs;
    if (!PyArg_ParseTuple(args, "sO!iO:_c_call", &mode, &PyArray_Type, &soa, &threads, &outs))
        return NULL;
    const int all = strcmp(mode, "all") == 0;
    if ((!all && strcmp(mode, "closest") != 0) || PyArray_TYPE(soa) != NPY_FLOAT32 ||
        PyArray_NDIM(soa) != 2 || PyArray_DIM(soa, 0) != 4 || !PyArray_IS_C_CONTIGUOUS(soa)) {
        PyErr_SetString(PyExc_ValueError, "_c_call: mode 'closest' or 'all', soa float32 (4, M)");
        return NULL;
    }
    const size_t m = (size_t)PyArray_DIM(soa, 1);
    const float *q = (const float *)PyArray_DATA(soa);
    hs_closest_out out;
    memset(&out, 0, sizeof out);
    if (!all) {
        PyArrayObject *o[3];
        if (!PyArg_ParseTuple(outs, "O!O!O!", &PyArray_Type, &o[0], &PyArray_Type, &o[1],
                              &PyArray_Type, &o[2]))
            return NULL;
        if (PyArray_NBYTES(o[0]) < (npy_intp)(4 * m) || PyArray_NBYTES(o[1]) < (npy_intp)(4 * m) ||
            PyArray_NBYTES(o[2]) < (npy_intp)(16 * m)) {
            PyErr_SetString(PyExc_ValueError, "_c_call: outputs too small");
            return NULL;
        }
        out.idx = (uint32_t *)PyArray_DATA(o[0]);
        out.t = (float *)PyArray_DATA(o[1]);
        out.px = (float *)PyArray_DATA(o[2]);
        out.py = out.px + m;
        out.nx = out.px + 2 * m;
        out.ny = out.px + 3 * m;
    }
    call c;
    if (call_begin(self, &c, 0))
        return NULL;
    hs_queries qs = hs_queries_segments(q, q + m, q + 2 * m, q + 3 * m, m);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    o.ws = c.s->ws;
    hs_status s;
    double seconds;
    Py_BEGIN_ALLOW_THREADS struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (all) {
        hs_hits h;
        s = self->grid ? hs_grid_all(self->grid, &qs, &o, &h)
                       : hs_brute_all(self->circles->cs, &qs, &o, &h);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (s == HS_OK || s == HS_E_INVALID_QUERY)
            hs_hits_free(&h);
    } else {
        s = self->grid ? hs_grid_closest(self->grid, &qs, &o, out)
                       : hs_brute_closest(self->circles->cs, &qs, &o, out);
        clock_gettime(CLOCK_MONOTONIC, &t1);
    }
    seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    Py_END_ALLOW_THREADS call_end(self, &c);
    if (failed(s))
        return NULL;
    return PyFloat_FromDouble(seconds);
}

/* ---- Grid only --------------------------------------------------------------------------- */

/* The Circles the grid was last built from (a new reference), made from the arrays of a
 * rebuild from arrays the first time it is asked for. */
static hspy_circles *grid_source(hspy_engine *self)
{
    if (!self->circles) {
        PyObject *c = PyObject_CallFunctionObjArgs(
            (PyObject *)&hspy_CirclesType, self->src[0], self->src[1], self->src[2],
            self->src[3] ? (PyObject *)self->src[3] : Py_None, NULL);
        if (!c)
            return NULL;
        self->circles = (hspy_circles *)c;
        clear_src(self);
    }
    Py_INCREF(self->circles);
    return self->circles;
}

/* rebuild(circles, /, mask=None) / rebuild(x, y, r, /, mask=None): every form reads the
 * arrays during the call only (hs_grid_rebuild_from), so arrays the caller moved in place are
 * seen by the next rebuild whatever their dtype. */
static PyObject *grid_rebuild(hspy_engine *self, PyObject *args, PyObject *kwds)
{
    const Py_ssize_t npos = PyTuple_GET_SIZE(args);
    PyObject *mask = Py_None;
    if (kwds && PyDict_Size(kwds) > 0) {
        mask = PyDict_GetItemString(kwds, "mask");
        if (!mask || PyDict_Size(kwds) > 1) {
            PyErr_SetString(PyExc_TypeError, "rebuild(): the only keyword argument is mask");
            return NULL;
        }
    }
    if (npos != 1 && npos != 3) {
        PyErr_Format(PyExc_TypeError,
                     "rebuild() takes a Circles, an (N, 3) array xyr or three arrays x, y, r "
                     "(and mask=), got %zd positional arguments",
                     npos);
        return NULL;
    }
    if (self->calls > 0 || self->rebuilding) {
        PyErr_SetString(PyExc_RuntimeError,
                        "rebuild: another thread is querying or rebuilding this grid");
        return NULL;
    }
    PyObject *first = PyTuple_GET_ITEM(args, 0);
    hspy_circles *set = NULL;
    PyArrayObject *a[4] = {NULL, NULL, NULL, NULL};
    const char *arg = NULL, *unit = "element"; /* arg NULL: the array holding the bad value */
    if (npos == 1 && PyObject_TypeCheck(first, &hspy_CirclesType)) {
        if (mask != Py_None) {
            PyErr_SetString(PyExc_TypeError,
                            "rebuild: mask goes with arrays; a Circles has its own mask");
            return NULL;
        }
        set = (hspy_circles *)first;
        PyArrayObject *own[4] = {set->x, set->y, set->r, set->mask};
        for (int k = 0; k < 4; k++) {
            Py_XINCREF(own[k]);
            a[k] = own[k];
        }
        arg = "circles";
        unit = "circle";
    } else {
        hs_aabb box;
        const unsigned axes = hs_grid_periodic(self->grid, &box);
        if (npos == 1) {
            if (hspy_circles_like(first, "circles"))
                return NULL;
            PyObject *w = hspy_wrap_xyr(first, axes, &box);
            const int bad = hspy_circle_columns(w, a);
            Py_DECREF(w);
            if (bad)
                return NULL;
            arg = "xyr";
            unit = "row";
        } else {
            PyObject *wx = hspy_wrap_coords(first, 0, axes, &box);
            PyObject *wy = hspy_wrap_coords(PyTuple_GET_ITEM(args, 1), 1, axes, &box);
            const int bad = hspy_circle_arrays(wx, wy, PyTuple_GET_ITEM(args, 2), a);
            Py_DECREF(wx);
            Py_DECREF(wy);
            if (bad)
                return NULL;
        }
    }
    const npy_intp n = PyArray_DIM(a[0], 0);
    PyObject *res = NULL;
    if (!set && mask != Py_None && !(a[3] = hspy_circle_mask(mask, n)))
        goto done;
    const float *x = (const float *)PyArray_DATA(a[0]), *y = (const float *)PyArray_DATA(a[1]),
                *r = (const float *)PyArray_DATA(a[2]);
    const uint32_t *m = a[3] ? (const uint32_t *)PyArray_DATA(a[3]) : NULL;
    size_t bad = (size_t)-1;
    hs_status s;
    self->rebuilding = 1;
    Py_BEGIN_ALLOW_THREADS s = hs_grid_rebuild_from(self->grid, x, y, r, m, (size_t)n, &bad);
    Py_END_ALLOW_THREADS self->rebuilding = 0;
    if (s != HS_OK && bad < (size_t)n) { /* the grid is unchanged */
        hspy_raise_bad_circle(s, hs_status_string(s), arg, unit, bad, x, y, r,
                              "; the grid is unchanged");
        goto done;
    }
    if (s != HS_OK) { /* out of memory or too many: the grid is left valid and empty */
        npy_intp zero = 0;
        set = NULL;
        for (int k = 0; k < 4; k++)
            Py_XSETREF(a[k],
                       k < 3 ? (PyArrayObject *)PyArray_SimpleNew(1, &zero, NPY_FLOAT32) : NULL);
    }
    /* what the grid now holds, for .circles and pickling */
    Py_CLEAR(self->circles);
    clear_src(self);
    if (set) {
        Py_INCREF(set);
        self->circles = set;
    } else {
        for (int k = 0; k < 4; k++) {
            self->src[k] = a[k];
            a[k] = NULL;
        }
    }
    if (s != HS_OK) {
        hspy_raise_status(s, arg ? arg : "x");
        goto done;
    }
    Py_INCREF(Py_None);
    res = Py_None;
done:
    for (int k = 0; k < 4; k++)
        Py_XDECREF(a[k]);
    return res;
}

/* ---- attributes -------------------------------------------------------------------------- */

static Py_ssize_t engine_len(hspy_engine *self)
{
    return self->grid ? (Py_ssize_t)hs_grid_circle_count(self->grid)
                      : (Py_ssize_t)hs_circles_count(self->circles->cs);
}

static PyObject *engine_circles(hspy_engine *self, void *c)
{
    (void)c;
    return (PyObject *)grid_source(self);
}

static PyObject *grid_cell_size(hspy_engine *self, void *c)
{
    (void)c;
    return PyFloat_FromDouble(hs_grid_cell_size(self->grid));
}

static PyObject *grid_box(hspy_engine *self, void *c)
{
    (void)c;
    hs_aabb b;
    if (!hs_grid_periodic(self->grid, &b))
        Py_RETURN_NONE;
    return Py_BuildValue("(dddd)", (double)b.min.x, (double)b.min.y, (double)b.max.x,
                         (double)b.max.y);
}

static PyObject *grid_periodic(hspy_engine *self, void *c)
{
    (void)c;
    const unsigned axes = hs_grid_periodic(self->grid, NULL);
    return Py_BuildValue("(OO)", axes & HS_PERIODIC_X ? Py_True : Py_False,
                         axes & HS_PERIODIC_Y ? Py_True : Py_False);
}

/* set_walls(walls): the grid's walls replaced by a copy of a Walls or a (K, 4) array, or
 * removed (None); on an error the grid keeps its walls. */
static PyObject *grid_set_walls(hspy_engine *self, PyObject *arg)
{
    hspy_walls *walls = arg == Py_None ? NULL : hspy_as_walls(arg, "walls");
    if (arg != Py_None && !walls)
        return NULL;
    if (walls_periodic(hs_grid_periodic(self->grid, NULL), walls)) {
        Py_XDECREF(walls);
        return NULL;
    }
    if (self->calls > 0 || self->rebuilding) {
        PyErr_SetString(PyExc_RuntimeError,
                        "set_walls: another thread is querying or rebuilding this grid");
        Py_XDECREF(walls);
        return NULL;
    }
    hs_status s;
    self->rebuilding = 1;
    Py_BEGIN_ALLOW_THREADS s = hs_grid_set_walls(self->grid, walls ? walls->ws : NULL);
    Py_END_ALLOW_THREADS self->rebuilding = 0;
    if (s != HS_OK) {
        hspy_raise_status(s, "walls");
        Py_XDECREF(walls);
        return NULL;
    }
    Py_XSETREF(self->walls, walls);
    Py_RETURN_NONE;
}

static PyObject *grid_wall_count(hspy_engine *self, void *c)
{
    (void)c;
    return PyLong_FromSize_t(hs_grid_wall_count(self->grid));
}

static PyObject *grid_walls(hspy_engine *self, void *c)
{
    (void)c;
    PyObject *w = self->walls ? (PyObject *)self->walls : Py_None;
    Py_INCREF(w);
    return w;
}

static PyObject *grid_nbytes(hspy_engine *self, void *c)
{
    (void)c;
    return PyLong_FromSize_t(hs_grid_bytes(self->grid));
}

static PyObject *engine_repr(hspy_engine *self)
{
    if (self->grid) {
        PyObject *cell = PyFloat_FromDouble(hs_grid_cell_size(self->grid));
        const size_t nw = hs_grid_wall_count(self->grid);
        PyObject *r =
            !cell ? NULL
            : nw  ? PyUnicode_FromFormat("hitscan.Grid(<%zu circles, %zu walls, cell size %R>)",
                                         hs_grid_circle_count(self->grid), nw, cell)
                  : PyUnicode_FromFormat("hitscan.Grid(<%zu circles, cell size %R>)",
                                         hs_grid_circle_count(self->grid), cell);
        Py_XDECREF(cell);
        return r;
    }
    return PyUnicode_FromFormat("hitscan.Brute(<%zu circles>)",
                                hs_circles_count(self->circles->cs));
}

static PyObject *engine_reduce(hspy_engine *self, PyObject *Py_UNUSED(ignored))
{
    if (is_grid(self)) {
        hspy_circles *circles = grid_source(self);
        if (circles && self->walls) /* the walls the grid holds a copy of */
            return Py_BuildValue("O(NOOOOO)", (PyObject *)Py_TYPE(self), circles, self->cell_size,
                                 self->threads, self->box, self->periodic, self->walls);
        return circles ? Py_BuildValue("O(NOOOO)", (PyObject *)Py_TYPE(self), circles,
                                       self->cell_size, self->threads, self->box, self->periodic)
                       : NULL;
    }
    return Py_BuildValue("O(O)", (PyObject *)Py_TYPE(self), self->circles);
}

#define QUERY_DOC_ARGS                                                                             \
    "queries: (M, 4) array of ax, ay, bx, by (any (..., 4) shape; results take its shape\n"        \
    "without the last axis). Query i is P(t) = A + t (B - A), D = B - A computed in float32:\n"    \
    "kind 'segment' t in [0, 1], 'ray' t in [0, inf), 'line' t in (-inf, inf).\n"                  \
    "A float32 C-contiguous array is read in place; another dtype or layout is converted\n"        \
    "once (float32). The library's SoA layout is filled from it in a buffer the object reuses.\n"  \
    "thickness: half-width q >= 0 (capsule / swept circle), a scalar or one per query.\n"          \
    "semantics: 'solid' (discs; a query starting inside hits at its start) or 'boundary'\n"        \
    "(rims only). skip_start=True: a query ignores a circle it starts in or on and heads out\n"    \
    "of (a reflected ray does not re-hit the circle it leaves). mask: None (every circle), an "    \
    "int, or one uint32 per query: circles with\n"                                                 \
    "(circle mask & query mask) == 0 are skipped (circles without a mask have every bit: a\n"      \
    "query of mask 0 hits nothing). threads: None or -1 for every core, or a\n"                    \
    "count; results never depend on it. isa: None / 'auto', or a level from isa_levels().\n"       \
    "ignore: None, or per query the index of one circle it never reports (the shooter's\n"         \
    "own), an int for every query or an integer array of the queries' shape; negative: none,\n"    \
    ">= 2**32: ValueError. An index past the circles ignores nothing; walls are never\n"           \
    "ignored. displacement: an (N, 2) array, circle i moving by it over the query (Grid).\n"       \
    "The GIL is released while the library works. Invalid queries (NaN, B - A overflowing,\n"      \
    "a negative per-query thickness) are answered as misses and reported once per call by\n"       \
    "an InvalidQueryWarning (count, first, reason).\n"

/* The batch query methods Grid and Brute share. */
#define QUERY_METHODS                                                                              \
    {"closest", (PyCFunction)(void (*)(void))engine_closest, METH_VARARGS | METH_KEYWORDS,         \
     "closest($self, queries, *, kind='segment', thickness=0.0, semantics='solid', mask=None,\n"   \
     "        threads=None, isa=None, details=False, out=None, skip_start=False,\n"                \
     "        displacement=None, ignore=None)\n--\n\n"                                             \
     "Closest hit per query: (index, t), index int64 (-1 for a miss), t float32 (NaN).\n"          \
     "details=True adds point and normal, float32 (..., 2) arrays. .kind (uint8, beside the\n"     \
     "tuple) says what index counts in: 0 a circle, 1 a wall of a Grid's walls (its row in\n"      \
     "the Walls); at equal t a circle comes first. out: the arrays to write (a previous\n"         \
     "result of the same call, which brings its kind array), for loops that allocate "             \
     "nothing.\n\n" QUERY_DOC_ARGS},                                                               \
        {"any", (PyCFunction)(void (*)(void))engine_any, METH_VARARGS | METH_KEYWORDS,             \
         "any($self, queries, *, kind='segment', thickness=0.0, semantics='solid', mask=None,\n"   \
         "    threads=None, isa=None, out=None, skip_start=False, displacement=None,\n"            \
         "    ignore=None)\n--\n\n"                                                                \
         "Whether each query hits any circle (or wall of a Grid's walls): a bool array (or\n"      \
         "out).\n\n" QUERY_DOC_ARGS},                                                              \
        {"count", (PyCFunction)(void (*)(void))engine_count, METH_VARARGS | METH_KEYWORDS,         \
         "count($self, queries, *, kind='segment', thickness=0.0, semantics='solid', mask=None,\n" \
         "      threads=None, isa=None, out=None, skip_start=False, displacement=None,\n"          \
         "      ignore=None)\n--\n\n"                                                              \
         "Number of circles (and walls of a Grid's walls) each query hits: an int64 array\n"       \
         "(or out).\n\n" QUERY_DOC_ARGS},                                                          \
        {"all", (PyCFunction)(void (*)(void))engine_all, METH_VARARGS | METH_KEYWORDS,             \
         "all($self, queries, *, kind='segment', thickness=0.0, semantics='solid', mask=None,\n"   \
         "    threads=None, isa=None, csr=False, skip_start=False, displacement=None,\n"           \
         "    ignore=None)\n--\n\n"                                                                \
         "Every hit: (query, circle, t) arrays (int64, int64, float32) ordered by query, then "    \
         "t,\n"                                                                                    \
         "then circle. csr=True returns (offsets, circle, t) instead, offsets int64 of length\n"   \
         "M + 1. .kind (uint8 per hit, beside the tuple): 0 when circle is a circle's index,\n"    \
         "1 when it is a wall's (a Grid with walls; at equal t circles come "                      \
         "first).\n\n" QUERY_DOC_ARGS},

static PyMethodDef engine_methods[] = {
    QUERY_METHODS{"_c_call", (PyCFunction)engine_c_call, METH_VARARGS, NULL},
    {"__reduce__", (PyCFunction)engine_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef grid_methods[] = {
    QUERY_METHODS{"_c_call", (PyCFunction)engine_c_call, METH_VARARGS, NULL},
    {"rebuild", (PyCFunction)(void (*)(void))grid_rebuild, METH_VARARGS | METH_KEYWORDS,
     "rebuild(circles_or_xyr, /, mask=None) or rebuild(x, y, r, /, mask=None)\n\n"
     "Rebuilds the grid in place (reusing its memory) from the circles' current values: the\n"
     "per-frame path for moving particles. Takes a Circles (its arrays as they are now: the\n"
     "caller's when it borrowed them, else its own copy), an (N, 3) array x, y, r, or three\n"
     "length-N arrays x, y, r (any real dtype, converted to float32 for the call; mask: one\n"
     "uint32 per circle). The arrays are read during the call only: move them in place and\n"
     "rebuild again. The count may change. The GIL is released.\n\n"
     "ValueError on a bad circle (NaN, infinite, |value| > 1e18, negative radius), naming\n"
     "its index and reason; the grid is then unchanged and keeps answering for its last\n"
     "build. RuntimeError while another thread queries it."},
    {"set_walls", (PyCFunction)grid_set_walls, METH_O,
     "set_walls($self, walls, /)\n--\n\n"
     "Replaces the grid's walls by a copy of walls (a Walls or a (K, 4) array of ax, ay,\n"
     "bx, by), or removes them (None). Rebuilds keep the walls. ValueError in a periodic\n"
     "box (it takes no walls) or for a bad wall; the grid then keeps its walls.\n"
     "RuntimeError while another thread queries the grid. The GIL is released."},
    {"pairs", (PyCFunction)(void (*)(void))hspy_grid_pairs, METH_VARARGS | METH_KEYWORDS,
     "pairs($self, skin=0.0, *, shifts=False, contacts=False, collide=None, threads=None)\n"
     "--\n\n"
     "Every pair of circles whose gap is at most skin (skin=0: overlapping, touching counts)\n"
     "once: a (K, 2) int64 array of (i, j), i < j, ordered by i then j. A Verlet neighbour\n"
     "list with skin > 0. In a periodic box j is seen at its image nearest to i.\n"
     "shifts=True: PairShifts(pairs, shift), shift int8 (K, 2) the periods added to j's\n"
     "centre. contacts=True: Contacts(pairs, normal, distance, gap) (.shift with shifts=True),\n"
     "normal float32 (K, 2) unit from i towards j, distance and gap (distance - ri - rj,\n"
     "negative for a penetration) float32 (K,). ValueError for a NaN, infinite or negative\n"
     "skin, or in a periodic box a diameter plus skin not below half a period.\n"
     "collide: None (every pair) or one uint32 per circle, the categories it pairs with\n"
     "(Box2D's maskBits); a circle's category is its mask (every bit without masks). i and j\n"
     "pair only when (mask[i] & collide[j]) and (mask[j] & collide[i]) are both non-zero."},
    {"swept_pairs", (PyCFunction)(void (*)(void))hspy_grid_swept_pairs,
     METH_VARARGS | METH_KEYWORDS,
     "swept_pairs($self, dxy, *, shifts=False, collide=None, threads=None)\n--\n\n"
     "Pairs of moving circles that touch during a step: circle i moves by dxy[i] (an (N, 2)\n"
     "float array, converted to float32) over t in [0, 1]. Every pair i < j whose discs touch\n"
     "at some t (touching counts) once, ordered by i then j: SweptPairs(i, j, t, normal,\n"
     "overlapping), i and j int64 (K,), t float32 (K,) the first contact, normal float32\n"
     "(K, 2) the unit normal from i towards j at t, overlapping bool (K,) for pairs already\n"
     "touching at t = 0 (their t is 0). Zero displacement gives pairs(). In a periodic box\n"
     "j is seen at the image i meets; shifts=True sets .shift, int8 (K, 2) the periods added\n"
     "to j's centre (None otherwise). ValueError for a wrong shape or a displacement that is\n"
     "not finite or longer than 1e18 (in a periodic box: a diameter plus displacement not\n"
     "below half a period). collide: the filter of pairs(). The GIL is released."},
    {"overlap", (PyCFunction)(void (*)(void))hspy_grid_overlap, METH_VARARGS | METH_KEYWORDS,
     "overlap($self, points_or_circles, *, mask=None, category=None, collide=None, csr=False,\n"
     "threads=None)\n--\n\n"
     "Circles overlapping each point (P, 2) or circle (P, 3) (closed discs). One point (2,) or\n"
     "circle (3,): the int64 indices, ascending. Several: (query, circle) int64 arrays (or\n"
     "(offsets, circle) with csr=True). In a periodic box each circle is tested at its image\n"
     "nearest to the disc. Invalid rows overlap nothing and are reported by an\n"
     "InvalidQueryWarning; a single invalid one raises ValueError. mask: the circles' masks\n"
     "it meets (None: every one); with collide (one uint32 per circle, as in pairs()) a circle\n"
     "is met only when collide[k] & category != 0 too (category: the queries' bits, None:\n"
     "every bit). threads: None or -1 for every core, or a count; the GIL is released."},
    {"__reduce__", (PyCFunction)engine_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef brute_getset[] = {
    {"circles", (getter)engine_circles, NULL, "The Circles queried.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyGetSetDef grid_getset[] = {
    {"circles", (getter)engine_circles, NULL,
     "The Circles it was (re)built from (the grid holds its own reordered copy). After a\n"
     "rebuild from arrays: a Circles over those arrays (made on first access; it borrows\n"
     "float32 C-contiguous ones, so it shows their values now).",
     NULL},
    {"cell_size", (getter)grid_cell_size, NULL, "Cell side of the main level.", NULL},
    {"box", (getter)grid_box, NULL,
     "The periodic box (x0, y0, x1, y1) as held, in float32 values, or None.", NULL},
    {"periodic", (getter)grid_periodic, NULL, "The periodic axes: (x, y) bools.", NULL},
    {"nbytes", (getter)grid_nbytes, NULL, "Heap bytes the grid holds.", NULL},
    {"wall_count", (getter)grid_wall_count, NULL, "The number of walls the grid holds.", NULL},
    {"walls", (getter)grid_walls, NULL,
     "The Walls the grid holds a copy of (given to Grid() or set_walls()), or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods engine_as_sequence = {.sq_length = (lenfunc)engine_len};

PyTypeObject hspy_GridType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hitscan.Grid",
    .tp_basicsize = sizeof(hspy_engine),
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_repr = (reprfunc)engine_repr,
    .tp_as_sequence = &engine_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Grid(circles, cell_size=None, threads=None, box=None, periodic=None, "
              "walls=None)\n\n"
              "Uniform-grid broadphase over a Circles (or an (N, 3) array of x, y, r). The grid\n"
              "keeps its own reordered copy of the circles; every index it reports is the\n"
              "caller's. cell_size=None chooses the cell from the radii; threads for the build\n"
              "(None or -1: every core). Queries from several Python threads may run at once.\n"
              "box=(x0, y0, x1, y1) with periodic=(True, True) (the default with a box; a bool,\n"
              "or (x, y) bools): a periodic box. Centres are wrapped into [x0, x1) on a\n"
              "periodic axis and must lie in it on the other; pairs, swept pairs and overlaps\n"
              "use the minimum image, and queries wrap around the box (a ray leaving on the\n"
              "right enters on the left; rays and lines across a periodic axis are invalid).\n"
              "A circle's diameter must stay below half a period. The box is held in float32\n"
              "(its values rounded to the nearest float32, as .box returns them); a box with\n"
              "no periodic axis is refused (ValueError). Positions given in float64 are wrapped\n"
              "into the box in float64, then rounded to float32.\n"
              "walls: a Walls (or a (K, 4) array of ax, ay, bx, by) the grid copies: every query\n"
              "meets circles and walls together, and closest / all tell them apart by .kind.\n"
              "Rebuilds keep them; set_walls() replaces them. Not with a periodic box.",
    .tp_methods = grid_methods,
    .tp_getset = grid_getset,
    .tp_new = grid_new,
};

PyTypeObject hspy_BruteType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hitscan.Brute",
    .tp_basicsize = sizeof(hspy_engine),
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_repr = (reprfunc)engine_repr,
    .tp_as_sequence = &engine_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Brute(circles)\n\n"
              "Brute force: every query tests every circle, on the same SIMD kernels as the\n"
              "grid, with the same answers. The right choice for small sets (up to a few\n"
              "hundred circles), and the baseline. Borrows the Circles' arrays.",
    .tp_methods = engine_methods,
    .tp_getset = brute_getset,
    .tp_new = brute_new,
};
