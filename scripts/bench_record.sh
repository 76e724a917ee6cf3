#!/usr/bin/env bash
# Runs hitscan_bench and keeps its results as Google Benchmark JSON in bench/results/NAME.json
# (commit, CPU and compiler added to the file's "context"), and the exact command with the
# commit in bench/results/NAME.txt (the context's values cannot hold '=' or ',').
# Usage: scripts/bench_record.sh NAME [hitscan_bench flags...]   (BUILD=build by default)
# Example: scripts/bench_record.sh kernels --benchmark_filter='^BM_Kernel/' --benchmark_repetitions=5
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,5p' "$0" >&2; exit 2; }
name=$1
shift
BUILD=${BUILD:-build}
bench="$BUILD/bench/hitscan_bench"
[ -x "$bench" ] || { echo "bench_record: $bench not built (make build)" >&2; exit 1; }

commit=$(git rev-parse --short=12 HEAD)
git diff --quiet HEAD -- src include bench ':(exclude)*.md' ':(exclude)bench/results' ||
  commit="$commit+dirty"
field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n1; }
cpu="$(field 'model name') (family $(field 'cpu family') model $(field model))"
compiler=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
compiler=$("$compiler" --version 2>/dev/null | head -n1)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
clean() { printf '%s' "$1" | tr ',=' ';:'; }

mkdir -p bench/results
out="bench/results/$name.json"
args=("$@" --benchmark_out="$out" --benchmark_out_format=json
      --benchmark_context="hitscan_commit=$commit,cpu=$(clean "$cpu"),compiler=$(clean "$compiler"),cmake_build_type=$build_type")
{
  echo "commit: $commit"
  echo "started: $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  printf 'command:'
  printf " %q" "$bench" "$@"
  echo
  echo "(run by scripts/bench_record.sh $name, which adds --benchmark_out and --benchmark_context)"
} > "bench/results/$name.txt"
"$bench" "${args[@]}"
echo "bench_record: wrote $out and bench/results/$name.txt"
