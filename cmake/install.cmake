# SPDX-License-Identifier: MIT
# Install rules: headers, libhitscan.a / libhitscan.so, the hitscan tool, the CMake package
# (hitscan::hitscan shared, hitscan::hitscan_static; hitscan::hitscan_mpi in the optional mpi
# component) and hitscan.pc. Each install component is one .deb (cpack -G DEB):
#   lib   libhitscan0      libhitscan.so.0
#   dev   libhitscan-dev   headers (C and C++), libhitscan.a, the CMake package, hitscan.pc
#   tools hitscan-tools    the hitscan tool
#   mpi   hitscan-mpi      libhitscan_mpi, hitscan/mpi.h, hitscanMpiTargets.cmake, hitscan_mpi
# so that only hitscan-mpi depends on MPI.
include(CMakePackageConfigHelpers)

set(HS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hitscan)
set(HS_LICENSE MIT) # SPDX identifier of LICENSE
# Installed programs find hitscan's libraries from any prefix without LD_LIBRARY_PATH: RUNPATH
# relative to the program; libhitscan_mpi finds libhitscan next to itself (a program's RUNPATH
# does not reach its libraries' own dependencies).
file(RELATIVE_PATH HS_BIN_TO_LIB ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})

# The C headers, and the C++ ones (hitscan.hpp and cpp/*.hpp, header-only over them).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hitscan
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev FILES_MATCHING PATTERN "*.h"
        PATTERN "*.hpp" PATTERN "mpi.h" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/include/hitscan/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hitscan COMPONENT dev)
install(TARGETS hitscan_shared hitscan EXPORT hitscanTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT hitscanTargets NAMESPACE hitscan:: DESTINATION ${HS_CMAKE_DIR} COMPONENT dev)
if(TARGET hitscan_cli)
  set_target_properties(hitscan_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${HS_BIN_TO_LIB}")
  install(TARGETS hitscan_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
endif()
# The mpi component, in its own export file: only find_package(hitscan COMPONENTS mpi) loads
# it, and only then is MPI looked for.
if(TARGET hitscan_mpi)
  set_target_properties(hitscan_mpi PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS hitscan_mpi EXPORT hitscanMpiTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT mpi
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/include/hitscan/mpi.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hitscan COMPONENT mpi)
  install(EXPORT hitscanMpiTargets NAMESPACE hitscan:: DESTINATION ${HS_CMAKE_DIR} COMPONENT mpi)
endif()
if(TARGET hitscan_mpi_cli)
  set_target_properties(hitscan_mpi_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${HS_BIN_TO_LIB}")
  install(TARGETS hitscan_mpi_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
endif()

# The package config links hitscan::hitscan_static to OpenMP's runtime by these names when it
# finds no OpenMP for the consumer's compiler.
set(HS_OPENMP_LIB_NAMES ${OpenMP_C_LIB_NAMES})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hitscanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hitscanConfig.cmake INSTALL_DESTINATION ${HS_CMAKE_DIR})
# 0.x: a minor version may change the API, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hitscanConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hitscanConfig.cmake ${PROJECT_BINARY_DIR}/hitscanConfigVersion.cmake
        DESTINATION ${HS_CMAKE_DIR} COMPONENT dev)

# pkg-config: prefix relative to the .pc file, so an unpacked tree (dpkg -x) works as installed.
file(RELATIVE_PATH HS_PC_TO_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" HS_PC_TO_PREFIX "${HS_PC_TO_PREFIX}")
set(HS_PC_LIBS_PRIVATE "")
# OpenMP's runtime by name (-lgomp with gcc), not -fopenmp: right for any consumer's compiler.
foreach(name ${OpenMP_C_LIB_NAMES})
  string(APPEND HS_PC_LIBS_PRIVATE " -l${name}")
endforeach()
string(APPEND HS_PC_LIBS_PRIVATE " -lm")
configure_file(${PROJECT_SOURCE_DIR}/cmake/hitscan.pc.in ${PROJECT_BINARY_DIR}/hitscan.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hitscan.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

# The licence: share/doc/hitscan/LICENSE in an install (component doc, which no .deb takes);
# each .deb carries it as /usr/share/doc/<package>/copyright in Debian's machine-readable
# format instead (EXCLUDE_FROM_ALL: installed only when CPack asks for the component).
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/hitscan
        COMPONENT doc)
file(READ ${PROJECT_SOURCE_DIR}/LICENSE HS_LICENSE_TEXT)
if(NOT HS_LICENSE_TEXT MATCHES "Copyright \\(c\\) ([^\n]+)\n\n(Permission .*)$")
  message(FATAL_ERROR "LICENSE: no 'Copyright (c) ...' line followed by the MIT licence text")
endif()
set(HS_COPYRIGHT "${CMAKE_MATCH_1}")
# The licence text as a field's continuation lines: indented one space, empty lines as " .".
string(STRIP "${CMAKE_MATCH_2}" HS_DEB_LICENSE_TEXT)
string(REPLACE "\n\n" "\n.\n" HS_DEB_LICENSE_TEXT "${HS_DEB_LICENSE_TEXT}")
string(REPLACE "\n" "\n " HS_DEB_LICENSE_TEXT " ${HS_DEB_LICENSE_TEXT}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/debian-copyright.in ${PROJECT_BINARY_DIR}/debian/copyright
               @ONLY)

# cpack -G DEB: one package per component.
set(HS_DEB_COMPONENTS lib dev)
set(CPACK_DEBIAN_LIB_PACKAGE_NAME libhitscan0)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_DESCRIPTION "The shared library (libhitscan.so.0).")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libhitscan-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION "Headers, the static library, the CMake package (hitscan::hitscan,\
 hitscan::hitscan_static) and hitscan.pc.")
set(CPACK_COMPONENT_DEV_DEPENDS lib)
if(TARGET hitscan_cli)
  list(APPEND HS_DEB_COMPONENTS tools)
  set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME hitscan-tools)
  set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION science)
  set(CPACK_DEBIAN_TOOLS_DESCRIPTION "The hitscan command-line tool: queries on scene files.")
