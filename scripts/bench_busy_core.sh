#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Threads under contention: examples/frame_loop with one core held by a busy loop, run with the
# default thread count, with one thread, and with libgomp's spinning wait policy (what the
# default was before the project's programs chose the passive one), in alternated rounds.
# Writes bench/results/busy_core.json: per configuration the median over rounds of each
# round's median frame (frames 1-7; frame 0 pays first-touch), with command, commit, CPU,
# compiler and date.
# Usage: scripts/bench_busy_core.sh [rounds (5)] [busy CPU (1)]   (BUILD=build by default)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
BUSY_CPU=${2:-1}
BUILD=${BUILD:-build}
prog="$BUILD/examples/frame_loop"
[ -x "$prog" ] || { echo "bench_busy_core: $prog not built (make build)" >&2; exit 1; }
command -v taskset >/dev/null || { echo "bench_busy_core: taskset (util-linux) not found" >&2; exit 1; }

taskset -c "$BUSY_CPU" bash -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null || true' EXIT

configs=("default" "one_thread" "spin_wait")
run() { # config -> "rebuild_ms frame_queries_ms" (medians of frames 1-7)
  local env=()
  case $1 in
    one_thread) env=(OMP_NUM_THREADS=1) ;;
    spin_wait) env=(OMP_WAIT_POLICY=active GOMP_SPINCOUNT=300000) ;;
  esac
  env "${env[@]}" "$prog" | awk '
    / frame [1-9]:/ { for (i = 1; i <= NF; i++) { if ($i == "rebuild") rb[n] = $(i + 1);
                        if ($i == "all") q[n] = $(i + 1) } n++ }
    function med(a, n,   i, j, t) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
                                     if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                   return n % 2 ? a[int(n / 2)] : (a[n / 2 - 1] + a[n / 2]) / 2 }
    END { printf "%.3f %.3f\n", med(rb, n), med(q, n) }'
}
declare -A rebuild query
for ((k = 0; k < ROUNDS; k++)); do
  for c in "${configs[@]}"; do
    read -r rb q < <(run "$c")
    rebuild[$c]+="$rb "
    query[$c]+="$q "
    echo "round $k $c: rebuild $rb ms, closest + all $q ms"
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR] = $1} END {
  print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n1; }
cpu="$(field 'model name') (family $(field 'cpu family') model $(field model))"
compiler=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
compiler=$("$compiler" --version 2>/dev/null | head -n1)
out=bench/results/busy_core.json
{
  printf '{\n  "command": "scripts/bench_busy_core.sh %s %s",\n' "$ROUNDS" "$BUSY_CPU"
  printf '  "commit": "%s",\n  "cpu": "%s",\n  "cores": %s,\n' \
    "$(git rev-parse --short=12 HEAD)" "$cpu" "$(nproc)"
  printf '  "compiler": "%s",\n  "date": "%s",\n' "$compiler" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  printf '  "program": "examples/frame_loop (200000 particles, 100000 lasers a frame)",\n'
  printf '  "busy": "a shell loop pinned to CPU %s",\n  "unit": "ms a frame",\n' "$BUSY_CPU"
  printf '  "results": {\n'
  sep=""
  for c in "${configs[@]}"; do
    printf '%s    "%s": {"rebuild_ms": %s, "closest_all_ms": %s}' "$sep" "$c" \
      "$(median <<<"${rebuild[$c]}")" "$(median <<<"${query[$c]}")"
    sep=$',\n'
  done
  printf '\n  }\n}\n'
} > "$out"
cat "$out"
