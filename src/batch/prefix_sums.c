/* SPDX-License-Identifier: MIT */
/* Parallel prefix sums: each thread sums its slice, the slice sums are scanned, then each
 * thread scans its slice from its base. Integer sums, so the result does not depend on the
 * slicing. */
#include "batch/prefix_sums.h"

#include "openmp.h"

void hs_prefix_sums(size_t *offsets, size_t n, int threads, size_t *part)
{
    offsets[0] = 0;
    if (threads <= 1) { /* no parallel region: even an inactive one makes and frees a team */
        for (size_t i = 0; i < n; i++)
            offsets[i + 1] += offsets[i];
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        const size_t tid = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
        const size_t lo = n / nt * tid + (tid < n % nt ? tid : n % nt);
        const size_t hi = lo + n / nt + (tid < n % nt ? 1 : 0);
        size_t sum = 0;
        for (size_t i = lo; i < hi; i++)
            sum += offsets[i + 1];
        part[tid] = sum;
#pragma omp barrier
        size_t base = 0;
        for (size_t u = 0; u < tid; u++)
            base += part[u];
        for (size_t i = lo; i < hi; i++) {
            base += offsets[i + 1];
            offsets[i + 1] = base;
        }
    }
}
