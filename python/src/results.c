/* Library outputs as NumPy arrays, and the named result tuples. */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <string.h>

#include <omp.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

PyTypeObject *hspy_ClosestType, *hspy_ClosestDetailsType, *hspy_HitsType, *hspy_HitsCSRType,
    *hspy_OverlapsType, *hspy_OverlapsCSRType, *hspy_HitType;

int hspy_team(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

static inline int64_t widen_one(uint32_t v, int none_to_minus1)
{
    return none_to_minus1 && v == HS_NONE ? -1 : (int64_t)v;
}

/* Large all-hits result arrays are written once and not read back by the call: stored past the
 * cache (non-temporal) on x86-64, so a write does not first read its line from memory. Small
 * ones stay in the cache the caller reads them from. The writer fences once its part is
 * complete (hits_slice). */
#define HSPY_STREAM_MIN ((size_t)1 << 16) /* hits in a slice: 768 KB of circle ids and times */

#if defined(__SSE2__)
static inline void store_i128(void *p, __m128i v, int stream)
{
    if (stream)
        _mm_stream_si128((__m128i *)p, v);
    else
        _mm_storeu_si128((__m128i *)p, v);
}
#endif

/* out[i] = in[i] as int64, HS_NONE (all ones) as -1 when asked: four at a time with SSE2,
 * the upper half of each int64 being zero, or all ones for HS_NONE (then the value is -1);
 * with stream, non-temporal from the first 16-byte boundary of out. */
static void widen_range(const uint32_t *restrict in, int64_t *restrict out, ptrdiff_t lo,
                        ptrdiff_t hi, int none_to_minus1, int stream)
{
    ptrdiff_t i = lo;
#if defined(__SSE2__)
    for (; stream && i < hi && ((uintptr_t)(out + i) & 15u) != 0; i++)
        out[i] = widen_one(in[i], none_to_minus1);
    const __m128i none = _mm_set1_epi32(-1), zero = _mm_setzero_si128();
    for (; i + 4 <= hi; i += 4) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(in + i));
        const __m128i up = none_to_minus1 ? _mm_cmpeq_epi32(v, none) : zero;
        store_i128(out + i, _mm_unpacklo_epi32(v, up), stream);
        store_i128(out + i + 2, _mm_unpackhi_epi32(v, up), stream);
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
        widen_range(in, out, 0, m, none_to_minus1, 0);
        return;
    }
#pragma omp parallel num_threads(nt)
    {
        const ptrdiff_t t = omp_get_num_threads(), k = omp_get_thread_num();
        widen_range(in, out, m * k / t, m * (k + 1) / t, none_to_minus1, 0);
    }
}

static PyArrayObject *new_array(hspy_bin *bin, npy_intp n, int type)
{
    return (PyArrayObject *)hspy_bin_array(bin, 1, &n, type);
}

/* bytes from in to out; with stream, non-temporal from out's first 16-byte boundary. */
static void copy_out(void *restrict out, const void *restrict in, size_t bytes, int stream)
{
    char *o = out;
    const char *s = in;
    size_t k = 0;
#if defined(__SSE2__)
    if (stream) {
        k = (16u - ((uintptr_t)o & 15u)) & 15u;
        k = k < bytes ? k : bytes;
        memcpy(o, s, k);
        for (; k + 16 <= bytes; k += 16)
            store_i128(o + k, _mm_loadu_si128((const __m128i *)(s + k)), 1);
    }
#endif
    memcpy(o + k, s + k, bytes - k);
}

/* out[j] = i for the hits j of queries i = lo .. hi-1 (off[i] <= j < off[i+1]), written to
 * out[w .. w+n) through `stage` (n + HSPY_COPIES entries). A query has a few hits: HSPY_COPIES
 * copies of i are stored whatever its count, the next query's overwriting the excess (queries
 * go in order), and only longer runs loop; a branch on each count would mispredict. Returns
 * the first query not finished in the window. */
#define HSPY_COPIES 8
static npy_intp stage_queries(const size_t *off, npy_intp i, npy_intp hi, size_t w, size_t n,
                              int64_t *restrict stage)
{
    const size_t end = w + n;
    for (; i < hi; i++) {
        const size_t s = (off[i] > w ? off[i] : w) - w;
        const size_t e = (off[i + 1] < end ? off[i + 1] : end) - w;
#if defined(__SSE2__)
        const __m128i v = _mm_set1_epi64x((int64_t)i);
        for (int c = 0; c < HSPY_COPIES; c += 2)
            _mm_storeu_si128((__m128i *)(stage + s + c), v);
        for (size_t j = s + HSPY_COPIES; j < e; j++)
            stage[j] = (int64_t)i;
#else
        for (size_t j = s; j < e; j++)
            stage[j] = (int64_t)i;
#endif
        if (off[i + 1] >= end) /* the window is full; i continues in the next one */
            return off[i + 1] == end ? i + 1 : i;
    }
    return i;
}

/* out[w .. w+n) of the query index, i being the query of hit w: built in a small buffer that
 * stays in the cache, then copied out (non-temporal with stream), so the result's lines are
 * not read from memory before they are written. Returns the query of hit w + n. */
