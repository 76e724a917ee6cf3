/* SPDX-License-Identifier: MIT */
// The same program as consumer_mpi.c, compiled as C++: hitscan/mpi.h must compile as C++.
#include "consumer_mpi.c"
