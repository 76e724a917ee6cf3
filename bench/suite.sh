#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The distribution suite (include/hitscan/scene.h): runs each scene of the suite and its twin
# once at N = M = 10^5 on one thread (closest, all hits, build, pairs), and point at two sizes,
# then prints each scene's time over its twin's (bench/suite_table.py) and keeps the run in
# bench/results/NAME.json: Google Benchmark JSON (scripts/bench_record.sh: date, load, commit,
# CPU, compiler) with the table under "suite" and the load average at the start and the end.
# Usage: bench/suite.sh [NAME (suite)] [extra hitscan_bench flags...]   (BUILD=build by default)
# Each benchmark runs five times, the runs of all of them shuffled together so that a scene and
# its twin meet the same load (the table takes each one's median), each time at least once and
# until 0.2 s have passed.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-suite}
[ $# -ge 1 ] && shift
scenes='outlier|uniform|twoclusters|twoclusters_near|blob|blob_alone|filament|filament_axis'
scenes+='|powerlaw|clustered'
filter="^BM_Grid(Closest|All)/($scenes)/100000/100000/threads:1/real_time\$"
filter+="|^BM_Grid(Build|Pairs)/($scenes)/100000/threads:1/real_time\$"
filter+="|^BM_Grid(Closest|Any)/point/(10000/10000|100000/100000)/threads:1/real_time\$"
filter+="|^BM_GridBuild/point/(10000|100000)/threads:1/real_time\$"
filter+="|^BM_GridPairs/point/(1000|4000)/threads:1/real_time\$"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
OMP_NUM_THREADS=1 scripts/bench_record.sh "$name" --benchmark_filter="$filter" \
  --benchmark_min_time=0.2 --benchmark_repetitions=5 \
  --benchmark_enable_random_interleaving=true "$@"
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
command="bench/suite.sh $name"
for a in "$@"; do command+=" $a"; done
python3 bench/suite_table.py "bench/results/$name.json" --command "$command" \
  --load-start "$load_start" --load-end "$load_end"
