# Install rules: headers, libhitscan.a / libhitscan.so, the hitscan tool, the CMake package
# (hitscan::hitscan shared, hitscan::hitscan_static) and hitscan.pc; CPack makes the .deb.
include(CMakePackageConfigHelpers)

set(HS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hitscan)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hitscan
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev FILES_MATCHING PATTERN "*.h"
        PATTERN "mpi.h" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/include/hitscan/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hitscan COMPONENT dev)
install(TARGETS hitscan_shared hitscan EXPORT hitscanTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The MPI component, when built: libhitscan_mpi.so, hitscan/mpi.h, hitscan::hitscan_mpi (the
# package config then finds MPI for it).
set(HS_PACKAGE_MPI OFF)
if(TARGET hitscan_mpi)
  set(HS_PACKAGE_MPI ON)
  install(TARGETS hitscan_mpi EXPORT hitscanTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/include/hitscan/mpi.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hitscan COMPONENT dev)
endif()
if(TARGET hitscan_mpi_cli)
  install(TARGETS hitscan_mpi_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tool)
endif()
if(TARGET hitscan_cli)
  install(TARGETS hitscan_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tool)
endif()

install(EXPORT hitscanTargets NAMESPACE hitscan:: DESTINATION ${HS_CMAKE_DIR} COMPONENT dev)
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

# cpack -G DEB: one package with the library, headers, CMake / pkg-config files and the tool.
set(CPACK_PACKAGE_NAME hitscan)
set(CPACK_PACKAGE_VENDOR "hitscan")
set(CPACK_PACKAGE_CONTACT "hitscan maintainers <hitscan@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "segment, ray, line and capsule vs circle queries (SIMD, uniform grid)")
set(CPACK_PACKAGE_DESCRIPTION "C11 library answering segment-, ray-, line- and capsule-vs-circle\
 queries in batches: a uniform-grid broadphase, SIMD kernels chosen at run time (SSE4.2, AVX2,\
 AVX-512, NEON) and OpenMP. Includes the headers, static and shared libraries, CMake and\
 pkg-config files and the hitscan command-line tool.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# dpkg-shlibdeps (dpkg-dev) declares the runtime libraries with their versions; without it,
# OpenMP's runtime is named by hand.
find_program(HS_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT HS_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libgomp1, libc6")
endif()
include(CPack)
