#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every libFuzzer target of tests/fuzz for a fixed time each, on the committed seeds plus a corpus grown in the build folder; prints each one's executions.
# Usage: scripts/fuzz-long.sh [seconds per target (3600)] [build folder (build-fuzz)] [target names...]
# The build folder is configured with -DHS_BUILD_FUZZ=ON and clang when it does not exist yet.
# Findings (crash-*, leak-*, timeout-* inputs) go to <build>/fuzz-artifacts/; the exit status
# is non-zero if any target found one. FUZZ_JOBS=n runs n targets at once (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-3600}
BUILD=${2:-build-fuzz}
shift $(( $# > 2 ? 2 : $# ))
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(npy csv scalar isa batch rebuild pairs overlap workspace walls)

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DHS_BUILD_FUZZ=ON -DHS_BUILD_BENCH=OFF -DHS_INSTALL=OFF >/dev/null
fi
cmake --build "$BUILD" -j 2 --target $(printf 'fuzz_%s ' "${TARGETS[@]}") >/dev/null

mkdir -p "$BUILD/fuzz-artifacts" "$BUILD/fuzz-logs"
run_one() {
  local t=$1 grown="$BUILD/fuzz-corpus/$1"
  mkdir -p "$grown"
  # grown corpus first: libFuzzer adds new inputs to the first folder, never to the seeds
  if "$BUILD/tests/fuzz/fuzz_$t" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
      -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$BUILD/fuzz-artifacts/$t-" \
      "$grown" "tests/fuzz/corpus/$t" >"$BUILD/fuzz-logs/$t.log" 2>&1; then
    status=ok
  else
    status=FINDING
  fi
  local execs
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$BUILD/fuzz-logs/$t.log" | grep -o '[0-9]*$' || echo '?')
  printf '%-10s %-8s %12s executions in %ss\n' "$t" "$status" "$execs" "$SECONDS_EACH"
  [ "$status" = ok ]
}

export -f run_one
export BUILD SECONDS_EACH
fail=0
printf '%s\n' "${TARGETS[@]}" | xargs -P "${FUZZ_JOBS:-1}" -I{} bash -c 'run_one {}' || fail=1
if [ $fail -ne 0 ]; then
  echo "fuzz: findings in $BUILD/fuzz-artifacts (logs in $BUILD/fuzz-logs)"
  tail -n 30 "$BUILD"/fuzz-logs/*.log | grep -E 'FUZZ FINDING|ERROR|runtime error|==>' || true
  exit 1
fi
