/* SPDX-License-Identifier: MIT */
/* hitscan.Grid's particle calls: pairs (with a skin, shifts in a periodic box, contacts),
 * swept pairs and overlap queries, each with the GIL released while the library works. */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The options of a pair search (threads=), and whether the grid may be searched now: 0, or -1
 * with the exception set. */
static int pair_opts(hspy_engine *self, PyObject *threads, hs_batch_opts *o)
{
    *o = hs_batch_opts_default();
    if (hspy_threads(threads, &o->threads))
        return -1;
    if (self->rebuilding) {
        PyErr_SetString(PyExc_RuntimeError, "the grid is being rebuilt by another thread");
        return -1;
    }
    return 0;
}

/* n new arrays from the bin, shapes (K,) or (K, 2) (pair[k]) and types type[k]; all NULL on
 * failure (with the exception set). */
static int new_arrays(hspy_engine *self, size_t count, int n, const int *pair, const int *type,
                      PyObject **out)
{
    const npy_intp k = (npy_intp)count, shape2[2] = {k, 2};
    for (int a = 0; a < n; a++) {
        out[a] = hspy_bin_array(self->bin, pair[a] ? 2 : 1, pair[a] ? shape2 : &k, type[a]);
        if (!out[a]) {
            for (int b = 0; b < a; b++)
                Py_CLEAR(out[b]);
            return -1;
        }
    }
    return 0;
}

static void *data(PyObject *a) { return PyArray_DATA((PyArrayObject *)a); }

/* collide=: None (*out NULL, no filter), or one uint32 per circle of the grid: 0, or -1 with
 * the exception set. */
static int collide_arg(hspy_engine *self, PyObject *obj, PyArrayObject **out)
{
    *out = NULL;
    if (obj == Py_None)
        return 0;
    *out = hspy_circle_bits(obj, "collide", (npy_intp)hs_grid_circle_count(self->grid));
    return *out ? 0 : -1;
}

static const uint32_t *bits_of(PyArrayObject *a)
{
    return a ? (const uint32_t *)PyArray_DATA(a) : NULL;
}

/* (a[k], b[k]) pairs into an (n, 2) array's rows. */
static void interleave_f32(const float *a, const float *b, float *out, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        out[2 * k] = a[k];
        out[2 * k + 1] = b[k];
    }
}

static void interleave_i8(const int8_t *a, const int8_t *b, int8_t *out, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        out[2 * k] = a[k];
        out[2 * k + 1] = b[k];
    }
}

