/* SPDX-License-Identifier: MIT */
/* Internal: OpenMP's runtime calls, or a team of one when the library is compiled without
 * OpenMP (the WebAssembly build: no threads). The pragmas need nothing: a compiler without
 * -fopenmp ignores them and every region runs once, on the calling thread, which is what a
 * team of one does. */
#ifndef HITSCAN_OPENMP_H
#define HITSCAN_OPENMP_H

#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_max_threads(void) { return 1; }
#endif

#endif
