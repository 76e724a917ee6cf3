#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs hitscan_bench and records the run as one file, bench/results/NAME.json (Google Benchmark
# JSON), rewritten in place: a run that fails leaves the old file as it was. Its "context"
# holds what Google Benchmark records (date, load average, CPU count, caches) and, added here,
# the exact command that regenerates the file, the commit measured, the CPU model, the compiler,
# the CMake build type and the processors the run was allowed (taskset -c pins it to some).
# ROUNDS=R runs the program R times one after another into the one file, each iteration's entry
# tagged with its "round" (1 .. R): runs to compare round by round (bench/suite.sh).
# Usage: scripts/bench_record.sh NAME [hitscan_bench flags...]   (BUILD=build, ROUNDS=1 by default)
# Example: scripts/bench_record.sh kernels --benchmark_filter='^BM_Kernel/' --benchmark_repetitions=5
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '3,9p' "$0" >&2; exit 2; }
name=$1
shift
case $name in
  '' | */* | .*) echo "bench_record: NAME must be a plain file name" >&2; exit 2 ;;
esac
BUILD=${BUILD:-build}
bench="$BUILD/bench/hitscan_bench"
[ -x "$bench" ] || { echo "bench_record: $bench not built (make build)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench_record: needs python3" >&2; exit 1; }

commit=$(git rev-parse --short=12 HEAD)
git diff --quiet HEAD -- src include bench ':(exclude)*.md' ':(exclude)bench/results' ||
  commit="$commit+dirty"
field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n1; }
cpu="$(field 'model name') (family $(field 'cpu family') model $(field model))"
compiler=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
compiler=$("$compiler" --version 2>/dev/null | head -n1)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
# the command as one would type it: words with shell characters in single quotes
quote() {
  if [[ $1 =~ ^[A-Za-z0-9_./=:,+-]+$ ]]; then printf '%s' "$1"
  else printf "'%s'" "${1//\'/\'\\\'\'}"; fi
}
cmd="scripts/bench_record.sh $(quote "$name")"
for a in "$@"; do cmd="$cmd $(quote "$a")"; done
[ "$BUILD" = build ] || cmd="BUILD=$(quote "$BUILD") $cmd"
rounds=${ROUNDS:-1}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench_record: ROUNDS must be a positive integer" >&2; exit 2; }
[ "$rounds" = 1 ] || cmd="ROUNDS=$rounds $cmd"

mkdir -p bench/results
out="bench/results/$name.json"
tmp=$(mktemp "bench/results/.$name.XXXXXX")
trap 'rm -f "$tmp" "$tmp".*' EXIT
for k in $(seq 1 "$rounds"); do
  "$bench" "$@" --benchmark_out="$tmp.$k" --benchmark_out_format=json
done
python3 - "$tmp" "$rounds" "$cmd" "$commit" "$cpu" "$compiler" "$build_type" <<'EOF'
import json
import os
import sys

path, rounds, command, commit, cpu, compiler, build_type = sys.argv[1:]
rounds = int(rounds)
with open(f"{path}.1") as f:
    doc = json.load(f)
if rounds > 1:
    for b in doc.get("benchmarks", []):
        b["round"] = 1
    for k in range(2, rounds + 1):
        with open(f"{path}.{k}") as f:
            more = json.load(f).get("benchmarks", [])
        for b in more:
            b["round"] = k
        doc.setdefault("benchmarks", []).extend(more)
    doc.setdefault("context", {})["rounds"] = rounds
doc.setdefault("context", {}).update(
    command=command, hitscan_commit=commit, cpu=cpu, compiler=compiler,
    cmake_build_type=build_type, cpus_allowed=sorted(os.sched_getaffinity(0)))
with open(path, "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
EOF
rm -f "$tmp".*
mv -f "$tmp" "$out"
trap - EXIT
echo "bench_record: wrote $out"