/* pairs(): the (K, 2) pairs, and with shifts / contacts the named tuple of them. */
static PyObject *pairs_result(hspy_engine *self, const hs_pairs *p, int shifts, int contacts)
{
    enum { PAIRS, SHIFT, NORMAL, DISTANCE, GAP, N };
    static const int pair[N] = {1, 1, 1, 0, 0};
    static const int type[N] = {NPY_INT64, NPY_INT8, NPY_FLOAT32, NPY_FLOAT32, NPY_FLOAT32};
    PyObject *a[N] = {NULL, NULL, NULL, NULL, NULL};
    if (new_arrays(self, p->count, shifts ? 2 : 1, pair, type, a) ||
        (contacts && new_arrays(self, p->count, 3, pair + NORMAL, type + NORMAL, a + NORMAL))) {
        Py_XDECREF(a[PAIRS]);
        Py_XDECREF(a[SHIFT]);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS int64_t *ij = data(a[PAIRS]);
    for (size_t k = 0; k < p->count; k++) {
        ij[2 * k] = p->i[k];
        ij[2 * k + 1] = p->j[k];
    }
    if (shifts)
        interleave_i8(p->sx, p->sy, data(a[SHIFT]), p->count);
    if (contacts) {
        interleave_f32(p->nx, p->ny, data(a[NORMAL]), p->count);
        if (p->count) {
            memcpy(data(a[DISTANCE]), p->distance, p->count * sizeof(float));
            memcpy(data(a[GAP]), p->gap, p->count * sizeof(float));
        }
    }
    Py_END_ALLOW_THREADS if (!shifts && !contacts) return a[PAIRS];
    PyObject *res = PyStructSequence_New(contacts ? hspy_ContactsType : hspy_PairShiftsType);
    if (!res) {
        for (int k = 0; k < N; k++)
            Py_XDECREF(a[k]);
        return NULL;
    }
    if (!contacts) {
        PyStructSequence_SET_ITEM(res, 0, a[PAIRS]);
        PyStructSequence_SET_ITEM(res, 1, a[SHIFT]);
        return res;
    }
    PyStructSequence_SET_ITEM(res, 0, a[PAIRS]);
    PyStructSequence_SET_ITEM(res, 1, a[NORMAL]);
    PyStructSequence_SET_ITEM(res, 2, a[DISTANCE]);
    PyStructSequence_SET_ITEM(res, 3, a[GAP]);
    if (!a[SHIFT]) {
        Py_INCREF(Py_None);
        a[SHIFT] = Py_None;
    }
    PyStructSequence_SET_ITEM(res, 4, a[SHIFT]);
    return res;
}

PyObject *hspy_grid_pairs(hspy_engine *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"skin", "shifts", "contacts", "collide", "threads", NULL};
    PyObject *threads = Py_None, *collide_obj = Py_None;
    double skin = 0.0;
    int shifts = 0, contacts = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|d$ppOO:pairs", kwlist, &skin, &shifts, &contacts,
                                     &collide_obj, &threads))
        return NULL;
    hs_batch_opts o;
    PyArrayObject *collide;
    if (pair_opts(self, threads, &o) || collide_arg(self, collide_obj, &collide))
        return NULL;
    const hs_pair_opts po = {(float)skin,
                             (shifts ? HS_PAIRS_SHIFTS : 0u) | (contacts ? HS_PAIRS_CONTACTS : 0u)};
    hs_pairs p;
    memset(&p, 0, sizeof p);
    hs_status s;
    self->calls++;
    Py_BEGIN_ALLOW_THREADS s = hs_grid_pairs_filtered(self->grid, &po, bits_of(collide), &o, &p);
    Py_END_ALLOW_THREADS self->calls--;
    Py_XDECREF(collide);
    PyObject *res = NULL;
    if (s != HS_OK)
        hspy_raise_status(s, "skin");
    else
        res = pairs_result(self, &p, shifts, contacts);
    hs_pairs_free(&p);
    return res;
}

/* The library's swept pairs as the result tuple's arrays, filled without the GIL; with shifts
 * its shift attribute too (None otherwise). */
static PyObject *swept_result(hspy_engine *self, const hs_swept_pairs *p, int shifts, int threads)
{
    enum { I, J, T, NORMAL, OVERLAPPING, SHIFT, N };
    static const int pair[N] = {0, 0, 0, 1, 0, 1};
    static const int type[N] = {NPY_INT64, NPY_INT64, NPY_FLOAT32, NPY_FLOAT32, NPY_BOOL, NPY_INT8};
    PyObject *a[N];
    if (new_arrays(self, p->count, shifts ? N : N - 1, pair, type, a))
        return NULL;
    if (!shifts) {
        Py_INCREF(Py_None);
        a[SHIFT] = Py_None;
    }
    PyObject *res = PyStructSequence_New(hspy_SweptPairsType);
    if (!res) {
        for (int k = 0; k < N; k++)
            Py_DECREF(a[k]);
        return NULL;
    }
    float *pt = data(a[T]);
    npy_bool *po = data(a[OVERLAPPING]);
    Py_BEGIN_ALLOW_THREADS hspy_widen_u32(p->i, data(a[I]), p->count, 0, threads);
    hspy_widen_u32(p->j, data(a[J]), p->count, 0, threads);
    interleave_f32(p->nx, p->ny, data(a[NORMAL]), p->count);
    for (size_t q = 0; q < p->count; q++) {
        pt[q] = p->t[q];
        po[q] = (npy_bool)(p->overlapping[q] != 0);
    }
    if (shifts && p->sx)
        interleave_i8(p->sx, p->sy, data(a[SHIFT]), p->count);
    else if (shifts && p->count) /* a plain grid: no shifts */
        memset(data(a[SHIFT]), 0, 2 * p->count);
    Py_END_ALLOW_THREADS for (int k = 0; k < N; k++) PyStructSequence_SET_ITEM(res, k, a[k]);
    return res;
}

