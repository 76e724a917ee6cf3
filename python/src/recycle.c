/* SPDX-License-Identifier: MIT */
/* Result arrays whose memory a Grid / Brute takes back when they are dropped (hspy.h). */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <stdlib.h>
#include <string.h>

/* Arrays smaller than this come from NumPy: its allocator keeps small blocks, and the kernel
 * gives big ones back when freed, so their fresh pages would fault on every call. */
#define HSPY_RECYCLE_MIN (256 * 1024)

/* tracemalloc's domain for NumPy's array memory (numpy/core/src/multiarray/alloc.c): memory
 * lent to a result array is reported as NumPy's own would be. */
#define HSPY_TRACE_DOMAIN 389047

typedef struct hspy_block {
    void *p;
    size_t cap;
} hspy_block;

struct hspy_bin {
    PyObject_HEAD hspy_block kept[HSPY_BIN_SLOTS]; /* p == NULL: empty slot */
};

static void bin_dealloc(hspy_bin *bin)
{
    for (int k = 0; k < HSPY_BIN_SLOTS; k++)
        free(bin->kept[k].p);
    Py_TYPE(bin)->tp_free((PyObject *)bin);
}

PyTypeObject hspy_BinType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hitscan._Bin",
    .tp_basicsize = sizeof(hspy_bin),
    .tp_dealloc = (destructor)bin_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Memory of dropped result arrays, kept for the next calls.",
};

/* The owner of one array's memory (the array's base): back to its bin when the array goes. */
typedef struct hspy_owner {
    PyObject_HEAD hspy_block b;
    hspy_bin *bin;
} hspy_owner;

static void owner_dealloc(hspy_owner *o)
{
    hspy_bin *bin = o->bin;
    if (o->b.p) {
        PyTraceMalloc_Untrack(HSPY_TRACE_DOMAIN, (uintptr_t)o->b.p);
        /* an empty slot, else the smallest kept block if this one is larger, else freed */
        int s = 0;
        for (int k = 1; k < HSPY_BIN_SLOTS && bin->kept[s].p; k++)
            if (!bin->kept[k].p || bin->kept[k].cap < bin->kept[s].cap)
                s = k;
        if (!bin->kept[s].p || bin->kept[s].cap < o->b.cap) {
            free(bin->kept[s].p);
            bin->kept[s] = o->b;
        } else {
            free(o->b.p);
        }
    }
    Py_DECREF(bin);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

PyTypeObject hspy_OwnerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hitscan._Owner",
    .tp_basicsize = sizeof(hspy_owner),
    .tp_dealloc = (destructor)owner_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The memory of a result array (given back to its Grid / Brute when dropped).",
};

hspy_bin *hspy_bin_new(void)
{
    hspy_bin *bin = PyObject_New(hspy_bin, &hspy_BinType);
    if (bin)
        memset(bin->kept, 0, sizeof bin->kept);
    return bin;
}

PyObject *hspy_bin_array(hspy_bin *bin, int nd, const npy_intp *shape, int type)
{
    npy_intp n = 1;
    for (int k = 0; k < nd; k++)
        n *= shape[k];
    PyArray_Descr *descr = PyArray_DescrFromType(type);
    if (!descr)
        return NULL;
    const size_t bytes = (size_t)n * (size_t)descr->elsize;
    if (!bin || bytes < HSPY_RECYCLE_MIN)
        return PyArray_NewFromDescr(&PyArray_Type, descr, nd, (npy_intp *)shape, NULL, NULL, 0,
                                    NULL);
    /* the smallest kept block that fits, else a new one */
    int best = -1;
    for (int k = 0; k < HSPY_BIN_SLOTS; k++)
        if (bin->kept[k].p && bin->kept[k].cap >= bytes &&
            (best < 0 || bin->kept[k].cap < bin->kept[best].cap))
            best = k;
    hspy_owner *o = PyObject_New(hspy_owner, &hspy_OwnerType);
    if (!o) {
        Py_DECREF(descr);
        return NULL;
    }
    if (best >= 0) {
        o->b = bin->kept[best];
        bin->kept[best].p = NULL;
        bin->kept[best].cap = 0;
    } else {
        o->b.cap = bytes;
        o->b.p = NULL;
        if (posix_memalign(&o->b.p, 64, bytes) != 0)
            o->b.p = NULL;
    }
    Py_INCREF(bin);
    o->bin = bin;
    if (!o->b.p) {
        o->b.cap = 0;
        Py_DECREF(o);
        Py_DECREF(descr);
        return PyErr_NoMemory();
    }
    PyTraceMalloc_Track(HSPY_TRACE_DOMAIN, (uintptr_t)o->b.p, o->b.cap);
    PyObject *a = PyArray_NewFromDescr(&PyArray_Type, descr, nd, (npy_intp *)shape, NULL, o->b.p,
                                       NPY_ARRAY_CARRAY, NULL);
    if (!a) {
        Py_DECREF(o);
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)a, (PyObject *)o) < 0) { /* o stolen, even so */
        Py_DECREF(a);
        return NULL;
    }
    return a;
}
