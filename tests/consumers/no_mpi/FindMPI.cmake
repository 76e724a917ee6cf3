# SPDX-License-Identifier: MIT
# On the module path of a consumer that does not ask for hitscan's mpi component: looking for
# MPI at all is the failure (as it would be on a machine without MPI's development files).
message(FATAL_ERROR "find_package(MPI) was called without the mpi component being asked for")
