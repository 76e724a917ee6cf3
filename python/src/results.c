/* SPDX-License-Identifier: MIT */
/* Library outputs as NumPy arrays, and the named result tuples. */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <string.h>

#include <omp.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

PyTypeObject *hspy_ClosestType, *hspy_ClosestDetailsType, *hspy_HitsType, *hspy_HitsCSRType,
    *hspy_OverlapsType, *hspy_OverlapsCSRType, *hspy_HitType, *hspy_SweptPairsType,
    *hspy_PairShiftsType, *hspy_ContactsType;

int hspy_team(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

static inline int64_t widen_one(uint32_t v, int none_to_minus1)
{
    return none_to_minus1 && v == HS_NONE ? -1 : (int64_t)v;
}

/* out[i] = in[i] as int64, HS_NONE (all ones) as -1 when asked: four at a time with SSE2,
 * the upper half of each int64 being zero, or all ones for HS_NONE (then the value is -1). */
static void widen_range(const uint32_t *restrict in, int64_t *restrict out, ptrdiff_t lo,
                        ptrdiff_t hi, int none_to_minus1)
{
    ptrdiff_t i = lo;
#if defined(__SSE2__)
    const __m128i none = _mm_set1_epi32(-1), zero = _mm_setzero_si128();
    for (; i + 4 <= hi; i += 4) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(in + i));
        const __m128i up = none_to_minus1 ? _mm_cmpeq_epi32(v, none) : zero;
        _mm_storeu_si128((__m128i *)(out + i), _mm_unpacklo_epi32(v, up));
        _mm_storeu_si128((__m128i *)(out + i + 2), _mm_unpackhi_epi32(v, up));
    }
#endif
    for (; i < hi; i++)
        out[i] = widen_one(in[i], none_to_minus1);
}

void hspy_widen_u32(const uint32_t *in, int64_t *out, size_t n, int none_to_minus1, int threads)
{
    const ptrdiff_t m = (ptrdiff_t)n;
    const int nt = hspy_team(threads);
    if (nt <= 1 || m < HSPY_PAR_MIN) { /* no parallel region, not even an inactive one */
        widen_range(in, out, 0, m, none_to_minus1);
        return;
    }
#pragma omp parallel num_threads(nt)
    {
        const ptrdiff_t t = omp_get_num_threads(), k = omp_get_thread_num();
        widen_range(in, out, m * k / t, m * (k + 1) / t, none_to_minus1);
    }
}

static PyArrayObject *new_array(hspy_bin *bin, npy_intp n, int type)
{
    return (PyArrayObject *)hspy_bin_array(bin, 1, &n, type);
}

/* The library calls this on the calling thread, which runs the call without the GIL: the
 * GIL is taken back for the few microseconds the arrays take to make. */
int hspy_hits_place(void *ctx, size_t count, size_t total, hs_hits_into *dst)
{
    hspy_hits_arrays *p = ctx;
    const PyGILState_STATE gil = PyGILState_Ensure();
    const npy_intp k = (npy_intp)total, m = (npy_intp)count;
    p->first = new_array(p->bin, p->csr ? m + 1 : k, NPY_INT64);
    p->circle = p->first ? new_array(p->bin, k, NPY_INT64) : NULL;
    p->t = p->circle ? new_array(p->bin, k, NPY_FLOAT32) : NULL;
    p->kind = p->t ? new_array(p->bin, k, NPY_UINT8) : NULL;
    const int ok = p->kind != NULL;
    if (ok) {
        if (p->csr)
            dst->offsets = (int64_t *)PyArray_DATA(p->first);
        else
            dst->query = (int64_t *)PyArray_DATA(p->first);
        dst->idx = (int64_t *)PyArray_DATA(p->circle);
        dst->t = (float *)PyArray_DATA(p->t);
        dst->kind = (uint8_t *)PyArray_DATA(p->kind);
    }
    PyGILState_Release(gil);
    return !ok;
}

void hspy_hits_arrays_clear(hspy_hits_arrays *p)
{
    Py_CLEAR(p->first);
    Py_CLEAR(p->circle);
    Py_CLEAR(p->t);
    Py_CLEAR(p->kind);
}

PyObject *hspy_hits_result(hspy_hits_arrays *p)
{
    PyObject *res = PyStructSequence_New(p->csr ? hspy_HitsCSRType : hspy_HitsType);
    if (!res) {
        hspy_hits_arrays_clear(p);
        return NULL;
    }
    PyStructSequence_SET_ITEM(res, 0, (PyObject *)p->first);
    PyStructSequence_SET_ITEM(res, 1, (PyObject *)p->circle);
    PyStructSequence_SET_ITEM(res, 2, (PyObject *)p->t);
    PyStructSequence_SET_ITEM(res, 3, (PyObject *)p->kind);
    p->first = p->circle = p->t = p->kind = NULL;
    return res;
}

#define KIND_DOC                                                                                   \
    "uint8, not part of the tuple: what index / circle counts in, 0 a circle, 1 a wall (its row "  \
    "of the grid's Walls); 0 on a miss and for grids without walls"
