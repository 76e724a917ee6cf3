#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The distribution suite (include/hitscan/scene.h): each scene of the suite against its twin at
# N = M = 10^5 on one thread (closest, all hits, build, pairs, pairs + build), the two called
# by turns (BM_GridVsTwin, bench/bench_twin.cc), and point at two sizes; then prints each
# scene's time over its twin's (bench/suite_table.py) and keeps the run in
# bench/results/NAME.json: Google Benchmark JSON (scripts/bench_record.sh: date, load, commit,
# CPU, compiler) with the table under "suite" and the load average at the start and the end.
# Usage: bench/suite.sh [NAME (suite)] [extra hitscan_bench flags...]   (BUILD=build by default)
# It runs in rounds (five, or --benchmark_repetitions=R: R), each one run of every benchmark in
# a new random order, for at least 0.2 s; the table gives the medians over the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-suite}
[ $# -ge 1 ] && shift
rounds=5
extra=()
for a in "$@"; do
  case $a in
    --benchmark_repetitions=*) rounds=${a#*=} ;;
    *) extra+=("$a") ;;
  esac
done
filter='^BM_GridVsTwin/(Closest|All|Build|Pairs|PairsBuild)/'
filter+='(outlier|twoclusters|blob|filament|powerlaw)/100000/manual_time$'
filter+='|^BM_Grid(Closest|Any)/point/(10000/10000|100000/100000)/threads:1/real_time$'
filter+='|^BM_GridBuild/point/(10000|100000)/threads:1/real_time$'
filter+='|^BM_GridPairs/point/(1000|4000)/threads:1/real_time$'
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
ROUNDS=$rounds OMP_NUM_THREADS=1 scripts/bench_record.sh "$name" --benchmark_filter="$filter" \
  --benchmark_min_time=0.2 --benchmark_repetitions=1 \
  --benchmark_enable_random_interleaving=true ${extra[@]+"${extra[@]}"}
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
command="bench/suite.sh $name"
for a in "$@"; do command+=" $a"; done
python3 bench/suite_table.py "bench/results/$name.json" --command "$command" \
  --load-start "$load_start" --load-end "$load_end"
