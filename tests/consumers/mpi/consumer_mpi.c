/* SPDX-License-Identifier: MIT */
/* A program using the installed mpi component: each rank gives one circle, rank p's at
 * x = 10 + 10 p, and rank 0 shoots a segment along the x axis, whose first hit must be rank 0's
 * circle (global id 0), entered at x = 9. */
#include <hitscan/hitscan.h>
#include <hitscan/mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const float x = 10.0f + 10.0f * (float)rank, y = 0.0f, r = 1.0f;
    hs_mpi_set *set = NULL;
    int ok = hs_mpi_build(MPI_COMM_WORLD, &x, &y, &r, NULL, NULL, NULL, 1, NULL, &set) == HS_OK;

    const float ax = 0.0f, ay = 0.0f, dx = 100.0f, dy = 0.0f;
    hs_queries qs = hs_queries_segments(&ax, &ay, &dx, &dy, rank == 0 ? 1 : 0);
    uint32_t idx = HS_NONE;
    float t = 0.0f;
    hs_closest_out hit = {&idx, &t, NULL, NULL, NULL, NULL, NULL};
    ok = ok && hs_mpi_closest(set, &qs, NULL, hit) == HS_OK;
    if (rank == 0) {
        /* the segment enters the circle at x = 9: t = 0.09 */
        ok = ok && idx == 0 && t > 0.089f && t < 0.091f;
        printf("mpi consumer: hitscan %s, closest idx %u t %.6f: %s\n", hs_version(), (unsigned)idx,
               (double)t, ok ? "ok" : "WRONG");
    }
    hs_mpi_destroy(set);
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