static PyStructSequence_Field closest_fields[] = {
    {"index", "int64: the closest circle (or wall: see kind) hit, -1 for a miss (ties in t: a "
              "circle before a wall, then the smaller index)"},
    {"t", "float32: its entry parameter, NaN for a miss"},
    {"kind", KIND_DOC},
    {NULL, NULL},
};
static PyStructSequence_Field details_fields[] = {
    {"index", "int64: the closest circle (or wall: see kind) hit, -1 for a miss (ties in t: a "
              "circle before a wall, then the smaller index)"},
    {"t", "float32: its entry parameter, NaN for a miss"},
    {"point", "float32 (..., 2): the hit point P(t), NaN for a miss"},
    {"normal", "float32 (..., 2): unit normal from the circle's centre (a wall's nearest point) "
               "towards the point"},
    {"kind", KIND_DOC},
    {NULL, NULL},
};
static PyStructSequence_Field hits_fields[] = {
    {"query", "int64: the query of each hit (flat index), ascending"},
    {"circle", "int64: the circle hit (a wall's index where kind is 1)"},
    {"t", "float32: entry parameter; a query's hits are ordered by t, then kind (circles "
          "first), then index"},
    {"kind", KIND_DOC},
    {NULL, NULL},
};
static PyStructSequence_Field csr_fields[] = {
    {"offsets", "int64 (M + 1): query i's hits are entries offsets[i] .. offsets[i + 1] - 1"},
    {"circle", "int64: the circle hit (a wall's index where kind is 1)"},
    {"t", "float32: entry parameter; a query's hits are ordered by t, then kind (circles "
          "first), then index"},
    {"kind", KIND_DOC},
    {NULL, NULL},
};
static PyStructSequence_Field overlaps_fields[] = {
    {"query", "int64: the point or circle (row), ascending"},
    {"circle", "int64: a circle overlapping it; a row's circles ascending"},
    {NULL, NULL},
};
static PyStructSequence_Field overlaps_csr_fields[] = {
    {"offsets", "int64 (P + 1): row i's circles are entries offsets[i] .. offsets[i + 1] - 1"},
    {"circle", "int64: a circle overlapping it; a row's circles ascending"},
    {NULL, NULL},
};
static PyStructSequence_Field hit_fields[] = {
    {"t", "entry parameter (solid) or first rim crossing (boundary)"},
    {"t_exit", "last parameter inside the closed disc, clipped to the query's interval"},
    {"point", "(x, y): P(t)"},
    {"normal", "(x, y): unit normal from the circle's centre towards the point"},
    {"inside", "True when the query starts inside the (inflated) disc"},
    {NULL, NULL},
};
static PyStructSequence_Field swept_fields[] = {
    {"i", "int64: the first circle of each pair, ascending"},
    {"j", "int64: the second circle, j > i; a circle's partners ascending"},
    {"t", "float32: the first contact in [0, 1] (0 when already touching)"},
    {"normal", "float32 (K, 2): unit normal from i towards j at t"},
    {"overlapping", "bool: the discs already touch at t = 0"},
    {"shift", "int8 (K, 2) with shifts=True (else None): the periods added to j's centre in a "
              "periodic box"},
    {NULL, NULL},
};
static PyStructSequence_Field pair_shift_fields[] = {
    {"pairs", "int64 (K, 2): (i, j), i < j, ordered by i then j"},
    {"shift", "int8 (K, 2): the periods added to j's centre: the pair is i and that image of j"},
    {NULL, NULL},
};
static PyStructSequence_Field contact_fields[] = {
    {"pairs", "int64 (K, 2): (i, j), i < j, ordered by i then j"},
    {"normal", "float32 (K, 2): unit normal from i towards (the image of) j"},
    {"distance", "float32 (K,): the distance between the centres"},
    {"gap", "float32 (K,): distance - ri - rj, negative for a penetration"},
    {"shift", "int8 (K, 2) with shifts=True (else None): the periods added to j's centre"},
    {NULL, NULL},
};

static PyStructSequence_Desc descs[] = {
    {"hitscan.Closest", "Closest hits: (index, t).", closest_fields, 2},
    {"hitscan.ClosestDetails", "Closest hits with geometry: (index, t, point, normal).",
     details_fields, 4},
    {"hitscan.Hits", "All hits as parallel arrays: (query, circle, t).", hits_fields, 3},
    {"hitscan.HitsCSR", "All hits in CSR form: (offsets, circle, t).", csr_fields, 3},
    {"hitscan.Overlaps", "Overlaps as parallel arrays: (query, circle).", overlaps_fields, 2},
    {"hitscan.OverlapsCSR", "Overlaps in CSR form: (offsets, circle).", overlaps_csr_fields, 2},
    {"hitscan.Hit", "One query against one circle: (t, t_exit, point, normal, inside).", hit_fields,
     5},
    {"hitscan.SweptPairs",
     "Pairs of moving circles: (i, j, t, normal, overlapping); .shift with shifts=True.",
     swept_fields, 5},
    {"hitscan.PairShifts", "Pairs in a periodic box with their image shifts: (pairs, shift).",
     pair_shift_fields, 2},
    {"hitscan.Contacts",
     "Pairs with their contacts: (pairs, normal, distance, gap); .shift with shifts=True.",
     contact_fields, 4},
};

int hspy_results_init(PyObject *module)
{
    PyTypeObject **types[] = {&hspy_ClosestType, &hspy_ClosestDetailsType, &hspy_HitsType,
                              &hspy_HitsCSRType, &hspy_OverlapsType,       &hspy_OverlapsCSRType,
                              &hspy_HitType,     &hspy_SweptPairsType,     &hspy_PairShiftsType,
                              &hspy_ContactsType};
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++) {
        *types[i] = PyStructSequence_NewType(&descs[i]);
        if (!*types[i])
            return -1;
        const char *name = strrchr(descs[i].name, '.') + 1;
        Py_INCREF(*types[i]);
        if (PyModule_AddObject(module, name, (PyObject *)*types[i]) < 0) {
            Py_DECREF(*types[i]);
            return -1;
        }
    }
    return 0;
}
