#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Threads inside a program that holds every core: bench/threads_frame.c (hitscan_threads_bench)
# times the game frame of examples/game_frame.h call by call at the default team, on one
# thread and on a task system, quiet and then beside a busy loop per processor that it starts
# and stops itself; then, quiet, the 10^6 x 10^6 scaling. Writes bench/results/threads.json
# with the command, commit, CPU, compiler, date and the load average before and after.
# Run it on an otherwise idle machine: other programs' load is noise in every figure.
# Usage: scripts/bench_threads.sh [calls per configuration (60)] [rounds at 10^6 (5)]
#        (BUILD=build by default)
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${1:-60}
ROUNDS=${2:-5}
BUILD=${BUILD:-build}
prog="$BUILD/bench/hitscan_threads_bench"
[ -x "$prog" ] || { echo "bench_threads: $prog not built" >&2; exit 1; }
field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n1; }
cpu="$(field 'model name') (family $(field 'cpu family') model $(field model))"
compiler=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
compiler=$("$compiler" --version 2>/dev/null | head -n1)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
body=$("$prog" "$CALLS" "$ROUNDS")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
out=bench/results/threads.json
{
  printf '{\n  "command": "scripts/bench_threads.sh %s %s",\n' "$CALLS" "$ROUNDS"
  printf '  "commit": "%s",\n  "cpu": "%s",\n  "cores": %s,\n' \
    "$(git rev-parse --short=12 HEAD)" "$cpu" "$(nproc)"
  printf '  "compiler": "%s",\n  "date": "%s",\n' "$compiler" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  printf '  "load_avg_before": "%s",\n  "load_avg_after": "%s",\n' "$load_before" "$load_after"
  printf '  "unit": "ms per call, median; ratios to one thread",\n'
  printf '  "results": %s\n}\n' "$body"
} > "$out"
echo "bench_threads: wrote $out"
