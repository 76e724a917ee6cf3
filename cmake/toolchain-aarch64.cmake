# SPDX-License-Identifier: MIT
# Cross toolchain for the NEON build: Debian's gcc-aarch64-linux-gnu, tests run under qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(HS_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${HS_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${HS_CROSS_TRIPLE}-g++)
# Debian multiarch puts target libraries (libcmocka:arm64) in /usr/lib/aarch64-linux-gnu; CMake only
# looks in that subdirectory when it knows the library architecture, and it cannot always infer it.
set(CMAKE_LIBRARY_ARCHITECTURE ${HS_CROSS_TRIPLE})

# Cross libc lives in /usr/aarch64-linux-gnu; multiarch packages live under / in <arch> subdirs, and
# architecture-independent headers (SIMDe, cmocka.h) in /usr/include, so both roots are searched.
set(CMAKE_FIND_ROOT_PATH /usr/${HS_CROSS_TRIPLE} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest (and add_custom_command on targets) run test binaries through qemu. -L points the guest's
# dynamic loader at the cross libc; LD_LIBRARY_PATH puts that libc ahead of a multiarch libc6:arm64
# (a different build that must not be mixed with the cross ld.so) while still finding libcmocka.
find_program(HS_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR
  ${HS_QEMU_AARCH64} -L /usr/${HS_CROSS_TRIPLE}
  -E LD_LIBRARY_PATH=/usr/${HS_CROSS_TRIPLE}/lib:/usr/lib/${HS_CROSS_TRIPLE})
