#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs hitscan_peers in alternated rounds and keeps the results: bench/results/NAME.json (every
# round's benchmarks, each with its "round"; commit, CPU, compiler and the peers' versions in
# "context", with the run's log under "run_log": the commands, the load before each round); the
# medians and ratios (summarize.py) on stdout and in bench/peers/README.md's block for NAME.json.
# Usage: bench/peers/run.sh [ROUNDS [SCENES [SIZE]]]   e.g. bench/peers/run.sh 5 'uniform clustered mixed' 1000000
# Environment: BUILD (default build-peers), NAME (default peers), ORDER (the peers' query order,
# --peers_order: zorder, the default, or given).
# Each round is one process per scene running every library on it, mode after mode, hitscan
# first: the libraries alternate within seconds of one another, and the rounds repeat that.
# OMP_NUM_THREADS=1 and Embree's "threads=1" keep every library on one thread (the
# process_threads counter says so).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
read -r -a scenes <<< "${2:-uniform clustered mixed}"
size=${3:-1000000}
BUILD=${BUILD:-build-peers}
name=${NAME:-peers}
order=${ORDER:-zorder}
bench="$BUILD/bench/peers/hitscan_peers"
[ -x "$bench" ] || { echo "run.sh: $bench not built (see bench/peers/README.md)" >&2; exit 1; }

commit=$(git rev-parse --short=12 HEAD)
git diff --quiet HEAD -- src include bench ':(exclude)*.md' ':(exclude)bench/results' ||
  commit="$commit+dirty"
field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n1; }
clean() { printf '%s' "$1" | tr ',=' ';:'; }
cpu="$(field 'model name') (family $(field 'cpu family') model $(field model))"
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
compiler=$("$compiler" --version 2>/dev/null | head -n1)
embree=$(dpkg-query -W -f='${Version}' libembree-dev 2>/dev/null || echo none)
box2d_dir=$(sed -n 's/^HS_BOX2D_DIR:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
box2d=none
[ -n "$box2d_dir" ] && box2d=$(git -C "$box2d_dir" describe --tags --always 2>/dev/null ||
  sed -n 's/^\s*VERSION \([0-9.]*\)/\1/p' "$box2d_dir/CMakeLists.txt" | head -n1)
context="hitscan_commit=$commit,cpu=$(clean "$cpu"),compiler=$(clean "$compiler")"
context+=",embree=$(clean "$embree"),box2d=$(clean "$box2d")"

# the rounds' own files stay in the build folder (summarize.py reads them if a run is cut short)
tmp="$BUILD/peers-rounds/$name"
rm -rf "$tmp"
mkdir -p "$tmp"
mkdir -p bench/results
{
  echo "commit: $commit"
  echo "started: $(date -u +%Y-%m-%dT%H:%M:%SZ); $rounds rounds over: ${scenes[*]} at N = M = $size"
  echo "cpu: $cpu; peers' query order: $order"
} > "$tmp/run.log"
for ((k = 1; k <= rounds; k++)); do
  for s in "${scenes[@]}"; do
    filter="^BM_Peer[A-Za-z0-9]+/$s/$size(/|$)"
    args=(--peers_order="$order" --benchmark_filter="$filter" --benchmark_out="$tmp/$k-$s.json"
          --benchmark_out_format=json --benchmark_context="$context")
    echo "round $k $s: load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$tmp/run.log"
    echo "== round $k/$rounds, $s"
    OMP_NUM_THREADS=1 "$bench" "${args[@]}"
  done
done
printf 'command: OMP_NUM_THREADS=1 %q --peers_order=%q --benchmark_filter=%q (per round and scene)\n' \
  "$bench" "$order" "^BM_Peer[A-Za-z0-9]+/<scene>/$size(/|\$)" >> "$tmp/run.log"
echo "(run by: ORDER=$order bench/peers/run.sh $rounds '${scenes[*]}' $size)" >> "$tmp/run.log"
echo "finished: $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$tmp/run.log"
/usr/bin/python3 bench/peers/summarize.py --log "$tmp/run.log" --merge "bench/results/$name.json" \
  --readme bench/peers/README.md "$tmp"/*.json
echo "run.sh: wrote bench/results/$name.json"
