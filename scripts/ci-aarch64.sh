#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI stage: cross-build hitscan for aarch64 (NEON kernels) and run its ctest suite under qemu-user.
# Idempotent on Debian 12: installs only what is missing. Usage: bash scripts/ci-aarch64.sh
# Env: BUILD (default build-aarch64), JOBS (default 2), CMAKE_FLAGS (extra configure flags),
# HS_TEST_QUICK (default 1: tests scale down, as emulation is much slower than native; set it
# empty, HS_TEST_QUICK= , for the full Release scale).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build-aarch64}
JOBS=${JOBS:-2}
CMAKE_FLAGS=${CMAKE_FLAGS:-}
# the tests look only at whether the variable exists
if [ -n "${HS_TEST_QUICK-1}" ]; then
  export HS_TEST_QUICK=${HS_TEST_QUICK:-1}; scale="HS_TEST_QUICK=$HS_TEST_QUICK"
else
  unset HS_TEST_QUICK; scale="full scale"
fi
start=$(date +%s)

bash scripts/install-deps-aarch64.sh

# Deterministic: the answers are x86-64's, bit for bit (the golden hash). HS_FORCE_INLINE=OFF:
# the same answers from a walk the cross compiler builds in a fraction of the time.
echo "== aarch64: configure ($BUILD)"
cmake -S . -B "$BUILD" \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-aarch64.cmake" \
  -DCMAKE_BUILD_TYPE=Release \
  -DHS_WERROR=ON -DHS_DETERMINISTIC=ON -DHS_FORCE_INLINE=OFF -DHS_BUILD_BENCH=OFF -DHS_BUILD_TOOLS=OFF \
  $CMAKE_FLAGS

echo "== aarch64: build"
cmake --build "$BUILD" -j "$JOBS"

# Catch a silently host-built tree (toolchain file ignored because of a stale cache).
lib="$BUILD/src/libhitscan.a"
if ! aarch64-linux-gnu-objdump -f "$lib" | grep 'file format elf64-littleaarch64' >/dev/null; then
  echo "ci-aarch64: $lib is not an aarch64 archive" >&2
  exit 1
fi
# The tests exercise whatever hs_isa_supported() reports, so a NEON table that silently failed
# to compile in (e.g. a processor-name mismatch in src/kernels/CMakeLists.txt), or its grid walkers
# (src/walk/CMakeLists.txt), would go unnoticed.
for table in hs_kernels_neon hs_grid_walkers_neon; do
  if ! aarch64-linux-gnu-nm "$lib" | grep -E " [RDT] $table\$" >/dev/null; then
    echo "ci-aarch64: $lib has no $table table" >&2
    exit 1
  fi
done

echo "== aarch64: ctest under qemu ($scale)"
# qemu-user cannot fork a process that runs threads (its own assertions stop the child), so the
# tests that fork after the library's helpers started skip themselves under it.
# test_nomem (every allocation failed in turn) and test_tasks (calls on a task system) run
# paths that do not depend on the ISA, natively in the other stages, and are among the longest
# tests under emulation.
# HITSCAN_ISA=neon: the grid's differential tests take NEON alone (test_util.h's test_isa_on);
# the other stages test the scalar level, the same portable C, natively. HS_TEST_UNDER_QEMU also
# shrinks the largest differential tests further, and leaves the parts no ISA changes (the
# order's scenes, the pair lists' assembly, brute force's subsets) to the native stages
# (test_util.h's test_emulated).
(cd "$BUILD" && HS_TEST_UNDER_QEMU=1 HITSCAN_ISA=neon ctest --output-on-failure --no-tests=error -j "$JOBS" \
   -E '^test_(nomem|tasks)$')

echo "ci-aarch64: passed in $(( $(date +%s) - start )) s"
