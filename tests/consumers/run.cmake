# SPDX-License-Identifier: MIT
# Builds and runs the consumer project against hitscan one way (cmake -P, from ctest):
#   MODE=package    cmake --install into a prefix, find_package(hitscan 0.3 CONFIG REQUIRED)
#   MODE=pkgconfig  the same prefix through pkg-config, shared and static
#   MODE=cxxonly    the prefix from a project whose only language is C++, with and without
#                   OpenMP found for it
#   MODE=nompi      the prefix from a project where any find_package(MPI) fails
#   MODE=mpi        find_package(hitscan COMPONENTS mpi), in C and C++, run under mpiexec; the
#                   component's failures (no MPI, not installed, unknown component)
#   MODE=runpath    the installed programs start from the prefix without LD_LIBRARY_PATH
#   MODE=subdir     add_subdirectory(hitscan's source tree)
#   MODE=deb        cpack -G DEB, dpkg -x of the packages into a root (no root needed),
#                   find_package + pkg-config with libhitscan0 + libhitscan-dev alone
# Inputs: MODE, HS_BUILD (hitscan's build folder), HS_SOURCE, WORK (scratch), CC, CXX,
# LAUNCHER (the compiler launcher of hitscan's build, may be empty), MPI (ON when the mpi
# component is built), MPIEXEC and MPIEXEC_NUMPROC_FLAG.
cmake_minimum_required(VERSION 3.20)