PyObject *hspy_grid_swept_pairs(hspy_engine *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"dxy", "shifts", "collide", "threads", NULL};
    PyObject *dxy_obj, *threads = Py_None, *collide_obj = Py_None;
    int shifts = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$pOO:swept_pairs", kwlist, &dxy_obj, &shifts,
                                     &collide_obj, &threads))
        return NULL;
    hs_batch_opts o;
    PyArrayObject *collide;
    if (pair_opts(self, threads, &o) || collide_arg(self, collide_obj, &collide))
        return NULL;
    float *soa = hspy_displacement_columns(self, dxy_obj, "dxy");
    if (!soa) {
        Py_XDECREF(collide);
        return NULL;
    }
    const size_t n = hs_grid_circle_count(self->grid);
    hs_swept_pairs p;
    memset(&p, 0, sizeof p);
    hs_status s;
    self->calls++;
    Py_BEGIN_ALLOW_THREADS s =
        hs_grid_swept_pairs_filtered(self->grid, soa, soa + n, bits_of(collide), &o, &p);
    Py_END_ALLOW_THREADS self->calls--;
    Py_XDECREF(collide);
    free(soa);
    PyObject *res = NULL;
    if (s != HS_OK)
        hspy_raise_status(s, "dxy");
    else
        res = swept_result(self, &p, shifts, o.threads);
    hs_swept_pairs_free(&p);
    return res;
}

/* overlap()'s rows as the result: one row's indices, or (query, circle) / (offsets, circle). */
static PyObject *overlap_result(const hs_overlaps *ov, int single, int csr)
{
    PyArrayObject *circle =
        (PyArrayObject *)PyArray_SimpleNew(1, (npy_intp[]){(npy_intp)ov->total}, NPY_INT64);
    if (!circle)
        return NULL;
    int64_t *ci = (int64_t *)PyArray_DATA(circle);
    for (size_t k = 0; k < ov->total; k++)
        ci[k] = ov->idx[k];
    if (single)
        return (PyObject *)circle;
    const size_t n = ov->count;
    PyArrayObject *first = (PyArrayObject *)PyArray_SimpleNew(
        1, (npy_intp[]){(npy_intp)(csr ? n + 1 : ov->total)}, NPY_INT64);
    PyObject *res =
        first ? PyStructSequence_New(csr ? hspy_OverlapsCSRType : hspy_OverlapsType) : NULL;
    if (!res) {
        Py_XDECREF(first);
        Py_DECREF(circle);
        return NULL;
    }
    int64_t *f = (int64_t *)PyArray_DATA(first);
    if (csr)
        for (size_t i = 0; i <= n; i++)
            f[i] = (int64_t)ov->offsets[i];
    else
        for (size_t i = 0; i < n; i++)
            for (size_t k = ov->offsets[i]; k < ov->offsets[i + 1]; k++)
                f[k] = (int64_t)i;
    PyStructSequence_SET_ITEM(res, 0, (PyObject *)first);
    PyStructSequence_SET_ITEM(res, 1, (PyObject *)circle);
    return res;
}

