#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what hitscan needs to build, test and benchmark on Debian 12; does nothing when all is there.
set -euo pipefail

PKGS=(
  build-essential cmake clang libomp-dev   # compilers; libomp for clang's OpenMP
  libsimde-dev                             # portable intrinsics the kernels are written on
  libcmocka-dev                            # unit-test framework
  libxxhash-dev                            # test_golden_hash's hash (header-only use)
  libbenchmark-dev                         # hitscan_bench
  pkgconf dpkg-dev                         # packaging tests: pkg-config, dpkg-shlibdeps for the .deb
  python3-dev python3-numpy python3-setuptools          # the Python package (python/), built for
  python3-pytest python3-dask python3-distributed       # Debian's /usr/bin/python3: its tests,
  python3-matplotlib python3-pip python3-venv           # example and pip install
  libxml2-utils                            # xmllint: the examples' SVG pictures are checked
  libopenmpi-dev openmpi-bin               # hitscan_mpi and its tests (optional component)
)
# The aarch64 cross toolchain and qemu are CI-only: scripts/ci-aarch64.sh installs them.

exec bash "$(dirname "$0")/apt-install-missing.sh" "${PKGS[@]}"
