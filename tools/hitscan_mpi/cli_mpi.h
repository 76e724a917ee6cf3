/* SPDX-License-Identifier: MIT */
/* hitscan_mpi's distributed pieces, called from tools/hitscan/main.c built with HS_CLI_MPI. */
#ifndef HITSCAN_CLI_MPI_H
#define HITSCAN_CLI_MPI_H

#include <stdio.h>

#include "hitscan/hitscan.h"

int hscli_mpi_root(void); /* 1 on rank 0, the rank that writes and prints */
int hscli_mpi_ranks(void);
/* Collective: every rank passes the whole circle set and builds from its own slice (the
 * library moves circles to their owners). */
hs_status hscli_mpi_build(const float *x, const float *y, const float *r, size_t n,
                          const hs_grid_opts *go);
/* Collective: every rank passes the whole batch and answers its own slice of it (through the
 * distributed set, or by brute force over cs when cs != NULL); the answers are then gathered
 * on every rank into the whole-batch outputs. stats (when bo has them) cover the whole batch.
 * mode: 0 closest, 1 any, 2 count, 3 all. */
hs_status hscli_mpi_run(int mode, const hs_circles *cs, const hs_queries *qs,
                        const hs_batch_opts *bo, hs_closest_out *cl, uint8_t *hit, uint32_t *count,
                        hs_hits *all);
void hscli_mpi_print_build(FILE *h, double build_ms);

#endif
