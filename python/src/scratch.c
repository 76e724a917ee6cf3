/* SPDX-License-Identifier: MIT */
/* Memory a batch call reuses between calls: the queries in SoA form and the library's
 * workspace. */
#include "hspy.h" /* Python.h first, as the C API asks */

#include <stdlib.h>

int hspy_scratch_reserve(hspy_scratch *s, size_t m)
{
    if (!s->ws && hs_workspace_create(&s->ws) != HS_OK) {
        PyErr_NoMemory();
        return -1;
    }
    if (m <= s->cap && s->soa)
        return 0;
    /* 1/8 headroom, as the library's workspace, so slowly growing batches do not reallocate
     * every call */
    const size_t cap = m + m / 8 + 16;
    if (cap > ((size_t)-1) / (5 * sizeof(float))) {
        PyErr_NoMemory();
        return -1;
    }
    void *p = NULL;
    if (posix_memalign(&p, 64, 5 * cap * sizeof(float)) != 0) {
        PyErr_NoMemory();
        return -1;
    }
    free(s->soa);
    s->soa = p;
    s->u32 = (uint32_t *)(s->soa + 4 * cap);
    s->cap = cap;
    return 0;
}

void hspy_scratch_free(hspy_scratch *s)
{
    free(s->soa);
    hs_workspace_destroy(s->ws);
    s->soa = NULL;
    s->u32 = NULL;
    s->ws = NULL;
    s->cap = 0;
}