endif()
if(TARGET hitscan_mpi)
  list(APPEND HS_DEB_COMPONENTS mpi)
  set(CPACK_DEBIAN_MPI_PACKAGE_NAME hitscan-mpi)
  set(CPACK_DEBIAN_MPI_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_MPI_DESCRIPTION "Distributed circle sets, queries and pairs over MPI:\
 libhitscan_mpi, hitscan/mpi.h, the CMake component mpi (hitscan::hitscan_mpi) and the\
 hitscan_mpi tool.")
  set(CPACK_DEBIAN_MPI_PACKAGE_SUGGESTS "libhitscan-dev, libopenmpi-dev")
  set(CPACK_COMPONENT_MPI_DEPENDS lib)
endif()
foreach(comp ${HS_DEB_COMPONENTS})
  string(TOUPPER ${comp} COMP)
  install(FILES ${PROJECT_BINARY_DIR}/debian/copyright
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${CPACK_DEBIAN_${COMP}_PACKAGE_NAME}
          COMPONENT ${comp} EXCLUDE_FROM_ALL)
endforeach()

set(CPACK_PACKAGE_NAME hitscan)
set(CPACK_PACKAGE_VENDOR "hitscan")
set(CPACK_PACKAGE_CONTACT "hitscan maintainers <hitscan@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "segment, ray, line and capsule vs circle queries (SIMD, uniform grid)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RPM_PACKAGE_LICENSE ${HS_LICENSE})
set(CPACK_FREEBSD_PACKAGE_LICENSE ${HS_LICENSE})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${HS_DEB_COMPONENTS})
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON) # Depends: libhitscan0 (= version) from *_DEPENDS
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# libhitscan_mpi and hitscan_mpi need libhitscan.so.0, which is in another package:
# dpkg-shlibdeps finds it in the build tree (the Depends on libhitscan0 comes from *_DEPENDS).
get_target_property(HS_SHARED_DIR hitscan_shared BINARY_DIR)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${HS_SHARED_DIR})
# dpkg-shlibdeps (dpkg-dev) declares the runtime libraries with their versions; without it,
# OpenMP's runtime is named by hand (and hitscan-mpi declares no MPI runtime).
find_program(HS_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT HS_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_LIB_PACKAGE_DEPENDS "libgomp1, libc6")
  set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "libgomp1, libc6")
  set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "libgomp1, libc6")
endif()
include(CPack)