function(hs_run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(HS_OUT "${out}" PARENT_SCOPE)
endfunction()

# The consumer's own compile lines must carry none of hitscan's private flags.
function(hs_check_no_leak build_dir)
  file(READ ${build_dir}/compile_commands.json cmds)
  string(REGEX MATCHALL "\"command\": \"[^\"]*consumer(_mpi)?\\.c(pp)?\"" lines "${cmds}")
  if(NOT lines)
    message(FATAL_ERROR "no consumer compile line in ${build_dir}/compile_commands.json")
  endif()
  foreach(flag -fopenmp -Wpedantic -Werror -mavx -msse4 -fvisibility -fsanitize)
    if(lines MATCHES "${flag}")
      message(FATAL_ERROR "hitscan's flag ${flag} leaked into a consumer: ${lines}")
    endif()
  endforeach()
endfunction()

# Configures the consumer project in `source` (ARGN: more cache entries) with hitscan's
# compilers and compiler launcher.
function(hs_configure source build_dir)
  set(launch "")
  if(LAUNCHER)
    set(launch -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${source} -B ${build_dir}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=${CC} -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${launch} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(HS_RC ${rc} PARENT_SCOPE)
  set(HS_OUT "${out}\n${err}" PARENT_SCOPE)
endfunction()

# Configures, builds and runs (EXES, unless NO_RUN) the consumer project in SOURCE (default:
# tests/consumers); cache entries come first.
function(hs_consumer_cmake build_dir)
  cmake_parse_arguments(PARSE_ARGV 1 A "NO_RUN" "SOURCE" "EXES")
  if(NOT A_SOURCE)
    set(A_SOURCE ${HS_SOURCE}/tests/consumers)
  endif()
  if(NOT A_EXES)
    set(A_EXES consumer_c_shared consumer_c_static consumer_cxx_shared consumer_cxx_static)
  endif()
  hs_configure(${A_SOURCE} ${build_dir} ${A_UNPARSED_ARGUMENTS})
  if(NOT HS_RC EQUAL 0)
    message(FATAL_ERROR "configuring ${A_SOURCE} failed:\n${HS_OUT}")
  endif()
  hs_run(${CMAKE_COMMAND} --build ${build_dir} -j 2)
  if(NOT A_NO_RUN)
    foreach(exe ${A_EXES})
      hs_run(${build_dir}/${exe})
      message(STATUS "${exe}: ${HS_OUT}")
    endforeach()
  endif()
  hs_check_no_leak(${build_dir})
endfunction()

function(hs_consumer_pkgconfig prefix)
  file(GLOB_RECURSE pcs ${prefix}/*/hitscan.pc)
  list(GET pcs 0 pc)
  get_filename_component(pcdir ${pc} DIRECTORY)
  file(STRINGS ${pc} spdx REGEX "^# SPDX-License-Identifier: MIT$")
  if(NOT spdx)
    message(FATAL_ERROR "${pc} has no '# SPDX-License-Identifier: MIT' line")
  endif()
  set(ENV{PKG_CONFIG_PATH} ${pcdir})
  hs_run(pkg-config --cflags --libs hitscan)
  string(STRIP "${HS_OUT}" shared_flags)
  hs_run(pkg-config --static --cflags --libs hitscan)
  string(STRIP "${HS_OUT}" static_flags)
  separate_arguments(shared_flags UNIX_COMMAND "${shared_flags}")
  separate_arguments(static_flags UNIX_COMMAND "${static_flags}")
  # Static: the archive by name, everything else from Libs.private alone.
  list(TRANSFORM static_flags REPLACE "^-lhitscan$" "-l:libhitscan.a")
  hs_run(${CC} ${HS_SOURCE}/tests/consumers/consumer.c -o ${WORK}/pc_shared ${shared_flags})
  hs_run(${CC} ${HS_SOURCE}/tests/consumers/consumer.c -o ${WORK}/pc_static ${static_flags})
  hs_run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${pcdir}/.. ${WORK}/pc_shared)
  message(STATUS "pkg-config shared (${shared_flags}): ${HS_OUT}")
  hs_run(${WORK}/pc_static)
  message(STATUS "pkg-config static (${static_flags}): ${HS_OUT}")
  hs_run(readelf -d ${WORK}/pc_static)
  if(HS_OUT MATCHES "libhitscan")
    message(FATAL_ERROR "the static consumer needs libhitscan.so:\n${HS_OUT}")
  endif()
  hs_run(readelf -d ${WORK}/pc_shared)
  if(NOT HS_OUT MATCHES "libhitscan\\.so\\.0")
    message(FATAL_ERROR "the shared consumer does not need libhitscan.so.0:\n${HS_OUT}")
  endif()
endfunction()


# Installed programs: RUNPATH relative to the program, and they start without LD_LIBRARY_PATH.
function(hs_check_programs prefix)
  set(progs hitscan)
  if(MPI)
    list(APPEND progs hitscan_mpi)
  endif()
  foreach(p ${progs})
    hs_run(readelf -d ${prefix}/bin/${p})
    if(NOT HS_OUT MATCHES "R(UN)?PATH\\)[^\n]*\\$ORIGIN/\\.\\./lib")
      message(FATAL_ERROR "${prefix}/bin/${p} has no RUNPATH $ORIGIN/../<libdir>:\n${HS_OUT}")
    endif()
    hs_run(${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${MPI_ENV}
           ${prefix}/bin/${p} --help)
    message(STATUS "${prefix}/bin/${p} --help: ok")
  endforeach()
endfunction()

# Configures tests/consumers/mpi (ARGN: cache entries) and expects it to fail with `expect`.
function(hs_mpi_consumer_fails name expect)
  hs_configure(${HS_SOURCE}/tests/consumers/mpi ${WORK}/${name} -DCMAKE_PREFIX_PATH=${WORK}/prefix
               ${ARGN})
  if(HS_RC EQUAL 0 OR NOT HS_OUT MATCHES "${expect}")
    message(FATAL_ERROR "${name}: expected a failure saying '${expect}', got (${HS_RC}):\n${HS_OUT}")
  endif()
  message(STATUS "${name}: fails as it should ('${expect}')")
endfunction()

# OpenMPI refuses root unless told; more ranks than cores.
set(MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1)
set(HS_POISON_MPI -DCMAKE_MODULE_PATH=${HS_SOURCE}/tests/consumers/no_mpi)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
if(MODE MATCHES "^(package|pkgconfig|cxxonly|nompi|mpi|runpath)$")
  hs_run(${CMAKE_COMMAND} --install ${HS_BUILD} --prefix ${WORK}/prefix)
endif()
if(MODE STREQUAL "package")
  hs_consumer_cmake(${WORK}/consumer -DCMAKE_PREFIX_PATH=${WORK}/prefix)
  # The licence is installed; the .deb's copyright files are not.
  if(NOT EXISTS ${WORK}/prefix/share/doc/hitscan/LICENSE)
    message(FATAL_ERROR "no share/doc/hitscan/LICENSE in the install")
  endif()
  file(GLOB extra_docs ${WORK}/prefix/share/doc/*/copyright)
  if(extra_docs)
    message(FATAL_ERROR "a plain install got the .deb's copyright files: ${extra_docs}")
  endif()
  file(READ ${WORK}/prefix/share/doc/hitscan/LICENSE text)
  file(GLOB_RECURSE config ${WORK}/prefix/*/hitscanConfig.cmake)
  file(STRINGS ${config} spdx REGEX "set\\(hitscan_LICENSE \"MIT\"\\)")
  if(NOT text MATCHES "^MIT License" OR NOT spdx)
    message(FATAL_ERROR "LICENSE or hitscanConfig.cmake's hitscan_LICENSE is not MIT")
  endif()
elseif(MODE STREQUAL "pkgconfig")
  hs_consumer_pkgconfig(${WORK}/prefix)
elseif(MODE STREQUAL "cxxonly")
  hs_consumer_cmake(${WORK}/consumer -DCMAKE_PREFIX_PATH=${WORK}/prefix
                    SOURCE ${HS_SOURCE}/tests/consumers/cxx_only
                    EXES consumer_cxx_shared consumer_cxx_static)
  # No OpenMP for the consumer's compiler: the package is still found, the static library
  # links OpenMP's runtime by the name it was built with.
  hs_consumer_cmake(${WORK}/consumer_no_openmp -DCMAKE_PREFIX_PATH=${WORK}/prefix
                    -DCMAKE_DISABLE_FIND_PACKAGE_OpenMP=ON
                    SOURCE ${HS_SOURCE}/tests/consumers/cxx_only
                    EXES consumer_cxx_shared consumer_cxx_static)
elseif(MODE STREQUAL "nompi")
  # The install has the mpi component (when built): plain find_package must not look for MPI.
  hs_consumer_cmake(${WORK}/consumer -DCMAKE_PREFIX_PATH=${WORK}/prefix ${HS_POISON_MPI})
  if(MPI) # the poison works: asking for the component does look for MPI
    hs_mpi_consumer_fails(poison_works "without the mpi component being asked for" ${HS_POISON_MPI})
  endif()
elseif(MODE STREQUAL "mpi")
  foreach(lang C CXX)
    hs_consumer_cmake(${WORK}/consumer_${lang} -DCMAKE_PREFIX_PATH=${WORK}/prefix
                      -DHS_CONSUMER_LANG=${lang} SOURCE ${HS_SOURCE}/tests/consumers/mpi NO_RUN)
    hs_run(${CMAKE_COMMAND} -E env ${MPI_ENV} ${MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 2
           ${WORK}/consumer_${lang}/consumer_mpi)
    message(STATUS "consumer_mpi (${lang}), 2 ranks: ${HS_OUT}")
  endforeach()
  # Without MPI: a required mpi component fails with the reason, an optional one is not found.
  hs_mpi_consumer_fails(no_mpi "mpi component needs MPI" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
  hs_configure(${HS_SOURCE}/tests/consumers/mpi ${WORK}/optional -DCMAKE_PREFIX_PATH=${WORK}/prefix
               -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DHS_COMPONENTS= -DHS_OPTIONAL_COMPONENTS=mpi)
  if(NOT HS_RC EQUAL 0 OR NOT HS_OUT MATCHES "hitscan_mpi_FOUND=FALSE")
    message(FATAL_ERROR "an optional mpi component without MPI:\n${HS_OUT}")
  endif()
  hs_mpi_consumer_fails(unknown "hitscan_FOUND to FALSE|NOT found" -DHS_COMPONENTS=nosuch)
  file(GLOB_RECURSE mpi_targets ${WORK}/prefix/*/hitscanMpiTargets.cmake)
  file(REMOVE ${mpi_targets})
  hs_mpi_consumer_fails(not_installed "without its mpi component")
elseif(MODE STREQUAL "runpath")
  hs_check_programs(${WORK}/prefix)
  if(MPI)
    file(GLOB_RECURSE libmpi ${WORK}/prefix/*/libhitscan_mpi.so.0)
    hs_run(readelf -d ${libmpi})
    if(NOT HS_OUT MATCHES "R(UN)?PATH\\)[^\n]*\\[\\$ORIGIN\\]")
      message(FATAL_ERROR "${libmpi} has no RUNPATH $ORIGIN:\n${HS_OUT}")
    endif()
  endif()
elseif(MODE STREQUAL "subdir")
  # Built with the scalar level alone (HS_SIMD=OFF) and the walk's inlining left to the
  # compiler (HS_FORCE_INLINE=OFF): what this test proves (targets, aliases, no leaked flags, a
  # right answer) depends on neither, and the library compiles in a fraction of a full build's
  # time. The levels' own flags are properties of their source files, which no consumer sees.
  hs_consumer_cmake(${WORK}/consumer -DHS_CONSUME=subdir -DHS_SOURCE_DIR=${HS_SOURCE}
                    -DHS_SIMD=OFF -DHS_FORCE_INLINE=OFF)
elseif(MODE STREQUAL "deb")
  hs_run(cpack -G DEB --config ${HS_BUILD}/CPackConfig.cmake -B ${WORK}/deb)
  set(pkgs libhitscan0 libhitscan-dev hitscan-tools)
  if(MPI)
    list(APPEND pkgs hitscan-mpi)
  endif()
  file(GLOB debs ${WORK}/deb/*.deb)
  list(LENGTH debs ndebs)
  list(LENGTH pkgs npkgs)
  if(NOT ndebs EQUAL npkgs)
    message(FATAL_ERROR "expected the packages ${pkgs}, got: ${debs}")
  endif()
  # What each package must hold (regular expressions on dpkg-deb -c), and must not.
  set(has_libhitscan0 "/libhitscan\\.so\\.0")
  set(not_libhitscan0 "\\.a\n|\\.h\n|\\.cmake\n|\\.pc\n|usr/bin/|mpi")
  set(has_libhitscan-dev "/libhitscan\\.a" "/libhitscan\\.so -> " "usr/include/hitscan/hitscan\\.h"
      "usr/include/hitscan/version\\.h" "usr/include/hitscan/hitscan\\.hpp"
      "usr/include/hitscan/cpp/grid\\.hpp" "hitscanConfig\\.cmake" "hitscanTargets\\.cmake"
      "pkgconfig/hitscan\\.pc")
  set(not_libhitscan-dev "/libhitscan\\.so\\.0|usr/bin/|mpi")
  set(has_hitscan-tools "usr/bin/hitscan\n")
  set(not_hitscan-tools "/lib|include/|mpi")
  set(has_hitscan-mpi "/libhitscan_mpi\\.so\\.0" "/libhitscan_mpi\\.so -> " "usr/include/hitscan/mpi\\.h"
      "hitscanMpiTargets\\.cmake" "usr/bin/hitscan_mpi\n")
  set(not_hitscan-mpi "/libhitscan\\.|hitscan\\.h|hitscanConfig|usr/bin/hitscan\n")
  foreach(p ${pkgs})
    file(GLOB deb ${WORK}/deb/${p}_*.deb)
    if(NOT deb)
      message(FATAL_ERROR "no ${p}_*.deb among ${debs}")
    endif()
    set(deb_${p} ${deb})
    hs_run(dpkg-deb -f ${deb} Package Version Depends)
    set(fields "${HS_OUT}")
    message(STATUS "${deb}:\n${fields}")
    if(NOT fields MATCHES "Version: [0-9]+\\.[0-9]+\\.[0-9]+")
      message(FATAL_ERROR "${p}: no version")
    endif()
    hs_run(dpkg-deb -f ${deb} Depends)
    set(depends_${p} "${HS_OUT}")
    hs_run(dpkg-deb -c ${deb})
    set(files "${HS_OUT}")
    foreach(f ${has_${p}} "usr/share/doc/${p}/copyright")
      if(NOT files MATCHES "${f}")
        message(FATAL_ERROR "${p} lacks ${f}:\n${files}")
      endif()
    endforeach()
    string(REPLACE "usr/share/doc/${p}/" "" files_but_doc "${files}")
    if(files_but_doc MATCHES "${not_${p}}")
      message(FATAL_ERROR "${p} holds '${CMAKE_MATCH_0}', which belongs elsewhere:\n${files}")
    endif()
    # The copyright file in Debian's machine-readable format, with the licence's text.
    hs_run(dpkg -x ${deb} ${WORK}/x_${p})
    file(READ ${WORK}/x_${p}/usr/share/doc/${p}/copyright copyright)
    if(NOT copyright MATCHES "^Format: https://www\\.debian\\.org/doc/packaging-manuals/copyright-format/1\\.0/\n"
       OR NOT copyright MATCHES "\nFiles: \\*\nCopyright: 2026 The hitscan authors\nLicense: MIT\n"
       OR NOT copyright MATCHES "\n\nLicense: MIT\n Permission is hereby granted.*\n \\.\n THE SOFTWARE IS PROVIDED")
      message(FATAL_ERROR "${p}: copyright is not the MIT licence in Debian's format:\n${copyright}")
    endif()
  endforeach()
  # A game developer's packages pull no MPI; the runtime needs OpenMP's; the rest follow.
  foreach(p libhitscan0 libhitscan-dev)
    if(depends_${p} MATCHES "[Mm][Pp][Ii]")
      message(FATAL_ERROR "${p} depends on MPI: ${depends_${p}}")
    endif()
  endforeach()
  if(NOT depends_libhitscan0 MATCHES "libgomp1")
    message(FATAL_ERROR "libhitscan0 does not depend on OpenMP's runtime (libgomp1)")
  endif()
  if(NOT depends_libhitscan-dev MATCHES "libhitscan0 \\(= ")
    message(FATAL_ERROR "libhitscan-dev does not depend on libhitscan0 of its version")
  endif()
  if(MPI AND NOT depends_hitscan-mpi MATCHES "libhitscan0 \\(= .*(libopenmpi|libmpich)")
    message(FATAL_ERROR "hitscan-mpi does not depend on libhitscan0 and OpenMPI")
  endif()
  # libhitscan0 + libhitscan-dev are what a C or C++ program needs, and no MPI is looked for.
  foreach(p libhitscan0 libhitscan-dev)
    hs_run(dpkg -x ${deb_${p}} ${WORK}/root)
  endforeach()
  hs_consumer_cmake(${WORK}/consumer -DCMAKE_PREFIX_PATH=${WORK}/root/usr ${HS_POISON_MPI})
  hs_consumer_pkgconfig(${WORK}/root/usr)
  # The programs start from the unpacked tree (RUNPATH).
  list(REMOVE_ITEM pkgs libhitscan0 libhitscan-dev)
  foreach(p ${pkgs})
    hs_run(dpkg -x ${deb_${p}} ${WORK}/root)
  endforeach()
  hs_check_programs(${WORK}/root/usr)
else()
  message(FATAL_ERROR "MODE must be package, pkgconfig, cxxonly, nompi, mpi, runpath, subdir or deb")
endif()