#define HSPY_WINDOW 1024 /* hits */
static npy_intp query_window(const size_t *off, npy_intp i, npy_intp hi, size_t w, size_t n,
                             int64_t *restrict out, int stream)
{
    int64_t stage[HSPY_WINDOW + HSPY_COPIES];
    i = stage_queries(off, i, hi, w, n, stage);
    copy_out(out + w, stage, n * sizeof *out, stream);
    return i;
}

typedef struct hits_parts {
    const hs_hits *h;
    int csr;
    int64_t *first, *circle; /* query (or offsets with csr), circle */
    float *t;
} hits_parts;

/* Queries lo .. hi-1's hits (and offsets) to the result arrays: one pass over their part. */
static void hits_slice(const hits_parts *p, npy_intp lo, npy_intp hi)
{
    const size_t *off = p->h->offsets;
    const size_t a = off[lo], b = off[hi];
    const int stream = b - a >= HSPY_STREAM_MIN;
    widen_range(p->h->idx, p->circle, (ptrdiff_t)a, (ptrdiff_t)b, 0, stream);
    copy_out(p->t + a, p->h->t + a, (b - a) * sizeof *p->t, stream);
    if (p->csr) {
        for (npy_intp i = lo; i < hi; i++)
            p->first[i] = (int64_t)off[i];
        if (hi == (npy_intp)p->h->count)
            p->first[hi] = (int64_t)off[hi];
    } else {
        npy_intp i = lo;
        for (size_t w = a, n; w < b; w += n) { /* windows end at multiples of HSPY_WINDOW */
            const size_t e = (w / HSPY_WINDOW + 1) * HSPY_WINDOW;
            n = (e < b ? e : b) - w;
            i = query_window(off, i, hi, w, n, p->first, stream);
        }
    }
#if defined(__SSE2__)
    _mm_sfence(); /* this thread's streamed stores are complete before the arrays are read */
#endif
}

PyObject *hspy_hits_result(const hs_hits *h, int csr, int threads, hspy_bin *bin)
{
    const npy_intp k = (npy_intp)h->total, m = (npy_intp)h->count;
    PyArrayObject *first = new_array(bin, csr ? m + 1 : k, NPY_INT64);
    PyArrayObject *circle = new_array(bin, k, NPY_INT64);
    PyArrayObject *t = new_array(bin, k, NPY_FLOAT32);
    if (!first || !circle || !t) {
        Py_XDECREF(first);
        Py_XDECREF(circle);
        Py_XDECREF(t);
        return NULL;
    }
    hits_parts p = {h, csr, (int64_t *)PyArray_DATA(first), (int64_t *)PyArray_DATA(circle),
                    (float *)PyArray_DATA(t)};
    const int nt = hspy_team(threads);
    Py_BEGIN_ALLOW_THREADS if (nt <= 1 || k + m < HSPY_PAR_MIN)
    {
        hits_slice(&p, 0, m); /* no parallel region, not even an inactive one */
    }
    else
    {
#pragma omp parallel num_threads(nt)
        {
            const npy_intp n = omp_get_num_threads(), u = omp_get_thread_num();
            hits_slice(&p, m * u / n, m * (u + 1) / n);
        }
    }
    Py_END_ALLOW_THREADS PyTypeObject *type = csr ? hspy_HitsCSRType : hspy_HitsType;
    PyObject *res = PyStructSequence_New(type);
    if (!res) {
        Py_DECREF(first);
        Py_DECREF(circle);
        Py_DECREF(t);
        return NULL;
    }
    PyStructSequence_SET_ITEM(res, 0, (PyObject *)first);
    PyStructSequence_SET_ITEM(res, 1, (PyObject *)circle);
    PyStructSequence_SET_ITEM(res, 2, (PyObject *)t);
    return res;
}

static PyStructSequence_Field closest_fields[] = {
    {"index", "int64: the closest circle hit, -1 for a miss (ties in t: the smaller index)"},
    {"t", "float32: its entry parameter, NaN for a miss"},
    {NULL, NULL},
};
static PyStructSequence_Field details_fields[] = {
    {"index", "int64: the closest circle hit, -1 for a miss (ties in t: the smaller index)"},
    {"t", "float32: its entry parameter, NaN for a miss"},
    {"point", "float32 (..., 2): the hit point P(t), NaN for a miss"},
    {"normal", "float32 (..., 2): unit normal from the circle's centre towards the point"},
    {NULL, NULL},
};
static PyStructSequence_Field hits_fields[] = {
    {"query", "int64: the query of each hit (flat index), ascending"},
    {"circle", "int64: the circle hit"},
    {"t", "float32: entry parameter; a query's hits are ordered by t, then circle"},
    {NULL, NULL},
};
static PyStructSequence_Field csr_fields[] = {
    {"offsets", "int64 (M + 1): query i's hits are entries offsets[i] .. offsets[i + 1] - 1"},
    {"circle", "int64: the circle hit"},
    {"t", "float32: entry parameter; a query's hits are ordered by t, then circle"},
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
};

int hspy_results_init(PyObject *module)
{
    PyTypeObject **types[] = {&hspy_ClosestType, &hspy_ClosestDetailsType, &hspy_HitsType,
                              &hspy_HitsCSRType, &hspy_OverlapsType,       &hspy_OverlapsCSRType,
                              &hspy_HitType};
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
