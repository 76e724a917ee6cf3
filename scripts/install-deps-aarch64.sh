#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian packages of the aarch64 cross build and its tests under qemu (scripts/ci-aarch64.sh),
# those missing; the arm64 architecture is added to dpkg for the target libraries.
set -euo pipefail

PKGS=(
  # Host tools. g++ is needed too: the top-level project enables CXX even with the bench off.
  # libc6-dev-arm64-cross is only a Recommends of the cross gcc: --no-install-recommends skips it.
  cmake make libsimde-dev gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross
  qemu-user
  # Target libraries through Debian multiarch. The cross gcc ships its own libgomp.
  libcmocka-dev:arm64 libxxhash-dev:arm64
)
exec bash "$(dirname "$0")/apt-install-missing.sh" "${PKGS[@]}"