PyObject *hspy_grid_overlap(hspy_engine *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"points_or_circles", "mask", "category", "collide", "csr",
                             "threads",           NULL};
    PyObject *obj, *mask_obj = Py_None, *cat_obj = Py_None, *collide_obj = Py_None,
                   *threads = Py_None;
    int csr = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OOOpO:overlap", kwlist, &obj, &mask_obj,
                                     &cat_obj, &collide_obj, &csr, &threads))
        return NULL;
    uint32_t mask = UINT32_MAX, category = UINT32_MAX;
    if ((mask_obj != Py_None && hspy_uint32_scalar(mask_obj, "mask", &mask)) ||
        (cat_obj != Py_None && hspy_uint32_scalar(cat_obj, "category", &category)))
        return NULL;
    hs_batch_opts o;
    PyArrayObject *collide;
    if (pair_opts(self, threads, &o) || collide_arg(self, collide_obj, &collide))
        return NULL;
#define OVERLAP_SHAPES "points (P, 2) / (2,) or circles (P, 3) / (3,)"
    PyArrayObject *a = hspy_float32(obj, "points_or_circles", "a float array of " OVERLAP_SHAPES);
    if (!a) {
        Py_XDECREF(collide);
        return NULL;
    }
    const int nd = PyArray_NDIM(a);
    const npy_intp w = nd >= 1 ? PyArray_DIM(a, nd - 1) : 0;
    if ((nd != 1 && nd != 2) || (w != 2 && w != 3)) {
        PyObject *shape = PyObject_GetAttrString((PyObject *)a, "shape");
        if (shape)
            PyErr_Format(PyExc_ValueError,
                         "points_or_circles: need " OVERLAP_SHAPES ", got shape %R", shape);
        Py_XDECREF(shape);
        Py_DECREF(a);
        Py_XDECREF(collide);
        return NULL;
    }
    const size_t n = nd == 1 ? 1 : (size_t)PyArray_DIM(a, 0);
    const float *v = (const float *)PyArray_DATA(a);
    /* the library's SoA discs and per-disc masks */
    float *soa = malloc((3 * n + 1) * sizeof *soa);
    uint32_t *masks = mask_obj != Py_None ? malloc((n + 1) * sizeof *masks) : NULL;
    uint32_t *cats = collide ? malloc((n + 1) * sizeof *cats) : NULL;
    if (!soa || (mask_obj != Py_None && !masks) || (collide && !cats)) {
        free(soa);
        free(masks);
        free(cats);
        Py_DECREF(a);
        Py_XDECREF(collide);
        return PyErr_NoMemory();
    }
    hs_batch_stats st;
    o.stats = &st;
    hs_overlaps ov;
    memset(&ov, 0, sizeof ov);
    hs_status s;
    self->calls++;
    Py_BEGIN_ALLOW_THREADS for (size_t i = 0; i < n; i++)
    {
        soa[i] = v[w * i];
        soa[n + i] = v[w * i + 1];
        soa[2 * n + i] = w == 3 ? v[w * i + 2] : 0.0f;
        if (masks)
            masks[i] = mask;
        if (cats)
            cats[i] = category;
    }
    s = hs_grid_overlap_discs_filtered(self->grid, soa, soa + n, soa + 2 * n, masks, cats,
                                       bits_of(collide), n, &o, &ov);
    Py_END_ALLOW_THREADS self->calls--;
    PyObject *res = NULL;
    if (s == HS_E_INVALID_QUERY) {
        const size_t i = st.first_invalid;
        const hs_status why = hs_circle_validate((hs_circle){soa[i], soa[n + i], soa[2 * n + i]});
        if (nd == 1)
            hspy_raise_status(why, "points_or_circles");
        else if (!(res = overlap_result(&ov, 0, csr)) ||
                 hspy_warn_invalid_rows("points or circles", "overlap nothing", st.invalid, n, i,
                                        hspy_status_text(why)))
            Py_CLEAR(res);
    } else if (s != HS_OK) {
        hspy_raise_status(s, "points_or_circles");
    } else {
        res = overlap_result(&ov, nd == 1, csr);
    }
    hs_overlaps_free(&ov);
    free(masks);
    free(cats);
    free(soa);
    Py_DECREF(a);
    Py_XDECREF(collide);
    return res;
}
