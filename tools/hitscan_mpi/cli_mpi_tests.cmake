# SPDX-License-Identifier: MIT
# hitscan_mpi writes the bytes hitscan writes: every built-in scene and mode on 4 ranks, and
# rays, lines, thickness, boundary semantics, brute force and CSV on 3.
set(HS_MPI_CLI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive)
function(hs_mpi_cli name np ext)
  add_test(NAME cli_mpi_${name}
    COMMAND ${CMAKE_COMMAND} -DSINGLE=$<TARGET_FILE:hitscan_cli>
            -DMPI_TOOL=$<TARGET_FILE:hitscan_mpi_cli> -DMPIEXEC=${MPIEXEC_EXECUTABLE} -DNP=${np}
            "-DARGS=${ARGN}" "-DMODES=closest;any;count;all" -DEXT=${ext}
            -DWORK=${CMAKE_CURRENT_BINARY_DIR}/cli_mpi_${name}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/same_bytes.cmake)
  set_tests_properties(cli_mpi_${name} PROPERTIES ENVIRONMENT "${HS_MPI_CLI_ENV}" TIMEOUT 600
                       PROCESSORS ${np})
endfunction()
foreach(scene uniform clustered mixed)
  hs_mpi_cli(${scene} 4 npy --scene ${scene} --n 20000 --m 20000)
endforeach()
hs_mpi_cli(rays_thick 3 npy --scene mixed --n 10000 --m 5000 --kind ray --thickness 0.5)
hs_mpi_cli(lines_boundary 3 csv --scene uniform --n 10000 --m 2000 --kind line --boundary)
hs_mpi_cli(brute 2 csv --scene clustered --n 3000 --m 3000 --brute)
