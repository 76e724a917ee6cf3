# SPDX-License-Identifier: MIT
# Runs `hitscan ARGS --mode M --out single.EXT` and `mpiexec -n NP hitscan_mpi ARGS --mode M
# --out dist.EXT` for every mode in MODES and fails unless the two files are byte-identical.
# Inputs: SINGLE, MPI_TOOL, MPIEXEC, NP, ARGS (;-list), MODES (;-list), EXT, WORK.
cmake_minimum_required(VERSION 3.20)
file(MAKE_DIRECTORY ${WORK})
foreach(mode ${MODES})
  set(a ${WORK}/single_${mode}.${EXT})
  set(b ${WORK}/dist_${mode}.${EXT})
  file(REMOVE ${a} ${b})
  execute_process(COMMAND ${SINGLE} ${ARGS} --mode ${mode} --out ${a}
                  RESULT_VARIABLE rc1 ERROR_VARIABLE err1 OUTPUT_QUIET)
  execute_process(COMMAND ${MPIEXEC} -n ${NP} ${MPI_TOOL} ${ARGS} --mode ${mode} --out ${b}
                  RESULT_VARIABLE rc2 ERROR_VARIABLE err2 OUTPUT_QUIET)
  if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "mode ${mode}: hitscan exit ${rc1} (${err1}), hitscan_mpi exit ${rc2} (${err2})")
  endif()
  if(NOT err2 MATCHES "ranks=${NP}")
    message(FATAL_ERROR "mode ${mode}: hitscan_mpi's summary does not name ${NP} ranks: ${err2}")
  endif()
  file(SHA256 ${a} ha)
  file(SHA256 ${b} hb)
  file(SIZE ${a} sa)
  if(NOT ha STREQUAL hb)
    message(FATAL_ERROR "mode ${mode}: ${a} and ${b} differ")
  endif()
  message(STATUS "mode ${mode}: ${sa} bytes, identical")
endforeach()
