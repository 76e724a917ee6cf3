#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Soak test: thousands of random rebuild / query cycles (0..10^5 circles, every mode and ISA level), grid == brute force on samples, memory bounded. Minutes; not part of make test.
# Usage: scripts/soak.sh [cycles (3000)] [seed (1)] [build folder (build)]
set -euo pipefail
cd "$(dirname "$0")/.."
CYCLES=${1:-3000}
SEED=${2:-1}
BUILD=${3:-build}
[ -f "$BUILD/CMakeCache.txt" ] || cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j 2 --target hitscan_soak >/dev/null
/usr/bin/time -f 'soak: %e s wall, max RSS %M KB' "$BUILD/tests/hitscan_soak" "$CYCLES" "$SEED"
